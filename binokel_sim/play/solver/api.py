"""Python API of the solver: :class:`Solver` (one table reused across queries) and :func:`solve`.

All values are the soloist's side's points from the current position on: card
points of the tricks it wins, the cards already in the current trick included,
plus the last-trick bonus, plus meld bonuses of side seats that win a trick.

>>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
>>> s = Solver()
>>> s.max_points(pos), s.reaches(pos, 34), s.reaches(pos, 35)
(34, True, False)
>>> {format_card(c): v for c, v in s.card_values(pos).items()}
{'EA': 16, 'EK': 34}
>>> solve(pos, target=30)["reaches_target"]
True
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from binokel_sim.cards import format_card
from binokel_sim.errors import InputError
from binokel_sim.play.legal import legal_in_trick, mask_cards
from binokel_sim.play.solver.driver import fresh_stats, load_hands, make_cfg, move_values, reaches, root_bound, test, value
from binokel_sim.play.solver.queries import Deadline, Result, Run
from binokel_sim.play.solver.query_types import (AtLeast, Bounds, Exact, Grid, Query, Thresholds, Within,
                                                parse_query)
from binokel_sim.play.solver.search import MAX_PLY, MV_COLS, MODE_POINTS, MODE_TRICKS, S_ABORT, S_NODES, STATS_SIZE
from binokel_sim.play.solver.quasi import new_quasi_table
from binokel_sim.play.solver.table import MAX_GEN, bits_for, clear, new_table
from binokel_sim.play.solver.position import Position

__all__ = ["Solver", "solve", "Position"]


class Solver:
    """Double-dummy queries that share one transposition table.

    Reuse one Solver for several queries on the same deal (thresholds, trumps,
    card values): every stored bound stays valid. A position holding a card the
    deal so far did not (another deal) starts a new table generation, and every
    query starts with fresh move-ordering counters, so a query's node count depends
    only on its deal's earlier queries. ``nodes`` counts the search
    nodes of the last query. Not thread-safe; use one Solver per thread.
    ``table_bits`` fixes the table at ``2**table_bits`` rows; by default it is sized
    for the longest deal seen so far (:func:`.table.bits_for`: 64 MiB up to 12
    tricks, 256 MiB beyond, each with a quasi table of a quarter the rows, 24 and
    96 MiB). ``quasi_bits`` fixes the quasi table at ``2**quasi_bits`` rows of 24 bytes
    (a phase-2 solve takes a larger one: :func:`binokel_sim.play.dd.phase2_solver`).
    """

    def __init__(self, table_bits: int | None = None, quasi_bits: int | None = None):
        if quasi_bits is not None and not 3 <= quasi_bits <= 32:  # a bucket is 8 rows; 2**32 rows are 96 GiB
            raise InputError(f"quasi_bits: between 3 and 32 (log2 rows of the quasi table), got {quasi_bits}")
        self._fixed_bits = table_bits
        self._quasi_bits = quasi_bits
        self.tt = new_table(table_bits if table_bits is not None else 10)
        self.qt = self._new_quasi(self.tt.shape[0].bit_length() - 1)
        self._mv = np.zeros((MAX_PLY, MV_COLS), dtype=np.int64)
        self._stats = np.zeros(STATS_SIZE, dtype=np.int64)
        self._gen = 1
        self._fixed: tuple | None = None
        self._deal: np.ndarray | None = None
        self.nodes = 0

    def reset(self) -> None:
        """Forget every stored bound (O(1): a new table generation), e.g. before timing a fresh deal."""
        self._deal = None
        self._gen += 1
        if self._gen > MAX_GEN:
            clear(self.tt)
            clear(self.qt)
            self._gen = 1

    def _fit_table(self, tricks: int) -> None:
        # Growing starts an empty table: entries of the smaller positions would rarely be met again.
        want = self._fixed_bits if self._fixed_bits is not None else int(bits_for(tricks))
        if self.tt.shape[0] < (1 << want):
            self.tt = new_table(want)
            self.qt = self._new_quasi(want)
            self._gen = 1
            self._fixed = None

    def _new_quasi(self, main_bits: int) -> np.ndarray:
        """The quasi table beside a main table of ``2**main_bits`` rows: ``2**quasi_bits`` rows where fixed (once the
        main table is no longer the 1 024-row start), else :func:`.quasi.quasi_bits`'s share."""
        fixed = main_bits > 10 or self._fixed_bits is not None
        return new_quasi_table(main_bits, self._quasi_bits if fixed else None)

    def _same_deal(self, pos: Position) -> None:
        # Positions later in one deal hold a subset of its cards; any other card means another deal,
        # whose node counts must not depend on this one's entries.
        cards = np.sum(pos.hands, axis=0) + np.bincount(np.asarray(pos.trick, dtype=np.int64), minlength=24)
        if self._deal is not None and not (cards <= self._deal).all():
            self.reset()
        if self._deal is None:
            self._deal = cards

    def _setup(self, pos: Position, *, trump: int, max_mask: int, credit: int, mode: int, bonus: tuple[int, ...],
               limit: int = 0):
        self._fit_table(pos.tricks_left)
        self._same_deal(pos)
        # The meld bonuses, last-trick value and play rules are not in the key: a change starts a new generation.
        fixed = (bonus, pos.last_trick, pos.rule)
        if self._fixed is not None and fixed != self._fixed:
            self.reset()
            self._deal = None
            self._same_deal(pos)
        self._fixed = fixed
        h1 = np.zeros(pos.seats, dtype=np.int64)
        h2 = np.zeros(pos.seats, dtype=np.int64)
        load_hands(pos.counts(), h1, h2)
        b = np.array(bonus, dtype=np.int64)
        cfg = make_cfg(np.int64(pos.seats), np.int64(trump), np.int64(max_mask), np.int64(credit), np.int64(mode),
                       np.int64(pos.last_trick), np.int64(self._gen), b, np.int64(pos.rule), np.int64(limit))
        top, win, wseat, tpts = pos.trick_state()
        won = sum(1 << s for s in pos.won)
        fresh_stats(self._stats)
        args = (h1, h2, cfg, b, self.tt, self.qt, self._mv, self._stats, np.int64(pos.to_move), np.int64(len(pos.trick)),
                np.int64(top), np.int64(win), np.int64(wseat), np.int64(tpts), np.int64(won),
                np.int64(pos.tricks_left))
        return args

    def _points_args(self, pos: Position, limit: int = 0):
        bonus = tuple(b if s in pos.side else 0 for s, b in enumerate(pos.bonus or (0,) * pos.seats))
        return self._setup(pos, trump=pos.trump_index, max_mask=pos.side_mask, credit=pos.side_mask,
                           mode=MODE_POINTS, bonus=bonus, limit=limit)

    def _done(self, result):
        self.nodes = int(self._stats[0])
        return result

    def max_points(self, pos: Position) -> int:
        """Exact points the soloist's side can guarantee against best defence."""
        return self._done(int(value(*self._points_args(pos))))

    def reaches(self, pos: Position, target: int, need_trick: bool = False) -> bool:
        """Can the soloist's side reach ``target`` points (and, with ``need_trick``, win a trick)?

        For ``target >= 1`` winning a trick is implied, since points come only from
        tricks; for ``target <= 0`` it asks whether the side can win any trick.
        """
        if need_trick and target < 1:
            args = self._setup(pos, trump=pos.trump_index, max_mask=pos.side_mask, credit=pos.side_mask,
                               mode=MODE_TRICKS, bonus=(0,) * pos.seats)
            return self._done(bool(reaches(*args, np.int64(1))))
        return self._done(bool(reaches(*self._points_args(pos), np.int64(target))))

    def upper_bound(self, pos: Position) -> int:
        """The search's quick upper bound on the side's points (no search): where a query's interval starts."""
        return self._run(self._points_args(pos)).hi

    def _run(self, args, limit: int = 0, until: float | None = None) -> Run:
        h1, h2, cfg, b, tt, qt, mv, stats, p, n, top, win, wseat, tpts, won, tleft = args
        return Run(lambda t: test(*args, np.int64(t)), cfg, stats, 0, int(root_bound(h1, h2, cfg, b, tpts, won, tleft)),
                   limit, until)

    def run_tests(self, pos: Position, drive: Callable[[Run], bool | None], budget_nodes: int | None = None,
                  budget_seconds: float | None = None) -> Result:
        """Run ``drive`` -- a query's zero-window tests "value >= t?" (:meth:`.queries.Run.ask`) -- on ``pos``
        within the node and/or time budget (counted over the whole query); the :class:`Result` holds the
        interval proven (from ``[0, upper_bound]`` on) and, as ``reached``, what ``drive`` returned.

        >>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
        >>> r = Solver().run_tests(pos, lambda run: run.ask(30))
        >>> r.lo >= 30, r.reached
        (True, True)
        """
        limit = budget_nodes or 0
        until = None if budget_seconds is None else time.perf_counter() + budget_seconds
        run = self._run(self._points_args(pos, limit=limit), limit, until)
        with Deadline(self._stats, S_ABORT, budget_seconds) as clock:
            reached = drive(run)
        self.nodes = int(self._stats[S_NODES])
        return Result(run.lo, run.hi, self.nodes, clock.seconds, reached)

    def query(self, pos: Position, query: Query | str, **fields) -> Result:
        """Ask ``query`` on ``pos``: a query record (:mod:`.query_types`: :class:`Exact`, :class:`AtLeast`,
        :class:`Thresholds`, :class:`Grid`, :class:`Bounds`, :class:`Within`), or its name with its fields
        (:func:`.query_types.parse_query`: ``query(pos, "grid", step=10)`` is ``query(pos, Grid(step=10))``).

        >>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
        >>> s = Solver()
        >>> [(r.lo, r.hi) for r in (s.query(pos, Grid(step=10)), s.query(pos, "grid", step=10))]
        [(34, 34), (34, 34)]
        >>> s.query(pos, Thresholds([30, 40])).lo >= 30
        True
        """
        if isinstance(query, str):
            query = parse_query(query, **fields)
        elif fields:
            raise InputError(f"{next(iter(fields))}: give the fields in the query record, not beside it")
        return query.run(self, pos)

    def exact(self, pos: Position) -> Result:
        """The exact value as a :class:`Result` (``lo == hi``): :class:`Exact`."""
        return Exact().run(self, pos)

    def at_least(self, pos: Position, target: int, need_trick: bool = False) -> Result:
        """One threshold test (:meth:`reaches`), with the interval its fail-soft result proves: :class:`AtLeast`."""
        return AtLeast(target, need_trick).run(self, pos)

    def grid(self, pos: Position, step: int = 10, lo: int | None = None, hi: int | None = None) -> Result:
        """The interval of the grid ``lo + k*step`` holding the value (narrower where the tests
        proved more); grid points above ``hi`` are not tested. Default ``lo`` 0, ``hi`` all points: :class:`Grid`."""
        return Grid(step, lo, hi).run(self, pos)

    def thresholds(self, pos: Position, targets, budget_nodes: int | None = None) -> Result:
        """Decide "value >= t" for every ``t`` in ``targets`` (:func:`.queries.run_targets`): the
        returned interval decides each (``t <= lo`` or ``t > hi``) unless ``budget_nodes`` ran out first:
        :class:`Thresholds`.

        >>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
        >>> r = Solver().thresholds(pos, [10, 30, 40])
        >>> r.lo >= 30, r.hi < 40
        (True, True)
        """
        return Thresholds(targets, budget_nodes).run(self, pos)

    def bounds(self, pos: Position, budget_nodes: int | None = None, budget_seconds: float | None = None) -> Result:
        """Anytime interval: the tightest proven within the node and/or time budget; exact when
        the budget suffices (and without one). Nodes are counted over the whole query: :class:`Bounds`."""
        return Bounds(budget_nodes, budget_seconds).run(self, pos)

    def within(self, pos: Position, step: int = 10, budget_nodes: int | None = None, lo: int = 0) -> Result:
        """Every grid point ``lo + k*step`` decided (so ``hi - lo < step``; never cut short), then exact as
        far as ``budget_nodes`` (counted over the whole query, the first phase included) allows
        (:func:`.queries.run_within`). ``lo``: the grid's offset, e.g. the card points where the total
        crosses a multiple of 10: :class:`Within`.

        >>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
        >>> r = Solver().within(pos, step=10, budget_nodes=1, lo=5)
        >>> (r.lo >= 25 and r.hi < 35), Solver().within(pos).exact
        (True, True)
        """
        return Within(step, budget_nodes, lo).run(self, pos)

    def card_values(self, pos: Position) -> dict[int, int]:
        """Exact value for the side after each legal card of the player to move (card type -> points)."""
        args = self._points_args(pos)
        legal = self._legal(pos)
        out = np.full(24, -1, dtype=np.int64)
        move_values(*args, np.int64(legal), out)
        return self._done({c: int(out[c]) for c in mask_cards(legal)})

    def durch(self, pos: Position) -> bool:
        """Can the soloist win every remaining trick, with no trumps (the side's other seats helping)?"""
        pos = without_trump(pos)
        args = self._setup(pos, trump=-1, max_mask=pos.side_mask, credit=1 << pos.solo, mode=MODE_TRICKS,
                           bonus=(0,) * pos.seats)
        return self._done(bool(reaches(*args, np.int64(pos.tricks_left))))

    def bettel(self, pos: Position) -> bool:
        """Can the soloist avoid winning any remaining trick, with no trumps?"""
        defenders = ((1 << pos.seats) - 1) & ~pos.side_mask
        pos = without_trump(pos)
        args = self._setup(pos, trump=-1, max_mask=defenders, credit=1 << pos.solo, mode=MODE_TRICKS,
                           bonus=(0,) * pos.seats)
        return self._done(not bool(reaches(*args, np.int64(1))))

    @staticmethod
    def _legal(pos: Position) -> int:
        arr = np.array(list(pos.trick) + [0], dtype=np.int64)
        return int(legal_in_trick(pos.hands[pos.to_move], arr, len(pos.trick), pos.trump_index, pos.rule, pos.mates()))


def without_trump(pos: Position) -> Position:
    """The same position played without trumps (Durch, Bettel); re-checks the trick so far."""
    if pos.trump is None:
        return pos
    out = Position(pos.hands, None, pos.leader, pos.solo, pos.side, pos.trick, pos.last_trick, pos.bonus, pos.won,
                   pos.rule)
    out._validate()
    return out


def solve(pos: Position, *, target: int | None = None, cards: bool = False, durch: bool = False,
          bettel: bool = False, need_trick: bool = False, solver: Solver | None = None, query: str | None = None,
          step: int | None = None, lo: int | None = None, hi: int | None = None, budget_nodes: int | None = None,
          budget_seconds: float | None = None, targets: list[int] | None = None) -> dict[str, Any]:
    """Run the CLI's queries on one position; returns the JSON-ready result.

    Keys: ``lo``, ``hi``, ``exact`` (the proven interval of the soloist's side's points),
    ``nodes`` (all queries), ``seconds``; ``solo_points`` when the value is known. ``query``
    (default ``"exact"``) picks what is asked: ``"exact"`` (then ``target`` adds
    ``reaches_target`` as a second query), ``"at_least"`` (``target``, ``need_trick``; gives
    ``reaches_target``), ``"thresholds"`` (``targets``, ``budget_nodes``; gives ``reaches``:
    target -> true, false or null where the budget left it open), ``"grid"`` (``step``, ``lo``, ``hi``), ``"within"``
    (``step``, ``budget_nodes``, ``lo``: the grid's offset) or ``"bounds"``
    (``budget_nodes``, ``budget_seconds``). ``card_values`` (card text -> points) with
    ``cards``, ``durch`` / ``bettel`` with those flags. With ``durch`` or ``bettel`` the
    position is played without trumps and the points are the soloist's side's points then.
    The query's name and fields become its record (:func:`.query_types.parse_query`), which runs
    it and names its JSON fields (:meth:`.query_types.Query.answer`).
    """
    s = solver or Solver()
    if durch or bettel:
        pos = without_trump(pos)
    q = parse_query(query or "exact", target=target, need_trick=need_trick, step=step, lo=lo, hi=hi,
                    budget_nodes=budget_nodes, budget_seconds=budget_seconds, targets=targets)
    t0 = time.perf_counter()
    r = s.query(pos, q)
    nodes = r.nodes
    out: dict[str, Any] = {"solo_points": r.lo} if r.exact else {}
    out.update(lo=r.lo, hi=r.hi, exact=r.exact, **q.answer(r))
    if cards:
        out["card_values"] = {format_card(c): v for c, v in s.card_values(pos).items()}
        nodes += s.nodes
    if durch:
        out["durch"] = s.durch(pos)
        nodes += s.nodes
    if bettel:
        out["bettel"] = s.bettel(pos)
        nodes += s.nodes
    out["nodes"] = nodes
    out["seconds"] = round(time.perf_counter() - t0, 6)
    return {k: out[k] for k in ("solo_points", "lo", "hi", "exact", "nodes", "seconds", "reaches_target",
                                "reaches", "card_values", "durch", "bettel") if k in out}
