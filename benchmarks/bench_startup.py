"""Start-up time of a small command: first run (numba compiles and fills its cache) and second run.

Prints JSON. The cache goes to a fresh temporary NUMBA_CACHE_DIR so the first run is cold. Each
time comes with the child's CPU seconds (user + system): on a loaded machine the wall time
mostly measures the queue for a core, the CPU time what the command costs. ``bid`` (the
instant tier) also gets a ``python -X importtime`` breakdown: the cumulative import time of
the heavy packages and the slowest modules, to see what the answer pays for.

    .venv/bin/python benchmarks/bench_startup.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

from cli_timing import timed_cli

COMMANDS = {
    "melds": ["melds", "EA E10 EK EO EU GO SU", "--json"],
    "deal": ["deal", "--seed", "3", "--json"],
    "bid": ["bid", "EA EA E10 EK EO EU GA G10 HA H10 SA S10", "--json"],
}
#: Packages whose cumulative import time the ``bid`` breakdown reports.
HEAVY = ("numpy", "numba", "pandas", "click", "matplotlib", "binokel_sim.cli.bid", "binokel_sim.evaluation.instant")

_cpu: list[float] = []


def timed(args: list[str], env: dict[str, str]) -> float:
    """Wall seconds of ``binokel ARGS``; its CPU seconds go to ``_cpu``."""
    wall, cpu = timed_cli(args, env)
    _cpu.append(cpu)
    return wall


def import_times(args: list[str]) -> dict:
    """``python -X importtime`` of the command (caches warm): seconds per heavy package and the 8 slowest modules."""
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "binokel_sim.cli.main", *args],
                       capture_output=True, text=True, check=True)
    cum: dict[str, float] = {}
    own: dict[str, float] = {}
    for line in r.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line or "cumulative" in line:
            continue
        self_us, cum_us, name = line[len("import time:"):].split("|")
        cum[name.strip()] = max(cum.get(name.strip(), 0.0), int(cum_us) / 1e6)
        own[name.strip()] = int(self_us) / 1e6
    return {"cumulative_s": {k: round(cum[k], 3) for k in HEAVY if k in cum},
            "imported": sorted(k for k in HEAVY if k in cum),
            "slowest_self_s": {k: round(v, 3) for k, v in sorted(own.items(), key=lambda kv: -kv[1])[:8]}}


def main() -> None:
    out = {}
    for name, args in COMMANDS.items():
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            first = timed(args, env)
            first_cpu = _cpu[-1]
            runs = [timed(args, env) for _ in range(3)]
            cpu = _cpu[-3:]
        out[name] = {"first_run_s": round(first, 3), "first_run_cpu_s": round(first_cpu, 3),
                     "second_run_s": round(min(runs), 3), "second_run_cpu_s": round(min(cpu), 3),
                     "ratio_second_to_first": round(min(runs) / first, 3)}
    out["bid_imports"] = import_times(COMMANDS["bid"])
    baseline = min(timed(["--version"], dict(os.environ)) for _ in range(3))
    out["baseline_version_s"] = round(baseline, 3)
    out["baseline_version_cpu_s"] = round(min(_cpu[-3:]), 3)
    out["load_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
