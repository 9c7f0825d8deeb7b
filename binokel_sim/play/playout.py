"""A deal played out card by card, one player per seat, and the soloist's total it ends with.

A player is anything with ``choose(state) -> card``: :class:`~binokel_sim.play.single_dummy.OpenCards`
(double-dummy, reads every hand), :class:`~binokel_sim.play.single_dummy.SingleDummy` and
:class:`RuleBased` (read only ``state.view(seat)``).

>>> from binokel_sim.cards import counts_of, parse_cards
>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.play.knowledge import PlayState
>>> r = load_rules("standard")
>>> h = [counts_of(parse_cards(t)) for t in ("EA EK", "E10 EU", "EO GA")]
>>> st = PlayState.start(r, h, pile=counts_of([]), tapp=None, trump=-1, soloist=0, ending=True)
>>> end = play_out(st, [RuleBased()] * 3)
>>> end.done, side_total(r, end, discard_points=0)
(True, (16, True))
"""

from __future__ import annotations

from typing import Protocol, Sequence

import numpy as np

from binokel_sim.cards import CARD_POINTS
from binokel_sim.play.knowledge import Knowledge, PlayState
from binokel_sim.play.legal import HIGHER_MASK, beats, trick_winner
from binokel_sim.rules import Rules
from binokel_sim.scoring import unit_total

__all__ = ["Player", "RuleBased", "play_out", "side_total"]


class Player(Protocol):
    def choose(self, state: PlayState) -> int: ...


def play_out(state: PlayState, players: Sequence[Player]) -> PlayState:
    """Play ``state`` to its end, seat ``s`` choosing with ``players[s]``."""
    while not state.done:
        state = state.play(players[state.to_move].choose(state))
    return state


def side_total(rules: Rules, state: PlayState, discard_points: int) -> tuple[int, bool]:
    """(the soloist's side's total, whether it took a trick) after ``state``'s tricks: discards + card points of
    its tricks (the last-trick bonus included), rounded where the rules round (§7), + the melds of its seats
    that count -- as the scorer counts them (:func:`binokel_sim.scoring.unit_total`)."""
    r = state.record()
    pts = list(r.points)
    pts[state.soloist] += discard_points
    took = [s in r.won for s in range(state.seats)]
    return unit_total(rules, state.side, pts, state.melds, took), any(took[s] for s in state.side)


def _points(c: int) -> int:
    return int(CARD_POINTS[c])


class RuleBased:
    """A baseline with a few rules of thumb, reading only its seat's knowledge. Leading: a sure winner (no
    card that could beat it left in another hand), trumps first; else the cheapest card of its longest
    plain suit. Following: with the trick going to its side, the legal card worth most; else the cheapest
    card that takes the trick when it plays last, or the cheapest legal card."""

    def choose(self, state: PlayState) -> int:
        k = state.view(state.to_move)
        legal = k.legal()
        if len(legal) == 1:
            return legal[0]
        return self._lead(k, legal) if not k.trick else self._follow(k, legal)

    @staticmethod
    def _lead(k: Knowledge, legal: list[int]) -> int:
        out = k.unseen()

        def sure(c: int) -> bool:
            return not any(out[h] > 0 for h in range(24) if (int(HIGHER_MASK[c]) >> h) & 1)

        winners = [c for c in legal if sure(c)]
        if winners:
            return max(winners, key=lambda c: (c // 6 == k.trump, _points(c), -c))
        plain = [c for c in legal if c // 6 != k.trump] or legal
        longest = max({c // 6 for c in plain}, key=lambda s: (sum(int(k.hand[c]) for c in plain if c // 6 == s), -s))
        return min((c for c in plain if c // 6 == longest), key=lambda c: (_points(c), -c))

    @staticmethod
    def _follow(k: Knowledge, legal: list[int]) -> int:
        trick = np.array(k.trick, dtype=np.int64)
        w = int(trick_winner(trick, len(k.trick), k.trump))
        win, ws = k.trick[w], (k.leader + w) % k.seats
        mine = (ws in k.side) == (k.seat in k.side)
        last = len(k.trick) == k.seats - 1
        if mine and last:
            return max(legal, key=lambda c: (_points(c), c))
        takers = [c for c in legal if beats(c, win, k.trump)]
        if takers and not mine and (last or max(_points(c) for c in takers) >= 10):
            return min(takers, key=lambda c: (_points(c), c))
        return min(legal, key=lambda c: (_points(c), c))
