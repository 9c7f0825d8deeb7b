"""Benchmark of the corpus build: per-deal CPU cost against today's study deal, same deals, same run.

Baseline: :func:`binokel_sim.evaluation.study.study_deals` (batched per chunk, no Durch
check), which is what ``odds tapp`` / ``odds bids`` pay per deal. Measured: the
corpus rows (:func:`binokel_sim.corpus.builder.corpus_rows`, one deal at a time so
each row carries its own nodes and seconds) with each ``--policies`` entry, with and
without the Durch check. CPU seconds of this process (the dev machine is shared, so
wall time says little); deals/hour = 3600 / CPU s per deal for one core.

    .venv/bin/python benchmarks/bench_corpus.py --rules standard --deals 30 > bench_corpus.json

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

from binokel_sim.corpus.builder import corpus_rows
from binokel_sim.evaluation.study import study_deals
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk


def timed(fn) -> tuple[float, object]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--start", type=int, default=0, help="First deal (deal i depends only on seed and i).")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policies", default="heuristic,melds")
    a = ap.parse_args()
    rules = load_rules(a.rules)
    chunk = Chunk(0, a.start, a.start + a.deals)
    corpus_rows(rules, a.seed, "heuristic", Chunk(0, 0, 1))  # compile / load caches
    base_s, base = timed(lambda: study_deals(rules, a.start + a.deals, seed=a.seed, policy="heuristic", workers=1,
                                              start=a.start))
    runs = []
    for policy in a.policies.split(","):
        for durch in (True, False):
            s, df = timed(lambda: corpus_rows(rules, a.seed, policy, chunk, durch))
            runs.append({
                "policy": policy, "durch_check": durch, "cpu_seconds_per_deal": round(s / a.deals, 4),
                "deals_per_hour_1_core": round(3600 * a.deals / s), "ratio_to_study": round(s / base_s, 3),
                "mean_nodes": round(float(df["nodes"].mean())), "max_deal_seconds": round(float(df["seconds"].max()), 3),
                "mean_total": round(float(df["value"].mean()), 2), "tapp_value": round(float(df["tapp_value"].mean()), 2),
                "durch_makeable": float(df["durch_makeable"].mean()),
                "equals_study": bool(policy != "heuristic" or (df["value"].tolist() == base["value"].tolist())),
            })
    print(json.dumps({
        "benchmark": "corpus", "rules": rules.name, "seed": a.seed, "deals": a.deals, "start": a.start,
        "baseline": {"what": "study_deals, heuristic policy, batched, no Durch check (today's study deal)",
                     "cpu_seconds_per_deal": round(base_s / a.deals, 4),
                     "deals_per_hour_1_core": round(3600 * a.deals / base_s)},
        "runs": runs, "target_deals_per_hour_2_cores": 10000,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }, indent=2))


if __name__ == "__main__":
    main()
