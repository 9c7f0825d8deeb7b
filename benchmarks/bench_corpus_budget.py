"""Benchmark of a budgeted corpus build (48 cards): per-deal CPU cost and unresolved fraction per node budget.

For each ``--budgets`` entry (nodes per ``Solver.bounds`` solve) the corpus rows
(:func:`binokel_sim.corpus.builder.corpus_rows` with ``solve_budget``, one deal at a time, no
Durch check) are timed against the baseline measured in the same run on the same deals: a
fresh budgeted study (:func:`binokel_sim.studies.deals.study_deals`, what ``odds tapp``
pays per deal at 48 cards). ``equals_study``: the corpus intervals equal the study's. CPU
seconds of this process (the dev machine is shared, so wall time says little).

    .venv/bin/python benchmarks/bench_corpus_budget.py --rules standard-48 --deals 4 --budgets 500000,2000000

One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform

from bench_corpus import timed  # the same CPU-time measure (benchmarks/ is on the path when run as a script)
from binokel_sim.corpus.builder import corpus_rows
from binokel_sim.studies.deals import study_deals
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk, Scale


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budgets", default="500000,2000000,8000000", help="Nodes per solve, comma-separated.")
    ap.add_argument("--rules", default="standard-48")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=4)
    a = ap.parse_args()
    rules = load_rules(a.rules)
    corpus_rows(rules, a.seed, "heuristic", Chunk(0, 0, 1), False, 1000)  # compile / load caches
    runs = []
    for budget in (int(b) for b in a.budgets.split(",")):
        base_s, base = timed(lambda b=budget: study_deals(rules, a.deals, seed=a.seed, scale=Scale(workers=1),
                                                          solve_budget=b))
        s, df = timed(lambda b=budget: corpus_rows(rules, a.seed, "heuristic", Chunk(0, 0, a.deals), False, b))
        unresolved = ~(df["points_exact"] & df["base_points_exact"])
        runs.append({
            "budget_nodes": budget, "cpu_seconds_per_deal": round(s / a.deals, 3),
            "study_cpu_seconds_per_deal": round(base_s / a.deals, 3), "ratio_to_study": round(s / base_s, 3),
            "deals_per_hour_1_core": round(3600 * a.deals / s), "unresolved_fraction": float(unresolved.mean()),
            "mean_width": round(float((df["points_hi"] - df["points_lo"]).mean()), 2),
            "mean_nodes": round(float(df["nodes"].mean())),
            "equals_study": bool(df["points_lo"].tolist() == base["value"].tolist()
                                 and df["points_hi"].tolist() == base["value_hi"].tolist()),
        })
    print(json.dumps({
        "benchmark": "corpus-budget", "rules": rules.name, "seed": a.seed, "deals": a.deals,
        "baseline": "study_deals with the same solve budget, same deals, same run",
        "runs": runs, "load_average": os.getloadavg(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }, indent=2))


if __name__ == "__main__":
    main()
