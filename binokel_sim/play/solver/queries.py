"""Queries that ask the solver only what the answer needs: threshold, grid and anytime interval.

Each query is a sequence of zero-window tests "value >= t?" (:func:`.driver.test`) on one
table, and returns a :class:`Result`: the proven interval ``lo <= value <= hi`` (exact
when ``lo == hi``) and its cost. A test's fail-soft result narrows the interval beyond
its target, so every answer is at least as narrow as the question asked.

* ``exact``: the value (the driver's tests from above, :func:`.driver.value`).
* ``at_least(T)``: one test. Far from the value it costs 1-4 % of the exact value.
* ``grid(step, lo, hi)``: the grid interval ``[lo + k*step, lo + (k+1)*step)`` holding the
  value, grid points above ``hi`` left untested: tests from above at grid points, one
  succeeds. Bids and melds are multiples of 10, so a grid of 10 decides every bid.
* ``thresholds(targets)``: decides "value >= t" for every target of a set (the bids a
  ladder prints, as card points): bisection over the targets the interval does not yet
  decide, so k targets cost about log2(k + 1) tests, the decided ones none.
* ``bounds(budget)``: an anytime interval. Tests from above with a coarse step first
  (each failure lowers ``hi``, one success per step fixes ``lo``), then finer steps, the
  last one the exact driver itself. Under a budget (nodes and/or seconds) each test first
  gets a share of it; one cut off is replaced by an easier test lower down (see
  :func:`run_bounds`). When the budget runs out the running test is abandoned and the
  interval proven so far is returned. Enough budget gives the exact value.
* ``within(step, budget, offset)``: what a corpus row needs. First every grid point
  ``offset + k*step`` decided (so ``hi - lo < step``; never cut short: bids are multiples of 10, and
  with the grid where the total crosses them a 10-point interval decides every bid), then exact
  tests from above while the node budget (counted over the whole query) lasts. See :func:`run_within`.

This module holds the test sequences (the ``run_*`` drivers); each query's typed record -- its
fields, their checks, which driver it runs, its JSON fields -- is in :mod:`.query_types`.

>>> from binokel_sim.play.solver import Position, Solver
>>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
>>> s = Solver()
>>> r = s.grid(pos, step=10)
>>> (r.lo, r.hi, r.exact), s.at_least(pos, 30).reached
((34, 34, True), True)
>>> parse_budget("5s"), parse_budget("200000n")
((None, 5.0), (200000, None))
"""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass

from binokel_sim.errors import InputError, shown
from binokel_sim.play.solver.quasi import QMIN_WITHIN
from binokel_sim.play.solver.search import C_KILL, C_LIMIT, C_QMIN, S_ABORT, S_NODES

#: Steps of the anytime ``bounds`` driver: a coarse interval first, then finer ones; 1 is exact.
BOUNDS_STEPS = (30, 10, 1)


@dataclass(frozen=True)
class Result:
    """Proven interval ``lo <= value <= hi`` of a query, its node count and seconds.

    ``reached``: for ``at_least`` (and ``exact`` with a target), whether the target (and
    trick) is reached; ``None`` if the query was cut off first (and for the other queries).
    """

    lo: int
    hi: int
    nodes: int
    seconds: float
    reached: bool | None = None

    @property
    def exact(self) -> bool:
        return self.lo == self.hi

    def as_dict(self) -> dict:
        out = {"lo": self.lo, "hi": self.hi, "exact": self.exact, "nodes": self.nodes,
               "seconds": round(self.seconds, 6)}
        if self.reached is not None:
            out["reached"] = self.reached
        return out


#: The largest budget a solve takes: 10^15 nodes, or a week in seconds (about 2 * 10^12 nodes).
MAX_BUDGET_NODES = 10**15
MAX_BUDGET_SECONDS = 7 * 24 * 3600


def parse_budget(text: str) -> tuple[int | None, float | None]:
    """``"5s"`` -> 5 seconds, ``"200000n"`` -> 200000 nodes (``"2.5s"``, ``"3e6n"`` too); at most
    :data:`MAX_BUDGET_NODES` nodes or :data:`MAX_BUDGET_SECONDS` seconds.

    >>> parse_budget("3e6n"), parse_budget("2.5s")
    ((3000000, None), (None, 2.5))
    >>> parse_budget("1e400s")
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: budget: at most 604800 seconds (a week), got '1e400s'
    """
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*([sn])\s*", str(text)[:100], re.IGNORECASE)
    if not m:
        raise InputError(f"budget: expected seconds like 5s or nodes like 200000n, got {shown(text)}")
    x = float(m.group(1))
    if x <= 0:
        raise InputError(f"budget: must be positive, got {text!r}")
    if m.group(2).lower() == "s":
        if not x <= MAX_BUDGET_SECONDS:
            raise InputError(f"budget: at most {MAX_BUDGET_SECONDS} seconds (a week), got {text!r}")
        return None, x
    if not x <= MAX_BUDGET_NODES:
        raise InputError(f"budget: at most {MAX_BUDGET_NODES} nodes (10^15), got {text!r}")
    if x != int(x):
        raise InputError(f"budget: a node count must be whole, got {text!r}")
    return int(x), None


class Run:
    """One query's tests on a prepared search: ``search(t) -> g`` (:func:`.driver.test`) with its
    ``cfg`` and ``stats`` arrays; ``limit``: the query's node budget (0: none); ``until``: its
    deadline (``time.perf_counter()``), if any. ``lo``/``hi``: the interval proven so far."""

    def __init__(self, search, cfg, stats, lo: int, hi: int, limit: int = 0, until: float | None = None):
        self.search, self.cfg, self.stats = search, cfg, stats
        self.lo, self.hi = lo, hi
        self.limit, self.until = limit, until

    def exhausted(self) -> bool:
        """Whether the query's own budget (not a test's share) is spent."""
        return bool((self.limit and self.stats[S_NODES] >= self.limit)
                    or (self.until is not None and time.perf_counter() >= self.until) or self.stats[S_ABORT] == 2)

    def ask(self, t: int, share: int = 0) -> bool | None:
        """Test "value >= t" and narrow [lo, hi]; ``None`` if cut off first -- by the query's
        budget, or after ``share`` more nodes (then the search may go on: see :meth:`exhausted`)."""
        cap = self.limit
        if share:
            cap = min(cap or 1 << 62, int(self.stats[S_NODES]) + share)
        self.cfg[C_LIMIT] = cap
        g = int(self.search(t))
        self.cfg[C_LIMIT] = self.limit
        if self.stats[S_ABORT]:
            if not self.exhausted():
                self.stats[S_ABORT] = 0
            return None
        if g >= t:
            self.lo = max(self.lo, g)
            return True
        self.hi = min(self.hi, g)
        return False


def run_grid(run: Run, step: int, lo: int, hi: int) -> None:
    """Tests from above at grid points ``lo + k*step <= hi`` until one succeeds (or none is left)."""
    top = min(run.hi, hi)
    while top >= lo:
        t = lo + (top - lo) // step * step
        if t <= run.lo:
            return
        ok = run.ask(t)
        if ok is None or ok:
            return
        top = run.hi


def run_targets(run: Run, targets) -> None:
    """Tests until every target ``t`` is decided (``t <= lo`` or ``t > hi``), the highest open one first;
    stops early when a test is cut off by the query's budget (the open targets stay undecided).

    From the top, as the exact driver: a target above the value fails cheaply and its fail-soft bound
    often decides several more, and the first that succeeds decides every one below it -- one proof.
    Bisecting (the middle open target first) proved several targets below the value: 1.7-2x the nodes
    (40 / 60 ``standard`` deals, eight targets 10 points apart: 19.5 M -> 9.4 M, 25.6 M -> 15.3 M nodes,
    the same decisions)."""
    ts = sorted(set(int(t) for t in targets))
    while True:
        open_ = [t for t in ts if run.lo < t <= run.hi]
        if not open_ or run.ask(open_[-1]) is None:
            return


def run_bounds(run: Run, share: int = 0) -> None:
    """The anytime driver (see the module docstring); the last step is the exact driver.

    With a budget each test gets a ``share`` of nodes first: a test cut off by it is
    replaced by an easier one, halfway down to ``lo`` (a proof far below the value costs a
    fraction of one close to it), and the share doubles -- so the budget buys lower bounds
    instead of one unfinished proof; after a cut the driver bisects. Bounds found on the
    way stay in the table.
    """
    cut = False
    for step in BOUNDS_STEPS:
        while run.hi - run.lo >= step:
            # Once a test was cut off the value is costly to pin down: bisect [lo, hi] instead.
            t = run.lo + max(1, (run.hi - run.lo + 1) // 2) if cut else max(run.lo + 1, run.hi - step + 1)
            while run.ask(t, share) is None:
                if run.exhausted():
                    return
                cut = True
                share *= 2
                t = run.lo + max(1, (t - run.lo) // 2)


def run_within(run: Run, step: int, offset: int = 0) -> None:
    """Decide every grid point ``offset + k * step`` whatever it costs (``[lo, hi]`` then holds none
    above ``lo``, so ``hi - lo < step``), then on to the exact value while the run's node budget
    (``run.limit``, 0: none) lasts.

    Phase one is :func:`run_grid`: tests from above at grid points, each failure lowering ``hi`` to
    its fail-soft bound, the first success the one proof near the value. (Steps of 30 first, as
    ``bounds`` takes them, pay for a second proof.) With the grid at the card points where the total
    crosses a multiple of 10, every bid is decided. Phase two is the exact driver's tests from
    above, ``>= hi``, each failure lowering ``hi``.

    The twins' table is probed from :data:`.quasi.QMIN_WITHIN` tricks left, and the grid's tests use the
    defenders' killer moves (cleared before each test): the dear test is the one that fails just above the
    value, where the defenders refute every line of the soloist's, often with the same card at a ply. On the
    20 phase-2 positions of ``benchmarks/bench_phase2.py`` the grid took 0.97x the nodes with killers (with
    2**24 quasi rows and twins from 3 tricks), the same decisions; in the exact driver's tests from above
    killers cost nodes (:func:`.driver.value`), so phase two runs without them.
    """
    limit, run.limit = run.limit, 0
    run.cfg[C_QMIN] = QMIN_WITHIN
    run.cfg[C_KILL] = 1
    run_grid(run, step, offset % step, run.hi)
    run.cfg[C_KILL] = 0
    run.limit = limit
    while run.hi > run.lo and not (limit and run.stats[S_NODES] >= limit):
        if run.ask(run.hi) is None:
            return


class Deadline:
    """Sets ``stats[flag]`` after ``seconds`` from another thread (the kernels release the GIL)."""

    def __init__(self, stats, flag: int, seconds: float | None):
        self.timer = None
        if seconds is not None:
            # 2, not 1: a query's deadline, not a test's share of nodes (see Run.exhausted)
            self.timer = threading.Timer(seconds, stats.__setitem__, (flag, 2))
            self.timer.daemon = True

    def __enter__(self):
        if self.timer is not None:
            self.timer.start()
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        if self.timer is not None:
            self.timer.cancel()
            self.timer.join()
        self.seconds = time.perf_counter() - self.t0
        return False
