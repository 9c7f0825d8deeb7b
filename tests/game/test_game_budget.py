"""Games within a solve budget (issue #11 items 1, 2): the windowed line, budgeted deals kept and
bracketed, exact numbers where the budget suffices, the rounding grid, the summary's budget rows."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from binokel_sim import streams
from binokel_sim.cards import CARD_POINTS, N_TYPES
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.play.dd import DEFAULT_BUDGET_NODES
from binokel_sim.game import simulate as game
from binokel_sim.game.cardplay import play_line
from binokel_sim.simulation import simulate_games
from binokel_sim.play.solver import Position, Solver
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from clitools import assert_one_line_error
from test_game import _random_position as _position

STD = load_rules("standard")


def _side_points(pos: Position, line) -> int:
    return sum(line.seat_points[s] + (pos.bonus[s] if line.seat_tricks[s] else 0) for s in pos.side)


@pytest.mark.parametrize("seats,size,trump", [(3, 4, 0), (3, 5, None), (4, 3, 1)])
def test_a_line_in_a_window_keeps_the_side_inside_it(seats, size, trump):
    rng = random.Random(17 * seats + size)
    solver = Solver(table_bits=12)
    for _ in range(5):
        pos = _position(rng, seats, size, trump)
        exact = play_line(pos, solver)
        v = exact.side_value
        # lo == hi: the exact line, card for card.
        assert dataclasses.replace(play_line(pos, solver, v, v), nodes=0) == dataclasses.replace(exact, nodes=0)
        all_pts = sum(int(CARD_POINTS[c]) * int(h[c]) for h in pos.hands for c in range(N_TYPES)) + 10
        for lo, hi in ((v - 20, v + 15), (0, v), (v, v + 40)):
            line = play_line(pos, solver, lo, hi)
            assert lo <= _side_points(pos, line) == line.side_value <= hi
            assert sum(line.seat_points) == all_pts and sum(line.seat_tricks) == size


def test_an_over_budget_line_widens_its_window_and_still_finishes():
    pos = _position(random.Random(5), 3, 5, 2)
    solver = Solver(table_bits=12)
    v = play_line(pos, solver).side_value
    line = play_line(pos, solver, v, v, budget_nodes=1)  # every test is over budget: the window widens each time
    assert line.lo < v - 30 and line.hi > v + 30 and line.lo <= line.side_value <= line.hi
    assert sum(line.seat_tricks) == 5 and line.nodes > 0


@pytest.fixture(scope="module")
def rows():
    return Dealer(STD, 3, stream=streams.stream("game", 0)).deal(6, start=0)


@pytest.fixture(scope="module")
def exact(rows):
    solver = Solver()
    return [game.play_deal(STD, r, solver) for r in rows]


@pytest.mark.slow
def test_a_budget_that_suffices_gives_the_exact_numbers(rows, exact):
    solver = Solver()
    for r, e in zip(rows, exact):
        b = game.play_deal(STD, r, solver, DEFAULT_BUDGET_NODES)
        assert b.exact and b.scores.tolist() == e.scores.tolist() and (b.made, b.total) == (e.made, e.total)
        assert b.total_lo == b.total_hi == e.total
        assert [(w, t.tolist()) for w, t in b.running] == [(w, t.tolist()) for w, t in e.running]


def test_a_tight_budget_keeps_every_deal_and_brackets_the_exact_outcome(rows, exact):
    cut = [game.play_deal(STD, r, Solver(), 2000) for r in rows]
    trump = [(c, e) for c, e in zip(cut, exact) if e.contract == "trump"]
    assert len(cut) == len(exact) and len(trump) >= 4
    assert sum(not c.exact for c, _ in trump) >= 2  # the budget binds on this seed
    for c, e in trump:
        assert c.total_lo <= e.total <= c.total_hi
        assert c.made_lo <= e.made <= c.made_hi
        assert (c.soloist_seat, c.bid, c.contract) == (e.soloist_seat, e.bid, e.contract)


def test_play_budget_defaults():
    assert game.play_budget(STD) is None and game.play_budget(STD, 500) == 500
    for name in ("standard-48", "wuerttemberg", "grupp", "four-solo-48", "kreuz-48", "four-dealer-out"):
        assert game.play_budget(load_rules(name)) == DEFAULT_BUDGET_NODES, name


@pytest.mark.slow
def test_rounding_rules_ask_the_grid_and_the_soloist_numbers_stay_the_same(tmp_path, monkeypatch):
    p = tmp_path / "std-round.toml"
    p.write_text('inherits = "standard"\nname = "std-round"\n[scoring]\nround_to_10 = true\n')
    r = load_rules(str(p))
    rows = Dealer(r, 8, stream=streams.stream("game", 0)).deal(8, start=0)
    asked = []
    grid = Solver.grid
    monkeypatch.setattr(Solver, "grid", lambda self, *a, **k: asked.append(1) or grid(self, *a, **k))
    solver = Solver()
    via_grid = [game.play_deal(r, row, solver) for row in rows]
    assert len(asked) == sum(o.contract == "trump" for o in via_grid) >= 4
    monkeypatch.setattr(game, "_window", lambda *a: None)  # force the exact value
    for row, g in zip(rows, via_grid):
        e = game.play_deal(r, row, solver)
        assert (g.made, g.total, g.took, g.exact) == (e.made, e.total, e.took, True)
        assert g.scores[g.soloist_seat] == e.scores[e.soloist_seat]
        # The defenders' rounded points may split differently, but together they are within one rounding step.
        others = [s for s in range(3) if s != g.soloist_seat]
        assert abs(int(g.scores[others].sum()) - int(e.scores[others].sum())) <= 10


def test_games_within_a_budget_add_the_budget_rows(tmp_path):
    p = tmp_path / "short.toml"
    p.write_text('inherits = "standard"\nname = "std-short"\n[game]\ntarget = 400\n')
    r = load_rules(str(p))
    exact = simulate_games(r, games=1, seed=2, scale=Scale(workers=1), max_deals=3)
    assert "unresolved deals (solve budget)" not in set(exact.summary["figure"])
    assert exact.deals["exact"].all() and exact.provenance["solve_budget_nodes"] is None
    cut = simulate_games(r, games=1, seed=2, scale=Scale(workers=1), max_deals=3, solve_budget=2000)
    s = cut.summary.set_index("figure")["value"]
    n_open = int((~cut.deals["exact"]).sum())
    assert s["unresolved deals (solve budget)"] == pytest.approx(n_open / len(cut.deals)) and n_open >= 1
    lo = s["make rate (played contracts), unresolved as failed"]
    hi = s["make rate (played contracts), unresolved as made"]
    assert lo <= hi and cut.provenance["solve_budget_nodes"] == 2000
    assert s["soloist score per deal: bias bound"] > 0  # an open deal's score range has a width
    assert (exact.deals["side_total_lo"] == exact.deals["side_total_hi"]).all()
    assert (cut.deals["made_lo"] <= cut.deals["made_hi"]).all()
    same = cut.deals["exact"].to_numpy()
    assert np.array_equal(cut.deals["made_lo"][same], cut.deals["made"][same])


def test_solve_budget_option_errors(capsys):
    assert_one_line_error(capsys, "simulate", "games", "--solve-budget", "0s", contains="budget")
    assert_one_line_error(capsys, "simulate", "games", "--rules", "two-hand", "--solve-budget", "5s",
                          contains="--solve-budget")
    assert_one_line_error(capsys, "compare", "standard", "--solve-budget", "ten", contains="budget")
