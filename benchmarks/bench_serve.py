"""Benchmark of ``binokel serve`` on loopback: first answer, the API's CPU against the CLI's, a load of
concurrent instant requests, and a checked job's cancel.

Starts ``binokel serve`` as its own process on a free port, warms it with one answer, then measures:

- ``first_answer``: the Hand page's first answer (melds + instant bid, sent together as the page does)
  for ``--hands`` random hands: median and max seconds (target 1.5 s);
- ``cpu``: the server process's CPU seconds per instant ``/api/bid`` (read from /proc before and after
  the ``--hands`` requests, one at a time) against ``binokel bid HAND --json``'s own CPU seconds (its
  process, start-up included) on the same hands, the same run: ``ratio`` (target <= 1.2);
- ``load``: ``--concurrent`` instant requests at once, distinct hands: answered, lost, p50/p95/max
  seconds (target: none lost, p95 < 5 s);
- ``job``: a checked job of 2 000 deals started, the API's latency while it runs (max of 10 requests,
  target < 1 s), then cancelled: ``freed_in`` (its process gone, target < 2 s).

    .venv/bin/python benchmarks/bench_serve.py --hands 10 --concurrent 50 > serve.json

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np

from binokel_sim.cards import format_cards
from binokel_sim.dealing.dealer import Dealer

BIN = Path(sys.executable).with_name("binokel")


def random_hands(rules: str, n: int, seed: int = 7) -> list[str]:
    """``n`` seeded random hands (seat 0 of fresh deals) as card text."""
    d = Dealer(rules, seed)
    return [format_cards(d.deal_object(i).hands[0].cards) for i in range(n)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (its threads included), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(rules: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([str(BIN), "serve", "--rules", rules, "--port", str(port), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            httpx.get(f"{base}/api/presets", timeout=1.0)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("binokel serve did not answer within 30 s")


def first_answers(base: str, rules: str, hands: list[str]) -> dict:
    out = []
    with httpx.Client(base_url=base, timeout=60) as c, ThreadPoolExecutor(2) as pool:
        for h in hands:
            q = {"rules": rules, "hand": h}
            t0 = time.perf_counter()
            rs = list(pool.map(lambda p, q=q: c.post(p, json=q), ["/api/melds", "/api/bid"]))
            out.append(time.perf_counter() - t0)
            assert all(r.status_code == 200 for r in rs), [r.text for r in rs]
    return {"hands": len(hands), "median_s": round(float(np.median(out)), 3), "max_s": round(max(out), 3),
            "target_s": 1.5}


def cpu_ratio(proc: subprocess.Popen, base: str, rules: str, hands: list[str]) -> dict:
    with httpx.Client(base_url=base, timeout=60) as c:
        c0 = cpu_of(proc.pid)
        for h in hands:
            assert c.post("/api/bid", json={"rules": rules, "hand": h}).status_code == 200
        api = (cpu_of(proc.pid) - c0) / len(hands)
    subprocess.run([str(BIN), "bid", hands[0], "--rules", rules, "--json"], capture_output=True, check=True)  # warm
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for h in hands:
        subprocess.run([str(BIN), "bid", h, "--rules", rules, "--json"], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cli = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / len(hands)
    return {"api_cpu_s": round(api, 4), "cli_cpu_s": round(cli, 4), "ratio": round(api / cli, 3), "target": 1.2}


def load(base: str, rules: str, hands: list[str]) -> dict:
    def one(h: str) -> tuple[int, float]:
        t0 = time.perf_counter()
        try:
            with httpx.Client(base_url=base, timeout=120) as c:
                code = c.post("/api/bid", json={"rules": rules, "hand": h}).status_code
        except httpx.HTTPError:
            code = -1
        return code, time.perf_counter() - t0

    t0 = time.perf_counter()
    with ThreadPoolExecutor(len(hands)) as pool:
        res = list(pool.map(one, hands))
    lat = np.array([s for _, s in res])
    ok = sum(code == 200 for code, _ in res)
    return {"concurrent": len(hands), "answered": ok, "lost": len(hands) - ok,
            "p50_s": round(float(np.percentile(lat, 50)), 3), "p95_s": round(float(np.percentile(lat, 95)), 3),
            "max_s": round(float(lat.max()), 3), "wall_s": round(time.perf_counter() - t0, 3), "target_p95_s": 5.0}


def job(base: str, rules: str, hand: str) -> dict:
    with httpx.Client(base_url=base, timeout=60) as c:
        j = c.post("/api/jobs", json={"rules": rules, "hand": hand, "samples": 2000}).json()
        t0 = time.perf_counter()
        while c.get(f"/api/jobs/{j['id']}").json()["state"] != "running":
            assert time.perf_counter() - t0 < 60
            time.sleep(0.1)
        lat = []
        for _ in range(10):
            t = time.perf_counter()
            assert c.post("/api/melds", json={"rules": rules, "hand": hand}).status_code == 200
            lat.append(time.perf_counter() - t)
            time.sleep(0.1)
        started = time.perf_counter() - t0
        t = time.perf_counter()
        s = c.delete(f"/api/jobs/{j['id']}").json()
        return {"running_after_s": round(started, 2), "api_latency_while_running_max_s": round(max(lat), 3),
                "cancel_request_s": round(time.perf_counter() - t, 3), "freed_in_s": s["freed_in"],
                "state": s["state"], "target_latency_s": 1.0, "target_freed_s": 2.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--hands", type=int, default=10)
    ap.add_argument("--concurrent", type=int, default=50)
    a = ap.parse_args()
    hands = random_hands(a.rules, max(a.hands, a.concurrent) + 1)
    proc, base = start_server(a.rules)
    try:
        httpx.post(f"{base}/api/bid", json={"rules": a.rules, "hand": hands[-1]}, timeout=60)  # warm
        out = {"benchmark": "serve", "rules": a.rules, "machine": platform.processor() or platform.machine(),
               "cores": os.cpu_count(), "first_answer": first_answers(base, a.rules, hands[:a.hands]),
               "cpu": cpu_ratio(proc, base, a.rules, hands[:a.hands]),
               "load": load(base, a.rules, hands[:a.concurrent]), "job": job(base, a.rules, hands[0])}
    finally:
        proc.terminate()
        proc.wait(10)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
