"""Benchmark of two-hand Binokel: the exact endgame solve and whole-deal / whole-game speed.

Endgames: seeded two-hand deals, the talon phase played by the heuristic, then the
exact value of the 12-trick, 2-seat endgame on a fresh table (the target: median
<= 5 ms) by the two-seat search (:mod:`binokel_sim.twohand.search`). Baseline in the
same run, endgame by endgame in turn (so drifting machine load hits both alike): the
generic three-seat solver run with two seats, which the endgame used before; the
values must be identical. Also: the talon phase alone per deal, and ``--games`` whole
games through the runner with ``--workers`` (the target: 10000 games in 5 minutes on 2 cores).

    .venv/bin/python benchmarks/bench_twohand.py --deals 200 --games 100 --workers 2 > bench-twohand.json

``--endgames-only --solver two-seat|generic`` times one solver alone (to compare the two by their CPU time);
``--claims GAMES`` measures the endgames of deals claimed during the talon phase.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

import numpy as np

from binokel_sim import streams
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.play.solver import Solver
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from binokel_sim.twohand.play import play_deal
from binokel_sim.twohand.games import simulate_twohand_game
from binokel_sim.twohand.runs import simulate_twohand_games
from binokel_sim.twohand.search import TwoSeatSearch


def _summary(values: list[float]) -> dict[str, float]:
    a = np.asarray(values, dtype=float)
    return {"n": int(a.size), "median": float(np.median(a)), "p90": float(np.percentile(a, 90)),
            "max": float(a.max()), "mean": float(a.mean())}


def _solve(kind: str, solver, pos) -> tuple[int, float, float, int]:
    """One fresh-table solve: value, wall and CPU seconds (CPU is steadier on a shared machine),
    nodes (trick starts for the two-seat search, card plays for the generic solver)."""
    solver.reset()
    t, c = time.perf_counter(), time.process_time()
    if kind == "two-seat":
        v = solver.value(pos.hands, pos.trump_index, pos.leader, (), pos.last_trick)
    else:
        v = solver.max_points(pos)
    return v, time.perf_counter() - t, time.process_time() - c, solver.nodes


def endgames(deals: int, seed: int) -> tuple[list, float]:
    """The seeded endgames and the talon phase's seconds per deal."""
    rules = load_rules("two-hand")
    rows = Dealer(rules, seed=seed).deal(deals)
    t = time.perf_counter()
    ends = [play_deal(rules, row, endgame="none").endgame for row in rows]
    return ends, (time.perf_counter() - t) / deals


def bench(deals: int, seed: int, games: int, workers: int, kinds: tuple[str, ...]) -> dict:
    ends, talon_s = endgames(deals, seed)
    solvers = {"two-seat": TwoSeatSearch(), "generic": Solver()}
    out: dict = {"deals": deals, "seed": seed, "talon_phase_s_per_deal": talon_s}
    res: dict[str, dict[str, list]] = {k: {"v": [], "s": [], "c": [], "n": []} for k in kinds}
    for k in kinds:
        for pos in ends[:3]:
            _solve(k, solvers[k], pos)  # compile
    for pos in ends:
        for k in kinds:
            v, sec, cpu, nodes = _solve(k, solvers[k], pos)
            res[k]["v"].append(v)
            res[k]["s"].append(sec)
            res[k]["c"].append(cpu)
            res[k]["n"].append(nodes)
    for k in kinds:
        out[k] = {"seconds": _summary(res[k]["s"]), "cpu_seconds": _summary(res[k]["c"]),
                  "nodes": _summary(res[k]["n"]), "values_sum": sum(res[k]["v"])}
    if len(kinds) == 2:
        new, old = (np.asarray(res[k]["s"]) for k in kinds)
        out["values_identical"] = res[kinds[0]]["v"] == res[kinds[1]]["v"]
        out["ratio_median_two_seat_to_generic"] = float(np.median(new) / np.median(old))
        out["ratio_mean_two_seat_to_generic"] = float(new.mean() / old.mean())
        out["median_of_per_endgame_ratios"] = float(np.median(new / old))
        cnew, cold = (np.asarray(res[k]["c"]) for k in kinds)
        out["ratio_median_cpu_two_seat_to_generic"] = float(np.median(cnew) / np.median(cold))
    out["target_median_s"] = 0.005
    out["target_met_wall"] = bool(np.median(res[kinds[0]]["s"]) <= 0.005)
    out["target_met_cpu"] = bool(np.median(res[kinds[0]]["c"]) <= 0.005)
    if games:
        t = time.perf_counter()
        g = simulate_twohand_games(load_rules("two-hand"), games, seed, scale=Scale(workers=workers))
        wall = time.perf_counter() - t
        out["games"] = {"games": games, "deals": int(g.provenance["deals"]), "workers": workers, "seconds": wall,
                        "projected_10000_games_s": wall / games * 10000, "games_in_300_s": int(300 / wall * games)}
    return out


def claims(games: int, seed: int) -> dict:
    """Deals claimed during the talon phase: how much endgame solving they take, and how many
    card points their endgames hold (which enter the per-deal rows, so a skipped solve would
    change the numbers unless they could be derived otherwise)."""
    rules = load_rules("two-hand")
    search = TwoSeatSearch()
    solve_cpu, claimed_cpu, points = 0.0, 0.0, []
    deals = 0
    t = time.process_time()
    for g in range(games):
        rec = simulate_twohand_game(rules, seed, g, search)
        dealer = Dealer(rules, seed, stream=streams.stream("twohand_game", g))
        before = [0, 0]
        for row in rec["rows"]:
            deals += 1
            res = play_deal(rules, dealer.deal(1, start=row["deal"])[0], endgame="none")
            e = res.endgame
            search.reset()  # the game's run already solved it: time a fresh solve
            c = time.process_time()
            v = search.value(e.hands, e.trump_index, e.leader, (), e.last_trick, rules.talon.must_head)
            c = time.process_time() - c
            solve_cpu += c
            seat_of = [(s + row["deal"]) % 2 for s in range(2)]
            start = [before[p] for p in seat_of]
            if row["claimed_by"] >= 0 and any(start[s] + res.turned[s] + run[s] >= rules.game.target
                                              for run in [(0, 0)] + res.running for s in range(2)):
                claimed_cpu += c
                points.append(v)
            before = [row["total_p0"], row["total_p1"]]
    p = np.asarray(points, dtype=float)
    return {"games": games, "seed": seed, "deals": deals, "claimed_in_talon_phase": int(p.size),
            "share_of_deals": p.size / deals, "cpu_s_all_endgame_solves": solve_cpu,
            "cpu_s_solves_of_claimed_deals": claimed_cpu, "cpu_s_total": time.process_time() - t,
            "claimed_endgame_points_seat0": _summary(list(p)) | {"sd": float(p.std(ddof=1))}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--games", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--endgames-only", action="store_true", help="endgames of one solver, no games")
    ap.add_argument("--solver", choices=["two-seat", "generic"], default="two-seat")
    ap.add_argument("--claims", type=int, default=0, help="games for the claimed-deal measurement (only that)")
    a = ap.parse_args(argv)
    if a.claims:
        res = claims(a.claims, a.seed)
    elif a.endgames_only:
        res = bench(a.deals, a.seed, 0, a.workers, (a.solver,))
    else:
        res = bench(a.deals, a.seed, a.games, a.workers, ("two-seat", "generic"))
    res["machine"] = {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": os.cpu_count(),
                      "load_average_1min": os.getloadavg()[0]}
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
