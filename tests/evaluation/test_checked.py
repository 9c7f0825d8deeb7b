"""The checked tier's threshold path: bids decided exactly, the difference estimator unbiased with honest errors."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from binokel_sim.contracts import is_trump
from binokel_sim.evaluation import checked
from binokel_sim.evaluation.parts import CheckedRows
from binokel_sim.play.dd import DD
from binokel_sim.scoring import points_targets
from binokel_sim.evaluation.hand import EvalSettings, evaluate_hand
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from binokel_sim.scoring import round_points

from test_evaluation import HAND, STD, TOY

ROUND = load_rules("grupp")


@pytest.mark.parametrize("rules", [STD, ROUND], ids=["plain", "rounding"])
def test_points_targets_is_the_fewest_points_that_make_the_bid(rules):
    rng = np.random.default_rng(3)
    outside = rng.integers(0, 30, 300) * 10
    disc = rng.integers(0, 60, 300)
    bids = [150, 160, 300, 450]
    got = points_targets(rules, outside, disc, bids)
    p = np.arange(0, 700)
    for i in range(300):
        total = outside[i] + round_points(disc[i] + p, rules)
        for j, b in enumerate(bids):
            assert got[i, j] == p[(p >= 1) & (total >= b)].min()


def test_two_phase_is_unbiased_and_its_interval_covers():
    # y = x + noise on every row; only every 10th row's y is seen. 95 % intervals must cover the true mean.
    rng = np.random.default_rng(11)
    n, every, reps, cover, ests = 400, 10, 1500, 0, []
    exact = np.arange(n) % every == 0
    for _ in range(reps):
        x = rng.normal(100, 30, n)
        y = x + rng.normal(5, 8, n)
        t, se = checked.two_phase(x[:, None], y[exact][:, None], exact)
        cover += abs(t[0] - 105) <= 1.96 * se[0]
        ests.append(t[0])
    assert abs(np.mean(ests) - 105) < 4 * np.std(ests) / np.sqrt(reps)
    assert 0.93 <= cover / reps <= 0.97
    # A proxy right on every row: the correction vanishes and the error is the plain one of all n rows.
    x = rng.integers(0, 2, n).astype(float)
    t, se = checked.two_phase(x[:, None], x[exact][:, None], exact)
    assert t[0] == pytest.approx(x.mean()) and se[0] == pytest.approx(x.std(ddof=1) / np.sqrt(n), rel=0.1)


def test_decreasing_is_the_least_squares_falling_fit():
    p = np.array([0.9, 0.95, 0.5, 0.6, 0.55, 0.1])
    got = checked.decreasing(p)
    assert (np.diff(got) <= 0).all()
    assert got.tolist() == pytest.approx([0.925, 0.925, 0.55, 0.55, 0.55, 0.1])
    assert checked.decreasing(np.array([0.8, 0.5])).tolist() == [0.8, 0.5]


def test_cells_of_exact_values():
    lo, hi = checked.cells([300, 310, 350], np.array([0, 305, 310, 400, 120]), np.array([0, 305, 310, 400, 120]),
                           np.array([False, True, True, True, True]))
    assert lo.tolist() == [0, 300, 310, 350, 0]
    assert hi.tolist() == [299, 309, 349, checked.TOP, 299]


@pytest.fixture
def few_exact(monkeypatch):
    """Threshold runs of a handful of samples (below :data:`checked.MIN_EXACT` all would be exact)."""
    monkeypatch.setattr(checked, "MIN_EXACT", 2)


def test_known_deal_threshold_path_equals_exact_path(few_exact):
    # Every sample is the same deal: the corrected means equal the exact ones, with no error left.
    pre = {"tapp": "S10 SO SU E10", 1: "EU GK GK GO GO GU GU HK HK HO HO HU",
           2: "EK EO GA G10 HA H10 HU SA SK SK SO SU"}
    kw = dict(samples=8, seed=5, dd=TOY, predealt=pre)
    ex = evaluate_hand(HAND, STD, settings=EvalSettings(policy="heuristic", exact_every=1), **kw)
    th = evaluate_hand(HAND, STD, settings=EvalSettings(policy="heuristic", exact_every=4), **kw)
    assert th.n_exact == 2 and ex.n_exact == 8
    cols = ["bid", "p_make", "expected_score", "p_surrender"]
    got = th.bids[cols].set_index("bid")
    want = ex.bids[cols].set_index("bid")
    both = got.index.intersection(want.index)
    assert len(both) == len(want)  # the ladder may run further up (proxies above the top), never shorter
    np.testing.assert_allclose(got.loc[both].to_numpy(), want.loc[both].to_numpy())
    assert (got.drop(both)["p_make"] == 0).all()
    assert th.tapp_value == pytest.approx(ex.tapp_value)
    assert (th.bids["p_make_se"] == 0).all() and (th.safe_bid, th.ceiling_bid) == (ex.safe_bid, ex.ceiling_bid)


def test_threshold_path_same_numbers_any_chunking_and_workers():
    runs = [evaluate_hand(HAND, STD, samples=230, seed=9, policy=None, dd=TOY, scale=Scale(workers=w),
                          settings=EvalSettings(policy="heuristic", chunk_size=c, exact_every=7))
            for w, c in ((1, 230), (2, 9))]
    a, b = runs
    for f in fields(a.parts):
        assert np.array_equal(getattr(a.parts, f.name), getattr(b.parts, f.name)), f.name
    assert a.bids.equals(b.bids) and a.deciding_bids == b.deciding_bids
    assert a.n_exact == 33 and a.bids["n"].eq(230).all()
    # The bids asked per block: the last block's are the ones the estimate decides by.
    assert [blk[:2] for blk in a.deciding_bids] == [[0, 100], [100, 200], [200, 230]]
    p = a.bids.set_index("bid")["p_make"]
    assert (np.diff(p.to_numpy()) <= 0).all()


def test_real_solver_thresholds_decide_the_bids_as_the_exact_values_do(few_exact):
    # kreuz: no instant model (the pilot's 50-point grid), the partner's melds, four seats.
    rules = load_rules("kreuz")
    kw = dict(samples=6, seed=3, scale=Scale(workers=1))
    hand = "EA EA E10 EK EO GA HA SA S10"
    ex = evaluate_hand(hand, rules, settings=EvalSettings(policy="heuristic", exact_every=1), **kw)
    th = evaluate_hand(hand, rules, settings=EvalSettings(policy="heuristic", exact_every=3), **kw)
    v, pv = ex.parts.value, th.parts
    assert isinstance(pv, CheckedRows) and not isinstance(ex.parts, CheckedRows)
    assert pv.exact.tolist() == [True, False, False, True, False, False]
    assert np.array_equal(pv.value[pv.exact], v[pv.exact])
    trump = is_trump(pv.code)
    assert np.array_equal(pv.q_trump >= 0, trump & ~pv.exact) and (trump & ~pv.exact).sum() >= 2
    # Threshold rows: the proven interval holds the exact total, and the cell is the one the value gives.
    assert ((pv.value <= v) & (v <= pv.hi))[~pv.exact].all()
    for b0, b1, *bids in th.deciding_bids:
        sel = (pv.index >= b0) & (pv.index < b1) & trump
        lo, hi = checked.cells(bids, v[sel], v[sel], ex.parts.took[sel])
        assert np.array_equal(pv.cell_lo[sel], lo) and np.array_equal(pv.cell_hi[sel], hi)


def test_bad_settings():
    from binokel_sim.errors import InputError

    with pytest.raises(InputError, match="exact-every: must be at least 1"):
        evaluate_hand(HAND, STD, samples=2, settings=EvalSettings(policy="melds", exact_every=0), dd=TOY)
    with pytest.raises(InputError, match="exact-every: 1 would solve every 48-card deal exactly"):
        evaluate_hand(HAND + " E7 G7 H7", "standard-48", samples=2,
                      settings=EvalSettings(policy="melds", exact_every=1))
    with pytest.raises(InputError, match="solve-budget"):
        evaluate_hand(HAND, STD, samples=2, settings=EvalSettings(policy="melds", solve_budget=0), dd=TOY)


def test_stand_in_backend_answers_thresholds_exactly(few_exact):
    # A DD with only exact points decides every bid: value == value_hi, and the cells follow.
    dd = DD(points=TOY.points, specials=TOY.specials)
    ev = evaluate_hand(HAND, STD, samples=40, seed=2, dd=dd, settings=EvalSettings(policy="melds", exact_every=5))
    assert np.array_equal(ev.parts.value, ev.parts.value_hi)
    assert ev.n == 40 and ev.n_exact == 8


def test_rows_are_records_not_dicts():
    from binokel_sim.evaluation.ladder import summary_of_exact
    from binokel_sim.evaluation.parts import DealParts

    p = DealParts.of_totals(np.array([200, 170, 0]), np.array([True, True, False]))
    with pytest.raises(ValueError, match="no 'base_result' column"):
        summary_of_exact(STD, p, 0.8)
    with pytest.raises(ValueError, match="value_hi is required"):
        CheckedRows.of(p, checked.empty_queries(3, 3), None, index=np.arange(3), exact=np.ones(3, bool),
                       tapp_points=np.zeros(3, np.int64))
    rows = CheckedRows.of(p, checked.empty_queries(3, 3), p.value + 5, index=np.array([2, 0, 1]),
                          exact=np.zeros(3, bool), tapp_points=np.zeros(3, np.int64))
    merged = checked.merge([rows.select([0]), rows.select([1, 2])], [(0, 3, {170})])
    # Sample order, every column alike; the cells derived from the block's bids.
    assert merged.index.tolist() == [0, 1, 2] and merged.value.tolist() == [170, 0, 200]
    assert merged.cell_lo.tolist() == [170, 0, 170] and merged.q_trump.tolist() == [-1, -1, -1]
