"""Timing one ``binokel`` command as a subprocess: wall seconds and the child's CPU seconds, the pair every
command-level benchmark reports (on a loaded machine the wall time is mostly the wait for a core).

>>> wall, cpu = timed_cli(["--version"])
>>> wall > 0 and cpu >= 0
True
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time


def binokel_exe() -> str:
    """The ``binokel`` console script of this environment."""
    return shutil.which("binokel") or os.path.join(os.path.dirname(sys.executable), "binokel")


def timed_cli(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of ``binokel ARGS``; a failing command raises."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([binokel_exe(), *args], env=env, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
