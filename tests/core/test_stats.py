"""Wilson intervals and exact tests against brute-force arithmetic; meld odds use them."""

from __future__ import annotations

import math
from math import comb

import numpy as np
import pytest

from binokel_sim.stats import binomial_test, compare_exact, poisson_test, proportion, wilson, wilson_from_se


def _brute_binomial(k: int, n: int, p: float) -> float:
    pm = [comb(n, x) * p**x * (1 - p) ** (n - x) for x in range(n + 1)]
    return sum(v for v in pm if v <= pm[k] * (1 + 1e-7))


def test_wilson_by_hand_and_never_outside_unit_interval():
    # 0 of 10: upper end z^2 / (n + z^2) = 3.8415 / 13.8415.
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(3.8414588 / 13.8414588, rel=1e-6)
    lo, hi = wilson(20, 20)
    assert hi == 1.0 and lo == pytest.approx(20 / 23.8414588, rel=1e-6)
    k = np.arange(0, 31)
    lo, hi = wilson(k, 30)
    assert (lo >= 0).all() and (hi <= 1).all() and (lo < k / 30 + 1e-12).all() and (hi > k / 30 - 1e-12).all()
    assert (hi - lo > 0).all()  # never a zero-width interval


def test_proportion_keeps_n_and_is_never_plus_minus_zero_at_the_bounds():
    d = proportion(19, 19)
    assert d["n"] == 19 and d["p"] == 1.0 and d["se"] == 0.0 and d["lo"] < 0.9 and d["hi"] == 1.0
    assert math.isnan(proportion(0, 0)["p"])


def test_wilson_from_se_uses_the_effective_n():
    # A design effect of 4 (se doubled) is the interval of a quarter of the sample.
    p, n = 0.2, 10_000
    se = 2 * math.sqrt(p * (1 - p) / n)
    assert wilson_from_se(p, se, n) == pytest.approx(wilson(p * n / 4, n / 4))


@pytest.mark.parametrize("k,n,p", [(0, 100, 0.05), (2, 40, 0.01), (9, 30, 0.2), (30, 30, 0.9), (5, 10, 0.5)])
def test_binomial_test_equals_brute_force(k, n, p):
    assert binomial_test(k, n, p) == pytest.approx(_brute_binomial(k, n, p), rel=1e-9)


def test_poisson_test_by_hand():
    # mu = 0.5, k = 3: P(X >= 3) = 1 - e^-0.5 (1 + 0.5 + 0.125); P(0..2) all exceed pmf(3).
    assert poisson_test(3, 0.5) == pytest.approx(1 - math.exp(-0.5) * 1.625, rel=1e-9)
    assert poisson_test(0, 0.0) == 1.0


def test_rare_events_use_the_exact_test_not_z():
    # 2 hits in a million where 0.4 were expected: z from the observed SE says 1.1 ... and for
    # 1 hit where 0.02 were expected z = 0.98; the exact test says p = 0.0198.
    p, test = compare_exact(1e-6, 1e-6, 2e-8, 1_000_000)
    assert test == "exact binomial" and p == pytest.approx(1 - (1 - 2e-8) ** 1_000_000, rel=1e-3)
    p, test = compare_exact(0.2, 0.004, 0.21, 10_000)
    assert test == "z" and p == pytest.approx(math.erfc(2.5 / math.sqrt(2)), rel=1e-9)


def test_meld_odds_rows_carry_wilson_intervals_and_exact_tests():
    from binokel_sim.analyses.meld_odds import meld_odds_table
    from binokel_sim.rules import load_rules
    from binokel_sim.runner import Scale

    df = meld_odds_table(load_rules("standard"), 20_000, seed=3, exact=True, scale=Scale(workers=2), scopes=("hand",))
    probs = df[~df.event.str.startswith("meld_mean_")]
    assert (probs.lo >= 0).all() and (probs.hi <= 1).all() and (probs.lo <= probs.value).all()
    assert (probs.hi >= probs.value).all() and (probs.hi > probs.lo).all()
    rare = probs[probs.exact * probs.n < 10]
    assert len(rare) > 0 and (rare.test == "exact binomial").all()
    assert df[df.event.str.startswith("meld_mean_")].p_value.isna().all()
    # With ~100 tests at seed 3, nothing is off beyond a Bonferroni threshold.
    assert probs.p_value.min() > 0.01 / len(probs)
