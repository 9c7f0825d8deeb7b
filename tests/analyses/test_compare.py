"""binokel compare: figures that agree with their sources, resumable chunks, the CLI."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from binokel_sim.analyses.compare import compare, durch_chunk, wide
from binokel_sim.analyses.meld_odds import meld_odds_table
from binokel_sim.odds.exact import exact_odds
from binokel_sim.rules import load_rules
from binokel_sim.runner import Checkpoint, Job, Scale
from clitools import assert_one_line_error, run_cli

STD, KREUZ = load_rules("standard"), load_rules("kreuz")


@pytest.fixture(scope="module")
def table():
    return compare([STD, KREUZ], deals=3000, played=1, seed=3, scale=Scale(workers=2))


@pytest.mark.slow
def test_meld_figures_come_from_the_meld_odds_study(table):
    odds = meld_odds_table(STD, 3000, 3, scale=Scale(workers=1), scopes=("hand", "kept"))
    get = lambda scope, ev: odds[(odds.scope == scope) & (odds.event == ev)].iloc[0]  # noqa: E731
    t = table[table.rules == "standard"].set_index("figure")
    assert t.loc["binokel in hand", "value"] == get("hand", "binokel").value
    assert t.loc["binokel in hand", "n"] == 9000
    tapp = get("kept", "meld_mean_best").value - get("hand", "meld_mean_best").value
    assert t.loc["Tapp meld gain", "value"] == pytest.approx(tapp)
    # Statistical check against the exact probability (fixed seed): within 4 standard errors.
    exact = float(exact_odds(STD, STD.layout.hand_size).events["binokel"])
    p = t.loc["binokel in hand"]
    assert abs(p["value"] - exact) < 4 * p["se"]


def test_rule_sets_differ_where_they_should(table):
    w = wide(table, with_se=False).set_index("figure")
    # Nine cards at four players against twelve at three: fewer melds in a dealt hand.
    assert w.loc["mean best melds, hand", "kreuz"] < w.loc["mean best melds, hand", "standard"]
    for name in ("standard", "kreuz"):
        rates = [w.loc[f"make rate at {b}", name] for b in (150, 200, 250, 300)]
        assert rates == sorted(rates, reverse=True)
        assert w.loc["contract bid", name] >= 150
    assert set(table.columns) == {"rules", "study", "figure", "value", "se", "lo", "hi", "n", "n2"}
    assert table["n2"].isna().all()  # no two-phase corpus among these rules
    rates = table[table["figure"].str.contains("rate|Durch|in hand")]
    assert len(rates) and (rates.lo >= 0).all() and (rates.hi <= 1).all() and (rates.hi > rates.lo).all()
    assert (table[table.study == "play"]["n"] <= 1).all()
    assert table[table.n >= 2][["lo", "hi"]].notna().all().all()  # an interval from two deals on


def test_durch_chunks_resume_and_match_the_reference(tmp_path):
    job = Job("compare-durch", durch_chunk, n=4500, seed=2, rules=STD, chunk_size=2000)
    whole = np.concatenate(job.run(Scale(workers=1)))
    job.run(Scale(workers=2, checkpoint=tmp_path))
    ck = Checkpoint(tmp_path, job)
    ck.path(job.chunks()[1]).unlink()
    resumed = np.concatenate(job.run(Scale(workers=2, checkpoint=tmp_path)))
    assert np.array_equal(whole, resumed)
    # A sure Durch is rare but not impossible.
    assert 0 <= whole.mean() < 0.01


@pytest.mark.slow
def test_compare_cli_writes_tables_and_charts(tmp_path, capsys):
    code, out, err = run_cli(capsys, "compare", "standard", "kreuz", "--deals", "2000", "--played", "0",
                             "--out", str(tmp_path / "c.json"), "--charts", str(tmp_path / "ch"), "--quiet",
                             "--checkpoint", str(tmp_path / "ck"))
    assert code == 0, err
    rows = json.loads((tmp_path / "c.json").read_text())["rows"]
    assert {r["rules"] for r in rows} == {"standard", "kreuz"}
    assert sorted(p.name for p in (tmp_path / "ch").iterdir()) == ["make_rates.png", "mean_melds.png",
                                                                   "meld_rates.png"]
    assert "binokel in hand" in out and "±" not in out and "n=" in out
    again = run_cli(capsys, "compare", "standard", "kreuz", "--deals", "2000", "--played", "0", "--json",
                    "--checkpoint", str(tmp_path / "ck"))
    assert again[0] == 0
    got = pd.DataFrame(json.loads(again[1])["rows"])
    assert np.allclose(got["value"], pd.DataFrame(rows)["value"], equal_nan=True)


def test_compare_cli_errors(capsys):
    assert_one_line_error(capsys, "compare", "standard", "nope", contains="nope")
    assert_one_line_error(capsys, "compare", "standard", "standard", "--played", "0", contains="twice")
    assert_one_line_error(capsys, "compare", "--deals", "0", contains="--deals")
    assert_one_line_error(capsys, "compare", "standard", "--out", "x.xlsx", contains="x.xlsx")


def test_played_48_card_deals_within_a_budget_are_counted_with_ranges():
    t = compare([load_rules("standard-48")], deals=300, played=3, seed=1, solve_budget=20_000,
                scale=Scale(workers=1)).set_index("figure")
    assert t.attrs["solve_budget"] == 20_000
    # The budget binds at 15 tricks: open deals are kept (n = 3 everywhere), never dropped.
    assert t.loc["unresolved deals (solve budget)", "n"] == 3 and t.loc["unresolved deals (solve budget)", "value"] > 0
    assert t.loc["soloist score per deal", "n"] == 3
    for b in (150, 200, 250, 300):
        lo = t.loc[f"make rate at {b}, unresolved as failed", "value"]
        hi = t.loc[f"make rate at {b}, unresolved as made", "value"]
        assert lo <= t.loc[f"make rate at {b}", "value"] <= hi
    assert t.loc["makeable bid: bias bound (mean range width)", "value"] >= 0


@pytest.mark.slow
def test_default_answers_from_the_corpus_one_interval_format_n_in_every_row():
    # No --played: the double-dummy figures come from the shipped corpus (thousands of deals), not 8 simulated.
    from binokel_sim.corpus.reader import find_corpus

    budgeted = ["standard-48", "kreuz-48"]
    t = compare([STD] + [load_rules(b) for b in budgeted], deals=500, seed=2, scale=Scale(workers=1))
    assert t.attrs["played"] == 0 and not (t.study == "play").any()
    c = t[(t.study == "corpus") & (t.rules == "standard")].set_index("figure")
    assert c.loc["make rate at 200, any hand (corpus)", "n"] == 20_000
    assert 0.5 < c.loc["make rate at 200, any hand (corpus)", "value"] < 0.9
    # A budgeted corpus: with phase 2 shipped, point figures carrying n1 and n2; without, each figure at its
    # intervals' two ends, never a lower bound passed off as the value (which each preset is: its manifest).
    for b in budgeted:
        c48 = t[(t.study == "corpus") & (t.rules == b)].set_index("figure")
        tapp = "Tapp value (double dummy), any hand (corpus)"
        if (find_corpus(load_rules(b)) / "phase2" / "manifest.json").is_file():
            assert c48.loc[tapp, "n"] == 1000 and 0 < c48.loc[tapp, "n2"] < 1000
            assert c48.loc[tapp, "lo"] < c48.loc[tapp, "value"] < c48.loc[tapp, "hi"]
        else:
            assert c48.loc[f"{tapp}, lower bound", "value"] < c48.loc[f"{tapp}, upper bound", "value"]
            assert not c48.index.str.contains("safe bid").any()  # intervals of totals: no single safe bid
    w = wide(t)
    cells = w.drop(columns="figure").to_numpy().ravel()
    n = r"(n=\d+|n1=\d+ n2=\d+)"  # one sample, or a two-phase figure's both phases
    pattern = rf"^-?\d+\.\d+ \[-?\d+\.\d+, -?\d+\.\d+\] {n}$"
    bid = rf"^\d+0 \[\d+0, \d+0\] {n}$"  # a safe bid or ceiling: whole bids, the bids it cannot tell apart
    assert all(c == "-" or __import__("re").match(pattern, c) or __import__("re").match(bid, c) for c in cells), cells
    # The safe bid and the ceiling by meld class (exact corpus only): hand-checked against the bid table.
    from binokel_sim.analyses.bid_levels import class_table
    from binokel_sim.corpus.reader import find_corpus, load_corpus

    ref = class_table(STD, load_corpus(find_corpus(STD), STD).df).set_index(["melds", "aces"])
    for m in ("0-50", "60-110", "120+"):
        row = c.loc[f"safe bid, meld points {m} (corpus)"]
        r = ref.loc[(m, "all")]
        assert (row["value"], row["lo"], row["hi"], row["n"]) == (r.safe_bid, r.safe_bid_lo, r.safe_bid_hi, r.n)
        assert row["lo"] <= row["value"] <= row["hi"]
    assert c.loc["safe bid, any hand (corpus)", "value"] < c.loc["ceiling bid, any hand (corpus)", "value"]


def test_bid_interval_is_the_bids_the_sampling_error_cannot_tell_apart():
    from binokel_sim.analyses.bid_levels import levels
    from binokel_sim.corpus.reader import find_corpus, load_corpus
    from binokel_sim.evaluation.ladder import bid_table
    from binokel_sim.studies.deals import parts_of

    g = load_corpus(find_corpus(STD), STD).df.head(300)
    lv = levels(STD, g, 0.8)
    t = bid_table(STD, parts_of(g)).set_index("bid")
    lo, hi, safe = lv.picks.safe_bid_lo, lv.picks.safe_bid_hi, lv.picks.safe_bid
    assert lo <= safe <= hi and lo < hi  # 300 deals: a P(make) SE of about 0.02-0.03, a few bid steps
    # At the low end the lower 95 % bound still clears 0.8; one step above the high end not even the upper one.
    assert t.loc[lo, "p_make"] - 1.96 * t.loc[lo, "p_make_se"] >= 0.8
    up = t.loc[hi + 10]
    assert up["p_make"] + 1.96 * up["p_make_se"] < 0.8
    assert lv.picks.ceiling_bid_lo <= lv.picks.ceiling_bid <= lv.picks.ceiling_bid_hi
