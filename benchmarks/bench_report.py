"""The README's main job, ``binokel report --budget quick``, timed after a first (warm-up) run, against a fixed
baseline in the same run.

The baseline is ``binokel odds melds --deals 1000000`` (a fixed workload of the dealer and meld kernels, start-up
included): the ratio ``report / baseline`` says what the report costs in units of this machine's speed, so
figures from a loaded or another machine compare. Target: the quick report within 60 s wall on the 2-core
development machine (the README says "about a minute" with the first run's compiling).

``--cold`` gives the commands an empty numba cache (``NUMBA_CACHE_DIR`` in a temporary folder), so the first
run compiles every kernel as on a fresh clone; the timed runs after it read that cache.

``--blas-kernel NAME`` runs every command with ``OPENBLAS_CORETYPE=NAME``: OpenBLAS then rounds its sums as
another CPU would, so the shipped models' refits differ in the last bits -- the case of a machine that did not
fit them, where the report must still read the stored answers instead of recomputing them.

    .venv/bin/python benchmarks/bench_report.py --repeats 2
    .venv/bin/python benchmarks/bench_report.py --repeats 2 --blas-kernel Haswell --cold

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile

from cli_timing import timed_cli

REPORT = ["report", "--budget", "quick", "--quiet"]
BASELINE = ["odds", "melds", "--deals", "1000000", "--quiet"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=2, help="timed runs of each command after the warm-up")
    ap.add_argument("--cold", action="store_true", help="start from an empty numba cache (a fresh clone's first run)")
    ap.add_argument("--blas-kernel", default=None, help="OPENBLAS_CORETYPE for every command (another CPU's rounding)")
    a = ap.parse_args()
    env = dict(os.environ)
    if a.blas_kernel:
        env["OPENBLAS_CORETYPE"] = a.blas_kernel
    with tempfile.TemporaryDirectory() as tmp:
        if a.cold:
            env["NUMBA_CACHE_DIR"] = os.path.join(tmp, "numba-cache")
        report = [*REPORT, "--out", os.path.join(tmp, "report")]
        baseline = [*BASELINE, "--out", os.path.join(tmp, "odds.csv")]
        warm = timed_cli(report, env)  # fills the numba cache where it is cold
        runs = {"report": [], "baseline": []}
        for _ in range(a.repeats):  # interleaved: a change of load hits both alike
            runs["baseline"].append(timed_cli(baseline, env))
            runs["report"].append(timed_cli(report, env))
    best = {k: min(v) for k, v in runs.items()}
    print(json.dumps({
        "benchmark": "bench_report",
        "command": "binokel " + " ".join(REPORT),
        "baseline_command": "binokel " + " ".join(BASELINE),
        "blas_kernel": a.blas_kernel,
        "cold_numba_cache": a.cold,
        "repeats": a.repeats,
        "first_run_wall_s": round(warm[0], 2),
        "report_wall_s": [round(w, 2) for w, _ in runs["report"]],
        "report_cpu_s": [round(c, 2) for _, c in runs["report"]],
        "baseline_wall_s": [round(w, 2) for w, _ in runs["baseline"]],
        "best_report_wall_s": round(best["report"][0], 2),
        "best_baseline_wall_s": round(best["baseline"][0], 2),
        "ratio_report_to_baseline": round(best["report"][0] / best["baseline"][0], 2),
        "target_report_wall_s": 60,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpu_count": os.cpu_count(),
        "machine": platform.processor() or platform.machine(),
        "python": platform.python_version(),
    }, indent=2))


if __name__ == "__main__":
    main()
