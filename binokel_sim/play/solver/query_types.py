"""One typed record per solver query: its fields, their checks, how it runs, what it adds to JSON.

Each query is a frozen dataclass (:class:`Exact`, :class:`AtLeast`, :class:`Thresholds`,
:class:`Grid`, :class:`Bounds`, :class:`Within`) that checks its fields when made (a bad one
raises :class:`~binokel_sim.errors.InputError` naming the field), runs itself on a solver
(:meth:`Query.run`: a :class:`.queries.Result`) and names the JSON fields it adds to
:func:`.api.solve`'s answer (:meth:`Query.answer`). :func:`parse_query` is the one place a
query's name (the CLI's ``--query``, a batch line's ``"query"``) becomes its record.

>>> from binokel_sim.play.solver import Position, Solver
>>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
>>> r = Solver().query(pos, AtLeast(30))
>>> r.reached, AtLeast(30).answer(r)
(True, {'reaches_target': True})
>>> parse_query("grid", step=10, lo=None) == Grid(step=10)
True
>>> Grid(step=0)
Traceback (most recent call last):
...
binokel_sim.errors.InputError: step: must be positive, got 0
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Protocol

from binokel_sim.errors import InputError, shown
from binokel_sim.play.solver.position import Position
from binokel_sim.play.solver.queries import (MAX_BUDGET_NODES, MAX_BUDGET_SECONDS, Result, Run, run_bounds, run_grid,
                                            run_targets, run_within)


class QuerySolver(Protocol):
    """What a query's :meth:`Query.run` uses of a :class:`.api.Solver` (which lives a module above)."""

    nodes: int

    def max_points(self, pos: Position) -> int: ...

    def reaches(self, pos: Position, target: int, need_trick: bool = False) -> bool: ...

    def upper_bound(self, pos: Position) -> int: ...

    def run_tests(self, pos: Position, drive: Callable[[Run], bool | None], budget_nodes: int | None = None,
                  budget_seconds: float | None = None) -> Result: ...


def _int(name: str, v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise InputError(f"{name}: expected an integer, got {shown(v)}")
    if abs(v) > MAX_BUDGET_NODES:  # the kernels take int64: refuse before numpy overflows
        raise InputError(f"{name}: out of range (at most 10^15 in size), got {shown(v)}")
    return v


def _positive(name: str, v: Any) -> None:
    if v is not None and _int(name, v) <= 0:
        raise InputError(f"{name}: must be positive, got {v}")


def _seconds(v: Any) -> None:
    if v is None:
        return
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise InputError(f"budget_seconds: expected a number, got {v!r}")
    if not 0 < v <= MAX_BUDGET_SECONDS:
        raise InputError(f"budget_seconds: must be above 0 and at most {MAX_BUDGET_SECONDS} (a week), got {v}")


class Query:
    """A solver query: a frozen record of its fields. Subclasses set :attr:`name` and :meth:`run`."""

    #: The query's name on the command line and in JSON (``--query``, a batch line's ``"query"``).
    name: ClassVar[str]

    @classmethod
    def fields(cls) -> tuple[str, ...]:
        """The query's fields, in order (``need_trick`` left out: a flag that qualifies ``target``).

        >>> Within.fields()
        ('step', 'budget_nodes', 'lo')
        """
        return tuple(f.name for f in dataclasses.fields(cls) if f.name != "need_trick")  # type: ignore[arg-type]

    def run(self, solver: QuerySolver, pos: Position) -> Result:
        """Ask the query on ``pos``: the proven interval and its cost."""
        raise NotImplementedError

    def answer(self, result: Result) -> dict[str, Any]:
        """The JSON fields this query adds to :func:`.api.solve`'s answer besides ``lo``, ``hi``, ``exact``."""
        return {}


@dataclass(frozen=True)
class Exact(Query):
    """The exact value. With ``target``: also "at least ``target`` (and, with ``need_trick``, a trick)?",
    asked as a second query (``reached``; JSON ``reaches_target``).

    >>> from binokel_sim.play.solver import Position, Solver
    >>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
    >>> r = Exact(target=35).run(Solver(), pos)
    >>> r.lo, r.exact, r.reached
    (34, True, False)
    """

    target: int | None = None
    need_trick: bool = False
    name: ClassVar[str] = "exact"

    def __post_init__(self) -> None:
        if self.target is not None:
            _int("target", self.target)

    def run(self, solver: QuerySolver, pos: Position) -> Result:
        t0 = time.perf_counter()
        v = solver.max_points(pos)
        nodes = solver.nodes
        reached = None
        if self.target is not None:
            reached = solver.reaches(pos, self.target, self.need_trick)
            nodes += solver.nodes
        return Result(v, v, nodes, time.perf_counter() - t0, reached)

    def answer(self, result: Result) -> dict[str, Any]:
        return {} if self.target is None else {"reaches_target": result.reached}


@dataclass(frozen=True)
class AtLeast(Query):
    """One threshold test "value >= ``target``?" (with ``need_trick`` the side must also win a trick),
    with the interval its fail-soft result proves; ``reached`` answers it (JSON ``reaches_target``).

    >>> AtLeast(target=None)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: target: the at_least query needs a target
    """

    target: int
    need_trick: bool = False
    name: ClassVar[str] = "at_least"

    def __post_init__(self) -> None:
        if self.target is None:
            raise InputError("target: the at_least query needs a target")
        _int("target", self.target)

    def run(self, solver: QuerySolver, pos: Position) -> Result:
        t = self.target
        if self.need_trick and t < 1:
            t0 = time.perf_counter()
            ok = solver.reaches(pos, t, need_trick=True)
            seconds, nodes = time.perf_counter() - t0, solver.nodes
            # Points come only from tricks: a side that cannot win one scores exactly 0.
            hi = solver.upper_bound(pos)
            return Result(0, hi if ok else 0, nodes, seconds, ok)

        def drive(run: Run) -> bool:
            run.ask(t)
            return run.lo >= t
        return solver.run_tests(pos, drive)

    def answer(self, result: Result) -> dict[str, Any]:
        return {"reaches_target": result.reached}


@dataclass(frozen=True)
class Thresholds(Query):
    """"value >= t?" for every ``t`` in ``targets`` (:func:`.queries.run_targets`): the interval decides
    each (``t <= lo`` or ``t > hi``) unless ``budget_nodes`` ran out first. JSON ``reaches``: target ->
    true, false or null (left open).

    >>> Thresholds([150, 160]).targets, Thresholds([150, 160]).answer(Result(155, 155, 0, 0.0))
    ((150, 160), {'reaches': {'150': True, '160': False}})
    """

    targets: tuple[int, ...]
    budget_nodes: int | None = None
    name: ClassVar[str] = "thresholds"

    def __post_init__(self) -> None:
        ts = self.targets
        if ts is None or isinstance(ts, (str, bytes)) or not hasattr(ts, "__iter__"):
            raise InputError(f"targets: the thresholds query needs a list of integers, got {ts!r}")
        ts = tuple(ts)
        if not ts:
            raise InputError("targets: the thresholds query needs at least one target")
        for t in ts:
            _int("targets", t)
        object.__setattr__(self, "targets", ts)  # a list given: kept as a tuple (the record is frozen, hashable)
        _positive("budget_nodes", self.budget_nodes)

    def run(self, solver: QuerySolver, pos: Position) -> Result:
        return solver.run_tests(pos, lambda run: run_targets(run, self.targets), self.budget_nodes)

    def answer(self, result: Result) -> dict[str, Any]:
        lo, hi = result.lo, result.hi
        return {"reaches": {str(t): (True if t <= lo else False if t > hi else None) for t in self.targets}}


@dataclass(frozen=True)
class Grid(Query):
    """The interval of the grid ``lo + k*step`` holding the value (narrower where the tests proved more);
    grid points above ``hi`` are not tested. Default ``lo`` 0, ``hi`` all points.

    >>> Grid(step=10, lo=50, hi=40)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: lo: 50 is above hi 40
    """

    step: int = 10
    lo: int | None = None
    hi: int | None = None
    name: ClassVar[str] = "grid"

    def __post_init__(self) -> None:
        _positive("step", self.step)
        if self.lo is not None and self.hi is not None and _int("lo", self.lo) > _int("hi", self.hi):
            raise InputError(f"lo: {self.lo} is above hi {self.hi}")
        for name, v in (("lo", self.lo), ("hi", self.hi)):
            if v is not None:
                _int(name, v)

    def run(self, solver: QuerySolver, pos: Position) -> Result:
        lo = 0 if self.lo is None else self.lo
        return solver.run_tests(pos, lambda run: run_grid(run, self.step, lo, run.hi if self.hi is None else self.hi))


@dataclass(frozen=True)
class Bounds(Query):
    """Anytime interval: the tightest proven within the node and/or time budget; exact when the budget
    suffices (and without one). Nodes are counted over the whole query.

    >>> Bounds(budget_seconds=-1.0)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: budget_seconds: must be above 0 and at most 604800 (a week), got -1.0
    """

    budget_nodes: int | None = None
    budget_seconds: float | None = None
    name: ClassVar[str] = "bounds"

    def __post_init__(self) -> None:
        _positive("budget_nodes", self.budget_nodes)
        _seconds(self.budget_seconds)

    def run(self, solver: QuerySolver, pos: Position) -> Result:
        # A test's first share: an eighth of the budget (seconds counted at ~3 M nodes/s); none without one.
        shares = [x // 8 for x in (self.budget_nodes or 0, int((self.budget_seconds or 0) * 3e6)) if x]
        share = max(min(shares), 1000) if shares else 0
        return solver.run_tests(pos, lambda run: run_bounds(run, share), self.budget_nodes, self.budget_seconds)


@dataclass(frozen=True)
class Within(Query):
    """Every grid point ``lo + k*step`` decided (so ``hi - lo < step``; never cut short), then exact as far
    as ``budget_nodes`` (counted over the whole query) allows (:func:`.queries.run_within`). ``lo``: the
    grid's offset, e.g. the card points where the total crosses a multiple of 10.

    >>> Within(step=10, budget_nodes=0)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: budget_nodes: must be positive, got 0
    """

    step: int = 10
    budget_nodes: int | None = None
    lo: int = 0
    name: ClassVar[str] = "within"

    def __post_init__(self) -> None:
        _positive("step", self.step)
        _int("lo", self.lo)
        _positive("budget_nodes", self.budget_nodes)

    def run(self, solver: QuerySolver, pos: Position) -> Result:
        return solver.run_tests(pos, lambda run: run_within(run, self.step, self.lo), self.budget_nodes)


#: Query name -> record class: the one place names are mapped (a new query is added here).
QUERY_TYPES: dict[str, type[Query]] = {q.name: q for q in (Exact, AtLeast, Thresholds, Grid, Bounds, Within)}
QUERIES = tuple(QUERY_TYPES)
#: The fields each query takes (``target`` with ``exact``: a second, threshold query).
FIELDS = {name: q.fields() for name, q in QUERY_TYPES.items()}


def parse_query(name: str, **fields: Any) -> Query:
    """The record of the query called ``name`` with ``fields`` (``None``: not given); raises
    :class:`InputError` naming an unknown query or a field it does not take. ``need_trick`` is
    dropped where the query has no target to qualify.

    >>> parse_query("at_least", target=120, need_trick=False, step=None)
    AtLeast(target=120, need_trick=False)
    >>> parse_query("bounds", step=10)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: step: not a field of the bounds query (it takes budget_nodes, budget_seconds)
    """
    cls = QUERY_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise InputError(f"query: unknown query {name!r} (choose {', '.join(QUERIES)})")
    own = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    given = {k: v for k, v in fields.items() if v is not None}
    if "need_trick" in given:
        flag = bool(given.pop("need_trick"))
        if "need_trick" in own:
            given["need_trick"] = flag
    for k in given:
        if k not in own:
            raise InputError(f"{k}: not a field of the {name} query (it takes {', '.join(FIELDS[name])})")
    # A field without a default goes in as None: the record's own check names what is missing.
    missing = {k: None for k, f in own.items() if k not in given and f.default is dataclasses.MISSING}
    return cls(**missing, **given)
