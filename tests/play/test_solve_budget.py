"""Play studies within a solver budget (issue #11 item 4): intervals counted, never dropped; same answers when exact."""

import numpy as np
import pandas as pd
import pytest

from binokel_sim.analyses.bid_levels import levels
from binokel_sim.analyses.calibration import calibration_table
from binokel_sim.analyses.tapp_value import summary
from binokel_sim.errors import InputError
from binokel_sim.play.dd import DEFAULT_BUDGET_NODES, budget_nodes_of, budgeted
from binokel_sim.evaluation.features import FEATURES
from binokel_sim.evaluation.formula import Formula
from binokel_sim.studies.deals import bounds_of, study_deals
from binokel_sim.rules import load_rules
from clitools import assert_one_line_error

STD = load_rules("standard")
COLS = ["value", "took", "result", "base_result", "tapp_value"]


@pytest.fixture(scope="module")
def exact_rows():
    return study_deals(STD, 5, seed=4, policy="heuristic")


def test_default_is_exact_below_48_cards_and_budgeted_at_48():
    assert budgeted(STD) is None
    dd48 = budgeted(load_rules("standard-48"))
    assert dd48 is not None and dd48.bounds is not None and dd48.record is not None
    assert budgeted(STD, 1000) is not None  # given explicitly, a budget applies to any deck


@pytest.mark.slow
def test_bounds_path_gives_the_same_numbers_when_the_budget_suffices(exact_rows):
    # Old path (exact batch solver) against the new one (Solver.bounds per row, a budget that never binds).
    new = study_deals(STD, 5, seed=4, policy="heuristic", solve_budget=DEFAULT_BUDGET_NODES)
    pd.testing.assert_frame_equal(exact_rows[COLS], new[COLS])
    assert new["exact"].all() and (new["value_hi"] == new["value"]).all()
    assert (new["tapp_value_lo"] == new["tapp_value"]).all() and (new["tapp_value_hi"] == new["tapp_value"]).all()


def test_a_tight_budget_keeps_every_deal_with_an_interval_holding_the_value(exact_rows):
    cut = study_deals(STD, 5, seed=4, policy="heuristic", solve_budget=3000)
    assert len(cut) == len(exact_rows)  # counted, never dropped
    assert (~cut["exact"]).sum() >= 2  # the budget binds on this seed
    v = exact_rows["value"].to_numpy()
    assert (cut["value"].to_numpy() <= v).all() and (v <= cut["value_hi"].to_numpy()).all()
    t = exact_rows["tapp_value"].to_numpy()
    assert (cut["tapp_value_lo"].to_numpy() <= t).all() and (t <= cut["tapp_value_hi"].to_numpy()).all()
    o = summary(cut).iloc[0]
    assert o["dd_mean_lo"] <= exact_rows["tapp_value"].mean() <= o["dd_mean_hi"]
    assert o["unresolved"] == int((cut["tapp_value_lo"] != cut["tapp_value_hi"]).sum()) >= 2


def test_p_make_is_a_range_when_deals_are_unresolved():
    df = pd.DataFrame({"value": [150, 100, 300], "value_hi": [150, 200, 300], "took": True, "code": 0,
                       "special_made": False, "result": [150, 100, 300], "result_hi": [150, 200, 300],
                       "subjective": [np.full(2, 400)] * 3, "subjective_took": [np.ones(2, bool)] * 3})
    lv = levels(STD, df, confidence=0.6)
    # Safe bid by the lower bounds: 150 is made by deals 0 and 2 (2/3); the unresolved deal 1 counts as failed.
    assert lv.picks.safe_bid == 150 and lv.picks.safe_p_make == pytest.approx(2 / 3)
    assert lv.unresolved.safe_p_make_hi == pytest.approx(1.0) and lv.unresolved.unresolved == 1
    assert lv.mean_total == pytest.approx(550 / 3) and lv.unresolved.mean_total_hi == pytest.approx(650 / 3)
    lo, hi = bounds_of(df, "value")
    assert lo.tolist() == [150, 100, 300] and hi.tolist() == [150, 200, 300]
    f = Formula(rules="standard", intercept=0.0, coef={}, sd=50.0)
    t = calibration_table(STD, f, df.assign(**dict.fromkeys(FEATURES, 0)),
                          bins=1, bids=np.array([150, 150, 150]))
    assert t["realised"].iloc[0] == pytest.approx(2 / 3) and t["realised_if_made"].iloc[0] == pytest.approx(1.0)


def test_budget_text():
    assert budget_nodes_of("10s") == 35_000_000 and budget_nodes_of("50000000n") == 50_000_000
    with pytest.raises(InputError, match="budget"):
        budget_nodes_of("0s")
    with pytest.raises(InputError, match="budget"):
        budget_nodes_of("ten")


def test_cli_rejects_a_bad_budget(capsys):
    assert_one_line_error(capsys, "odds", "tapp", "--deals", "2", "--solve-budget", "-3n", contains="budget")
    assert_one_line_error(capsys, "report", "--solve-budget", "0s", contains="budget")
