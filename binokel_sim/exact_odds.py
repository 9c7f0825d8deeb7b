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

All counts are exact integers; probabilities are :class:`fractions.Fraction`. This module
re-derives the scoring from the rules on purpose: it is the independent reference for the
numba scorer in :mod:`binokel_sim.melds`, so it imports nothing from there.

>>> from binokel_sim.rules import load_rules
>>> p = event_probabilities(load_rules("standard"), 12)["binokel"]
>>> p == 1 - 2 * Fraction(comb(38, 12), comb(40, 12)) + Fraction(comb(36, 12), comb(40, 12))
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, prod

import numpy as np

from .cards import RANKS, SUITS
from .meld_events import DISSLE_SUIT, LEVELS, QUANTITIES, meld_unit
from .rules import MELD_RANKS, Melds, Rules

R_A, R_10, R_K, R_O, R_U, R_7 = range(6)
S_G, S_S = SUITS.index("G"), SUITS.index("S")


@lru_cache(maxsize=None)
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
    """Number of ``cards``-card hands whose every suit pattern passes ``keep(suit, counts)``."""
    poly = [1]
    for s in range(4):
        sp = [0] * (2 * _ranks(rules) + 1)
        for c, w in suit_patterns(_ranks(rules)):
            if keep(s, c):
                sp[sum(c)] += w
        poly = [sum(poly[i] * sp[k - i] for i in range(len(poly)) if 0 <= k - i < len(sp)) for k in range(min(cards, len(poly) + len(sp) - 2) + 1)]
    return poly[cards] if cards < len(poly) else 0


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


def _multiply(acc: np.ndarray, entries: dict[tuple[int, int, int], int], cards: int) -> np.ndarray:
    """acc[c, v, B] times one suit's terms {(c, v, b): weight}: cards and points add, bonus index takes the max."""
    new = np.zeros_like(acc)
    cum = np.cumsum(acc, axis=2)
    nv = acc.shape[1]
    for (dc, dv, ib), w in entries.items():
        if dc > cards or dv >= nv:
            continue
        src = (slice(0, cards + 1 - dc), slice(0, nv - dv))
        dst = (slice(dc, cards + 1), slice(dv, nv))
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
    bin_pts = (0, rules.melds.binokel // unit, rules.melds.double_binokel // unit)

    # at_least[T..., b] = counts over (points, bonus index) of hands with every suit >= T_r of each
    # scoring rank and GO, SU >= b.
    shape = (3,) * len(kinds) + (3,)
    at_least = np.zeros(shape + (nv, len(bonuses)), dtype=np.int64)
    for thr in itertools.product(range(3), repeat=len(kinds) + 1):
        need = [0] * 6
        for k, t in zip(kinds, thr):
            need[k.rank] = t
        b = thr[-1]
        acc = np.zeros((cards + 1, nv, len(bonuses)), dtype=np.int64)
        acc[0, 0, 0] = 1
        lo = 0
        for s in range(4):
            need_s = list(need)
            if s == S_G:
                need_s[R_O] = max(need_s[R_O], b)
            if s == S_S:
                need_s[R_U] = max(need_s[R_U], b)
            lo += sum(need_s)
            entries: dict[tuple[int, int, int], int] = {}
            for c, w, v, bonus in terms[s]:
                if all(x >= n for x, n in zip(c, need_s)):
                    key = (sum(c), v, bindex[bonus])
                    entries[key] = entries.get(key, 0) + w
            if lo > cards:
                break
            acc = _multiply(acc, entries, cards)
        if lo <= cards:
            at_least[thr] = acc[cards]

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


def exact_odds(rules: Rules, cards: int) -> ExactOdds:
    """All exact numbers for a ``cards``-card hand: every event and the pmf of every quantity."""
    return ExactOdds(
        cards=cards,
        events=event_probabilities(rules, cards),
        pmfs={q: total_distribution(rules, cards, q) for q in QUANTITIES},
    )


__all__ = [
    "DISSLE_SUIT", "ExactOdds", "at_least", "count_hands", "event_probabilities", "exact_odds",
    "family_pair", "mean_of", "seq_points", "suit_patterns", "total_distribution",
]
