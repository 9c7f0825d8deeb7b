"""Benchmark of ``binokel bid``: one hand evaluated with a policy, against the bare solver in the same run.

The target (issue 4): one hand, 1000 samples, ``sampled`` policy, at most 10 s on the
2-core dev machine. Baseline measured in the same run: the plain double-dummy
maximum of ``--base-deals`` random full deals (``max_points_batch``), so the ratio
``bid_seconds / (samples x solver_seconds_per_deal)`` says how many solver calls'
worth of time the evaluation spends per sample (the sampled policy makes about
``top_k x inner + 2`` solver calls per sample).

    .venv/bin/python benchmarks/bench_bid.py --samples 1000 --policy sampled > bench_bid.json

With ``--hands N``: N random hands of the preset (seeded), each evaluated with
``--samples`` (and ``--se`` when given); median and max seconds, samples used.
With ``--instant``: the whole ``binokel bid HAND --json`` command (instant tier,
start-up included, after one warm-up run) on ``--hands`` random hands, against
``binokel --version`` in the same run.

    .venv/bin/python benchmarks/bench_bid.py --instant --hands 20
    .venv/bin/python benchmarks/bench_bid.py --instant --hands 20 --play single-dummy
    .venv/bin/python benchmarks/bench_bid.py --policy heuristic --samples 1000 --se 0.02 --hands 20

The checked runs also time the exact path (every sample solved exactly, ``--base-hands`` x
``--base-samples``) in the same run and give the CPU ratio per sample.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

from binokel_sim import streams
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.evaluation.deals import deal_counts
from binokel_sim.evaluation.hand import EvalSettings, evaluate_hand
from binokel_sim.melds.scorer import best_trump
from binokel_sim.rules import load_rules
from binokel_sim.play.solver import max_points_batch
from binokel_sim.runner import Scale
from cli_timing import timed_cli

HAND = "EA EA E10 EK EO EU GA G10 HA H10 SA S10"


def solver_seconds_per_deal(rules, deals: int, seed: int) -> float:
    """Plain double-dummy maximum of random deals (forehand soloist, best meld trump, melds as bonus)."""
    hands, _ = deal_counts(Dealer(rules, seed, stream=streams.stream("bench_bid")).deal(deals), rules)
    table = rules.meld_array()
    trump = np.empty(deals, np.int8)
    bonus = np.zeros((deals, rules.n_seats), np.int32)
    for i in range(deals):
        bonus[i, 0], trump[i] = best_trump(hands[i, 0], table)
    args = (np.zeros(deals, np.int8), np.ones(deals, np.uint8), bonus, rules.play.last_trick)
    max_points_batch(hands[:1], trump[:1], *(a[:1] for a in args[:3]), args[3])  # compile / load cache
    t0 = time.perf_counter()
    max_points_batch(hands, trump, *args)
    return (time.perf_counter() - t0) / deals


def random_hands(rules, n: int, seed: int) -> list[str]:
    """``n`` seeded random hands (seat 0 of fresh deals) as card text."""
    from binokel_sim.cards import format_cards
    from binokel_sim.dealing.dealer import seat_slices

    rows = Dealer(rules, seed, stream=streams.stream("bench_bid")).deal(n, start=1000)
    return [format_cards(sorted(int(c) for c in r[seat_slices(rules)[0]])) for r in rows]


def instant(rules, hands: list[str], play: str = "double-dummy") -> dict:
    """Wall seconds of the whole instant-tier command per hand (after one warm-up run); ``play``: its --play."""
    cpu: list[float] = []

    def timed(args: list[str]) -> float:
        wall, c = timed_cli(args)
        cpu.append(c)
        return wall

    timed(["bid", hands[0], "--rules", rules.name, "--play", play, "--json"])  # fill caches
    secs = [timed(["bid", h, "--rules", rules.name, "--play", play, "--json"]) for h in hands]
    bid_cpu = cpu[1:]
    base = min(timed(["--version"]) for _ in range(3))
    return {"benchmark": "bid-instant", "rules": rules.name, "play": play, "hands": len(hands),
            "median_s": round(float(np.median(secs)), 3), "max_s": round(max(secs), 3), "target_s": 1.5,
            "median_cpu_s": round(float(np.median(bid_cpu)), 3), "max_cpu_s": round(max(bid_cpu), 3),
            "baseline": {"what": "binokel --version", "seconds": round(base, 3),
                         "cpu_s": round(min(cpu[-3:]), 3)}}


def checked(rules, hands: list[str], a) -> dict:
    """Seconds and samples used per hand, checked tier."""
    st = EvalSettings(policy=a.policy, inner=a.inner, top_k=a.top_k, exact_every=a.exact_every)
    evaluate_hand(hands[0], rules, samples=2, seed=a.seed, settings=st, scale=Scale(workers=1))  # caches
    secs, used, cpu = [], [], []
    for h in hands:
        t0, c0 = time.perf_counter(), time.process_time()
        ev = evaluate_hand(h, rules, samples=a.samples, seed=a.seed, settings=st, scale=Scale(workers=a.workers),
                           se=a.se)
        secs.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        used.append(ev.n)
    # Baseline in the same run: every sample solved exactly (the tier before threshold queries), on the
    # first hands' first --base-samples samples, as CPU seconds per sample.
    base = [h for h in hands[:a.base_hands]]
    c0 = time.process_time()
    for h in base:
        evaluate_hand(h, rules, samples=a.base_samples, seed=a.seed, scale=Scale(workers=1),
                      settings=EvalSettings(policy=a.policy, inner=a.inner, top_k=a.top_k, exact_every=1))
    exact_cpu = (time.process_time() - c0) / (len(base) * a.base_samples) if base else None
    per = [c / n for c, n in zip(cpu, used)]
    return {"benchmark": "bid-checked", "rules": rules.name, "policy": a.policy, "samples": a.samples, "se": a.se,
            "exact_every": a.exact_every, "workers": a.workers,
            "hands": len(hands), "median_s": round(float(np.median(secs)), 2), "max_s": round(max(secs), 2),
            "wall_s": [round(x, 1) for x in secs], "cpu_s": [round(x, 1) for x in cpu], "samples_used": used,
            "cpu_s_per_sample_median": round(float(np.median(per)), 4),
            "baseline": {"what": "every sample solved exactly (exact_every=1), CPU s per sample",
                         "hands": len(base), "samples": a.base_samples,
                         "cpu_s_per_sample": None if exact_cpu is None else round(exact_cpu, 4)},
            "ratio_cpu_per_sample_vs_exact": None if exact_cpu is None else round(float(np.median(per)) / exact_cpu, 3),
            "targets_s": {"median": 30, "max": 90}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--policy", default="sampled")
    ap.add_argument("--inner", type=int, default=EvalSettings.inner)
    ap.add_argument("--top-k", type=int, default=EvalSettings.top_k)
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--base-deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--hands", type=int, default=0, help="Random hands (0: the one fixed hand).")
    ap.add_argument("--se", type=float, default=None)
    ap.add_argument("--instant", action="store_true")
    ap.add_argument("--play", default="double-dummy", choices=("double-dummy", "single-dummy"),
                    help="--instant: the bid command's --play (single-dummy: the model of the real-play corpus).")
    ap.add_argument("--exact-every", type=int, default=EvalSettings.exact_every)
    ap.add_argument("--base-hands", type=int, default=2, help="Hands for the exact-path baseline (--hands runs).")
    ap.add_argument("--base-samples", type=int, default=10, help="Samples per baseline hand.")
    a = ap.parse_args()
    rules = load_rules(a.rules)
    machine = {"cpus": os.cpu_count(), "load_1min": round(os.getloadavg()[0], 2), "python": platform.python_version()}
    if a.instant or a.hands:
        hands = random_hands(rules, max(a.hands, 1), a.seed)
        print(json.dumps({**(instant(rules, hands, a.play) if a.instant else checked(rules, hands, a)),
                          "machine": machine}, indent=2))
        return
    st = EvalSettings(policy=a.policy, inner=a.inner, top_k=a.top_k)
    evaluate_hand(HAND, rules, samples=2, seed=a.seed, settings=st, scale=Scale(workers=1))  # compile / load caches
    t0 = time.perf_counter()
    ev = evaluate_hand(HAND, rules, samples=a.samples, seed=a.seed, settings=st, scale=Scale(workers=a.workers))
    bid_s = time.perf_counter() - t0
    per_deal = solver_seconds_per_deal(rules, a.base_deals, a.seed)
    print(json.dumps({
        "benchmark": "bid", "hand": HAND, "rules": rules.name, "policy": a.policy, "samples": a.samples,
        "inner": a.inner, "top_k": a.top_k, "seed": a.seed, "bid_seconds": round(bid_s, 3),
        "seconds_per_sample": round(bid_s / a.samples, 5),
        "target_seconds_at_1000": 10.0, "projected_seconds_at_1000": round(bid_s / a.samples * 1000, 1),
        "baseline": {"what": "max_points_batch on random full deals", "deals": a.base_deals,
                     "seconds_per_deal": round(per_deal, 5)},
        "ratio_bid_sample_to_solver_deal": round(bid_s / a.samples / per_deal, 2),
        "ceiling_bid": ev.ceiling_bid, "safe_bid": ev.safe_bid,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
    }, indent=2))


if __name__ == "__main__":
    main()
