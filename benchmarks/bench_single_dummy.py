"""Benchmark of single-dummy play (issue #37): one decision with W worlds at 12 tricks against one exact
double-dummy solve of the same position, and whole deals played single-dummy at every seat.

Positions: the first trick of the double-dummy studies' deals (stream ``study``, the heuristic exchange): the
lead, then the second and third seat after open-card cards. Each is timed twice in the same run, each with a
fresh table: the exact value of the true position (``Solver.max_points``) and the single-dummy decision of the
seat to move (W sampled worlds, the proven best mean; ``--budget X``: a decision may search X times the nodes
of one exact solve of its first world). CPU seconds
of this process, which runs one thread; the machine is shared, so the figures move with its load, which the
output records (node counts do not).

    .venv/bin/python benchmarks/bench_single_dummy.py --positions 3 --deals 2 --worlds 20

Targets (issue #37): the median decision <= 5x the exact solve; a whole deal <= 15 s of CPU. One JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

from binokel_sim.evaluation.deals import EvalSettings, play_deals
from binokel_sim.studies.deals import deal_frame
from binokel_sim.play.knowledge import PlayState
from binokel_sim.play.playout import play_out
from binokel_sim.play.single_dummy import DealSolver, OpenCards, SingleDummy, _bonus
from binokel_sim.play.solver import Position
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk


def deal_state(rules, seed: int, i: int) -> PlayState | None:
    """Study deal ``i`` at its first trick (None: a Durch or Bettel contract)."""
    _, hands, tapp = deal_frame(rules, seed, Chunk(0, i, i + 1))
    s = i % rules.n_seats
    out = play_deals(rules, s, hands, tapp, seed, EvalSettings(policy="heuristic"), np.array([i]), baseline=False,
                     durch_check=False)
    code, kept = int(out.code[0]), out.kept[0]
    if code > 3:
        return None
    h = hands[0].copy()
    h[s] = kept
    return PlayState.start(rules, h, hands[0, s] + tapp[0] - kept, tapp[0], code, s)


def cpu(fn):
    t = time.process_time()
    out = fn()
    return time.process_time() - t, out


def decision(rules, state: PlayState, seed: int, deal: int, worlds: int, budget: float | None) -> dict:
    k = state.view(state.to_move)
    pos = Position(tuple(state.current()), None if k.trump < 0 else k.trump, k.leader, k.soloist, k.side, k.trick,
                   k.last_trick, _bonus(rules, k), k.won)
    exact = DealSolver()
    t_exact, _ = cpu(lambda: exact.max_points(pos))
    row = {"deal": deal, "cards_played": len(state.cards), "legal": len(k.legal()), "exact_s": round(t_exact, 4),
           "exact_nodes": exact.nodes}
    for name, b in (("proven", None),) + ((("budget", budget),) if budget is not None else ()):
        player = SingleDummy(rules, worlds, seed, deal, solver=DealSolver(), budget=b)
        t_sd, card = cpu(lambda p=player: p.choose(state))
        d = player.last
        row[name] = {"card": card, "s": round(t_sd, 4), "ratio": round(t_sd / t_exact, 2),
                     "tests": d.tests if d else 0, "nodes": d.nodes if d else 0, "cut": bool(d.cut) if d else False}
    if budget is not None:
        row["same_card"] = row["budget"]["card"] == row["proven"]["card"]
    return row


def median(xs) -> float | None:
    return round(float(np.median(xs)), 3) if len(xs) else None


def summary(rows: list[dict], name: str) -> dict:
    real = [r for r in rows if r["legal"] > 1]  # one legal card: no decision to make
    return {"median_ratio": median([r[name]["ratio"] for r in real]),
            "median_ratio_leads": median([r[name]["ratio"] for r in real if r["cards_played"] == 0]),
            "median_ratio_follows": median([r[name]["ratio"] for r in real if r["cards_played"] > 0]),
            "decisions": len(real)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=3, help="Deals whose first-trick decisions are timed.")
    ap.add_argument("--deals", type=int, default=2, help="Deals played single-dummy at every seat.")
    ap.add_argument("--worlds", type=int, default=20)
    ap.add_argument("--budget", type=float, default=None,
                    help="Also time decisions and deals within this budget (exact solves of the first world).")
    ap.add_argument("--start", type=int, default=100, help="First deal (the tests use the first few).")
    a = ap.parse_args()
    rules = load_rules(a.rules)
    load_before = os.getloadavg()
    warm = deal_state(rules, a.seed, 0)  # compile / load the kernels' caches outside the timings
    if warm is not None:
        decision(rules, warm, a.seed, 0, 2, 1.0)
    rows, i = [], a.start
    while len({r["deal"] for r in rows}) < a.positions:
        state = deal_state(rules, a.seed, i)
        if state is not None:
            opened = OpenCards(rules)
            for _ in range(rules.n_seats):
                rows.append(decision(rules, state, a.seed, i, a.worlds, a.budget))
                state = state.play(opened.choose(state))
        i += 1
    deals, i = [], a.start
    while len(deals) < a.deals:
        state = deal_state(rules, a.seed, i)
        if state is not None:
            row: dict = {"deal": i}
            for name, b in (("proven", None),) + ((("budget", a.budget),) if a.budget is not None else ()):
                player = SingleDummy(rules, a.worlds, a.seed, i, solver=DealSolver(), budget=b)
                t, _ = cpu(lambda st=state, p=player: play_out(st, [p] * st.seats))
                row[f"{name}_cpu_s"] = round(t, 2)
            deals.append(row)
        i += 1
    out = {"benchmark": "single_dummy", "rules": rules.name, "seed": a.seed, "worlds": a.worlds, "budget": a.budget,
           "decision_vs_exact": {"target": 5, "proven": summary(rows, "proven"), "positions": rows},
           "whole_deal": {"target_s": 15, "median_cpu_s_proven": median([d["proven_cpu_s"] for d in deals]),
                          "deals": deals},
           "load_average": {"before": load_before, "after": os.getloadavg()},
           "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()}}
    if a.budget is not None:
        out["decision_vs_exact"]["budget"] = summary(rows, "budget")
        out["decision_vs_exact"]["same_card_share"] = round(float(np.mean([r["same_card"] for r in rows
                                                                           if r["legal"] > 1])), 3)
        out["whole_deal"]["median_cpu_s_budget"] = median([d["budget_cpu_s"] for d in deals])
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
