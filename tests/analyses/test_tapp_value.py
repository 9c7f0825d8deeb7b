"""Tapp value and bid level studies: hand-checked melds-only values, class tables, study reproducibility."""

import numpy as np
import pandas as pd
import pytest

from binokel_sim.runner import Scale
from binokel_sim.analyses.bid_levels import bid_levels
from binokel_sim.analyses.tapp_value import by_class, distribution, hand_class, summary
from binokel_sim.cards import Hand
from binokel_sim.studies.deals import _melds_only, study_deals
from binokel_sim.rules import load_rules
from test_evaluation import TOY

STD = load_rules("standard")


def test_melds_only_tapp_value_hand_checked():
    hand = Hand.parse("EA EA E10 E10 EK EK EO EO EU EU HA HA").counts[None]
    tapp = Hand.parse("GA SA S10 HK").counts[None]
    with_tapp, without = _melds_only(STD, hand, tapp)
    # With: double trump family 1500 + the 4 richest cards laid away (GA HA HA SA = 44).
    # Without: the hand's 1500 + the Tapp's 36 points laid away unseen.
    assert with_tapp.tolist() == [1544.0] and without.tolist() == [1536.0]


def test_class_tables_hand_checked():
    df = pd.DataFrame({"melds": [0, 60, 120, 300], "aces": [0, 2, 2, 5], "tens": [1, 1, 3, 4],
                       "longest": [4, 5, 6, 8], "melds_tapp_value": [10.0, 20.0, 30.0, 50.0],
                       "tapp_value": [5, 15, 25, 35]})
    assert hand_class(df, "melds").tolist() == ["0-50", "60-110", "120-190", "300+"]
    t = by_class(df).set_index(["feature", "class"])
    assert t.loc[("aces", "2"), "n"] == 2 and t.loc[("aces", "2"), "melds_mean"] == 25.0
    assert t.loc[("aces", "2"), "dd_se"] == pytest.approx(np.std([15, 25], ddof=1) / np.sqrt(2))
    s = summary(df).iloc[0]
    assert (s["n"], s["melds_mean"], s["dd_mean"]) == (4, 27.5, 20.0)
    d = distribution(df, width=10)
    assert d["from"].tolist() == [0, 10, 20, 30, 40, 50]
    assert d["melds_share"].tolist() == [0, 0.25, 0.25, 0.25, 0, 0.25]
    assert d["dd_share"].tolist() == [0.25, 0.25, 0.25, 0.25, 0, 0]


def test_study_deals_reproducible_and_chunking_free():
    a = study_deals(STD, 18, seed=3, policy="sampled", dd=TOY, scale=Scale(workers=1), chunk_size=18)
    b = study_deals(STD, 18, seed=3, policy="sampled", dd=TOY, scale=Scale(workers=2), chunk_size=5)
    cols = ["deal", "soloist", "melds", "value", "code", "result", "base_result", "melds_tapp_value"]
    pd.testing.assert_frame_equal(a[cols], b[cols])
    assert a["soloist"].tolist() == [i % 3 for i in range(18)]
    assert (a["tapp_value"] == a["result"] - a["base_result"]).all()


def test_bid_levels_table():
    df = study_deals(STD, 60, seed=5, policy="heuristic", dd=TOY)
    t = bid_levels(STD, df, confidence=0.8, min_n=10)
    assert t.iloc[-1]["melds"] == "all" and t.iloc[-1]["n"] == 60
    for r in t.itertuples():
        if r.safe_bid is not None and not pd.isna(r.safe_bid):
            assert r.safe_p_make >= 0.8
        if r.ceiling_bid is not None and not pd.isna(r.ceiling_bid):
            assert r.ceiling_expected_score > 0


def test_report_bid_table_blanks_small_rows_and_fills_the_rest():
    from binokel_sim.analyses.bid_levels import REPORT_CLASSES, class_table, levels

    df = study_deals(STD, 60, seed=5, policy="heuristic", dd=TOY)
    t = class_table(STD, df, min_n=15)
    assert len(t) == 6 + 3 + 2 + 1 and t["n"].iloc[-1] == 60
    # Each marginal row counts its class's deals; the cells of a meld class add up to its row.
    cells = t[(t["melds"] != "all") & (t["aces"] != "all")]
    for m in REPORT_CLASSES["melds"][1]:
        assert cells[cells["melds"] == m]["n"].sum() == t[(t["melds"] == m) & (t["aces"] == "all")]["n"].item()
    small, big = t[t["n"] < 15], t[t["n"] >= 15]
    assert len(small) and len(big) > 1
    assert small.drop(columns=["melds", "aces", "n"]).isna().all().all()
    # A filled row is exactly levels() of its deals.
    whole = levels(STD, df, 0.8)
    assert big.iloc[-1]["ceiling_bid"] == whole.picks.ceiling_bid and big.iloc[-1]["mean_total"] == whole.mean_total
    # Every deal resolved: no range columns.
    assert "unresolved" not in t


def test_control_variate_is_unbiased_and_its_se_is_right():
    from binokel_sim.analyses.tapp_value import adjusted

    # y = 20 + 1.2 x + e, x ~ N(100, 80^2), e ~ N(0, 40^2): E[y] = 140; the melds mean is known exactly.
    rng = np.random.default_rng(11)
    est, ses, plain = [], [], []
    for _ in range(400):
        x = rng.normal(100, 80, 200)
        y = 20 + 1.2 * x + rng.normal(0, 40, 200)
        a = adjusted(pd.DataFrame({"melds_tapp_value": x, "tapp_value": y}), 100.0, 0.0, 10**9)
        est.append(a.mean)
        ses.append(a.se)
        plain.append(y.mean())
    est, ses = np.array(est), np.array(ses)
    # Unbiased within 4 SE of the mean of 400 estimates; reported SE ~ 40/sqrt(200) = 2.83 matches the spread.
    assert abs(est.mean() - 140) < 4 * est.std() / 20
    assert ses.mean() == pytest.approx(40 / np.sqrt(200), rel=0.05)
    assert est.std() == pytest.approx(ses.mean(), rel=0.15)
    # The plain mean's spread is sqrt(1.2^2 80^2 + 40^2) / sqrt(200) ~ 7.3: the variate shrinks it about 2.6-fold.
    assert np.std(plain) / est.std() > 2.0
    # An uncertain melds mean adds beta^2 se^2.
    x = rng.normal(100, 80, 200)
    d = pd.DataFrame({"melds_tapp_value": x, "tapp_value": 20 + 1.2 * x + rng.normal(0, 40, 200)})
    a0, a1 = adjusted(d, 100.0, 0.0, 1000), adjusted(d, 100.0, 2.0, 1000)
    assert a1.se ** 2 == pytest.approx(a0.se ** 2 + a0.beta ** 2 * 4.0)
