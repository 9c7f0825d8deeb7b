"""Double-dummy play of one deal, card by card, so every seat's tricks are known.

The solver gives the soloist's side's exact value; scoring also needs each
defender's own trick pile (they score separately at three and four). So the deal is
played out: at every turn the player to move takes, among the legal cards, one that
keeps the solver's value best for its side (the side maximises, the defence
minimises). Ties go to the lowest card type, so the line is deterministic; the
side's points on the line always equal the solver's value.

>>> from binokel_sim.play.solver import Position
>>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
>>> line = play_line(pos)     # EK first: seat 1 must beat it with E10, then EA takes EU, GA and the last trick
>>> line.side_value, line.seat_points, line.seat_tricks, line.trick_winners
(34, (34, 17, 0), (1, 1, 0), (1, 0))

*Within a window (48-card deals under a budget).* Given a proven interval ``lo <= value <= hi``
(``Solver.bounds`` cut off by its budget) instead of the value, the side plays the first card
after which it still reaches ``lo`` and a defender the first after which the side cannot exceed
``hi``. Each keeps the invariant ``lo <= points so far + value(now) <= hi``, so the line is a
legal play whose side points lie in ``[lo, hi]``, and every test is a threshold at a proven
bound, not at the (unknown) value. ``lo == hi`` is the exact line above, card for card. With a
``budget_nodes``, each further ``budget_nodes`` nodes the line spends widen the window by
:data:`WIDEN` points on both sides (tests far from the value are cheap), so a line cannot stall.

>>> play_line(pos, lo=20, hi=40).side_value     # any line with the side's points in [20, 40]
34
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim.cards import CARD_POINTS
from binokel_sim.play.legal import legal_in_trick, mask_cards, trick_mates, trick_winner
from binokel_sim.play.solver import Position, Solver

#: Points by which an over-budget line widens its window on each side (see the module docstring).
WIDEN = 30


@dataclass(frozen=True)
class PlayLine:
    """A finished double-dummy play: per trick its winner and card points (last-trick
    bonus included); per seat its card points and tricks; the solver's side value."""

    trick_winners: tuple[int, ...]
    trick_points: tuple[int, ...]
    seat_points: tuple[int, ...]
    seat_tricks: tuple[int, ...]
    #: The side's points on the line (the solver's value when played exactly).
    side_value: int
    #: The window the line was played in (``lo == hi``: the exact value; widened if over budget).
    lo: int = 0
    hi: int = 0
    #: Search nodes the line's tests took.
    nodes: int = 0


def play_line(pos: Position, solver: Solver | None = None, lo: int | None = None, hi: int | None = None,
              budget_nodes: int | None = None) -> PlayLine:
    """Play ``pos`` (a trick start) to the end, both sides best for the solver's value.

    One exact value at the start (unless a window ``lo``..``hi`` is given, see the module
    docstring), then per card zero-window tests only: the side plays the first card (in
    card-type order) after which it still reaches the value, a defender the first card
    after which the side cannot exceed it.
    """
    solver = solver or Solver()
    if lo is None or hi is None:
        lo = hi = solver.max_points(pos)
    spent, allowance = 0, budget_nodes or 0
    seats = pos.seats
    hands = [h.copy() for h in pos.hands]
    leader = pos.leader
    won = set(pos.won)
    bonus = pos.bonus or (0,) * seats
    winners: list[int] = []
    tpoints: list[int] = []
    points = [0] * seats
    tricks = [0] * seats
    total = int(hands[leader].sum())
    acc = 0  # the side's points from the finished tricks; lo <= acc + value(now) <= hi throughout
    for t in range(total):
        trick: list[int] = []
        for k in range(seats):
            mover = (leader + k) % seats
            on_side = mover in pos.side
            need = (lo if on_side else hi) - acc
            for card in _legal_cards(hands[mover], trick, pos, leader):
                hands[mover][card] -= 1
                trick.append(card)
                child: Position | None
                if k + 1 < seats:
                    child = Position(tuple(hands), pos.trump, leader, pos.solo, pos.side, tuple(trick),
                                     pos.last_trick, pos.bonus, tuple(sorted(won)), pos.rule)
                    target = need
                else:
                    w = (leader + _winner(trick, pos.trump_index)) % seats
                    gain = _gain(pos, trick, w, t == total - 1, won, bonus)
                    target = need - gain
                    child = None if t == total - 1 else Position(
                        tuple(hands), pos.trump, w, pos.solo, pos.side, (), pos.last_trick, pos.bonus,
                        tuple(sorted(won | {w})), pos.rule)
                # Side: keep the value (child >= target); defence: hold it down (child < target + 1).
                goal = target if on_side else target + 1
                reached = (0 >= goal) if child is None else solver.reaches(child, goal)
                spent += 0 if child is None else solver.nodes
                if allowance and spent >= allowance:  # over budget: a wider window, cheaper tests
                    lo, hi, allowance = lo - WIDEN, hi + WIDEN, allowance + int(budget_nodes or 0)
                if reached == on_side:
                    break
                trick.pop()
                hands[mover][card] += 1
            else:  # pragma: no cover - the solver's value guarantees a card that keeps it
                raise AssertionError("no card keeps the double-dummy value")
        w = (leader + _winner(trick, pos.trump_index)) % seats
        acc += _gain(pos, trick, w, t == total - 1, won, bonus)
        pts = int(sum(CARD_POINTS[c] for c in trick)) + (pos.last_trick if t == total - 1 else 0)
        winners.append(w)
        tpoints.append(pts)
        points[w] += pts
        tricks[w] += 1
        won.add(w)
        leader = w
    return PlayLine(tuple(winners), tuple(tpoints), tuple(points), tuple(tricks), int(acc), int(lo), int(hi), spent)


def _legal_cards(hand: np.ndarray, trick: list[int], pos: Position, leader: int) -> list[int]:
    """Legal cards of the seat to play after ``trick`` (led by ``leader``), under ``pos``'s trump and play rules."""
    arr = np.array(trick + [0], dtype=np.int64)
    mates = trick_mates(pos.side, leader, pos.seats, len(trick))
    return mask_cards(legal_in_trick(hand, arr, len(trick), pos.trump_index, pos.rule, mates))


def _winner(trick: list[int], trump: int) -> int:
    return int(trick_winner(np.array(trick, dtype=np.int64), len(trick), trump))


def _gain(pos: Position, trick: list[int], w: int, last: bool, won: set[int], bonus) -> int:
    """What the side scores when seat ``w`` takes ``trick`` (as the solver counts it)."""
    if w not in pos.side:
        return 0
    g = int(sum(CARD_POINTS[c] for c in trick)) + (pos.last_trick if last else 0)
    return g + (int(bonus[w]) if w not in won else 0)
