"""What weighing the estimate's error gains over taking it at face value when going out (prints JSON).

On the corpus deals held out of the instant fit (trump contracts), each deal is asked a bid
near the soloist's own estimate after the Tapp (rounded to 10, plus an offset); the going-out
rule decides with the fitted error model (:mod:`binokel_sim.evaluation.going_out`) and with
the estimate at face value, and the deal's double-dummy total scores both decisions. Per
offset: the mean score of each rule, the paired gain with its standard error, P(go out).

    python benchmarks/going_out_gain.py --rules standard four-solo kreuz doubled   # seconds each
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from binokel_sim.corpus.reader import find_corpus, load_corpus
from binokel_sim.evaluation.going_out import estimate_error
from binokel_sim.evaluation.instant import held_out
from binokel_sim.evaluation.ladder import outcomes
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.rules import load_rules


def gain(name: str, offsets: list[int]) -> dict:
    rules = load_rules(name)
    folder = find_corpus(rules)
    if folder is None:
        raise SystemExit(f"no shipped corpus for {name}")
    c = load_corpus(folder, rules)
    d = c.df[(c.df["code"] < 4) & held_out(c.df["deal"], rules.n_seats)]
    est = np.array([np.mean(s) for s in d["subjective"]])
    parts = DealParts(value=d["value"].to_numpy(), took=d["took"].to_numpy(bool), code=d["code"].to_numpy(),
                      result=d["value"].to_numpy(), special_made=np.zeros(len(d), bool),
                      subjective=np.rint(est).astype(np.int64)[:, None], subjective_took=np.ones((len(d), 1), bool))
    err = estimate_error(rules)
    if err is None:
        raise SystemExit(f"no fitted error model for {name}: binokel fit instant --rules {name} --write")
    rows = []
    rng = np.arange(len(d))
    for off in offsets:
        bids = np.maximum(rules.bidding.min_bid, (np.round(est / 10) * 10 + off).astype(np.int64))
        ub = np.unique(bids)
        col = np.searchsorted(ub, bids)
        res = {}
        for key, e in (("face_value", None), ("fitted", err)):
            _, score, out, _ = outcomes(rules, parts, ub, e)
            res[key] = (score[rng, col].astype(np.float64), out[rng, col])
        g = res["fitted"][0] - res["face_value"][0]
        rows.append({"offset": off, "score_face_value": res["face_value"][0].mean(),
                     "score_fitted": res["fitted"][0].mean(),
                     "gain": g.mean(), "gain_se": g.std(ddof=1) / np.sqrt(len(g)),
                     "p_go_out_face_value": res["face_value"][1].mean(), "p_go_out_fitted": res["fitted"][1].mean()})
    return {"rules": name, "n": int(len(d)), "error_model": err.describe(), "by_offset": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["standard", "four-solo", "kreuz", "doubled"])
    ap.add_argument("--offsets", nargs="+", type=int, default=[0, 10, 20, 30])
    args = ap.parse_args()
    print(json.dumps([gain(r, args.offsets) for r in args.rules], indent=1, default=float))


if __name__ == "__main__":
    main()
