"""The quick bounds never cross the exact value (pure-Python reference) and are not vacuous."""

from __future__ import annotations

import random

import numpy as np
import pytest

from binokel_sim.cards import CARD_POINTS, parse_cards
from binokel_sim.play.solver.bounds import cash, quick_bounds, trump_chain

from solver_reference import minimax
from test_solver_reference import random_position


def masks(hands):
    h1 = np.zeros(len(hands), np.int64)
    h2 = np.zeros(len(hands), np.int64)
    for s, h in enumerate(hands):
        for c in h:
            if h1[s] >> c & 1:
                h2[s] |= 1 << c
            h1[s] |= 1 << c
    return h1, h2


@pytest.mark.slow
def test_bounds_hold_on_random_positions():
    rng = random.Random(5)
    tighter_lo = tighter_hi = 0
    n = 1500
    for i in range(n):
        seats, kreuz, sevens = [(3, False, False), (3, False, True), (4, False, False), (4, True, False)][i % 4]
        hands, trump, leader, solo, side, _ = random_position(rng, seats, kreuz, sevens, (2, 3, 4) if seats == 3 else (2, 3),
                                                           mid=False)
        bonus = tuple(rng.choice([0, 0, 20, 100]) if s in side else 0 for s in range(seats))
        won = frozenset(s for s in range(seats) if rng.random() < 0.3)
        last = rng.choice([0, 10])
        exact = minimax(hands, (), leader, trump, set(side), last=last, bonus=bonus, won=won)
        h1, h2 = masks(hands)
        ub = sum(int(CARD_POINTS[c]) for h in hands for c in h) + last + sum(b for s, b in enumerate(bonus) if s not in won)
        side_mask = sum(1 << s for s in side)
        lo, hi = quick_bounds(h1, h2, np.int64(seats), np.int64(-1 if trump is None else trump), np.int64(side_mask),
                              np.int64(last), np.array(bonus, np.int64), np.int64(leader),
                              np.int64(sum(1 << s for s in won)), np.int64(len(hands[0])), np.int64(ub))
        assert lo <= exact <= hi, (hands, trump, leader, side, bonus, won, last, lo, exact, hi)
        tighter_lo += lo > 0
        tighter_hi += hi < ub
    # The bounds must do something: both sides' sure points show up in a good share of positions.
    assert tighter_lo > n // 5 and tighter_hi > n // 5, (tighter_lo, tighter_hi)


def test_cash_stops_where_a_seat_with_trumps_can_ruff():
    # Hearts trump. Seat 1 holds one E and trumps: EA cashes (EK falls), E10 would be ruffed.
    h1, h2 = masks([parse_cards("EA E10 EU"), parse_cards("EK HU GA"), parse_cards("EO EO GK")])
    assert [int(x) for x in cash(h1, h2, np.int64(3), np.int64(2), np.int64(0))] == [1, 11 + 4]
    # Without trumps nobody ruffs: EA and E10 cash; EU lies below EK and EO.
    assert [int(x) for x in cash(h1, h2, np.int64(3), np.int64(-1), np.int64(0))] == [2, 21]


def test_trump_chain_needs_both_copies_on_one_side():
    # Acorns trump; the side is seat 0. Seat 0 holds EA EA E10, seat 1 the other E10: EA EA are sure
    # (22) and win two tricks, to which seat 1 adds at least GK + E10 (14) and seat 2 GU + GO (5).
    h1, h2 = masks([parse_cards("EA EA E10"), parse_cards("E10 GA GK"), parse_cards("EK GO GU")])
    assert [int(x) for x in trump_chain(h1, h2, np.int64(3), np.int64(0), np.int64(1))] == [41, 1]
    # Seen from seat 1's side: the top trumps are the other side's; seat 1 adds 14 to them.
    assert [int(x) for x in trump_chain(h1, h2, np.int64(3), np.int64(0), np.int64(2))] == [36, 0]
