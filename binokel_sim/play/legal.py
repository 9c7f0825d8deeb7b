"""Trick play (docs/rules.md §6): the one legal-move function and the trick winner.

Every part of the toolkit that plays cards uses these kernels. A hand is a bit
mask over the 24 card types (bit ``c`` set = the hand holds at least one ``c``);
identical cards are one move, since which copy is played never matters.

Rules, in the order :func:`legal_mask` applies them:

1. any card may be led;
2. follow the led suit if able, and beat the winning card if able (a higher card
   of the led suit) -- unless a trump already wins a non-trump trick, then any
   card of the led suit will do;
3. unable to follow: trump if able, and overtrump the winning trump if able;
4. otherwise any card.

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
POINTS = CARD_POINTS.astype(np.int64)


@kernel(noalloc=True)
def beats(card, win, trump):
    """True if ``card`` played now takes the trick from the winning card ``win``."""
    cs = card // 6
    ws = win // 6
    if cs == ws:
        return card < win  # strictly higher rank; a twin does not beat the first copy
    return cs == trump


@kernel(noalloc=True)
def legal_mask(hand, led, win, trump):
    """Mask of the legal card types in ``hand`` (type mask).

    ``led``: the card led to this trick, -1 when leading; ``win``: the card now
    winning the trick; ``trump``: suit index or -1.
    """
    if led < 0:
        return hand
    ls = led // 6
    follow = hand & SUIT_MASK[ls]
    if follow != 0:
        if win // 6 != ls:
            return follow  # a trump wins a non-trump trick: any card of the suit
        higher = follow & HIGHER_MASK[win]
        return higher if higher != 0 else follow
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
def legal_in_trick(counts, cards, n, trump):
    """Legal type mask for a hand (``uint8[24]``) after ``cards[:n]`` were played to the trick."""
    hand = counts_mask(counts)
    if n == 0:
        return hand
    w = trick_winner(cards, n, trump)
    return legal_mask(hand, cards[0], cards[w], trump)


@kernel
def _perft(c1, c2, seats, trump, to_move, trick, n, depth):
    # c1: seats x type mask of held types, c2: of types held twice.
    if depth == 0:
        return np.int64(1)
    if n == 0:
        legal = c1[to_move]
    else:
        w = trick_winner(trick, n, trump)
        legal = legal_mask(c1[to_move], trick[0], trick[w], trump)
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


def legal_cards(hand_counts: np.ndarray, trick: Sequence[int], trump: int | None) -> list[int]:
    """Legal card types for a hand (``uint8[24]``) given the cards already in the trick.

    >>> from binokel_sim.cards import parse_cards, counts_of
    >>> legal_cards(counts_of(parse_cards("EK EU G10")), parse_cards("EO"), None)
    [2]
    """
    t = -1 if trump is None else int(trump)
    arr = np.array(list(trick) + [0], dtype=np.int64)
    return mask_cards(legal_in_trick(np.asarray(hand_counts, dtype=np.uint8), arr, len(trick), t))


def format_legal(hand_counts: np.ndarray, trick: Sequence[int], trump: int | None) -> str:
    """Legal cards as text (see :func:`legal_cards`)."""
    return format_cards(legal_cards(hand_counts, trick, trump))


def trick_winner_of(cards: Sequence[int], trump: int | None) -> int:
    """Index of the winning card of a (possibly partial) trick; raises InputError if empty."""
    if not cards:
        raise InputError("empty trick has no winner")
    arr = np.array(list(cards), dtype=np.int64)
    return int(trick_winner(arr, len(cards), -1 if trump is None else int(trump)))
