"""The corpus of solved deals: rows equal a fresh study, append/resume, validation, bad input."""

import json
import shutil

import numpy as np
import pandas as pd
import pytest

from binokel_sim.stats import wilson
from binokel_sim.cards import deck_types
from binokel_sim.corpus.builder import build_corpus
from binokel_sim.corpus.manifest import write_manifest
from binokel_sim.studies.rows import STUDY_COLUMNS
from binokel_sim.corpus.reader import find_corpus, load_corpus
from binokel_sim.corpus.summary import headline
from binokel_sim.errors import InputError
from binokel_sim.studies.deals import study_deals
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from clitools import assert_one_line_error, run_cli

PRESET, SEED, N = "four-solo", 5, 8
#: Columns that measure this run's timing, not the deal.
TIMING = ["seconds"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """N deals in one build (chunks of 3: two whole, one partial)."""
    d = tmp_path_factory.mktemp("whole")
    build_corpus(PRESET, N, d, seed=SEED, chunk_size=3)
    return d


def rows(folder):
    return load_corpus(folder, PRESET).df.drop(columns=TIMING)


@pytest.mark.slow
def test_rows_equal_a_fresh_study(whole):
    corpus = load_corpus(whole, PRESET).df
    fresh = study_deals(PRESET, N, seed=SEED, policy="heuristic", scale=Scale(workers=1))
    assert list(corpus["deal"]) == list(range(N))
    # The study columns the corpus keeps (a fresh study's interval columns are exact here: test_solve_budget).
    assert fresh["exact"].all()
    for col in STUDY_COLUMNS:
        a, b = corpus[col], fresh[col]
        if col.startswith("subjective"):
            assert [list(x) for x in a] == [list(x) for x in b], col
        else:
            assert a.tolist() == b.tolist(), col
    # Exact solves: the interval is a point; the Tapp value is the paired difference.
    assert (corpus["points_lo"] == corpus["value"]).all() and corpus["points_exact"].all()
    assert (corpus["tapp_value"] == corpus["result"] - corpus["base_result"]).all()


def test_hands_and_discard_are_consistent(whole):
    df = load_corpus(whole, PRESET).df
    digits = lambda col: np.array([[int(ch) for ch in s] for s in df[col]])  # noqa: E731
    hands = np.stack([digits(f"hand{s}") for s in range(4)], axis=1)
    tapp, disc = digits("tapp"), digits("discard")
    # 40 cards: two of each type but the sevens
    assert ((hands.sum(axis=1) + tapp) == np.bincount(deck_types(False), minlength=24)).all()
    assert (hands.sum(axis=2) == 9).all() and (tapp.sum(axis=1) == 4).all()
    assert (disc.sum(axis=1) == 4).all()
    mine = hands[np.arange(len(df)), df["soloist"].to_numpy()]
    assert (disc <= mine + tapp).all()


def test_append_and_resume_give_the_rows_of_one_run(whole, tmp_path):
    build_corpus(PRESET, 4, tmp_path, seed=SEED, chunk_size=3)  # chunk 1 partial: deal 3 only
    m = build_corpus(PRESET, N, tmp_path, seed=SEED)
    assert m["deals"] == N and [c["rows"] for c in m["chunks"]] == [3, 3, 2]
    assert len(m["builds"]) == 2
    pd.testing.assert_frame_equal(rows(tmp_path), rows(whole))


def _kill_at_deal_6(monkeypatch):
    """Make the builder's deal rows raise Ctrl-C from deal 6 on; returns the real function."""
    import binokel_sim.corpus.builder as builder

    real = builder.corpus_rows

    def dies_at_deal_6(rules, seed, policy, chunk, durch=True, solve_budget=None, solve_within=None):
        if chunk.start >= 6:
            raise KeyboardInterrupt
        return real(rules, seed, policy, chunk, durch, solve_budget, solve_within)

    monkeypatch.setattr(builder, "corpus_rows", dies_at_deal_6)
    return real


def test_a_killed_build_keeps_its_finished_chunks(whole, tmp_path, monkeypatch):
    import binokel_sim.corpus.builder as builder
    from binokel_sim.pool import Interrupted

    real = _kill_at_deal_6(monkeypatch)
    with pytest.raises(Interrupted):  # Ctrl-C in a worker: the run stops, the chunks stored so far stay
        build_corpus(PRESET, N, tmp_path, seed=SEED, chunk_size=3)
    assert load_corpus(tmp_path, PRESET).n == 6
    monkeypatch.setattr(builder, "corpus_rows", real)
    build_corpus(PRESET, N, tmp_path, seed=SEED)
    pd.testing.assert_frame_equal(rows(tmp_path), rows(whole))


def test_tasks_smaller_than_a_chunk_and_a_kill_inside_one(whole, tmp_path, monkeypatch):
    import binokel_sim.corpus.builder as builder
    from binokel_sim.pool import Interrupted

    # Chunks of 4 deals solved one deal per task: the same rows; a kill at deal 6 keeps deals 4-5 of the
    # chunk in flight (a partial chunk), and the next build completes it.
    monkeypatch.setattr(builder, "TASK_DEALS", 1)
    real = _kill_at_deal_6(monkeypatch)
    with pytest.raises(Interrupted):
        build_corpus(PRESET, N, tmp_path, seed=SEED, chunk_size=4, scale=Scale(workers=1))
    m = json.loads((tmp_path / "manifest.json").read_text())
    assert [(c["start"], c["stop"]) for c in m["chunks"]] == [(0, 4), (4, 6)]
    monkeypatch.setattr(builder, "corpus_rows", real)
    m = build_corpus(PRESET, N, tmp_path, seed=SEED, scale=Scale(workers=2))
    assert [c["rows"] for c in m["chunks"]] == [4, 4]
    pd.testing.assert_frame_equal(rows(tmp_path), rows(whole))


def test_other_rules_are_rejected(whole, tmp_path):
    with pytest.raises(InputError, match="holds rules 'four-solo'"):
        load_corpus(whole, "standard")
    # Same name, another meld table: another content hash.
    toml = tmp_path / "four-solo.toml"
    toml.write_text('inherits = "four-solo"\nname = "four-solo"\n[melds]\nbinokel = 50\n')
    with pytest.raises(InputError, match="not 'four-solo'"):
        load_corpus(whole, str(toml))
    with pytest.raises(InputError, match="holds rules"):
        build_corpus(str(toml), N, whole, seed=SEED)


def test_corrupt_chunk_is_named_and_repaired(whole, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(whole, d)
    p = d / "chunk-00001.parquet"
    p.write_bytes(p.read_bytes()[:100])
    with pytest.raises(InputError, match="chunk-00001.parquet is truncated or corrupt"):
        load_corpus(d, PRESET)
    part = load_corpus(d, PRESET, skip_bad=True)
    assert part.bad == ["chunk-00001.parquet"] and part.df["deal"].tolist() == [0, 1, 2, 6, 7]
    build_corpus(PRESET, N, d, seed=SEED)
    pd.testing.assert_frame_equal(rows(d), rows(whole))


def test_headline_figures(whole):
    c = load_corpus(whole, PRESET)
    h = headline(c)
    df = c.df
    tv = df["tapp_value"].to_numpy(float)
    assert h["n"] == N and h["tapp_value"]["mean"] == pytest.approx(tv.mean())
    assert h["tapp_value"]["se"] == pytest.approx(tv.std(ddof=1) / np.sqrt(N))
    trump = df["code"] < 4
    made150 = ((df["value"] >= 150) & df["took"] & trump) | (~trump & df["special_made"])
    lo, hi = wilson(int(made150.sum()), N)
    assert h["make"][0] == {"bid": 150, "p_make": pytest.approx(made150.mean()), "lo": lo, "hi": hi,
                            "se": pytest.approx(np.sqrt(made150.mean() * (1 - made150.mean()) / N)), "n": N}
    assert h["durch_makeable"]["lo"] >= 0 and h["durch_makeable"]["hi"] > 0  # a Wilson interval, never ± 0
    assert h["unresolved_fraction"] == 0.0


def test_cli_errors_are_one_line(whole, tmp_path, capsys):
    assert_one_line_error(capsys, "corpus", "build", "--rules", PRESET, "--deals", "3", "--out", str(whole),
                          "--seed", str(SEED), contains="smaller than the 8 deals")
    assert_one_line_error(capsys, "corpus", "info", str(whole), "--rules", "standard", contains="holds rules")
    d = tmp_path / "nomanifest"
    shutil.copytree(whole, d)
    (d / "manifest.json").unlink()
    assert_one_line_error(capsys, "corpus", "info", str(d), contains="missing manifest.json")
    assert_one_line_error(capsys, "corpus", "build", "--rules", PRESET, "--deals", "9", "--out", str(d),
                          contains="missing manifest.json")
    assert_one_line_error(capsys, "corpus", "build", "--rules", PRESET, "--deals", "9", "--out", str(whole),
                          "--seed", "6", contains="built with seed 5, not 6")


def test_cli_info_json(whole, capsys):
    code, out, err = run_cli(capsys, "corpus", "info", str(whole), "--json")
    assert code == 0, err
    rep = json.loads(out)
    assert rep["manifest"]["deals"] == N and rep["manifest"]["rules"] == PRESET
    assert rep["headline"]["n"] == N and rep["manifest"]["policy"] == "heuristic"
    code, out, err = run_cli(capsys, "corpus", "info", str(whole))
    tv = rep["headline"]["tapp_value"]
    assert code == 0 and f"Tapp value (paired):            {tv['mean']:.1f} ± {tv['se']:.1f} (n {N})" in out
    assert f"bid 150: {rep['headline']['make'][0]['p_make']:.3f}" in out


def test_no_shipped_corpus_for_a_private_rule_set(tmp_path):
    toml = tmp_path / "r.toml"
    toml.write_text('inherits = "standard"\nname = "standard"\n[melds]\nbinokel = 50\n')
    assert find_corpus(str(toml)) is None


def _study(capsys, cmd, *args):
    code, out, err = run_cli(capsys, "odds", cmd, "--rules", PRESET, "--seed", str(SEED), *args, "--json")
    assert code == 0, err
    rep = json.loads(out)
    return rep.pop("source"), rep


@pytest.mark.slow
def test_tapp_study_on_the_corpus_equals_the_fresh_study(whole, capsys):
    src, on_corpus = _study(capsys, "tapp", "--corpus", str(whole))
    assert src["source"] == "corpus" and src["from_corpus"] == N and src["fresh"] == 0
    assert src["corpus"] == str(whole) and len(src["rules_hash"]) == 16 and on_corpus["deals"] == N
    src, fresh = _study(capsys, "tapp", "--deals", str(N), "--fresh")
    assert src == {"source": "fresh", "n": N, "from_corpus": 0, "fresh": N}
    assert on_corpus == fresh


@pytest.mark.slow
def test_bid_study_tops_up_a_short_corpus_with_fresh_deals(whole, capsys):
    src, mixed = _study(capsys, "bids", "--deals", str(N + 2), "--min-n", "2", "--corpus", str(whole))
    assert (src["from_corpus"], src["fresh"]) == (N, 2)
    _, fresh = _study(capsys, "bids", "--deals", str(N + 2), "--min-n", "2", "--fresh")
    assert mixed == fresh and fresh["table"][-1]["n"] == N + 2


def test_study_corpus_must_match(whole, capsys):
    assert_one_line_error(capsys, "odds", "tapp", "--rules", PRESET, "--seed", "6", "--corpus", str(whole),
                          contains="built with seed 5, not 6")
    assert_one_line_error(capsys, "odds", "tapp", "--rules", "standard", "--corpus", str(whole), contains="holds rules")
    assert_one_line_error(capsys, "odds", "tapp", "--rules", PRESET, "--fresh", "--corpus", str(whole),
                          contains="exclude each other")


def test_study_on_a_damaged_corpus_names_the_chunk(whole, tmp_path, capsys, monkeypatch):
    d = tmp_path / "c"
    shutil.copytree(whole, d)
    p = d / "chunk-00001.parquet"
    p.write_bytes(p.read_bytes()[:100])
    # Named with --corpus: the chunk is named, its deals are not quietly solved afresh.
    assert_one_line_error(capsys, "odds", "tapp", "--rules", PRESET, "--seed", str(SEED), "--corpus", str(d),
                          contains="chunk chunk-00001.parquet is truncated or corrupt")
    # Found as the matching corpus: the same error, and the way around it.
    monkeypatch.setattr("binokel_sim.studies.rows.find_corpus", lambda *a, **k: d)
    line = assert_one_line_error(capsys, "odds", "bids", "--rules", PRESET, "--seed", str(SEED), "--deals", "4")
    assert "chunk-00001.parquet" in line and line.endswith("or pass --fresh to solve without the corpus")
    # Deals below the damaged chunk need only the sound one.
    src, _ = _study(capsys, "tapp", "--deals", "3", "--corpus", str(d))
    assert (src["from_corpus"], src["fresh"]) == (3, 0)


@pytest.mark.slow
def test_ctrl_c_says_what_the_corpus_kept_and_how_to_resume(whole, tmp_path):
    from test_interrupt import _sigint_after_first_chunk

    out = tmp_path / "c"
    args = ["corpus", "build", "--rules", PRESET, "--deals", "6", "--out", str(out), "--seed", str(SEED),
            "--chunk-size", "1", "--workers", "1", "--quiet"]
    seconds, code, err = _sigint_after_first_chunk(args, out, pattern="chunk-*.parquet")
    assert code == 130, (seconds, err)
    held = json.loads((out / "manifest.json").read_text())["deals"]
    line = err.strip().splitlines()[-1]
    assert 0 <= held < 6 and line.startswith(f"interrupted: corpus {out} keeps {held} of 6 deals"), (held, err)
    assert "run `binokel corpus build" in line and "again to resume" in line and "--checkpoint" not in line
    # Resuming from what was kept gives the rows of one uninterrupted build.
    build_corpus(PRESET, 6, out, seed=SEED)
    pd.testing.assert_frame_equal(rows(out), rows(whole).iloc[:6])


def test_exact_corpus_records_no_budget(whole):
    m = json.loads((whole / "manifest.json").read_text())
    assert m["solve_budget"] is None and m["durch_check"] and m["unresolved_fraction"] == 0.0


@pytest.mark.slow
def test_formula_fit_on_the_corpus_equals_the_fit_on_the_same_deals_fresh(whole):
    from binokel_sim.analyses.hand_formula import fit, run, split

    # Four rounds of four deals: the fourth round tests, one deal per soloist seat; the corpus holds the first N.
    f, stats, train, test = run(PRESET, 16, SEED, corpus=whole)
    assert f.provenance["source"]["from_corpus"] == N and f.provenance["deals"] == 16
    assert sorted(test["deal"]) == [12, 13, 14, 15] and sorted(train["deal"]) == list(range(12))
    fresh = study_deals(PRESET, 16, seed=SEED, policy="heuristic", scale=Scale(workers=1), baseline=False)
    g, st2 = fit(load_rules(PRESET), *split(fresh, load_rules(PRESET).n_seats))
    # The same deals give the same fit, up to the least squares' rounding (it may sum in another order).
    assert f.coef.keys() == g.coef.keys()
    assert (f.intercept, *f.coef.values(), f.sd) == pytest.approx((g.intercept, *g.coef.values(), g.sd), rel=1e-9)
    assert stats["r2_train"] == pytest.approx(st2["r2_train"], rel=1e-9)


def _rewrite_chunk(folder, name, df):
    """Replace a chunk's rows and its manifest checksum and digest (as an older build would have written them)."""
    from binokel_sim.corpus.manifest import file_sha256, write_manifest

    p = folder / name
    df.to_parquet(p, index=False, compression="zstd")
    m = json.loads((folder / "manifest.json").read_text())
    next(c for c in m["chunks"] if c["file"] == name)["sha256"] = file_sha256(p)
    write_manifest(m, folder)


def test_refresh_under_the_same_code_changes_nothing(whole, tmp_path, capsys):
    d = tmp_path / "c"
    shutil.copytree(whole, d)
    code, out, err = run_cli(capsys, "corpus", "refresh", str(d), "--json", "--workers", "1", "--rules", PRESET,
                             "--out", str(tmp_path / "r.csv"))
    assert code == 0, err
    assert pd.read_csv(tmp_path / "r.csv", comment="#")[["rows", "changed"]].values.tolist() == [[N, 0]]
    assert {k: v for k, v in json.loads(out).items() if k != "seconds"} == {"rows": N, "changed": 0,
                                                                             "estimates_changed": 0}
    for p in whole.glob("chunk-*.parquet"):
        assert (d / p.name).read_bytes() == p.read_bytes()
    assert json.loads((d / "manifest.json").read_text())["revisions"][-1]["rows"] == N
    code, out, err = run_cli(capsys, "corpus", "info", str(d))
    # the revision's line, its continuations (wrapped at 100 columns) joined
    (line,) = [x for x in out.replace("\n      ", " ").splitlines() if x.startswith("  revised ")]
    assert code == 0 and ": refresh: " in line and line.endswith(f": {N} rows, 0 re-solved, 0 new estimates"), err


def test_refresh_rebuilds_rows_of_an_older_policy_as_a_fresh_build(whole, tmp_path):
    from binokel_sim.corpus.refresh import refresh_corpus

    d = tmp_path / "c"
    shutil.copytree(whole, d)
    # An older policy: deal 4 got another trump (and a garbage value), deal 3 another estimate.
    df = pd.read_parquet(d / "chunk-00001.parquet")
    i4 = df.index[df["deal"] == 4][0]
    df.loc[i4, "code"] = (df.loc[i4, "code"] + 1) % 4
    df.loc[i4, "value"] = -7
    df["subjective"] = [np.asarray(s) + 33 * (d == 3) for s, d in zip(df["subjective"], df["deal"])]
    _rewrite_chunk(d, "chunk-00001.parquet", df)
    r = refresh_corpus(d, scale=Scale(workers=1))
    assert (r["rows"], r["changed"], r["estimates_changed"]) == (N, 1, 1)
    pd.testing.assert_frame_equal(rows(d).drop(columns=["nodes"]), rows(whole).drop(columns=["nodes"]))


def test_refresh_refuses_a_sampled_corpus_and_a_corrupt_chunk(whole, tmp_path, capsys):
    d = tmp_path / "c"
    shutil.copytree(whole, d)
    p = d / "chunk-00002.parquet"
    p.write_bytes(p.read_bytes()[:50])
    assert_one_line_error(capsys, "corpus", "refresh", str(d), contains="chunk-00002.parquet is truncated or corrupt")
    m = json.loads((d / "manifest.json").read_text())
    m["policy"] = "sampled"
    write_manifest(m, d)  # digest and all: the refresh refuses a sampled corpus before it reads a row
    assert_one_line_error(capsys, "corpus", "refresh", str(d), contains="a 'sampled' corpus cannot be refreshed")
    assert_one_line_error(capsys, "corpus", "refresh", str(tmp_path / "none"), contains="no such folder")
    assert_one_line_error(capsys, "corpus", "refresh", str(whole), "--rules", "standard", contains="holds rules")


def test_a_killed_refresh_keeps_its_finished_chunks_and_a_rerun_finishes(whole, tmp_path, monkeypatch):
    import binokel_sim.corpus.refresh as refresh

    d = tmp_path / "c"
    shutil.copytree(whole, d)
    for name in ("chunk-00000.parquet", "chunk-00002.parquet"):  # an older estimate in the first and last chunk
        df = pd.read_parquet(d / name)
        df["subjective"] = [np.asarray(s) + 5 for s in df["subjective"]]
        _rewrite_chunk(d, name, df)
    real = refresh.refresh_rows

    def dies_at_deal_6(rules, m, df):
        if df["deal"].iloc[0] >= 6:
            raise KeyboardInterrupt
        return real(rules, m, df)

    monkeypatch.setattr(refresh, "refresh_rows", dies_at_deal_6)
    with pytest.raises(refresh.RefreshInterrupted, match=f"corpus {d} has 6 of {N} rows refreshed"):
        refresh.refresh_corpus(d, scale=Scale(workers=1))
    assert (d / "chunk-00000.parquet").read_bytes() == (whole / "chunk-00000.parquet").read_bytes()
    assert (d / "chunk-00002.parquet").read_bytes() != (whole / "chunk-00002.parquet").read_bytes()
    load_corpus(d, PRESET)  # the manifest matches every chunk file
    monkeypatch.setattr(refresh, "refresh_rows", real)
    r = refresh.refresh_corpus(d, scale=Scale(workers=1))
    assert (r["changed"], r["estimates_changed"]) == (0, 2)
    pd.testing.assert_frame_equal(rows(d), rows(whole))


def test_a_finished_corpus_is_read_not_rewritten(whole):
    before = (whole / "manifest.json").read_bytes()
    m = build_corpus(PRESET, N, whole, seed=SEED)
    assert (whole / "manifest.json").read_bytes() == before and m["deals"] == N
