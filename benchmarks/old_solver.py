"""Code of another commit, run in a child process beside the current one: a reference in the same run.

:class:`OldCommit` extracts ``binokel_sim/`` of a commit (``git archive``) into a temporary
folder and starts a child Python with it first on ``sys.path``; the child answers one JSON
request per line, so a benchmark can time old and new code on the same work, interleaved
(the machine's load drifts alike for both). Two children:

* :class:`OldSolver`: one exact solve per request. It keeps one ``Solver``, calls
  ``reset()`` before each deal, as that commit's benchmark did, and also zeroes its
  move-ordering counters: that solver carried them from deal to deal, which made a deal's
  cost depend on the deals before it (seed 1, deal 10: 331 k nodes after nine others,
  5.5 M alone).
* :class:`OldStudy`: that commit's study deals (exchange, the contract's double-dummy
  value, the Tapp-unseen baseline: what ``odds tapp`` paid per deal) for a range of deals,
  timed in CPU seconds of the child. Written for the commit the corpus issue measured
  "today's study deal" on (:data:`BASELINE`, the first commit after it was filed).

    with OldSolver(BASELINE) as old:
        value, seconds, nodes = old.exact(pos)
    with OldStudy(BASELINE) as old:
        cpu_seconds, values = old.deals("standard", 1, 100000, 100012)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

#: The commit the corpus issue measured "today's study deal" on: the benchmarks' default ``--old``.
BASELINE = "5462fde"

_SOLVER_CHILD = r"""
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

_STUDY_CHILD = r"""
import json, sys, time
import binokel_sim
from binokel_sim.studies.deals import STREAM_STUDY, study_chunk
from binokel_sim.evaluation.hand import EvalSettings
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk
assert binokel_sim.__file__.startswith(sys.argv[1]), binokel_sim.__file__
st = EvalSettings(policy="heuristic").check()
study_chunk(load_rules("standard"), 1, st, Chunk(0, 0, 1), True, None, STREAM_STUDY, True)  # compile first
print(json.dumps({"ready": binokel_sim.__file__}), flush=True)
for line in sys.stdin:
    q = json.loads(line)
    rules = load_rules(q["rules"])
    t = time.process_time()
    df = study_chunk(rules, q["seed"], st, Chunk(0, q["start"], q["stop"]), True, None, STREAM_STUDY, True)
    print(json.dumps({"cpu_seconds": time.process_time() - t, "values": df["value"].tolist()}), flush=True)
"""


class OldCommit:
    """A child process running ``script`` on ``binokel_sim/`` of ``commit`` (see the module docstring)."""

    script = ""

    def __init__(self, commit: str, repo: str | os.PathLike = "."):
        self.commit = commit
        self.repo = Path(repo)

    def __enter__(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="oldcommit-")
        root = self._tmp.name
        archive = subprocess.run(["git", "-C", str(self.repo), "archive", self.commit, "binokel_sim"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
        env = dict(os.environ, PYTHONPATH=root)
        self._proc = subprocess.Popen([sys.executable, "-c", self.script, root], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, env=env, cwd=root)
        json.loads(self._proc.stdout.readline())  # compiled (or cached) and ready
        return self

    def ask(self, request: dict) -> dict:
        """One request to the child, its JSON answer."""
        self._proc.stdin.write(json.dumps(request) + "\n")
        self._proc.stdin.flush()
        return json.loads(self._proc.stdout.readline())

    def __exit__(self, *exc) -> None:
        self._proc.stdin.close()
        self._proc.wait(timeout=60)
        self._tmp.cleanup()


class OldSolver(OldCommit):
    """Exact solves by the solver of ``commit``."""

    script = _SOLVER_CHILD

    def exact(self, pos) -> tuple[int, float, int]:
        """(value, seconds, nodes) of the old solver on ``pos`` (a trick start), fresh table."""
        hands = [[c for c in range(24) for _ in range(int(h[c]))] for h in pos.hands]
        r = self.ask({"hands": hands, "trump": pos.trump, "leader": pos.leader, "solo": pos.solo,
                      "side": list(pos.side), "last": pos.last_trick})
        return r["value"], r["seconds"], r["nodes"]


class OldStudy(OldCommit):
    """Study deals (heuristic policy, with the Tapp-unseen baseline) by the code of ``commit``."""

    script = _STUDY_CHILD

    def deals(self, rules: str, seed: int, start: int, stop: int) -> tuple[float, list[int]]:
        """(CPU seconds of the child, each deal's contract value) for deals ``start .. stop - 1``."""
        r = self.ask({"rules": rules, "seed": seed, "start": start, "stop": stop})
        return r["cpu_seconds"], r["values"]
