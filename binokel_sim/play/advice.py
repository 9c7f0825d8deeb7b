"""Which card to play at a real table: the single-dummy player's choice from one seat's view.

A seat at the table knows its own hand, the Tapp turned face up, the melds every player laid out, its own
discards if it is the soloist, and the cards played so far (docs/rules.md §6.1). :func:`table_view` turns that
record into the seat's :class:`~binokel_sim.play.knowledge.Knowledge`, checked card by card; :func:`advise`
draws ``worlds`` deals of the cards the seat cannot see from it (:mod:`binokel_sim.play.worlds`) and values
every legal card in each with the double-dummy solver. By default it proves only what the choice needs, as
the study's player does (:func:`~binokel_sim.play.single_dummy.decide`): the chosen card's mean to within
``tolerance`` points of every other card's, the others only bounded. With ``exact`` every card is valued
exactly in every world (:meth:`~binokel_sim.play.solver.Solver.card_values`), so each gets a mean and a
standard error over the worlds -- dearer by about the number of legal cards.

A value is what the soloist's side takes from here on: card points of its tricks, the last trick's bonus
and (where the rules count them so) the melds credited with its first trick; the soloist's side plays to
raise it, the defenders to lower it. The player's known
weakness, strategy fusion, holds here too: each world is valued as if every later guess came out right
(docs/single-dummy.md).

>>> from binokel_sim.rules import load_rules
>>> r = load_rules("standard")
>>> v = table_view(r, "EA EA E10 EK EO GA G10 HA H10 SA S10 SK", seat=0, soloist=0, trump="E",
...                tapp="EU GK HO SU", discards="EU GK HO SU", played="EA EK EU")
>>> v.to_move, v.decision, v.won           # seat 0 took the first trick and leads again
(0, 3, (0,))
>>> a = advise(r, v, worlds=4, seed=1, exact=True)
>>> format_card(a.card), a.soloist_side, len(a.cards)
('EA', True, 11)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from binokel_sim.cards import DECK_COUNTS, N_TYPES, counts_of, format_card, parse_trump, to_cards
from binokel_sim.errors import InputError
from binokel_sim.melds.scorer import meld_total
from binokel_sim.play.knowledge import Knowledge, frozen, replay, shown_counts, trumps_of
from binokel_sim.play.legal import legal_in_trick, mask_cards, play_rule, trick_mates, trick_winner
from binokel_sim.rules import Rules, as_rules

__all__ = ["CardAdvice", "advise", "table_view"]


def _counts(cards, what: str, rules: Rules) -> np.ndarray:
    try:
        c = counts_of(to_cards(cards))
    except InputError as e:
        raise InputError(f"{what}: {e}") from None
    if (c > DECK_COUNTS[rules.layout.sevens]).any():
        raise InputError(f"{what}: card {format_card(int(np.argmax(c > DECK_COUNTS[rules.layout.sevens])))} is "
                         f"not in the {rules.layout.deck_size}-card deck of preset {rules.name!r}")
    return c


def _seat_list(text, what: str, seats: int, rules: Rules) -> list[np.ndarray]:
    """Per seat the cards of ``text``: "cards / cards / ..." in seat order, ``-`` for none."""
    parts = [p.strip() for p in str(text).split("/")]
    if len(parts) != seats:
        raise InputError(f"{what}: expected {seats} groups in seat order separated by '/', got {len(parts)}")
    return [np.zeros(N_TYPES, np.uint8) if p in ("", "-") else _counts(p, f"{what} of seat {s}", rules)
            for s, p in enumerate(parts)]


def table_view(rules: Rules | str, hand, seat: int, soloist: int, trump, played="", tapp=None, melds=None,
               discards=None, leader: int | None = None) -> Knowledge:
    """The :class:`Knowledge` of ``seat`` at a suit contract, from what the table showed it.

    ``hand``: its cards at the first trick (the soloist's kept cards); ``played``: every card played so far, in
    order from the first lead (slashes between tricks are allowed and ignored); ``tapp``: the Tapp as turned
    face up (required where the rules have one); ``melds``: the cards each seat laid out, "cards / cards / ..."
    in seat order with ``-`` for none (this seat's own are read from its hand; default: nobody else melded);
    ``discards``: the soloist's, required when ``seat`` is the soloist and the rules have a Tapp -- and for
    the other seats where the rules announce the trumps laid away (``discard.trumps_shown``): those trumps,
    ``-`` for none; ``leader``:
    the first trick's leader (default: the rules'). Every mistake is one :class:`InputError` line.
    """
    rules = as_rules(rules)
    n, size = rules.n_seats, rules.layout.hand_size
    for name, s in (("seat", seat), ("soloist", soloist)):
        if not 0 <= s < n:
            raise InputError(f"{name}: expected 0..{n - 1} for preset {rules.name!r}, got {s}")
    t = parse_trump(str(trump))
    if t is None:
        raise InputError("trump none: the card advice covers suit contracts (Durch and Bettel: binokel solve "
                         "--durch / --bettel)")
    h = _counts(hand, "hand", rules)
    if int(h.sum()) != size:
        raise InputError(f"hand: {int(h.sum())} cards, but a hand of preset {rules.name!r} has {size}")
    k_tapp, pile, announced = _tapp_and_pile(rules, seat, soloist, tapp, discards, h, t)
    table = rules.meld_array()
    given = _seat_list(melds, "melds", n, rules) if melds else [np.zeros(N_TYPES, np.uint8)] * n
    shown = [shown_counts(h, t, table) if s == seat else x for s, x in enumerate(given)]
    for s, x in enumerate(shown):
        if s != seat and not np.array_equal(shown_counts(x, t, table), x):
            raise InputError(f"melds of seat {s}: the cards {_text(x)} are not exactly the cards of melds "
                             f"(trump {'EGHS'[t]})")
    cards = to_cards(str(played).replace("/", " ")) if str(played).strip() else []
    lead = rules.play.first_leader(soloist) if leader is None else leader
    if not 0 <= lead < n:
        raise InputError(f"leader: expected 0..{n - 1}, got {lead}")
    side, rule = rules.layout.partners(soloist), play_rule(rules)
    _check_own_plays(h, seat, cards, n, t, lead, rule, side)
    r = replay(n, t, lead, cards, size, int(rules.play.last_trick), rule, side)
    deck = DECK_COUNTS[rules.layout.sevens].astype(np.int64)
    seen = h.astype(np.int64) + r.played.sum(axis=0) - r.played[seat] + (pile if pile is not None else 0) \
        + (announced if announced is not None else 0)
    if pile is None and k_tapp is not None:  # the Tapp's cards went to the soloist: those he has not played yet
        seen += np.maximum(k_tapp.astype(np.int64) - r.played[soloist], 0)
    if (seen > deck).any():
        c = int(np.argmax(seen > deck))
        where = "your discards" if pile is not None else ("the Tapp, the announced discards" if announced is not None
                                                          else "the Tapp")
        raise InputError(f"card {format_card(c)}: your hand, {where} and the cards played hold it "
                         f"{int(seen[c])} times; the deck has {int(deck[c])}")
    held = tuple(size - int(r.played[s].sum()) for s in range(n))
    if min(held) < 0 or len(cards) >= n * size:
        raise InputError(f"played: {len(cards)} cards, but a deal of preset {rules.name!r} has {n * size}")
    if (r.leader + len(r.trick)) % n != seat:
        raise InputError(f"played: after these {len(cards)} cards seat {(r.leader + len(r.trick)) % n} is to "
                         f"play, not seat {seat}")
    return Knowledge(seat, n, t, soloist, side, DECK_COUNTS[rules.layout.sevens].astype(np.uint8), table,
                     int(rules.play.last_trick), frozen((h - r.played[seat]).astype(np.uint8)), pile,
                     rules.layout.tapp_size, k_tapp, frozen(np.stack(shown)),
                     tuple(int(meld_total(x, t, table)) for x in shown), r.played, r.forbidden, held, r.leader,
                     r.trick, r.won, len(cards), rule, announced)


def _tapp_and_pile(rules: Rules, seat: int, soloist: int, tapp, discards, hand: np.ndarray, trump: int
                   ) -> tuple[np.ndarray | None, np.ndarray | None, np.ndarray | None]:
    """(the Tapp, the discards where the seat knows them, the announced trumps among them where it does not)."""
    size = rules.layout.tapp_size
    if size == 0:
        if tapp or discards:
            raise InputError(f"preset {rules.name!r} has no Tapp: leave out --tapp and --discards")
        return None, (np.zeros(N_TYPES, np.uint8) if seat == soloist else None), None
    if not tapp:
        raise InputError(f"--tapp: the {size} cards of the Tapp, turned face up before the exchange")
    tp = _counts(tapp, "Tapp", rules)
    if int(tp.sum()) != size:
        raise InputError(f"Tapp: {int(tp.sum())} cards, but preset {rules.name!r} has a Tapp of {size}")
    if seat != soloist:
        announced = _announced(rules, discards, trump, size)
        if (hand.astype(np.int64) + tp > DECK_COUNTS[rules.layout.sevens]).any():
            raise InputError("Tapp: it went to the soloist, but your hand holds one of its cards as often as the "
                             "deck has it")
        return frozen(tp), None, announced
    if not discards:
        raise InputError(f"--discards: the soloist's {size} discards (he knows them)")
    pile = _counts(discards, "discards", rules)
    if int(pile.sum()) != size:
        raise InputError(f"discards: {int(pile.sum())} cards, but the soloist lays away {size}")
    if (hand.astype(np.int64) + pile < tp).any():
        raise InputError("Tapp: the soloist picked it up, so his hand and discards together hold its cards")
    return frozen(tp), frozen(pile), None


def _announced(rules: Rules, discards, trump: int, size: int) -> np.ndarray | None:
    """A defender's ``--discards``: the trumps the soloist laid away and announced, where the rules announce
    them (``-`` for none); elsewhere the defenders know nothing of the discards and give none."""
    if not rules.discard.trumps_shown:
        if discards:
            raise InputError("--discards: only the soloist knows them")
        return None
    if not discards:
        raise InputError(f"--discards: the trumps the soloist laid away (preset {rules.name!r} announces them to "
                         "every seat), '-' for none")
    got = np.zeros(N_TYPES, np.uint8) if str(discards).strip() == "-" else _counts(discards, "discards", rules)
    if (trumps_of(got, trump) != got).any():
        c = int(np.argmax(trumps_of(got, trump) != got))
        raise InputError(f"discards: {format_card(c)} is not a trump; a defender knows only the trumps laid away "
                         f"(trump {'EGHS'[trump]})")
    if int(got.sum()) > size:
        raise InputError(f"discards: {int(got.sum())} trumps, but the soloist lays away {size} cards")
    return frozen(got)


def _check_own_plays(hand: np.ndarray, seat: int, cards: Sequence[int], n: int, trump: int, leader: int,
                     rule: int, side: tuple[int, ...]) -> None:
    """Every card the seat played was in its hand and legal then (the others' cards are checked by whether any
    deal of the unseen cards fits them)."""
    now = hand.astype(np.int64).copy()
    trick: list[int] = []
    lead = leader
    for i, c in enumerate(cards):
        s = (lead + len(trick)) % n
        if s == seat:
            arr = np.array(trick + [0], dtype=np.int64)
            ok = mask_cards(legal_in_trick(now.astype(np.uint8), arr, len(trick), trump, rule,
                                           trick_mates(side, lead, n, len(trick))))
            if c not in ok:
                why = "is not in your hand" if now[c] == 0 else "was not a legal card then"
                raise InputError(f"played: card {i + 1} ({format_card(c)}) is yours, and it {why}")
            now[c] -= 1
        trick.append(c)
        if len(trick) == n:
            lead = (lead + int(trick_winner(np.array(trick, dtype=np.int64), n, trump))) % n
            trick = []


def _text(counts: np.ndarray) -> str:
    from binokel_sim.cards import cards_of, format_cards

    return format_cards(cards_of(counts)) or "-"


@dataclass(frozen=True)
class CardAdvice:
    """:func:`advise`'s answer: the ``card`` to play; per legal card (``cards``) its mean value over the worlds
    as a proven interval ``lo``..``hi`` (equal where ``exact``) and, where ``exact``, the standard error ``se``
    of the mean over the worlds and the paired difference from the chosen card, world by world (``diff``,
    ``diff_se``: the cards' values move together from world to world, so this is the sharper comparison);
    the worlds drawn, the seed, the decision index that keyed them
    (``decision``, the cards played so far), whether the seat's side is the soloist's (``soloist_side``), and
    the solver's work (``tests`` zero-window tests or exact solves, ``nodes``)."""

    card: int
    cards: tuple[int, ...]
    lo: tuple[float, ...]
    hi: tuple[float, ...]
    se: tuple[float, ...] | None
    worlds: int
    seed: int
    decision: int
    seat: int
    soloist_side: bool
    tests: int
    nodes: int
    diff: tuple[float, ...] | None = None
    diff_se: tuple[float, ...] | None = None

    def rows(self) -> list[dict]:
        """One record per legal card, the chosen one first, then from the best mean for the seat."""
        sign = -1.0 if self.soloist_side else 1.0
        order = sorted(range(len(self.cards)),
                       key=lambda i: (self.cards[i] != self.card, sign * self.hi[i], sign * self.lo[i]))
        return [{"card": format_card(self.cards[i]), "mean_lo": self.lo[i], "mean_hi": self.hi[i],
                 "se": None if self.se is None else self.se[i],
                 "diff": None if self.diff is None else self.diff[i],
                 "diff_se": None if self.diff_se is None else self.diff_se[i], "play": self.cards[i] == self.card}
                for i in order]


def advise(rules: Rules | str, view: Knowledge, worlds: int = 20, seed: int = 1, exact: bool = False,
           tolerance: float = 0.5, progress: bool = False) -> CardAdvice:
    """The single-dummy player's card for ``view`` (:func:`table_view`) over ``worlds`` worlds drawn from
    (``seed``, the view's decision index): the same card the study's player would choose with the same worlds
    (``exact=False``), or every card valued exactly in every world (``exact``). ``progress``: a bar on stderr
    (the zero-window tests asked, or the worlds solved). See the module docstring."""
    from binokel_sim.play.single_dummy import SingleDummy, world_position
    from binokel_sim.play.worlds import sample, world_key

    rules = as_rules(rules)
    if worlds < 1:
        raise InputError(f"--worlds: must be at least 1, got {worlds}")
    legal = view.legal()
    try:
        w = sample(view, worlds, world_key(seed, 0)).hands
    except ValueError:
        raise InputError("no deal of the cards you cannot see fits what you entered (check the cards played, "
                         "the melds and the Tapp)") from None
    player = SingleDummy(rules, worlds=worlds, seed=seed, tolerance=tolerance)
    mine = view.to_move in view.side
    bar = None
    if progress and len(legal) > 1:
        from tqdm import tqdm

        bar = tqdm(total=worlds if exact else None, leave=False,
                   desc="sampled deals solved" if exact else "zero-window tests")
    if not exact or len(legal) == 1:  # one legal card: nothing to decide, nothing solved
        d = player.decide_in(view, w, on_test=None if bar is None else (lambda nodes: bar.update(1)))
        if bar is not None:
            bar.close()
        return CardAdvice(d.card, d.cards, d.lo, d.hi, None, worlds, seed, view.decision, view.seat, mine,
                          d.tests, d.nodes)
    vals = np.zeros((len(legal), worlds))
    nodes = 0
    for j, hands in enumerate(w):
        cv = player.solver.card_values(world_position(rules, view, hands))
        nodes += player.solver.nodes
        vals[:, j] = [cv[c] for c in legal]
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    mean = vals.mean(axis=1)
    best = int(np.argmax(mean if mine else -mean))
    diff = vals - vals[best]

    def se(x: np.ndarray) -> tuple[float, ...]:
        return tuple((x.std(axis=1, ddof=1) / np.sqrt(worlds)).tolist() if worlds > 1 else [0.0] * len(x))

    return CardAdvice(int(legal[best]), tuple(int(c) for c in legal), tuple(mean.tolist()), tuple(mean.tolist()),
                      se(vals), worlds, seed, view.decision, view.seat, mine, worlds, nodes,
                      tuple(diff.mean(axis=1).tolist()), se(diff))


def card_json(rules: Rules, view: Knowledge, a: CardAdvice, soloist: int, exact: bool) -> dict:
    """The JSON answer of ``binokel card --json`` and the web page: where the decision stands, the card to
    play, one row per legal card (:meth:`CardAdvice.rows`) and the solver's work."""
    trick, nth = divmod(view.decision, view.seats)
    return {"rules": rules.name, "seat": view.seat, "soloist": soloist, "trump": "EGHS"[view.trump],
            "trick": trick + 1, "card_of_trick": nth + 1, "worlds": a.worlds, "seed": a.seed, "exact": exact,
            "unseen_cards": int(view.unseen().sum()), "play": format_card(a.card),
            "values": "the soloist's side's points from here on, mean over the sampled deals",
            "soloist_side": a.soloist_side, "cards": a.rows(), "tests": a.tests, "nodes": a.nodes}
