"""What a single-dummy corpus cost to build, from the CPU seconds and search nodes its rows record (issue #37).

Each row of ``binokel study play-gap --corpus DIR`` records the thread CPU seconds of its deal (the exchange and
both single-dummy modes) and each mode's search nodes. A deal's cost of "every seat single-dummy" alone is its
seconds split by the two modes' nodes (the exchange's share is small and goes with them). The median carries a
bootstrap 95 % interval over the deals (seed 1). The seconds were measured by the build, under its own load.

    .venv/bin/python benchmarks/sd_corpus_cost.py data/corpus/standard-sd

Target (issue #37): a whole deal played single-dummy at every seat with W = 20, median <= 15 s of CPU.
One JSON object.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from binokel_sim.analyses.sd_corpus import load_sd_corpus


def median_ci(x: np.ndarray, draws: int = 2000, seed: int = 1) -> tuple[float, float, float]:
    """The median of ``x`` and its percentile-bootstrap 95 % interval."""
    rng = np.random.default_rng(seed)
    boot = np.median(x[rng.integers(0, len(x), (draws, len(x)))], axis=1)
    return float(np.median(x)), float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpus", help="A single-dummy corpus folder.")
    a = ap.parse_args()
    m, rows = load_sd_corpus(a.corpus)
    g = rows[rows["played"]]
    sec = g["seconds"].to_numpy(np.float64)
    nodes_sd, nodes_solo = g["sd_nodes"].to_numpy(np.float64), g["sd_solo_nodes"].to_numpy(np.float64)
    share = np.divide(nodes_sd, nodes_sd + nodes_solo, out=np.full(len(g), 0.5), where=nodes_sd + nodes_solo > 0)
    sd_alone = median_ci(sec * share)
    top = np.sort(sec)[::-1][: max(1, len(sec) // 20)]
    print(json.dumps({
        "benchmark": "sd_corpus_cost", "corpus": str(a.corpus), "rules": m["rules"], "seed": m["seed"],
        "worlds": m["worlds"], "tolerance": m["tolerance"], "deals": len(rows), "played": len(g),
        "core_hours": round(float(rows["seconds"].sum()) / 3600, 2),
        "deal_cpu_s": {"median": round(float(np.median(sec)), 1), "mean": round(float(sec.mean()), 1),
                       "max": round(float(sec.max()), 1), "dearest_5pct_share": round(float(top.sum() / sec.sum()), 3)},
        "every_seat_sd_cpu_s": {"target": 15, "median": round(sd_alone[0], 1),
                                "ci95": [round(sd_alone[1], 1), round(sd_alone[2], 1)]},
        "deals_per_hour_two_cores": round(2 * 3600 / float(sec.mean()), 0),
    }, indent=2))


if __name__ == "__main__":
    main()
