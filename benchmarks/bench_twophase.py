"""What a two-phase corpus costs and what it buys: cost per deal of each phase, the variance split of its
figures, and the standard errors other sizes of the phases would give.

From the corpus's manifests and rows (no solving): CPU seconds per deal of phase 1 and phase 2 (as the
builds recorded them, with their solvers), the Tapp value and P(make) at every bid 150..400 as two-phase
point figures (:mod:`binokel_sim.twophase`), each figure's variance split into the part more phase-1
deals shrink (``A / n1``) and the part more phase-2 deals shrink (``B / n2``), and from those the SE at other
sizes and the cheapest sizes that reach a target SE (Cochran's optimum allocation, ch. 12:
``n2 / n1 = sqrt((B / c2) / (A / c1))`` with ``c1``, ``c2`` the phases' costs per deal).

    .venv/bin/python benchmarks/bench_twophase.py data/corpus/wuerttemberg --target-se 1.5

One JSON object on stdout.
"""

from __future__ import annotations

import argparse
import json
import math

import numpy as np

from binokel_sim.corpus.phases import load_phases, two_phase_figures
from binokel_sim.corpus.reader import load_corpus, load_rules_of


def components(e) -> tuple[float, float]:
    """(A, B) of an estimate: its variance is ``A / n1 + B / n2``."""
    return e.var_phase1 * e.n1, e.var_phase2 * e.n2


def cheapest(a: float, b: float, c1: float, c2: float, target_se: float) -> dict:
    """The sizes of least CPU whose SE reaches ``target_se``: n2 / n1 = sqrt((B / c2) / (A / c1)), then scaled
    until A / n1 + B / n2 = target^2 (n2 at most n1)."""
    ratio = min(math.sqrt((b / c2) / (a / c1)) if a > 0 else 1.0, 1.0)
    n1 = (a + b / ratio) / target_se ** 2
    n2 = ratio * n1
    return {"n1": math.ceil(n1), "n2": math.ceil(n2), "cpu_hours": round((n1 * c1 + n2 * c2) / 3600, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus")
    ap.add_argument("--target-se", type=float, default=1.5, help="Tapp value SE to plan for (points).")
    ap.add_argument("--target-p-se", type=float, default=0.03, help="P(make) SE to plan for (at the worst bid).")
    a = ap.parse_args()
    c = load_corpus(a.corpus)
    ph = load_phases(c)
    if ph is None:
        raise SystemExit(f"corpus {a.corpus}: no phase 2 (binokel corpus phase2 {a.corpus} --deals N)")
    f = two_phase_figures(ph.rows(), load_rules_of(c))
    c1 = float(ph.phase1.df["seconds"].mean())
    c2 = float(ph.phase2.df["seconds"].mean())
    ta, tb = components(f.tapp_value)
    worst = max(f.bids, key=lambda b: b.p_make.se)
    pa, pb = components(worst.p_make)
    sizes = [(1000, 200), (5000, 200), (5000, 400), (10000, 400)]
    print(json.dumps({
        "benchmark": "twophase", "corpus": a.corpus, "rules": c.manifest["rules"], "seed": c.manifest["seed"],
        "n1": ph.n1, "n2": ph.n2,
        "cpu_seconds_per_deal": {"phase1": round(c1, 3), "phase2": round(c2, 1),
                                 "phase1_solver": c.manifest.get("solver_version"),
                                 "phase2_solver": ph.phase2.manifest.get("solver_version")},
        "tapp_value": {"estimate": round(f.tapp_value.estimate, 2), "se": round(f.tapp_value.se, 3),
                       "phase2_share": round(f.tapp_value.phase2_share, 3), "slope": round(f.tapp_value.slope, 3),
                       "se_at": {f"{n1}+{n2}": round(math.sqrt(ta / n1 + tb / n2), 2) for n1, n2 in sizes},
                       "cheapest_for_target": cheapest(ta, tb, c1, c2, a.target_se)},
        "soloist_total": {"estimate": round(f.soloist_total.estimate, 2), "se": round(f.soloist_total.se, 3),
                          "phase2_share": round(f.soloist_total.phase2_share, 3)},
        "p_make": {"max_se": round(worst.p_make.se, 4), "at_bid": worst.bid,
                   "se_by_bid": {b.bid: round(b.p_make.se, 4) for b in f.bids},
                   "se_at": {f"{n1}+{n2}": round(math.sqrt(pa / n1 + pb / n2), 4) for n1, n2 in sizes},
                   "cheapest_for_target": cheapest(pa, pb, c1, c2, a.target_p_se)},
        "mean_phase2_width": round(float(np.mean(ph.phase2.df["points_hi"] - ph.phase2.df["points_lo"])), 2),
    }, indent=2))


if __name__ == "__main__":
    main()
