"""Exact meld odds by combinatorics: dynamic programming over the four suits.

A hand of ``cards`` cards is a uniform subset of the physical deck (every card type
twice, so a suit holding ``c`` copies of a type has ``comb(2, c)`` ways). Everything
that scores is either a per-suit pattern (families, pairs, trump sevens) or a minimum
over the suits (four/eight of a kind, Binokel = min(GO, SU)). So:

* an event is a product of per-suit generating polynomials in the card count;
* a meld-total distribution is the product of per-suit polynomials in (cards, sequence
  points[, trump bonus]) restricted to "every suit holds at least ``T_r`` of rank r and
  GO, SU >= b", for every threshold vector; finite differences over the thresholds
  (inclusion-exclusion) turn "at least" into "exactly", and the exact levels add the
  of-a-kind and Binokel points. The best trump adds a dimension: the largest per-suit
  trump bonus (trump sequence points - plain sequence points + Dissle).

All counts are exact integers (int64 suffices: every entry counts card subsets of a deck
of at most 48 cards, below 2**46, times a suit weight below 2**12); probabilities are
:class:`fractions.Fraction`. This module re-derives the scoring from the rules on purpose:
it is the independent reference for the numba scorer in :mod:`binokel_sim.melds.scorer`, so it
imports nothing from there.

>>> from binokel_sim.rules import load_rules
>>> p = event_probabilities(load_rules("standard"), 12)["binokel"]
>>> p == 1 - 2 * Fraction(comb(38, 12), comb(40, 12)) + Fraction(comb(36, 12), comb(40, 12))
True
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb, prod

import numpy as np

from binokel_sim.cards import RANKS, SUITS
from binokel_sim.errors import InputError
from binokel_sim.melds.events import LEVELS, QUANTITIES, meld_unit
from binokel_sim.rules import MELD_RANKS, Melds, Rules, as_rules

R_A, R_10, R_K, R_O, R_U, R_7 = range(6)
#: Largest (cards x points x bonus) array the exact method builds.
MAX_CELLS = 20_000_000
S_G, S_S = SUITS.index("G"), SUITS.index("S")


@cache
def suit_patterns(ranks: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every way a suit of ``ranks`` ranks (two copies each) meets a hand: (counts, number of card subsets)."""
    return tuple((c, prod(comb(2, x) for x in c)) for c in itertools.product(range(3), repeat=ranks))


def family_pair(c: tuple[int, ...]) -> tuple[int, int]:
    """(families, pairs) of one suit: a family's King and Ober are not also a pair."""
    f = min(c[R_A], c[R_10], c[R_K], c[R_O], c[R_U])
    return f, min(c[R_K], c[R_O]) - f


def seq_points(m: Melds, c: tuple[int, ...], trump: bool) -> int:
    """Family and pair points of one suit's counts ``c``."""
    f, p = family_pair(c)
    pre = "trump_" if trump else ""
    fam = (0, getattr(m, pre + "family"), getattr(m, pre + "double_family"))[f]
    pair = (0, getattr(m, pre + "pair"), getattr(m, pre + "double_pair"))[p]
    return fam + pair


def _ranks(rules: Rules) -> int:
    return 6 if rules.layout.sevens else 5


def _check_cards(rules: Rules, cards: int) -> None:
    if not 0 <= cards <= rules.layout.deck_size:
        raise ValueError(f"cards must be 0..{rules.layout.deck_size}, got {cards}")


# --------------------------------------------------------------------------- events


def _level_of(level_kind: str, index: int, suit: int, c: tuple[int, ...]) -> int | None:
    """This suit's share of a level: a count the level is the minimum of, or None if the suit does not matter."""
    if level_kind == "family":
        return family_pair(c)[0] if suit == index else None
    if level_kind == "pair":
        return family_pair(c)[1] if suit == index else None
    if level_kind == "kind":
        return c[index]
    if level_kind == "binokel":
        return c[R_O] if suit == S_G else c[R_U] if suit == S_S else None
    if level_kind == "dissle":
        return c[R_7] if suit == index else None
    raise AssertionError(level_kind)


def count_hands(rules: Rules, cards: int, keep) -> int:
    """Number of ``cards``-card hands whose every suit pattern passes ``keep(suit, counts)``.

    The product of the four suits' generating polynomials in the card count, cut at ``cards``.
    """
    poly = [1] + [0] * cards
    for s in range(4):
        suit = [0] * (cards + 1)
        for c, w in suit_patterns(_ranks(rules)):
            if sum(c) <= cards and keep(s, c):
                suit[sum(c)] += w
        poly = [sum(poly[i] * suit[k - i] for i in range(k + 1)) for k in range(cards + 1)]
    return poly[cards]


def event_probabilities(rules: Rules, cards: int) -> dict[str, Fraction]:
    """Exact probability of every meld event (names of :data:`LEVELS`) in a ``cards``-card hand."""
    _check_cards(rules, cards)
    total = comb(rules.layout.deck_size, cards)
    out: dict[str, Fraction] = {}
    for lv in LEVELS:
        if lv.kind == "dissle" and not rules.layout.sevens:
            continue
        for need, name in zip((1, 2), lv.events):
            def keep(s, c, lv=lv, need=need):
                share = _level_of(lv.kind, lv.index, s, c)
                return share is None or share >= need
            out[name] = Fraction(count_hands(rules, cards, keep), total)
    return out


# ------------------------------------------------------------------ meld totals


@dataclass(frozen=True)
class _Kind:
    """A rank whose min-over-suits level scores: points by level 0, 1, 2 (in units)."""

    rank: int
    points: tuple[int, int, int]


def _kinds(rules: Rules, unit: int) -> list[_Kind]:
    m = rules.melds
    kinds = [_Kind(RANKS.index(r), (0, m.four[r] // unit, m.eight[r] // unit)) for r in MELD_RANKS]
    kinds.append(_Kind(R_10, (0, 0, m.eight_tens // unit)))
    if rules.layout.sevens:
        kinds.append(_Kind(R_7, (0, 0, m.eight_sevens // unit)))
    # A rank that scores nothing at any level needs no threshold dimension.
    return [k for k in kinds if any(k.points)]


def _suit_terms(rules: Rules, suit: int, trump: int | None, unit: int) -> list[tuple[tuple[int, ...], int, int, int]]:
    """(counts, weight, sequence points, trump bonus) for every pattern of ``suit``, in units.

    ``trump`` a suit index: points at that fixed trump, bonus 0. ``None`` (best trump):
    plain points, and the bonus this suit would add as trump.
    """
    m = rules.melds
    out = []
    for c, w in suit_patterns(_ranks(rules)):
        plain = seq_points(m, c, False)
        as_trump = seq_points(m, c, True) + (m.dissle * c[R_7] if rules.layout.sevens else 0)
        if trump is None:
            out.append((c, w, plain // unit, (as_trump - plain) // unit))
        else:
            out.append((c, w, (as_trump if suit == trump else plain) // unit, 0))
    return out


def _dense(entries: dict[tuple[int, int, int], int], cards: int, nv: int, nb: int) -> np.ndarray:
    """One suit's terms as an array [cards, points, bonus index]: the product of the first suit alone."""
    out = np.zeros((cards + 1, nv, nb), dtype=np.int64)
    for (dc, dv, ib), w in entries.items():
        if dc <= cards:
            out[dc, dv, ib] += w
    return out


def _multiply(acc: np.ndarray, entries: dict[tuple[int, int, int], int], cards: int, last: bool = False) -> np.ndarray:
    """acc[c, v, B] times one suit's terms {(c, v, b): weight}: cards and points add, bonus index takes the max.

    With ``last`` only the row of exactly ``cards`` cards is computed (shape [1, v, B]):
    the final suit needs no other.
    """
    nv = acc.shape[1]
    rows = range(cards, cards + 1) if last else range(cards + 1)
    new = np.zeros((len(rows), nv, acc.shape[2]), dtype=np.int64)
    # Only the points reached so far need shifting (the axis is sized for all four suits).
    held = np.nonzero(acc.any(axis=(0, 2)))[0]
    if held.size == 0:
        return new
    width = int(held[-1]) + 1
    cum = np.cumsum(acc[:, :width], axis=2)
    for (dc, dv, ib), w in entries.items():
        lo = max(rows.start, dc)
        if lo >= rows.stop or dv >= nv:
            continue
        span = min(width, nv - dv)
        src = (slice(lo - dc, rows.stop - dc), slice(0, span))
        dst = (slice(lo - rows.start, len(rows)), slice(dv, dv + span))
        # max(B, ib) == ib for every B <= ib: those all land on ib.
        new[dst + (ib,)] += w * cum[src + (ib,)]
        new[dst + (slice(ib + 1, None),)] += w * acc[src + (slice(ib + 1, None),)]
    return new


def total_distribution(rules: Rules, cards: int, quantity: str) -> dict[int, Fraction]:
    """Exact pmf {meld total: probability} of a ``cards``-card hand.

    ``quantity``: ``trump_E`` .. ``trump_S`` (fixed trump) or ``best`` (best trump).

    >>> from binokel_sim.rules import load_rules
    >>> pmf = total_distribution(load_rules("standard"), 12, "best")
    >>> sum(pmf.values())
    Fraction(1, 1)
    """
    if quantity not in QUANTITIES:
        raise ValueError(f"unknown quantity {quantity!r} (one of {', '.join(QUANTITIES)})")
    _check_cards(rules, cards)
    counts = _total_counts(rules, cards, quantity)
    total = comb(rules.layout.deck_size, cards)
    return {v: Fraction(n, total) for v, n in sorted(counts.items()) if n}


def _total_counts(rules: Rules, cards: int, quantity: str) -> dict[int, int]:
    unit = meld_unit(rules.melds)
    trump = None if quantity == "best" else SUITS.index(quantity[-1])
    kinds = _kinds(rules, unit)
    terms = [_suit_terms(rules, s, trump, unit) for s in range(4)]
    bonuses = sorted({t[3] for ts in terms for t in ts})
    bindex = {b: i for i, b in enumerate(bonuses)}
    nv = sum(max(t[2] for t in ts) for ts in terms) + 1
    if nv * len(bonuses) * (cards + 1) > MAX_CELLS:
        raise InputError(f"melds: sequence totals up to {(nv - 1) * unit} in steps of {unit} are too fine for the "
                         f"exact method; use meld values with a larger common divisor")
    bin_pts = (0, rules.melds.binokel // unit, rules.melds.double_binokel // unit)

    # at_least[T..., b] = counts over (points, bonus index) of hands with every suit >= T_r of each
    # scoring rank and GO, SU >= b. Suits E and H do not depend on b: their product is shared.
    shape = (3,) * len(kinds) + (3,)
    at_least = np.zeros(shape + (nv, len(bonuses)), dtype=np.int64)
    plain_suits = [s for s in range(4) if s not in (S_G, S_S)]

    nb = len(bonuses)
    pats = [np.array([t[0] for t in ts], dtype=np.int64) for ts in terms]
    keys = [np.array([(sum(t[0]) * nv + t[2]) * nb + bindex[t[3]] for t in ts], dtype=np.int64) for ts in terms]
    weights = [np.array([t[1] for t in ts], dtype=np.int64) for ts in terms]
    cache: dict[tuple[int, tuple[int, ...]], dict[tuple[int, int, int], int]] = {}

    def entries(s: int, need: list[int]) -> dict[tuple[int, int, int], int]:
        """Suit ``s``'s terms holding at least ``need[r]`` of each rank, summed by (cards, points, bonus)."""
        key = (s, tuple(need))
        if key not in cache:
            ok = (pats[s] >= np.array(need[: pats[s].shape[1]])).all(axis=1)
            uniq, inv = np.unique(keys[s][ok], return_inverse=True)
            sums = np.zeros(uniq.shape[0], dtype=np.int64)
            np.add.at(sums, inv, weights[s][ok])
            cache[key] = {(int(k) // nb // nv, int(k) // nb % nv, int(k) % nb): int(w) for k, w in zip(uniq, sums)}
        return cache[key]

    for thr in itertools.product(range(3), repeat=len(kinds)):
        need = [0] * 6
        for k, t in zip(kinds, thr):
            need[k.rank] = t
        if 4 * sum(need) > cards:
            continue
        acc = _dense(entries(plain_suits[0], need), cards, nv, nb)
        acc = _multiply(acc, entries(plain_suits[1], need), cards)
        for b in range(3):
            need_g, need_s = list(need), list(need)
            need_g[R_O] = max(need[R_O], b)
            need_s[R_U] = max(need[R_U], b)
            if 2 * sum(need) + sum(need_g) + sum(need_s) > cards:
                break
            g = _multiply(acc, entries(S_G, need_g), cards)
            at_least[thr + (b,)] = _multiply(g, entries(S_S, need_s), cards, last=True)[0]

    # Inclusion-exclusion along every threshold axis: exactly l = at least l - at least l+1.
    exact = at_least.copy()
    for axis in range(len(shape)):
        lower = np.take(exact, [0, 1], axis=axis) - np.take(exact, [1, 2], axis=axis)
        exact = np.concatenate([lower, np.take(exact, [2], axis=axis)], axis=axis)

    out: dict[int, int] = {}
    for lv in itertools.product(range(3), repeat=len(shape)):
        block = exact[lv]
        if not block.any():
            continue
        base = sum(k.points[x] for k, x in zip(kinds, lv)) + bin_pts[lv[-1]]
        for v, ib in zip(*np.nonzero(block)):
            key = (base + int(v) + bonuses[ib]) * unit
            out[key] = out.get(key, 0) + int(block[v, ib])
    return out


# ----------------------------------------------------------------- summaries


def mean_of(pmf: dict[int, Fraction]) -> Fraction:
    """Mean of a pmf {value: probability}."""
    return sum((v * p for v, p in pmf.items()), Fraction(0))


def at_least(pmf: dict[int, Fraction], threshold: int) -> Fraction:
    """P(value >= threshold) of a pmf."""
    return sum((p for v, p in pmf.items() if v >= threshold), Fraction(0))


@dataclass(frozen=True)
class ExactOdds:
    """Exact event probabilities and meld-total pmfs of one hand size."""

    cards: int
    events: dict[str, Fraction]
    pmfs: dict[str, dict[int, Fraction]]


def exact_odds(rules: Rules | str | os.PathLike[str] = "standard", cards: int | None = None) -> ExactOdds:
    """All exact numbers for a ``cards``-card hand (default: a dealt hand of ``rules``): every event and
    the pmf of every quantity."""
    rules = as_rules(rules)
    cards = rules.layout.hand_size if cards is None else cards
    return ExactOdds(
        cards=cards,
        events=event_probabilities(rules, cards),
        pmfs={q: total_distribution(rules, cards, q) for q in QUANTITIES},
    )


__all__ = [
    "ExactOdds", "at_least", "count_hands", "event_probabilities", "exact_odds",
    "family_pair", "mean_of", "seq_points", "suit_patterns", "total_distribution",
]
