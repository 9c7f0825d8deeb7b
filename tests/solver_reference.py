"""A deliberately simple pure-Python reference for trick play: plain minimax, no pruning.

Written from docs/rules.md §6 without the kernels, to check them. Hands are sorted
tuples of card types (0..23 = suit * 6 + rank, rank 0 highest). The options of §6:
``beat_led`` (``play.beat_led_when_trumped``) and ``partner_frees`` (``play.partner_frees``:
partners are the seats on the same side of ``side``).
"""

from __future__ import annotations

POINTS = (11, 10, 4, 3, 2, 0)


def winner(trick, trump):
    """Index of the card winning ``trick`` (the first of two identical cards wins)."""
    best = 0
    for i in range(1, len(trick)):
        c, w = trick[i], trick[best]
        if c // 6 == w // 6:
            if c % 6 < w % 6:
                best = i
        elif trump is not None and c // 6 == trump:
            best = i
    return best


def legal(hand, trick, trump, beat_led=False, free=False):
    """Sorted distinct legal card types; ``free``: a partner of the player holds the trick (and partners free)."""
    if not trick:
        return sorted(set(hand))
    led = trick[0] // 6
    win = trick[winner(trick, trump)]
    follow = [c for c in hand if c // 6 == led]
    if follow:
        if free:
            return sorted(set(follow))
        if win // 6 != led:
            if not beat_led:
                return sorted(set(follow))
            top = min(c for c in trick if c // 6 == led)  # the led suit's highest card
            higher = [c for c in follow if c % 6 < top % 6]
            return sorted(set(higher or follow))
        higher = [c for c in follow if c % 6 < win % 6]
        return sorted(set(higher or follow))
    if free:
        return sorted(set(hand))
    if trump is not None:
        trumps = [c for c in hand if c // 6 == trump]
        if trumps:
            if win // 6 == trump:
                higher = [c for c in trumps if c % 6 < win % 6]
                return sorted(set(higher or trumps))
            return sorted(set(trumps))
    return sorted(set(hand))


def _remove(hand, c):
    i = hand.index(c)
    return hand[:i] + hand[i + 1:]


def freed(trick, leader, seats, trump, side, partner_frees):
    """Whether the seat to play next is freed: partners free each other, and its partner (same side) holds the trick."""
    if not partner_frees or not trick:
        return False
    holder = (leader + winner(trick, trump)) % seats
    return (holder in side) == ((leader + len(trick)) % seats in side)


def minimax(hands, trick, leader, trump, side, credit=None, tricks_mode=False, last=10, bonus=None, won=frozenset(),
            beat_led=False, partner_frees=False):
    """Value for the seats in ``side`` (maximising): points (or tricks) won by ``credit`` seats from here on.

    ``bonus[s]`` is added the first time a credited seat ``s`` wins a trick.
    """
    credit = side if credit is None else credit
    seats = len(hands)
    bonus = bonus or (0,) * seats
    if len(trick) == seats:
        w = (leader + winner(trick, trump)) % seats
        gain = 0
        if w in credit:
            if tricks_mode:
                gain = 1
            else:
                gain = sum(POINTS[c % 6] for c in trick) + (last if not any(hands) else 0)
            if w not in won:
                gain += bonus[w]
        return gain + minimax(hands, (), w, trump, side, credit, tricks_mode, last, bonus, won | {w}, beat_led,
                              partner_frees)
    p = (leader + len(trick)) % seats
    if not hands[p]:
        return 0
    vals = []
    for c in legal(hands[p], trick, trump, beat_led, freed(trick, leader, seats, trump, side, partner_frees)):
        nh = hands[:p] + (_remove(hands[p], c),) + hands[p + 1:]
        vals.append(minimax(nh, trick + (c,), leader, trump, side, credit, tricks_mode, last, bonus, won, beat_led,
                            partner_frees))
    return max(vals) if p in side else min(vals)


def perft(hands, trick, leader, trump, depth):
    """Number of legal play sequences of ``depth`` cards (identical cards once; early end counts once)."""
    if depth == 0:
        return 1
    seats = len(hands)
    if len(trick) == seats:
        w = (leader + winner(trick, trump)) % seats
        return perft(hands, (), w, trump, depth)
    p = (leader + len(trick)) % seats
    if not hands[p]:
        return 1
    total = 0
    for c in legal(hands[p], trick, trump):
        nh = hands[:p] + (_remove(hands[p], c),) + hands[p + 1:]
        total += perft(nh, trick + (c,), leader, trump, depth - 1)
    return total
