"""The two-phase estimators against brute force: populations whose truth is known, drawn again and again.

The population: the 20 000 exact rows of the shipped ``standard`` corpus, each total widened at random
into an interval around the truth as a node budget leaves it (phase 1: widths like the ``wuerttemberg``
rows', mean 95 points) or as the ``within 10`` query does (phase 2: under 10 points). Each replication
draws n1 deals i.i.d., phase 2 being the first n2 of them, and asks whether the 95 % interval covers
the population's truth.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from binokel_sim.errors import InputError
from binokel_sim.twophase import OPEN, regression_mean, stratified_rate

REPLICATIONS = 2000


def widen(rng: np.random.Generator, y: np.ndarray, mean_width: float | None) -> tuple[np.ndarray, np.ndarray]:
    """Integer intervals [lo, hi] around the true totals ``y``: widths gamma(6.25) of ``mean_width``
    (sd 38 at 95, as the 5 M-node rows), or under 10 (``None``: the within-10 phase); the truth lies
    uniformly inside."""
    if mean_width is None:
        w = rng.integers(0, 10, y.size)
    else:
        w = np.rint(rng.gamma(6.25, mean_width / 6.25, y.size)).astype(np.int64)
    below = np.rint(rng.random(y.size) * w).astype(np.int64)
    return y - below, y - below + w


def coverage(draws: list[tuple[float, float]], truth: float) -> tuple[float, float, float, float]:
    """(share of intervals covering the truth, mean bias, the bias's Monte Carlo SE, mean SE)."""
    est = np.array([e for e, _ in draws])
    se = np.array([s for _, s in draws])
    cover = float((np.abs(est - truth) <= 1.959964 * se).mean())
    bias = float(est.mean() - truth)
    return cover, bias, float(est.std(ddof=1) / math.sqrt(est.size)), float(se.mean())


@pytest.fixture(scope="module")
def population():
    from binokel_sim.corpus.reader import find_corpus, load_corpus

    df = load_corpus(find_corpus("standard")).df
    assert len(df) == 20000 and df["points_exact"].all()
    return df["result"].to_numpy(np.int64), df["base_result"].to_numpy(np.int64)


def _tapp_draws(result, base, n1, n2, seed):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(REPLICATIONS):
        i = rng.integers(0, result.size, n1)
        r, b = result[i], base[i]
        (rl, rh), (bl, bh) = widen(rng, r, 95.0), widen(rng, b, 90.0)
        (rl2, rh2), (bl2, bh2) = widen(rng, r[:n2], None), widen(rng, b[:n2], None)
        x = (rl + rh) / 2 - (bl + bh) / 2
        y = (rl2 + rh2) / 2 - (bl2 + bh2) / 2
        e = regression_mean(x, y)
        out.append((e.estimate, e.se))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("n1,n2,seed", [(1000, 200, 11), (3000, 100, 12)])
def test_tapp_value_interval_covers_the_population_truth(population, n1, n2, seed):
    result, base = population
    truth = float((result - base).mean())
    cover, bias, bias_se, se = coverage(_tapp_draws(result, base, n1, n2, seed), truth)
    assert 0.93 <= cover <= 0.97
    # Unbiased: the mean error within four Monte Carlo SEs, and far inside a single estimate's SE.
    assert abs(bias) <= 4 * bias_se and abs(bias) < 0.1 * se
    # The auxiliary earns its keep: the SE is below what phase 2 alone (sd / sqrt(n2)) would give.
    assert se < 0.8 * float((result - base).std()) / math.sqrt(n2)


@pytest.mark.slow
@pytest.mark.parametrize("bid", [150, 200, 250, 300, 350, 400])
def test_make_rate_interval_covers_the_population_truth(population, bid):
    result, _ = population
    truth = float((result >= bid).mean())
    rng = np.random.default_rng(bid)
    draws = []
    for _ in range(REPLICATIONS):
        y = result[rng.integers(0, result.size, 1000)]
        lo, hi = widen(rng, y, 95.0)
        decided = np.where(lo >= bid, 1, np.where(hi < bid, 0, OPEN))
        e = stratified_rate(decided, y[:200] >= bid)
        draws.append((e.estimate, e.se))
    cover, bias, bias_se, se = coverage(draws, truth)
    assert 0.93 <= cover <= 0.97
    assert abs(bias) <= 4 * bias_se


def test_regression_on_a_synthetic_line_covers_its_mean():
    # y = 3 + 0.8 x + e, x ~ N(100, 30^2), e ~ N(0, 10^2): the mean is 83 exactly.
    rng = np.random.default_rng(5)
    draws = []
    for _ in range(1000):
        x = rng.normal(100, 30, 800)
        y = 3 + 0.8 * x[:100] + rng.normal(0, 10, 100)
        e = regression_mean(x, y)
        draws.append((e.estimate, e.se))
        # The variance split: phase 1 carries b^2 s_x^2 / n1 (about 0.72), phase 2 s_e^2 / n2 (about 1).
    cover, bias, bias_se, _ = coverage(draws, 83.0)
    assert 0.93 <= cover <= 0.97 and abs(bias) <= 4 * bias_se
    assert e.var_phase1 == pytest.approx(0.8 ** 2 * 900 / 800, rel=0.25)
    assert e.var_phase2 == pytest.approx(100 / 100, rel=0.35)


def test_every_deal_exact_gives_the_plain_mean_and_rate():
    # x = y on every deal: the regression estimate is phase 1's mean and SE, the rate its share.
    y = np.array([120.0, 80, 200, 150, 90, 300, 60, 110])
    e = regression_mean(y, y[:4])
    assert e.estimate == pytest.approx(y.mean()) and e.se == pytest.approx(y.std(ddof=1) / math.sqrt(8))
    assert e.var_phase2 == pytest.approx(0.0, abs=1e-9)
    made = y >= 100
    r = stratified_rate(made.astype(int), made[:4])
    assert r.estimate == 5 / 8 and r.se == pytest.approx(math.sqrt(5 / 8 * 3 / 8 / 8))


def test_a_hand_checked_rate():
    # 10 deals: 4 made, 2 failed, 4 open; phase 2 (deals 0..5) holds 3 open deals, 2 of them made.
    d = np.array([1, OPEN, OPEN, 0, 1, OPEN, 1, 0, OPEN, 1])
    y = np.array([True, True, False, False, True, True])
    r = stratified_rate(d, y)
    assert r.estimate == pytest.approx(0.4 + 0.4 * 2 / 3)
    pt = 3 / 5  # (k + 1) / (m + 2)
    v2 = 0.4 ** 2 * (pt * (1 - pt) * 3 / 2) / 3
    p = r.estimate
    v1 = (0.4 * (1 - p) ** 2 + 0.2 * p ** 2 + 0.4 * (2 / 3 - p) ** 2) / 10
    assert r.var_phase2 == pytest.approx(v2) and r.var_phase1 == pytest.approx(v1)
    assert r.se == pytest.approx(math.sqrt(v1 + v2)) and r.open_share == pytest.approx(0.4)


def test_contradicting_phases_and_short_phase_two_are_refused():
    with pytest.raises(InputError, match="deal 1 is decided failed by phase 1"):
        stratified_rate(np.array([1, 0, OPEN, 1]), np.array([True, True, False]))
    with pytest.raises(InputError, match="at least 3"):
        regression_mean(np.arange(10.0), np.arange(2.0))
    with pytest.raises(InputError, match="must be the first deals of phase 1"):
        regression_mean(np.arange(3.0), np.arange(5.0))
