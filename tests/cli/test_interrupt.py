"""Ctrl-C: a long command stops within 5 s, keeps its finished chunks and says how to resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

CLI = [sys.executable, "-c", "from binokel_sim.cli.main import main; main()"]


def _sigint_after_first_chunk(args: list[str], ck: Path, limit: float = 300.0,
                              pattern: str = "*.ckpt") -> tuple[float, int, str]:
    """Start the CLI, wait for its first stored chunk (a file ``pattern`` under ``ck``), send SIGINT;
    (seconds to exit, status, stderr)."""
    proc = subprocess.Popen(CLI + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    t0 = time.monotonic()
    while not list(ck.rglob(pattern)):
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() - t0 < limit, "no chunk finished in time"
        time.sleep(0.05)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
    return time.monotonic() - sent, proc.returncode, proc.stderr.read()


@pytest.mark.slow
def test_ctrl_c_stops_within_5_s_and_keeps_finished_chunks(tmp_path):
    ck = tmp_path / "ck"
    args = ["simulate", "games", "--rules", "four-solo", "--games", "40", "--seed", "3", "--workers", "2",
            "--checkpoint", str(ck), "--quiet"]
    seconds, code, err = _sigint_after_first_chunk(args, ck)
    assert seconds < 5.0, seconds
    assert code == 130, err
    line = err.strip().splitlines()[-1]
    assert line.startswith("interrupted: ") and "run the same command again to resume" in line, err
    assert "Traceback" not in err
    kept = len(list(ck.rglob("*.ckpt")))
    assert f"{kept} of 20 chunks (games) kept in {ck}" in line, (kept, line)


def test_ctrl_c_in_a_command_without_chunks_says_so_in_one_line():
    # Ctrl-C arrives while `card` weighs its cards (the decision sends it to itself): no resume advice,
    # since `card` keeps nothing to resume from; no traceback; status 128 + SIGINT.
    code = ("import os, signal, time\n"
            "from binokel_sim.play import single_dummy\n"
            "def stop(*a, **k):\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    time.sleep(30)\n"
            "single_dummy.SingleDummy.decide_in = stop\n"
            "from binokel_sim.cli.main import main\n"
            "main()\n")
    args = ["card", "EU GA GK GO HA HK HO HU SA S10 SK SO", "--seat", "1", "--soloist", "0", "--trump", "E",
            "--tapp", "EO GU H10 SU", "--melds", "EK EO / - / -", "--played", "SK", "--worlds", "3"]
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)
    assert time.monotonic() - t0 < 60
    assert proc.returncode == 130, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == "interrupted before the command finished", proc.stderr
    assert "Traceback" not in proc.stderr and "checkpoint" not in proc.stderr
