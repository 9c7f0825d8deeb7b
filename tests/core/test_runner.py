"""Chunked jobs: same numbers for any worker count and chunking, checkpoints that resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import scale_jobs
from binokel_sim.errors import InputError
from binokel_sim.rules import load_rules
from binokel_sim.runner import (Checkpoint, Chunk, Job, Scale, check_scheduler, chunk_ranges, connect, run_chunks,
                                run_jobs)

RULES = load_rules("standard")


def job(fn=scale_jobs.meld_chunk, n=60, chunk_size=8, seed=5, **params) -> Job:
    return Job("melds-test", fn, n=n, seed=seed, rules=RULES, params=params, chunk_size=chunk_size)


def test_chunk_ranges_cover_every_item_once():
    assert chunk_ranges(10, 4) == [Chunk(0, 0, 4), Chunk(1, 4, 8), Chunk(2, 8, 10)]
    assert chunk_ranges(8, 4) == [Chunk(0, 0, 4), Chunk(1, 4, 8)]
    assert chunk_ranges(0, 4) == []
    with pytest.raises(ValueError):
        chunk_ranges(5, 0)


def test_run_chunks_keeps_chunk_order():
    # Later chunks finish first here (they sleep less); the order must still be chunk order.
    def fn(c: Chunk) -> int:
        time.sleep(0.02 * (3 - c.index))
        return c.index

    assert run_chunks(fn, chunk_ranges(4, 1), workers=4) == [0, 1, 2, 3]


def test_results_do_not_depend_on_workers_or_chunk_size():
    base = np.concatenate(job(chunk_size=60).run(Scale(workers=1)))
    assert base.shape == (60,)
    for workers in (1, 2, 3):
        assert np.array_equal(np.concatenate(job().run(Scale(workers=workers))), base)
    assert np.array_equal(np.concatenate(job(chunk_size=7).run(Scale(workers=2))), base)
    # A simple reference: deal i scored on its own.
    for i in (0, 17, 59):
        one = scale_jobs.meld_chunk(job(), Chunk(0, i, i + 1))
        assert one[0] == base[i]
    # Another seed gives other deals.
    assert not np.array_equal(np.concatenate(job(seed=6).run(Scale(workers=2))), base)


def test_jobs_in_one_pool_equal_each_job_alone(tmp_path):
    jobs = [job(), job(seat=1, n=13, chunk_size=5), job(seed=6, n=0)]
    alone = [j.run(Scale(workers=1)) for j in jobs]
    for workers in (1, 2, 3):
        pooled = run_jobs(jobs, Scale(workers=workers))
        assert [len(p) for p in pooled] == [8, 3, 0]
        for got, ref in zip(pooled, alone, strict=True):
            assert all(np.array_equal(a, b) for a, b in zip(got, ref, strict=True))
    # Each job keeps its own checkpoint folder: a crash in the pool resumes job by job.
    scale_jobs.CALLS.update(n=0, fail_at=6)
    counted = [Job(j.name, scale_jobs.counted_chunk, j.n, j.seed, j.rules, j.params, j.chunk_size) for j in jobs]
    with pytest.raises(RuntimeError, match="simulated crash"):
        run_jobs(counted, Scale(workers=1, checkpoint=tmp_path))
    assert Checkpoint(tmp_path, jobs[0]).finished() == list(range(5))
    scale_jobs.CALLS.update(n=0, fail_at=0)
    resumed = run_jobs(counted, Scale(workers=2, checkpoint=tmp_path))
    assert scale_jobs.CALLS["n"] == 8 + 3 - 5
    assert Checkpoint(tmp_path, jobs[1]).finished() == [0, 1, 2]
    for got, ref in zip(resumed, alone, strict=True):
        assert all(np.array_equal(a, b) for a, b in zip(got, ref, strict=True))


def test_key_depends_on_everything_but_the_range():
    k = job().key()
    assert job().key() == k
    assert job(seat=1).key() != k
    assert job(seed=6).key() != k
    assert job(chunk_size=9).key() != k
    assert Job("melds-test", scale_jobs.meld_chunk, 60, 5, load_rules("kreuz"), {}, 8).key() != k
    # n is not part of it: a longer run reuses the chunks of a shorter one.
    assert job(n=100).key() == k
    c = Chunk(1, 8, 16)
    assert job().chunk_key(c) == job(n=100).chunk_key(c) != job(seat=1).chunk_key(c)
    with pytest.raises(TypeError):
        job(bad=object()).key()


def test_crashed_run_resumes_without_recomputing(tmp_path):
    reference = job().run(Scale(workers=1))
    scale_jobs.CALLS.update(n=0, fail_at=4)
    with pytest.raises(RuntimeError, match="simulated crash"):
        job(fn=scale_jobs.counted_chunk).run(Scale(workers=1, checkpoint=tmp_path))
    ckpt = Checkpoint(tmp_path, job())
    assert ckpt.finished() == [0, 1, 2]
    scale_jobs.CALLS.update(n=0, fail_at=0)
    resumed = job(fn=scale_jobs.counted_chunk).run(Scale(workers=2, checkpoint=tmp_path))
    assert scale_jobs.CALLS["n"] == 8 - 3  # only the chunks the crash left undone
    assert all(np.array_equal(a, b) for a, b in zip(resumed, reference, strict=True))
    # A third run computes nothing.
    scale_jobs.CALLS.update(n=0)
    again = job(fn=scale_jobs.counted_chunk).run(Scale(workers=2, checkpoint=tmp_path))
    assert scale_jobs.CALLS["n"] == 0
    assert all(np.array_equal(a, b) for a, b in zip(again, reference, strict=True))


def test_changed_parameter_does_not_reuse_stale_chunks(tmp_path):
    job().run(Scale(workers=1, checkpoint=tmp_path))
    scale_jobs.CALLS.update(n=0, fail_at=0)
    other = job(fn=scale_jobs.counted_chunk, seat=1).run(Scale(workers=1, checkpoint=tmp_path))
    assert scale_jobs.CALLS["n"] == 8
    assert all(np.array_equal(a, b) for a, b in zip(other, job(seat=1).run(Scale(workers=1)), strict=True))
    assert len([p for p in tmp_path.iterdir() if p.is_dir()]) == 2


def test_unreadable_chunk_is_named_and_recomputed(tmp_path, capsys):
    reference = job().run(Scale(workers=1))
    job().run(Scale(workers=1, checkpoint=tmp_path))
    ckpt = Checkpoint(tmp_path, job())
    ckpt.path(Chunk(2, 16, 24)).write_bytes(b"not a checkpoint")
    scale_jobs.CALLS.update(n=0, fail_at=0)
    got = job(fn=scale_jobs.counted_chunk).run(Scale(workers=1, checkpoint=tmp_path))
    assert scale_jobs.CALLS["n"] == 1
    assert all(np.array_equal(a, b) for a, b in zip(got, reference, strict=True))
    assert f"warning: checkpoint {ckpt.path(Chunk(2, 16, 24))} is damaged" in capsys.readouterr().err
    ok, value = ckpt.load(Chunk(2, 16, 24))
    assert ok and np.array_equal(value, reference[2])


_KILL_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
import scale_jobs
from binokel_sim.rules import load_rules
from binokel_sim.runner import Job, Scale
Job("melds-test", scale_jobs.slow_chunk, n=60, seed=5, rules=load_rules("standard"), params={{}},
    chunk_size=8).run(Scale(workers=1, checkpoint={ckpt!r}))
"""


@pytest.mark.slow
def test_killed_process_resumes_to_the_uninterrupted_result(tmp_path):
    script = _KILL_SCRIPT.format(tests=str(Path(__file__).parents[1]), ckpt=str(tmp_path))
    env = {**os.environ, "BINOKEL_TEST_SLEEP": "0.4"}
    proc = subprocess.Popen([sys.executable, "-c", script], env=env)
    ckpt = Checkpoint(tmp_path, job())
    try:
        deadline = time.monotonic() + 120
        while len(ckpt.finished()) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    done = ckpt.finished()
    assert 2 <= len(done) < 8, done  # killed midway
    # Every stored chunk is whole (atomic writes), whatever moment the kill came.
    assert all(ckpt.load(c)[0] for c in job().chunks() if c.index in done)
    scale_jobs.CALLS.update(n=0, fail_at=0)
    resumed = job(fn=scale_jobs.counted_chunk).run(Scale(workers=2, checkpoint=tmp_path))
    assert scale_jobs.CALLS["n"] == 8 - len(done)
    reference = job().run(Scale(workers=1))
    assert all(np.array_equal(a, b) for a, b in zip(resumed, reference, strict=True))


def test_scheduler_address_is_checked():
    assert check_scheduler("tcp://127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert check_scheduler("tcp://[::1]:8786") == "tcp://[::1]:8786"
    assert check_scheduler("tcp://dask-scheduler.example.org:1") == "tcp://dask-scheduler.example.org:1"
    for bad in ("127.0.0.1:8786", "http://host:1", "tcp://", "tcp://a b:1", "tcp://a:b", "tcp://host",
                "tcp://host:0", "tcp://host:65536", "inproc://x", "tls://host:8786", "ws://host:1",
                "tcp://" + "a" * 5000 + ":1", "tcp://host:1/", "tcp://-host:1", "tcp://[zz]:1", "tcp://a..b:1"):
        with pytest.raises(InputError, match="--scheduler"):
            check_scheduler(bad)


def test_unreachable_scheduler_is_one_line_error():
    pytest.importorskip("distributed", reason="needs the 'distributed' extra: pip install '.[distributed]'")
    with pytest.raises(InputError, match="cannot reach tcp://127.0.0.1:9") as exc:
        connect("tcp://127.0.0.1:9", timeout=0.5)
    assert "\n" not in str(exc.value)


def test_scheduler_without_dask_is_one_line_error(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    with pytest.raises(InputError, match="needs Dask") as exc:
        connect("tcp://127.0.0.1:9", timeout=0.5)
    assert "\n" not in str(exc.value)


def test_checkpoint_must_be_a_folder(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        job().run(Scale(workers=1, checkpoint=f))
