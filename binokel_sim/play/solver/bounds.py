"""Quick bounds at a trick start: points one side is sure to win, whatever the play.

Two facts, both proved from the rules of §6 alone (no search):

*Cashing* (:func:`cash`). The seat on lead leads its top cards, suit by suit:
plain suits first, trumps last. A card wins when led if no other seat holds a
higher card of its suit (a twin held elsewhere does not beat it: the first played
wins) -- so the leader cashes its cards above everyone else's plus one copy of the
others' top rank. In a plain suit, a seat (partner included: it would take the
lead) that holds trumps and is void must trump, so the count in that suit is cut
to the shortest length among the seats holding trumps. Those seats therefore
follow every plain cash and then every trump cash, with their cheapest cards at
worst; their cards count too. Seats without trumps may discard, and count zero.

*Top trumps* (:func:`trump_chain`). A trump held by one side, with every
remaining trump of equal or higher rank held by that side as well, ends in a
trick that side wins -- the trick goes to its highest trump. So the points of the
top run of trumps held by one side (both copies) are that side's, in any play;
and one seat's run cards lie in distinct tricks, to each of which every opposing
seat adds a card -- at least its cheapest ones.

>>> import numpy as np
>>> from binokel_sim.cards import parse_cards, counts_of
>>> def masks(*hands):
...     c = [counts_of(parse_cards(h)) for h in hands]
...     return (np.array([sum(1 << t for t in range(24) if x[t]) for x in c], np.int64),
...             np.array([sum(1 << t for t in range(24) if x[t] > 1) for x in c], np.int64))
>>> h1, h2 = masks("EA E10 GU", "EK GA G10", "EO HA HU")   # no trump: EA, E10 cash; GU does not
>>> [int(x) for x in cash(h1, h2, np.int64(3), np.int64(-1), np.int64(0))]
[2, 21]
>>> # Hearts trump: seat 1 holds one E and trumps, so only EA cashes (EK falls), then HA (HK falls).
>>> h1, h2 = masks("EA E10 HA", "EK HK H10", "EO EU GA")
>>> [int(x) for x in cash(h1, h2, np.int64(3), np.int64(2), np.int64(0))]
[2, 30]
>>> # HA is seat 0's: it wins a trick, where seats 1 and 2 add at least HK and EU.
>>> [int(x) for x in trump_chain(h1, h2, np.int64(3), np.int64(2), np.int64(1))]
[17, 1]
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import RANK_POINTS
from binokel_sim.jit import kernel

#: Number of set bits of a 6-bit suit slice.
POP6 = np.array([bin(x).count("1") for x in range(64)], dtype=np.int64)


@kernel(noalloc=True, inline="always")
def suit_len(h1, h2, q, s):
    """Cards of suit ``s`` seat ``q`` holds (copies counted)."""
    return POP6[(h1[q] >> (6 * s)) & 63] + POP6[(h2[q] >> (6 * s)) & 63]


@kernel(noalloc=True, inline="always")
def cheapest(h1, h2, q, suits, n):
    """Card points of the ``n`` cheapest cards seat ``q`` holds in the suits of the mask ``suits``
    (bit ``s`` for suit ``s``; all of them if fewer)."""
    pts = 0
    r = 5
    while r >= 0 and n > 0:
        k = 0
        for s in range(4):
            if (suits >> s) & 1:
                k += ((h1[q] >> (6 * s + r)) & 1) + ((h2[q] >> (6 * s + r)) & 1)
        if k > n:
            k = n
        pts += k * RANK_POINTS[r]
        n -= k
        r -= 1
    return pts


@kernel(noalloc=True, inline="always")
def cash(h1, h2, seats, trump, p):
    """(tricks, card points) that seat ``p`` on lead surely wins by leading its top cards
    (see the module docstring); the tricks all go to ``p``."""
    others = np.int64(0)
    ruffers = 0
    for q in range(seats):
        if q != p:
            others |= h1[q]
            if trump >= 0 and (h1[q] >> (6 * trump)) & 63:
                ruffers |= 1 << q
    tricks = 0
    pts = 0
    for s in range(4):
        mine = (h1[p] >> (6 * s)) & 63
        if mine == 0:
            continue
        oth = (others >> (6 * s)) & 63
        twos = (h2[p] >> (6 * s)) & 63
        cap = 99
        if s != trump:
            for q in range(seats):
                if (ruffers >> q) & 1:
                    ln = suit_len(h1, h2, q, s)
                    if ln < cap:
                        cap = ln
        n = 0
        for r in range(6):
            if n >= cap:
                break
            if (oth >> r) & 1:
                if (mine >> r) & 1:
                    n += 1  # one copy, led before the twin: the first played wins
                    pts += RANK_POINTS[r]
                break
            if (mine >> r) & 1:
                k = 1 + ((twos >> r) & 1)
                if n + k > cap:
                    k = cap - n
                n += k
                pts += k * RANK_POINTS[r]
        if n > 0:
            for q in range(seats):
                if (ruffers >> q) & 1:
                    pts += cheapest(h1, h2, q, 1 << s, n)
        tricks += n
    return tricks, pts


@kernel(noalloc=True, inline="always")
def trump_chain(h1, h2, seats, trump, side):
    """(card points, owner) that the top run of trumps held by one side surely brings that side:
    owner 1 = the seats in mask ``side``, 0 = the others, -1 = none (no trump, or the top trump
    is split). Points: the run's cards, plus for each opposing seat its ``k`` cheapest cards,
    where ``k`` is the most run cards one owning seat holds (they win ``k`` distinct tricks,
    and every opposing seat adds a card to each)."""
    if trump < 0:
        return 0, -1
    owner = -1
    pts = 0
    per_seat = 0  # run cards by seat, 4 bits each
    for r in range(6):
        mine = 0
        theirs = 0
        by_seat = 0
        for q in range(seats):
            k = ((h1[q] >> (6 * trump + r)) & 1) + ((h2[q] >> (6 * trump + r)) & 1)
            by_seat += k << (4 * q)
            if (side >> q) & 1:
                mine += k
            else:
                theirs += k
        if mine == 0 and theirs == 0:
            continue
        if mine > 0 and theirs > 0:
            break
        o = 1 if mine > 0 else 0
        if owner >= 0 and o != owner:
            break
        owner = o
        pts += (mine + theirs) * RANK_POINTS[r]
        per_seat += by_seat
    if owner < 0:
        return 0, -1
    k = 0
    for q in range(seats):
        k = max(k, (per_seat >> (4 * q)) & 15)
    for q in range(seats):
        if ((side >> q) & 1) != owner:
            pts += cheapest(h1, h2, q, 15, k)
    return pts, owner


@kernel(noalloc=True, inline="always")
def quick_bounds(h1, h2, seats, trump, side, last, bonus, p, won, tleft, ub):
    """(lo, hi) bounds on the points the seats in ``side`` win from a trick start with ``p`` on
    lead, given ``ub`` (all points left); ``bonus[s]``: meld bonus of side seat ``s`` at its
    first trick (``won``: seats that have one)."""
    t, pts = cash(h1, h2, seats, trump, p)
    if t >= tleft:
        pts += last
    cp, owner = trump_chain(h1, h2, seats, trump, side)
    lo = 0
    hi = ub
    if (side >> p) & 1:
        if t > 0 and not (won >> p) & 1:
            pts += bonus[p]
        lo = cp if owner == 1 and cp > pts else pts
        if owner == 0:
            hi -= cp
    else:
        hi -= cp if owner == 0 and cp > pts else pts
        if owner == 1:
            lo = cp
    return lo, hi
