"""Quasi-symmetry table (after Kupferschmid & Helmert's Skat solver): bounds shared by twin states.

Two trick-start states are *twins* when every seat holds the same *relative* ranks --
the ranks counted among those still in play in each suit -- with the same leader,
trump, sides and bonus state. Their game trees are the same up to renaming the cards
(following, beating, trumping and "the first of two identical cards wins" depend only
on the order), so their values differ by at most ``D`` = the sum over corresponding
cards of copies x points difference (:func:`quasi_delta`).

The main table (:mod:`.table`) keeps every state under its exact key, in its own
bucket. This second, smaller table is keyed on the relative ranks: a bucket holds the
twins of one relative key (a row: a 64-bit signature of the relative key, the meta word
of :mod:`.table`, the types in play; 24 bytes, a bucket of eight is three cache lines, which
the search prefetches for the next trick starts as it does the main table's line), and a
probe intersects the bounds of every twin, each widened by its ``D``. (Rows holding the
four key words, 48 bytes, would make a probe read six lines; the documentation's Solver
page has what the signature rows and their prefetch save.) It is written and
probed only with at least :data:`QMIN` tricks left (:data:`QMIN_WITHIN` in a ``within``
query), where a saved subtree is worth the probe. The main table keeps exact keys: keyed this way, every twin of a key would compete
for one bucket, which overflows.

``pext(x, m)`` packs the bits of ``x`` at the positions set in ``m`` into the low bits;
on x86-64 with BMI2 it is one instruction (``llvm.x86.bmi.pext.64``), elsewhere a 6-bit
table does it, slice by slice.

>>> bin(int(pext(0b101101, 0b111000)))
'0b101'
>>> k = int(pext(0b11, 0b11))    # one seat holds E's top two ranks in play, once each
>>> int(quasi_delta(k, 0, 0, 0, 0b11, 0b110))   # EA E10 against E10 EK: 1 + 6
7
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from binokel_sim.cards import RANK_POINTS
from binokel_sim.jit import kernel
from binokel_sim.play.solver.bitops import prefetch_at
from binokel_sim.play.solver.table import INF, aligned_zeros, bucket_of, merged, meta_hi, meta_lo, pack

#: Fewest tricks left at which the quasi table is written and probed (``cfg[C_QMIN]``, set by ``make_cfg``).
QMIN = 4
#: The same for the ``within`` query (phase 2 of a 48-card corpus), with its larger quasi table: twins from 3
#: tricks left. On the 20 phase-2 positions of ``benchmarks/bench_phase2.py`` 0.99x the nodes (2**24 rows);
#: not the default, since every node budget's bounds would move with it (a phase-1 corpus is extended only by a
#: solver that proves the same bounds: :func:`binokel_sim.corpus.builder._same_solver`).
QMIN_WITHIN = 3
#: Rows per bucket (the twins of one relative key) and columns per row (key signature, meta, types in play).
QBUCKET = 8
QROW = 3
#: Cache lines of a bucket (the table starts on a line, a bucket is a whole number of lines).
QLINES = QBUCKET * QROW * 8 // 64

#: Whether this CPU has the BMI2 ``pext`` instruction (checked once, at import).
HAS_PEXT = "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")
#: ``PEXT6[x * 64 + m]``: the bits of ``x`` at the positions set in ``m``, packed low (6-bit slices).
PEXT6 = np.array([sum(((x >> b) & 1) << i for i, b in enumerate(b for b in range(6) if m >> b & 1))
                  for x in range(64) for m in range(64)], dtype=np.uint8)
#: Set bits of a 6-bit slice.
POP6 = np.array([bin(x).count("1") for x in range(64)], dtype=np.int64)


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


@intrinsic
def _pext_hw(typingctx, x, m):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


@kernel(noalloc=True)
def pext_table(x, m):
    """:func:`pext` without the instruction: 6-bit slices through a table."""
    out = np.int64(0)
    shift = 0
    for s in range(4):
        mm = (m >> (6 * s)) & 63
        out |= np.int64(PEXT6[((x >> (6 * s)) & 63) * 64 + mm]) << shift
        shift += POP6[mm]
    return out


if HAS_PEXT:
    @kernel(noalloc=True)
    def pext(x, m):
        """Bits of ``x`` (24 bits) at the positions set in ``m``, packed low."""
        return _pext_hw(np.int64(x), np.int64(m))
else:  # pragma: no cover - CPUs without BMI2
    pext = pext_table


@kernel(noalloc=True)
def quasi_bits(main_bits):
    """log2 rows of the quasi table beside a main table of ``2**main_bits`` rows: a quarter as many
    (24 bytes a row against 16: 24 MiB beside the 64 MiB main table of 12-trick deals). Measured
    on 80 solves of corpus deals (``standard``, 12 tricks) with a 2**22-row main table: quasi table
    2**19 rows 116 M nodes, 2**20 111 M, 2**21 109 M (rows of 48 bytes then).

    >>> int(quasi_bits(22)), int(quasi_bits(24))
    (20, 22)
    """
    return max(main_bits - 2, 3)


def new_quasi_table(main_bits: int, bits: int | None = None) -> np.ndarray:
    """An empty quasi table for a main table of ``2**main_bits`` rows (:func:`quasi_bits`), or of ``2**bits`` rows."""
    return aligned_zeros(1 << (int(quasi_bits(main_bits)) if bits is None else bits), QROW)


@kernel(noalloc=True, inline="always")
def quasi_delta(k0, k1, k2, k3, u, v):
    """Most the values of two twins with key words ``k0..k3`` can differ, when ``u`` and ``v``
    are their types in play: the sum over corresponding cards of copies x |points difference|."""
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


@kernel(noalloc=True, inline="always")
def quasi_key(h1, h2, seats, k0, k1, u):
    """Relative-rank key words of a state whose exact key words (:func:`.search.state_key`) start
    ``k0``, ``k1`` (their top 16 bits: trump, sides, mode, leader, bonus state), ``u`` its types
    in play; the number of types in play per suit goes in the third word."""
    per_suit = POP6[u & 63] | (POP6[(u >> 6) & 63] << 3) | (POP6[(u >> 12) & 63] << 6) | (POP6[(u >> 18) & 63] << 9)
    top = np.int64(0xFFFF) << 48
    r0 = pext(h1[0], u) | (pext(h2[0], u) << 24) | (k0 & top)
    r1 = pext(h1[1], u) | (pext(h2[1], u) << 24) | (k1 & top)
    r2 = per_suit << 48
    if seats >= 3:  # two-hand Binokel: seats 0 and 1 only
        r2 |= pext(h1[2], u) | (pext(h2[2], u) << 24)
    r3 = np.int64(0)
    if seats == 4:
        r3 = pext(h1[3], u) | (pext(h2[3], u) << 24)
    return r0, r1, r2, r3


@kernel(noalloc=True, inline="always")
def in_play(h1, seats):
    """Type mask of the cards still in play (held by some seat)."""
    u = h1[0] | h1[1] | h1[seats - 1]
    if seats == 4:  # two-hand Binokel has seats 0 and 1 only: never read past them
        u |= h1[2]
    return u


@kernel(noalloc=True, inline="always")
def qprefetch(qt, base):
    """Ask for every cache line of the bucket at ``base`` without waiting (the first row starting in each)."""
    for line in range(QLINES):
        prefetch_at(qt, (base + (64 * line + 8 * QROW - 1) // (8 * QROW)) * QROW)


@kernel(noalloc=True, inline="always")
def qslot(rows, k0, k1, k2, k3):
    """First row of the relative key's bucket."""
    return bucket_of(rows, QBUCKET, k0, k1, k2, k3)


@kernel(noalloc=True, inline="always")
def qprobe(qt, base, sig, k0, k1, k2, k3, u, gen):
    """``(found, lo, hi)``: the bounds of every twin in the bucket (rows holding ``sig``, the
    relative key's :func:`.table.signature`), each widened by its :func:`quasi_delta`, intersected."""
    found = False
    lo = -INF
    hi = INF
    for j in range(QBUCKET):
        r = base + j
        if qt[r * QROW + 0] == sig and (qt[r * QROW + 1] >> 48) == gen:
            meta = qt[r * QROW + 1]
            d = 0 if qt[r * QROW + 2] == u else quasi_delta(k0, k1, k2, k3, u, qt[r * QROW + 2])
            found = True
            a = meta_lo(meta)
            b = meta_hi(meta)
            if a > -INF and a - d > lo:
                lo = a - d
            if b < INF and b + d < hi:
                hi = b + d
    return found, lo, hi


@kernel(noalloc=True, inline="always")
def qstore(qt, base, sig, u, gen, lo, hi, tleft):
    """Merge ``lo <= value <= hi`` into this state's row (``sig`` and types in play ``u``), else take
    a row of an older generation, else the row with the fewest tricks left."""
    row = -1
    worst = 1 << 30
    for j in range(QBUCKET):
        r = base + j
        m = qt[r * QROW + 1]
        if (m >> 48) != gen:
            if row < 0 or worst >= 0:
                row = r
                worst = -1
            continue
        if qt[r * QROW + 0] == sig and qt[r * QROW + 2] == u:
            lo, hi = merged(m, lo, hi)
            row = r
            break
        d = (m >> 40) & 0xFF
        if worst >= 0 and d < worst:
            worst = d
            row = r
    qt[row * QROW + 0] = sig
    qt[row * QROW + 2] = u
    qt[row * QROW + 1] = pack(lo, hi, -1, tleft, gen)
