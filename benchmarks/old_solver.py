"""A reference solver from another commit, run in a child process beside the current one.

:class:`OldSolver` extracts ``binokel_sim/`` of a commit (``git archive``) into a temporary
folder and starts a child Python with it first on ``sys.path``; the child answers one
exact solve per request, so the benchmark can time old and new solvers deal by deal,
interleaved (the machine's load drifts alike for both). The child keeps one ``Solver``,
calls ``reset()`` before each deal, as that commit's benchmark did, and also zeroes its
move-ordering counters: that solver carried them from deal to deal, which made a deal's
cost depend on the deals before it (seed 1, deal 10: 331 k nodes after nine others,
5.5 M alone).

    with OldSolver("5462fde") as old:
        value, seconds, nodes = old.exact(pos)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_CHILD = r"""
import json, sys, time
import binokel_sim
from binokel_sim.play.solver import Position, Solver
assert binokel_sim.__file__.startswith(sys.argv[1]), binokel_sim.__file__
s = Solver()
s.max_points(Position.parse("EA EK / E10 EU / EO GA", 0, 0, 0))  # compile (or load the cache) before timing
print(json.dumps({"ready": binokel_sim.__file__}), flush=True)
for line in sys.stdin:
    q = json.loads(line)
    pos = Position.parse(q["hands"], q["trump"], q["leader"], q["solo"], q["side"], (), last_trick=q["last"])
    s.reset()
    s._stats[:] = 0  # fresh move ordering: the deal's own cost, not one carried over from the deals before
    t = time.perf_counter()
    v = s.max_points(pos)
    print(json.dumps({"value": v, "seconds": time.perf_counter() - t, "nodes": s.nodes}), flush=True)
"""


class OldSolver:
    """Exact solves by the solver of ``commit`` (see the module docstring)."""

    def __init__(self, commit: str, repo: str | os.PathLike = "."):
        self.commit = commit
        self.repo = Path(repo)

    def __enter__(self) -> "OldSolver":
        self._tmp = tempfile.TemporaryDirectory(prefix="oldsolver-")
        root = self._tmp.name
        archive = subprocess.run(["git", "-C", str(self.repo), "archive", self.commit, "binokel_sim"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
        env = dict(os.environ, PYTHONPATH=root)
        self._proc = subprocess.Popen([sys.executable, "-c", _CHILD, root], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, env=env, cwd=root)
        json.loads(self._proc.stdout.readline())  # compiled (or cached) and ready
        return self

    def exact(self, pos) -> tuple[int, float, int]:
        """(value, seconds, nodes) of the old solver on ``pos`` (a trick start), fresh table."""
        hands = [[c for c in range(24) for _ in range(int(h[c]))] for h in pos.hands]
        q = {"hands": hands, "trump": pos.trump, "leader": pos.leader, "solo": pos.solo, "side": list(pos.side),
             "last": pos.last_trick}
        self._proc.stdin.write(json.dumps(q) + "\n")
        self._proc.stdin.flush()
        r = json.loads(self._proc.stdout.readline())
        return r["value"], r["seconds"], r["nodes"]

    def __exit__(self, *exc) -> None:
        self._proc.stdin.close()
        self._proc.wait(timeout=60)
        self._tmp.cleanup()
