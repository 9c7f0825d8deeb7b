"""The transposition table: bounds on the points still to be won, per trick-start state.

One ``int64[size, 5]`` array. Row = four key words (each seat's hand as 48 bits:
types held, types held twice; plus the player on lead, trump, sides, query mode
and which bonus seats already hold a trick) and one packed meta word
(lower bound, upper bound, best lead, tricks left, generation). Rows come in
buckets of four; a store replaces the matching row, else a row of an older
generation, else the row with the fewest tricks left (cheapest to redo).

Entries are facts about a state, so they stay valid across queries on the same
deal -- other thresholds, other trumps (trump is in the key). A new generation
empties the table in O(1) when the meld bonuses change.

>>> tt = new_table(10)
>>> tt.shape
(1024, 5)
"""

from __future__ import annotations

import numpy as np

from binokel_sim.jit import kernel

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


def new_table(bits: int = 20) -> np.ndarray:
    """An empty table of ``2**bits`` rows (40 bytes each)."""
    return np.zeros((1 << bits, 5), dtype=np.int64)


@kernel(noalloc=True)
def bucket_of(rows, bucket, k0, k1, k2, k3):
    """First row of the key's bucket of ``bucket`` rows, in a table of ``rows`` rows (powers of two)."""
    x = np.uint64(k0) * _H1 ^ np.uint64(k1) * _H2 ^ np.uint64(k2) * _H3 ^ np.uint64(k3) * _H4
    x ^= x >> np.uint64(29)
    x *= _H1
    x ^= x >> np.uint64(32)
    return np.int64(x & np.uint64(rows - 1)) & ~np.int64(bucket - 1)


@kernel(noalloc=True)
def slot_of(tt, k0, k1, k2, k3):
    """First row of the key's bucket."""
    return bucket_of(tt.shape[0], 4, k0, k1, k2, k3)


@kernel(noalloc=True)
def probe(tt, base, k0, k1, k2, k3, gen):
    """Row holding the key in the bucket at ``base``, or -1."""
    for j in range(4):
        r = base + j
        if tt[r, 0] == k0 and tt[r, 1] == k1 and tt[r, 2] == k2 and tt[r, 3] == k3:
            if (tt[r, 4] >> 48) == gen:
                return r
    return -1


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
def merged(meta, lo, hi):
    """The bounds ``lo..hi`` intersected with those stored in ``meta``."""
    return max(lo, meta_lo(meta)), min(hi, meta_hi(meta))


@kernel(noalloc=True)
def pack(lo, hi, best, tleft, gen):
    """The meta word: lower and upper bound, best lead (-1: none), tricks left, generation."""
    return (lo + _OFF) | ((hi + _OFF) << 16) | ((best + 1) << 32) | (tleft << 40) | (gen << 48)


@kernel(noalloc=True)
def write_key(tt, row, k0, k1, k2, k3):
    tt[row, 0] = k0
    tt[row, 1] = k1
    tt[row, 2] = k2
    tt[row, 3] = k3


@kernel(noalloc=True)
def store(tt, base, k0, k1, k2, k3, gen, lo, hi, best, tleft):
    """Merge the bounds ``lo <= value <= hi`` into the key's row, or replace a row of the bucket."""
    # Probe again: the searches below this node may have replaced the row found on entry.
    row = probe(tt, base, k0, k1, k2, k3, gen)
    if row < 0:
        row = base
        worst = 1 << 30
        for j in range(4):
            r = base + j
            m = tt[r, 4]
            if (m >> 48) != gen:
                row = r
                break
            d = (m >> 40) & 0xFF
            if d < worst:
                worst = d
                row = r
        write_key(tt, row, k0, k1, k2, k3)
    else:
        m = tt[row, 4]
        lo, hi = merged(m, lo, hi)
        if best < 0:
            best = meta_best(m)
    tt[row, 4] = pack(lo, hi, best, tleft, gen)


@kernel(noalloc=True)
def clear(tt):
    for r in range(tt.shape[0]):
        for j in range(tt.shape[1]):
            tt[r, j] = 0
