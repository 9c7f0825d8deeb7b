"""The corpus builder's double-dummy back ends: the project's solver under a rule set's play rules,
counting the search nodes each deal costs (the manifest's ``nodes``).

>>> dd, counter = counting_dd()
>>> dd.points is not None and dd.bounds is None, counter
(True, [0])
"""

from __future__ import annotations

import threading

import numpy as np

from binokel_sim.play.dd import DD, default_specials

_TABLES = threading.local()


def _tables(tricks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """This thread's solver tables for deals of ``tricks`` tricks, and their generation counter: reused
    deal after deal (each deal a new generation) instead of allocating and zeroing 112 MiB per solve."""
    from binokel_sim.play.solver.quasi import new_quasi_table
    from binokel_sim.play.solver.table import bits_for, new_table

    bits = int(bits_for(tricks))
    held = getattr(_TABLES, "held", None)
    if held is None or held[0] != bits:
        held = _TABLES.held = (bits, new_table(bits), new_quasi_table(bits), np.zeros(1, dtype=np.int64))
    return held[1], held[2], held[3]


def counting_dd(rule: int = 0) -> tuple[DD, list[int]]:
    """A double-dummy back end under the play-rules word ``rule`` that also counts its search nodes (in
    ``counter[0]``)."""
    from binokel_sim.play.solver import max_points_batch_into

    counter = [0]

    def points(counts, trump, leader, side, bonus, last):
        n = counts.shape[0]
        out = np.zeros(n, dtype=np.int32)
        nodes = np.zeros(n, dtype=np.int64)
        tt, qt, gen = _tables(int(counts[0, 0].sum()))
        max_points_batch_into(counts, trump, leader, side, bonus, last, tt, qt, gen, out, nodes, rule)
        counter[0] += int(nodes.sum())
        return out

    def specials():
        made = default_specials(rule)

        def counted(*args) -> bool:
            ok = made(*args)
            counter[0] += made.queries.nodes
            return ok

        return counted

    return DD(points=points, specials=specials), counter


def bounded_dd(budget_nodes: int | None, within: int | None = None, rule: int = 0) -> tuple[DD, list[int]]:
    """A ``Solver.bounds`` back end within ``budget_nodes`` per solve (:func:`binokel_sim.play.dd.budgeted`),
    or with ``within`` the ``Solver.within`` query (every total to fewer than ``within`` points, then exact as far
    as the budget allows; None: no budget), counting its search nodes (in ``counter[0]``; Durch checks add theirs)."""
    from binokel_sim.play.dd import Record, bounded_points

    counting, counter = counting_dd(rule)
    bounds = bounded_points(budget_nodes, counter, within=within, rule=rule)
    return DD(specials=counting.specials, bounds=bounds, record=Record()), counter
