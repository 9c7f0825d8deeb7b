"""A deliberately simple pure-Python reference for two-hand legal moves (docs/rules.md §10).

Written from the rules text without the kernels: while the talon lasts any card; once
it is exhausted follow suit, else trump, and -- with heading -- the three-hand rule of
:mod:`solver_reference`. Hands are sorted tuples of card types.
"""

from __future__ import annotations

from solver_reference import legal as legal_headed
from solver_reference import POINTS, winner


def legal2(hand, trick, trump, phase):
    """Sorted distinct legal cards; ``phase``: ``open``, ``head`` (exhausted, must head) or ``follow``."""
    if not trick or phase == "open":
        return sorted(set(hand))
    if phase == "head":
        return legal_headed(hand, trick, trump)
    follow = [c for c in hand if c // 6 == trick[0] // 6]
    if follow:
        return sorted(set(follow))
    trumps = [c for c in hand if c // 6 == trump]
    return sorted(set(trumps or hand))


def perft2(hands, trick, leader, trump, phase, depth):
    """Legal card sequences of ``depth`` plies (identical cards once; early end counts once)."""
    if depth == 0:
        return 1
    if len(trick) == 2:
        return perft2(hands, (), (leader + winner(trick, trump)) % 2, trump, phase, depth)
    p = (leader + len(trick)) % 2
    if not hands[p]:
        return 1
    total = 0
    for c in legal2(hands[p], trick, trump, phase):
        h = list(hands[p])
        h.remove(c)
        nh = (tuple(h), hands[1]) if p == 0 else (hands[0], tuple(h))
        total += perft2(nh, trick + (c,), leader, trump, phase, depth - 1)
    return total


def minimax2(hands, trick, leader, trump, phase, last=10):
    """Seat 0's card points from here under ``phase`` (``head`` or ``follow``), plain minimax."""
    if len(trick) == 2:
        w = (leader + winner(trick, trump)) % 2
        gain = sum(POINTS[c % 6] for c in trick) + (last if not any(hands) else 0) if w == 0 else 0
        return gain + minimax2(hands, (), w, trump, phase, last)
    p = (leader + len(trick)) % 2
    if not hands[p]:
        return 0
    vals = []
    for c in legal2(hands[p], trick, trump, phase):
        h = list(hands[p])
        h.remove(c)
        nh = (tuple(h), hands[1]) if p == 0 else (hands[0], tuple(h))
        vals.append(minimax2(nh, trick + (c,), leader, trump, phase, last))
    return max(vals) if p == 0 else min(vals)
