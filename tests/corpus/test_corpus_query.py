"""Corpora solved within a budget: intervals, the within query (every bid decided), studies adopting its query."""

import numpy as np
import pytest

from binokel_sim.corpus.builder import build_corpus
from binokel_sim.corpus.reader import load_corpus
from binokel_sim.corpus.summary import headline
from binokel_sim.errors import InputError
from binokel_sim.studies.deals import study_deals
from binokel_sim.runner import Scale
from clitools import assert_one_line_error


def test_budgeted_corpus_holds_intervals_equal_to_a_fresh_budgeted_study(tmp_path):
    from binokel_sim.studies.rows import study_rows

    budget = 30_000  # tiny: 48-card deals stay unresolved, so the intervals are real
    m = build_corpus("standard-48", 3, tmp_path, seed=2, chunk_size=2, solve_budget=budget)
    c = load_corpus(tmp_path, "standard-48")
    df = c.df
    assert m["solve_budget"] == budget and not m["durch_check"] and not df["durch_makeable"].any()
    assert (df["points_lo"] <= df["points_hi"]).all() and (df["base_points_lo"] <= df["base_points_hi"]).all()
    unresolved = ~(df["points_exact"] & df["base_points_exact"])
    assert unresolved.any() and m["unresolved_fraction"] == pytest.approx(unresolved.mean())
    assert ((df["points_lo"] == df["points_hi"]) == df["points_exact"]).all()
    fresh = study_deals("standard-48", 3, seed=2, scale=Scale(workers=1), solve_budget=budget)
    read, src = study_rows("standard-48", None, seed=2, corpus=tmp_path, solve_budget=budget)
    assert src.from_corpus == 3
    for col in ("value", "value_hi", "result", "result_hi", "base_result", "base_result_hi", "tapp_value_lo",
                "tapp_value_hi", "exact", "melds_tapp_value"):
        assert read[col].tolist() == fresh[col].tolist(), col
    # Headline figures are ranges: the study's bounds, open deals counted failed / made; Durch not checked.
    h = headline(c)
    trump = df["code"].to_numpy() < 4
    assert h["soloist_total_hi"]["mean"] == pytest.approx(df["points_hi"].to_numpy()[trump].mean())
    assert h["tapp_value"]["mean"] == pytest.approx(fresh["tapp_value_lo"].mean())
    assert h["tapp_value_hi"]["mean"] == pytest.approx(fresh["tapp_value_hi"].mean())
    assert h["durch_makeable"] is None and all(r["counted_made"]["p_make"] >= r["p_make"] for r in h["make"])
    # No budget asked for: the corpus's own is taken, for the deals beyond it too.
    more, src = study_rows("standard-48", 4, seed=2, corpus=tmp_path)
    assert src.solve_budget == budget and (src.from_corpus, src.fresh) == (3, 1)
    last = study_deals("standard-48", 4, seed=2, scale=Scale(workers=1), solve_budget=budget, start=3)
    assert more["value_hi"].tolist()[3:] == last["value_hi"].tolist()
    # Another budget is another corpus: named, it is refused; extending keeps the budget.
    with pytest.raises(InputError, match="solve_budget"):
        study_rows("standard-48", None, seed=2, corpus=tmp_path, solve_budget=2 * budget)
    with pytest.raises(InputError, match="--solve-budget 30000"):
        build_corpus("standard-48", 4, tmp_path, seed=2)


@pytest.mark.slow
def test_within_corpus_keeps_every_total_within_ten_points_and_studies_adopt_its_query(tmp_path):
    from binokel_sim.studies.rows import study_rows
    from binokel_sim.evaluation.ladder import bid_table
    from binokel_sim.studies.deals import parts_of
    from binokel_sim.rules import load_rules

    # 12-trick deals with a budget given (the query applies there too): quick, and the tiny budget
    # leaves totals open after the 10-point phase, which the budget never cuts short.
    budget = 2_000
    m = build_corpus("standard", 4, tmp_path, seed=5, chunk_size=2, solve_budget=budget, solve_within=10)
    assert m["solve_within"] == 10 and m["solve_budget"] == budget and not m["durch_check"]
    df = load_corpus(tmp_path, "standard").df
    for pre in ("", "base_"):
        width = df[f"{pre}points_hi"] - df[f"{pre}points_lo"]
        assert ((0 <= width) & (width <= 9)).all() and ((width == 0) == df[f"{pre}points_exact"]).all()
        # the grid lies where the total crosses a bid: every bid decided (no multiple of 10 in (lo, hi])
        assert (df[f"{pre}points_lo"] // 10 == df[f"{pre}points_hi"] // 10).all()
    assert not (df["points_exact"] & df["base_points_exact"]).all()
    exact = study_deals("standard", 4, seed=5, scale=Scale(workers=1))
    assert (df["points_lo"] <= exact["value"]).all() and (exact["value"] <= df["points_hi"]).all()
    # corpus info: point figures whose residual covers the exact answer; every bid decided
    h = headline(load_corpus(tmp_path, "standard"))
    assert h["mode"] == "point" and 0 < h["tapp_value"]["residual"] <= 9
    assert abs(h["tapp_value"]["mean"] - exact["tapp_value"].mean()) <= h["tapp_value"]["residual"]
    trump = exact["code"].to_numpy() < 4
    assert abs(h["soloist_total"]["mean"] - exact["value"].to_numpy()[trump].mean()) <= h["soloist_total"]["residual"]
    want = bid_table(load_rules("standard"), parts_of(exact), np.array([r["bid"] for r in h["make"]]))
    for row, p in zip(h["make"], want["p_make"]):
        assert row["residual"] == 0 and row["p_make"] == pytest.approx(p), row
    # A study without a budget of its own reads the corpus and solves the deals beyond it by the same query.
    more, src = study_rows("standard", 5, seed=5, corpus=tmp_path)
    assert (src.solve_within, src.solve_budget, src.from_corpus, src.fresh) == (10, budget, 4, 1)
    last = study_deals("standard", 5, seed=5, scale=Scale(workers=1), solve_budget=budget, solve_within=10, start=4)
    assert more["value_hi"].tolist()[4:] == last["value_hi"].tolist()
    with pytest.raises(InputError, match="--within 10, not none"):
        build_corpus("standard", 6, tmp_path, seed=5, solve_budget=budget)


def test_within_needs_a_budgeted_preset(tmp_path, capsys):
    assert_one_line_error(capsys, "corpus", "build", "--rules", "standard", "--deals", "2", "--out",
                          str(tmp_path / "c"), "--within", "10", contains="--within: applies to budgeted")
    assert not (tmp_path / "c").exists()
    assert_one_line_error(capsys, "corpus", "build", "--rules", "wuerttemberg", "--deals", "2", "--out",
                          str(tmp_path / "c"), "--within", "10", "--solve-budget", "5x", contains="budget")
