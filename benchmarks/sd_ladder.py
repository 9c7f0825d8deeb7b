"""Which ladder the real-play bid model should answer with: the line or the drawn one (prints JSON).

The instant tier of ``binokel bid --play single-dummy`` is fitted on single-dummy totals
(:mod:`binokel_sim.analyses.sd_instant`). Before the single-dummy corpus holds its held-out
deals (the odd ones from 500 on), the two ladders are compared on a split of their own: fitted
on the corpus's deals below ``--cut``, judged on the deals from ``--cut`` on at every bid of
the ladder (150..450 at ``standard``), errors clustered by deal. The shipped open-card model,
judged on the same single-dummy outcomes, is printed beside them.

    python benchmarks/sd_ladder.py --corpus data/corpus/standard-sd --cut 500   # ~40 s
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from binokel_sim.analyses.calibration import brier, reliability, soloist_hands
from binokel_sim.analyses.sd_corpus import load_sd_corpus
from binokel_sim.analyses.sd_instant import sd_frame
from binokel_sim.corpus.reader import find_corpus, load_corpus
from binokel_sim.evaluation.going_out import estimate_error
from binokel_sim.evaluation.instant import fit_instant, load_instant
from binokel_sim.evaluation.ladder import outcomes
from binokel_sim.studies.deals import parts_of
from binokel_sim.rules import load_rules


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="data/corpus/standard-sd", help="the single-dummy corpus folder")
    ap.add_argument("--cut", type=int, default=300, help="fit on the deals below, judge on the rest")
    args = ap.parse_args()
    rules = load_rules("standard")
    m, sd = load_sd_corpus(args.corpus)
    df = sd_frame(load_corpus(find_corpus(rules), rules, below=int(sd["deal"].max()) + 1).df, sd)
    train, test = df[df["deal"] < args.cut], df[df["deal"] >= args.cut].reset_index(drop=True)
    bids = np.arange(rules.bidding.min_bid, rules.bidding.min_bid + 301, rules.bidding.bid_step)
    made = outcomes(rules, parts_of(test), bids)[0].ravel()
    deal = np.repeat(test["deal"].to_numpy(), len(bids))
    hands, seats = soloist_hands(test)
    err = estimate_error(rules)  # going out by the rules' one rule, as fit_sd and the judged outcomes
    models = {"line": fit_instant(train, rules, {}, seed=int(m["seed"]), ladder="line", error=err),
              "drawn": fit_instant(train, rules, {}, seed=int(m["seed"]), ladder="drawn", error=err),
              "open-card model": load_instant(rules)}
    pred = {k: mod.p_make(rules, hands, seats, bids).ravel() for k, mod in models.items()}
    out = {"corpus": args.corpus, "seed": m["seed"], "worlds": m["worlds"], "train_deals": len(train),
           "test_deals": len(test), "questions": int(made.size), "bids": [int(bids[0]), int(bids[-1])]}
    for k, p in pred.items():
        b = brier(p, made, deal)
        out[k] = {"brier": round(b.brier, 4), "brier_se": round(b.brier_se, 4),
                  "base_rate_brier": round(b.base_rate_brier, 4),
                  "largest_gap_of_5_bins": round(float(reliability(p, made, deal, 5)["gap"].abs().max()), 3),
                  "largest_gap_of_10_bins": round(float(reliability(p, made, deal, 10)["gap"].abs().max()), 3)}
    # The paired difference, clustered by deal: both ladders answer the same questions.
    e = (pred["drawn"] - made) ** 2 - (pred["line"] - made) ** 2
    _, inv = np.unique(deal, return_inverse=True)
    se = float(np.sqrt((np.bincount(inv, weights=e - e.mean()) ** 2).sum()) / e.size)
    out["drawn_minus_line"] = {"brier": round(float(e.mean()), 4), "se": round(se, 4)}
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
