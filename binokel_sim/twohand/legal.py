"""The two-hand legal-move function for both phases, and perft counts (docs/rules.md §10).

While the talon lasts any card may be played. Once it is exhausted a follower must
follow suit, else trump; with ``talon.must_head`` he must also head the trick when
able -- then the rule is the three-hand one, :func:`binokel_sim.play.legal.legal_mask`.

>>> from binokel_sim.cards import parse_cards, counts_of
>>> from binokel_sim.play.legal import counts_mask, mask_cards
>>> from binokel_sim.cards import format_cards
>>> hand = counts_mask(counts_of(parse_cards("EA EU HU G7")))
>>> led = parse_cards("EK")[0]
>>> format_cards(mask_cards(legal_twohand(hand, led, led, 2, True, True)))    # talon open: anything
'EA EU G7 HU'
>>> format_cards(mask_cards(legal_twohand(hand, led, led, 2, False, True)))   # must head: the Ace
'EA'
>>> format_cards(mask_cards(legal_twohand(hand, led, led, 2, False, False)))  # follow suit only
'EA EU'
"""

from __future__ import annotations

import numpy as np

from binokel_sim.jit import kernel
from binokel_sim.play.legal import SUIT_MASK, beats, legal_mask


@kernel(noalloc=True)
def legal_twohand(hand, led, win, trump, talon_open, must_head):
    """Mask of the legal card types of ``hand`` (type mask); ``led`` -1 when leading."""
    if led < 0 or talon_open:
        return hand
    if must_head:
        return legal_mask(hand, led, win, trump, 0, False)  # two seats: the led card is the led suit's highest
    follow = hand & SUIT_MASK[led // 6]
    if follow != 0:
        return follow
    trumps = hand & SUIT_MASK[trump]
    return trumps if trumps != 0 else hand


@kernel(noalloc=True)
def _take(c1, c2, s, bit):
    """Remove one copy of a card from seat ``s`` (``c2``: types held twice)."""
    if c2[s] & bit:
        c2[s] ^= bit
    else:
        c1[s] ^= bit


@kernel(noalloc=True)
def _put(c1, c2, s, bit):
    if c1[s] & bit:
        c2[s] |= bit
    else:
        c1[s] |= bit


@kernel
def _perft2(c1, c2, trump, leader, depth, talon_open, must_head):
    # One trick per level: the leader's card, then the follower's (depth counts cards).
    if depth == 0:
        return np.int64(1)
    if c1[leader] == 0:
        return np.int64(1)
    other = 1 - leader
    total = np.int64(0)
    for a in range(24):
        abit = np.int64(1) << a
        if c1[leader] & abit == 0:
            continue
        _take(c1, c2, leader, abit)
        legal = legal_twohand(c1[other], a, a, trump, talon_open, must_head)
        if depth == 1 or legal == 0:
            total += 1
        else:
            for b in range(24):
                bbit = np.int64(1) << b
                if legal & bbit == 0:
                    continue
                _take(c1, c2, other, bbit)
                nxt = other if beats(b, a, trump) else leader
                total += _perft2(c1, c2, trump, nxt, depth - 2, talon_open, must_head)
                _put(c1, c2, other, bbit)
        _put(c1, c2, leader, abit)
    return total


def perft_twohand(counts: np.ndarray, trump: int, to_move: int, depth: int, talon_open: bool,
                  must_head: bool) -> int:
    """Number of legal card sequences of ``depth`` plies from a trick start (no draws: the
    hands as given; identical cards counted once; a sequence that runs out of cards counts once).

    >>> from binokel_sim.cards import parse_cards, counts_of
    >>> h = np.stack([counts_of(parse_cards("EA GU")), counts_of(parse_cards("E10 HK"))])
    >>> perft_twohand(h, 0, 0, 2, True, True), perft_twohand(h, 0, 0, 2, False, True)
    (4, 2)
    """
    c1 = np.zeros(2, dtype=np.int64)
    c2 = np.zeros(2, dtype=np.int64)
    for s in range(2):
        for c in range(24):
            if counts[s, c] > 0:
                c1[s] |= np.int64(1) << c
            if counts[s, c] > 1:
                c2[s] |= np.int64(1) << c
    return int(_perft2(c1, c2, np.int64(trump), np.int64(to_move), np.int64(depth), bool(talon_open),
                       bool(must_head)))
