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
import subprocess
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


def _timed_solves(solver: Solver, positions, values: list[int] | None = None) -> tuple[list[float], list[int]]:
    secs, nodes = [], []
    for pos in positions:
        solver.reset()
        t = time.perf_counter()
        v = solver.max_points(pos)
        secs.append(time.perf_counter() - t)
        nodes.append(solver.nodes)
        if values is not None:
            values.append(v)
    return secs, nodes


def endgames(deals: int, seed: int) -> tuple[list, float, list[float], list[int], int]:
    """The seeded endgames, the talon phase's seconds per deal, each endgame's fresh-table solve
    (seconds, nodes) and the sum of the values (a checksum against another solver)."""
    rules = load_rules("two-hand")
    rows = Dealer(rules, seed=seed).deal(deals)
    solver = Solver()
    t = time.perf_counter()
    ends = [play_deal(rules, row, endgame="none").endgame for row in rows]
    talon_s = (time.perf_counter() - t) / deals
    _timed_solves(solver, ends[:3])  # compile
    values: list[int] = []
    secs, nodes = _timed_solves(solver, ends, values)
    return ends, talon_s, secs, nodes, sum(values)


def baseline_tree(tree: str, deals: int, seed: int) -> dict:
    """The endgame figures of the solver in checkout ``tree``, timed in a child process."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, __file__, "--endgames-only", "--deals", str(deals), "--seed", str(seed)],
                         env=env, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def bench(deals: int, seed: int, games: int, workers: int) -> dict:
    rules = load_rules("two-hand")
    solver = Solver()
    ends, talon_s, secs, nodes, vsum = endgames(deals, seed)
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
        "talon_phase_s_per_deal": talon_s, "values_sum": vsum,
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
    ap.add_argument("--baseline-tree", default=None, help="checkout of the old solver, timed in a child process")
    ap.add_argument("--endgames-only", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.endgames_only:
        _, _, secs, nodes, vsum = endgames(a.deals, a.seed)
        print(json.dumps({"endgame_2seat_12tricks_s": _summary(secs), "endgame_nodes": _summary(nodes),
                          "values_sum": vsum}))
        return
    base = baseline_tree(a.baseline_tree, a.deals, a.seed) if a.baseline_tree else None
    res = bench(a.deals, a.seed, a.games, a.workers)
    if base is not None:
        res["baseline_tree"] = {"tree": a.baseline_tree, **base, "ratio_median_new_to_old":
                                res["endgame_2seat_12tricks_s"]["median"] / base["endgame_2seat_12tricks_s"]["median"],
                                "ratio_mean_new_to_old":
                                res["endgame_2seat_12tricks_s"]["mean"] / base["endgame_2seat_12tricks_s"]["mean"]}
    res["machine"] = {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count(),
                      "load_average_1min": os.getloadavg()[0]}
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
