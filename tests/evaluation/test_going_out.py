"""The going-out rule: the soloist's estimate after the Tapp weighed with its error measured on the corpus."""

from __future__ import annotations

import numpy as np
import pytest

from binokel_sim.corpus.reader import load_corpus, shipped_root
from binokel_sim.evaluation.going_out import EstimateError, estimate_error, fit_estimate_error, goes_out
from binokel_sim.evaluation.instant import held_out, load_instant
from binokel_sim.evaluation.ladder import outcomes
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.rules import load_rules

STD = load_rules("standard")


def test_fit_recovers_a_known_line():
    rng = np.random.default_rng(7)
    e = rng.uniform(150, 450, 20_000)
    v = -20 + 1.05 * e + rng.normal(0, 33, e.size)
    err = fit_estimate_error(v, e)
    assert err.intercept == pytest.approx(-20, abs=2.5) and err.slope == pytest.approx(1.05, abs=0.008)
    assert err.sd == pytest.approx(33, abs=0.6) and err.n == 20_000


@pytest.mark.parametrize("estimate,bid", [(200, 200), (190, 230), (300, 250), (150, 260)])
def test_expected_play_agrees_with_monte_carlo(estimate, bid):
    """The closed form against an independent reference: the mean score of 400 000 drawn totals."""
    err = EstimateError(-20.0, 1.05, 33.0, 1)
    v = np.random.default_rng(3).normal(-20 + 1.05 * estimate, 33.0, 400_000)
    mc = np.where(v >= bid, v, -2 * bid).mean()
    assert err.expected_play(np.array([estimate]), np.array([bid]), 2)[0, 0] == pytest.approx(mc, abs=1.5)


def test_rule_by_hand(tmp_path):
    err = EstimateError(0.0, 1.0, 30.0, 1)
    bids = np.array([200])
    # E[play] at e = 190, bid 200: z = 1/3, P = 0.3694: 190 x 0.3694 + 30 x 0.3774 - 400 x 0.6306 = -170.8 > -200.
    assert not goes_out(np.array([[190]]), np.ones((1, 1), bool), bids, STD, err)[0, 0]
    # e = 185: z = 1/2, P = 0.3085: 57.1 + 10.6 - 276.6 = -208.9 < -200.
    assert goes_out(np.array([[185]]), np.ones((1, 1), bool), bids, STD, err)[0, 0]
    # At face value both go out; a sampled policy's inner outcomes are averaged, whatever the model.
    assert goes_out(np.array([[190], [185]]), np.ones((2, 1), bool), bids, STD, None)[:, 0].all()
    inner = np.array([[260, 150, 150, 150]])  # mean play score (260 - 3 x 400) / 4 = -235 < -200
    assert goes_out(inner, np.ones((1, 4), bool), bids, STD, err)[0, 0]
    # No trick in his view: the bid fails, he goes out.
    assert goes_out(np.array([[400]]), np.zeros((1, 1), bool), bids, STD, err)[0, 0]
    # Rules without surrender never go out.
    with pytest.raises(ValueError, match="'face'"):  # a misspelt model name is no silent default
        goes_out(np.array([[190]]), np.ones((1, 1), bool), bids, STD, "face")
    toml = tmp_path / "no-out.toml"
    toml.write_text('inherits = "standard"\nname = "no-out"\n[surrender]\nallowed = false\n')
    assert not goes_out(np.array([[100]]), np.ones((1, 1), bool), bids, load_rules(str(toml)), err).any()


@pytest.mark.parametrize("name", ["standard", "four-solo", "kreuz", "standard-48", "kreuz-48"])
def test_shipped_models_carry_their_error(name):
    rules = load_rules(name)
    m = load_instant(rules)
    err = estimate_error(rules)
    assert m is not None and err is not None and err == m.going_out_error
    assert err.n == m.provenance["n_train"] and 20 < err.sd < 90 and 0.8 < err.slope < 1.3


def test_fitted_rule_beats_face_value_on_held_out_deals():
    """On held-out `standard` corpus deals, at a bid one step above the soloist's estimate (where the two
    rules part), weighing the error scores higher than taking the estimate at face value."""
    root = shipped_root()
    assert root is not None, "the shipped corpora are part of the package"
    c = load_corpus(root / "standard", STD)
    d = c.df[(c.df["code"] < 4) & held_out(c.df["deal"], 3)]
    est = np.array([np.mean(s) for s in d["subjective"]])
    bids = np.maximum(150, (np.round(est / 10) * 10 + 10).astype(np.int64))
    parts = DealParts(value=d["value"].to_numpy(), took=d["took"].to_numpy(bool), code=d["code"].to_numpy(),
                      result=d["value"].to_numpy(), special_made=np.zeros(len(d), bool),
                      subjective=np.rint(est).astype(np.int64)[:, None], subjective_took=np.ones((len(d), 1), bool))
    scores = {}
    for key, err in (("face", None), ("fitted", estimate_error(STD))):
        s = np.array([outcomes(STD, parts.select(slice(i, i + 1)), bids[i:i + 1], err)[1][0, 0]
                      for i in range(0, len(d), 7)])
        scores[key] = s
    gain = scores["fitted"] - scores["face"]
    se = gain.std(ddof=1) / np.sqrt(gain.size)
    assert gain.size > 1000 and gain.mean() > 3 * se, (gain.mean(), se)


def test_threshold_path_agrees_with_the_closed_form():
    """The fast path (one threshold per bid) against the expected score computed for every deal."""
    err = EstimateError(-20.0, 1.05, 33.0, 1)
    rng = np.random.default_rng(11)
    est = rng.integers(100, 600, 5000)
    bids = np.arange(150, 610, 10)
    took = rng.random((5000, 1)) > 0.02
    fast = goes_out(est[:, None], took, bids, STD, err)
    play = np.where(took, err.expected_play(est, bids, 2), -2 * bids[None, :])
    slow = play < -1 * bids[None, :]
    near = np.abs(play + bids[None, :]) < 1e-6  # exactly at the threshold: either answer is right
    assert (fast == slow)[~near].all() and fast.any() and (~fast).any()


def test_sampled_policy_needs_two_inner_deals(capsys):
    from binokel_sim.errors import InputError
    from binokel_sim.evaluation.deals import EvalSettings
    from clitools import assert_one_line_error

    with pytest.raises(InputError, match="inner: the sampled policy weighs going out over 2 or more"):
        EvalSettings(policy="sampled", inner=1).check()
    assert EvalSettings(policy="heuristic", inner=1).check().inner == 1  # one estimate: no inner deals needed
    line = assert_one_line_error(capsys, "bid", "EA EA E10 EK EO EU GA G10 HA H10 SA S10", "--policy", "sampled",
                                 "--inner", "1", "--samples", "5", contains="2 or more inner deals")
    assert line.startswith("error: --inner:")  # the option the user gave
