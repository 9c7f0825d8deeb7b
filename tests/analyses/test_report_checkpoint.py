"""The report's checkpoint keeps every chunked part: a rerun recomputes nothing, an interrupted run resumes
where it stopped (issue #59); closures keep their chunks under the caller's key (``run_local_chunks``)."""

from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from binokel_sim import runner
from binokel_sim.errors import InputError
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk, Interrupted, Scale, chunk_ranges, run_local_chunks


class Calls:
    """The chunks computed, as (work name, work key, chunk index); ``stop``: (name, k), Ctrl-C in the chunk
    after ``k`` chunks of the work ``name``."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str, int]] = []
        self.stop: tuple[str, int] | None = None

    def wrap(self, fn):
        @functools.wraps(fn)  # the same module, so the same code version in the checkpoint key
        def counted(work, chunk: Chunk):
            if self.stop is not None and work.name == self.stop[0] and self.names().count(work.name) >= self.stop[1]:
                raise KeyboardInterrupt
            self.seen.append((work.name, work.key(), chunk.index))
            return fn(work, chunk)

        return counted

    def names(self) -> list[str]:
        return [n for n, _, _ in self.seen]


@pytest.fixture
def calls(monkeypatch) -> Calls:
    """Counts every chunk a report computes: the Job chunk functions and the closure path of the runner."""
    import binokel_sim.analyses.compare as compare
    import binokel_sim.studies.deals as study
    import binokel_sim.odds.monte_carlo as monte_carlo

    c = Calls()
    for module, name in ((monte_carlo, "tally_job_chunk"), (study, "study_job_chunk"), (compare, "durch_chunk")):
        monkeypatch.setattr(module, name, c.wrap(getattr(module, name)))
    monkeypatch.setattr(runner._Closure, "fn", staticmethod(c.wrap(runner._Closure.fn)))
    return c


def test_keyed_closure_chunks_are_kept_and_reused_for_the_same_key_only(tmp_path, calls, capsys):
    seen = []

    def square(c: Chunk) -> np.ndarray:
        seen.append(c.index)
        return np.arange(c.start, c.stop) ** 2

    scale = Scale(workers=2, checkpoint=tmp_path)
    first = run_local_chunks(square, chunk_ranges(10, 3), scale, desc="squares", key={"input": "abc"})
    assert sorted(seen) == [0, 1, 2, 3] and np.concatenate(first).tolist() == [i * i for i in range(10)]
    (folder,) = tmp_path.iterdir()
    assert folder.name.startswith("squares-") and len(list(folder.glob("*.ckpt"))) == 4
    seen.clear()
    again = run_local_chunks(square, chunk_ranges(10, 3), scale, desc="squares", key={"input": "abc"})
    assert seen == [] and all(np.array_equal(a, b) for a, b in zip(first, again))
    run_local_chunks(square, chunk_ranges(10, 3), scale, desc="squares", key={"input": "abd"})
    assert sorted(seen) == [0, 1, 2, 3]  # another key: another folder, all computed
    seen.clear()
    damaged = sorted(folder.glob("*.ckpt"))[1]
    damaged.write_bytes(damaged.read_bytes()[:-3] + b"xyz")
    fixed = run_local_chunks(square, chunk_ranges(10, 3), scale, desc="squares", key={"input": "abc"})
    assert seen == [1] and all(np.array_equal(a, b) for a, b in zip(first, fixed))
    assert "is damaged" in capsys.readouterr().err
    # Without a key a checkpoint is refused, a scheduler always: never silently ignored.
    with pytest.raises(InputError, match="squaring runs on local threads only: a checkpoint does not apply"):
        run_local_chunks(square, chunk_ranges(10, 3), scale, what="squaring")
    with pytest.raises(InputError, match="a scheduler does not apply"):
        run_local_chunks(square, chunk_ranges(10, 3), Scale(scheduler="tcp://h:1"), key={"input": "abc"})
    assert run_local_chunks(lambda c: c.index, chunk_ranges(4, 2), Scale(workers=1)) == [0, 1]


def test_interrupted_closure_names_the_work_and_the_folder_and_resumes(tmp_path, calls):
    scale = Scale(workers=1, checkpoint=tmp_path / "ck")
    calls.stop = ("instant-tier", 3)
    with pytest.raises(Interrupted) as exc:
        run_local_chunks(lambda c: c.index, chunk_ranges(8, 1), scale, desc="instant tier", key={"k": 1})
    assert str(exc.value) == (f"interrupted: 3 of 8 chunks (instant tier) kept in {tmp_path / 'ck'}; run the same "
                              "command again to resume")
    calls.seen.clear()
    calls.stop = None
    assert run_local_chunks(lambda c: c.index, chunk_ranges(8, 1), scale, desc="instant tier",
                            key={"k": 1}) == list(range(8))
    assert [i for _, _, i in calls.seen] == [3, 4, 5, 6, 7]
    # Without a checkpoint the line says nothing was kept, and of what.
    calls.stop = ("instant-tier", 0)
    with pytest.raises(Interrupted, match=r"^interrupted: 0 of 8 chunks \(instant tier\) had finished \(not kept\)"):
        run_local_chunks(lambda c: c.index, chunk_ranges(8, 1), Scale(workers=1), desc="instant tier")


def _rows(rules, n: int) -> pd.DataFrame:
    """Corpus-like rows (soloist, hand0..hand3 as count strings) of the study stream's first ``n`` deals."""
    from binokel_sim.studies.deals import deal_hands

    hands, _ = deal_hands(rules, 7, Chunk(0, 0, n))
    cols = {f"hand{s}": ["".join(map(str, h)) for h in hands[:, s]] for s in range(rules.n_seats)}
    return pd.DataFrame({"soloist": np.arange(n) % rules.n_seats, **cols})


def test_instant_predictions_without_the_store_are_checkpointed(tmp_path, calls, monkeypatch):
    from binokel_sim.analyses import instant_predictions
    from binokel_sim.analyses.calibration import held_out_predictions
    from binokel_sim.evaluation.instant import load_instant

    rules = load_rules("standard")
    model = load_instant(rules)
    monkeypatch.setattr(instant_predictions, "PREDICT_CHUNK", 1)
    rows, ladder = _rows(rules, 2), np.array([150, 200, 250])
    scale = Scale(workers=1, checkpoint=tmp_path)
    first = held_out_predictions(rules, model, rows, ladder, stored=False, scale=scale)
    assert first.shape == (2, 3) and calls.names() == ["instant-tier"] * 2
    calls.seen.clear()
    assert np.array_equal(held_out_predictions(rules, model, rows, ladder, stored=False, scale=scale), first)
    assert calls.seen == []
    # The same model fitted on another CPU (its intercept in the last bits) reuses them; another model does not.
    held_out_predictions(rules, replace(model, intercept=model.intercept * (1 + 1e-14)), rows, ladder, False,
                         scale=scale)
    assert calls.seen == []
    held_out_predictions(rules, replace(model, intercept=model.intercept + 1.0), rows, ladder, False, scale=scale)
    assert len(calls.seen) == 2


@pytest.mark.slow
def test_a_report_rerun_recomputes_nothing_and_an_interrupted_one_resumes(tmp_path, calls):
    """Three small reports on one checkpoint: Ctrl-C in the study deals; the resume computes only the chunks
    missing; a third run none."""
    import matplotlib.pyplot as plt

    from binokel_sim.analyses.report import build_report, budget_with

    plt.close("all")  # figures other tests left open count towards matplotlib's warning
    b = budget_with("quick", meld_deals=3000, study_deals=8, calibration_deals=4)
    ck = tmp_path / "ck"
    scale = Scale(workers=1, checkpoint=ck)
    calls.stop = ("study-deals", 2)  # two of the study's four chunks
    with pytest.raises(Interrupted) as exc:
        build_report("kreuz", b, 5, scale)
    assert str(exc.value) == (f"interrupted: 2 of 4 chunks (deals) kept in {ck}; run the same command again to "
                              "resume")
    done = calls.seen
    assert set(calls.names()) == {"meld-odds", "study-deals"}
    calls.seen, calls.stop = [], None
    first = build_report("kreuz", b, 5, scale)
    plt.close("all")  # a report's figures, never rendered here (rendering closes them)
    assert not set(done) & set(calls.seen)  # nothing computed twice: the meld odds and two study chunks kept
    (study_key,) = {k for n, k, _ in done if n == "study-deals"}
    assert sorted(i for n, k, i in calls.seen if k == study_key) == [2, 3]
    assert {"compare-durch", "trump-ties"} <= set(calls.names())
    calls.seen.clear()
    again = build_report("kreuz", b, 5, scale)
    plt.close("all")
    assert calls.seen == []
    tables = [t for s in first.sections if s.key != "provenance" for _, t in s.tables]
    assert len(tables) == len([t for s in again.sections if s.key != "provenance" for _, t in s.tables])
    for a, b_ in zip(tables, [t for s in again.sections if s.key != "provenance" for _, t in s.tables]):
        pd.testing.assert_frame_equal(a, b_)
