"""Benchmark of the double-dummy solver, anchored against DDS (bridge) in the same run.

For each layout: random full deals (seeded dealer), random trump suit, forehand
leads, random soloist (with a partner at kreuz). Times the exact maximum (fresh
table per deal) and a threshold query at the exact value (the hardest target:
both bounds must be proved; fresh table). The anchor: DDS through ``endplay``
(``pip install binokel-sim[bench]``) on random bridge deals, ``SolveBoard`` for
one optimal card, then (in a second pass, so DDS cannot reuse its table for a
repeated deal) a target solve at the exact value.

    .venv/bin/python benchmarks/bench_solver.py --deals 200 --dds-deals 200 > bench.json

Prints one JSON object: per layout and for DDS, median/p90/p99/max seconds and
nodes, and the ratios the issue sets as targets; plus a scaling series (exact
solves of standard positions with 6, 8, 10, 12 tricks left), whose 10-trick row is
the size of a Skat game -- the nearest published solver (Kupferschmid & Helmert,
CG 2006) reports 10 ms for a typical Skat hand.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

import numpy as np

from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.rules import load_rules
from binokel_sim.play.solver import Position, Solver


def _summary(values: list[float]) -> dict[str, float]:
    a = np.asarray(values, dtype=float)
    return {"median": float(np.median(a)), "p90": float(np.percentile(a, 90)), "p99": float(np.percentile(a, 99)),
            "max": float(a.max()), "mean": float(a.mean())}


def _positions(rules, deals: int, seed: int, tricks: int | None = None):
    """Seeded random positions: forehand leads, random soloist (its partners at kreuz) and
    trump; ``tricks``: each seat keeps the first ``tricks`` cards it was dealt (a uniform
    subset), default the whole hand."""
    rows = Dealer(rules, seed=seed).deal(deals)
    slices = seat_slices(rules)
    seats = rules.layout.players
    rng = random.Random(seed)
    for i in range(deals):
        hands = [[int(c) for c in rows[i, sl]][:tricks] for sl in slices[:seats]]
        solo = rng.randrange(seats)
        trump = rng.randrange(4)
        yield Position.parse(hands, trump, 0, solo, rules.layout.partners(solo), (), last_trick=rules.play.last_trick)


def _timed(solver: Solver, query, *args):
    """(result, seconds, nodes) of one query on a fresh table."""
    solver.reset()
    t = time.perf_counter()
    result = query(*args)
    return result, time.perf_counter() - t, solver.nodes


def bench_layout(preset: str, deals: int, seed: int, budget: float) -> dict:
    solver = Solver()
    exact_s, exact_n, thr_s, thr_n = [], [], [], []
    started = time.perf_counter()
    for pos in _positions(load_rules(preset), deals, seed):
        v, sec, nodes = _timed(solver, solver.max_points, pos)
        exact_s.append(sec)
        exact_n.append(nodes)
        ok, sec, nodes = _timed(solver, solver.reaches, pos, v)
        thr_s.append(sec)
        thr_n.append(nodes)
        assert ok
        if time.perf_counter() - started > budget:
            break
    return {"preset": preset, "deals": len(exact_s), "requested": deals,
            "exact": {"seconds": _summary(exact_s), "nodes": _summary(exact_n)},
            "threshold_at_value": {"seconds": _summary(thr_s), "nodes": _summary(thr_n)}}


def bench_scaling(preset: str, tricks: list[int], deals: int, seed: int) -> dict:
    """Exact solves of positions with ``k`` tricks left (:func:`_positions`), as for the full
    deals: how the cost grows per trick. At 10 tricks a position is the size of a Skat game
    (30 cards, three players, card points)."""
    rules = load_rules(preset)
    solver = Solver()
    out = {}
    for k in tricks:
        runs = [_timed(solver, solver.max_points, pos)[1:] for pos in _positions(rules, deals, seed, k)]
        out[str(k)] = {"deals": deals, "exact": {"seconds": _summary([r[0] for r in runs]),
                                                 "nodes": _summary([r[1] for r in runs])}}
    return {"preset": preset, "tricks": out}


def bench_dds(deals: int, seed: int) -> dict:
    from endplay import generate_deal
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode
    from endplay.types import Denom, Player

    rng = random.Random(seed)
    opt, tgt, boards = [], [], []
    for i in range(deals):
        d = generate_deal(seed=seed * 100003 + i)
        d.first = Player(rng.randrange(4))
        d.trump = Denom(rng.randrange(5))
        t = time.perf_counter()
        res = list(solve_board(d, SolveMode.OptimalOne))
        opt.append(time.perf_counter() - t)
        boards.append((d, res[0][1]))
    # Second pass, target = the exact value: consecutive calls are on different deals, so DDS
    # cannot reuse its table from the first pass.
    for d, value in boards:
        t = time.perf_counter()
        list(solve_board(d, SolveMode.TargetOne, target=max(value, 1)))  # DDS needs a target >= 1
        tgt.append(time.perf_counter() - t)
    return {"deals": deals, "optimal_one": {"seconds": _summary(opt)}, "target": {"seconds": _summary(tgt)}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--dds-deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--layouts", default="standard,standard-48,four-solo,kreuz")
    ap.add_argument("--budget", type=float, default=600.0, help="Stop a layout after this many seconds.")
    ap.add_argument("--scaling", default="6,8,10,12",
                    help="Tricks left for the scaling series on standard deals ('' skips it).")
    ap.add_argument("--scaling-deals", type=int, default=100)
    args = ap.parse_args(argv)
    # Compile (or load the cache) before timing.
    warm = Position.parse("EA EK / E10 EU / EO GA", 0, 0, 0)
    Solver(table_bits=10).max_points(warm)
    out: dict = {"python": sys.version.split()[0], "machine": platform.machine(), "layouts": {}}
    out["dds"] = None  # no anchor with --dds-deals 0 or without endplay
    if args.dds_deals > 0:
        try:
            out["dds"] = bench_dds(args.dds_deals, args.seed)
        except ImportError:
            print("endplay not installed: no DDS anchor", file=sys.stderr)
    for preset in filter(None, args.layouts.split(",")):
        out["layouts"][preset] = bench_layout(preset, args.deals, args.seed, args.budget)
    if args.scaling:
        out["scaling"] = bench_scaling("standard", [int(k) for k in args.scaling.split(",")], args.scaling_deals,
                                       args.seed)
    if out["dds"] and out["layouts"]:
        d_opt = out["dds"]["optimal_one"]["seconds"]
        d_tgt = out["dds"]["target"]["seconds"]
        ours = out["layouts"].get("standard") or next(iter(out["layouts"].values()))
        out["ratios"] = {
            "exact_median_vs_dds_optimal_median": ours["exact"]["seconds"]["median"] / d_opt["median"],
            "exact_p99_vs_dds_optimal_p99": ours["exact"]["seconds"]["p99"] / d_opt["p99"],
            "threshold_median_vs_dds_target_median": ours["threshold_at_value"]["seconds"]["median"] / d_tgt["median"],
            "targets": {"exact_median": 0.25, "exact_p99": 1.0, "threshold_median": 0.3},
        }
    json.dump(out, sys.stdout, indent=2)
    print()


if __name__ == "__main__":
    main()
