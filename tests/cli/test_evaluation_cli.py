"""``binokel bid``, ``odds tapp`` and ``odds bids`` end to end, with the toy double-dummy back end."""


import numpy as np
import pandas as pd
import pytest

import binokel_sim.play.dd as play_dd
from clitools import assert_one_line_error, run_cli, run_json
from test_evaluation import HAND, toy_points, toy_specials


@pytest.fixture
def toy_dd(monkeypatch):
    # The factories take the play-rules word, which the toy back end does not read.
    monkeypatch.setattr(play_dd, "default_solver", lambda rule=0: toy_points)
    monkeypatch.setattr(play_dd, "default_specials", lambda rule=0: toy_specials())


@pytest.mark.slow
def test_bid_json_report(capsys, toy_dd, tmp_path):
    out = tmp_path / "bids.csv"
    rep = run_json(capsys, "bid", HAND, "--samples", "30", "--seed", "4", "--policy", "sampled", "--inner", "2",
                   "--top-k", "2", "--out", str(out), "-q")
    assert rep["samples"] == 30 and rep["seed"] == 4 and rep["rules"] == "standard" and rep["policy"] == "sampled"
    p = [r["p_make"] for r in rep["bids"]]
    assert all(a >= b for a, b in zip(p, p[1:]))
    assert rep["bids"][0]["bid"] == 150 and all(r["n"] == 30 for r in rep["bids"])
    pos = [r["bid"] for r in rep["bids"] if r["expected_score"] > 0]
    assert rep["ceiling_bid"] == max(pos)
    safe = [r["bid"] for r in rep["bids"] if r["p_make"] >= 0.8]
    assert rep["safe_bid"] == (max(safe) if safe else None)
    assert {"mean", "se", "n"} <= set(rep["tapp_value"]) and rep["tapp_value"]["n"] == 30
    assert sum(c["share"] for c in rep["contracts"]) == pytest.approx(1.0)
    first, header = out.read_text().splitlines()[:2]
    assert first.startswith("# provenance: ") and header.startswith("bid,n,p_make,p_make_se,p_make_lo,p_make_hi")
    assert rep["tier"] == "checked"
    side = rep["instant"]  # the instant tier's answer rides along, with the tiers' test at the deciding bids
    assert side["n"] >= 100 and isinstance(side["differ_at"], list) and isinstance(side["agree"], bool)
    assert side["line"].startswith("tiers agree" if side["agree"] else "tiers differ")


@pytest.mark.slow
def test_bid_readable_table(capsys, toy_dd):
    code, out, err = run_cli(capsys, "bid", HAND, "--samples", "10", "--policy", "heuristic")
    assert code == 0
    assert "ceiling bid" in out and "safe bid (P(make) >= 80%)" in out and "Tapp value" in out
    assert "n = 10 deals, seed 1" in out
    assert "going out after the Tapp decided by the policy's own estimate" in out
    assert "a surrender counts as not made" in out


def test_bid_unwritable_out_fails_before_sampling(capsys, tmp_path, monkeypatch):
    import binokel_sim.evaluation.hand as hand

    monkeypatch.setattr(hand, "evaluate_hand", lambda *a, **k: pytest.fail("sampled before checking --out"))
    (tmp_path / "f").write_text("a file, not a folder")
    assert_one_line_error(capsys, "bid", HAND, "--samples", "5", "--out", str(tmp_path / "f" / "bids.csv"),
                          contains="--out")


def test_bid_instant_tier_is_the_default(capsys):
    rep = run_json(capsys, "bid", HAND)
    assert rep["tier"] == "instant" and rep["rules"] == "standard" and rep["n"] >= 100
    p = [r["p_make"] for r in rep["bids"]]
    assert all(a >= b for a, b in zip(p, p[1:])) and all(r["n"] == rep["n"] for r in rep["bids"])
    assert rep["ceiling_bid"] == max(r["bid"] for r in rep["bids"] if r["expected_score"] > 0)
    assert rep["safe_bid"] == max(r["bid"] for r in rep["bids"] if r["p_make"] >= 0.8)
    assert rep["safe_bid"] <= rep["ceiling_bid"] and rep["order_note"] is None


def test_bid_instant_tier_at_48_cards_prints_the_proven_bounds(capsys):
    hand = "EA EA E10 EK EO EU GA G10 HA H10 SA S10 SK SO SU"
    rep = run_json(capsys, "bid", hand, "--rules", "standard-48")
    assert rep["tier"] == "instant" and rep["open_share"] > 0.9
    assert all(r["p_make_lower"] <= r["p_make"] <= r["p_make_upper"] for r in rep["bids"])
    code, text, _ = run_cli(capsys, "bid", hand, "--rules", "standard-48")
    assert code == 0 and "P(make) at bounds" in text and "of the corpus totals are open" in text
    assert "at the proven bounds: ceiling" in text


def test_bid_instant_without_a_model_says_so(capsys, monkeypatch, tmp_path):
    import binokel_sim.evaluation.instant as instant

    monkeypatch.setattr(instant, "MODEL_FILE", tmp_path / "none.json")
    assert_one_line_error(capsys, "bid", HAND, contains="no instant bid model fitted for rules 'standard'")


def test_fit_instant_reproduces_the_shipped_model(capsys, tmp_path):
    from binokel_sim.evaluation.instant import load_instant
    from binokel_sim.rules import load_rules

    rep = run_json(capsys, "fit", "instant", "--rules", "standard", "--out", str(tmp_path / "c.csv"))
    terms = pd.read_csv(tmp_path / "c.csv", comment="#")  # the first line is the provenance
    assert terms["term"].tolist()[:2] == ["intercept", "melds"] and terms["term"].iloc[-1] == "seat 2"
    m = load_instant(load_rules("standard"))
    assert rep["rules_hash"] == m.rules_hash and rep["written"] is None
    # The shipped model was fitted on a prefix of the growing corpus: at most as many deals.
    assert 100 <= m.provenance["n_train"] <= rep["n_train"]


@pytest.mark.slow
def test_bid_stops_early_at_se(capsys, toy_dd):
    rep = run_json(capsys, "bid", HAND, "--samples", "1000", "--policy", "heuristic", "--se", "0.03", "-q")
    assert rep["samples_requested"] == 1000 and rep["se_target"] == 0.03
    assert rep["samples"] < 1000 and rep["samples"] % 100 == 0
    assert all(r["n"] == rep["samples"] for r in rep["bids"])
    assert rep["surrender_decided_by"].startswith("the policy's own estimate")


@pytest.mark.parametrize("args,contains", [
    (["EA EA"], "hand: 2 cards"),
    (["EA EA EA E10 EK EO EU GA G10 HA H10 SA"], "at most twice"),
    ([HAND, "--confidence", "1.5"], "--confidence"),
    ([HAND, "--seat", "3"], "--seat"),
    ([HAND, "--out", "x.xlsx"], "cannot write a table"),
    ([HAND, "--policy", "psychic"], "psychic"),
    ([HAND, "--samples", "0"], "--samples"),
    ([HAND.replace("S10", "S7")], "40-card deck"),
    ([HAND, "--confidence", "0"], "--confidence"),
    ([HAND, "--samples", "4", "--se", "0"], "--se: must be positive"),
    ([HAND, "--se", "0.02"], "--se: stops the checked tier early"),
    ([HAND, "--samples", "4", "--se", "-0.1"], "--se: must be positive"),
    ([HAND, "--checkpoint", "ck"], "do not apply"),
])
def test_bid_bad_input_one_line_error(capsys, args, contains):
    assert_one_line_error(capsys, "bid", *args, contains=contains)


def test_odds_tapp_melds_only_and_dd(capsys, toy_dd, tmp_path):
    rep = run_json(capsys, "odds", "tapp", "--melds-only", "--deals", "40", "--seed", "3")
    assert rep["overall"]["n"] == 40 and "dd_mean" not in rep["overall"]
    for feature in ("melds", "aces", "tens", "longest"):
        assert sum(r["n"] for r in rep["by_class"] if r["feature"] == feature) == 40
    assert sum(r["melds_share"] for r in rep["distribution"]) == pytest.approx(1.0)
    chart = tmp_path / "charts" / "tapp_value.png"
    rep = run_json(capsys, "odds", "tapp", "--deals", "12", "--charts", str(tmp_path / "charts"), "-q")
    assert rep["double_dummy"] and rep["overall"]["n"] == 12 and np.isfinite(rep["overall"]["dd_mean"])
    assert chart.read_bytes()[:4] == b"\x89PNG"


def test_odds_bids_table(capsys, toy_dd):
    rep = run_json(capsys, "odds", "bids", "--deals", "36", "--min-n", "5", "--seed", "2")
    rows = rep["table"]
    assert rows[-1]["melds"] == "all" and rows[-1]["n"] == 36
    assert sum(r["n"] for r in rows[:-1]) <= 36
    for r in rows:
        if r["safe_bid"] is not None:
            assert r["safe_p_make"] >= 0.8
    assert_one_line_error(capsys, "odds", "bids", "--melds-only", contains="--melds-only")
    assert_one_line_error(capsys, "odds", "tapp", "--chart-format", "gif", contains="gif")


def test_fit_formula_and_calibrate_commands(capsys, toy_dd, tmp_path):
    rep = run_json(capsys, "fit", "formula", "--deals", "24", "--seed", "5", "--out", str(tmp_path / "f.csv"), "-q")
    f = rep["formula"]
    assert set(f["coef"]) == {"melds", "aces", "tens", "trump_len"} and f["provenance"]["deals"] == 24
    assert f["provenance"]["command"].startswith("binokel fit formula --rules standard --deals 24")
    # Seed 5 matches no corpus: 24 fresh deals, split by deal index (6 test deals: round i // 3 mod 4 = 3).
    assert f["provenance"]["source"] == {"source": "fresh", "from_corpus": 0, "fresh": 24}
    assert 0 < f["provenance"]["n_train"] <= 18 and 0 < f["provenance"]["n_test"] <= 6
    table = pd.read_csv(tmp_path / "f.csv", comment="#")  # first line: the provenance
    assert table["term"].tolist() == ["intercept", "melds", "aces", "tens", "trump_len"]
    rep = run_json(capsys, "calibrate", "--tier", "formula", "--deals", "30", "--seed", "2", "--charts",
                   str(tmp_path / "ch"), "-q")
    assert rep["rules"] == "standard" and rep["deals"] == 30 and sum(r["n"] for r in rep["table"]) == 30
    assert (tmp_path / "ch" / "calibration.png").read_bytes()[:4] == b"\x89PNG"
