"""``binokel serve`` under load on loopback: the benchmark's own run, its targets asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_serve.py"


def test_fifty_concurrent_requests_and_a_cancel():
    out = subprocess.run([sys.executable, str(BENCH), "--hands", "4", "--concurrent", "50"], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    d = json.loads(out.stdout)
    assert d["load"]["answered"] == 50 and d["load"]["lost"] == 0
    assert d["load"]["p95_s"] < 5.0
    assert d["first_answer"]["max_s"] < 1.5
    assert d["cpu"]["ratio"] < 1.2
    assert d["job"]["api_latency_while_running_max_s"] < 1.0
    assert d["job"]["state"] == "cancelled" and d["job"]["freed_in_s"] < 2.0
