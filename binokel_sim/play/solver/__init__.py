"""Exact double-dummy solver for Binokel trick play (docs/rules.md §6).

Queries (Python API, :mod:`binokel_sim.play.solver.api`): the exact points the
soloist's side can guarantee, a threshold test, the value of every legal card,
Durch and Bettel; plus the kernel :func:`max_points_batch` for many deals. Ask
only what the answer needs (:mod:`.queries`): ``exact``, ``at_least(T)`` (one
test, 1-4 % of the exact cost away from the value), ``grid(step, lo, hi)`` (the
grid interval holding the value), ``bounds(budget)`` (an anytime interval, exact
when the budget suffices); each returns the proven interval ``lo..hi``. Each query is
also a typed record (:mod:`.query_types`: ``Exact``, ``AtLeast``, ``Thresholds``,
``Grid``, ``Bounds``, ``Within``) that :meth:`Solver.query` runs.

>>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
>>> Solver().max_points(pos)
34
>>> r = Solver().query(pos, AtLeast(30))
>>> (r.lo, r.reached)
(34, True)

How it works -- the state as bit masks, the zero-window driver, the quick bounds, the
transposition and quasi-symmetry tables, the move ordering, and what was tried and
dropped with its numbers -- is the "Solver" page of the documentation site; its speed is
on the "Performance" page.
"""

from binokel_sim.play.solver.api import Solver, solve, without_trump
from binokel_sim.play.solver.driver import max_points_batch, max_points_batch_into
from binokel_sim.play.solver.position import Position, parse_trump
from binokel_sim.play.solver.query_types import AtLeast, Bounds, Exact, Grid, Query, Thresholds, Within, parse_query

__all__ = ["Solver", "solve", "Position", "parse_trump", "without_trump", "max_points_batch", "max_points_batch_into",
           "Query", "Exact", "AtLeast", "Thresholds", "Grid", "Bounds", "Within", "parse_query"]
