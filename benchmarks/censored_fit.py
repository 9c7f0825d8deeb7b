"""How well the interval-censored formula fit recovers the fit on exact totals (prints JSON).

The shipped ``four-solo`` corpus holds exact totals. The same deals (seed 1, heuristic
policy) are solved again within a small node budget, which leaves most of them open with
intervals about as wide as the 48-card corpora's; the five-term hand formula is then fitted
on the exact totals, on the intervals (:mod:`binokel_sim.censored`), on their midpoints and
on their lower bounds, and every fit is judged on the exact totals of the test deals.

    python benchmarks/censored_fit.py --deals 4000 --budget 100000    # ~3 min on one core
"""

from __future__ import annotations

import argparse
import json
import tempfile

import numpy as np

from binokel_sim.analyses.hand_formula import FORMULA_FEATURES, _xy, fit, split
from binokel_sim.corpus.builder import build_corpus
from binokel_sim.corpus.reader import find_corpus
from binokel_sim.studies.rows import study_rows
from binokel_sim.rules import load_rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--budget", type=int, default=100_000, help="nodes per solve")
    args = ap.parse_args()
    rules = load_rules("four-solo")
    seats = rules.n_seats
    exact, _ = study_rows(rules, args.deals, seed=1, policy="heuristic", corpus=find_corpus(rules))
    with tempfile.TemporaryDirectory() as d:
        build_corpus(rules, args.deals, d, seed=1, solve_budget=args.budget)
        bounded, _ = study_rows(rules, args.deals, seed=1, policy="heuristic", corpus=d)
    lo, hi, y = (df["value"].to_numpy() for df in (bounded, bounded.assign(value=bounded["value_hi"]), exact))
    assert (lo <= y).all() and (y <= hi).all()
    width = hi - lo
    xt, yt, _ = _xy(split(exact, seats)[1], FORMULA_FEATURES)
    fits = {"exact totals": exact, "intervals (censored fit)": bounded,
            "midpoints": bounded.assign(value=(lo + hi) / 2).drop(columns=["value_hi"]),
            "lower bounds": bounded.drop(columns=["value_hi"])}
    out = {"rules": "four-solo", "seed": 1, "deals": args.deals, "budget_nodes": args.budget,
           "open_share": float((width > 0).mean()), "mean_width": float(width[width > 0].mean()),
           "mean_position_of_value": float(((y - lo)[width > 0] / width[width > 0]).mean()), "fits": {}}
    for name, df in fits.items():
        f, st = fit(rules, *split(df, seats))
        pred = xt @ np.array([f.intercept] + [f.coef[k] for k in FORMULA_FEATURES])
        out["fits"][name] = {
            "intercept": round(f.intercept, 1), "coef": {k: round(v, 2) for k, v in f.coef.items()},
            "own_r2_test": round(st["r2_test"], 3), "own_sd": round(f.sd, 1),
            "r2_on_exact_test": round(float(1 - ((yt - pred) ** 2).sum() / ((yt - yt.mean()) ** 2).sum()), 3),
            "rmse_on_exact_test": round(float(np.sqrt(((yt - pred) ** 2).mean())), 1),
            "mean_error_on_exact_test": round(float((pred - yt).mean()), 1)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
