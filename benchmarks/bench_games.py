"""Whole ``dabb-two`` games with rule-based play (issue #38: 10 000 games in at most 5 minutes on 2 cores).

Prints JSON: wall and CPU seconds of ``simulate_auction_games(load_rules("dabb-two"), games=N, seed=1,
scale=Scale(workers=2), play="rule-based")``, games per second and deals per game; and two baselines
measured in the same run: ``binokel --version`` as a subprocess (what the machine's speed and load
do to a fixed small job) and ``--dd-games`` double-dummy games on one worker, extrapolated to N
games. A warm-up of two games runs first (numba loads its cached kernels), timed apart. The load
average goes with the figures: the machine is shared, and on a loaded one wall time measures the
queue for a core as much as the work.

    .venv/bin/python benchmarks/bench_games.py --games 10000
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from typing import Callable, TypeVar

from binokel_sim.game.runs import simulate_auction_games
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from cli_timing import timed_cli


T = TypeVar("T")


def timed(fn: Callable[[], T]) -> tuple[T, float, float]:
    """(result, wall seconds, CPU seconds of this process: every worker thread's) of ``fn()``."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def version_seconds() -> tuple[float, float]:
    """(wall, CPU) of ``binokel --version`` as a subprocess, the best of three."""
    return min(timed_cli(["--version"]) for _ in range(3))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="Rule-based games to time.")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dd-games", type=int, default=2, help="Double-dummy games for the baseline (0: none).")
    a = ap.parse_args()
    rules = load_rules("dabb-two")
    load_before = os.getloadavg()
    scale = Scale(workers=a.workers)
    _, warm_wall, warm_cpu = timed(lambda: simulate_auction_games(rules, games=2, seed=1, scale=scale,
                                                                  play="rule-based"))
    res, wall, cpu = timed(lambda: simulate_auction_games(rules, games=a.games, seed=1, scale=scale,
                                                          play="rule-based"))
    deals = len(res.deals)
    v_wall, v_cpu = version_seconds()
    out: dict = {
        "what": f"simulate_auction_games dabb-two, {a.games} games, seed 1, {a.workers} workers, play rule-based",
        "games": a.games, "deals": deals, "deals_per_game": round(deals / max(a.games, 1), 3),
        "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "games_per_s": round(a.games / wall, 1),
        "cpu_ms_per_game": round(1000 * cpu / max(a.games, 1), 2),
        "warm_up": {"games": 2, "wall_s": round(warm_wall, 2), "cpu_s": round(warm_cpu, 2)},
        "target": {"wall_s": 300, "met": wall <= 300 if a.games == 10_000 else None},
        "baseline_version": {"what": "binokel --version, best of 3", "wall_s": round(v_wall, 3),
                             "cpu_s": round(v_cpu, 3), "ratio_wall": round(wall / v_wall, 1)},
    }
    if a.dd_games > 0:
        dd, dd_wall, dd_cpu = timed(lambda: simulate_auction_games(rules, games=a.dd_games, seed=1,
                                                                   scale=Scale(workers=1)))
        per_game = dd_cpu / a.dd_games
        out["baseline_double_dummy"] = {
            "what": f"{a.dd_games} double-dummy games, 1 worker, extrapolated to {a.games} games on {a.workers} cores",
            "games": a.dd_games, "deals": len(dd.deals), "wall_s": round(dd_wall, 2),
            "cpu_s": round(dd_cpu, 2), "cpu_s_per_game": round(per_game, 3),
            "extrapolated_wall_s": round(per_game * a.games / a.workers, 1),
            "ratio_cpu_per_game": round(per_game / (cpu / max(a.games, 1)), 1)}
    out["load_avg_before"] = [round(x, 2) for x in load_before]
    out["load_avg_after"] = [round(x, 2) for x in os.getloadavg()]
    out["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version()}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
