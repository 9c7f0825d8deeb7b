"""The typed query records: each gives the Result the string dispatch gave, checks its fields with the
same one-line messages, and every query name round-trips through parse_query."""

from __future__ import annotations

import dataclasses

import pytest

from binokel_sim.errors import InputError
from binokel_sim.play.solver import (AtLeast, Bounds, Exact, Grid, Position, Solver, Thresholds, Within, parse_query,
                                     solve)
from binokel_sim.play.solver.query_types import FIELDS, QUERIES, QUERY_TYPES, Query

from test_solver_queries import _deal

TOY = "EA EK / E10 EU / EO GA"

#: (record, the Solver method call it stands for, (lo, hi, reached) that the string dispatch before
#: the records gave on ``_deal("standard", 3, tricks=5)`` and ``_deal("kreuz", 8, tricks=4)``).
CASES = [
    (Exact(), lambda s, p: s.exact(p), [(77, 77, None), (27, 27, None)]),
    (AtLeast(60), lambda s, p: s.at_least(p, 60), [(60, 116, True), (0, 54, False)]),
    (AtLeast(0, need_trick=True), lambda s, p: s.at_least(p, 0, True), [(0, 116, True), (0, 118, True)]),
    (Thresholds([40, 70, 100]), lambda s, p: s.thresholds(p, [40, 70, 100]), [(72, 92, None), (0, 27, None)]),
    (Thresholds([40, 70, 100], budget_nodes=50), lambda s, p: s.thresholds(p, [40, 70, 100], 50),
     [(0, 116, None), (0, 27, None)]),
    (Grid(step=10), lambda s, p: s.grid(p, step=10), [(72, 77, None), (20, 27, None)]),
    (Grid(step=7, lo=3, hi=50), lambda s, p: s.grid(p, 7, 3, 50), [(49, 116, None), (26, 27, None)]),
    (Bounds(budget_nodes=200), lambda s, p: s.bounds(p, budget_nodes=200), [(53, 82, None), (27, 27, None)]),
    (Bounds(), lambda s, p: s.bounds(p), [(77, 77, None), (27, 27, None)]),
    (Within(step=10, budget_nodes=1, lo=5), lambda s, p: s.within(p, 10, 1, 5), [(76, 82, None), (26, 27, None)]),
    (Within(), lambda s, p: s.within(p), [(77, 77, None), (27, 27, None)]),
]


def _fields(q: Query) -> dict:
    return {f.name: getattr(q, f.name) for f in dataclasses.fields(q)}  # type: ignore[arg-type]


@pytest.mark.parametrize("query, method, want", CASES, ids=lambda x: repr(x) if isinstance(x, Query) else "")
def test_record_method_and_name_give_one_result(query, method, want):
    for pos, (lo, hi, reached) in zip((_deal("standard", 3, tricks=5), _deal("kreuz", 8, tricks=4)), want):
        # Fresh solvers: a node count depends on the table's earlier queries.
        rs = [query.run(Solver(), pos), Solver().query(pos, query), method(Solver(), pos),
              Solver().query(pos, query.name, **_fields(query))]
        assert {(r.lo, r.hi, r.reached, r.nodes) for r in rs} == {(lo, hi, reached, rs[0].nodes)}, (query, rs)


def test_exact_with_a_target_asks_it_as_solve_does():
    pos = Position.parse(TOY, trump=None, leader=0, solo=0)
    r = Solver().query(pos, Exact(target=35))
    assert (r.lo, r.hi, r.reached) == (34, 34, False)
    out = solve(pos, target=35)
    assert out["reaches_target"] is False and out["nodes"] == r.nodes
    assert Exact(target=35).answer(r) == {"reaches_target": False} and Exact().answer(r) == {}


def test_answers_are_solves_json_fields():
    pos = Position.parse(TOY, trump=None, leader=0, solo=0)
    s = Solver()
    q = Thresholds([10, 34, 35])
    assert q.answer(s.query(pos, q)) == {"reaches": {"10": True, "34": True, "35": False}}
    assert solve(pos, query="thresholds", targets=[10, 34, 35])["reaches"] == {"10": True, "34": True, "35": False}
    assert AtLeast(30).answer(s.query(pos, AtLeast(30))) == {"reaches_target": True}
    for q in (Grid(), Bounds(), Within()):
        assert q.answer(s.query(pos, q)) == {}


def test_parse_query_round_trips_every_name():
    samples = {"exact": Exact(target=40, need_trick=True), "at_least": AtLeast(120, need_trick=True),
               "thresholds": Thresholds((150, 160), budget_nodes=10**6), "grid": Grid(5, lo=100, hi=200),
               "bounds": Bounds(budget_nodes=1000, budget_seconds=2.5), "within": Within(10, 5000, lo=5)}
    assert set(samples) == set(QUERIES) == set(QUERY_TYPES)
    for name in QUERIES:
        q = samples[name]
        assert q.name == name and parse_query(name, **_fields(q)) == q
        # The least each query needs: the record with its defaults.
        least = {"at_least": {"target": 1}, "thresholds": {"targets": [1]}}.get(name, {})
        assert parse_query(name, **least) == QUERY_TYPES[name](**least)
    # The fields the error messages list, as the former check_query's table had them.
    assert FIELDS == {"exact": ("target",), "at_least": ("target",), "thresholds": ("targets", "budget_nodes"),
                      "grid": ("step", "lo", "hi"), "bounds": ("budget_nodes", "budget_seconds"),
                      "within": ("step", "budget_nodes", "lo")}
    # None is "not given"; need_trick qualifies a target and is dropped where there is none.
    assert parse_query("grid", step=None, lo=None, need_trick=True) == Grid()
    assert parse_query("within", lo=None) == Within(lo=0)


@pytest.mark.parametrize("make, message", [
    (lambda: parse_query("grid", step=0), "step: must be positive, got 0"),
    (lambda: Grid(step=-10), "step: must be positive, got -10"),
    (lambda: Grid(lo=50, hi=40), "lo: 50 is above hi 40"),
    (lambda: Grid(lo="a", hi=3), "lo: expected an integer, got 'a'"),
    (lambda: Grid(hi=1.5), "hi: expected an integer, got 1.5"),
    (lambda: parse_query("at_least"), "target: the at_least query needs a target"),
    (lambda: AtLeast("x"), "target: expected an integer, got 'x'"),
    (lambda: Exact(target=10**16), "target: out of range (at most 10^15 in size), got 10000000000000000"),
    (lambda: parse_query("thresholds"), "targets: the thresholds query needs a list of integers, got None"),
    (lambda: Thresholds("12"), "targets: the thresholds query needs a list of integers, got '12'"),
    (lambda: Thresholds([]), "targets: the thresholds query needs at least one target"),
    (lambda: Thresholds([1, True]), "targets: expected an integer, got True"),
    (lambda: Thresholds([1], budget_nodes=0), "budget_nodes: must be positive, got 0"),
    (lambda: Bounds(budget_nodes=-1, budget_seconds=-1), "budget_nodes: must be positive, got -1"),
    (lambda: Bounds(budget_seconds=0), "budget_seconds: must be above 0 and at most 604800 (a week), got 0"),
    (lambda: Bounds(budget_seconds="x"), "budget_seconds: expected a number, got 'x'"),
    (lambda: Within(step=0), "step: must be positive, got 0"),
    (lambda: Within(lo=3.5), "lo: expected an integer, got 3.5"),
    (lambda: Within(budget_nodes=0), "budget_nodes: must be positive, got 0"),
    (lambda: parse_query("within", budget_seconds=5.0),
     "budget_seconds: not a field of the within query (it takes step, budget_nodes, lo)"),
    (lambda: parse_query("exact", step=1, targets=[1]), "step: not a field of the exact query (it takes target)"),
    (lambda: parse_query("median"),
     "query: unknown query 'median' (choose exact, at_least, thresholds, grid, bounds, within)"),
    (lambda: parse_query(["grid"]),
     "query: unknown query ['grid'] (choose exact, at_least, thresholds, grid, bounds, within)"),
])
def test_bad_fields_raise_the_former_messages(make, message):
    with pytest.raises(InputError) as exc:
        make()
    assert str(exc.value) == message


def test_a_record_takes_no_fields_beside_it():
    pos = Position.parse(TOY, trump=None, leader=0, solo=0)
    with pytest.raises(InputError, match="^step: give the fields in the query record"):
        Solver().query(pos, Grid(), step=10)


def test_records_are_frozen_and_hashable():
    q = Thresholds([150, 160])
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.budget_nodes = 5  # type: ignore[misc]
    assert len({q, Thresholds((150, 160)), Grid(), Grid(10)}) == 2
