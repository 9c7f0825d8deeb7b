"""Deals per second per core: dealing the default preset and scoring with all event tallies.

Prints JSON. Workloads (each on 1 and 2 worker threads, best of ``--repeat`` runs):

* ``deal_only`` (baseline): ``Dealer.deal`` rows (``dealing.deal_batch``), nothing scored;
* ``hand``: the target workload -- deal, score all three hands at every trump and the
  best trump, tally every event level, histogram and cluster sums (``scopes=("hand",)``);
* ``hand+tapp``: also seat 0's hand + Tapp;
* ``all``: also the best kept hand (the exact discard search where it is needed).

``per_core`` is deals/s divided by the worker count; ``cpu_rate`` divides by process CPU
seconds instead (steadier on a shared machine, where ``cpu_share`` < 1 shows the threads
waiting for a CPU); ``ratio_to_baseline`` compares with ``deal_only`` at the same worker
count. Target: ``hand`` >= 4 million deals/s per core.

    .venv/bin/python benchmarks/bench_deal.py [--deals 4000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from binokel_sim.dealing.dealer import Dealer
from binokel_sim.odds.monte_carlo import run_meld_tally
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale, chunk_ranges, run_chunks

TARGET_PER_CORE = 4_000_000
WORKLOADS = {"hand": ("hand",), "hand+tapp": ("hand", "hand+tapp"), "all": ("hand", "hand+tapp", "kept")}


def deal_only(rules, deals: int, workers: int) -> None:
    dealer = Dealer(rules, seed=1)

    def one(chunk) -> int:
        # Chunks of 100 000 rows keep memory small; the rows are dealt and dropped.
        return int(dealer.deal(chunk.size, start=chunk.start)[-1, 0])

    run_chunks(one, chunk_ranges(deals, 100_000), workers=workers)


def measure(fn, deals: int, workers: int, repeat: int) -> dict:
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn(deals, workers)
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    rate = deals / best_wall
    # Below 1: the threads waited for a CPU (other processes on the machine).
    cpu_share = best_cpu / (best_wall * workers)
    return {"deals": deals, "workers": workers, "wall_s": round(best_wall, 3), "deals_per_s": round(rate),
            "per_core": round(rate / workers), "cpu_rate": round(deals / best_cpu), "cpu_share": round(cpu_share, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rules = load_rules("standard")
    # Warm up: compile (or load from the numba cache) before timing.
    for scopes in WORKLOADS.values():
        run_meld_tally(rules, 1000, seed=1, scale=Scale(workers=1), scopes=scopes)
    deal_only(rules, 1000, 1)

    load_before = [round(x, 2) for x in os.getloadavg()]
    runs: dict[str, dict] = {}
    fns = {"deal_only": lambda n, w: deal_only(rules, n, w)}
    for name, scopes in WORKLOADS.items():
        fns[name] = lambda n, w, scopes=scopes: run_meld_tally(rules, n, seed=1, scale=Scale(workers=w), scopes=scopes)
    for name, fn in fns.items():
        # The kept search is slower: a quarter of the deals gives as steady a number.
        n = args.deals // 4 if name == "all" else args.deals
        runs[name] = {f"{w}_core": measure(fn, n, w, args.repeat) for w in (1, 2)}
    for by in runs.values():
        for key, r in by.items():
            r["ratio_to_baseline"] = round(r["deals_per_s"] / runs["deal_only"][key]["deals_per_s"], 3)
    out = {
        "benchmark": "deal + meld scoring + event tallies, preset standard",
        "cores_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "load_average_before": load_before,
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "target_per_core": TARGET_PER_CORE,
        "target_met_1_core": runs["hand"]["1_core"]["per_core"] >= TARGET_PER_CORE,
        "target_met_2_core": runs["hand"]["2_core"]["per_core"] >= TARGET_PER_CORE,
        "target_met_per_cpu_second": min(r["cpu_rate"] for r in runs["hand"].values()) >= TARGET_PER_CORE,
        "runs": runs,
        "numpy": np.__version__,
    }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
