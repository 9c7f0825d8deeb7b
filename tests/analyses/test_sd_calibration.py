"""The calibration of the real-play model with the open-card outcomes as a control
(binokel_sim.analyses.sd_calibration): unbiased, its standard error right, and far below the plain one."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from binokel_sim.analyses.sd_calibration import controlled_reliability

# Scaled as at `standard` (totals' sd about 90 points): 31 bids 10 points apart, the single-dummy total 21
# points about the open-card one a deal, the model's reading of a hand 33 points off.
THRESHOLDS = np.linspace(-1.7, 1.7, 31)


def _deals(rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
    """``n`` deals of 31 questions: the open-card total q, the single-dummy total q + 0.12 + 0.23 e (made a
    little more often, as at the table), and a prediction from a noisy reading of q that ignores the 0.12."""
    q = rng.normal(size=n)
    s = q + 0.12 + 0.23 * rng.normal(size=n)
    seen = q + 0.37 * rng.normal(size=n)
    p = 1 / (1 + np.exp(-(seen[:, None] - THRESHOLDS) / 0.2))
    z, y = q[:, None] > THRESHOLDS, s[:, None] > THRESHOLDS
    deal = np.repeat(np.arange(n), len(THRESHOLDS))
    return p.ravel(), y.ravel(), z.ravel(), deal


@pytest.mark.slow
def test_controlled_gap_is_unbiased_with_a_right_standard_error():
    rng = np.random.default_rng(7)
    p, y, _, _ = _deals(rng, 400_000)
    truth = float((y - p).mean())  # E[y - p]: the gap of one bin holding every question
    est, se, plain = [], [], []
    for _ in range(300):
        p, y, z, d = _deals(rng, 150)  # the held-out deals
        fp, _, fz, fd = _deals(rng, 1500)  # the further deals: open-card outcomes only
        t = controlled_reliability(p, y, z, d, fp, fz, fd, bins=1).iloc[0]
        est.append(t["gap_controlled"])
        se.append(t["gap_controlled_se"])
        plain.append(t["gap"])
    est, se = np.array(est), np.array(se)
    sd = est.std(ddof=1)
    assert abs(est.mean() - truth) < 3 * sd / np.sqrt(len(est)), (est.mean(), truth, sd)
    assert se.mean() == pytest.approx(sd, rel=0.15)
    assert np.mean(np.abs(est - truth) <= 1.96 * se) == pytest.approx(0.95, abs=0.04)
    # The point of it: the held-out deals' own luck is taken out (here to 0.65 of the plain error; on the
    # real corpus, within a decile, to about a quarter).
    assert sd < 0.75 * np.std(plain, ddof=1)


def test_bins_are_the_plain_deciles_and_further_questions_go_by_their_edges():
    rng = np.random.default_rng(3)
    p, y, z, d = _deals(rng, 200)
    fp, _, fz, fd = _deals(rng, 300)
    t = controlled_reliability(p, y, z, d, fp, fz, fd, bins=5)
    assert t["n"].tolist() == [1240.0] * 5  # 6 200 distinct predictions: equal counts
    assert t["further_n"].sum() == len(fp)
    for i, row in t.iterrows():  # each bin's further questions lie in its range (edges from the held-out ones)
        lo = -np.inf if i == 0 else t["bin_from"][i]
        hi = np.inf if i == len(t) - 1 else t["bin_from"][i + 1]
        assert row["further_n"] == ((fp >= lo) & (fp < hi)).sum()
    # One bin by hand: the plain gap, the clustered slope, the corrected gap (enough further deals to correct by).
    assert t["further_deals"][2] >= 30
    b = (p >= t["bin_from"][2]) & (p < t["bin_from"][3])
    fb = (fp >= t["bin_from"][2]) & (fp < t["bin_from"][3])
    frame = pd.DataFrame({"d": d[b], "a": y[b] - p[b], "c": z[b] - p[b]})
    sums = frame.groupby("d")[["a", "c"]].sum() - frame.groupby("d")[["a", "c"]].size().to_numpy()[:, None] * \
        frame[["a", "c"]].mean().to_numpy()
    beta = (sums["a"] * sums["c"]).sum() / (sums["c"] ** 2).sum()
    want = frame["a"].mean() - beta * (frame["c"].mean() - (fz[fb] - fp[fb]).mean())
    assert t["beta"][2] == pytest.approx(beta) and t["gap_controlled"][2] == pytest.approx(want)
    assert t["gap"][2] == pytest.approx(frame["a"].mean())
    assert bool(t["within_2pp"][2]) == (abs(want) <= 0.02)


def test_a_decile_with_few_further_deals_keeps_its_plain_gap():
    rng = np.random.default_rng(5)
    p, y, z, d = _deals(rng, 100)
    fp, _, fz, fd = _deals(rng, 12)  # fewer than MIN_FURTHER_DEALS: their clustered error is not to be trusted
    t = controlled_reliability(p, y, z, d, fp, fz, fd, bins=1).iloc[0]
    se = np.sqrt((pd.Series(y - p).groupby(d).sum() - pd.Series(d).value_counts().sort_index() * (y - p).mean())
                 .pow(2).sum()) / len(p)
    assert t["further_deals"] == 12 and t["gap_controlled"] == t["gap"]
    assert t["gap_controlled_se"] == pytest.approx(se)
