"""What each seat knows during trick play, as data (docs/rules.md §6.1).

A seat sees its own hand; the cards laid open to everyone (the Tapp, turned face up before the
exchange, and the melds every player declares after naming trump); the cards played; and what
the trick rules of §6 reveal. Those rules make every inference a set of card types a seat can no
longer hold: a seat that does not follow is void in the led suit; one that then does not trump
holds no trump; one that follows (or trumps) without beating where it must holds no higher card
of that suit. :func:`revealed` is that set, exactly: a hand may have played the card iff it
holds none of the revealed types.

:class:`PlayState` is a deal in play (every hand known: the truth, for the playout);
:meth:`PlayState.view` gives one seat's :class:`Knowledge`, which is all a single-dummy
player and the world sampler (:mod:`binokel_sim.play.worlds`) read.

>>> from binokel_sim.cards import counts_of, parse_cards, format_cards
>>> from binokel_sim.play.legal import mask_cards
>>> format_cards(mask_cards(revealed(parse_cards("EU")[0], parse_cards("EK")[0], parse_cards("EK")[0], 2)))
'EA E10'
>>> format_cards(mask_cards(revealed(parse_cards("GA")[0], parse_cards("EK")[0], parse_cards("EK")[0], 2)))
'EA E10 EK EO EU E7 HA H10 HK HO HU H7'
>>> int(shown_counts(counts_of(parse_cards("GK GO EO HO SO SU EA")), 1, _table("standard")).sum())
6
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

import numpy as np

from binokel_sim.cards import CARD_POINTS, N_TYPES, DECK_COUNTS
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import (BINOKEL, DISSLE, DOUBLE_BINOKEL, DOUBLE_FAMILY, DOUBLE_PAIR, EIGHT, EIGHT_SEVENS,
                                      EIGHT_TENS, FAMILY, FOUR, GO, KIND_RANKS, PAIR, SU, binokel_level, kind_level,
                                      meld_total, suit_structure)
from binokel_sim.play.legal import (BEAT_LED, HIGHER_MASK, PARTNER_FREES, SUIT_MASK, beats, legal_in_trick, play_rule,
                                    trick_mates, trick_top, trick_winner)
from binokel_sim.rules import Rules

__all__ = ["Knowledge", "PlayState", "revealed", "shown_counts", "replay", "trumps_of"]


def _table(name: str) -> np.ndarray:
    from binokel_sim.rules import load_rules

    return load_rules(name).meld_array()


@kernel(noalloc=True)
def _seq_shown(counts, s, is_trump, table, out):
    # Families first, then the pairs among the other King-Ober couples (scorer.suit_structure); a meld
    # worth nothing is not laid out.
    f, p = suit_structure(counts, s)
    t = np.int64(1) if is_trump else np.int64(0)
    fam = table[(DOUBLE_FAMILY if f >= 2 else FAMILY) + t] if f > 0 else 0
    pair = table[(DOUBLE_PAIR if p >= 2 else PAIR) + t] if p > 0 else 0
    nf = f if fam > 0 else 0
    np_ = p if pair > 0 else 0
    b = s * 6
    for r in range(5):
        out[b + r] = nf
    out[b + 2] = nf + np_
    out[b + 3] = nf + np_


@kernel
def shown_counts(counts, trump, table):
    """Cards (``uint8[24]``) that the melds of ``counts`` at ``trump`` lay open: per card type the most copies
    one kind of meld uses (sequences, of a kind, Binokel, Dissle), since a card may serve in one meld of
    each kind (docs/rules.md §5). A meld worth 0 points is not declared."""
    res = np.zeros(24, dtype=np.uint8)
    seq = np.zeros(24, dtype=np.int64)
    for s in range(4):
        _seq_shown(counts, s, s == trump, table, seq)
    for c in range(24):
        res[c] = seq[c]
    for i in range(4):
        r = KIND_RANKS[i]
        n = kind_level(counts, r)
        pts = table[EIGHT + i] if n >= 2 else (table[FOUR + i] if n == 1 else 0)
        if pts > 0:
            for s in range(4):
                res[s * 6 + r] = max(res[s * 6 + r], n)
    for r, slot in ((1, EIGHT_TENS), (5, EIGHT_SEVENS)):
        if kind_level(counts, r) >= 2 and table[slot] > 0:
            for s in range(4):
                res[s * 6 + r] = 2
    b = binokel_level(counts)
    if b > 0 and table[DOUBLE_BINOKEL if b >= 2 else BINOKEL] > 0:
        res[GO] = max(res[GO], b)
        res[SU] = max(res[SU], b)
    if trump >= 0 and table[DISSLE] > 0:
        res[trump * 6 + 5] = max(res[trump * 6 + 5], counts[trump * 6 + 5])
    return res


def revealed(card: int, top: int, win: int, trump: int, rule: int = 0, mate: bool = False) -> int:
    """Type mask a seat can no longer hold after playing ``card`` to a trick whose led suit's highest card is
    ``top`` and that ``win`` wins so far (``top`` -1: it led; ``trump`` -1: none; ``rule``, ``mate``: the
    play-rules word and whether a partner played ``win``, as :func:`binokel_sim.play.legal.legal_mask`
    reads them). Exactly the hands from which ``card`` was legal hold none of these types (docs/rules.md §6;
    tested against :func:`binokel_sim.play.legal.legal_mask`)."""
    if top < 0:
        return 0
    ls, cs, ws = top // 6, card // 6, win // 6
    free = bool(rule & PARTNER_FREES) and mate
    if cs == ls:
        # Following: the duty to beat holds unless the partner holds the trick, or a trump already wins a
        # plain-suit trick (then, with BEAT_LED, the duty is to beat the led suit's highest card).
        if free or (ws != ls and not rule & BEAT_LED):
            return 0
        ref = win if ws == ls else top
        return 0 if card < ref else int(HIGHER_MASK[ref])
    out = int(SUIT_MASK[ls])
    if trump < 0 or free:
        return out
    if cs != trump:
        return out | int(SUIT_MASK[trump])
    if ws == trump and not beats(card, win, trump):
        out |= int(HIGHER_MASK[win])
    return out


@dataclass(frozen=True, eq=False)  # arrays inside: compared by identity
class Replay:
    """The public record of the cards played so far (see :func:`replay`)."""

    played: np.ndarray  # uint8[seats, 24]
    forbidden: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]
    points: tuple[int, ...]  # card points of each seat's tricks, the last-trick bonus included


def replay(seats: int, trump: int, leader: int, cards: Sequence[int], tricks: int, last_trick: int, rule: int = 0,
           side: Sequence[int] = ()) -> Replay:
    """Replay ``cards`` (in playing order, from ``leader``'s first lead) of a deal of ``tricks`` tricks
    (``rule``: the play-rules word; ``side``: the soloist's seats, the teams for ``PARTNER_FREES``).

    >>> r = replay(3, -1, 0, [2, 4, 0, 6], tricks=2, last_trick=10)   # EK EU EA, then seat 2 leads GA
    >>> r.leader, r.trick, r.won, r.points, r.forbidden      # seat 1 did not beat the King: no EA, no E10
    (2, (6,), (2,), (0, 0, 17), (0, 3, 0))
    """
    played = np.zeros((seats, N_TYPES), dtype=np.uint8)
    forbidden = [0] * seats
    won: set[int] = set()
    points = [0] * seats
    trick: list[int] = []
    lead, done = leader, 0
    for c in cards:
        s = (lead + len(trick)) % seats
        if trick:
            arr = np.array(trick, dtype=np.int64)
            w = int(trick_winner(arr, len(trick), trump))
            mate = bool(trick_mates(side, lead, seats, len(trick)) >> w & 1)
            forbidden[s] |= revealed(c, int(trick_top(arr, len(trick))), trick[w], trump, rule, mate)
        played[s, c] += 1
        trick.append(c)
        if len(trick) == seats:
            ws = (lead + int(trick_winner(np.array(trick, dtype=np.int64), seats, trump))) % seats
            done += 1
            points[ws] += int(CARD_POINTS[trick].sum()) + (last_trick if done == tricks else 0)
            won.add(ws)
            lead, trick = ws, []
    played.setflags(write=False)
    return Replay(played, tuple(forbidden), lead, tuple(trick), tuple(sorted(won)), tuple(points))


@dataclass(frozen=True, eq=False)
class Knowledge:
    """What seat ``seat`` knows before its next card. Arrays are read-only.

    ``hand``: its cards now; ``pile``: the soloist's discards where this seat knows them (the soloist
    itself), else None; ``pile_trumps``: where it does not, the trumps among them if the rules announce
    them (``discard.trumps_shown``; the discards hold no other trump), else None; ``tapp``: the Tapp as
    turned face up (None where it was laid away unseen);
    ``shown``: per seat the cards its declared melds laid open (None: nobody melds, Durch and Bettel),
    ``melds``: their points; ``played``, ``forbidden`` (type masks from :func:`revealed`), ``held``
    (cards each seat holds now), ``leader`` and ``trick`` (the trick in progress), ``won`` (seats that
    took a trick): the record of play. ``decision``: cards played so far, the index that seeds the
    worlds drawn at this decision. ``rule``: the play-rules word (:func:`binokel_sim.play.legal.play_rule`).
    """

    seat: int
    seats: int
    trump: int
    soloist: int
    side: tuple[int, ...]
    deck: np.ndarray
    table: np.ndarray
    last_trick: int
    hand: np.ndarray
    pile: np.ndarray | None
    pile_size: int
    tapp: np.ndarray | None
    shown: np.ndarray | None
    melds: tuple[int, ...]
    played: np.ndarray
    forbidden: tuple[int, ...]
    held: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    won: tuple[int, ...]
    decision: int
    rule: int = 0
    pile_trumps: np.ndarray | None = None

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    def unseen(self) -> np.ndarray:
        """Cards (``int64[24]``) this seat has not seen: in the other hands or, where it does not know them, the
        discards (cards laid open in melds count as unseen here; :mod:`binokel_sim.play.worlds` places them;
        announced trumps of the discards are seen)."""
        out = self.deck.astype(np.int64) - self.hand - self.played.sum(axis=0)
        if self.pile is not None:
            return out - self.pile
        return out - self.pile_trumps if self.pile_trumps is not None else out

    def legal(self) -> list[int]:
        """Legal card types of this seat's hand (its turn; docs/rules.md §6)."""
        from binokel_sim.play.legal import mask_cards

        arr = np.array(list(self.trick) + [0], dtype=np.int64)
        mates = trick_mates(self.side, self.leader, self.seats, len(self.trick))
        return mask_cards(legal_in_trick(self.hand, arr, len(self.trick), self.trump, self.rule, mates))


def trumps_of(cards: np.ndarray, trump: int) -> np.ndarray:
    """The cards of suit ``trump`` among ``cards`` (a read-only count vector).

    >>> from binokel_sim.cards import counts_of, format_cards, cards_of, parse_cards
    >>> format_cards(cards_of(trumps_of(counts_of(parse_cards("EA GK G10 SU")), 1)))
    'G10 GK'
    """
    out = np.zeros(N_TYPES, dtype=np.uint8)
    out[trump * 6:trump * 6 + 6] = np.asarray(cards)[trump * 6:trump * 6 + 6]
    return frozen(out)


def frozen(a: np.ndarray) -> np.ndarray:
    """A read-only copy of ``a``: what a :class:`Knowledge` (and views built beside it) may hold."""
    a = np.array(a, copy=True)
    a.setflags(write=False)
    return a


@dataclass(frozen=True, eq=False)
class PlayState:
    """A trump (or no-trump) deal in play with every hand known: ``hands`` at the first trick (the soloist's
    kept cards), ``pile`` the discards, ``cards`` played so far. Build with :meth:`start`.

    >>> from binokel_sim.cards import counts_of, parse_cards
    >>> from binokel_sim.rules import load_rules
    >>> h = [counts_of(parse_cards(t)) for t in ("EA EK", "E10 EU", "EO GA")]
    >>> st = PlayState.start(load_rules("standard"), h, pile=counts_of([]), tapp=counts_of([]), trump=-1, soloist=0,
    ...                      ending=True)
    >>> st = st.play(2).play(1)          # EK, E10 (seat 1 beats it)
    >>> v = st.view(2); v.to_move, v.legal(), v.forbidden
    (2, [3], (0, 0, 0))
    >>> st.play(3).view(0).forbidden     # EO did not beat E10: seat 2 holds no EA
    (0, 0, 1)
    """

    seats: int
    trump: int
    soloist: int
    side: tuple[int, ...]
    first_leader: int
    last_trick: int
    deck: np.ndarray
    table: np.ndarray
    hands: np.ndarray
    pile: np.ndarray
    tapp: np.ndarray | None
    shown: np.ndarray | None
    melds: tuple[int, ...]
    cards: tuple[int, ...] = ()
    #: The play-rules word (:func:`binokel_sim.play.legal.play_rule`).
    rule: int = 0
    #: The trumps among the discards are announced to every seat (``discard.trumps_shown``).
    trumps_shown: bool = False

    @classmethod
    def start(cls, rules: Rules, hands: Sequence[np.ndarray] | np.ndarray, pile: np.ndarray, tapp: np.ndarray | None,
              trump: int, soloist: int, leader: int | None = None, melds: bool = True,
              ending: bool = False) -> "PlayState":
        """The deal at its first trick. ``tapp`` None: laid away unseen (a Durch from the hand, §8.1); ``melds``
        False: nobody declares (Durch, Bettel, §8); every seat declares at a trump contract (§5). ``ending``:
        the hands are the last tricks of a deal, every card outside them and the pile played before (the deck
        is then the cards of the hands and the pile)."""
        h = np.stack([np.asarray(x, dtype=np.uint8) for x in hands])
        table = rules.meld_array()
        declare = melds and trump >= 0
        shown = np.stack([shown_counts(h[s], trump, table) for s in range(h.shape[0])]) if declare else None
        pts = tuple(int(meld_total(h[s], trump, table)) if declare else 0 for s in range(h.shape[0]))
        deck = (h.sum(axis=0) + np.asarray(pile) if ending else
                DECK_COUNTS[rules.layout.sevens]).astype(np.uint8)
        lead = rules.play.first_leader(soloist) if leader is None else leader
        return cls(h.shape[0], int(trump), int(soloist), rules.layout.partners(soloist), int(lead),
                   int(rules.play.last_trick), frozen(deck), frozen(table), frozen(h),
                   frozen(np.asarray(pile, dtype=np.uint8)), None if tapp is None else frozen(tapp),
                   None if shown is None else frozen(shown), pts, rule=play_rule(rules),
                   trumps_shown=rules.discard.trumps_shown)

    @property
    def tricks(self) -> int:
        return int(self.hands[0].sum())

    def record(self) -> Replay:
        return replay(self.seats, self.trump, self.first_leader, self.cards, self.tricks, self.last_trick, self.rule,
                      self.side)

    def current(self) -> np.ndarray:
        """Every seat's cards now (``uint8[seats, 24]``)."""
        return (self.hands - self.record().played).astype(np.uint8)

    @property
    def done(self) -> bool:
        return len(self.cards) == self.seats * self.tricks

    def play(self, card: int) -> "PlayState":
        """The state after the seat to move plays ``card`` (checked legal)."""
        v = self.view(self.to_move)
        if card not in v.legal():
            raise ValueError(f"seat {v.seat} may not play card type {card}")
        return replace(self, cards=self.cards + (int(card),))

    @property
    def to_move(self) -> int:
        """The seat to play the next card."""
        r = self.record()
        return (r.leader + len(r.trick)) % self.seats

    def view(self, seat: int) -> Knowledge:
        """Seat ``seat``'s :class:`Knowledge` now."""
        r = self.record()
        held = tuple(int(self.hands[s].sum()) - int(r.played[s].sum()) for s in range(self.seats))
        hand = frozen(self.hands[seat] - r.played[seat])
        pile = self.pile if seat == self.soloist and self.tapp is not None else None
        announced = pile is None and self.trumps_shown and self.trump >= 0 and self.tapp is not None
        return Knowledge(seat, self.seats, self.trump, self.soloist, self.side, self.deck, self.table, self.last_trick,
                         hand, pile, int(self.pile.sum()), self.tapp, self.shown, self.melds, r.played, r.forbidden,
                         held, r.leader, r.trick, r.won, len(self.cards), self.rule,
                         trumps_of(self.pile, self.trump) if announced else None)
