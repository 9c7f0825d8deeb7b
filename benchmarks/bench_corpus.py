"""Benchmark of the corpus build: per-deal CPU cost against today's study deal, same deals, same run.

Baseline: :func:`binokel_sim.studies.deals.study_deals` (batched per chunk, no Durch
check), which is what ``odds tapp`` / ``odds bids`` pay per deal. Measured: the
corpus rows (:func:`binokel_sim.corpus.builder.corpus_rows`, one deal at a time so
each row carries its own nodes and seconds) with each ``--policies`` entry, with and
without the Durch check. CPU seconds of this process (the dev machine is shared, so
wall time says little); deals/hour = 3600 / CPU s per deal for one core.

    .venv/bin/python benchmarks/bench_corpus.py --rules standard --deals 30 > bench_corpus.json

With ``--old COMMIT`` (default :data:`old_solver.BASELINE`, the first commit after the
corpus issue was filed): the study deals of that commit on the same deals, in a child
process of the same run (:class:`old_solver.OldStudy`) -- the issue's "today's per-deal
cost", measured now, so the speed-up and the throughput against it do not depend on how
fast the shared machine runs this hour.

With ``--build N``: also a real build on ``--workers`` threads -- a copy of the shipped
corpus of the rules extended by N deals (``build_corpus``, as ``binokel corpus build``
runs it) -- timed in wall seconds: deals per hour, cores busy, and the ratio to what the
per-deal CPU above promises for that many workers.

    .venv/bin/python benchmarks/bench_corpus.py --rules standard --deals 24 --start 100000 --build 2000

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path

from old_solver import BASELINE, OldStudy

from binokel_sim.corpus.builder import corpus_rows
from binokel_sim.studies.deals import study_deals
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk, Scale


def timed(fn) -> tuple[float, object]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def real_build(rules, deals: int, workers: int, cpu_per_deal: float) -> dict:
    """The shipped corpus of ``rules`` copied to a temporary folder and extended by ``deals`` deals."""
    from binokel_sim.corpus.builder import build_corpus
    from binokel_sim.corpus.reader import shipped_root

    src = shipped_root() / rules.name
    with tempfile.TemporaryDirectory() as tmp:
        dst = Path(tmp) / rules.name
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__init__.py", "__pycache__"))
        held = json.loads((dst / "manifest.json").read_text())["deals"]
        t0 = time.perf_counter()
        m = build_corpus(rules, held + deals, dst, scale=Scale(workers=workers))
        wall = time.perf_counter() - t0
    new = [c for c in m["chunks"] if c["stop"] > held]
    cpu = sum(c["cpu_seconds"] for c in new)  # whole new chunks: a partial first one counts its old rows too
    rows = sum(c["rows"] for c in new)
    promised = workers * 3600 / cpu_per_deal
    return {"what": f"shipped corpus extended from {held} to {held + deals} deals, {workers} workers",
            "wall_seconds": round(wall, 1), "deals_per_hour": round(3600 * deals / wall),
            "cpu_seconds_per_deal": round(cpu / rows, 4), "cores_busy": round(cpu * deals / rows / wall, 2),
            "ratio_to_the_per_deal_figure": round(3600 * deals / wall / promised, 3)}


#: The corpus issue's figures: "today a study deal costs 1.3 s of CPU, about 2 700 deals per hour";
#: target >= 10 000 deals per hour on 2 cores, i.e. 10 000 / 2 700 = 3.7x that one-core rate.
ISSUE_DEALS_PER_HOUR = 2700
TARGET_DEALS_PER_HOUR = 10000


def issue_baseline(commit: str, rules: str, seed: int, chunk: Chunk, new_seconds: float, values: list[int],
                   build: dict | None) -> dict:
    """The study deals of ``commit`` on the same deals (see the module docstring), against this run's."""
    with OldStudy(commit, Path(__file__).resolve().parent.parent) as old:
        s, old_values = old.deals(rules, seed, chunk.start, chunk.stop)
    n = chunk.stop - chunk.start
    out = {"what": f"study deals of commit {commit} (exchange, contract value, Tapp-unseen baseline; child process)",
           "cpu_seconds_per_deal": round(s / n, 4), "deals_per_hour_1_core": round(3600 * n / s),
           "same_values": old_values == values,
           "corpus_deal_speedup": round(s / new_seconds, 2),
           "target_rate_multiple": round(TARGET_DEALS_PER_HOUR / ISSUE_DEALS_PER_HOUR, 2)}
    if build:
        # The issue's target as a multiple of its one-core rate, against the speed-up on the same deals times
        # the cores the build kept busy: the machine's speed this hour cancels (both sides ran in it).
        out["rate_multiple_on_build_cores"] = round(s / new_seconds * build["cores_busy"], 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--start", type=int, default=0, help="First deal (deal i depends only on seed and i).")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policies", default="heuristic,melds")
    ap.add_argument("--build", type=int, default=0, help="Deals of a real build extending the shipped corpus.")
    ap.add_argument("--workers", type=int, default=2, help="Worker threads of the real build.")
    ap.add_argument("--old", default=BASELINE, help="Commit of the issue-time study deal ('' skips it).")
    a = ap.parse_args()
    rules = load_rules(a.rules)
    chunk = Chunk(0, a.start, a.start + a.deals)
    corpus_rows(rules, a.seed, "heuristic", Chunk(0, 0, 1))  # compile / load caches
    base_s, base = timed(lambda: study_deals(rules, a.start + a.deals, seed=a.seed, policy="heuristic",
                                              scale=Scale(workers=1), start=a.start))
    runs = []
    for policy in a.policies.split(","):
        for durch in (True, False):
            s, df = timed(lambda p=policy, d=durch: corpus_rows(rules, a.seed, p, chunk, d))
            runs.append({
                "policy": policy, "durch_check": durch, "cpu_seconds_per_deal": round(s / a.deals, 4),
                "deals_per_hour_1_core": round(3600 * a.deals / s), "ratio_to_study": round(s / base_s, 3),
                "mean_nodes": round(float(df["nodes"].mean())),
                "max_deal_seconds": round(float(df["seconds"].max()), 3),
                "mean_total": round(float(df["value"].mean()), 2),
                "tapp_value": round(float(df["tapp_value"].mean()), 2),
                "durch_makeable": float(df["durch_makeable"].mean()),
                "equals_study": bool(policy != "heuristic" or (df["value"].tolist() == base["value"].tolist())),
            })
    build = real_build(rules, a.build, a.workers, runs[0]["cpu_seconds_per_deal"]) if a.build else None
    old = (issue_baseline(a.old, rules.name, a.seed, chunk, runs[0]["cpu_seconds_per_deal"] * a.deals,
                          base["value"].tolist(), build) if a.old else None)
    print(json.dumps({
        "benchmark": "corpus", "rules": rules.name, "seed": a.seed, "deals": a.deals, "start": a.start,
        "real_build": build,
        "baseline": {"what": "study_deals, heuristic policy, batched, no Durch check (today's study deal)",
                     "cpu_seconds_per_deal": round(base_s / a.deals, 4),
                     "deals_per_hour_1_core": round(3600 * a.deals / base_s)},
        "issue_baseline": old,
        "runs": runs, "target_deals_per_hour_2_cores": TARGET_DEALS_PER_HOUR,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }, indent=2))


if __name__ == "__main__":
    main()
