"""Interval-censored normal regression against independent references (math.erf, numeric integrals)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from binokel_sim import censored


def _ref_loglik(x, lo, hi, beta, sigma):
    """The censored log-likelihood written with math.erf, term by term."""
    total = 0.0
    for row, a, b in zip(x, lo, hi):
        mu = float(row @ beta)
        if a == b:
            z = (a - mu) / sigma
            total += -0.5 * z * z - 0.5 * math.log(2 * math.pi) - math.log(sigma)
        else:
            cdf = [0.5 * (1 + math.erf((v - mu) / (sigma * math.sqrt(2)))) for v in (a, b)]
            total += math.log(cdf[1] - cdf[0])
    return total


def _data(n=600, seed=3):
    """A linear model with sd 90 whose totals are hidden in intervals 60-180 wide placed at random
    around them (10 % exact)."""
    rng = np.random.default_rng(seed)
    x = np.column_stack([np.ones(n), rng.normal(0, 40, n), rng.integers(0, 4, n)])
    y = x @ np.array([150.0, 1.0, 20.0]) + rng.normal(0, 90, n)
    w = rng.uniform(60, 180, n)
    lo = np.floor(y - w * rng.uniform(0, 1, n))
    hi = np.ceil(lo + w)
    known = rng.uniform(size=n) < 0.1
    lo[known] = hi[known] = y[known]
    return x, y, lo, hi


def test_erfc_matches_math_in_relative_terms():
    xs = np.linspace(-6, 12, 721)
    ref = np.array([math.erfc(v) for v in xs])
    assert np.abs(censored.erfc(xs) / ref - 1).max() < 2e-7


def test_truncated_moments_match_numeric_integrals():
    mu, sigma = np.array([10.0, -40.0, 300.0]), 25.0
    lo, hi = np.array([0.0, -20.0, 100.0]), np.array([60.0, 80.0, 160.0])  # the last: 5.6 sd out
    m, v = censored.truncated_moments(mu, sigma, lo, hi)
    for i in range(3):
        t = np.linspace(lo[i], hi[i], 200_001)
        dens = np.exp(-0.5 * ((t - mu[i]) / sigma) ** 2)
        mean = np.trapezoid(t * dens, t) / np.trapezoid(dens, t)
        var = np.trapezoid((t - mean) ** 2 * dens, t) / np.trapezoid(dens, t)
        assert m[i] == pytest.approx(mean, abs=1e-4) and v[i] == pytest.approx(var, rel=1e-4)


def test_every_value_known_is_least_squares():
    x, y, _, _ = _data()
    beta, sigma = censored.fit(x, y, y)
    ols = np.linalg.lstsq(x, y, rcond=None)[0]
    assert np.allclose(beta, ols, atol=1e-9) and sigma == pytest.approx(np.sqrt(((y - x @ ols) ** 2).mean()))
    r2, rmse = censored.r2(y, y, x @ ols)
    assert r2 == pytest.approx(1 - ((y - x @ ols) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def test_the_fit_is_a_maximum_of_the_reference_likelihood():
    x, _, lo, hi = _data(n=300)
    beta, sigma = censored.fit(x, lo, hi)
    best = _ref_loglik(x, lo, hi, beta, sigma)
    assert censored.log_likelihood(x, lo, hi, beta, sigma) == pytest.approx(best, rel=1e-6)
    for k in range(4):
        for step in (-1e-3, 1e-3):
            b, s = beta.copy(), sigma
            if k < 3:
                b[k] += step * max(1.0, abs(b[k]))
            else:
                s += step * sigma
            assert _ref_loglik(x, lo, hi, b, s) < best


def test_coefficients_are_recovered_where_the_lower_bounds_are_biased():
    x, y, lo, hi = _data(n=3000)
    truth = np.linalg.lstsq(x, y, rcond=None)[0]
    beta, sigma = censored.fit(x, lo, hi)
    low = np.linalg.lstsq(x, lo, rcond=None)[0]
    # Intercept SE ~ 90 / sqrt(3000) ~ 1.6 with the values known; the censored fit loses some of it.
    assert abs(beta[0] - truth[0]) < 6 and abs(beta[2] - truth[2]) < 3 and abs(sigma - 90) < 6
    assert truth[0] - low[0] > 40  # fitting the proven lower bounds is off by ~55 points


def test_bad_intervals_are_refused():
    with pytest.raises(ValueError, match="lo > hi"):
        censored.fit(np.ones((2, 1)), np.array([1.0, 5.0]), np.array([2.0, 4.0]))
