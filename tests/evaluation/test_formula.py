"""Hand formula and calibration: exact recovery of known coefficients, the normal model's arithmetic,
a calibrated model passes the calibration table, the shipped coefficients carry their provenance."""

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from analyses_helpers import synthetic_deals
from binokel_sim.analyses.calibration import calibration_table, questions
from binokel_sim.analyses.hand_formula import FORMULA_FEATURES, fit, save
from binokel_sim.cards import Hand
from binokel_sim.errors import InputError
from binokel_sim.evaluation.formula import COEFFICIENTS, Formula, load_formula
from binokel_sim.rules import load_rules

STD = load_rules("standard")


def test_fit_recovers_exact_coefficients():
    train, test = synthetic_deals(400, seed=1, noise=0.0), synthetic_deals(200, seed=2, noise=0.0)
    f, stats = fit(STD, train, test)
    assert f.intercept == pytest.approx(60.0)
    assert f.coef == pytest.approx({"melds": 1.0, "aces": 12.0, "tens": 6.0, "trump_len": 9.0})
    assert stats["r2_test"] == pytest.approx(1.0) and stats["rmse_test"] == pytest.approx(0.0, abs=1e-9)
    assert stats["n_train"] == 400 and stats["n_test"] == 200


def test_fit_out_of_sample_error_matches_noise():
    f, stats = fit(STD, synthetic_deals(3000, seed=3, noise=40.0), synthetic_deals(3000, seed=4, noise=40.0))
    # RMSE of 3000 N(0, 40) residuals: within 4 % of 40 (SE ~ 40 / sqrt(6000) ~ 0.5).
    assert stats["rmse_test"] == pytest.approx(40.0, rel=0.04) and f.sd == stats["rmse_test"]
    assert f.coef["melds"] == pytest.approx(1.0, abs=0.05)
    assert 0.0 < stats["r2_test"] < stats["r2_train"] + 0.02


def test_normal_model_arithmetic():
    f = Formula("standard", 100.0, {"melds": 1.0}, sd=50.0)
    assert f.p_make(300.0, 300) == pytest.approx(0.5)
    assert f.p_make(300.0, 350) == pytest.approx(0.5 * (1 - math.erf(1 / math.sqrt(2))))
    # E[score] at the mean: E[T; T >= mu] = mu/2 + sd * phi(0); minus 2 x bid x 1/2.
    assert f.expected_score(300.0, 300, 2) == pytest.approx(150 + 50 / math.sqrt(2 * math.pi) - 300)
    adv = f.advise(Hand.parse("EA EA E10 EK EO EU GA G10 HA H10 SA S10").counts, STD)
    assert adv.total == 350.0  # 100 + 250 melds
    assert adv.safe_bid <= adv.ceiling_bid and adv.safe_bid == 300  # 350 - 0.84 x 50 = 308 -> 300
    text = f.rule_of_thumb()
    assert text.startswith("Expect about 100 + your meld points") and "give or take 50" in text


def test_calibrated_model_passes_and_a_biased_one_fails():
    df = synthetic_deals(6000, seed=5, noise=45.0)
    f = Formula("standard", 60.0, {"melds": 1.0, "aces": 12.0, "tens": 6.0, "trump_len": 9.0}, sd=45.0)
    t = calibration_table(STD, f, df)
    big = t[t["n"] >= 100]
    # Every well-filled bin within 3 standard errors (+1 point) of its prediction.
    assert len(big) >= 6 and (big["gap"].abs() < 3 * big["realised_se"] + 0.01).all()
    assert t["n"].sum() == 6000
    biased = Formula("standard", 120.0, dict(f.coef), sd=45.0)  # 60 points too optimistic
    assert calibration_table(STD, biased, df)["gap"].min() < -0.2
    assert questions(STD, df)[:3].tolist() == [150, 160, 170]


def test_save_and_load_round_trip(tmp_path):
    f = Formula("standard", 1.0, {"melds": 2.0}, sd=3.0, provenance={"seed": 9})
    p = tmp_path / "c.json"
    save(f, p)
    g = load_formula("standard", p)
    assert g == f and g.provenance == {"seed": 9}
    with pytest.raises(InputError, match="no hand formula fitted for rules 'grupp'"):
        load_formula("grupp", p)


def test_shipped_coefficients_have_provenance():
    data = json.loads(COEFFICIENTS.read_text())
    f = load_formula("standard")
    prov = data["standard"]["provenance"]
    assert {"seed", "rules", "policy", "n_train", "n_test", "r2_test", "rmse_test", "command"} <= set(prov)
    assert prov["rules"] == "standard" and f.sd == pytest.approx(prov["rmse_test"])
    # The five terms, or all seven features where their out-of-sample gain's interval lies above 0.
    from binokel_sim.evaluation.features import FEATURES

    seven = prov.get("model") == "all seven features"
    assert set(f.coef) == set(FEATURES if seven else FORMULA_FEATURES)
    assert seven == (prov["richer_gain"][1] > 0)


def test_a_formula_that_does_not_predict_is_not_printed():
    from binokel_sim.analyses.report import formula_section
    from binokel_sim.runner import Scale

    # The kreuz fit: R² -0.17 out of sample on 30 deals -> interval straddles 0.
    bad = Formula("kreuz", 200.0, {"melds": 1.0}, sd=80.0, provenance={"r2_test": -0.17, "n_test": 30})
    r2, lo, hi, n = bad.r2_interval()
    assert lo == pytest.approx(-0.17 - 1.96 * 1.17 * (2 / 30) ** 0.5) and lo < 0 < hi and n == 30
    assert not bad.usable() and bad.verdict().startswith("no usable hand formula")
    # A fit on pure noise: the report says so and prints no rule of thumb, no coefficients.
    rng = np.random.default_rng(99)  # not seed 4: that stream drew the melds
    # A preset of one's own (every shipped auction preset has committed coefficients): the section fits here.
    own = replace(load_rules("four-dealer-out"), name="own-four-dealer-out")
    noise = synthetic_deals(40, 4, noise=0.0).assign(value=rng.integers(100, 400, 40))
    s, f = formula_section(own, noise, 1, Scale(workers=1), None)
    text = " ".join(s.text)
    assert f is None and "No usable formula" in text and "Rule of thumb" not in text and not s.tables
    # Real signal: the bootstrap interval lies above 0 and the formula is printed.
    good, stats = fit(STD, synthetic_deals(80, 1, 20.0), synthetic_deals(80, 2, 20.0))
    assert stats["r2_test_lo"] > 0.5 and good.usable()
    s, f = formula_section(own, synthetic_deals(80, 3, 20.0), 1, Scale(workers=1), None)
    assert f is not None and any(t.startswith("Rule of thumb") for t in s.text)


def test_seven_features_replace_the_five_terms_only_where_they_predict_better():
    from binokel_sim.analyses.hand_formula import richer_if_better

    train, test = synthetic_deals(600, seed=5, noise=30.0), synthetic_deals(600, seed=6, noise=30.0)
    f, st = fit(STD, train, test)
    # The five terms are the true model: the seven do not beat them, the formula keeps five terms.
    g, gst = richer_if_better(STD, f, st, train, test, {})
    assert set(g.coef) == set(FORMULA_FEATURES) and gst["richer_gain"][1] <= 0 < gst["richer_gain"][2]
    # The longest suit adds 15 points a card: the seven features win; the prose keeps the five terms.
    for d in (train, test):
        d["value"] += 15 * d["longest"]
    f, st = fit(STD, train, test)
    g, gst = richer_if_better(STD, f, st, train, test, {})
    assert g.coef["longest"] == pytest.approx(15, abs=2) and gst["richer_gain"][1] > 0
    assert g.rule_of_thumb() == f.rule_of_thumb() and "longest" not in g.provenance["five_terms"]["coef"]
    assert g.provenance["five_terms"]["r2_test"] == st["r2_test"] < gst["r2_test"]
