"""Scoring a hand by suit patterns: the lookup tables and kernels behind the meld-odds Monte Carlo.

A suit's holding is the base-3 number ``sum(count[rank] * 3**rank)`` (0..728). One table
row per pattern gives its plain sequence points, its trump bonus (trump sequence points
- plain + Dissle), bit flags for "holds >= 1 / 2 of rank r" and its O and U counts; the
of-a-kind levels of a hand are the AND of its four suits' flags. Event levels come
packed, 4 bits per level in the order of :data:`binokel_sim.melds.events.LEVELS`, so the
words of several hands add up to per-level member counts.

The tests check every total and level against :mod:`binokel_sim.melds.scorer`.

>>> from binokel_sim.cards import Hand
>>> from binokel_sim.rules import load_rules
>>> st = score_tables(load_rules("standard"))
>>> tot = np.zeros(5, dtype=np.int64)
>>> ge1, eq2 = score_patterns(patterns_of(Hand.parse("GK GO EO HO SO SU").counts), *st.arrays(), tot)
>>> [int(v) * st.unit for v in tot]   # trump E, G, H, S, best
[120, 140, 120, 120, 140]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim.jit import kernel
from binokel_sim.melds.events import DISSLE_SUIT, LEVELS, meld_unit
from binokel_sim.rules import MELD_RANKS, Rules

N_LEVELS = len(LEVELS)
N_PATTERNS = 3**6
#: Ranks whose level is a min over suits, as flag bits i (>= 1) and 6 + i (== 2): A K O U 10 7.
KIND_ROWS = (0, 2, 3, 4, 1, 5)
#: Pattern table columns.
COL_PLAIN, COL_BONUS, COL_FLAGS, COL_O, COL_U = range(5)
_G, _S = 1, 3

#: Card type -> suit and base-3 digit weight of its rank.
CARD_SUIT = np.arange(24, dtype=np.int64) // 6
CARD_WEIGHT = 3 ** (np.arange(24, dtype=np.int64) % 6)
#: The weight placed in a 16-bit field per suit: a hand's four patterns are one sum of these.
CARD_PACKED = CARD_WEIGHT << (16 * CARD_SUIT)


@kernel(noalloc=True)
def score_patterns(p, ptab, pack, kindpts, kindpack, binpts, binpack, tot):
    """Score one hand given as suit patterns ``p[4]``: totals into ``tot[5]``, returns packed levels.

    ``tot`` gets the total at trump E, G, H, S and at the best trump (meld units). Returns
    two words ``(ge1, eq2)`` with 4 bits per level in ``LEVELS`` order: 1 where the level
    is >= 1, resp. 2 (see :func:`unpack_levels`), so members' words add up to counts.
    """
    flags = ptab[p[0], COL_FLAGS] & ptab[p[1], COL_FLAGS] & ptab[p[2], COL_FLAGS] & ptab[p[3], COL_FLAGS]
    b = min(ptab[p[_G], COL_O], ptab[p[_S], COL_U])
    base = kindpts[flags] + binpts[b]
    ge1 = kindpack[0, flags] + binpack[0, b]
    eq2 = kindpack[1, flags] + binpack[1, b]
    best = ptab[p[0], COL_BONUS]
    for s in range(4):
        row = p[s]
        base += ptab[row, COL_PLAIN]
        bonus = ptab[row, COL_BONUS]
        tot[s] = bonus
        best = max(best, bonus)
        ge1 += pack[0, s, row]
        eq2 += pack[1, s, row]
    for s in range(4):
        tot[s] += base
    tot[4] = base + best
    return ge1, eq2


@kernel(noalloc=True)
def counts_of_patterns(p, counts):
    """Count vector of a hand given as suit patterns (the base-3 digits)."""
    for s in range(4):
        x = p[s]
        for r in range(6):
            counts[s * 6 + r] = x % 3
            x //= 3


@dataclass(frozen=True)
class ScoreTables:
    """The meld table as the kernels' lookup tables, in units of ``unit`` points.

    ``ptab[pattern, col]``: plain sequence points, trump bonus, kind flags, O and U counts;
    ``pack[word, suit, pattern]``: the suit's packed family/pair (and Dissle) levels;
    ``kindpts[flags]``/``kindpack[word, flags]``: of-a-kind points and packed levels;
    ``binpts[level]``/``binpack[word, level]``: Binokel points and packed level.
    """

    unit: int
    ptab: np.ndarray
    pack: np.ndarray
    kindpts: np.ndarray
    kindpack: np.ndarray
    binpts: np.ndarray
    binpack: np.ndarray
    table: np.ndarray  # int64[21]: rules.meld_array() / unit
    max_total: int  # bound on any total in units (histogram size - 1)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.ptab, self.pack, self.kindpts, self.kindpack, self.binpts, self.binpack


def _field(level: int, value: int) -> tuple[int, int]:
    """Packed (>= 1, == 2) contributions of ``level`` at ``value``."""
    return int(value >= 1) << (4 * level), int(value >= 2) << (4 * level)


def _level_index(kind: str, index: int) -> int:
    return next(i for i, lv in enumerate(LEVELS) if lv.kind == kind and lv.index == index)


def score_tables(rules: Rules) -> ScoreTables:
    """Build :class:`ScoreTables` from ``rules.melds`` (and whether the deck has sevens)."""
    m = rules.melds
    u = meld_unit(m)
    sevens = rules.layout.sevens
    seq = np.zeros((2, 3, 3), dtype=np.int64)
    for t, pre in enumerate(("", "trump_")):
        fam = (0, getattr(m, pre + "family"), getattr(m, pre + "double_family"))
        pair = (0, getattr(m, pre + "pair"), getattr(m, pre + "double_pair"))
        seq[t] = np.add.outer(fam, pair) // u
    dissle = m.dissle // u if sevens else 0

    ptab = np.zeros((N_PATTERNS, 5), dtype=np.int64)
    pack = np.zeros((2, 4, N_PATTERNS), dtype=np.int64)
    for x in range(N_PATTERNS):
        c = [(x // 3**r) % 3 for r in range(6)]
        f = min(c[:5])
        p = min(c[2], c[3]) - f
        ptab[x, COL_PLAIN] = seq[0, f, p]
        ptab[x, COL_BONUS] = seq[1, f, p] - seq[0, f, p] + dissle * c[5]
        ptab[x, COL_FLAGS] = sum((int(c[r] >= 1) << i) | (int(c[r] >= 2) << (6 + i)) for i, r in enumerate(KIND_ROWS))
        ptab[x, COL_O], ptab[x, COL_U] = c[3], c[4]
        for s in range(4):
            fields = [("family", f), ("pair", p)] + ([("dissle", c[5])] if s == DISSLE_SUIT else [])
            for kind, value in fields:
                a, b = _field(_level_index(kind, s), value)
                pack[0, s, x] += a
                pack[1, s, x] += b

    eight = (m.eight_tens, m.eight_sevens if sevens else 0)
    points = [(0, m.four[r], m.eight[r]) for r in MELD_RANKS] + [(0, 0, e) for e in eight]
    kindpts = np.zeros(1 << 12, dtype=np.int64)
    kindpack = np.zeros((2, 1 << 12), dtype=np.int64)
    for flags in range(1 << 12):
        for i in range(6):
            level = ((flags >> i) & 1) + ((flags >> (6 + i)) & 1)
            kindpts[flags] += points[i][level] // u
            if i < 4:
                a, b = _field(_level_index("kind", KIND_ROWS[i]), level)
                kindpack[0, flags] += a
                kindpack[1, flags] += b
    binpts = np.array([0, m.binokel // u, m.double_binokel // u], dtype=np.int64)
    binpack = np.array([[_field(_level_index("binokel", 0), v)[w] for v in range(3)] for w in range(2)], dtype=np.int64)
    max_total = int(4 * (seq.max() + 2 * dissle) + kindpts.max() + binpts.max())
    return ScoreTables(u, ptab, pack, kindpts, kindpack, binpts, binpack, rules.meld_array() // u, max_total)


def patterns_of(counts: np.ndarray) -> np.ndarray:
    """Suit patterns ``int64[4]`` of a count vector: ``sum(count[rank] * 3**rank)`` per suit."""
    c = np.asarray(counts, dtype=np.int64).reshape(4, 6)
    return c @ (3 ** np.arange(6, dtype=np.int64))


def unpack_levels(ge1: int, eq2: int) -> list[tuple[int, int]]:
    """Per level of ``LEVELS``: (members at >= 1, members at 2) from packed words."""
    return [((int(ge1) >> (4 * q)) & 15, (int(eq2) >> (4 * q)) & 15) for q in range(N_LEVELS)]
