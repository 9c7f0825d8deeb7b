"""Exact meld odds: hand-computed probabilities, brute force over every small hand,
one-meld tables against the event probabilities, and the pmfs' own consistency."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from binokel_sim.cards import SUITS
from binokel_sim.odds.exact import at_least, event_probabilities, mean_of, suit_patterns, total_distribution
from binokel_sim.melds.events import LEVELS, QUANTITIES
from binokel_sim.melds.scorer import totals_by_trump
from binokel_sim.rules import load_rules

STANDARD = load_rules("standard")


def P(num, den):
    return Fraction(num, den)


# ------------------------------------------------------------------ hand-computed values


def test_binokel_by_inclusion_exclusion():
    # P(GO >= 1 and SU >= 1) = 1 - 2 P(no GO) + P(no GO, no SU), 12 of 40.
    expected = 1 - 2 * P(comb(38, 12), comb(40, 12)) + P(comb(36, 12), comb(40, 12))
    assert event_probabilities(STANDARD, 12)["binokel"] == expected
    assert float(expected) == pytest.approx(0.2548090600722, rel=1e-12)


def test_double_binokel_and_eights_count_fixed_cards():
    ev = event_probabilities(STANDARD, 12)
    assert ev["double_binokel"] == P(comb(36, 8), comb(40, 12))  # both GO and both SU held
    assert ev["eight_A"] == P(comb(32, 4), comb(40, 12))  # all eight aces + 4 of the other 32
    assert ev["double_family_H"] == P(comb(30, 2), comb(40, 12))


def test_family_by_inclusion_exclusion_over_its_five_ranks():
    # At least one copy of each of A 10 K O U in E: drop j ranks entirely (2j cards) with sign (-1)^j.
    expected = sum((-1) ** j * comb(5, j) * P(comb(40 - 2 * j, 12), comb(40, 12)) for j in range(6))
    ev = event_probabilities(STANDARD, 12)
    assert all(ev[f"family_{s}"] == expected for s in SUITS)


def test_four_of_a_kind_by_inclusion_exclusion_over_suits():
    expected = sum((-1) ** j * comb(4, j) * P(comb(40 - 2 * j, 16), comb(40, 16)) for j in range(5))
    assert event_probabilities(STANDARD, 16)["four_K"] == expected


def test_dissle_counts_trump_sevens():
    ev = event_probabilities(load_rules("standard-48"), 15)
    assert ev["dissle_1"] == 1 - P(comb(46, 15), comb(48, 15))
    assert ev["dissle_2"] == P(comb(46, 13), comb(48, 15))
    assert "dissle_1" not in event_probabilities(STANDARD, 12)


def test_suit_patterns_count_every_subset_of_a_suit():
    assert sum(w for _, w in suit_patterns(5)) == 2**10
    assert sum(w for _, w in suit_patterns(6)) == 2**12


# ------------------------------------------------------------------ brute force


def all_hands(ranks, cards):
    """Every count vector of ``cards`` cards (ranks 0..ranks-1 per suit) with its number of card subsets."""
    types = [s * 6 + r for s in range(4) for r in range(ranks)]
    out = []

    def rec(i, left, counts, w):
        if left == 0:
            out.append((counts.copy(), w))
            return
        if i == len(types) or left > 2 * (len(types) - i):
            return
        for c in range(min(2, left) + 1):
            counts[types[i]] = c
            rec(i + 1, left - c, counts, w * comb(2, c))
        counts[types[i]] = 0

    rec(0, cards, np.zeros(24, dtype=np.uint8), 1)
    return out


def levels(lv, c):
    """Level ``lv`` of every hand in ``c[n, 24]``, by plain numpy."""
    if lv.kind == "family":
        return c[:, lv.index * 6: lv.index * 6 + 5].min(axis=1)
    if lv.kind == "pair":
        b = lv.index * 6
        return np.minimum(c[:, b + 2], c[:, b + 3]) - c[:, b: b + 5].min(axis=1)
    if lv.kind == "kind":
        return c[:, lv.index::6].min(axis=1)
    if lv.kind == "binokel":
        return np.minimum(c[:, 9], c[:, 22])
    return c[:, lv.index * 6 + 5]


@pytest.mark.parametrize("preset,cards,possible", [
    ("standard", 5, ("family_E", "binokel", "four_U", "pair_S")),
    ("grupp", 5, ("family_G", "double_binokel", "four_A", "dissle_2")),
    ("doubled", 4, ("double_pair_H", "double_binokel", "four_K")),
])
def test_dp_equals_brute_force_over_every_hand(preset, cards, possible):
    """Every count vector, scored by the numba scorer and counted by numpy: pmfs and events agree exactly."""
    rules = load_rules(preset)
    hands = all_hands(6 if rules.layout.sevens else 5, cards)
    total = comb(rules.layout.deck_size, cards)
    assert sum(w for _, w in hands) == total
    counts = np.array([c for c, _ in hands], dtype=np.int64)
    weights = np.array([w for _, w in hands], dtype=np.int64)
    table, tot = rules.meld_array(), np.zeros(4, dtype=np.int64)
    totals = np.empty((len(hands), 5), dtype=np.int64)
    for i, (c, _) in enumerate(hands):
        totals_by_trump(c, table, tot)
        totals[i, :4], totals[i, 4] = tot, tot.max()
    for j, q in enumerate(QUANTITIES):
        values, inv = np.unique(totals[:, j], return_inverse=True)
        mass = np.bincount(inv, weights=weights)
        assert total_distribution(rules, cards, q) == {int(v): P(int(m), total) for v, m in zip(values, mass)}
    exact = event_probabilities(rules, cards)
    for lv in LEVELS:
        if lv.events[0] not in exact:
            continue
        n = levels(lv, counts)
        for need, name in zip((1, 2), lv.events):
            assert exact[name] == P(int(weights[n >= need].sum()), total), name
    assert all(exact[k] > 0 for k in possible)


# ------------------------------------------------------------------ one-meld tables


def only(tmp_path, **melds):
    zero = {k: 0 for k in ("family", "trump_family", "double_family", "trump_double_family", "pair",
                           "trump_pair", "double_pair", "trump_double_pair", "binokel", "double_binokel",
                           "dissle", "eight_tens", "eight_sevens")}
    zero.update(four={r: 0 for r in "AKOU"}, eight={r: 0 for r in "AKOU"})
    zero.update(melds)
    body = "\n".join(f"{k} = {v}" if not isinstance(v, dict) else
                     f"{k} = {{ {', '.join(f'{r} = {x}' for r, x in v.items())} }}" for k, v in zero.items())
    path = tmp_path / "one.toml"
    path.write_text(f'inherits = "standard-48"\nname = "one"\n[melds]\n{body}\n')
    return load_rules(str(path))


def test_one_meld_tables_match_their_events(tmp_path):
    cards = 18
    rules = only(tmp_path, eight={"A": 1000, "K": 0, "O": 0, "U": 0})
    ev = event_probabilities(rules, cards)
    assert total_distribution(rules, cards, "best") == {0: 1 - ev["eight_A"], 1000: ev["eight_A"]}

    rules = only(tmp_path, binokel=40, double_binokel=300)
    assert total_distribution(rules, cards, "trump_G") == {
        0: 1 - ev["binokel"], 40: ev["binokel"] - ev["double_binokel"], 300: ev["double_binokel"]}

    rules = only(tmp_path, trump_family=150, trump_double_family=1500)
    pmf = total_distribution(rules, cards, "trump_H")
    assert pmf[150] == ev["family_H"] - ev["double_family_H"] and pmf[1500] == ev["double_family_H"]

    rules = only(tmp_path, dissle=10)
    assert total_distribution(rules, cards, "trump_S") == {
        0: 1 - ev["dissle_1"], 10: ev["dissle_1"] - ev["dissle_2"], 20: ev["dissle_2"]}
    # Best trump: the suit with more sevens. P(no suit has two) and P(no seven at all) by inclusion-exclusion.
    none = P(comb(40, cards), comb(48, cards))
    no_pair = sum((-1) ** j * comb(4, j) * P(comb(48 - 2 * j, cards - 2 * j), comb(48, cards)) for j in range(5))
    assert total_distribution(rules, cards, "best") == {0: none, 10: no_pair - none, 20: 1 - no_pair}

    rules = only(tmp_path, eight_tens=1000, eight_sevens=500)
    both = P(comb(32, cards - 16), comb(48, cards))
    one = P(comb(40, cards - 8), comb(48, cards))
    assert total_distribution(rules, cards, "best") == {0: 1 - 2 * one + both, 500: one - both, 1000: one - both,
                                                        1500: both}


# ------------------------------------------------------------------ consistency


def test_pmfs_are_distributions_and_best_dominates_each_trump():
    for cards in (12, 16):
        pmfs = {q: total_distribution(STANDARD, cards, q) for q in QUANTITIES}
        for pmf in pmfs.values():
            assert sum(pmf.values()) == 1 and all(p > 0 for p in pmf.values())
        # E and H are symmetric (Binokel is G + S); best >= every fixed trump in distribution.
        assert pmfs["trump_E"] == pmfs["trump_H"]
        for v in (100, 150, 300, 1000):
            assert at_least(pmfs["best"], v) >= max(at_least(pmfs[q], v) for q in QUANTITIES[:4])
        assert mean_of(pmfs["best"]) > mean_of(pmfs["trump_G"])


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="unknown quantity"):
        total_distribution(STANDARD, 12, "trump_X")
    with pytest.raises(ValueError, match="cards must be"):
        event_probabilities(STANDARD, 41)


def test_meld_values_too_fine_for_the_exact_method_raise(tmp_path):
    from binokel_sim.errors import InputError

    # Meld values past the rules' ranges (a Rules built in code, not loaded): the guard still answers.
    fine = too_fine_rules()
    with pytest.raises(InputError, match="too fine for the exact method"):
        total_distribution(fine, 12, "best")


def too_fine_rules():
    """``standard`` with double families of 10 000 003 and 20 000 003 points (past the TOML ranges)."""
    from dataclasses import replace

    s = load_rules("standard")
    return replace(s, melds=replace(s.melds, double_family=10000003, trump_double_family=20000003))
