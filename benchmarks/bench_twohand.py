"""Benchmark of two-hand Binokel: the exact endgame solve and whole-deal / whole-game speed.

Endgames: seeded two-hand deals, the talon phase played by the heuristic, then the
exact value of the 12-trick, 2-seat endgame on a fresh table (the target: median
<= 5 ms). Baseline in the same run: three-hand (standard) positions with the same
number of cards in play (8 tricks x 3 seats = 24 cards), fresh table. Also: the
talon phase alone and a whole deal per second, and ``--games`` whole games through
the runner with ``--workers`` threads (the target: 10000 games in 5 minutes on 2 cores).

    .venv/bin/python benchmarks/bench_twohand.py --deals 200 --games 100 --workers 2 > bench-twohand.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

from binokel_sim.dealing.dealer import Dealer
from binokel_sim.play.solver import Position, Solver
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from binokel_sim.twohand.play import play_deal
from binokel_sim.twohand.runs import simulate_twohand_games


def _summary(values: list[float]) -> dict[str, float]:
    a = np.asarray(values, dtype=float)
    return {"n": int(a.size), "median": float(np.median(a)), "p90": float(np.percentile(a, 90)),
            "max": float(a.max()), "mean": float(a.mean())}


def _timed_solves(solver: Solver, positions) -> tuple[list[float], list[int]]:
    secs, nodes = [], []
    for pos in positions:
        solver.reset()
        t = time.perf_counter()
        solver.max_points(pos)
        secs.append(time.perf_counter() - t)
        nodes.append(solver.nodes)
    return secs, nodes


def bench(deals: int, seed: int, games: int, workers: int) -> dict:
    rules = load_rules("two-hand")
    rows = Dealer(rules, seed=seed).deal(deals)
    solver = Solver()
    t = time.perf_counter()
    ends = [play_deal(rules, row, endgame="none").endgame for row in rows]
    talon_s = (time.perf_counter() - t) / deals
    _timed_solves(solver, ends[:3])  # compile
    secs, nodes = _timed_solves(solver, ends)
    std = load_rules("standard")
    srows = Dealer(std, seed=seed).deal(deals)
    rng = np.random.default_rng(seed)
    base = [Position.parse([[int(c) for c in r[s * 12:s * 12 + 8]] for s in range(3)], int(rng.integers(4)), 0,
                           int(rng.integers(3)), None) for r in srows]
    bsecs, bnodes = _timed_solves(solver, base)
    out = {
        "endgame_2seat_12tricks_s": _summary(secs), "endgame_nodes": _summary(nodes),
        "baseline_3seat_8tricks_s": _summary(bsecs), "baseline_nodes": _summary(bnodes),
        "ratio_median_endgame_to_baseline": float(np.median(secs) / np.median(bsecs)),
        "target_median_s": 0.005, "target_met": bool(np.median(secs) <= 0.005),
        "talon_phase_s_per_deal": talon_s,
    }
    if games:
        t = time.perf_counter()
        res = simulate_twohand_games(rules, games, seed, scale=Scale(workers=workers))
        wall = time.perf_counter() - t
        out["games"] = {"games": games, "deals": int(res.provenance["deals"]), "workers": workers, "seconds": wall,
                        "projected_10000_games_s": wall / games * 10000,
                        "games_in_300_s": int(300 / wall * games)}
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    res = bench(a.deals, a.seed, a.games, a.workers)
    res["machine"] = {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count(),
                      "load_average_1min": os.getloadavg()[0]}
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
