"""Double-dummy results of exchanges: the soloist's total for many (exchange, deal) rows at once.

One row = the soloist's kept cards, a contract code (0..3 trump, 4 Durch, 5 Bettel), the discard
points, and every seat's hand at the first trick (the soloist's row is replaced by the
kept cards). Trump rows go to the solver's ``max_points_batch`` with the melds as
bonuses (credited only to a solo-side seat that wins a trick), so

    total = round(discard points + DD value)       (melds are multiples of 10)

and the soloist took a trick iff the DD value is positive (every trick of a 40-card
deck carries points; in 48 a trick of three sevens is the one blind spot). Durch and
Bettel rows ask the solver's own queries (``Solver.durch`` / ``Solver.bettel``: no
trumps, Durch led by the soloist, a partner helping). The side's card points are rounded
once, as ``scoring.round_per_team`` scores them (at fixed partnerships without it each
partner's own rounding can differ by up to 10); with ``scoring.team_trick_keeps_melds`` the
side's melds are added outside the play (:attr:`binokel_sim.rules.Scoring.melds_as_bonus`). The
back ends play under the rules' play-rules word (:func:`binokel_sim.play.legal.play_rule`),
given to their factories.

The back end is injected (``dd=DD(...)``) so the plumbing is testable on its own; by
default it is :func:`binokel_sim.play.solver.max_points_batch` and :class:`binokel_sim.play.solver.Solver`.

*Budget (48 cards).* A 15-trick deal can take an hour to solve exactly, so decks of
:data:`BUDGET_MIN_CARDS` or more cards are solved by ``Solver.bounds`` within a node budget
(:func:`budgeted`, default :data:`DEFAULT_BUDGET_NODES`): ``value`` is then the proven
*lower* bound of the total and the upper bound is recorded beside it (:meth:`Record.hi_of`);
an unresolved deal is kept, never dropped. The budget counts nodes, not seconds, so the same
seed gives the same numbers on any machine. Smaller decks keep the exact batch solver: a
40-card deal takes milliseconds, and a budget that never binds would only cost Python
overhead per row (the answers would be the same: ``bounds`` is exact when it finishes).

>>> from binokel_sim.rules import load_rules
>>> r = load_rules("standard")
>>> first_leader(r, soloist=2, contract=0), first_leader(r, soloist=2, contract=4)
(0, 2)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np

from binokel_sim.contracts import DURCH_CODE, Contract, is_trump
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import meld_total
from binokel_sim.play.legal import play_rule
from binokel_sim.rules import Rules
from binokel_sim.scoring import bid_grid, points_targets, round_points

Solver = Callable[..., np.ndarray]
#: ``bounds(counts, trump, leader, side, bonus, last_trick, grid=None) -> (lo, hi)``: proven card-point intervals;
#: ``grid`` (int64[n]): per row, card points at which the total reaches a bid (the ``within`` query's grid).
Bounds = Callable[..., tuple[np.ndarray, np.ndarray]]
#: Decks of this many cards (15-trick three-player, 11-card four-player deals) are solved within a budget.
BUDGET_MIN_CARDS = 48
#: Default node budget per solve: ~10 s of CPU for a 48-card ``bounds`` search on the 2-core reference
#: machine (3.5 M nodes per CPU second: the documentation's Performance page). Nodes, not seconds: same seed,
#: same numbers.
DEFAULT_BUDGET_NODES = 35_000_000
#: ``--solve-budget 10s`` is converted to nodes at this rate (the reference machine's), so it stays reproducible.
NODES_PER_SECOND = 3_500_000
#: ``targets(counts, trump, leader, side, bonus, last_trick, thresholds[n, k]) -> (lo, hi)``: card-point
#: intervals that decide "points >= threshold" for every threshold of the row.
Targets = Callable[..., tuple[np.ndarray, np.ndarray]]
#: ``made(code, counts[seats, 24], soloist, side seats, leader, last_trick) -> bool`` for Durch / Bettel.
Specials = Callable[..., bool]


@dataclass(frozen=True)
class DD:
    """The double-dummy back end: ``points`` (``max_points_batch`` signature) and ``specials``.

    ``None`` fields use the project's solver; tests may inject stand-ins.
    """

    points: Solver | None = None
    specials: Callable[[], Specials] | None = None
    #: Trump rows by proven intervals instead of ``points`` (see :func:`budgeted`); ``record`` keeps the upper bounds.
    bounds: Bounds | None = None
    record: "Record | None" = None
    #: Trump rows only decided at these totals (bids): ``value`` is then the proven lower bound of the
    #: total, ``record`` keeps the upper one, and each bid is decided (below ``lo`` or above ``hi``).
    #: ``targets`` answers them (:func:`threshold_points`); ``None``: the exact back end answers them.
    at_bids: tuple[int, ...] | None = None
    targets: Targets | None = None
    #: With ``at_bids``: filled with the trump rows' queries (``rows``, ``counts``, ``trump``, ``bonus``,
    #: ``outside``, ``disc``, ``leader``, ``side``, ``last``), so more bids can be asked later.
    keep: dict | None = None


class Record:
    """Upper bounds of the totals :func:`solve_rows` returned as lower bounds, looked up by the returned array.

    Keyed by the array object itself (its ``id``, the array kept alive here), so a caller that
    passes ``value`` through unchanged (``play_deals``) can find its interval afterwards.
    """

    def __init__(self) -> None:
        self._hi: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def put(self, value: np.ndarray, hi: np.ndarray) -> None:
        self._hi[id(value)] = (value, hi)

    def hi_of(self, value: np.ndarray) -> np.ndarray:
        """The upper bounds of ``value`` (itself when it was not recorded: exact)."""
        got = self._hi.get(id(value))
        return got[1] if got is not None and got[0] is value else value


#: log2 rows of the quasi table of a ``within`` solve (a phase-2 row): 2**25 rows of 24 bytes, 768 MiB beside the
#: 256 MiB main table of a 15-trick deal (the default quasi table is 2**22 rows, 96 MiB). A phase-2 solve is a
#: minute of search on one deal, whose twins overflow the default table: on the 20 phase-2 positions of
#: ``benchmarks/bench_phase2.py`` 2**24 rows took 0.94x the nodes of 2**22 and 2**26 0.93x (the main table at
#: 2**26 rows instead of 2**24: 0.99x), at the same CPU time per node within the noise.
WITHIN_QUASI_BITS = 25


def phase2_solver():
    """The solver of a ``within`` row (phase 2 of a 48-card corpus): the default one with a larger quasi table
    (:data:`WITHIN_QUASI_BITS`), one per thread and kept (a row resets it: a new table generation), so the
    pages of a fresh gigabyte are touched once, not per row.

    >>> from binokel_sim.play.solver import Position
    >>> s = phase2_solver()
    >>> s.within(Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)).lo
    34
    >>> s.qt.shape[0] == 2 ** WITHIN_QUASI_BITS, phase2_solver() is s
    (True, True)
    """
    from binokel_sim.play.solver import Solver as SolverAPI

    solver = getattr(_PHASE2, "solver", None)
    if solver is None:
        solver = _PHASE2.solver = SolverAPI(quasi_bits=WITHIN_QUASI_BITS)
    return solver


_PHASE2 = threading.local()


def bounded_points(budget_nodes: int | None, counter: list[int] | None = None, within: int | None = None,
                   rule: int = 0) -> Bounds:
    """A :data:`Bounds` back end: one ``Solver.bounds`` per row within ``budget_nodes`` (one table, reset per row,
    so a row's answer does not depend on the rows before it); ``counter[0]`` adds up the search nodes. With
    ``within``: ``Solver.within`` instead -- every row first to fewer than ``within`` points whatever it costs,
    then exact as far as ``budget_nodes`` allows (the corpus query of the 48-card presets). ``rule``: the
    play-rules word."""
    from binokel_sim.play.solver import Solver as SolverAPI

    solver = phase2_solver() if within is not None else SolverAPI()

    def run(counts, trump, leader, side, bonus, last, grid=None):
        def ask(pos, i):
            if within is not None:
                return solver.within(pos, step=within, budget_nodes=budget_nodes,
                                     lo=0 if grid is None else int(grid[i]))
            return solver.bounds(pos, budget_nodes=budget_nodes)

        return _intervals(solver, ask, counter, counts, trump, leader, side, bonus, last, rule)

    return run


def threshold_points(budget_nodes: int | None = None, counter: list[int] | None = None, rule: int = 0) -> Targets:
    """A :data:`Targets` back end: one ``Solver.thresholds`` per row (a solver per thread, reset per row, so a
    row's answer depends on nothing else); ``counter[0]`` adds up the search nodes (single-threaded use);
    ``rule``: the play-rules word."""
    import threading

    from binokel_sim.play.solver import Solver as SolverAPI

    local = threading.local()

    def run(counts, trump, leader, side, bonus, last, thresholds):
        solver = getattr(local, "solver", None)
        if solver is None:
            solver = local.solver = SolverAPI()
        return _intervals(solver, lambda pos, i: solver.thresholds(pos, [int(t) for t in thresholds[i]],
                                                                   budget_nodes=budget_nodes),
                          counter, counts, trump, leader, side, bonus, last, rule)

    return run


def _intervals(solver, ask, counter, counts, trump, leader, side, bonus, last, rule) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) per row: ``ask(position, row)`` on ``solver``, reset before each row."""
    from binokel_sim.play.solver import Position

    n = counts.shape[0]
    lo = np.zeros(n, dtype=np.int64)
    hi = np.zeros(n, dtype=np.int64)
    for i in range(n):
        seats = tuple(s for s in range(counts.shape[1]) if int(side[i]) >> s & 1)
        pos = Position(tuple(np.asarray(h, dtype=np.uint8) for h in counts[i]), int(trump[i]), int(leader[i]),
                       seats[0], seats, (), int(last), tuple(int(b) for b in bonus[i]), (), rule)
        solver.reset()
        r = ask(pos, i)
        lo[i], hi[i] = r.lo, r.hi
        if counter is not None:
            counter[0] += int(r.nodes)
    return lo, hi


def budget_nodes_of(text: str | None) -> int | None:
    """``--solve-budget`` text as a node count: ``"50000000n"`` nodes, ``"10s"`` at :data:`NODES_PER_SECOND`.

    >>> budget_nodes_of("10s"), budget_nodes_of("2000000n"), budget_nodes_of(None)
    (35000000, 2000000, None)
    """
    if text is None:
        return None
    from binokel_sim.play.solver.queries import parse_budget

    nodes, seconds = parse_budget(text)
    return nodes if nodes is not None else max(1, int(round(float(seconds or 0) * NODES_PER_SECOND)))


def budgeted(rules: Rules, budget_nodes: int | None = None, within: int | None = None) -> DD | None:
    """The back end for ``rules``: ``None`` (exact, the default) below :data:`BUDGET_MIN_CARDS` cards,
    else :func:`bounded_points` within ``budget_nodes`` (default :data:`DEFAULT_BUDGET_NODES`; ``within``:
    every total first to fewer than that many points) and a fresh :class:`Record`. A ``budget_nodes``
    given for a smaller deck applies too.

    >>> from binokel_sim.rules import load_rules
    >>> budgeted(load_rules("standard")) is None, budgeted(load_rules("standard-48")).record is not None
    (True, True)
    """
    if budget_nodes is None and rules.layout.deck_size < BUDGET_MIN_CARDS:
        return None
    rule = play_rule(rules)
    if within is not None:  # no budget: to within, then exact
        return DD(bounds=bounded_points(budget_nodes, within=within, rule=rule), record=Record())
    return DD(bounds=bounded_points(budget_nodes or DEFAULT_BUDGET_NODES, rule=rule), record=Record())


def default_solver(rule: int = 0) -> Solver:
    """The exact batch solver under the play-rules word ``rule``."""
    from binokel_sim.play.solver import max_points_batch

    def points(counts, trump, leader, side, bonus, last):
        return max_points_batch(counts, trump, leader, side, bonus, last, rule)

    return points


def default_specials(rule: int = 0) -> Specials:
    """Durch / Bettel by the solver's threshold queries (one table per call: not shared across threads), under
    the play-rules word ``rule``."""
    from binokel_sim.play.solver import Position, Solver as SolverAPI

    queries = SolverAPI(table_bits=16)

    def made(code: int, counts: np.ndarray, soloist: int, side: tuple[int, ...], leader: int, last: int) -> bool:
        pos = Position(tuple(np.asarray(h, dtype=np.uint8) for h in counts), None, leader, soloist, side, (), last,
                       (0,) * counts.shape[0], (), rule)
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

    With a ``dd.bounds`` back end ``value`` is the proven lower bound of the total, its upper
    bound goes to ``dd.record`` (:meth:`Record.hi_of`), and ``took`` means a trick is proven.

    Trump rows: value = the soloist side's total (discards + tricks + melds with a trick,
    the partner's melds too at Kreuzbinokel), ``took`` = the side took a trick.
    Durch / Bettel rows: value 1 if made else 0 (``took`` likewise), one solver query each.
    ``hands``: uint8[n, seats, 24], every seat's cards at the first trick.
    """
    dd = dd or DD()
    rule = play_rule(rules)
    solver = dd.points or (default_solver(rule) if dd.bounds is None else None)
    n = kept.shape[0]
    value = np.zeros(n, dtype=np.int64)
    value_hi = value
    took = np.zeros(n, dtype=bool)
    counts = np.ascontiguousarray(hands, dtype=np.uint8).copy()
    counts[:, soloist, :] = kept
    as_bonus = rules.scoring.melds_as_bonus
    mask = rules.layout.side_masks[soloist]
    seats = rules.layout.sides[soloist]
    table = rules.meld_array()
    # Durch / Bettel rows first: their 0/1 values are then in ``value`` before a budget copies it to ``value_hi``.
    special_rows = np.nonzero(~is_trump(code))[0]
    if special_rows.size:
        made = dd.specials() if dd.specials else default_specials(rule)
        for i in special_rows:
            lead = first_leader(rules, soloist, int(code[i]))
            ok = bool(made(int(code[i]), counts[i], soloist, seats, lead, int(rules.play.last_trick)))
            value[i] = ok
            took[i] = ok
    trump_rows = np.nonzero(is_trump(code))[0]
    if trump_rows.size:
        c = np.ascontiguousarray(counts[trump_rows])
        tr = code[trump_rows].astype(np.int8)
        bonus = np.zeros((trump_rows.size, rules.n_seats), dtype=np.int32)
        for s in seats:
            m = np.empty(trump_rows.size, dtype=np.int64)
            melds_batch(np.ascontiguousarray(c[:, s, :]), tr.astype(np.int64), table, m)
            if as_bonus:
                bonus[:, s] = m
            else:
                value[trump_rows] += m  # melds count without an own trick: add them outside the play
        leader = np.full(trump_rows.size, first_leader(rules, soloist, Contract.E), dtype=np.int8)
        side = np.full(trump_rows.size, mask, dtype=np.uint8)
        dp = disc_points[trump_rows].astype(np.int64)
        args = (c, tr, leader, side, bonus, int(rules.play.last_trick))
        if dd.at_bids is not None and dd.keep is not None:
            dd.keep.update(rows=trump_rows, counts=c, trump=tr, bonus=bonus, outside=value[trump_rows].copy(), disc=dp)
        at_bids = dd.at_bids if dd.targets is not None else None
        if at_bids is not None or solver is None:
            assert dd.targets is not None or dd.bounds is not None
            lo_hi = (dd.targets(*args, points_targets(rules, value[trump_rows], dp, at_bids))  # type: ignore[misc]
                     if at_bids is not None else dd.bounds(*args, grid=bid_grid(rules, value[trump_rows], dp)))  # type: ignore[misc]
            pts, pts_hi = (np.asarray(x, dtype=np.int64) for x in lo_hi)
            value_hi = value.copy()
            # Rounding is monotone, so the rounded bounds bound the rounded total.
            value_hi[trump_rows] += round_points(dp + pts_hi, rules)
        else:
            # Exact points decide every bid too (a stand-in back end answers ``at_bids`` this way).
            pts = np.asarray(solver(*args), dtype=np.int64)
        value[trump_rows] += round_points(dp + pts, rules)
        took[trump_rows] = pts > 0
    if dd.record is not None and value_hi is not value:
        dd.record.put(value, value_hi)
    return value, took
