"""Ctrl-C -> exit for every long command: start it, let it work, send SIGINT, time the exit.

Prints JSON: per command the seconds from SIGINT to exit, the exit status and the last
stderr line (the resume hint). Baseline, measured in the same run: a bare Python process
that sleeps (signal delivery and interpreter exit alone). Target: every command under 5 s.

    python benchmarks/bench_interrupt.py [--after 8] [--only "odds tapp"]
"""

from __future__ import annotations

import argparse
import json
import platform
import signal
import subprocess
import sys
import tempfile
import time

CLI = [sys.executable, "-c", "from binokel_sim.cli.main import main; main()"]
#: (name, arguments): each runs far longer than the wait before SIGINT.
COMMANDS = [
    ("odds melds", ["odds", "melds", "--deals", "100000000", "--quiet"]),
    ("odds tapp", ["odds", "tapp", "--deals", "50", "--quiet"]),
    ("odds bids", ["odds", "bids", "--deals", "50", "--quiet"]),
    ("bid", ["bid", "EA EA E10 EK EO EU GA G10 HA H10 SA S10", "--samples", "200", "--policy", "heuristic", "--quiet"]),
    ("compare", ["compare", "standard", "kreuz", "--deals", "20000", "--played", "8", "--quiet"]),
    ("simulate games", ["simulate", "games", "--games", "50", "--quiet"]),
    ("report", ["report", "--budget", "quick", "--quiet"]),
]


def stop_time(argv: list[str], after: float, checkpoint: str | None = None) -> dict:
    proc = subprocess.Popen(argv + (["--checkpoint", checkpoint] if checkpoint else []), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(after)
    if proc.poll() is not None:
        return {"seconds": None, "status": proc.returncode, "note": "finished before the signal"}
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    seconds = time.perf_counter() - t0
    err = proc.stderr.read().strip().splitlines()
    return {"seconds": round(seconds, 2), "status": proc.returncode, "last_line": err[-1] if err else ""}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--after", type=float, default=8.0, help="Seconds of work before SIGINT.")
    ap.add_argument("--only", default=None, help="Run only this command (e.g. 'odds tapp').")
    a = ap.parse_args()
    out: dict = {"machine": f"{platform.machine()}, {len(__import__('os').sched_getaffinity(0))} cores",
                 "load_before": open("/proc/loadavg").read().split()[:3], "after_s": a.after,
                 "baseline": stop_time([sys.executable, "-c", "import time; time.sleep(600)"], 1.0)}
    for name, args in COMMANDS:
        if a.only and name != a.only:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            if name == "report":
                args = args + ["--out", f"{tmp}/rep"]
            ck = f"{tmp}/ck" if name not in ("bid",) else None
            out[name] = stop_time(CLI + args, a.after, ck)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
