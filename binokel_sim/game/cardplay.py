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

*Rule-based* (:func:`rule_based_line`): every seat plays by the baseline player's rules of thumb on its
own knowledge (:mod:`binokel_sim.play.rule_kernel`); the same record, so scoring reads either.

>>> import numpy as np
>>> line = rule_based_line(np.stack(pos.hands), -1, 0, (0,), 0, 10, np.sum(pos.hands, axis=0))
>>> line.side_value, line.seat_points, line.trick_winners     # EA is sure and leads: 16 points, not 34
(16, (16, 35, 0), (0, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal, get_args

import numpy as np

from binokel_sim.cards import CARD_POINTS
from binokel_sim.errors import InputError
from binokel_sim.play.legal import legal_in_trick, mask_cards, trick_mates, trick_winner
from binokel_sim.play.rule_kernel import rule_play
from binokel_sim.play.solver import Position, Solver

#: Points by which an over-budget line widens its window on each side (see the module docstring).
WIDEN = 30

#: How a game's deals are played: double-dummy (the solver's line) or by the rule-based player at every seat.
PlayMode = Literal["double-dummy", "rule-based"]
PLAY_MODES: tuple[str, ...] = get_args(PlayMode)
DOUBLE_DUMMY: Final = "double-dummy"
RULE_BASED: Final = "rule-based"


def check_play(play: str, budget_nodes: int | None = None) -> None:
    """Raise :class:`InputError` for an unknown play mode, or a node budget with rule-based play (no search).

    >>> check_play("rule-based", budget_nodes=1000)
    Traceback (most recent call last):
    binokel_sim.errors.InputError: --solve-budget: rule-based play searches nothing; drop the option
    """
    if play not in PLAY_MODES:
        raise InputError(f"--play: expected one of {', '.join(PLAY_MODES)}, got {play!r}")
    if play == RULE_BASED and budget_nodes is not None:
        raise InputError("--solve-budget: rule-based play searches nothing; drop the option")


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


def rule_based_line(hands: np.ndarray, trump: int, leader: int, side: tuple[int, ...], rule: int, last_trick: int,
                    deck: np.ndarray, pile: np.ndarray | None = None, pile_seat: int = -1,
                    bonus: tuple[int, ...] | None = None, pile_shown: np.ndarray | None = None) -> PlayLine:
    """The deal ``hands`` (``uint8[seats, 24]``) played by the rule-based player at every seat
    (:func:`binokel_sim.play.rule_kernel.rule_play`: ``trump`` -1 none, ``deck`` every card of the deal,
    ``pile`` the discards known to ``pile_seat`` only, ``pile_shown`` the announced part of them), as a :class:`PlayLine`: ``side_value`` counts the
    side's card points and each side seat's ``bonus`` once it holds a trick, as the solver would; the window
    is that value, no nodes."""
    r = rule_play(hands, trump, leader, side, rule, last_trick, deck, pile, pile_seat, pile_shown)
    seats = len(hands)
    points, tricks = [0] * seats, [0] * seats
    value = 0
    for w, p in zip(r.trick_winners, r.trick_points):
        if w in side:
            value += p + (bonus[w] if bonus is not None and not tricks[w] else 0)
        points[w] += p
        tricks[w] += 1
    return PlayLine(r.trick_winners, r.trick_points, tuple(points), tuple(tricks), value, value, value, 0)


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
