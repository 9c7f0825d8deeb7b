"""The single-dummy corpus (resumable, seeded chunks) and the instant tier fitted on single-dummy totals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from clitools import assert_one_line_error

from binokel_sim.analyses import sd_corpus as sc
from binokel_sim.analyses import sd_instant as si
from binokel_sim.errors import InputError
from binokel_sim.evaluation.model_agreement import differences
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale


def _rows(folder) -> pd.DataFrame:
    return sc.load_sd_corpus(folder)[1].drop(columns="seconds")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sd")
    m = sc.build_sd_corpus("kreuz", 3, folder, seed=1, worlds=2, chunk_size=2, scale=Scale(workers=1))
    return folder, m


@pytest.mark.slow
def test_manifest_records_the_play_and_rows_match_the_open_card_corpus(built):
    folder, m = built
    assert (m["play"], m["worlds"], m["seed"], m["deals"]) == ("single-dummy", 2, 1, 3)
    assert [(c["start"], c["stop"]) for c in m["chunks"]] == [(0, 2), (2, 3)]
    rows = _rows(folder)
    # Deals 0-2 of the shipped double-dummy kreuz corpus (seed 1): the same deals, the same open totals.
    assert rows["open"].tolist() == [323, 372, 273]
    assert rows["played"].all() and (rows["sd"] <= rows["open"] + 200).all()


@pytest.mark.slow
def test_same_rows_whatever_the_workers_and_a_resumed_build(built, tmp_path):
    folder, _ = built
    sc.build_sd_corpus("kreuz", 1, tmp_path, seed=1, worlds=2, chunk_size=2, scale=Scale(workers=2))
    m = sc.build_sd_corpus("kreuz", 3, tmp_path, seed=1, worlds=2, scale=Scale(workers=2))
    assert m["deals"] == 3 and len(m["builds"]) == 2
    pd.testing.assert_frame_equal(_rows(folder), _rows(tmp_path))


def test_a_finished_corpus_is_read_not_rewritten(built):
    folder, m = built
    before = (folder / "manifest.json").read_bytes()
    again = sc.build_sd_corpus("kreuz", 3, folder, seed=1, worlds=2, scale=Scale(workers=1))
    assert (folder / "manifest.json").read_bytes() == before and again["deals"] == m["deals"] == 3


def test_a_resume_with_other_settings_is_refused(built):
    folder, _ = built
    with pytest.raises(InputError, match="worlds 2, not 3"):
        sc.build_sd_corpus("kreuz", 4, folder, seed=1, worlds=3)
    with pytest.raises(InputError, match="chunk_size 2, not 3"):
        sc.build_sd_corpus("kreuz", 2, folder, seed=1, worlds=2, chunk_size=3)


def test_the_deals_held_are_read_while_a_build_holds_the_lock(built):
    from binokel_sim.corpus.lock import FolderLock

    folder, m = built
    before = (folder / "manifest.json").read_bytes()
    with FolderLock(folder, "corpus build"):
        # The first two deals, or all three: read without the lock, nothing written.
        assert sc.build_sd_corpus("kreuz", 2, folder, seed=1, worlds=2)["deals"] == 3
        assert sc.build_sd_corpus("kreuz", 3, folder, seed=1, worlds=2)["deals"] == 3
        with pytest.raises(InputError, match="being written by another process"):
            sc.build_sd_corpus("kreuz", 4, folder, seed=1, worlds=2)
    assert (folder / "manifest.json").read_bytes() == before


def test_missing_names_what_the_model_lacks(built, tmp_path):
    folder, _ = built
    r = load_rules("kreuz")
    assert "holds 3 of the 2000 deals" in si.missing(r, folder)
    assert "no single-dummy corpus at" in si.missing(r, tmp_path)
    assert si.missing(r, folder, min_deals=3) is None


def test_bid_single_dummy_without_a_corpus_is_one_line(capsys, monkeypatch, tmp_path):
    from binokel_sim.evaluation import instant

    monkeypatch.setattr(si, "SHIPPED", tmp_path / "standard-sd")
    monkeypatch.setattr(instant, "SD_MODEL_FILE", tmp_path / "none.json")
    assert_one_line_error(capsys, "bid", "EA EA E10 EK EO EU GA G10 HA H10 SA S10", "--play", "single-dummy",
                          contains="--play single-dummy: no single-dummy corpus")
    assert_one_line_error(capsys, "bid", "EA EA E10 EK EO EU GA G10 HA H10 SA S10", "--play", "sd",
                          contains="--play")
    assert_one_line_error(capsys, "calibrate", "--play", "single-dummy", contains="no single-dummy corpus at")
    assert_one_line_error(capsys, "calibrate", "--play", "single-dummy", "--tier", "checked",
                          contains="--play single-dummy: the checked tier plays open cards only")


def test_fit_on_single_dummy_totals_shifts_the_line():
    # A fixture: the first 600 deals of the shipped standard corpus, single-dummy totals 20 points below the
    # open-card ones on every trump deal. Least squares is linear, so the line drops by exactly 20.
    from binokel_sim.corpus.reader import find_corpus, load_corpus
    from binokel_sim.evaluation.instant import fit_instant

    r = load_rules("standard")
    dd = load_corpus(find_corpus(r), r, below=600).df
    dd = dd[dd["deal"] < 600]
    sd = pd.DataFrame({"deal": dd["deal"], "open": dd["value"], "open_took": dd["took"],
                       "played": dd["code"] < 4, "sd": dd["value"] - 20.0, "sd_took": dd["took"]})
    df = si.sd_frame(dd, sd)
    trump = df["code"] < 4
    assert (df.loc[trump, "value"] == dd.loc[trump.to_numpy(), "value"].to_numpy() - 20).all()
    base, shifted = fit_instant(dd, r, seed=1), fit_instant(df, r, seed=1)
    assert shifted.intercept == pytest.approx(base.intercept - 20, abs=1e-6)
    assert np.allclose(shifted.coef, base.coef)
    other = sd.assign(open=sd["open"] + 1)
    with pytest.raises(InputError, match="is not the double-dummy corpus's deal 0"):
        si.sd_frame(dd, other)


def test_report_section_reads_the_corpus_or_says_what_is_missing(built, tmp_path):
    from binokel_sim.analyses.report_realplay import ladder_frame, real_play_section

    folder, _ = built
    r = load_rules("kreuz")
    s = real_play_section(r, folder).section
    rows = _rows(folder)
    gap = (rows["sd"] - rows["open"]).mean()
    assert f"by {gap:+.1f} points on average" in s.text[1] and "From 3 deals" in s.text[1]
    from binokel_sim.analyses.play_gap import fail_share

    f = fail_share(r, rows).set_index("mode")["share"]
    assert f"at every seat fails the highest bid the open-card total makes; the blind soloist against open-card " \
        f"defenders fails it on {f['sd_solo']:.1%}" in s.text[1]
    assert [stem for stem, _, _ in s.figures] == ["real_play"]
    lad = ladder_frame(r, rows)
    assert lad["bid"].iloc[0] == 150 and lad["p_make"].iloc[0] == pytest.approx(np.mean(rows["open"] >= 150))
    assert "Not measured" in real_play_section(r, tmp_path).section.text[-1]
    assert "no single-dummy corpus" in real_play_section(r).section.text[-1]


def test_the_study_command_builds_and_reads_a_corpus(capsys, tmp_path):
    from clitools import run_json

    j = run_json(capsys, "study", "play-gap", "--rules", "kreuz", "--deals", "2", "--worlds", "2", "--chunk-size",
                 "1", "--workers", "1", "--corpus", str(tmp_path), "-q")
    m = sc.load_sd_corpus(tmp_path)[0]
    assert (m["chunk_size"], m["deals"], j["played"]) == (1, 2, 2)
    assert j["totals"][0]["mean"] == pytest.approx((323 + 372) / 2)  # the open-card totals of deals 0 and 1
    assert j["safe_bids_not_measured"] == "fewer than 100 deals" and "safe_bids" in j
    assert_one_line_error(capsys, "study", "play-gap", "--rules", "kreuz", "--corpus", str(tmp_path),
                          "--decision-budget", "2", contains="--decision-budget")


def _fixture_corpus(folder, deals: int) -> pd.DataFrame:
    """A single-dummy corpus in ``folder`` of deals 0..deals-1 of the shipped standard corpus (seed 1), every trump
    total 20 points below the open-card one (30 for the soloist alone); returns the double-dummy rows."""
    from binokel_sim.corpus.manifest import file_sha256, write_manifest
    from binokel_sim.corpus.reader import find_corpus, load_corpus

    r = load_rules("standard")
    dd = load_corpus(find_corpus(r), r, below=deals).df
    dd = dd[dd["deal"] < deals]
    trump = (dd["code"] < 4).to_numpy()
    # The soloist's melds: the single-dummy reader deals the rows again to check them against the manifest's seed.
    sd = pd.DataFrame({"deal": dd["deal"], "melds": dd["melds"], "open": dd["value"], "open_took": dd["took"],
                       "played": trump, "sd": np.where(trump, dd["value"] - 20, np.nan), "sd_took": dd["took"],
                       "sd_solo": np.where(trump, dd["value"] - 30, np.nan), "sd_solo_took": dd["took"],
                       "seconds": 0.0})
    folder.mkdir(parents=True, exist_ok=True)
    sd.to_parquet(folder / "chunk-00000.parquet", index=False)
    m = sc._new_manifest(r, 1, sc.GapSettings(worlds=20), deals)
    m["chunks"] = [{"index": 0, "file": "chunk-00000.parquet", "start": 0, "stop": deals, "rows": deals, "nodes": 0,
                    "cpu_seconds": 0.0, "unresolved": 0, "sha256": file_sha256(folder / "chunk-00000.parquet")}]
    m["deals"] = deals
    write_manifest(m, folder)
    return dd


@pytest.mark.slow
def test_fit_sd_end_to_end_on_a_fixture_corpus(tmp_path):
    # The fixture's fitted line is the double-dummy line of the training deals less 20.
    from binokel_sim.evaluation.instant import fit_instant, held_out

    r = load_rules("standard")
    dd = _fixture_corpus(tmp_path, 600)
    model, test = si.fit_sd(r, tmp_path, min_deals=600)
    assert test["deal"].tolist() == [d for d in range(500, 600) if d % 2 == 1]
    base = fit_instant(dd[~held_out(dd["deal"].to_numpy(), 3)], r, seed=1)
    assert model.intercept == pytest.approx(base.intercept - 20, abs=1e-6)
    assert model.provenance["play"] == "single-dummy" and model.provenance["worlds"] == 20
    assert model.provenance["ladder"].startswith("drawn: 200 Tapps per hand")  # as the open-card model
    # Going out weighs the estimate as every study of the rules does (not refitted on the shifted totals).
    from binokel_sim.evaluation.going_out import estimate_error

    assert estimate_error(r) is not None and model.going_out_error == estimate_error(r)
    assert "open-card model" in model.provenance["going_out"]
    # What bid --play single-dummy prints says how the totals were played; the Tapp value stays the open-card one.
    from binokel_sim.cli.bid import render_instant

    hand = "EA EK EO EU GA G10 GK GO HO HU SA SU"
    text = render_instant(model.advise(hand, r, 0, 0.8), hand, 0, r, 0.8)
    assert "play: single-dummy at every seat" in text and "20 sampled deals a decision" in text
    assert "the single-dummy total taken as" in text and "Tapp value (open cards)" in text
    assert "--samples" not in text  # the checked tier plays open cards only
    with pytest.raises(InputError, match="holds 600 of the 2000 deals"):
        si.fit_sd(r, tmp_path)
    # Calibrated like the double-dummy model: the held-out deals' ladder, judged on the single-dummy totals.
    from binokel_sim.analyses.calibration import soloist_hands
    from binokel_sim.analyses.sd_calibration import sd_calibration
    from binokel_sim.evaluation.ladder import outcomes
    from binokel_sim.studies.deals import parts_of

    run = sd_calibration(r, tmp_path, questions="ladder", min_deals=600, further=30)
    cal, a = run.table, run.brier
    assert run.play == "single-dummy" and a.deals == 50 and a.n == 50 * 31
    assert "50 held-out deals of the single-dummy corpus" in run.held_out
    # The control: the next 30 held-out deals of the double-dummy corpus (odd deals from 601), open cards.
    assert run.further.startswith("the open-card outcomes of 30 further held-out deals") and "601..659" in run.further
    assert cal.attrs["further"] == run.further and cal.attrs["brier"] == a.brier  # the provenance written out
    assert cal["further_n"].sum() == 30 * 31
    bids = np.arange(150, 451, 10)
    p = model.p_make(r, soloist_hands(test)[0], test["soloist"].to_numpy(), bids).ravel()
    # Judged on the single-dummy totals: 20 points lower, so made only where the open-card total made it too
    # (going out rests on the soloist's own estimate, the same in both).
    made = outcomes(r, parts_of(test), bids)[0]
    made_open = outcomes(r, parts_of(dd.set_index("deal").loc[test["deal"]].reset_index()), bids)[0]
    assert (made <= made_open).all() and made.sum() < made_open.sum()
    assert a.brier == pytest.approx(np.mean((p - made.ravel()) ** 2))
    assert cal["n"].sum() == 50 * 31 and cal["predicted"].is_monotonic_increasing
    # The corpora read once (as the report does) give the same model and the same table as the folder.
    paired = si.paired_rows(r, tmp_path)
    assert (paired.held, len(paired.dd), paired.folder) == (600, 600, tmp_path)
    again = sd_calibration(r, paired, questions="ladder", min_deals=600, further=30)
    assert again.brier == a and again.model["corpus"] == run.model["corpus"]
    pd.testing.assert_frame_equal(again.table, cal)
    with pytest.raises(InputError, match="holds 600 of the 2000 deals"):
        si.fit_sd(r, paired)


def test_safe_bids_under_each_way_of_play():
    # Deals 0-599 of the shipped standard corpus: single-dummy totals 20 points below the open-card ones at every
    # seat, the blind soloist against open-card defenders exactly at them.
    from binokel_sim.analyses.bid_levels import levels
    from binokel_sim.analyses.report_realplay import WORDS, safe_bids
    from binokel_sim.corpus.reader import find_corpus, load_corpus

    r = load_rules("standard")
    dd = load_corpus(find_corpus(r), r, below=600).df
    dd = dd[dd["deal"] < 600].reset_index(drop=True)
    trump = (dd["code"] < 4).to_numpy()
    sd = pd.DataFrame({"deal": dd["deal"], "open": dd["value"], "open_took": dd["took"], "played": trump,
                       "sd": np.where(trump, dd["value"] - 20, np.nan), "sd_took": dd["took"],
                       "sd_solo": np.where(trump, dd["value"], np.nan), "sd_solo_took": dd["took"]})
    t = safe_bids(r, dd, sd).set_index(["melds", "play"])
    o, e, d = (t.loc[("all", WORDS[k])] for k in ("open", "sd", "sd_solo"))
    lv = levels(r, dd, 0.8)
    assert (o["safe_bid"], o["safe_bid_lo"], o["safe_bid_hi"], o["ceiling_bid"], o["n"]) == (
        lv.picks.safe_bid, lv.picks.safe_bid_lo, lv.picks.safe_bid_hi, lv.picks.ceiling_bid, 600)
    assert o["p_make_at_open_safe"] >= 0.8 and d.drop("play", errors="ignore").equals(o.drop("play", errors="ignore"))
    # 20 points lower: the safe bid drops by at most 20, and the open-card one is made less often.
    assert o["safe_bid"] - 20 <= e["safe_bid"] < o["safe_bid"] and e["p_make_at_open_safe"] < 0.8
    assert set(t.index.get_level_values("melds")) <= {"all", "0-50", "60-110", "120+"}


def test_corpus_info_reads_a_single_dummy_corpus_and_the_solve_readers_refuse_it(built, capsys):
    from clitools import run_json

    folder, _ = built
    j = run_json(capsys, "corpus", "info", str(folder))
    h, rows = j["headline"], _rows(folder)
    assert (j["manifest"]["play"], j["manifest"]["worlds"], h["deals"], h["played"]) == ("single-dummy", 2, 3, 3)
    gap = next(t for t in h["totals"] if t["figure"] == "sd - open")
    assert gap["mean"] == pytest.approx((rows["sd"] - rows["open"]).mean()) and gap["n"] == 3
    assert_one_line_error(capsys, "fit", "instant", "--rules", "kreuz", "--corpus", str(folder),
                          contains="holds single-dummy play, not double-dummy solves")
    assert_one_line_error(capsys, "corpus", "info", str(folder), "--rules", "standard", contains="not 'standard'")
    assert_one_line_error(capsys, "corpus", "refresh", str(folder), contains="holds single-dummy play")


def test_the_real_play_model_is_fitted_once_and_bid_reads_it(capsys, monkeypatch, tmp_path):
    # bid --play single-dummy answers from the stored model (fit instant --play single-dummy --write), the same
    # answer as fitting on the corpus; before the fit it names the command; the open-card models stay as they are.
    from clitools import run_json

    from binokel_sim.evaluation import instant

    r = load_rules("standard")
    _fixture_corpus(tmp_path / "sd", 2000)
    monkeypatch.setattr(si, "SHIPPED", tmp_path / "sd")
    monkeypatch.setattr(instant, "SD_MODEL_FILE", tmp_path / "sd_models.json")
    # --write also stores the model's answers to the calibration's questions (minutes of work: recorded here,
    # done in test_the_stored_answers_are_the_calibrations_own).
    from binokel_sim.analyses import sd_calibration as sdc

    stores = []
    monkeypatch.setattr(sdc, "store_sd", lambda rules, model, paired, progress=False: stores.append((model, paired)))
    open_card = instant.load_instant(r)
    hand = "EA EK EO EU GA G10 GK GO HO HU SA SU"
    assert_one_line_error(capsys, "bid", hand, "--play", "single-dummy",
                          contains="binokel fit instant --play single-dummy --write")
    j = run_json(capsys, "fit", "instant", "--play", "single-dummy", "--write")
    assert j["written"] == str(tmp_path / "sd_models.json") and j["n_train"] > 0
    stored, (fitted, _) = instant.load_instant(r, play="single-dummy"), si.fit_sd(r)
    assert differences(stored, fitted) == [] and stored.play == "single-dummy"
    assert instant.load_instant(r) == open_card and open_card.play == "double-dummy"
    ((model, paired),) = stores
    assert model == stored and paired.held == 2000
    b = run_json(capsys, "bid", hand, "--play", "single-dummy")
    want = fitted.advise(hand, r, 0, 0.8)
    assert b["safe_bid"] == want.safe_bid and b["bids"][0]["p_make"] == pytest.approx(want.ladder.p_make[0])


def _twelve_further_deals(monkeypatch) -> None:
    """The calibration's control from 12 further deals instead of 9 000 (a few seconds of the drawn ladder)."""
    from binokel_sim.analyses import sd_calibration as sdc

    every = sdc.further_rows
    monkeypatch.setattr(sdc, "further_rows", lambda rules, p, limit=None: every(rules, p, limit or 12))


@pytest.mark.slow
def test_the_stored_answers_are_the_calibrations_own(capsys, monkeypatch, tmp_path):
    # store_sd keeps the model's answers to every question sd_calibration asks (its held-out deals, then the
    # further ones) under the model's own name; sd_calibration then reads them and solves nothing.
    from binokel_sim.analyses import calibration
    from binokel_sim.analyses import sd_calibration as sdc
    from binokel_sim.evaluation import instant_store

    r = load_rules("standard")
    _fixture_corpus(tmp_path / "sd", 600)
    paired = si.paired_rows(r, tmp_path / "sd")
    model, _ = si.fit_sd(r, paired, min_deals=600)
    _twelve_further_deals(monkeypatch)
    afresh = sdc.sd_calibration(r, paired, min_deals=600)
    fresh = afresh.table
    monkeypatch.setattr(instant_store, "STORE_DIR", tmp_path / "store")
    sdc.store_sd(r, model, paired)
    (kept,) = (tmp_path / "store").iterdir()
    assert kept.name == f"{model.rules_hash}-single-dummy.npz"  # beside the open-card model's, not over it

    def no_solving(*args, **kwargs):
        raise AssertionError("the stored answers were not read")

    monkeypatch.setattr(calibration, "predict", no_solving)
    pd.testing.assert_frame_equal(sdc.sd_calibration(r, paired, min_deals=600).table, fresh)
    assert fresh["further_n"].sum() == 12 * 31 and afresh.brier.deals == 50
    # The command prints the table in words and says what the controlled gap is.
    from clitools import run_cli

    monkeypatch.setattr(sdc, "sd_calibration", lambda *args, **kwargs: afresh)
    code, out, _ = run_cli(capsys, "calibrate", "--play", "single-dummy")
    head = out.splitlines()
    assert code == 0
    assert head[0].startswith("# calibration of the instant tier, single-dummy play: rules standard, 50 held-out")
    assert head[1] == ("# gap_controlled: each decile's gap with the held-out deals' luck taken out by the open-card "
                       "outcomes of 12 further held-out deals of the double-dummy corpus (deals 601..623) (the same "
                       f"questions, open cards); largest {afresh.max_abs_gap_controlled:.3f}")
    # The table is wider than 100 columns: it prints as blocks of whole columns, the controlled gap in a later one.
    assert "made - predicted, luck taken out" in out


@pytest.mark.slow
def test_report_section_with_a_whole_corpus_calibrates_the_real_play_model(monkeypatch, tmp_path):
    # The shipped corpus whole (here a 600-deal fixture standing in for the 2 000): the section adds the model's
    # calibration, each decile with its controlled gap, in words and as a table.
    from binokel_sim.analyses import sd_calibration as sdc
    from binokel_sim.analyses.report_realplay import real_play_section

    r = load_rules("standard")
    _fixture_corpus(tmp_path / "sd", 600)
    for module in (sc, si):
        monkeypatch.setattr(module, "SHIPPED", tmp_path / "sd")
    monkeypatch.setattr(si, "MIN_DEALS", 600)
    _twelve_further_deals(monkeypatch)
    s = real_play_section(r).section
    words = next(t for t in s.text if t.startswith("`binokel bid --play single-dummy` answers"))
    run = sdc.sd_calibration(r, si.paired_rows(r), min_deals=600)
    cal = run.table
    assert "On its 50 held-out deals" in words and f"n = {run.brier.n} questions" in words
    assert f"within {100 * run.max_abs_gap:.1f} points of what happened" in words
    assert "taken out by the open-card outcomes of 12 further held-out deals" in words
    assert f"within {100 * run.max_abs_gap_controlled:.1f} points" in words
    title, table = s.tables[-1]
    assert "*luck taken out*" in title and table["gap_controlled"].tolist() == cal["gap_controlled"].round(3).tolist()
