"""Benchmark: do the two tiers of ``binokel bid`` agree on hidden hands?

``--hands`` random hands of the preset (seeded deals; hand ``i`` is seat ``i mod players`` of deal
``i``, so every first-lead situation appears) are answered by the instant tier and by the checked
tier (``--samples`` deals of the unseen cards, ``--policy``). Per hand: both ceilings and safe bids,
both mean totals, the tier test's verdict (:func:`binokel_sim.evaluation.tiers.compare_tiers`) and
the seconds each took. Summary: the share of hands whose ceilings lie within ``--gap`` points
(issue 34's target: at least 80 % within 20 points at 1 000 samples; a pass counts as one bid
step below the minimum bid), the RMS difference of the
mean totals (target: 20 points), and how often the one-line test says "differ".

    .venv/bin/python benchmarks/bench_tiers.py --hands 40 --samples 1000 > bench_tiers.json
    .venv/bin/python benchmarks/bench_tiers.py --hands 2 --samples 60      # a smoke run

``--cache DIR`` keeps each hand's checked answer (its ladder at every bid step, the figures above) as
one JSON file keyed by hand, seat, samples, seed, policy, rules and the package version, so a later run
(a refitted instant tier) asks only the instant tier again. ``benchmarks/data/tiers-standard`` holds the
40 `standard` hands at 1 000 samples (about two hours of CPU to make):

    .venv/bin/python benchmarks/bench_tiers.py --cache benchmarks/data/tiers-standard    # seconds

The checked tier's own error enters the comparison: at 1 000 samples its ceiling moves by a bid
step or two between seeds, so even identical tiers would not meet a 0-point target.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from binokel_sim import __version__
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.evaluation.hand import EvalSettings, evaluate_hand
from binokel_sim.evaluation.tiers import ceiling_gap, compare_tiers, instant_evaluation
from binokel_sim.output import write_text
from binokel_sim.provenance import rules_hash
from binokel_sim.rules import Rules, load_rules
from binokel_sim.runner import Scale


@dataclass
class CheckedSummary:
    """What :func:`compare_tiers` reads of a checked evaluation, restored from the cache: the ladder's
    P(make) and its error at every bid step from the minimum bid up."""

    rules: Rules
    n: int
    n_exact: int
    ceiling_bid: int | None
    safe_bid: int | None
    total: float
    total_se: float
    seconds: float
    ladder: dict[int, tuple[float, float]]

    def ladder_at(self, bids) -> dict[str, np.ndarray]:
        top = max(self.ladder)
        at = [self.ladder[min(int(b), top)] for b in bids]
        return {"p_make": np.array([a[0] for a in at]), "p_make_se": np.array([a[1] for a in at])}


def checked_summary(rules: Rules, hand: str, seat: int, a) -> CheckedSummary:
    """The checked tier's answer for one hand, from ``a.cache`` where it holds it."""
    key = json.dumps([hand, seat, a.samples, a.seed, a.policy, a.exact_every, rules.name,
                      rules_hash(rules), __version__])
    path = Path(a.cache) / f"{hashlib.sha256(key.encode()).hexdigest()[:20]}.json" if a.cache else None
    if path is not None and path.exists():
        d = json.loads(path.read_text())
        return CheckedSummary(rules=rules, **{k: v for k, v in d.items() if k != "ladder"},
                              ladder={int(b): tuple(v) for b, v in d["ladder"].items()})
    t0 = time.perf_counter()
    ev = evaluate_hand(hand, rules, seat=seat, samples=a.samples, seed=a.seed, confidence=0.8,
                       settings=EvalSettings(policy=a.policy, exact_every=a.exact_every),
                       scale=Scale(workers=a.workers))
    seconds = time.perf_counter() - t0
    step = int(rules.bidding.bid_step)
    bids = np.arange(int(rules.bidding.min_bid), int(rules.bidding.min_bid) + 80 * step, step)
    cols = ev.ladder_at(bids)
    d = {"n": int(ev.n), "n_exact": int(ev.n_exact), "ceiling_bid": ev.ceiling_bid, "safe_bid": ev.safe_bid,
         "total": float(ev.total_with_tapp[0]), "total_se": float(ev.total_with_tapp[1]), "seconds": seconds,
         "ladder": {int(b): [float(p), float(se)] for b, p, se in zip(bids, cols["p_make"], cols["p_make_se"])}}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(json.dumps(d), path)
    return CheckedSummary(rules=rules, **{k: v for k, v in d.items() if k != "ladder"},
                          ladder={int(b): tuple(v) for b, v in d["ladder"].items()})


def hands_of(rules, n: int, seed: int) -> list[tuple[str, int]]:
    """(hand, seat) of the benchmark's ``n`` hidden hands."""
    d = Dealer(rules, seed=seed)
    return [(str(d.deal_object(i).hands[i % rules.n_seats]), i % rules.n_seats) for i in range(n)]


def one_hand(rules, hand: str, seat: int, a) -> dict:
    t0 = time.perf_counter()
    inst = instant_evaluation(hand, rules, seat)
    t1 = time.perf_counter()
    ev = checked_summary(rules, hand, seat, a)
    verdict = compare_tiers(ev, inst)
    gap = ceiling_gap(rules, inst.ceiling_bid, ev.ceiling_bid)
    return {"hand": hand, "seat": seat, "instant": {"ceiling": inst.ceiling_bid, "safe": inst.safe_bid,
                                                    "total": round(inst.total, 1), "n": inst.n,
                                                    "seconds": round(t1 - t0, 2)},
            "checked": {"ceiling": ev.ceiling_bid, "safe": ev.safe_bid, "total": round(ev.total, 1),
                        "total_se": round(ev.total_se, 1), "n": ev.n, "n_exact": ev.n_exact,
                        "seconds": round(ev.seconds, 1)},
            "ceiling_gap": gap, "agree": verdict.agree, "line": verdict.line()}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--policy", default="heuristic")
    ap.add_argument("--exact-every", type=int, default=50)
    ap.add_argument("--gap", type=int, default=20, help="ceilings within this many points count as agreeing")
    ap.add_argument("--seed", type=int, default=34, help="deals of the hidden hands (and the checked tier's seed)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--cache", default=None, help="folder keeping each hand's checked answer between runs")
    a = ap.parse_args(argv)
    rules = load_rules(a.rules)
    rows = []
    for hand, seat in hands_of(rules, a.hands, a.seed):
        rows.append(one_hand(rules, hand, seat, a))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)  # progress: one line per hand
    gaps = [r["ceiling_gap"] for r in rows]
    within = [g <= a.gap for g in gaps]
    diff = np.array([r["instant"]["total"] - r["checked"]["total"] for r in rows], dtype=np.float64)
    out = {"benchmark": "tiers", "rules": rules.name, "hands": len(rows), "samples": a.samples, "policy": a.policy,
           "exact_every": a.exact_every, "seed": a.seed, "gap": a.gap,
           "ceilings_within_gap": int(sum(within)), "share_within_gap": round(float(np.mean(within)), 3),
           "rms_total_difference": round(float(np.sqrt(np.mean(diff ** 2))), 1),
           "mean_total_difference": round(float(diff.mean()), 1),
           "test_says_differ": int(sum(not r["agree"] for r in rows)),
           "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                       "load_1min": round(os.getloadavg()[0], 2)},
           "rows": rows}
    return out


if __name__ == "__main__":
    print(json.dumps(main(), indent=1))
