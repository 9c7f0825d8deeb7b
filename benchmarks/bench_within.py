"""Benchmark of the corpus query of the 48-card presets: ``--within`` (every bid decided, then exact within a budget)
against ``Solver.bounds`` with the same node budget, on the same deals in the same run.

Per deal (:func:`binokel_sim.corpus.builder.corpus_rows`, one deal at a time, no Durch check): CPU seconds, nodes,
the share of totals exact, the widest interval, and whether every bid is decided (no multiple of 10 inside a
total's interval). CPU seconds of this process: the machine is shared, so wall time says little; node counts do
not depend on the load.

    .venv/bin/python benchmarks/bench_within.py --rules wuerttemberg --deals 10 --budget 200000000

One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform

import numpy as np

from bench_corpus import timed  # the same CPU-time measure (benchmarks/ is on the path when run as a script)
from binokel_sim.corpus.builder import corpus_rows
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk


def figures(df, seconds: float) -> dict:
    lo = np.concatenate([df["points_lo"].to_numpy(), df["base_points_lo"].to_numpy()])
    hi = np.concatenate([df["points_hi"].to_numpy(), df["base_points_hi"].to_numpy()])
    return {"cpu_seconds_per_deal": round(seconds / len(df), 2), "deals_per_hour_2_cores": round(2 * 3600 * len(df)
                                                                                                 / seconds),
            "mean_nodes_per_deal": round(float(df["nodes"].mean())), "totals_exact": round(float((lo == hi).mean()), 3),
            "widest": int((hi - lo).max()), "every_bid_decided": bool((lo // 10 == hi // 10).all())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="wuerttemberg")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="First deal (deals of the corpus stream).")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--budget", type=int, default=200_000_000, help="Nodes per total (both queries).")
    ap.add_argument("--within", type=int, default=10)
    a = ap.parse_args()
    rules = load_rules(a.rules)
    chunk = Chunk(0, a.start, a.start + a.deals)
    corpus_rows(rules, a.seed, "heuristic", Chunk(0, 0, 1), False, 1000, a.within)  # compile / load caches
    s_w, w = timed(lambda: corpus_rows(rules, a.seed, "heuristic", chunk, False, a.budget, a.within))
    s_b, b = timed(lambda: corpus_rows(rules, a.seed, "heuristic", chunk, False, a.budget))
    print(json.dumps({
        "benchmark": "within", "rules": rules.name, "seed": a.seed, "deals": f"{a.start}..{a.start + a.deals - 1}",
        "budget_nodes": a.budget, "within": a.within,
        "within_query": figures(w, s_w), "bounds_query_same_budget": figures(b, s_b),
        "cpu_ratio_within_to_bounds": round(s_w / s_b, 3),
        "load_average": os.getloadavg(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }, indent=2))


if __name__ == "__main__":
    main()
