"""The same chunks on a real local Dask cluster (worker processes, loopback only)."""

from __future__ import annotations

import numpy as np
import pytest
from distributed import LocalCluster

import scale_jobs
from binokel_sim.rules import load_rules
from binokel_sim.runner import Checkpoint, Job, Scale


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
