"""The solver agrees with the pure-Python reference minimax on thousands of random small positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from binokel_sim.errors import InputError
from binokel_sim.cards import deck_types
from binokel_sim.play.legal import BEAT_LED, PARTNER_FREES
from binokel_sim.play.solver import Position, Solver, max_points_batch

from solver_reference import freed, legal, minimax

# (seats, kreuz, 48 cards, cards per hand, positions)
LAYOUTS = [
    (2, False, False, (1, 2, 3, 4, 5), 400),  # dabb-two: an auction layout of two seats (tricks of two cards)
    (3, False, False, (1, 2, 3, 4), 700),
    (3, False, True, (2, 3, 4), 300),
    (4, False, False, (1, 2, 3), 450),
    (4, True, False, (1, 2, 3), 450),
    (4, True, True, (2, 3), 200),
]


def random_position(rng: random.Random, seats: int, kreuz: bool, sevens: bool, sizes, mid: bool = True,
                    beat_led: bool = False, partner_frees: bool = False):
    n = rng.choice(sizes)
    deck = [int(c) for c in deck_types(sevens)]
    rng.shuffle(deck)
    hands = tuple(tuple(sorted(deck[s * n:(s + 1) * n])) for s in range(seats))
    trump = rng.choice([None, 0, 1, 2, 3])
    leader = rng.randrange(seats)
    solo = rng.randrange(seats)
    side = (solo, (solo + 2) % 4) if kreuz else (solo,)
    trick = ()
    if mid and rng.random() < 0.5:
        for j in range(rng.randrange(1, seats)):
            p = (leader + j) % seats
            c = rng.choice(legal(hands[p], trick, trump, beat_led,
                                 freed(trick, leader, seats, trump, side, partner_frees)))
            h = list(hands[p])
            h.remove(c)
            hands = hands[:p] + (tuple(h),) + hands[p + 1:]
            trick += (c,)
    return hands, trump, leader, solo, tuple(sorted(side)), trick


def to_position(hands, trump, leader, solo, side, trick, **kw) -> Position:
    return Position.parse([list(h) for h in hands], trump, leader, solo, list(side), list(trick), **kw)


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda lay: f"{lay[0]}seats{'-kreuz' if lay[1] else ''}{'-48' if lay[2] else ''}")
@pytest.mark.slow
def test_max_points_matches_reference(layout):
    seats, kreuz, sevens, sizes, count = layout
    rng = random.Random(hash(layout) & 0xFFFF)
    # A small table forces replacements; reusing it across positions checks that entries are facts.
    solver = Solver(table_bits=6)
    mids = 0
    for _ in range(count):
        hands, trump, leader, solo, side, trick = random_position(rng, seats, kreuz, sevens, sizes)
        mids += bool(trick)
        expected = minimax(hands, trick, leader, trump, set(side))
        pos = to_position(hands, trump, leader, solo, side, trick)
        got = solver.max_points(pos)
        assert got == expected, (pos, got, expected)
    assert 0 < mids < count


def test_thresholds_and_card_values_match_reference():
    rng = random.Random(7)
    solver = Solver(table_bits=10)
    for i in range(300):
        seats, kreuz = [(3, False), (4, False), (4, True)][i % 3]
        hands, trump, leader, solo, side, trick = random_position(rng, seats, kreuz, i % 2 == 1, (2, 3))
        pos = to_position(hands, trump, leader, solo, side, trick)
        v = minimax(hands, trick, leader, trump, set(side))
        assert solver.reaches(pos, v) and not solver.reaches(pos, v + 1)
        assert solver.reaches(pos, v - 7)
        p = (leader + len(trick)) % seats
        values = solver.card_values(pos)
        assert sorted(values) == legal(hands[p], trick, trump)
        for c, cv in values.items():
            h = list(hands[p])
            h.remove(c)
            nh = hands[:p] + (tuple(h),) + hands[p + 1:]
            assert cv == minimax(nh, trick + (c,), leader, trump, set(side))
        assert (max if p in side else min)(values.values()) == v


def test_need_trick_durch_bettel_match_reference():
    rng = random.Random(11)
    solver = Solver(table_bits=10)
    for i in range(300):
        seats, kreuz = [(3, False), (4, False), (4, True)][i % 3]
        hands, _, leader, solo, side, _ = random_position(rng, seats, kreuz, False, (2, 3), mid=False)
        pos = to_position(hands, None, leader, solo, side, ())
        n = len(hands[0])
        solo_tricks_max = minimax(hands, (), leader, None, set(side), credit={solo}, tricks_mode=True)
        assert solver.durch(pos) == (solo_tricks_max == n)
        defenders = set(range(seats)) - set(side)
        solo_tricks_forced = minimax(hands, (), leader, None, defenders, credit={solo}, tricks_mode=True)
        assert solver.bettel(pos) == (solo_tricks_forced == 0)
        side_tricks = minimax(hands, (), leader, None, set(side), tricks_mode=True)
        assert solver.reaches(pos, 0, need_trick=True) == (side_tricks >= 1)
        assert solver.reaches(pos, 0)


def test_batch_with_meld_bonus_matches_reference():
    rng = random.Random(3)
    rows = []
    for i in range(400):
        seats, kreuz = [(3, False), (4, False), (4, True)][i % 3]
        hands, trump, leader, solo, side, _ = random_position(rng, seats, kreuz, i % 4 == 0, (1, 2, 3, 4) if seats == 3 else (1, 2, 3),
                                                           mid=False)
        bonus = tuple(rng.choice([0, 20, 40, 100, 150]) if s in side else 0 for s in range(seats))
        rows.append((hands, trump, leader, side, bonus))
    for seats in (3, 4):
        for n in (1, 2, 3, 4):
            group = [r for r in rows if len(r[0]) == seats and len(r[0][0]) == n]
            if not group:
                continue
            counts = np.zeros((len(group), seats, 24), np.uint8)
            for j, (hands, *_rest) in enumerate(group):
                for s, h in enumerate(hands):
                    for c in h:
                        counts[j, s, c] += 1
            trump = np.array([-1 if r[1] is None else r[1] for r in group], np.int8)
            leader = np.array([r[2] for r in group], np.int8)
            side = np.array([sum(1 << s for s in r[3]) for r in group], np.uint8)
            bonus = np.array([r[4] for r in group], np.int32)
            got = max_points_batch(counts, trump, leader, side, bonus, 10)
            for j, (hands, t, ld, sd, bn) in enumerate(group):
                assert got[j] == minimax(hands, (), ld, t, set(sd), bonus=bn), (hands, t, ld, sd, bn)


#: The play-rules options of docs/rules.md §6 (the dabb app's): (rule word, seats, partners, 48 cards, cards per
#: hand, positions). Partners free each other only at fixed partnerships.
RULED = [
    (BEAT_LED, 3, False, False, (2, 3, 4), 300),
    (PARTNER_FREES, 4, True, False, (1, 2, 3), 300),
    (BEAT_LED | PARTNER_FREES, 4, True, False, (1, 2, 3), 300),
    (BEAT_LED | PARTNER_FREES, 4, True, True, (2, 3), 120),
]


@pytest.mark.parametrize("layout", RULED, ids=lambda lay: f"rule{lay[0]}-{lay[1]}seats{'-48' if lay[3] else ''}")
@pytest.mark.slow
def test_play_rules_match_reference(layout):
    rule, seats, kreuz, sevens, sizes, count = layout
    kw = dict(beat_led=bool(rule & BEAT_LED), partner_frees=bool(rule & PARTNER_FREES))
    rng = random.Random(rule * 101 + seats * 7 + sevens)
    solver = Solver(table_bits=6)
    changed = moves = starts = 0
    for _ in range(count):
        hands, trump, leader, solo, side, trick = random_position(rng, seats, kreuz, sevens, sizes, **kw)
        expected = minimax(hands, trick, leader, trump, set(side), **kw)
        pos = to_position(hands, trump, leader, solo, side, trick, rule=rule)
        assert solver.max_points(pos) == expected, (pos, rule)
        p = (leader + len(trick)) % seats
        want = legal(hands[p], trick, trump, kw["beat_led"], freed(trick, leader, seats, trump, set(side),
                                                                   kw["partner_frees"]))
        assert sorted(solver.card_values(pos)) == want, (pos, rule)
        # The positions must exercise the rules: some values and root moves differ from the plain rules' (the
        # reference plays on from any trick, legal under the plain rules or not).
        changed += expected != minimax(hands, trick, leader, trump, set(side))
        moves += want != legal(hands[p], trick, trump)
        if not trick:
            starts += 1
            counts = np.zeros((1, seats, 24), np.uint8)
            for s, h in enumerate(hands):
                for c in h:
                    counts[0, s, c] += 1
            args = (counts, np.array([-1 if trump is None else trump], np.int8), np.array([leader], np.int8),
                    np.array([sum(1 << s for s in side)], np.uint8), np.zeros((1, seats), np.int32), 10)
            assert max_points_batch(*args, rule)[0] == expected, (pos, rule)
            plain = to_position(hands, None, leader, solo, side, (), rule=rule)
            n = len(hands[0])
            durch = minimax(hands, (), leader, None, set(side), credit={solo}, tricks_mode=True, **kw) == n
            assert solver.durch(plain) == durch, (plain, rule)
    assert changed > 0 and moves > 0 and starts > count // 4, (changed, moves, starts)


def test_partner_frees_needs_two_teams():
    with pytest.raises(InputError, match="two teams of 2"):
        Position.parse("EA / EK / EO / EU", None, 0, 0, teams=[0], rule=PARTNER_FREES)
