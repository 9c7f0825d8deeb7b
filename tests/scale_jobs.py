"""Chunk functions the runner tests share (importable by Dask workers and subprocesses).

``meld_chunk``: best meld total (over the four trumps) of seat 0 for each deal of the
chunk -- a real per-item job whose result for item i depends only on (seed, rules, i).
"""

from __future__ import annotations

import os
import time

import numpy as np

from binokel_sim import streams
from binokel_sim.cards import counts_of
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.melds.scorer import best_trump
from binokel_sim.runner import Chunk, Job

#: Calls of ``counted_chunk`` in this process, and the call number at which it fails (0: never).
CALLS = {"n": 0, "fail_at": 0}


def meld_chunk(job: Job, chunk: Chunk) -> np.ndarray:
    rules = job.rules
    deals = Dealer(rules, job.seed, stream=streams.stream("scale_test")).deal(chunk.size, start=chunk.start)
    table = rules.meld_array()
    h = rules.layout.hand_size
    seat = int(job.params.get("seat", 0))
    out = np.empty(chunk.size, dtype=np.int64)
    for i, row in enumerate(deals):
        out[i] = best_trump(counts_of(row[seat * h:(seat + 1) * h], check=False), table)[0]
    return out


def counted_chunk(job: Job, chunk: Chunk) -> np.ndarray:
    """``meld_chunk`` that counts its calls and raises at call ``CALLS['fail_at']`` (a crash)."""
    CALLS["n"] += 1
    if CALLS["n"] == CALLS["fail_at"]:
        raise RuntimeError("simulated crash")
    return meld_chunk(job, chunk)


def slow_chunk(job: Job, chunk: Chunk) -> np.ndarray:
    """``meld_chunk`` that takes a while, so a test can kill its process midway."""
    # From the environment, not the parameters: the resumed run must share the job's key.
    time.sleep(float(os.environ.get("BINOKEL_TEST_SLEEP", "0")))
    return meld_chunk(job, chunk)
