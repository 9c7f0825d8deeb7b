"""The duplicate match of bidding policies: binokel_sim.game.match, analyses.match and ``binokel study match``."""

from __future__ import annotations

import numpy as np
import pytest

from clitools import assert_one_line_error, run_json

from binokel_sim.analyses.match import competing_gain, match_summary, pass_calibration
from binokel_sim.cards import Hand, counts_of
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.evaluation import pass_value as pv
from binokel_sim.game.defence import PassRows, defence_job
from binokel_sim.game.match import MatchRows, hand_limits, match_job, table_limit
from binokel_sim.game.simulate import play_deal
from binokel_sim.play.solver import Solver
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale

R4 = load_rules("four-solo")


def test_table_limit_counts_melds_aces_trumps_and_the_deck_share():
    # four-solo: 9 cards, the deck's 240 card points over three other seats: 80
    h = Hand.parse("EA EA EK EO GA HA SA S10 S7").counts
    # melds at Eichel: trump pair 40 + four Aces 100 = 140; 5 aces x 20; 4 trumps x 10
    assert table_limit(h, R4) == 140 + 100 + 40 + 80 == 360
    assert table_limit(Hand.parse("E7 G7 H7 S7 EU GU HU SU GO").counts, R4) > 0


@pytest.fixture(scope="module")
def rows():
    return match_job(R4, 3, "safe", ("ceiling", "table"), seed=4).run(Scale(workers=1))


@pytest.mark.slow
def test_each_row_is_the_simulators_deal_with_those_limits(rows):
    r = MatchRows.join(rows)
    dealer = Dealer(R4, 4, stream=(0x3A7C,))
    sl = seat_slices(R4)
    for j in range(3):
        row = dealer.deal(1, start=j)[0]
        hands = [counts_of(row[sl[s]], check=False) for s in range(4)]
        lim = [hand_limits(hands[s], R4, s, ("safe", "ceiling", "table")).limits for s in range(4)]
        for k, b in enumerate(("ceiling", "table")):
            base = [lim[s][b] for s in range(4)]
            ob = play_deal(R4, row, Solver(), None, ceilings=base).scores
            for s in range(4):
                c = list(base)
                c[s] = lim[s]["safe"]
                oa = play_deal(R4, row, Solver(), None, ceilings=c).scores
                i = np.flatnonzero((r.deal == j) & (r.against == k) & (r.seat == s))[0]
                assert (r.score_a[i], r.score_b[i]) == (oa[s], ob[s])
                assert r.others_b[i] == pytest.approx((ob.sum() - ob[s]) / 3)
                if c == base:            # the same limits: the same auction, the same play
                    assert r.score_a[i] == r.score_b[i]
                c[s] = 0                 # passing at once, measured under the first B only
                want = play_deal(R4, row, Solver(), None, ceilings=c).scores[s] if k == 0 else np.nan
                assert r.passed_b[i] == pytest.approx(want, nan_ok=True)


def test_same_rows_at_any_worker_count_and_from_a_checkpoint(rows, tmp_path):
    job = match_job(R4, 3, "safe", ("ceiling", "table"), seed=4)
    two = MatchRows.join(job.run(Scale(workers=2, checkpoint=tmp_path)))
    again = MatchRows.join(job.run(Scale(workers=1, checkpoint=tmp_path)))
    for a, b, c in zip(MatchRows.join(rows), two, again):
        nan = a.dtype.kind == "f"
        assert np.array_equal(a, b, equal_nan=nan) and np.array_equal(a, c, equal_nan=nan)


def _rows(**kw):
    n = len(kw["deal"])
    z = np.zeros(n, bool)
    base = dict(against=np.zeros(n, int), seat=np.arange(n) % 3, score_a=np.zeros(n, int), score_b=np.zeros(n, int),
                others_a=np.zeros(n), others_b=np.zeros(n), won_a=z, won_b=z, failed_a=z, failed_b=z, out_a=z,
                out_b=z, bid_a=np.zeros(n, int), bid_b=np.zeros(n, int), pass_value=np.full(n, np.nan),
                passed_b=np.full(n, np.nan))
    return MatchRows(**{**base, **kw})


def test_summary_shares_are_among_the_contracts_won():
    won = np.array([True, True, True, True, False, False])
    r = _rows(deal=np.array([0, 0, 0, 1, 1, 1]), won_a=won, failed_a=np.array([1, 0, 0, 0, 0, 0], bool),
              out_a=np.array([0, 1, 0, 0, 0, 0], bool), bid_a=np.array([200, 150, 170, 230, 0, 0]),
              score_a=np.array([-400, -150, 200, 300, 50, 70]), others_a=np.array([100, 100, 50, 0, 100, 20.0]))
    s = match_summary(r, "vs-pass", ("ceiling",)).iloc[0]
    assert s["won_a"] == pytest.approx(4 / 6) and s["contracts_a"] == 4
    assert s["failed_a"] == 0.25 and s["out_a"] == 0.25 and s["mean_bid_a"] == 187.5
    assert s["failed_a_se"] == pytest.approx(np.sqrt(0.25 * 0.75 / 4))
    # deal means of own minus others: (-500 - 250 + 150) / 3 = -200 and (300 - 50 + 50) / 3 = 100
    assert s["gain_vs_others"] == pytest.approx(-50) and s["gain_vs_others_se"] == pytest.approx(150)


def test_pass_calibration_bins_the_passing_seats():
    pred = np.repeat([50.0, 100.0], 10)
    real = np.concatenate([np.full(10, 60), np.full(10, 90)]) + np.tile([-5, 5], 10)
    won = np.zeros(20, bool)
    won[0] = True                                        # a seat that won the auction is not a passer
    forced = real - 7.0                                  # each seat's score had it passed at once
    r = _rows(deal=np.arange(20), score_b=real, won_b=won, pass_value=pred, passed_b=forced)
    c = pass_calibration(r, bins=2, event="natural")
    assert c["n"].tolist() == [9, 10]
    assert c["pass_realised"].tolist() == pytest.approx([np.mean(real[1:10]), 90.0])
    assert c["pass_predicted"].tolist() == [50.0, 100.0]
    # forced: every seat (the winner too), against its score had it passed at once
    f = pass_calibration(r, bins=2)
    assert f["n"].tolist() == [10, 10] and f["pass_realised"].tolist() == pytest.approx([53.0, 83.0])
    se = np.std(forced[10:], ddof=1) / np.sqrt(10)
    assert f["z"].iloc[1] == pytest.approx((83.0 - 100.0) / se)
    assert competing_gain(r)[:2] == pytest.approx((7.0, 0.0)) and competing_gain(r)[2] == 19


def test_bad_input_is_one_line(capsys):
    assert_one_line_error(capsys, "study", "match", "--rules", "four-solo", "--policy", "greedy", contains="greedy")
    assert_one_line_error(capsys, "study", "match", "--rules", "four-solo", "--policy", "safe", "--against", "safe",
                          contains="--against")
    assert_one_line_error(capsys, "study", "match", "--rules", "two-hand", contains="auction")
    assert_one_line_error(capsys, "study", "match", "--rules", "four-solo", "--deals", "0", contains="--deals")


@pytest.mark.slow
def test_vs_pass_match_runs_from_the_cli(capsys, tmp_path, monkeypatch):
    d = PassRows.join(defence_job(R4, 12, seed=1).run(Scale(workers=2)))
    pv.save_defence(pv.fit_defence(d.hands, d.seats, d.scores, R4, {"deals": 12, "seed": 1}, quadratic=False),
                    tmp_path / "m.json")
    monkeypatch.setattr(pv, "MODEL_FILE", tmp_path / "m.json")
    out = run_json(capsys, "study", "match", "--rules", "four-solo", "--deals", "12", "--against", "ceiling",
                   "--workers", "2", "--charts", str(tmp_path / "ch"), "--out", str(tmp_path / "rows.csv"))
    (s,) = out["summary"]
    assert s["policy"] == "vs-pass" and s["against"] == "ceiling" and s["deals"] == 12
    assert np.isfinite(s["gain_se"]) and (tmp_path / "ch" / "match.png").stat().st_size > 0
    assert sum(c["n"] for c in out["pass_calibration"]) > 0
    # the report reads the rows back as shipped rows of these rules (by content hash)
    import pandas as pd

    from binokel_sim.analyses import report_match

    rows = pd.read_csv(tmp_path / "rows.csv", comment="#")
    back = report_match.rows_of_frame(rows, ["ceiling"])
    assert back.deal.tolist() == rows["deal"].tolist() and set(back.against.tolist()) == {0}
    run_cli_rows = run_json(capsys, "study", "match", "--rules", "four-solo", "--deals", "12", "--against", "ceiling",
                            "--workers", "1", "--out", str(tmp_path / "four-solo.parquet"))
    monkeypatch.setattr(report_match, "shipped_root", lambda: tmp_path)
    sec = report_match.match_section(R4)
    assert sec.tables[0][1]["gain"].iloc[0] == pytest.approx(run_cli_rows["summary"][0]["gain"])
    assert sec.figures and "Against 'ceiling'" in " ".join(sec.text)
    assert report_match.shipped_match(load_rules("standard")) is None     # another preset's name: not shipped
