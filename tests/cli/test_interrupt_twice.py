"""A second Ctrl-C during the first one's clean-up: exit 130, one line, no traceback (``cli.interrupts``)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

#: A command stand-in: work until Ctrl-C, then a slow clean-up (where the second Ctrl-C lands), then the line.
SCRIPT = """
import sys, time
from binokel_sim.cli.interrupts import install, leave
install()
try:
    print("ready", flush=True)
    while True:
        time.sleep(0.01)
except KeyboardInterrupt:
    time.sleep(float(sys.argv[1]))  # the clean-up: a pool shutting down, chunks counted
    leave("interrupted: 3 of 10 chunks had finished (not kept)")
"""


def _twice(cleanup: float, gap: float) -> tuple[int, str]:
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(cleanup)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout.readline().strip() == "ready"
    proc.send_signal(signal.SIGINT)
    time.sleep(gap)
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err


def test_second_ctrl_c_during_the_clean_up_exits_at_once_with_one_line():
    t0 = time.monotonic()
    code, err = _twice(cleanup=20.0, gap=0.5)
    assert code == 130 and time.monotonic() - t0 < 10
    assert err.splitlines() == ["interrupted"], err


def test_ctrl_c_with_a_quick_clean_up_prints_the_runs_own_line_only():
    code, err = _twice(cleanup=0.0, gap=0.5)
    assert code == 130 and "Traceback" not in err
    assert err.splitlines() == ["interrupted: 3 of 10 chunks had finished (not kept)"], err
