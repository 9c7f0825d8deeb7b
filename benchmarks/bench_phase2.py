"""Benchmark of a phase-2 solve (the ``within`` query of a 48-card corpus's phase 2) against the same solve by the
code of :data:`PHASE2_BASELINE`, in one run: nodes, CPU seconds and the bid decisions, position by position.

The positions: the 20 a ``--within 10`` build of ``wuerttemberg`` deals 0..9 asks (each deal's contract and its
Tapp-unseen baseline; :func:`bench_within_grid.positions`). The old code (a child process, :mod:`old_solver`)
answers what phase 2 asked then: every 10-point grid point decided, then exact while 200 M nodes last, on a
fresh default solver. Today's answer is what ``binokel corpus phase2`` asks now
(:func:`binokel_sim.play.dd.phase2_solver` and :data:`binokel_sim.corpus.phases.PHASE2_BUDGET`). Both must put
every total in the same 10-point grid cell: the same decision at every bid.

Then the 12-trick check: exact values of 100 random ``standard`` deals (:func:`bench_solver._positions`), old and
new on fresh tables: the same values, the node ratio.

Node counts do not depend on the machine's load; CPU seconds do (the two sides alternate position by position,
so a drifting load touches both alike).

    .venv/bin/python benchmarks/bench_phase2.py > phase2.json

One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

from bench_solver import _positions
from bench_within_grid import positions
from old_solver import OldCommit
from binokel_sim.corpus.phases import PHASE2_BUDGET, PHASE2_WITHIN
from binokel_sim.play.dd import phase2_solver
from binokel_sim.play.solver import Solver
from binokel_sim.rules import load_rules

#: The commit whose phase-2 solve the cheaper one is measured against (the issue's reference).
PHASE2_BASELINE = "d6cff9b"
#: What phase 2 asked at :data:`PHASE2_BASELINE`: the grid, then exact within this many nodes.
OLD_BUDGET = 200_000_000

_CHILD = r"""
import json, sys, time
import binokel_sim
from binokel_sim.play.solver import Position, Solver
assert binokel_sim.__file__.startswith(sys.argv[1]), binokel_sim.__file__
Solver().exact(Position.parse("EA EK / E10 EU / EO GA", 0, 0, 0))  # compile (or load the cache) before timing
print(json.dumps({"ready": binokel_sim.__file__}), flush=True)
for line in sys.stdin:
    q = json.loads(line)
    pos = Position.parse(q["hands"], q["trump"], q["leader"], q["solo"], q["side"], (), last_trick=q["last"],
                         bonus=q["bonus"] or None, rule=q["rule"])
    s = Solver()
    t = time.process_time()
    if q["query"] == "within":
        r = s.within(pos, step=q["step"], budget_nodes=q["budget"], lo=q["offset"])
    else:
        r = s.exact(pos)
    print(json.dumps({"lo": r.lo, "hi": r.hi, "nodes": r.nodes, "cpu": time.process_time() - t}), flush=True)
"""


class OldQueries(OldCommit):
    """``within`` and ``exact`` by the solver of ``commit``, a fresh default solver per position."""

    script = _CHILD

    def ask_pos(self, pos, query: str, **fields) -> dict:
        hands = [[c for c in range(24) for _ in range(int(h[c]))] for h in pos.hands]
        return self.ask({"query": query, "hands": hands, "trump": pos.trump, "leader": pos.leader, "solo": pos.solo,
                         "side": list(pos.side), "last": pos.last_trick, "bonus": list(pos.bonus), "rule": pos.rule,
                         **fields})


def cell(lo: int, hi: int, offset: int, step: int) -> tuple[int, int]:
    """The grid cells of ``lo`` and ``hi``: equal pairs decide every bid the same way."""
    return (lo - offset) // step, (hi - offset) // step


def phase2(old: OldQueries, rules, seed: int, deals: int) -> dict:
    rows = []
    step = PHASE2_WITHIN
    for pos, offset in positions(rules, seed, 0, deals):
        o = old.ask_pos(pos, "within", step=step, budget=OLD_BUDGET, offset=int(offset))
        solver = phase2_solver()
        solver.reset()  # as a corpus row does: its answer depends on nothing before it
        t = time.process_time()
        r = solver.within(pos, step=step, budget_nodes=PHASE2_BUDGET, lo=int(offset))
        cpu = time.process_time() - t
        rows.append({"old": {"interval": [o["lo"], o["hi"]], "nodes": o["nodes"], "cpu": round(o["cpu"], 2)},
                     "new": {"interval": [r.lo, r.hi], "nodes": r.nodes, "cpu": round(cpu, 2)},
                     "same_decisions": cell(o["lo"], o["hi"], offset, step) == cell(r.lo, r.hi, offset, step)})
    total = {k: sum(r[k]["nodes"] for r in rows) for k in ("old", "new")}
    cpu = {k: sum(r[k]["cpu"] for r in rows) for k in ("old", "new")}
    return {"positions": len(rows), "same_decisions": all(r["same_decisions"] for r in rows),
            "nodes": total, "nodes_ratio": round(total["new"] / total["old"], 4),
            "cpu_seconds": {k: round(v, 1) for k, v in cpu.items()}, "cpu_ratio": round(cpu["new"] / cpu["old"], 3),
            "per_position": rows}


def twelve_tricks(old: OldQueries, deals: int, seed: int) -> dict:
    same, nodes_old, nodes_new, cpu_old, cpu_new = True, 0, 0, 0.0, 0.0
    for pos in _positions(load_rules("standard"), deals, seed):
        o = old.ask_pos(pos, "exact")
        s = Solver()
        t = time.process_time()
        r = s.exact(pos)
        cpu_new += time.process_time() - t
        same &= o["lo"] == r.lo
        nodes_old += o["nodes"]
        nodes_new += r.nodes
        cpu_old += o["cpu"]
    return {"deals": deals, "seed": seed, "same_values": same, "nodes": {"old": nodes_old, "new": nodes_new},
            "nodes_ratio": round(nodes_new / nodes_old, 4), "cpu_ratio": round(cpu_new / cpu_old, 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="wuerttemberg")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=10, help="Deals of the phase-2 set (two positions each).")
    ap.add_argument("--twelve", type=int, default=100, help="Random standard deals of the 12-trick check (0: none).")
    ap.add_argument("--old", default=PHASE2_BASELINE)
    a = ap.parse_args()
    with OldQueries(a.old) as old:
        out = {"benchmark": "phase2", "rules": a.rules, "seed": a.seed, "baseline": a.old,
               "old_query": f"within {PHASE2_WITHIN}, exact within {OLD_BUDGET} nodes",
               "new_query": f"within {PHASE2_WITHIN}, exact within {PHASE2_BUDGET} node(s)",
               "phase2": phase2(old, load_rules(a.rules), a.seed, a.deals)}
        if a.twelve:
            out["twelve_tricks"] = twelve_tricks(old, a.twelve, a.seed)
    out["load_average"] = os.getloadavg()
    out["machine"] = {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
