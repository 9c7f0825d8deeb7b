"""Trick play (docs/rules.md §6): the one legal-move function and the trick winner.

Every part of the toolkit that plays cards uses these kernels. A hand is a bit
mask over the 24 card types (bit ``c`` set = the hand holds at least one ``c``);
identical cards are one move, since which copy is played never matters.

Rules, in the order :func:`legal_mask` applies them:

1. any card may be led;
2. follow the led suit if able, and beat the winning card if able (a higher card
   of the led suit) -- unless a trump already wins a non-trump trick, then any
   card of the led suit will do (with ``play.beat_led_when_trumped``: one above
   the highest card of the led suit, if able);
3. unable to follow: trump if able, and overtrump the winning trump if able;
4. otherwise any card.

With ``play.partner_frees`` (fixed partnerships) a seat whose partner holds the
trick need only follow suit: rules 2's beating and 3 are lifted. The options
reach the kernels as one integer, the play-rules word of :func:`play_rule`.

The highest trump wins, else the highest card of the led suit; of two identical
cards the first played wins (a later twin never beats it).

>>> from binokel_sim.cards import parse_cards, counts_of
>>> hand = counts_of(parse_cards("EA E10 HU"))
>>> format_legal(hand, parse_cards("EK"), trump=-1)      # must beat the King: A or 10
'EA E10'
>>> format_legal(hand, parse_cards("GA"), trump=2)       # void in G: must trump
'HU'
>>> trick_winner_of(parse_cards("EA G10 EA"), trump=-1)  # the first Ace holds
0
>>> hand = counts_of(parse_cards("EA EU HU"))
>>> format_legal(hand, parse_cards("EK HO"), trump=2), format_legal(hand, parse_cards("EK HO"), 2, BEAT_LED)
('EA EU', 'EA')
>>> format_legal(hand, parse_cards("GA"), trump=2, rule=PARTNER_FREES, mates=1)  # partner holds: free
'EA EU HU'
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from binokel_sim.cards import CARD_POINTS, N_TYPES, format_cards
from binokel_sim.errors import InputError
from binokel_sim.jit import kernel

#: Bit mask of each suit's six card types.
SUIT_MASK = np.array([0x3F << (6 * s) for s in range(4)], dtype=np.int64)
#: ``HIGHER_MASK[c]``: the card types of ``c``'s suit that beat ``c`` (lower rank index).
HIGHER_MASK = np.array([((1 << c) - 1) ^ ((1 << (6 * (c // 6))) - 1) for c in range(N_TYPES)], dtype=np.int64)
#: Card points by type, as the kernels' int64 table.
POINTS = CARD_POINTS  # the solver's name for it


@kernel(noalloc=True)
def beats(card, win, trump):
    """True if ``card`` played now takes the trick from the winning card ``win``."""
    cs = card // 6
    ws = win // 6
    if cs == ws:
        return card < win  # strictly higher rank; a twin does not beat the first copy
    return cs == trump


#: Bit of the play-rules word: ``play.beat_led_when_trumped``.
BEAT_LED = 1
#: Bit of the play-rules word: ``play.partner_frees``.
PARTNER_FREES = 2


def play_rule(rules) -> int:
    """The play-rules word of ``rules``: the options of docs/rules.md §6 that change the legal cards, as
    the bits :data:`BEAT_LED` and :data:`PARTNER_FREES` (the kernels take it as a plain integer).

    >>> from binokel_sim.rules import load_rules
    >>> play_rule(load_rules("standard")), play_rule(load_rules("dabb")), play_rule(load_rules("dabb-four"))
    (0, 1, 3)
    """
    return (BEAT_LED if rules.play.beat_led_when_trumped else 0) | (PARTNER_FREES if rules.play.partner_frees else 0)


@kernel(noalloc=True)
def legal_mask(hand, top, win, trump, rule, mate):
    """Mask of the legal card types in ``hand`` (type mask).

    ``top``: the highest card of the led suit in this trick (the led card or a follower that beat it),
    -1 when leading; ``win``: the card now winning the trick; ``trump``: suit index or -1; ``rule``:
    the play-rules word (:func:`play_rule`); ``mate``: true when a partner of the seat to move played
    ``win`` (read only under :data:`PARTNER_FREES`). Where no rule bit is set, ``top`` may be the led
    card: only its suit is read then.
    """
    if top < 0:
        return hand
    ls = top // 6
    free = (rule & PARTNER_FREES) != 0 and mate
    follow = hand & SUIT_MASK[ls]
    if follow != 0:
        if free:
            return follow  # the partner holds the trick: following is enough
        if win // 6 != ls:
            if (rule & BEAT_LED) == 0:
                return follow  # a trump wins a non-trump trick: any card of the suit
            higher = follow & HIGHER_MASK[top]  # still beat the led suit's highest card
        else:
            higher = follow & HIGHER_MASK[win]
        return higher if higher != 0 else follow
    if free:
        return hand
    if trump >= 0:
        trumps = hand & SUIT_MASK[trump]
        if trumps != 0:
            if win // 6 == trump:
                higher = trumps & HIGHER_MASK[win]
                return higher if higher != 0 else trumps
            return trumps
    return hand


@kernel(noalloc=True)
def counts_mask(counts):
    """Type mask of a count vector (``uint8[24]``)."""
    m = np.int64(0)
    for c in range(counts.shape[0]):
        if counts[c] > 0:
            m |= np.int64(1) << c
    return m


@kernel(noalloc=True)
def trick_winner(cards, n, trump):
    """Index (0 = the lead) of the winning card among ``cards[:n]``."""
    best = 0
    for i in range(1, n):
        if beats(cards[i], cards[best], trump):
            best = i
    return best


@kernel(noalloc=True)
def trick_top(cards, n):
    """The highest card of the led suit among ``cards[:n]`` (the first of two twins), -1 when ``n`` is 0."""
    if n == 0:
        return -1
    top = cards[0]
    for i in range(1, n):
        if cards[i] // 6 == top // 6 and cards[i] < top:
            top = cards[i]
    return top


@kernel(noalloc=True)
def legal_in_trick(counts, cards, n, trump, rule, mates):
    """Legal type mask for a hand (``uint8[24]``) after ``cards[:n]`` were played to the trick.

    ``rule``: the play-rules word (:func:`play_rule`); ``mates``: bit ``i`` set when the trick's ``i``-th
    card was played by a partner of the seat to move (:func:`trick_mates`)."""
    hand = counts_mask(counts)
    if n == 0:
        return hand
    w = trick_winner(cards, n, trump)
    return legal_mask(hand, trick_top(cards, n), cards[w], trump, rule, ((mates >> w) & 1) != 0)


def trick_mates(side: Sequence[int], leader: int, seats: int, n: int) -> int:
    """The ``mates`` mask of :func:`legal_in_trick`: bit ``i`` set when the ``i``-th card of a trick led by
    ``leader`` came from the same side (``side``: the soloist's seats) as the seat to play card ``n``.

    >>> trick_mates((0, 2), leader=1, seats=4, n=2)   # seat 3 to play: seat 1 (card 0) is its partner
    1
    """
    mover = (leader + n) % seats in side
    return sum(1 << i for i in range(n) if ((leader + i) % seats in side) == mover)


@kernel
def _perft(c1, c2, seats, trump, to_move, trick, n, depth):
    # c1: seats x type mask of held types, c2: of types held twice.
    if depth == 0:
        return np.int64(1)
    if n == 0:
        legal = c1[to_move]
    else:
        w = trick_winner(trick, n, trump)
        # No rule options here: the led card stands for the led suit's highest (legal_mask reads its suit only).
        legal = legal_mask(c1[to_move], trick[0], trick[w], trump, 0, False)
    if legal == 0:
        return np.int64(1)  # no cards left: the sequence ends here
    total = np.int64(0)
    for c in range(24):
        bit = np.int64(1) << c
        if legal & bit == 0:
            continue
        if c2[to_move] & bit:
            c2[to_move] ^= bit
        else:
            c1[to_move] ^= bit
        trick[n] = c
        if n + 1 == seats:
            w = trick_winner(trick, seats, trump)
            # The next trick reuses the buffer; keep this one's cards for the remaining moves.
            saved = trick.copy()
            # A typed zero: a literal in a recursive call compiles a second specialisation that the
            # on-disk cache cannot link.
            total += _perft(c1, c2, seats, trump, (to_move + 1 + w) % seats, trick, n - n, depth - 1)
            trick[:] = saved
        else:
            total += _perft(c1, c2, seats, trump, (to_move + 1) % seats, trick, n + 1, depth - 1)
        if c1[to_move] & bit:
            c2[to_move] |= bit
        else:
            c1[to_move] |= bit
    return total


@kernel
def perft(counts, trump, to_move, trick, n, depth):
    """Number of legal play sequences of ``depth`` cards (identical cards counted once).

    ``counts``: uint8[seats, 24] hands; ``trick[:n]``: cards already in the trick,
    ``to_move``: the seat to play next. The trick winner leads the next trick;
    a sequence that runs out of cards early counts once.
    """
    seats = counts.shape[0]
    c1 = np.zeros(seats, dtype=np.int64)
    c2 = np.zeros(seats, dtype=np.int64)
    for s in range(seats):
        for c in range(24):
            if counts[s, c] > 0:
                c1[s] |= np.int64(1) << c
            if counts[s, c] > 1:
                c2[s] |= np.int64(1) << c
    buf = np.zeros(seats, dtype=np.int64)
    for i in range(n):
        buf[i] = trick[i]
    return _perft(c1, c2, np.int64(seats), np.int64(trump), np.int64(to_move), buf, np.int64(n), np.int64(depth))


def mask_cards(mask: int) -> list[int]:
    """Card types of a type mask, in type order."""
    return [c for c in range(N_TYPES) if (int(mask) >> c) & 1]


def legal_cards(hand_counts: np.ndarray, trick: Sequence[int], trump: int | None, rule: int = 0,
                mates: int = 0) -> list[int]:
    """Legal card types for a hand (``uint8[24]``) given the cards already in the trick (``rule``, ``mates``:
    as :func:`legal_in_trick`).

    >>> from binokel_sim.cards import parse_cards, counts_of
    >>> legal_cards(counts_of(parse_cards("EK EU G10")), parse_cards("EO"), None)
    [2]
    """
    t = -1 if trump is None else int(trump)
    arr = np.array(list(trick) + [0], dtype=np.int64)
    return mask_cards(legal_in_trick(np.asarray(hand_counts, dtype=np.uint8), arr, len(trick), t, rule, mates))


def format_legal(hand_counts: np.ndarray, trick: Sequence[int], trump: int | None, rule: int = 0,
                 mates: int = 0) -> str:
    """Legal cards as text (see :func:`legal_cards`)."""
    return format_cards(legal_cards(hand_counts, trick, trump, rule, mates))


def trick_winner_of(cards: Sequence[int], trump: int | None) -> int:
    """Index of the winning card of a (possibly partial) trick; raises InputError if empty."""
    if not cards:
        raise InputError("empty trick has no winner")
    arr = np.array(list(cards), dtype=np.int64)
    return int(trick_winner(arr, len(cards), -1 if trump is None else int(trump)))
