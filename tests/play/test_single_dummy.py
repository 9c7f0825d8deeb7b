"""The single-dummy player (binokel_sim.play.single_dummy): with the true world alone it plays double-dummy
optimal cards; the open-card playout reaches the studies' double-dummy total; sampled play is seeded."""

from __future__ import annotations

import numpy as np
import pytest

from binokel_sim.play.playout import RuleBased, play_out, side_total
from binokel_sim.play.single_dummy import DealSolver, OpenCards, SingleDummy, decide, options, world_position
from binokel_sim.play.solver import Position, Solver

from play_helpers import study_state


def _advance(state, cards):
    p = RuleBased()
    while len(state.cards) < cards:
        state = state.play(p.choose(state))
    return state


def _true_position_in(hands, k):
    bonus = tuple(k.melds[s] if s in k.side else 0 for s in range(k.seats))
    return Position(tuple(hands), None if k.trump < 0 else k.trump, k.leader, k.soloist, k.side, k.trick,
                    k.last_trick, bonus, k.won)


def _true_position(state, rules, k):
    return _true_position_in(state.current(), k)


@pytest.mark.parametrize("preset,deal,start", [("standard", 0, 12), ("standard", 4, 15), ("kreuz", 1, 8)])
def test_one_true_world_plays_a_double_dummy_optimal_line(preset, deal, start):
    r, state, _ = study_state(preset, deal)
    state = _advance(state, start)
    player = SingleDummy(r, worlds=1, seed=1, deal=deal)
    check = Solver()
    k = state.view(state.to_move)
    first = check.max_points(_true_position(state, r, k))
    banked, won = sum(state.record().points[s] for s in state.side), k.won
    while not state.done:
        k = state.view(state.to_move)
        values = check.card_values(_true_position(state, r, k))
        d = player.decide_in(k, [state.current()])
        best = max(values.values()) if k.to_move in k.side else min(values.values())
        assert values[d.card] == best, (state.cards, d.card, values)
        state = state.play(d.card)
    # Optimal play by every seat ends at the position's double-dummy value (melds counted as the solver does).
    rec = state.record()
    melds = sum(k.melds[s] for s in state.side if s in rec.won and s not in won)
    assert sum(rec.points[s] for s in state.side) - banked + melds == first


def test_open_cards_playout_reaches_the_studies_double_dummy_total():
    for deal in (0, 3):
        r, state, info = study_state("standard", deal)
        end = play_out(state, [OpenCards(r, DealSolver())] * 3)
        assert side_total(r, end, info["discard_points"]) == (info["open"], info["took"])


def test_sampled_play_is_seeded_and_legal():
    r, state, _ = study_state("standard", 2)
    state = _advance(state, 18)
    runs = []
    for seed in (1, 1):
        players = [SingleDummy(r, worlds=3, seed=seed, deal=2) for _ in range(3)]
        runs.append(play_out(state, players).cards)  # PlayState.play checks every card is legal
    assert runs[0] == runs[1]


def test_a_budget_cuts_the_decision_short():
    r, state, _ = study_state("standard", 1)
    state = _advance(state, 9)
    k = state.view(state.to_move)
    player = SingleDummy(r, worlds=4, seed=3, deal=1)
    from binokel_sim.play.worlds import sample

    ws = sample(k, 4, player.key).hands
    opts = [options(k, h, tuple(k.melds[s] if s in k.side else 0 for s in range(3)), k.legal()) for h in ws]
    d = decide(DealSolver(), opts, k.legal(), k.seat in k.side, budget_nodes=1)
    assert d.cut and d.card in k.legal() and d.tests == 1
    full = decide(DealSolver(), opts, k.legal(), k.seat in k.side)
    assert not full.cut and all(a <= b for a, b in zip(full.lo, full.hi))


def test_a_player_budget_is_measured_in_exact_solves_of_its_first_world():
    from binokel_sim.play.worlds import sample

    r, state, _ = study_state("standard", 1)
    state = _advance(state, 9)
    k = state.view(state.to_move)
    player = SingleDummy(r, worlds=4, seed=3, deal=1, budget=1.5)
    ws = sample(k, 4, player.key).hands
    check = Solver()
    # The player's question for a guessed world is the hand-built position's: same value, same search.
    value = check.max_points(world_position(r, k, ws[0]))
    yardstick = check.nodes
    assert Solver().max_points(_true_position_in(ws[0], k)) == value
    d, full = player.decide_in(k, ws), SingleDummy(r, worlds=4, seed=3, deal=1).decide_in(k, ws)
    # 1.5 solves in all: the yardstick solve, then tests until half a solve's nodes are spent (here 2 of 33).
    assert d.cut and not full.cut and d.tests < full.tests and d.card in k.legal()
    assert d.nodes - yardstick >= 0.5 * yardstick and full.nodes > d.nodes


def test_rule_based_player_finishes_every_layout():
    for preset, deal in (("standard", 6), ("four-solo", 1), ("kreuz", 2)):
        r, state, info = study_state(preset, deal)
        end = play_out(state, [RuleBased()] * state.seats)
        total, took = side_total(r, end, info["discard_points"])
        assert end.done and total >= info["discard_points"] and isinstance(took, bool)
        assert np.asarray(end.current()).sum() == 0


def test_worlds_kept_between_decisions_stay_consistent():
    from binokel_sim.play.worlds import consistent

    r, state, _ = study_state("standard", 5)
    state = _advance(state, 9)
    player, fresh = SingleDummy(r, worlds=6, seed=2, deal=5), SingleDummy(r, worlds=6, seed=2, deal=5, keep=False)
    carried = 0
    while not state.done:
        k = state.view(state.to_move)
        w = player.draw(k)
        assert len(w.hands) == 6 and all(consistent(k, w.hands[i], w.pile[i]) for i in range(6))
        carried += int(not (fresh.draw(k).hands == w.hands).all())
        state = state.play(RuleBased().choose(state))
    assert carried
