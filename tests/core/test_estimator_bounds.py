"""Estimators that cannot leave their range: every figure of both tiers is finite (an error from two samples on)
and inside what the scoring allows, over random hands, presets and sample counts.

The property test runs the checked tier's plumbing with a stand-in back end whose totals scatter
like real ones (a hash of the deal, so the exact and the threshold rows disagree with the proxies);
the seeded tests run the real solver on a few hands.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from binokel_sim.cards import CARD_POINTS
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.evaluation.bounds import score_range, total_range
from binokel_sim.play.dd import DD
from binokel_sim.evaluation.hand import EvalSettings, evaluate_hand
from binokel_sim.evaluation.tiers import instant_evaluation
from binokel_sim.rules import load_rules

from test_evaluation import toy_specials


def scattered_points(counts, trump, leader, side, bonus, last):
    """The side's card points in hand plus a swing of -60..+140 hashed from the deal; melds with a trick."""
    out = np.zeros(counts.shape[0], dtype=np.int32)
    for i in range(counts.shape[0]):
        seats = [s for s in range(counts.shape[1]) if side[i] >> s & 1]
        swing = int.from_bytes(counts[i].tobytes()[:8], "little") * 2654435761 % 201 - 60
        v = max(0, sum(int(counts[i, s].astype(np.int64) @ CARD_POINTS) for s in seats) + swing)
        out[i] = v + (sum(int(bonus[i, s]) for s in seats) if v > 0 else 0)
    return out


SCATTER = DD(points=scattered_points, specials=toy_specials)


def check_evaluation(ev, rules) -> None:
    """Every printed figure finite (n >= 2) and inside what the scoring allows."""
    b = ev.bids
    n = int(b["n"].iloc[0])
    assert n == ev.n
    lo, hi = score_range(rules, b["bid"].to_numpy())
    sc = b["expected_score"].to_numpy()
    assert np.isfinite(sc).all() and ((lo - 1e-9 <= sc) & (sc <= hi + 1e-9)).all(), (b, lo)
    for col in ("p_make", "p_surrender", "p_make_lo", "p_make_hi"):
        p = b[col].to_numpy()
        assert np.isfinite(p).all() and ((0 <= p) & (p <= 1)).all(), col
    assert (b["p_make_lo"] <= b["p_make"] + 1e-12).all() and (b["p_make"] <= b["p_make_hi"] + 1e-12).all()
    low, high = total_range(rules)
    for name, (a, z) in (("tapp_value", (low - high, high - low)), ("total_with_tapp", (low, high)),
                         ("total_tapp_unseen", (low, high))):
        mean, se = getattr(ev, name)
        assert np.isfinite(mean) and a <= mean <= z, name
        assert (np.isfinite(se) and se >= 0) if n >= 2 else True, (name, se)
    if n >= 2:
        for col in ("p_make_se", "expected_score_se", "p_surrender_se"):
            assert np.isfinite(b[col].to_numpy()).all() and (b[col] >= 0).all(), col


@settings(max_examples=40)
@given(deal=st.integers(0, 10_000), samples=st.integers(2, 160), every=st.sampled_from([2, 3, 7, 50]),
       preset=st.sampled_from(["standard", "kreuz", "four-solo", "grupp"]), policy=st.sampled_from(["melds",
                                                                                                  "heuristic"]))
@pytest.mark.slow
def test_checked_figures_finite_and_in_range(deal, samples, every, preset, policy):
    rules = load_rules(preset)
    hand = Dealer(rules, seed=5).deal_object(deal).hands[deal % rules.n_seats]
    ev = evaluate_hand(hand, rules, seat=deal % rules.n_seats, samples=samples, seed=deal,
                       settings=EvalSettings(policy=policy, exact_every=every), dd=SCATTER)
    check_evaluation(ev, rules)
    assert ev.n_exact >= min(samples, 10)


def test_one_sample_says_n_too_small():
    from binokel_sim.cli.bid import render

    ev = evaluate_hand("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "standard", samples=1, dd=SCATTER,
                       settings=EvalSettings(policy="heuristic"))
    text = render(ev)
    assert "nan" not in text and "n too small" in text


@pytest.mark.parametrize("samples", [2, 3, 11, 25, 60])
@pytest.mark.slow
def test_real_solver_figures_finite_and_in_range(samples):
    rules = load_rules("standard")
    for deal in (0, 1):
        hand = Dealer(rules, seed=17).deal_object(deal).hands[0]
        ev = evaluate_hand(hand, rules, samples=samples, seed=deal + 1, policy="heuristic")
        check_evaluation(ev, rules)


@pytest.mark.parametrize("preset", ["standard", "kreuz", "four-solo", "standard-48", "wuerttemberg"])
@pytest.mark.slow
def test_instant_figures_finite_and_in_range(preset):
    rules = load_rules(preset)
    d = Dealer(rules, seed=23)
    for i in range(10):
        ev = instant_evaluation(d.deal_object(i).hands[i % rules.n_seats], rules, seat=i % rules.n_seats)
        b = ev.bids
        lo, hi = score_range(rules, b["bid"].to_numpy())
        sc = b["expected_score"].to_numpy()
        assert np.isfinite(sc).all() and ((lo <= sc) & (sc <= hi)).all()
        assert ((0 <= b["p_make"]) & (b["p_make"] <= 1)).all() and np.isfinite(b["expected_score_se"]).all()
        assert np.isfinite(ev.tapp_value).all()
