"""The shipped ``standard`` single-dummy corpus and what is fitted on it: whole, unchanged, and reproduced."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import pytest

from binokel_sim.analyses import sd_corpus as sc
from binokel_sim.analyses import sd_instant as si
from binokel_sim.analyses.play_gap import GapSettings
from binokel_sim.evaluation.instant import load_instant
from binokel_sim.evaluation.model_agreement import differences
from binokel_sim.provenance import KEY_DIGITS, rules_hash
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk, Job


@pytest.fixture(scope="module")
def shipped():
    return sc.load_sd_corpus(sc.SHIPPED)


@pytest.fixture(scope="module")
def paired():
    """The shipped corpus joined with the double-dummy corpus's rows of the same deals, read once."""
    return si.paired_rows(load_rules("standard"))


@pytest.mark.slow
def test_the_shipped_corpus_is_whole_and_its_chunks_unchanged(shipped, paired):
    m, rows = shipped
    r = load_rules("standard")
    assert (m["play"], m["worlds"], m["seed"], m["deals"], m["tolerance"]) == ("single-dummy", 20, 1, 2000, 0.5)
    assert m["rules_hash"] == rules_hash(r, digits=KEY_DIGITS)
    assert rows["deal"].tolist() == list(range(2000))
    for c in m["chunks"]:
        assert hashlib.sha256((sc.SHIPPED / c["file"]).read_bytes()).hexdigest() == c["sha256"], c["file"]
    # Deal i is the double-dummy corpus's deal i: the pairing checks the soloist and the open-card total.
    assert paired.held == 2000 and len(paired.sd) == 2000


@pytest.mark.slow
def test_the_cheapest_shipped_deals_replay_to_the_same_rows(shipped):
    # Same seed, same rows, on any machine: the two deals that cost least are played again, all three ways,
    # through the build's own task.
    m, rows = shipped
    params = sc.SdParams(GapSettings(worlds=m["worlds"], tolerance=m["tolerance"]), offset=0)
    job = Job("play-gap", sc.sd_task, n=m["deals"], seed=m["seed"], rules=load_rules("standard"), params=params)
    for d in rows.nsmallest(2, "seconds")["deal"]:
        again = sc.sd_task(job, Chunk(0, int(d), int(d) + 1)).drop(columns="seconds")
        want = rows[rows["deal"] == d].drop(columns="seconds").reset_index(drop=True)
        pd.testing.assert_frame_equal(again, want, check_dtype=False)


def test_the_stored_real_play_model_is_the_fit_on_the_shipped_corpus(paired):
    r = load_rules("standard")
    stored = load_instant(r, play="single-dummy")
    fitted, _ = si.fit_sd(r, paired)
    # One model up to the rounding of the CPU that refits it (least squares and BLAS differ in the last bits).
    assert differences(stored, fitted) == [] and stored.play == "single-dummy" and stored.drawn


@pytest.mark.slow
def test_the_stored_real_play_answers_are_the_models_own(paired):
    # calibrate --play single-dummy reads the model's answers from a stored file: a sample recomputed here
    # through the drawn ladder must be the same numbers.
    from binokel_sim.analyses.calibration import predict, soloist_hands
    from binokel_sim.analyses.sd_calibration import _judged_rows
    from binokel_sim.evaluation.instant_store import load_predictions
    from binokel_sim.scoring import bid_ladder

    r = load_rules("standard")
    m = load_instant(r, play="single-dummy")
    both = pd.concat(_judged_rows(r, paired), ignore_index=True)
    ladder = bid_ladder(r, r.bidding.min_bid + 300)
    hands, seat = soloist_hands(both)
    stored = load_predictions(m, hands, seat, ladder)
    assert stored is not None and stored.shape == (len(both), 31)
    pick = np.random.default_rng(37).choice(len(both), 6, replace=False)
    assert stored[pick] == pytest.approx(predict(r, m, hands[pick], seat[pick], ladder), abs=1e-12)
    # These are the open-card model's held-out questions too (its held-out deals, in order), and its own store
    # still answers them with its own numbers: the real-play store was written beside it, not over it.
    open_card = load_predictions(load_instant(r), hands, seat, ladder)
    assert open_card is not None and np.abs(open_card - stored).max() > 0.05


def test_the_manifests_totals_are_its_chunks_sums(shipped):
    # The cost figures the docs quote (CPU seconds, search nodes) are the sums of what each chunk recorded.
    m, rows = shipped
    assert m["nodes"] == sum(c["nodes"] for c in m["chunks"]) == (rows["sd_nodes"] + rows["sd_solo_nodes"]).sum()
    assert m["cpu_seconds"] == pytest.approx(sum(c["cpu_seconds"] for c in m["chunks"]), abs=0.01)
    assert sum(c["rows"] for c in m["chunks"]) == len(rows) == m["deals"]


@pytest.mark.slow
def test_a_refit_that_differs_in_the_last_bits_reads_the_stored_answers(monkeypatch):
    # Another CPU refits the shipped models a few last bits apart (the intercept 130.89734923247934 against
    # 130.8973492324788): the report's calibrations must still read the stored answers, never recompute
    # them (750 hands through the drawn ladder: minutes). A recompute is an error here.
    from dataclasses import replace

    from binokel_sim.analyses import calibration
    from binokel_sim.analyses.calibration import instant_calibration
    from binokel_sim.analyses.report_realplay import real_play_section

    fit = si.fit_sd

    def refit_elsewhere(*args, **kwargs):
        m, test = fit(*args, **kwargs)
        return replace(m, intercept=m.intercept * (1 + 1e-13), coef=[c * (1 - 1e-13) for c in m.coef]), test

    def recompute(*args, **kwargs):
        raise AssertionError("stored answers recomputed")

    monkeypatch.setattr(si, "fit_sd", refit_elsewhere)
    monkeypatch.setattr(calibration, "predict", recompute)
    r = load_rules("standard")
    tables = [t for _, t in real_play_section(r).section.tables]
    assert len(tables) == 3 and len(tables[-1]) == 10  # ..., and the real-play model's ten deciles
    assert instant_calibration(r).brier.deals == 9750
