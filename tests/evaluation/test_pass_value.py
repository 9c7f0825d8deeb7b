"""What passing is worth (binokel_sim.evaluation.pass_value, binokel_sim.game.defence) and the ladder weighed
against it in ``binokel bid``."""

from __future__ import annotations

import numpy as np
import pytest

from clitools import assert_one_line_error, run_json

from binokel_sim.cards import Hand, cards_of, counts_of
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.evaluation import pass_value as pv
from binokel_sim.evaluation.margin import OthersLine, fit_others, margin_columns, out_credit
from binokel_sim.evaluation.instant import load_instant
from binokel_sim.game.defence import (PLAYED, WENT_OUT, PassRows, defence_job, opponent_ceilings, others_mean,
                                      pass_value, pass_value_checked, passing_plays, passing_scores)
from binokel_sim.game.simulate import play_deal
from binokel_sim.play.solver import Solver
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale

HAND = "EA EA EK EO EU GA G10 HA HK SA SO SU"
R = load_rules("standard")
INSTANT = load_instant(R)


@pytest.fixture(scope="module")
def fitted():
    """A model fitted on 12 forced-pass deals (36 rows) and its rows."""
    rows = PassRows.join(defence_job(R, 12, seed=1).run(Scale(workers=2)))
    # 36 seats are too few for the quadratic surface's 30 terms: the line (the surface is tested below)
    return rows, pv.fit_defence(rows.hands, rows.seats, rows.scores, R, {"deals": 12, "seed": 1},
                                margins=rows.margins, others=fit_others(rows, R), quadratic=False, bent=False)


def _cols(e, se):
    return {"bid": np.arange(150, 150 + 10 * len(e), 10), "expected_score": np.asarray(e, float),
            "expected_score_se": np.asarray(se, float)}


def test_versus_pass_gain_and_its_error_by_hand():
    p = pv.PassValue(mean=100.0, se=3.0, sd=50.0, n=400, basis="t")
    vs = pv.versus_pass(_cols([300, 140, 104, 90], [4, 4, 4, 4]), p)
    assert vs.gain.tolist() == [200, 40, 4, -10]
    assert vs.gain_se.tolist() == [5.0] * 4          # sqrt(4^2 + 3^2)
    assert vs.bid_up_to == 170 and vs.at(170) == (4.0, 5.0)
    assert vs.sure_up_to == 160                          # 40 - 2 x 5 > 0, 4 - 2 x 5 < 0
    assert vs.line().startswith("bid up to 170: winning there scores 104.0 ± 4.0, passing 100.0 ± 3.0")


def test_versus_pass_never_advises_above_a_bid_where_passing_was_better():
    p = pv.PassValue(mean=100.0, se=1.0, sd=50.0, n=400, basis="t")
    # a ladder that dips below passing and comes back (not monotone: noise) stops at the dip
    assert pv.versus_pass(_cols([300, 90, 120, 80], [1] * 4), p).bid_up_to == 150
    low = pv.versus_pass(_cols([90, 50], [1, 1]), p)
    assert low.bid_up_to is None and low.line().startswith("pass: winning even at 150 scores less than passing")


@pytest.mark.slow
def test_passing_scores_equal_the_simulators_deal_with_that_seat_at_zero():
    rows = Dealer(R, 5).deal(3)
    solver = Solver()
    for row in rows:
        natural = opponent_ceilings(R, row, INSTANT)
        got, margin, plays = passing_plays(R, row, solver, None, range(3), natural)
        assert np.array_equal(got, passing_scores(R, row, solver, None, range(3), natural))
        hands = [counts_of(row[s], check=False) for s in seat_slices(R)[:3]]
        outcomes = []
        for s in range(3):
            # the others bid to the instant tier's ceiling: what bid calls the ceiling
            c = [INSTANT.advise(cards_of(h), R, q, 0.8).ceiling_bid or 0 for q, h in enumerate(hands)]
            c[s] = 0
            o = play_deal(R, row, Solver(), None, ceilings=c)
            assert got[s] == o.scores[s]
            assert margin[s] == pytest.approx(o.scores[s] - (o.scores.sum() - o.scores[s]) / 2)
            if all(o.soloist_seat != q.soloist_seat or o.bid != q.bid for q in outcomes):
                outcomes.append(o)
        # one play row per distinct auction outcome, in the order first met: the soloist's side
        assert len(plays) == len(outcomes)
        for (kind, total, bid, others, _, _), o in zip(plays, outcomes):
            assert (total, bid) == (o.total, o.bid) and kind in (PLAYED, WENT_OUT)
            assert others == pytest.approx(others_mean(o.scores, o.soloist_seat))


def test_the_quadratic_surface_recovers_a_product_term_and_answers_by_it():
    rows = Dealer(R, 4).deal(600)
    sl = seat_slices(R)
    hands = np.array([counts_of(r[sl[i % 3]], check=False) for i, r in enumerate(rows)])
    seats = np.arange(600) % 3
    f = pv.defence_features(hands, R)
    rng = np.random.default_rng(1)
    truth = 20 + 0.3 * f[:, 1] + 0.05 * f[:, 2] * f[:, 4] - 6 * (seats == 2)
    y = truth + rng.normal(0, 0.5, 600)
    m = pv.fit_defence(hands, seats, y, R)
    line = pv.fit_defence(hands, seats, y, R, quadratic=False)
    assert m.quadratic and len(m.coef) == 1 + 6 + len(pv.PAIRS) + 2 and m.coef[-1] == pytest.approx(-6.0, abs=0.2)
    fit = np.array([m.value(h, R, s).mean for h, s in zip(hands, seats)])
    # the surface finds the mean (its error ~ 0.5 x sqrt(30 / 600)); the line cannot bend to the product
    assert np.sqrt(np.mean((fit - truth) ** 2)) < 0.25 and m.sd == pytest.approx(0.5, abs=0.05)
    assert line.sd > 1.5 * m.sd
    v = m.value(hands[0], R, 2)
    assert v.mean == pytest.approx(truth[0] + 6 * (seats[0] == 2) - 6, abs=4 * v.se) and "quadratic surface" in v.basis
    with pytest.raises(Exception, match="too few for 30 coefficients"):
        pv.fit_defence(hands[:50], seats[:50], y[:50], R)


def test_the_others_credit_where_the_soloist_goes_out_by_hand():
    # standard: each opponent 50; kreuz: every seat carries its team's score, the partner -bid and each defender
    # the team's 50 + 50; dabb: each opponent 40 (docs/rules.md §4.3)
    assert out_credit(R, [150, 300]).tolist() == [50.0, 50.0]
    assert out_credit(load_rules("kreuz"), [200]).tolist() == pytest.approx([(-200 + 100 + 100) / 3])
    assert out_credit(load_rules("dabb"), [200]).tolist() == [40.0]


def test_margin_columns_weigh_played_and_gone_out_by_the_ladders_share():
    ol = OthersLine(coef=[100.0, -0.2, 0.0], cov=[[4.0, 0, 0], [0, 0, 0], [0, 0, 0]], sd=30.0, n=50,
                    out_melds=10.0, out_melds_se=2.0, n_out=60)
    cols = {"bid": np.array([150, 160, 170]), "expected_score": np.array([200.0, 150.0, 120.0]),
            "expected_score_se": np.array([3.0, 3.0, 3.0]), "p_surrender": np.array([0.0, 0.25, 1.0])}
    m = margin_columns(cols, ol, R, total=250.0, melds=0)
    # played: 100 - 50 = 50; gone out: 50 + 10 = 60
    assert m.expected_margin.tolist() == pytest.approx([150.0, 150 - (0.75 * 50 + 0.25 * 60), 60.0])
    se = np.sqrt(9 + np.array([4.0, (0.75 * 2) ** 2 + (0.25 * 2) ** 2, 4.0]))
    assert m.expected_margin_se == pytest.approx(se)


@pytest.mark.slow
def test_the_margin_objective_compares_margins(fitted):
    _, m = fitted
    counts = Hand.parse(HAND).counts
    own, mg = m.value(counts, R, 1), m.value(counts, R, 1, "margin")
    assert mg.objective == "margin" and mg.mean != own.mean and mg.line().startswith("passing (own minus")
    cols = _cols([300, 200, 100], [5, 5, 5]) | {"p_surrender": np.zeros(3)}
    vs = pv.versus_pass(margin_columns(cols, m.others, R, 300.0, 150).columns(), mg)
    assert vs.objective == "margin" and "own minus the others' mean" in vs.line()
    with pytest.raises(Exception, match="objective: expected one of own, margin"):
        m.value(counts, R, 1, "score")
    old = pv.DefenceModel(m.rules_hash, m.rules, m.coef, m.cov, m.sd, m.n)   # fitted before the objective
    with pytest.raises(Exception, match="predates the margin objective"):
        old.value(counts, R, 1, "margin")


@pytest.mark.slow
def test_pass_rows_are_the_same_at_any_worker_count_and_resume(tmp_path):
    job = defence_job(R, 5, seed=3)
    one = PassRows.join(job.run(Scale(workers=1)))
    two = PassRows.join(job.run(Scale(workers=2, checkpoint=tmp_path)))
    again = PassRows.join(job.run(Scale(workers=1, checkpoint=tmp_path)))   # read back from the checkpoint
    for a, b, c in zip(one, two, again):
        assert np.array_equal(a, b) and np.array_equal(a, c)
    assert one.hands.shape == (15, 24) and one.hands.sum(axis=1).tolist() == [12] * 15


@pytest.mark.slow
def test_checked_pass_value_is_the_mean_of_its_own_deals():
    counts = Hand.parse(HAND).counts
    got = pass_value_checked(counts, R, 1, 6, seed=2, scale=Scale(workers=2))
    again = pass_value_checked(counts, R, 1, 6, seed=2, scale=Scale(workers=1))
    assert (got.mean, got.se) == (again.mean, again.se) and got.n == 6
    dealer = Dealer(R, 2, predealt={1: Hand.parse(HAND).cards}, stream=(4, 7))
    y = [passing_scores(R, row, Solver(), None, [1], opponent_ceilings(R, row, INSTANT, (1,)))[0]
         for row in dealer.deal(6)]
    assert got.mean == pytest.approx(np.mean(y)) and got.se == pytest.approx(np.std(y, ddof=1) / np.sqrt(6))
    mg = pass_value_checked(counts, R, 1, 6, seed=2, scale=Scale(workers=1), objective="margin")
    z = [passing_plays(R, row, Solver(), None, [1], opponent_ceilings(R, row, INSTANT, (1,)))[1][0]
         for row in dealer.deal(6)]
    assert mg.objective == "margin" and mg.mean == pytest.approx(np.mean(z)) and mg.n == 6


@pytest.mark.slow
def test_fitted_model_round_trips_and_answers_a_hand(tmp_path, fitted):
    rows, m = fitted
    path = pv.save_defence(m, tmp_path / "m.json")
    back = pv.load_defence(R, path)
    assert back == m
    v = back.value(Hand.parse(HAND).counts, R, 2)
    x = pv.design(pv.defence_features(Hand.parse(HAND).counts[None], R), np.array([2]), 3)[0]
    assert v.mean == pytest.approx(x @ np.asarray(m.coef)) and v.se > 0 and v.n == 36
    # the fit's residuals sum to zero (an intercept) and its mean prediction is the data's mean
    X = pv.design(pv.defence_features(rows.hands, R), rows.seats, 3)
    assert (X @ np.asarray(m.coef)).mean() == pytest.approx(rows.scores.mean())


def test_bad_input_is_one_line():
    from binokel_sim.errors import InputError

    with pytest.raises(InputError, match="seat: expected 0..2"):
        pass_value(HAND, "standard", seat=3, samples=4)
    with pytest.raises(InputError, match="at least 2"):
        pass_value(HAND, "standard", samples=1)
    with pytest.raises(InputError, match="auction"):
        pass_value(HAND, "two-hand", samples=4)


@pytest.mark.slow
def test_bid_weighs_the_ladder_against_passing(capsys, tmp_path, monkeypatch, fitted):
    _, m = fitted
    monkeypatch.setattr(pv, "MODEL_FILE", tmp_path / "none.json")
    d = run_json(capsys, "bid", HAND)
    assert "no pass-value model" in d["versus_pass"]["missing"] and "gain_vs_pass" not in d["bids"][0]
    pv.save_defence(m, tmp_path / "m.json")
    monkeypatch.setattr(pv, "MODEL_FILE", tmp_path / "m.json")
    d = run_json(capsys, "bid", HAND, "--seat", "1")
    want = m.value(Hand.parse(HAND).counts, R, 1)
    vs = d["versus_pass"]
    assert vs["passing"]["mean"] == pytest.approx(want.mean) and vs["objective"] == "own"
    e = np.array([b["expected_score"] for b in d["bids"]])
    assert np.all(np.diff(e) <= 0)                       # non-increasing by construction
    gains = np.array([b["gain_vs_pass"] for b in d["bids"]])
    assert gains == pytest.approx(e - want.mean)
    up = [b["bid"] for b in d["bids"] if b["gain_vs_pass"] > 0]
    assert vs["bid_up_to"] == max(up) and vs["line"].startswith(f"bid up to {max(up)}")
    d = run_json(capsys, "bid", HAND, "--seat", "1", "--objective", "margin")
    vs = d["versus_pass"]
    want = m.value(Hand.parse(HAND).counts, R, 1, "margin")
    assert vs["objective"] == "margin" and vs["passing"]["mean"] == pytest.approx(want.mean)
    e = np.array([b["expected_margin"] for b in d["bids"]])
    assert np.all(np.diff(e) <= 0) and e[0] < d["bids"][0]["expected_score"]   # the others score too
    assert np.array([b["gain_vs_pass"] for b in d["bids"]]) == pytest.approx(e - want.mean)


@pytest.mark.slow
def test_bid_with_samples_reports_the_same_comparison_from_its_deals(capsys):
    d = run_json(capsys, "bid", HAND, "--samples", "4", "--exact-every", "1", "--workers", "1")
    vs = d["versus_pass"]
    assert vs["passing"]["n"] == 4 and "where this hand passed, the others bidding to the instant tier's" in vs[
        "passing"]["basis"]
    assert [g["bid"] for g in vs["gain"]] == [b["bid"] for b in d["bids"]]


def test_bid_refuses_a_seat_outside_the_table(capsys):
    assert_one_line_error(capsys, "bid", HAND, "--seat", "3", contains="--seat")


def test_instant_tapp_value_is_the_hands_own_draws():
    from binokel_sim.cards import CARD_POINTS
    from binokel_sim.evaluation.instant import load_instant
    from binokel_sim.evaluation.instant_draws import draw_tapps, exchange_estimates
    from binokel_sim.exchange.candidates import PLAY_WEIGHTS, play_estimate
    from binokel_sim.melds.scorer import meld_total

    m = load_instant(R)
    a = m.advise(HAND, R, 0, 0.8)
    tv = a.tapp_value
    assert tv.n == m.draws == 200 and tv.basis == "this hand's drawn Tapps" and tv.reference.n > 10_000
    # by hand: per drawn Tapp, (estimate after the exchange) - (best trump of the hand alone + the Tapp's points),
    # each plus the mean residual of its pool
    h = Hand.parse(HAND).counts
    tapps = draw_tapps(h, R, m.draws)
    est, code, _ = exchange_estimates(R, np.repeat(h[None], m.draws, 0), tapps, 0)
    assert (code < 4).all()                               # no Durch or Bettel for this hand
    table = R.meld_array()
    keep = max(meld_total(h, t, table) + play_estimate(h, t, PLAY_WEIGHTS) for t in range(4))
    base = np.rint(keep + tapps.astype(np.int64) @ CARD_POINTS)
    rows, edges = np.asarray(m.draw_rows), np.asarray(m.draw_edges)
    res = np.array([rows[rows[:, 0] == k, 1].mean() for k in range(len(edges) + 1)])
    want = (est + res[np.searchsorted(edges, est)]) - (base + res[np.searchsorted(edges, base)])
    assert tv.mean == pytest.approx(want.mean()) and tv.se == pytest.approx(want.std(ddof=1) / np.sqrt(200))


def test_the_python_api_carries_the_comparison_as_a_typed_result(capsys):
    import binokel_sim

    ev = binokel_sim.evaluate_hand(HAND, "standard", seat=1)
    vs = ev.versus_pass
    assert isinstance(vs, binokel_sim.VersusPass) and isinstance(vs.passing, binokel_sim.PassValue)
    assert vs.passing.mean == pytest.approx(binokel_sim.pass_value(HAND, "standard", seat=1).mean)
    d = run_json(capsys, "bid", HAND, "--seat", "1")
    assert d["versus_pass"]["bid_up_to"] == vs.bid_up_to == ev.to_dict()["versus_pass"]["bid_up_to"]


def test_a_ladder_without_an_error_claims_no_clear_lead():
    p = pv.PassValue(mean=100.0, se=3.0, sd=50.0, n=400, basis="t")
    vs = pv.versus_pass(_cols([300, 200], [np.nan, np.nan]), p)   # one deal: no standard error
    assert vs.bid_up_to == 160 and vs.sure_up_to is None and np.isnan(vs.gain_se).all()


@pytest.mark.slow
def test_fit_defence_names_every_term_of_the_surface(capsys, tmp_path):
    import pandas as pd

    before = pv.MODEL_FILE.read_bytes()
    d = run_json(capsys, "fit", "defence", "--rules", "four-solo", "--deals", "16", "--workers", "1",
                 "--out", str(tmp_path / "coef.csv"))
    assert d["n"] == 64 and d["written"] is None and pv.MODEL_FILE.read_bytes() == before   # no --write
    terms = list(d["terms"])
    assert len(terms) == 1 + 6 + len(pv.PAIRS) + 3 and terms[7] == "melds_best x melds_best / 100"
    assert terms[-1] == "seat 3" and set(d["margin"]["terms"]) == set(terms)
    t = pd.read_csv(tmp_path / "coef.csv", comment="#")   # a provenance line first
    assert t["term"].tolist() == terms and t["coefficient"].tolist() == pytest.approx(list(d["terms"].values()))
    assert d["others"]["n"] > 0 and d["others"]["n_out"] >= d["others"]["n"]
    held = d["held_out"]
    assert sum(h["n"] for h in held) == 64 and all(np.isfinite(h["z"]) for h in held)
    assert d["held_out_line_max_abs_z"] >= 0


def test_bid_prints_the_margin_it_weighs(capsys):
    from clitools import run_cli

    code, text, _ = run_cli(capsys, "bid", HAND, "--objective", "margin")
    assert code == 0
    head = next(line for line in text.splitlines() if line.lstrip().startswith("bid "))
    flat = " ".join(text.split())  # prose wraps at 100 columns
    assert "E[margin]" in head and "vs pass" in head and "E[margin] = E[score] minus the other seats'" in flat
    assert "passing (own minus the others' mean):" in flat and "scores (own minus the others' mean)" in flat
    assert max(len(line) for line in text.splitlines()) <= 100
    d = run_json(capsys, "bid", HAND, "--objective", "margin")
    r = d["bids"][0]
    assert r["gain_vs_pass"] == pytest.approx(r["expected_margin"] - d["versus_pass"]["passing"]["mean"])
    assert_one_line_error(capsys, "bid", HAND, "--objective", "score", contains="--objective")


@pytest.mark.slow
def test_the_bend_lifts_the_weakest_hands_off_the_floor(fitted):
    from dataclasses import replace

    from binokel_sim.evaluation.pass_surface import bend, fit_bend

    # a floor at 0 under a line: the bend finds a knot near it, slope 1 above, flat below
    p = np.linspace(-60, 200, 2000)
    y = np.maximum(p, 0) + np.random.default_rng(3).normal(0, 2, 2000)
    k, a, b, c = fit_bend(p, y)
    assert abs(k) < 15 and b == pytest.approx(1.0, abs=0.03) and b - c == pytest.approx(0.0, abs=0.1)
    assert bend(np.array([-50.0, 100.0]), [k, a, b, c]) == pytest.approx([0.0, 100.0], abs=3)
    # in a model: the value is the bent surface, its SE the surface's times the slope there
    _, m = fitted
    counts = Hand.parse(HAND).counts
    plain = m.value(counts, R, 1)
    s = plain.mean
    lifted = replace(m, floor_bend=[s + 10, 5.0, 0.5, 0.25])    # below the knot: slope 0.5 - 0.25
    v = lifted.value(counts, R, 1)
    assert v.mean == pytest.approx(5 + 0.5 * s + 0.25 * 10) and v.se == pytest.approx(0.25 * plain.se)
    assert lifted.value(counts, R, 1, "margin").mean == m.value(counts, R, 1, "margin").mean   # own score only


def test_without_an_instant_tier_the_others_bid_to_the_simulators_ceilings_and_it_says_so(monkeypatch, tmp_path):
    from binokel_sim.evaluation import instant
    from binokel_sim.game.simulate import ceiling

    monkeypatch.setattr(instant, "model_file", lambda play="double-dummy": tmp_path / "none.json")
    row = Dealer(R, 5).deal(1)[0]
    hands = [counts_of(row[s], check=False) for s in seat_slices(R)[:3]]
    assert opponent_ceilings(R, row, None, (1,)) == [ceiling(hands[0], R), 0, ceiling(hands[2], R)]
    assert defence_job(R, 3).params.opponents == "simulator"
    v = pass_value(HAND, R, samples=2)
    assert "simulator's formula ceilings (no instant tier fitted" in v.basis and v.n == 2
