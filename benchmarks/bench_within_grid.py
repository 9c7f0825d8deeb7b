"""Benchmark of the ``within`` query's grid order (the bid-deciding part of a phase-2 solve), on the positions a
corpus build asks: today's order (from the root bound down) against two orders that use the deal's phase-1
interval (``Solver.bounds`` within 5 M nodes), nodes counted per position, the same run.

- ``root``: :func:`binokel_sim.play.solver.queries.run_grid` from the root bound (what ``Solver.within`` does
  before its exact phase; ``--solve-budget 1n``);
- ``window``: the same tests, the search started inside the phase-1 interval;
- ``midpoint``: the grid point nearest the phase-1 midpoint first, then up after a success, down after a failure.

Every variant must end with the same interval (the same bid decisions); node counts do not depend on the load.

    .venv/bin/python benchmarks/bench_within_grid.py --rules wuerttemberg --deals 4

One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json

from binokel_sim.corpus.builder import corpus_rows
from binokel_sim.play.solver import Solver
from binokel_sim.play.solver.queries import Result, run_grid
from binokel_sim.play.solver.slots import S_NODES
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk

PHASE1_NODES = 5_000_000


def positions(rules, seed: int, start: int, stop: int) -> list[tuple]:
    """The (position, grid offset) pairs a ``--within 10`` build of deals ``start .. stop-1`` asks, in order."""
    asked: list[tuple] = []
    real = Solver.within

    def capture(self, pos, step=10, budget_nodes=None, lo=0):
        # No search: the positions a build asks do not depend on the answers (the exchange is the policy's).
        asked.append((pos, lo))
        return Result(0, self.upper_bound(pos), 0, 0.0)

    Solver.within = capture
    try:
        corpus_rows(rules, seed, "heuristic", Chunk(0, start, stop), False, 1, 10)
    finally:
        Solver.within = real
    return asked


def grid(pos, offset: int, step: int, how: str, lo1: int, hi1: int) -> tuple[int, int, int]:
    """(nodes, lo, hi) of deciding every grid point of ``pos`` in the order ``how``."""
    s = Solver()
    run = s._run(s._points_args(pos, limit=0), 0)
    off = offset % step
    if how == "window":
        run.lo, run.hi = max(run.lo, lo1), min(run.hi, hi1)
    if how == "midpoint":
        t = off + ((lo1 + hi1) // 2 - off) // step * step
        while True:
            open_ = [g for g in range(off + (run.lo - off) // step * step + step, run.hi + 1, step) if run.lo < g]
            if not open_:
                break
            g = min(open_, key=lambda g: abs(g - t))
            ok = run.ask(g)
            t = g + step if ok else g - step
    else:
        run_grid(run, step, off, run.hi)
    return int(s._stats[S_NODES]), run.lo, run.hi


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="wuerttemberg")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--deals", type=int, default=4)
    a = ap.parse_args()
    rules = load_rules(a.rules)
    rows = []
    for pos, offset in positions(rules, a.seed, a.start, a.start + a.deals):
        b = Solver().bounds(pos, budget_nodes=PHASE1_NODES)
        got = {how: grid(pos, offset, 10, how, b.lo, b.hi) for how in ("root", "window", "midpoint")}
        rows.append({"phase1": [b.lo, b.hi], **{how: {"nodes": n, "interval": [lo, hi]} for how, (n, lo, hi)
                                                in got.items()}})
    total = {how: sum(r[how]["nodes"] for r in rows) for how in ("root", "window", "midpoint")}
    same = all(r["root"]["interval"] == r[how]["interval"] for r in rows for how in ("window", "midpoint"))
    print(json.dumps({
        "benchmark": "within_grid", "rules": rules.name, "seed": a.seed,
        "deals": f"{a.start}..{a.start + a.deals - 1}", "positions": len(rows), "same_intervals": same,
        "nodes": total, "ratio_to_root": {how: round(total[how] / total["root"], 3) for how in ("window", "midpoint")},
        "per_position": rows,
    }, indent=2))


if __name__ == "__main__":
    main()
