"""Start-up time of a small command: first run (numba compiles and fills its cache) and second run.

Prints JSON. The cache goes to a fresh temporary NUMBA_CACHE_DIR so the first run is cold.

    .venv/bin/python benchmarks/bench_startup.py
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time

COMMANDS = {
    "melds": ["melds", "EA E10 EK EO EU GO SU", "--json"],
    "deal": ["deal", "--seed", "3", "--json"],
}


def timed(args: list[str], env: dict[str, str]) -> float:
    exe = shutil.which("binokel") or os.path.join(os.path.dirname(os.sys.executable), "binokel")
    t0 = time.perf_counter()
    subprocess.run([exe, *args], env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def main() -> None:
    out = {}
    for name, args in COMMANDS.items():
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            first = timed(args, env)
            second = min(timed(args, env) for _ in range(3))
        out[name] = {"first_run_s": round(first, 3), "second_run_s": round(second, 3),
                     "ratio_second_to_first": round(second / first, 3)}
    baseline = min(timed(["--version"], dict(os.environ)) for _ in range(3))
    out["baseline_version_s"] = round(baseline, 3)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
