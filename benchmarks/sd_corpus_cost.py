"""What a single-dummy corpus cost to build, from the CPU seconds and search nodes its rows record (issue #37).

Each row of ``binokel study play-gap --corpus DIR`` records the thread CPU seconds of its deal (the exchange and
both single-dummy modes) and each mode's search nodes. A deal's cost of "every seat single-dummy" alone is its
seconds split by the two modes' nodes (the exchange's share is small and goes with them). The median carries a
bootstrap 95 % interval over the deals (seed 1). The seconds were measured by the build, under its own load.
``--replay N`` plays N deals drawn at random (seed 1) again, every seat single-dummy, on this machine as it is
now: each must search the nodes its row records (the same play), and their CPU seconds are set beside the
recorded ones, deal by deal.

    .venv/bin/python benchmarks/sd_corpus_cost.py data/corpus/standard-sd [--replay 20]

Target (issue #37): a whole deal played single-dummy at every seat with W = 20, median <= 15 s of CPU.
One JSON object.
"""

from __future__ import annotations

import argparse
import json
import os

import numpy as np

from binokel_sim.analyses.sd_corpus import load_sd_corpus


def median_ci(x: np.ndarray, draws: int = 2000, seed: int = 1) -> tuple[float, float, float]:
    """The median of ``x`` and its percentile-bootstrap 95 % interval."""
    rng = np.random.default_rng(seed)
    boot = np.median(x[rng.integers(0, len(x), (draws, len(x)))], axis=1)
    return float(np.median(x)), float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))


def sd_seconds(rows) -> np.ndarray:
    """Each row's CPU seconds of "every seat single-dummy" alone: its seconds split by the two modes' nodes."""
    nodes_sd, nodes_solo = rows["sd_nodes"].to_numpy(np.float64), rows["sd_solo_nodes"].to_numpy(np.float64)
    share = np.divide(nodes_sd, nodes_sd + nodes_solo, out=np.full(len(rows), 0.5), where=nodes_sd + nodes_solo > 0)
    return rows["seconds"].to_numpy(np.float64) * share


def replay(m: dict, rows, n: int) -> dict:
    """``n`` random played deals of the corpus played again every seat single-dummy: CPU seconds now and recorded."""
    import time

    from bench_single_dummy import deal_state  # this folder's deal set-up (the study's exchange)

    from binokel_sim.analyses.play_gap import GapSettings, _play
    from binokel_sim.rules import load_rules

    rules = load_rules(m["rules"])
    g = rows[rows["played"]].reset_index(drop=True)
    pick = np.sort(np.random.default_rng(1).choice(len(g), n, replace=False))
    settings = GapSettings(worlds=m["worlds"], tolerance=m["tolerance"])
    now = []
    for j in pick:
        row = g.iloc[j]
        d = int(row["deal"])
        t0 = time.thread_time()
        r = _play(rules, deal_state(rules, m["seed"], d), m["seed"], d, settings, solo_only=False)
        now.append(time.thread_time() - t0)
        if r["nodes"] != row["sd_nodes"]:
            raise SystemExit(f"deal {d}: {r['nodes']} nodes, the corpus records {row['sd_nodes']}")
    now_a, then_a = np.array(now), sd_seconds(g.iloc[pick])
    med = median_ci(now_a)
    return {"deals": [int(g.iloc[j]["deal"]) for j in pick], "cpu_s_now": [round(x, 2) for x in now],
            "median_now": round(med[0], 1), "median_now_ci95": [round(med[1], 1), round(med[2], 1)],
            "median_recorded_same_deals": round(float(np.median(then_a)), 1),
            "recorded_over_now_median": round(float(np.median(then_a / now_a)), 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", help="A single-dummy corpus folder.")
    ap.add_argument("--replay", type=int, default=0, help="Deals to play again here, every seat single-dummy.")
    a = ap.parse_args()
    load_before = os.getloadavg()
    m, rows = load_sd_corpus(a.corpus)
    g = rows[rows["played"]]
    sec = g["seconds"].to_numpy(np.float64)
    sd_alone = median_ci(sd_seconds(g))
    top = np.sort(sec)[::-1][: max(1, len(sec) // 20)]
    again = replay(m, rows, a.replay) if a.replay else None
    print(json.dumps({
        "benchmark": "sd_corpus_cost", "corpus": str(a.corpus), "rules": m["rules"], "seed": m["seed"],
        "worlds": m["worlds"], "tolerance": m["tolerance"], "deals": len(rows), "played": len(g),
        "core_hours": round(float(rows["seconds"].sum()) / 3600, 2),
        "deal_cpu_s": {"median": round(float(np.median(sec)), 1), "mean": round(float(sec.mean()), 1),
                       "max": round(float(sec.max()), 1), "dearest_5pct_share": round(float(top.sum() / sec.sum()), 3)},
        "every_seat_sd_cpu_s": {"target": 15, "median": round(sd_alone[0], 1),
                                "ci95": [round(sd_alone[1], 1), round(sd_alone[2], 1)]},
        "deals_per_hour_two_cores": round(2 * 3600 / float(sec.mean()), 0),
        **({"replayed_every_seat_sd": again, "load_average": {"before": load_before, "after": os.getloadavg()}}
           if again else {}),
    }, indent=2))


if __name__ == "__main__":
    main()
