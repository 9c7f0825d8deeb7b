"""The rule-based player (:class:`binokel_sim.play.playout.RuleBased`) at every seat: a whole deal in one kernel.

The same rules of thumb on the same knowledge: each seat reads its own hand, the deck, every card
played and the discards only where it knows them (the soloist, unless they were laid away unseen;
the other seats the trumps among them where the rules announce those;
:meth:`binokel_sim.play.knowledge.PlayState.view`), and takes its legal cards from
:func:`binokel_sim.play.legal.legal_in_trick` under the rules' play-rules word. Tested card for card
against ``play_out(state, [RuleBased()] * seats)`` (``tests/play/test_rule_kernel.py``); a deal takes
microseconds instead of the Python player's tens of milliseconds.

>>> from binokel_sim.cards import counts_of, parse_cards, format_cards
>>> hands = np.stack([counts_of(parse_cards(t)) for t in ("EA EK", "E10 EU", "EO GA")])
>>> r = rule_play(hands, trump=-1, leader=0, side=(0,), rule=0, last_trick=10, deck=hands.sum(axis=0))
>>> format_cards(r.cards), r.trick_winners, r.trick_points    # EA is sure: no E card beats it
('EA EU EO EK E10 GA', (0, 1), (16, 35))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from binokel_sim.cards import N_TYPES
from binokel_sim.jit import kernel
from binokel_sim.play.legal import HIGHER_MASK, POINTS, SUIT_MASK, beats, legal_in_trick, trick_winner

__all__ = ["RulePlay", "rule_play", "play_rule_based"]


@kernel(noalloc=True)
def _lead(hand, out, legal, trump):
    # A sure winner (no card above it left outside the hand, the pile where known and the cards played),
    # trumps first, then the most points; else the cheapest card of the longest plain suit.
    best, best_key = -1, -1
    for c in range(24):
        if (legal >> c) & 1 == 0:
            continue
        sure = True
        for h in range(24):
            if (HIGHER_MASK[c] >> h) & 1 and out[h] > 0:
                sure = False
                break
        if sure:
            key = (1000 if c // 6 == trump else 0) + POINTS[c] * 30 + (23 - c)  # (is trump, points, -c)
            if key > best_key:
                best, best_key = c, key
    if best >= 0:
        return best
    plain = legal & ~SUIT_MASK[trump] if trump >= 0 else legal
    if plain == 0:
        plain = legal
    longest, most = -1, -1
    for s in range(4):
        if plain & SUIT_MASK[s] == 0:
            continue
        n = 0
        for c in range(6 * s, 6 * s + 6):
            if (plain >> c) & 1:
                n += hand[c]
        if n > most:  # ties to the lower suit index
            longest, most = s, n
    for c in range(6 * longest + 5, 6 * longest - 1, -1):  # cheapest; ties (none within a suit) to the higher c
        if (plain >> c) & 1 and (best < 0 or POINTS[c] < POINTS[best]):
            best = c
    return best


@kernel(noalloc=True)
def _cheapest(mask):
    # Fewest points, ties to the lower card type.
    best = -1
    for c in range(24):
        if (mask >> c) & 1 and (best < 0 or POINTS[c] < POINTS[best]):
            best = c
    return best


@kernel(noalloc=True)
def _follow(legal, trick, n, win_mine, last, trump):
    # The trick going to the seat's side and it plays last: the legal card worth most; else the cheapest
    # card that takes the trick where it plays last or a taker is worth 10 or more; else the cheapest.
    if win_mine and last:
        best = -1
        for c in range(24):
            if (legal >> c) & 1 and (best < 0 or POINTS[c] >= POINTS[best]):
                best = c
        return best
    win = trick[trick_winner(trick, n, trump)]
    takers = np.int64(0)
    top = -1
    for c in range(24):
        if (legal >> c) & 1 and beats(c, win, trump):
            takers |= np.int64(1) << c
            top = max(top, POINTS[c])
    if takers != 0 and not win_mine and (last or top >= 10):
        return _cheapest(takers)
    return _cheapest(legal)


@kernel
def play_rule_based(hands, deck, pile, pile_seat, shown, trump, leader, side_mask, rule, last_trick, cards, winners,
                    points):
    """Play ``hands`` (``uint8[seats, 24]``, the first trick's) to the end, every seat by the rule-based
    player. ``deck``, ``pile``: ``uint8[24]``; ``pile_seat``: the seat that knows the pile (-1: none);
    ``shown``: ``uint8[24]``, the cards of the pile every other seat knows (the announced trumps);
    ``side_mask``: bit ``s`` set for the soloist's seats; ``rule``: the play-rules word. Writes the cards
    in playing order to ``cards``, each trick's winning seat and card points (last-trick bonus included)
    to ``winners`` and ``points``."""
    seats = hands.shape[0]
    tricks = 0
    for c in range(24):
        tricks += hands[0, c]
    hand = hands.astype(np.int64)
    gone = np.zeros(24, dtype=np.int64)
    out = np.zeros(24, dtype=np.int64)
    trick = np.zeros(seats, dtype=np.int64)
    k = 0
    for t in range(tricks):
        for n in range(seats):
            mover = (leader + n) % seats
            mine = (side_mask >> mover) & 1
            mates = np.int64(0)
            for i in range(n):
                if (side_mask >> ((leader + i) % seats)) & 1 == mine:
                    mates |= np.int64(1) << i
            legal = legal_in_trick(hand[mover], trick, n, trump, rule, mates)
            if legal & (legal - 1) == 0:
                card = _cheapest(legal)  # one legal card
            elif n == 0:
                for c in range(24):
                    out[c] = deck[c] - hand[mover, c] - gone[c] - (pile[c] if mover == pile_seat else shown[c])
                card = _lead(hand[mover], out, legal, trump)
            else:
                ws = (leader + trick_winner(trick, n, trump)) % seats
                card = _follow(legal, trick, n, ((side_mask >> ws) & 1) == mine, n == seats - 1, trump)
            trick[n] = card
            hand[mover, card] -= 1
            gone[card] += 1
            cards[k] = card
            k += 1
        w = (leader + trick_winner(trick, seats, trump)) % seats
        p = last_trick if t == tricks - 1 else 0
        for i in range(seats):
            p += POINTS[trick[i]]
        winners[t] = w
        points[t] = p
        leader = w


@dataclass(frozen=True)
class RulePlay:
    """A deal played by the rule-based player: the cards in playing order, each trick's winner and points."""

    cards: tuple[int, ...]
    trick_winners: tuple[int, ...]
    trick_points: tuple[int, ...]


def rule_play(hands: np.ndarray, trump: int, leader: int, side: Sequence[int], rule: int, last_trick: int,
              deck: np.ndarray, pile: np.ndarray | None = None, pile_seat: int = -1,
              pile_shown: np.ndarray | None = None) -> RulePlay:
    """Play ``hands`` (``uint8[seats, 24]``) with the rule-based player at every seat (``trump`` -1: none;
    ``side``: the soloist's seats; ``deck``: every card of the deal, ``uint8[24]``; ``pile``: the discards,
    known to ``pile_seat`` only, -1: to nobody; ``pile_shown``: the cards of them the other seats know, the
    trumps announced under ``discard.trumps_shown``). See :func:`play_rule_based`."""
    h = np.ascontiguousarray(hands, dtype=np.uint8)
    seats, tricks = h.shape[0], int(h[0].sum())
    cards = np.empty(seats * tricks, dtype=np.int64)
    winners = np.empty(tricks, dtype=np.int64)
    points = np.empty(tricks, dtype=np.int64)
    p = np.zeros(N_TYPES, dtype=np.uint8) if pile is None else np.asarray(pile, dtype=np.uint8)
    shown = np.zeros(N_TYPES, dtype=np.uint8) if pile_shown is None else np.asarray(pile_shown, dtype=np.uint8)
    play_rule_based(h, np.asarray(deck, dtype=np.uint8), p, np.int64(pile_seat), shown, np.int64(trump),
                    np.int64(leader),
                    np.int64(sum(1 << s for s in side)), np.int64(rule), np.int64(last_trick), cards, winners, points)
    return RulePlay(tuple(cards.tolist()), tuple(winners.tolist()), tuple(points.tolist()))
