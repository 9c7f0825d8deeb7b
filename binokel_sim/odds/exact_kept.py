"""Exact meld odds of the ``kept`` scope: the best meld total after discarding, by combinatorics.

The soloist holds a uniform ``cards``-card subset of the doubled deck (hand + Tapp) and
keeps ``keep`` of them. Per hand, :func:`binokel_sim.melds.scorer.best_kept_at` finds the best
total at trump ``t``. It looks at the hand only through the cards its melds need
(:func:`binokel_sim.melds.scorer.needed_counts`), and those follow from the hand's *structure*:

* per suit a *class*: families ``f``, extra pairs ``p`` and (when sevens score: Dissle
  or eight sevens) the sevens ``d``;
* per scored kind rank (A K O U that score four or eight, 10 with ``eight_tens``) its
  level ``L_r`` = the minimum over suits of that rank's count, and the Binokel level
  ``b = min(GO, SU)``; the eight-sevens level is ``min(d)``, known from the classes.

``best_kept_at`` uses nothing else: a hand scores what its needed cards score, and when
they do not fit in ``keep`` the search runs over the needed cards alone. So one
representative hand per structure (its needed cards, plus the sevens) scores, with the
same numba code as the Monte Carlo (``odds_kernel.kept_totals``), exactly what every hand
of that structure scores at every trump; the best trump is the maximum over the same
structure, no independence assumed. E and H play the same part (Binokel is G + S), so
structures with their classes swapped are scored once. What remains is to count the
hands of each structure, without enumerating hands:

* "every suit holds >= ``T_r`` of each scored rank, GO and SU >= ``T_b``, and suit ``s``
  has class ``k_s``" factorises over suits: the coefficient of ``x**cards`` in the
  product of per-suit polynomials (weights: card subsets, ``prod comb(2, count)``);
  suits E x G and H x S are multiplied first (meet in the middle);
* finite differences over the thresholds (inclusion-exclusion) turn "at least ``T``"
  into "exactly ``L``".

The counts are exact int64: every number formed (a product term, a partial sum, a
partial finite difference: "exactly" on some axes, "at least" on the others) counts a
set of hands, so it lies in ``0 .. comb(48, 24) < 2**45``; the total over all structures
is asserted to equal ``comb(deck, cards)``. Probabilities are :class:`fractions.Fraction`.

Keeping 4 of 6 cards, the best is a double Binokel (GO GO SU SU, and any two more):

>>> from binokel_sim.rules import load_rules
>>> kept = kept_distributions(load_rules("standard"), cards=6, keep=4)
>>> max(kept["best"]), kept["best"][300] == Fraction(comb(36, 2), comb(40, 6))
(300, True)
>>> sum(kept["best"].values())
Fraction(1, 1)
"""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

from binokel_sim.errors import InputError
from binokel_sim.odds.exact import R_10, R_O, R_U, S_G, S_S, ExactOdds, family_pair, suit_patterns
from binokel_sim.jit import kernel
from binokel_sim.melds.events import QUANTITIES
from binokel_sim.melds.patterns import score_tables
from binokel_sim.melds.scorer import (DISSLE, EIGHT, EIGHT_SEVENS, EIGHT_TENS, FOUR, binokel_level, kind_level,
                                      suit_structure, totals_by_trump)
from binokel_sim.odds.monte_carlo import MAX_BINS, kept_totals
from binokel_sim.rules import Rules
from binokel_sim.runner import chunk_ranges, run_chunks

#: (families, pairs) of a suit class, in class order (the sevens ``d`` add 6 * d).
FAMILY_PAIRS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0))


# ------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class KeptSetup:
    """The structure space of one (rules, cards): threshold axes, suit classes and suit polynomials.

    ``dim_rank[i]``: the rank of threshold axis ``i``; the last axis (rank -1) is Binokel.
    ``poly[s, T, k, size]``: card subsets of suit ``s`` of ``size`` cards, class ``k``,
    meeting threshold vector ``T`` (flat base-3 index, axis ``i`` digit weight ``3**i``).
    """

    cards: int
    dim_rank: np.ndarray
    cls_f: np.ndarray
    cls_p: np.ndarray
    cls_d: np.ndarray
    poly: np.ndarray
    feasible: np.ndarray  # flat threshold vectors some hand of ``cards`` cards can meet


def threshold_ranks(table: np.ndarray) -> list[int]:
    """Ranks whose min-over-suits level the needed cards depend on (as in ``melds.needed_counts``)."""
    ranks = [r for i, r in enumerate((0, 2, 3, 4)) if table[FOUR + i] > 0 or table[EIGHT + i] > 0]
    return ranks + ([R_10] if table[EIGHT_TENS] > 0 else [])


def tracks_sevens(rules: Rules) -> bool:
    """Sevens are part of a suit's class when they can score (Dissle or eight sevens)."""
    t = rules.meld_array()
    return rules.layout.sevens and (t[DISSLE] > 0 or t[EIGHT_SEVENS] > 0)


def suit_classes(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(families, pairs, sevens) of every suit class."""
    ds = range(3) if tracks_sevens(rules) else range(1)
    classes = [(f, p, d) for d in ds for f, p in FAMILY_PAIRS]
    f, p, d = (np.array(col, dtype=np.int64) for col in zip(*classes))
    return f, p, d


def class_of(c: tuple[int, ...], track_d: bool) -> int:
    """Index of a suit's class (see :func:`suit_classes`) from its counts ``c`` (six ranks)."""
    return FAMILY_PAIRS.index(family_pair(c)) + (6 * c[5] if track_d else 0)


def suit_thresholds(dims: list[int], suit: int, digits: tuple[int, ...]) -> np.ndarray:
    """Per-rank minimum counts of ``suit`` under threshold vector ``digits`` (last digit: Binokel)."""
    need = np.zeros(6, dtype=np.int64)
    for r, t in zip(dims, digits):
        need[r] = t
    if suit == S_G:
        need[R_O] = max(need[R_O], digits[-1])
    if suit == S_S:
        need[R_U] = max(need[R_U], digits[-1])
    return need


def kept_setup(rules: Rules, cards: int) -> KeptSetup:
    """Suit polynomials for every threshold vector and class (numpy over the 3**ranks suit patterns)."""
    dims = threshold_ranks(rules.meld_array())
    ranks = 6 if rules.layout.sevens else 5
    track_d = tracks_sevens(rules)
    cls_f, cls_p, cls_d = suit_classes(rules)
    patterns = suit_patterns(ranks)
    pats6 = np.zeros((len(patterns), 6), dtype=np.int64)
    pats6[:, :ranks] = [c for c, _ in patterns]
    size = pats6.sum(axis=1)
    weight = np.array([w for _, w in patterns], dtype=np.int64)
    cls = np.array([class_of(tuple(row), track_d) for row in pats6], dtype=np.int64)
    axes = len(dims) + 1
    poly = np.zeros((4, 3**axes, len(cls_f), 2 * ranks + 1), dtype=np.int64)
    least = np.zeros(3**axes, dtype=np.int64)
    for digits in itertools.product(range(3), repeat=axes):
        flat = sum(d * 3**i for i, d in enumerate(digits))
        for s in range(4):
            ok = (pats6 >= suit_thresholds(dims, s, digits)).all(axis=1)
            np.add.at(poly[s, flat], (cls[ok], size[ok]), weight[ok])
            least[flat] += size[ok].min()
    feasible = np.nonzero(least <= cards)[0]
    return KeptSetup(cards, np.array(dims + [-1], dtype=np.int64), cls_f, cls_p, cls_d, poly, feasible)


# ------------------------------------------------------------------------ kernels


@kernel
def pair_products(p1, p2, feasible, cards, out):
    """``out[i, a, b, j]``: card subsets of two suits, ``j`` cards, classes (a, b), threshold ``feasible[i]``."""
    kk = p1.shape[1]
    top = p1.shape[2]
    for i in range(feasible.shape[0]):
        t = feasible[i]
        for a in range(kk):
            for b in range(kk):
                for x in range(top):
                    w = p1[t, a, x]
                    if w == 0:
                        continue
                    for y in range(min(top, cards - x + 1)):
                        out[i, a, b, x + y] += w * p2[t, b, y]


@kernel
def at_least_slice(pa, pb, feasible, cards, ke, kg, al):
    """``al[T, kh, ks]``: hands meeting ``T`` with classes (ke, kg, kh, ks): the two pair products at ``cards``.

    Only ``kh >= ke`` (the rest stays 0): E and H are interchangeable, see :func:`tally_slice`.
    """
    al[:] = 0
    kk = al.shape[1]
    for i in range(feasible.shape[0]):
        t = feasible[i]
        for j in range(cards + 1):
            w = pa[i, ke, kg, j]
            if w == 0:
                continue
            for kh in range(ke, kk):
                for ks in range(kk):
                    al[t, kh, ks] += w * pb[i, cards - j, kh, ks]


@kernel
def exactly(al, axes):
    """Finite differences along every threshold axis, in place: at least ``T`` -> exactly ``L``."""
    stride = 1
    for _ in range(axes):
        for t in range(al.shape[0]):
            if (t // stride) % 3 < 2:
                al[t] -= al[t + stride]
        stride *= 3


@kernel
def representative(levels, dim_rank, classes, cls_f, cls_p, cls_d, hand):
    """The needed cards of a structure (plus every suit's sevens) into ``hand``."""
    for s in range(4):
        k = classes[s]
        f, fp, b = cls_f[k], cls_f[k] + cls_p[k], s * 6
        hand[b] = f
        hand[b + 1] = f
        hand[b + 2] = fp
        hand[b + 3] = fp
        hand[b + 4] = f
        hand[b + 5] = cls_d[k]
    axes = dim_rank.shape[0]
    for i in range(axes - 1):
        for s in range(4):
            c = s * 6 + dim_rank[i]
            hand[c] = max(hand[c], levels[i])
    bl = levels[axes - 1]
    hand[S_G * 6 + R_O] = max(hand[S_G * 6 + R_O], bl)
    hand[S_S * 6 + R_U] = max(hand[S_S * 6 + R_U], bl)


@kernel
def has_structure(hand, levels, dim_rank, classes, cls_f, cls_p):
    """Whether ``hand`` has the levels and (families, pairs) of the structure."""
    for s in range(4):
        f, p = suit_structure(hand, s)
        if f != cls_f[classes[s]] or p != cls_p[classes[s]]:
            return False
    axes = dim_rank.shape[0]
    for i in range(axes - 1):
        if kind_level(hand, dim_rank[i]) != levels[i]:
            return False
    return binokel_level(hand) == levels[axes - 1]


@kernel
def tally_slice(al, ke, kg, dim_rank, cls_f, cls_p, cls_d, cards, keep, table, out):
    """Score the representative of every structure with a count in ``al`` and add the count to ``out[q, total]``.

    Suits E and H play the same part (Binokel is G + S), so a structure with the (E, H)
    classes swapped has as many hands and its E and H totals swapped: only ``kh >= ke``
    is scored, and ``kh > ke`` adds its mirror too.

    Returns 0, or an error code: 1 a negative count, 2 a counted structure its
    representative does not have, 3 a representative larger than the hand.
    """
    axes = dim_rank.shape[0]
    kk = al.shape[1]
    levels = np.zeros(axes, dtype=np.int64)
    classes = np.array([ke, kg, 0, 0], dtype=np.int64)
    hand = np.zeros(24, dtype=np.uint8)
    need = np.zeros(24, dtype=np.int64)
    tot4 = np.zeros(4, dtype=np.int64)
    tot = np.zeros(5, dtype=np.int64)
    for t in range(al.shape[0]):
        x = t
        for i in range(axes):
            levels[i] = x % 3
            x //= 3
        for kh in range(ke, kk):
            for ks in range(kk):
                n = al[t, kh, ks]
                if n == 0:
                    continue
                if n < 0:
                    return 1
                classes[2] = kh
                classes[3] = ks
                representative(levels, dim_rank, classes, cls_f, cls_p, cls_d, hand)
                if not has_structure(hand, levels, dim_rank, classes, cls_f, cls_p):
                    return 2
                size = 0
                for c in range(24):
                    size += hand[c]
                if size > cards:
                    return 3
                # Full totals first; kept_totals replaces those whose needed cards do not fit in keep.
                totals_by_trump(hand, table, tot4)
                for q in range(4):
                    tot[q] = tot4[q]
                kept_totals(hand, keep, table, need, tot)
                for q in range(5):
                    out[q, tot[q]] += n
                if kh != ke:
                    # The mirror structure (E and H swapped): as many hands, trump E and H values swapped.
                    out[0, tot[2]] += n
                    out[2, tot[0]] += n
                    for q in (1, 3, 4):
                        out[q, tot[q]] += n
    return 0


@kernel
def tally_outer(pa, pb, feasible, axes, lo, hi, dim_rank, cls_f, cls_p, cls_d, cards, keep, table, out):
    """Every structure whose (E, G) classes have flat index ``lo .. hi - 1``; returns an error code or 0."""
    kk = cls_f.shape[0]
    al = np.zeros((3**axes, kk, kk), dtype=np.int64)
    for x in range(lo, hi):
        ke, kg = x // kk, x % kk
        at_least_slice(pa, pb, feasible, cards, ke, kg, al)
        exactly(al, axes)
        err = tally_slice(al, ke, kg, dim_rank, cls_f, cls_p, cls_d, cards, keep, table, out)
        if err:
            return err
    return 0


# ------------------------------------------------------------------------ facade


def kept_counts(rules: Rules, cards: int | None = None, keep: int | None = None,
                workers: int | None = None) -> tuple[np.ndarray, int]:
    """(``counts[q, v]``, unit): hands of ``cards`` cards whose best kept total at quantity ``q`` is ``v`` units.

    ``q`` indexes :data:`~binokel_sim.melds.events.QUANTITIES`. Defaults: ``cards`` =
    hand + Tapp, ``keep`` = hand size.
    """
    lay = rules.layout
    cards = lay.hand_size + lay.tapp_size if cards is None else cards
    keep = lay.hand_size if keep is None else keep
    if not 0 <= keep <= cards <= lay.deck_size:
        raise ValueError(f"need 0 <= keep <= cards <= {lay.deck_size}, got keep={keep}, cards={cards}")
    st = score_tables(rules)
    if st.max_total + 1 > MAX_BINS:
        raise InputError(f"melds: totals up to {st.max_total * st.unit} in steps of {st.unit} are too fine for the "
                         f"exact kept odds; use meld values with a larger common divisor")
    ks = kept_setup(rules, cards)
    axes = ks.dim_rank.shape[0]
    kk = ks.cls_f.shape[0]
    shape = (ks.feasible.shape[0], kk, kk, cards + 1)
    pa, pb = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.int64)
    pair_products(ks.poly[0], ks.poly[S_G], ks.feasible, cards, pa)
    pair_products(ks.poly[2], ks.poly[S_S], ks.feasible, cards, pb)
    pb = np.ascontiguousarray(pb.transpose(0, 3, 1, 2))  # [T, cards, kh, ks]: the inner loop's order

    counts = np.zeros((len(QUANTITIES), st.max_total + 1), dtype=np.int64)
    lock = threading.Lock()

    def one(chunk) -> None:
        out = np.zeros_like(counts)
        err = tally_outer(pa, pb, ks.feasible, axes, chunk.start, chunk.stop, ks.dim_rank, ks.cls_f, ks.cls_p,
                          ks.cls_d, cards, keep, st.table, out)
        if err:
            raise AssertionError(f"exact kept odds: inconsistent structure count (code {err})")
        with lock:
            counts[:] += out

    # One (E, G) class pair per chunk: the work per pair varies a lot, small chunks balance the threads.
    run_chunks(one, chunk_ranges(kk * kk, 1), workers=workers, desc="exact kept odds")
    total = comb(lay.deck_size, cards)
    if any(int(row.sum()) != total for row in counts):
        raise AssertionError(f"exact kept odds: counts add up to {counts.sum(axis=1)}, not {total}")
    return counts, st.unit


def kept_distributions(rules: Rules, cards: int | None = None, keep: int | None = None,
                       workers: int | None = None) -> dict[str, dict[int, Fraction]]:
    """Exact pmf {best kept meld total: probability} for every quantity (``trump_E`` .. ``best``)."""
    counts, unit = kept_counts(rules, cards, keep, workers)
    total = int(counts[0].sum())
    return {q: {int(v) * unit: Fraction(int(counts[j, v]), total) for v in np.nonzero(counts[j])[0]}
            for j, q in enumerate(QUANTITIES)}


def kept_exact_odds(rules: Rules, workers: int | None = None) -> ExactOdds:
    """The kept scope's exact numbers as :class:`~binokel_sim.odds.exact.ExactOdds` (pmfs only, no events)."""
    lay = rules.layout
    return ExactOdds(cards=lay.hand_size + lay.tapp_size, events={},
                     pmfs=kept_distributions(rules, workers=workers))


__all__ = ["KeptSetup", "kept_counts", "kept_distributions", "kept_exact_odds", "kept_setup"]
