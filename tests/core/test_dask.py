"""The same chunks on a real local Dask cluster (worker processes, loopback only)."""

from __future__ import annotations

import numpy as np
import pytest

import scale_jobs
from binokel_sim.rules import load_rules
from binokel_sim.runner import Checkpoint, Job, Scale, run_jobs

distributed = pytest.importorskip("distributed", reason="needs the 'distributed' extra: pip install '.[distributed]'")
LocalCluster = distributed.LocalCluster


@pytest.fixture(scope="module")
def scheduler():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def make_job(rules: str = "standard-48", seat: int = 2) -> Job:
    return Job("melds-test", scale_jobs.meld_chunk, n=90, seed=11, rules=load_rules(rules),
               params={"seat": seat}, chunk_size=10)


def test_dask_run_equals_local_run(scheduler):
    local = make_job().run(Scale(workers=2))
    remote = make_job().run(Scale(scheduler=scheduler))
    assert len(remote) == 9
    assert all(np.array_equal(a, b) for a, b in zip(remote, local, strict=True))
    # Seat 2 of a 48-card deal: some hands must meld (a sanity check that real work ran).
    assert np.concatenate(remote).max() > 0


def test_dask_run_fills_the_checkpoint_a_local_run_resumes_from(scheduler, tmp_path):
    remote = make_job("kreuz", 1).run(Scale(scheduler=scheduler, checkpoint=tmp_path))
    assert Checkpoint(tmp_path, make_job("kreuz", 1)).finished() == list(range(9))
    scale_jobs.CALLS.update(n=0, fail_at=0)
    job = make_job("kreuz", 1)
    resumed = Job(job.name, scale_jobs.counted_chunk, job.n, job.seed, job.rules, job.params, job.chunk_size)
    again = resumed.run(Scale(workers=1, checkpoint=tmp_path))
    assert scale_jobs.CALLS["n"] == 0
    assert all(np.array_equal(a, b) for a, b in zip(again, remote, strict=True))


def test_meld_odds_and_durch_on_dask_equal_local(scheduler):
    import pandas as pd

    from binokel_sim.analyses.compare import durch_chunk
    from binokel_sim.analyses.meld_odds import meld_odds_table

    r = load_rules("grupp")
    local = meld_odds_table(r, 12_000, 2, scale=Scale(workers=1), chunk_size=4000, scopes=("hand", "kept"))
    remote = meld_odds_table(r, 12_000, 2, scale=Scale(scheduler=scheduler), chunk_size=4000, scopes=("hand", "kept"))
    pd.testing.assert_frame_equal(local, remote)
    job = Job("compare-durch", durch_chunk, n=3000, seed=2, rules=r, chunk_size=1000)
    assert np.array_equal(np.concatenate(job.run(Scale(workers=2))),
                          np.concatenate(job.run(Scale(scheduler=scheduler))))


def test_pooled_jobs_on_dask_equal_local(scheduler):
    jobs = [make_job(), make_job("kreuz", 1)]
    local = run_jobs(jobs, Scale(workers=2))
    remote = run_jobs(jobs, Scale(scheduler=scheduler))
    for got, ref in zip(remote, local, strict=True):
        assert len(got) == 9
        assert all(np.array_equal(a, b) for a, b in zip(got, ref, strict=True))
