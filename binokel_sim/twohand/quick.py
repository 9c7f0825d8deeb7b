"""Bit helpers and quick bounds of the two-seat endgame search (:mod:`.search`, which
describes the bounds). Hands are 24-bit masks over card types, ``h1`` (one or more) and
``h2`` (two). numba caches a kernel by its own file only: after editing this module,
delete ``binokel_sim/twohand/__pycache__/*.nb[ic]`` before measuring :mod:`.search`.

>>> int(popcount(0b1011)), int(type_of(1 << 13))
(3, 13)
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import CARD_POINTS
from binokel_sim.jit import kernel
from binokel_sim.play.legal import SUIT_MASK

#: ``RANK_MASK[r]``: the four card types of rank ``r``.
RANK_MASK = np.array([sum(1 << (s * 6 + r) for s in range(4)) for r in range(6)], dtype=np.int64)
PTS = CARD_POINTS.astype(np.int64)


#: Set bits of each 12-bit number, and the index of its lowest set bit (hands are 24-bit masks).
POP12 = np.array([bin(x).count("1") for x in range(4096)], dtype=np.int64)
LOW12 = np.array([(x & -x).bit_length() - 1 for x in range(4096)], dtype=np.int64)


@kernel(noalloc=True)
def popcount(x):
    return POP12[x & 0xFFF] + POP12[(x >> 12) & 0xFFF]


@kernel(noalloc=True)
def type_of(bit):
    """Card type of a one-bit mask."""
    low = bit & 0xFFF
    return LOW12[low] if low else 12 + LOW12[bit >> 12]


@kernel(noalloc=True)
def cheapest(o1, o2, within, k, pts):
    """Points of the ``k`` cheapest cards of (o1, o2) among the types in ``within``."""
    got = 0
    r = 5
    while k > 0 and r >= 0:
        n = popcount(o1 & within & RANK_MASK[r]) + popcount(o2 & within & RANK_MASK[r])
        take = n if n < k else k
        got += take * pts[r]
        k -= take
        r -= 1
    return got


@kernel(noalloc=True)
def top_cards(top, h2, limit, pts):
    """(cards, points) of the highest ``limit`` cards among types ``top`` (twins in ``h2`` count twice)."""
    k = 0
    got = 0
    while top and k < limit:
        b = top & -top
        m = 2 if h2 & b else 1
        m = m if m < limit - k else limit - k
        k += m
        got += m * pts[type_of(b)]
        top ^= b
    return k, got


@kernel(noalloc=True)
def sure_trumps(h1, h2, o1, o2, trump, pts):
    """Points seat (h1, h2) surely wins against (o1, o2) from its top trumps (see the module text)."""
    if trump < 0:
        return 0
    mine = h1 & SUIT_MASK[trump]
    theirs = o1 & SUIT_MASK[trump]
    top = mine
    if theirs != 0:
        top = mine & ((theirs & -theirs) - 1)  # above the other seat's highest trump (lower type = higher)
    k, got = top_cards(top, h2, 24, pts)
    # one of the other seat's cards in each such trick: at least its k cheapest
    return got + cheapest(o1, o2, np.int64(0xFFFFFF), k, pts)


@kernel(noalloc=True)
def cash(h1, h2, o1, o2, trump, pts, last, n):
    """Points the seat on lead (h1, h2) surely cashes: in each suit its cards ranked at or above
    all of the other seat's (leading first, a twin holds), as many as the other seat can
    follow when it could ruff; each trick brings one of the other seat's cards of the suit."""
    ruffs = trump >= 0 and (o1 & SUIT_MASK[trump]) != 0
    got = 0
    tricks = 0
    for s in range(4):
        mine = h1 & SUIT_MASK[s]
        if mine == 0:
            continue
        theirs = o1 & SUIT_MASK[s]
        top = mine
        if theirs != 0:
            top = mine & (((theirs & -theirs) << 1) - 1)
        nt = popcount(theirs) + popcount(o2 & SUIT_MASK[s])
        k, pk = top_cards(top, h2, nt if ruffs and s != trump else 24, pts)
        got += pk + cheapest(o1, o2, SUIT_MASK[s], k if k < nt else nt, pts)
        tricks += k
    if tricks >= n:
        got += last
    return got


@kernel(noalloc=True)
def points_left(h, pts):
    s = 0
    for i in range(4):
        x = h[i]
        while x:
            b = x & -x
            s += pts[type_of(b)]
            x ^= b
    return s


@kernel(noalloc=True)
def take(h, s, bit):
    if h[2 * s + 1] & bit:
        h[2 * s + 1] ^= bit
    else:
        h[2 * s] ^= bit


@kernel(noalloc=True)
def put(h, s, bit):
    if h[2 * s] & bit:
        h[2 * s + 1] |= bit
    else:
        h[2 * s] |= bit
