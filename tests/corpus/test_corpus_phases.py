"""A corpus in two phases: phase 2 built with phase 1's settings, checked deal by deal, joined into point figures.

The small corpora here are 40-card ``standard`` deals solved within 20 000 nodes (phase 1: every total an
interval) and within 10 points (phase 2: exact at this size), so each build takes about a second.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from binokel_sim.corpus.builder import build_corpus
from binokel_sim.corpus.phases import PHASE2, build_phase2, join_phases, load_phases, two_phase_figures
from binokel_sim.corpus.reader import Corpus, load_corpus
from binokel_sim.corpus.summary import headline
from binokel_sim.errors import InputError
from binokel_sim.studies.deals import row_bounds
from binokel_sim.rules import load_rules
from binokel_sim.twophase import regression_mean, stratified_rate
from clitools import assert_one_line_error, run_cli

STD = load_rules("standard")
pytestmark = pytest.mark.slow  # each module build solves a dozen deals (about 6 s in all)


@pytest.fixture(scope="module")
def two_phase(tmp_path_factory):
    d = tmp_path_factory.mktemp("two-phase") / "c"
    build_corpus(STD, 16, d, seed=3, chunk_size=8, solve_budget=20_000)
    build_phase2(d, 12, chunk_size=4)
    return d


def test_phase2_holds_phase1_deals_decided(two_phase):
    ph = load_phases(load_corpus(two_phase))
    assert (ph.n1, ph.n2) == (16, 12)
    assert not load_corpus(two_phase).df["points_exact"].all()  # phase 1: bounds
    # Phase 2 decides every bid and stops there: each total in a cell of the 10-point grid where the total
    # (card points + melds) crosses a multiple of 10, the cell holding the exact total an exact build proves.
    exact = build_corpus(STD, 12, two_phase.parent / "exact", seed=3, durch=False)
    assert exact["deals"] == 12
    ref = load_corpus(two_phase.parent / "exact").df
    p2 = ph.phase2.df
    for col in ("discard", "contract"):
        assert p2[col].tolist() == ref[col].tolist()
    for pre in ("", "base_"):
        lo, hi, v = (p2[f"{pre}points_lo"].to_numpy(), p2[f"{pre}points_hi"].to_numpy(),
                     ref[f"{pre}points_lo"].to_numpy())
        assert ((lo <= v) & (v <= hi) & (hi - lo < 10)).all()
    total_lo = p2["points_lo"].to_numpy() + p2["melds_kept"].to_numpy()
    assert ((total_lo // 10 == (p2["points_hi"].to_numpy() + p2["melds_kept"].to_numpy()) // 10)
            | (p2["code"].to_numpy() >= 4)).all()  # every bid decided (a trump contract's total)
    assert not p2["points_exact"].all()  # no exact phase after the bids are decided
    m2 = json.loads((two_phase / PHASE2 / "manifest.json").read_text())
    assert (m2["seed"], m2["solve_within"], m2["solve_budget"], m2["chunk_size"], m2["deals"]) == (3, 10, 1, 4, 12)


def test_figures_are_the_estimators_on_the_rows(two_phase):
    c = load_corpus(two_phase)
    ph = load_phases(c)
    f = two_phase_figures(ph.rows(), STD, (150, 250))
    lo1, hi1 = row_bounds(c.df, "tapp_value")
    lo2, hi2 = row_bounds(ph.phase2.df, "tapp_value")
    assert (hi2 - lo2 < 20).all()  # each total within 10 points in phase 2, the difference within 20
    e = regression_mean((lo1 + hi1) / 2, (lo2 + hi2) / 2)
    assert (f.tapp_value.estimate, f.tapp_value.se) == pytest.approx((e.estimate, e.se))
    assert (f.tapp_value.n1, f.tapp_value.n2) == (16, 12)
    # P(make) at 250: phase 1 decides a deal whose interval lies on one side of 250 (a trump contract, a trick
    # and the total), unless the soloist goes out after the Tapp (his own estimate: not the total).
    from binokel_sim.evaluation.ladder import outcomes
    from binokel_sim.studies.deals import parts_of

    def made(df, total, took):
        out = outcomes(STD, parts_of(df), np.array([250]))[2][:, 0]
        return (df["code"].to_numpy() < 4) & took & (total >= 250) & ~out

    v_lo, v_hi = row_bounds(c.df, "value")
    took = c.df["took"].to_numpy(bool)
    # At the upper bound a deal whose trick is open (no trick at the lower bound, points above) may take one.
    made_lo, made_hi = made(c.df, v_lo, took), made(c.df, v_hi, took | (v_hi > 0))
    decided = np.where(made_lo, 1, np.where(~made_hi, 0, -1))
    p2 = ph.phase2.df
    r = stratified_rate(decided, made(p2, p2["points_lo"].to_numpy(), p2["took"].to_numpy(bool)))
    assert f.bids[1].bid == 250 and f.bids[1].p_make.estimate == pytest.approx(r.estimate)
    assert f.bids[1].p_make.se == pytest.approx(r.se)


def test_corpus_info_and_compare_print_point_figures(two_phase, capsys):
    code, out, _ = run_cli(capsys, "corpus", "info", str(two_phase))
    assert code == 0
    assert "Tapp value (paired):" in out and "(n1 16, n2 12;" in out and "bounds only" not in out
    assert "bid 150: P(make) " in out and "E[score]" in out
    h = headline(load_corpus(two_phase))
    assert h["mode"] == "two-phase" and h["n2"] == 12 and len(h["make"]) == 26  # every bid 150..400


def test_without_phase2_the_bounds_say_so_and_name_the_command(two_phase, tmp_path, capsys):
    d = tmp_path / "p1"
    shutil.copytree(two_phase, d, ignore=shutil.ignore_patterns(PHASE2))
    code, out, _ = run_cli(capsys, "corpus", "info", str(d))
    assert code == 0
    flat = " ".join(out.split())  # lines wrap at 100 columns
    assert f"bounds only: `binokel corpus phase2 {d} --deals 400` adds phase 2" in flat
    assert "open deals counted as failed .. as made" in flat


def test_phase2_of_other_deals_is_refused(two_phase, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(two_phase, d, ignore=shutil.ignore_patterns(PHASE2))
    build_corpus(STD, 4, d / PHASE2, seed=4, chunk_size=4, solve_budget=200_000_000, solve_within=10)
    with pytest.raises(InputError, match="its phase 2 .* was built with seed 4, phase 1 with 3: other deals"):
        load_phases(load_corpus(d))
    shutil.rmtree(d / PHASE2)  # another preset's deals under the same seed
    build_corpus(load_rules("four-solo"), 4, d / PHASE2, seed=3, chunk_size=4, solve_budget=200_000_000,
                 solve_within=10)
    with pytest.raises(InputError, match="its phase 2 .* was built with rules_hash"):
        load_phases(load_corpus(d))


def test_rows_that_disagree_with_phase1_are_refused(two_phase):
    c = load_corpus(two_phase)
    p2 = load_corpus(two_phase / PHASE2)
    df = p2.df.copy()
    df.loc[3, "points_lo"] = df.loc[3, "points_hi"] = int(c.df.loc[3, "points_hi"]) + 20
    with pytest.raises(InputError, match="proves deal 3's contract total .* one of the solves is wrong"):
        join_phases(c, Corpus(p2.path, p2.manifest, df))
    # A gap in phase 1 (a killed build's partial chunk): both phases end before it.
    gap = c.df[c.df["deal"] != 5].reset_index(drop=True)
    ph = join_phases(Corpus(c.path, c.manifest, gap), p2)
    assert (ph.n1, ph.n2) == (5, 5)
    df = p2.df.copy()
    df.loc[5, "discard"] = df.loc[4, "discard"]
    with pytest.raises(InputError, match="differs from phase 1 at deal 5 \\(discard\\)"):
        join_phases(c, Corpus(p2.path, p2.manifest, df))


def test_phase2_build_refusals(two_phase, tmp_path, capsys):
    assert_one_line_error(capsys, "corpus", "phase2", str(two_phase), "--deals", "17",
                          contains="phase 2 takes deals of phase 1, which holds 16")
    exact = tmp_path / "exact"
    build_corpus(STD, 2, exact, seed=3)
    assert_one_line_error(capsys, "corpus", "phase2", str(exact), "--deals", "2",
                          contains="joins a corpus of bounds within a node budget")


def test_phase2_resumes_and_a_finished_one_is_not_rewritten(two_phase, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(two_phase, d)
    before = (d / PHASE2 / "manifest.json").read_bytes()
    build_phase2(d, 12)
    assert (d / PHASE2 / "manifest.json").read_bytes() == before
    m = build_phase2(d, 14)  # extended with its own settings (chunk size 4, within 10)
    assert m["deals"] == 14 and m["chunk_size"] == 4 and load_phases(load_corpus(d)).n2 == 14


def test_phase1_is_extended_only_by_a_solver_that_proves_its_bounds(two_phase, tmp_path, monkeypatch):
    import binokel_sim.corpus.builder as builder
    from binokel_sim.play.dd import Record

    d = tmp_path / "c"
    shutil.copytree(two_phase, d)
    # Another version that proves the same bounds (a comment changed): the deals solved again agree, it extends.
    monkeypatch.setattr(builder, "solver_version", lambda: "src-000000000000")
    assert build_corpus(STD, 17, d, seed=3, solve_budget=20_000)["deals"] == 17
    # One whose search ends elsewhere within the budget: other bounds, refused before any work.
    real = Record.hi_of
    monkeypatch.setattr(builder, "solver_version", lambda: "src-111111111111")
    monkeypatch.setattr(Record, "hi_of", lambda self, v: real(self, v) + 1)
    with pytest.raises(InputError, match="proves other bounds at that budget"):
        build_corpus(STD, 18, d, seed=3, solve_budget=20_000)
    assert load_corpus(d).n == 17
    monkeypatch.undo()
    build_phase2(d, 14)  # phase 2 (within a bid step) is not bound to one solver


def test_studies_and_the_report_read_both_phases(two_phase):
    from binokel_sim.analyses.bid_levels import bid_levels
    from binokel_sim.analyses.report_play import bid_section, tapp_section
    from binokel_sim.analyses.tapp_value import summary, two_phase_tapp
    from binokel_sim.studies.rows import phase2_note, study_phases, study_rows
    from binokel_sim.stats import pm

    study, src = study_rows(STD, None, seed=3, corpus=two_phase)
    phases = study_phases(src)
    assert (phases.n1, phases.n2) == (16, 12) and "first 12" in phase2_note(src, phases)
    e = two_phase_tapp(phases)
    o = summary(study, phases).iloc[0]
    assert (o["dd_mean"], o["dd_se"], o["n2"]) == (e.estimate, e.se, 12)
    s = tapp_section(STD, study, src, None, phases).section
    assert f"**Headline: the Tapp is worth {pm(e.estimate, e.se)} points** (double-dummy)" in " ".join(s.text)
    b = bid_section(STD, study, src, phases).section
    assert any("from both phases" in t for t in b.text) and b.figures
    t = bid_levels(STD, study, min_n=2, phases=phases)
    assert t["n2"].iloc[-1] == 12  # the 'all' row: fewer than 20 decided deals, so no figures
    assert t[["ceiling_bid", "safe_bid"]].iloc[-1].isna().all() if "ceiling_bid" in t else True
    # Fresh deals beside the corpus have no phase-1 rows: no two-phase figures, the plain rows.
    _, fresh = study_rows(STD, 18, seed=3, corpus=two_phase, solve_budget=20_000)
    assert study_phases(fresh) is None
