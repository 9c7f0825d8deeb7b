"""The transposition table: bounds on the points still to be won, per trick-start state.

One ``int64[size, 6]`` array. Row = four key words, one packed meta word (lower
bound, upper bound, best lead, tricks left, generation) and the mask of the card
types still in play. The key words hold each seat's hand in *relative ranks*: 48
bits, the types held and the types held twice, each packed to the types in play
(:func:`binokel_sim.bits.pext`), with the number of types in play per suit, the
player on lead, trump, sides, query mode and which bonus seats already hold a
trick. Rows come in buckets of sixteen, one bucket per relative-rank key; a store
replaces the row of the same state, else a row of an older generation, else the
row with the fewest tricks left (cheapest to redo).

*Quasi-symmetry* (after Kupferschmid & Helmert's Skat solver). States with the same
key words differ only in which ranks are still in play: their game trees are the
same up to renaming the cards (following, beating, trumping and "the first of two
identical cards wins" depend only on the relative order), so their values differ
by at most ``D`` = the sum over corresponding cards of copies x points difference
(:func:`quasi_delta`). A probe takes every row of the bucket with equal key words,
widened by its ``D``: ``lo - D <= value <= hi + D``.

Entries are facts about a state, so they stay valid across queries on the same
deal -- other thresholds, other trumps (trump is in the key). A new generation
empties the table in O(1) when the meld bonuses change.

>>> tt = new_table(10)
>>> tt.shape
(1024, 6)
"""

from __future__ import annotations

import numpy as np

from ..bits import POP6
from ..cards import RANK_POINTS
from ..jit import kernel

_H1 = np.uint64(0x9E3779B97F4A7C15)
_H2 = np.uint64(0xC2B2AE3D27D4EB4F)
_H3 = np.uint64(0x165667B19E3779F9)
_H4 = np.uint64(0xD6E8FEB86659FD93)
_OFF = 32768
_M16 = 0xFFFF
#: Sentinel "infinity" for bounds; all values stay well inside int16.
INF = 30000
#: Largest generation number before the table is wiped.
MAX_GEN = 32000


@kernel(noalloc=True)
def bits_for(tricks):
    """Table size (log2 rows) for deals of ``tricks`` tricks: 2**20 rows (40 MiB) up to 12
    tricks, where a larger table saves nothing; 2**24 rows (640 MiB) beyond, where the table
    is the limit -- a zero-window test of one 15-trick ``standard-48`` deal took 1.17 G nodes
    with 2**21 rows, 695 M with 2**22, 345 M with 2**24 and 314 M with 2**26 (slower, though:
    memory latency).

    >>> bits_for(12), bits_for(15)
    (20, 24)
    """
    return 20 if tricks <= 12 else 24


#: Columns of a row: four key words, the meta word, the types in play.
ROW = 6
#: Rows per bucket (every state of one relative-rank key shares a bucket). 30 standard deals:
#: 4 rows 2.76 M nodes on average, 8 rows 1.71 M, 16 rows 1.32 M (fastest), 32 rows 1.20 M.
BUCKET = 16


def _slot_gaps(a: int, b: int) -> int:
    """Per relative slot, |points| between the ranks put there by slices ``a`` and ``b`` (bytes)."""
    ra = [r for r in range(6) if a >> r & 1]
    rb = [r for r in range(6) if b >> r & 1]
    if len(ra) != len(rb):
        return 0
    return sum(abs(int(RANK_POINTS[x]) - int(RANK_POINTS[y])) << (8 * i) for i, (x, y) in enumerate(zip(ra, rb)))


#: ``GAPS[a * 64 + b]``: :func:`_slot_gaps` of two suit slices in play (one byte per slot).
GAPS = np.array([_slot_gaps(a, b) for a in range(64) for b in range(64)], dtype=np.int64)
#: ``SPREAD8[t]``: byte ``i`` all ones where bit ``i`` of ``t`` is set.
SPREAD8 = np.array([sum(0xFF << (8 * i) for i in range(6) if t >> i & 1) for t in range(64)], dtype=np.int64)
_BYTESUM = 0x010101010101


def new_table(bits: int = 20) -> np.ndarray:
    """An empty table of ``2**bits`` rows (48 bytes each)."""
    return np.zeros((1 << bits, ROW), dtype=np.int64)


@kernel(noalloc=True)
def quasi_delta(k0, k1, k2, k3, u, v):
    """Most the values of two states with key words ``k0..k3`` can differ, when ``u`` and ``v``
    are their types in play: the sum over corresponding cards of copies x |points difference|.

    >>> from binokel_sim.bits import pext
    >>> k = int(pext(0b11, 0b11))    # one seat holds E's top two ranks in play, once each
    >>> int(quasi_delta(k, 0, 0, 0, 0b11, 0b110))   # EA E10 against E10 EK: 1 + 6
    7
    """
    h1 = (k0 | k1 | k2 | k3) & 0xFFFFFF
    # Slots held twice: a seat holds both copies, or two seats one each.
    twos = ((k0 >> 24) | (k1 >> 24) | (k2 >> 24) | (k3 >> 24) | (k0 & k1) | (k0 & k2) | (k0 & k3) | (k1 & k2)
            | (k1 & k3) | (k2 & k3)) & h1
    d = np.int64(0)
    o = 0
    for s in range(4):
        a = (u >> (6 * s)) & 63
        b = (v >> (6 * s)) & 63
        if a != b:
            g = GAPS[a * 64 + b]
            g2 = g & SPREAD8[(twos >> o) & ((1 << POP6[a]) - 1)]
            d += (((g * _BYTESUM) >> 40) & 0xFF) + (((g2 * _BYTESUM) >> 40) & 0xFF)
        o += POP6[a]
    return d


@kernel(noalloc=True)
def slot_of(tt, k0, k1, k2, k3):
    """First row of the key's bucket."""
    x = np.uint64(k0) * _H1 ^ np.uint64(k1) * _H2 ^ np.uint64(k2) * _H3 ^ np.uint64(k3) * _H4
    x ^= x >> np.uint64(29)
    x *= _H1
    x ^= x >> np.uint64(32)
    return np.int64(x & np.uint64(tt.shape[0] - 1)) & ~np.int64(BUCKET - 1)


@kernel(noalloc=True)
def probe(tt, base, k0, k1, k2, k3, u, gen):
    """Row holding this very state (key words and types in play) in the bucket at ``base``, or -1."""
    for j in range(BUCKET):
        r = base + j
        if tt[r, 0] == k0 and tt[r, 1] == k1 and tt[r, 2] == k2 and tt[r, 3] == k3 and tt[r, 5] == u:
            if (tt[r, 4] >> 48) == gen:
                return r
    return -1


@kernel(noalloc=True)
def probe_bounds(tt, base, k0, k1, k2, k3, u, gen):
    """``(found, lo, hi, best)``: the bounds of every row of the bucket with these key words,
    each widened by its :func:`quasi_delta`, intersected; ``best``: this very state's stored
    lead, or -1."""
    found = False
    lo = -INF
    hi = INF
    best = -1
    for j in range(BUCKET):
        r = base + j
        if tt[r, 0] == k0 and tt[r, 1] == k1 and tt[r, 2] == k2 and tt[r, 3] == k3 and (tt[r, 4] >> 48) == gen:
            meta = tt[r, 4]
            d = 0
            if tt[r, 5] == u:
                best = meta_best(meta)
            else:
                d = quasi_delta(k0, k1, k2, k3, u, tt[r, 5])
            found = True
            a = meta_lo(meta)
            b = meta_hi(meta)
            if a > -INF and a - d > lo:
                lo = a - d
            if b < INF and b + d < hi:
                hi = b + d
    return found, lo, hi, best


@kernel(noalloc=True)
def meta_lo(meta):
    return (meta & _M16) - _OFF


@kernel(noalloc=True)
def meta_hi(meta):
    return ((meta >> 16) & _M16) - _OFF


@kernel(noalloc=True)
def meta_best(meta):
    return ((meta >> 32) & 0xFF) - 1


@kernel(noalloc=True)
def store(tt, base, k0, k1, k2, k3, u, gen, lo, hi, best, tleft):
    """Merge the bounds ``lo <= value <= hi`` into the state's row, or replace a row of the bucket."""
    # Probe again: the searches below this node may have replaced the row found on entry.
    row = probe(tt, base, k0, k1, k2, k3, u, gen)
    if row < 0:
        row = base
        worst = 1 << 30
        for j in range(BUCKET):
            r = base + j
            m = tt[r, 4]
            if (m >> 48) != gen:
                row = r
                break
            d = (m >> 40) & 0xFF
            if d < worst:
                worst = d
                row = r
        tt[row, 0] = k0
        tt[row, 1] = k1
        tt[row, 2] = k2
        tt[row, 3] = k3
        tt[row, 5] = u
    else:
        m = tt[row, 4]
        olo = meta_lo(m)
        ohi = meta_hi(m)
        if olo > lo:
            lo = olo
        if ohi < hi:
            hi = ohi
        if best < 0:
            best = meta_best(m)
    tt[row, 4] = (lo + _OFF) | ((hi + _OFF) << 16) | ((best + 1) << 32) | (tleft << 40) | (gen << 48)


@kernel(noalloc=True)
def clear(tt):
    for r in range(tt.shape[0]):
        for j in range(tt.shape[1]):
            tt[r, j] = 0
