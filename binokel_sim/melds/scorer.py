"""Meld scoring kernels for every meld table (docs/rules.md §5).

A hand is a count vector ``uint8[24]``; a meld table is ``int64[21]`` from
:meth:`binokel_sim.rules.Melds.as_array` (slot order :data:`MELD_SLOT_NAMES`).
Trump is a suit index 0..3, or -1 for none.

Per suit: families ``f = min(A, 10, K, O, U)``, pairs ``p = min(K, O) - f``.
Per rank (A K O U, and 10 / 7 where the table scores eight of them):
``n = min over suits``. Binokel: ``min(GO, SU)``. Dissle: each trump 7.

>>> from binokel_sim.cards import Hand
>>> from binokel_sim.rules import load_rules
>>> t = load_rules("standard").meld_array()
>>> int(meld_total(Hand.parse("GK GO EO HO SO SU").counts, 0, t))   # trump E
120
>>> best_trump(Hand.parse("GK GO EO HO SO SU").counts, t)
(140, 1)
"""

from __future__ import annotations

import numpy as np

from binokel_sim.jit import kernel
from binokel_sim.rules import MELD_SLOT_NAMES

_SLOT = {name: i for i, name in enumerate(MELD_SLOT_NAMES)}
FAMILY = _SLOT["family"]  # +1: trump family
DOUBLE_FAMILY = _SLOT["double_family"]
PAIR = _SLOT["pair"]
DOUBLE_PAIR = _SLOT["double_pair"]
FOUR = _SLOT["four_A"]  # four_A, four_K, four_O, four_U
EIGHT = _SLOT["eight_A"]
BINOKEL = _SLOT["binokel"]
DOUBLE_BINOKEL = _SLOT["double_binokel"]
DISSLE = _SLOT["dissle"]
EIGHT_TENS = _SLOT["eight_tens"]
EIGHT_SEVENS = _SLOT["eight_sevens"]

#: Ranks that form four/eight of a kind, in table order (A K O U).
KIND_RANKS = np.array([0, 2, 3, 4], dtype=np.int64)
GO = 1 * 6 + 3
SU = 3 * 6 + 4


@kernel(noalloc=True)
def suit_structure(counts, s):
    """(families, pairs) of suit ``s``: a family's King and Ober are not also a pair."""
    b = s * 6
    f = min(counts[b], counts[b + 1], counts[b + 2], counts[b + 3], counts[b + 4])
    p = min(counts[b + 2], counts[b + 3]) - f
    return np.int64(f), np.int64(p)


@kernel(noalloc=True)
def seq_both(counts, s, table):
    """Sequence points (families and pairs) of suit ``s``: (as a plain suit, as trump)."""
    f, p = suit_structure(counts, s)
    plain = np.int64(0)
    trump = np.int64(0)
    if f >= 2:
        plain += table[DOUBLE_FAMILY]
        trump += table[DOUBLE_FAMILY + 1]
    elif f == 1:
        plain += table[FAMILY]
        trump += table[FAMILY + 1]
    if p >= 2:
        plain += table[DOUBLE_PAIR]
        trump += table[DOUBLE_PAIR + 1]
    elif p == 1:
        plain += table[PAIR]
        trump += table[PAIR + 1]
    return plain, trump


@kernel(noalloc=True)
def seq_points(counts, s, is_trump, table):
    """Sequence points (families and pairs) of suit ``s``."""
    plain, trump = seq_both(counts, s, table)
    return trump if is_trump else plain


@kernel(noalloc=True)
def kind_level(counts, rank):
    """How many complete sets of ``rank`` (one per suit) the hand holds: 0, 1 or 2."""
    return np.int64(min(counts[rank], counts[6 + rank], counts[12 + rank], counts[18 + rank]))


@kernel(noalloc=True)
def binokel_level(counts):
    return np.int64(min(counts[GO], counts[SU]))


@kernel(noalloc=True)
def trump_free_points(counts, table):
    """Of-a-kind and Binokel points: the part of the melds that no trump changes."""
    pts = np.int64(0)
    for i in range(4):
        n = kind_level(counts, KIND_RANKS[i])
        if n >= 2:
            pts += table[EIGHT + i]
        elif n == 1:
            pts += table[FOUR + i]
    if kind_level(counts, 1) >= 2:
        pts += table[EIGHT_TENS]
    if kind_level(counts, 5) >= 2:
        pts += table[EIGHT_SEVENS]
    b = binokel_level(counts)
    if b >= 2:
        pts += table[DOUBLE_BINOKEL]
    elif b == 1:
        pts += table[BINOKEL]
    return pts


@kernel(noalloc=True)
def meld_total(counts, trump, table):
    """Total meld points of a hand with ``trump`` (0..3, or -1 for none)."""
    pts = trump_free_points(counts, table)
    for s in range(4):
        pts += seq_points(counts, s, s == trump, table)
    if trump >= 0:
        pts += table[DISSLE] * np.int64(counts[trump * 6 + 5])
    return pts


@kernel(noalloc=True)
def trump_gain(counts, s, table):
    """What making ``s`` trump adds to the hand's melds (trump sequences and Dissle)."""
    plain, trump = seq_both(counts, s, table)
    return trump - plain + table[DISSLE] * np.int64(counts[s * 6 + 5])


@kernel(noalloc=True)
def plain_total(counts, table):
    """Meld total with no trump."""
    pts = trump_free_points(counts, table)
    for s in range(4):
        plain, _ = seq_both(counts, s, table)
        pts += plain
    return pts


@kernel(noalloc=True)
def totals_by_trump(counts, table, out):
    """Meld total for each trump 0..3 into ``out`` (int64[4])."""
    base = plain_total(counts, table)
    for t in range(4):
        out[t] = base + trump_gain(counts, t, table)


@kernel(noalloc=True)
def best_trump(counts, table):
    """(best total, trump) over the four trumps; ties go to the lower suit index."""
    best = 0
    gain = trump_gain(counts, 0, table)
    for t in range(1, 4):
        g = trump_gain(counts, t, table)
        if g > gain:
            gain = g
            best = t
    return plain_total(counts, table) + gain, best


@kernel(noalloc=True)
def needed_counts(counts, trump, table, out):
    """Copies of each card type that the hand's melds at ``trump`` use (``out``: int64[24]).

    Any subset of the hand scores exactly what its cards capped at these counts score,
    so the cards above them are free to discard.
    """
    for c in range(24):
        out[c] = 0
    for s in range(4):
        f, p = suit_structure(counts, s)
        b = s * 6
        out[b] = f
        out[b + 1] = f
        out[b + 2] = f + p
        out[b + 3] = f + p
        out[b + 4] = f
    for i in range(4):
        r = KIND_RANKS[i]
        n = kind_level(counts, r)
        if table[FOUR + i] > 0 or table[EIGHT + i] > 0:
            for s in range(4):
                out[s * 6 + r] = max(out[s * 6 + r], n)
    if table[EIGHT_TENS] > 0:
        n = kind_level(counts, 1)
        for s in range(4):
            out[s * 6 + 1] = max(out[s * 6 + 1], n)
    if table[EIGHT_SEVENS] > 0:
        n = kind_level(counts, 5)
        for s in range(4):
            out[s * 6 + 5] = max(out[s * 6 + 5], n)
    b = binokel_level(counts)
    out[GO] = max(out[GO], b)
    out[SU] = max(out[SU], b)
    if trump >= 0 and table[DISSLE] > 0:
        out[trump * 6 + 5] = counts[trump * 6 + 5]


@kernel
def _best_drop(work, types, drop, trump, table):
    """Best total of ``work`` after removing ``drop`` cards of ``types``: every multiset tried.

    The drops form a non-decreasing sequence of positions in ``types`` (an iterative
    odometer, so no recursion), each type dropped at most as often as it is held.
    """
    n = types.shape[0]
    pos = np.zeros(drop, dtype=np.int64)
    best = np.int64(-1)
    depth = 0
    while depth >= 0:
        if depth == drop:
            v = meld_total(work, trump, table)
            if v > best:
                best = v
            depth -= 1
            if depth >= 0:
                work[types[pos[depth]]] += 1
                pos[depth] += 1
            continue
        # Advance to the next type at this depth that still has a copy to drop.
        while pos[depth] < n and work[types[pos[depth]]] == 0:
            pos[depth] += 1
        if pos[depth] >= n:
            depth -= 1
            if depth >= 0:
                work[types[pos[depth]]] += 1
                pos[depth] += 1
            continue
        work[types[pos[depth]]] -= 1
        if depth + 1 < drop:
            pos[depth + 1] = pos[depth]
        depth += 1
    return best


@kernel
def best_kept_at(counts, keep, trump, table):
    """Best meld total at ``trump`` over all sub-hands of ``keep`` cards (exact).

    Cards above :func:`needed_counts` are discarded first at no cost; if more must go,
    every choice among the needed cards is tried. Exact because meld tables are
    monotone (checked when rules load).
    """
    need = np.empty(24, dtype=np.int64)
    needed_counts(counts, trump, table, need)
    work = np.zeros(24, dtype=np.uint8)
    size = 0
    ntypes = 0
    for c in range(24):
        work[c] = need[c]
        size += need[c]
        if need[c] > 0:
            ntypes += 1
    if size <= keep:
        return meld_total(counts, trump, table)
    types = np.empty(ntypes, dtype=np.int64)
    j = 0
    for c in range(24):
        if need[c] > 0:
            types[j] = c
            j += 1
    return _best_drop(work, types, size - keep, trump, table)


@kernel
def best_kept(counts, keep, table):
    """(best total, trump) keeping ``keep`` cards of the hand, over all four trumps.

    Most hands hold enough cards outside their melds to discard for free; only the
    others pay for the exact search of :func:`best_kept_at`.
    """
    need = np.empty(24, dtype=np.int64)
    needed_counts(counts, -1, table, need)
    size = np.int64(0)
    for c in range(24):
        size += need[c]
    base = plain_total(counts, table)
    best = np.int64(-1)
    best_t = 0
    for t in range(4):
        extra = np.int64(counts[t * 6 + 5]) if table[DISSLE] > 0 else np.int64(0)
        if size + extra <= keep:
            v = base + trump_gain(counts, t, table)
        else:
            v = best_kept_at(counts, keep, t, table)
        if v > best:
            best = v
            best_t = t
    return best, best_t
