"""Double-dummy results of exchanges: the soloist's total for many (exchange, deal) rows at once.

One row = the soloist's kept cards, a contract code (0..3 trump, 4 Durch, 5 Bettel), the discard
points, and every seat's hand at the first trick (the soloist's row is replaced by the
kept cards). Trump rows go to the solver's ``max_points_batch`` with the melds as
bonuses (credited only to a solo-side seat that wins a trick), so

    total = round(discard points + DD value)       (melds are multiples of 10)

and the soloist took a trick iff the DD value is positive (every trick of a 40-card
deck carries points; in 48 a trick of three sevens is the one blind spot). Durch and
Bettel rows ask the solver's own queries (``Solver.durch`` / ``Solver.bettel``: no
trumps, Durch led by the soloist, a partner helping).

The back end is injected (``dd=DD(...)``) so the plumbing is testable on its own; by
default it is :func:`binokel_sim.play.solver.max_points_batch` and :class:`binokel_sim.play.solver.Solver`.

>>> from binokel_sim.rules import load_rules
>>> r = load_rules("standard")
>>> first_leader(r, soloist=2, contract=0), first_leader(r, soloist=2, contract=4)
(0, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from binokel_sim.contracts import DURCH_CODE, Contract, is_trump
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import meld_total
from binokel_sim.rules import Rules
from binokel_sim.scoring import round_points, side_mask

Solver = Callable[..., np.ndarray]
#: ``made(code, counts[seats, 24], soloist, side seats, leader, last_trick) -> bool`` for Durch / Bettel.
Specials = Callable[..., bool]


@dataclass(frozen=True)
class DD:
    """The double-dummy back end: ``points`` (``max_points_batch`` signature) and ``specials``.

    ``None`` fields use the project's solver; tests may inject stand-ins.
    """

    points: Solver | None = None
    specials: Callable[[], Specials] | None = None


def default_solver() -> Solver:
    from binokel_sim.play.solver import max_points_batch

    return max_points_batch


def default_specials() -> Specials:
    """Durch / Bettel by the solver's threshold queries (one table per call: not shared across threads)."""
    from binokel_sim.play.solver import Position, Solver as SolverAPI

    queries = SolverAPI(table_bits=16)

    def made(code: int, counts: np.ndarray, soloist: int, side: tuple[int, ...], leader: int, last: int) -> bool:
        pos = Position(tuple(np.asarray(h, dtype=np.uint8) for h in counts), None, leader, soloist, side, (), last,
                       (0,) * counts.shape[0], ())
        return queries.durch(pos) if code == DURCH_CODE else queries.bettel(pos)

    made.queries = queries  # type: ignore[attr-defined]  # its ``nodes``: the last query's search nodes
    return made


def first_leader(rules: Rules, soloist: int, contract: int) -> int:
    """Seat leading the first trick of ``contract`` (a trump 0..3 or a special code)."""
    return rules.play.first_leader(soloist, durch=contract == DURCH_CODE)


@kernel
def melds_batch(hands, trump, table, out):
    """Meld points of each row's hand (``hands`` uint8[n, 24]) at ``trump[n]`` (-1: none -> 0)."""
    for i in range(hands.shape[0]):
        out[i] = meld_total(hands[i], trump[i], table) if trump[i] >= 0 else 0


def solve_rows(rules: Rules, soloist: int, kept: np.ndarray, code: np.ndarray, disc_points: np.ndarray,
               hands: np.ndarray, dd: DD | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(value int64[n], took bool[n]) of each row.

    Trump rows: value = the soloist side's total (discards + tricks + melds with a trick,
    the partner's melds too at Kreuzbinokel), ``took`` = the side took a trick.
    Durch / Bettel rows: value 1 if made else 0 (``took`` likewise), one solver query each.
    ``hands``: uint8[n, seats, 24], every seat's cards at the first trick.
    """
    dd = dd or DD()
    solver = dd.points or default_solver()
    n = kept.shape[0]
    value = np.zeros(n, dtype=np.int64)
    took = np.zeros(n, dtype=bool)
    counts = np.ascontiguousarray(hands, dtype=np.uint8).copy()
    counts[:, soloist, :] = kept
    mask = side_mask(rules, soloist)
    table = rules.meld_array()
    trump_rows = np.nonzero(is_trump(code))[0]
    if trump_rows.size:
        c = np.ascontiguousarray(counts[trump_rows])
        tr = code[trump_rows].astype(np.int8)
        bonus = np.zeros((trump_rows.size, rules.n_seats), dtype=np.int32)
        for s in rules.layout.partners(soloist):
            m = np.empty(trump_rows.size, dtype=np.int64)
            melds_batch(np.ascontiguousarray(c[:, s, :]), tr.astype(np.int64), table, m)
            if rules.scoring.melds_need_trick:
                bonus[:, s] = m
            else:
                value[trump_rows] += m  # melds count without a trick: add them outside the play
        leader = np.full(trump_rows.size, first_leader(rules, soloist, Contract.E), dtype=np.int8)
        side = np.full(trump_rows.size, mask, dtype=np.uint8)
        pts = np.asarray(solver(c, tr, leader, side, bonus, int(rules.play.last_trick)), dtype=np.int64)
        value[trump_rows] += round_points(disc_points[trump_rows].astype(np.int64) + pts, rules)
        took[trump_rows] = pts > 0
    special_rows = np.nonzero(~is_trump(code))[0]
    if special_rows.size:
        made = (dd.specials or default_specials)()
        seats = rules.layout.partners(soloist)
        for i in special_rows:
            lead = first_leader(rules, soloist, int(code[i]))
            ok = bool(made(int(code[i]), counts[i], soloist, seats, lead, int(rules.play.last_trick)))
            value[i] = ok
            took[i] = ok
    return value, took
