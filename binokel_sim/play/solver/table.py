"""The transposition table: bounds on the points still to be won, per trick-start state.

One ``int64[size, 2]`` array. A state's key is four words (each seat's hand as 48
bits: types held, types held twice; plus the player on lead, trump, sides, query
mode and which bonus seats already hold a trick); its bucket is one hash of them and
its row keeps a second, independent 64-bit hash (:func:`signature`) beside one
packed meta word (lower bound, upper bound, best lead, tricks left, generation).
Two keys share a bucket and a signature with probability about 2**-64 per probe
(over 10**13 probes, the work of a 20 000-deal corpus many times over: ~10**-6).
Rows come in buckets of four, 64 bytes, one cache line (the array starts on a line):
the probe's memory read was 15 % of the solver's time with the full keys stored
(40-byte rows, a bucket over three lines). A store replaces the matching row, else
a row of an older generation, else the row with the fewest tricks left (cheapest to
redo).

Entries are facts about a state, so they stay valid across queries on the same
deal -- other thresholds, other trumps (trump is in the key). A new generation
empties the table in O(1) when the meld bonuses change.

>>> tt = new_table(10)
>>> tt.shape, tt.ctypes.data % 64
((1024, 2), 0)
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
    """Table size (log2 rows) for deals of ``tricks`` tricks: 2**22 rows (64 MiB) up to 12 tricks,
    2**24 rows (256 MiB) beyond, where the table is the limit. Measured on 80 solves of
    ``standard`` corpus deals (post-exchange soloist hands, the heavy cases): 2**20 rows 122.6 M
    nodes, 2**22 111.9 M; on 12 of them 49.0 M with 2**20 rows, 45.2 M with 2**21, 41.2 M with
    2**22, 40.1 M with 2**23 (random deals: 40.4 M and 39.9 M on 30, 2**20 and 2**22).
    A zero-window test of one 15-trick ``standard-48`` deal took 1.17 G nodes with 2**21 rows,
    695 M with 2**22, 345 M with 2**24 and 314 M with 2**26 (slower, though: memory latency).

    >>> bits_for(12), bits_for(15)
    (22, 24)
    """
    return 22 if tricks <= 12 else 24


#: Words per row: signature, meta.
TT_COLS = 2


def new_table(bits: int = 20) -> np.ndarray:
    """An empty table of ``2**bits`` rows (16 bytes each), starting on a 64-byte cache line."""
    return aligned_zeros(1 << bits, TT_COLS)


def aligned_zeros(rows: int, cols: int) -> np.ndarray:
    """``int64[rows, cols]`` zeros whose first element starts a 64-byte cache line."""
    buf = np.zeros(rows * cols + 8, dtype=np.int64)
    skip = (-buf.ctypes.data % 64) // 8
    return buf[skip:skip + rows * cols].reshape(rows, cols)


@kernel(noalloc=True)
def signature(k0, k1, k2, k3):
    """A 64-bit hash of the key words, independent of :func:`bucket_of`'s (other multipliers)."""
    x = np.uint64(k0) * _H3 ^ np.uint64(k1) * _H4 ^ np.uint64(k2) * _H1 ^ np.uint64(k3) * _H2
    x ^= x >> np.uint64(31)
    x *= _H2
    x ^= x >> np.uint64(29)
    return np.int64(x)


@kernel(noalloc=True)
def bucket_of(rows, bucket, k0, k1, k2, k3):
    """First row of the key's bucket of ``bucket`` rows, in a table of ``rows`` rows (powers of two)."""
    x = np.uint64(k0) * _H1 ^ np.uint64(k1) * _H2 ^ np.uint64(k2) * _H3 ^ np.uint64(k3) * _H4
    x ^= x >> np.uint64(29)
    x *= _H1
    x ^= x >> np.uint64(32)
    return np.int64(x & np.uint64(rows - 1)) & ~np.int64(bucket - 1)


@kernel(noalloc=True, inline="always")
def slot_of(rows, k0, k1, k2, k3):
    """First row of the key's bucket."""
    return bucket_of(rows, 4, k0, k1, k2, k3)


@kernel(noalloc=True, inline="always")
def probe(tt, base, sig, gen):
    """Row holding the key (its :func:`signature`) in the bucket at ``base``, or -1."""
    for j in range(4):
        r = base + j
        if tt[r * TT_COLS] == sig and (tt[r * TT_COLS + 1] >> 48) == gen:
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


@kernel(noalloc=True, inline="always")
def store(tt, base, sig, gen, lo, hi, best, tleft):
    """Merge the bounds ``lo <= value <= hi`` into the key's row, or replace a row of the bucket."""
    # Probe again: the searches below this node may have replaced the row found on entry.
    row = probe(tt, base, sig, gen)
    if row < 0:
        row = base
        worst = 1 << 30
        for j in range(4):
            r = base + j
            m = tt[r * TT_COLS + 1]
            if (m >> 48) != gen:
                row = r
                break
            d = (m >> 40) & 0xFF
            if d < worst:
                worst = d
                row = r
        tt[row * TT_COLS] = sig
    else:
        m = tt[row * TT_COLS + 1]
        lo, hi = merged(m, lo, hi)
        if best < 0:
            best = meta_best(m)
    tt[row * TT_COLS + 1] = pack(lo, hi, best, tleft, gen)


@kernel(noalloc=True)
def clear(tt):
    for r in range(tt.shape[0]):
        for j in range(tt.shape[1]):
            tt[r, j] = 0
