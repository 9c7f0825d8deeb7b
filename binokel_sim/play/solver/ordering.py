"""Move ordering and equivalent cards for :func:`.search.search`.

``order_moves`` writes the legal card types of the player to move into the ply's row of
the move buffer, likeliest best first (see the design in :mod:`binokel_sim.play.solver`);
``twin_bound`` finds an already searched card whose result settles another one.
"""

from __future__ import annotations

import numpy as np

from binokel_sim.jit import kernel
from binokel_sim.play.solver.bitops import ctz
from binokel_sim.play.legal import HIGHER_MASK, POINTS, SUIT_MASK, beats
from binokel_sim.play.solver.slots import C_KILL, C_MAX, C_SEATS, C_TRUMP, MV_COLS, MV_KILL, MV_SCORE, MV_VALUE


@kernel(noalloc=True, inline="always")
def _can_take(h1, cfg, p, pos, wcard, led, side):
    """Whether a seat of ``side`` still to play in this trick after ``p`` could take ``wcard`` (a quick test)."""
    seats = cfg[C_SEATS]
    trump = cfg[C_TRUMP]
    ls = led // 6
    for k in range(1, seats - pos):
        q = (p + k) % seats
        if ((cfg[C_MAX] >> q) & 1) != side:
            continue
        h = h1[q]
        if h & HIGHER_MASK[wcard]:
            if wcard // 6 == ls or (h & SUIT_MASK[ls]) == 0:
                return True
        if trump >= 0 and wcard // 6 != trump and (h & SUIT_MASK[ls]) == 0 and (h & SUIT_MASK[trump]):
            return True
    return False


@kernel(noalloc=True, inline="always")
def _safe(h1, cfg, p, pos, wcard, led):
    """Whether no opponent of ``p`` still to play in this trick could take ``wcard`` (a quick test)."""
    return not _can_take(h1, cfg, p, pos, wcard, led, 1 - ((cfg[C_MAX] >> p) & 1))


@kernel(noalloc=True, inline="always")
def twin_bound(h1, p, seats, win, c, done, mv, ply):
    """Bound gap to an already searched equivalent card: ``(d, v)`` with ``|V(c) - V(e)| <= d`` and
    ``v`` the fail-soft result of searching ``e``; ``d = -1`` if none.

    Cards ``e`` and ``c`` of one suit held by seat ``p`` are equivalent when no other seat holds a
    card ranked between them or equal to either, and the trick's winning card does not separate
    them: every trick then goes the same way after either play (swap them for the rest of the
    deal), and only the two cards' points can land in different tricks.
    """
    s = c // 6
    cand = done & SUIT_MASK[s]
    if cand == 0:
        return -1, 0
    others = np.int64(0)
    for q in range(seats):
        if q != p:
            others |= h1[q]
    bestd = -1
    bestv = 0
    while cand:
        low = cand & -cand
        cand ^= low
        e = ctz(low)
        a = min(e, c)
        b = max(e, c)
        span = ((np.int64(1) << (b + 1)) - 1) ^ ((np.int64(1) << a) - 1)
        if others & span:
            continue
        if win >= 0 and a < win <= b:
            continue
        d = abs(POINTS[e] - POINTS[c])
        if bestd < 0 or d < bestd:
            bestd = d
            bestv = mv[ply * MV_COLS + MV_VALUE + e]
    return bestd, bestv


@kernel(noalloc=True, inline="always")
def order_moves(h1, cfg, p, pos, led, win, wseat, legal, mv, ply, first):
    """Write the legal types into ``mv[ply]``, likeliest best first; returns how many (``led``: a card of the
    led suit, only its suit is read).

    Rules of thumb, after the table's move ``first``: no history counts, and killer moves only
    for the defenders while ``cfg[C_KILL]`` is set -- the exact driver's low tests, where a side
    that wins (almost) no trick must be refuted (why, with the measurements: the documentation's
    Solver page, *Move ordering*).
    """
    seats = cfg[C_SEATS]
    trump = cfg[C_TRUMP]
    maxm = cfg[C_MAX]
    side = (maxm >> p) & 1
    opp = np.int64(0)
    for q in range(seats):
        if ((maxm >> q) & 1) != side:
            opp |= h1[q]
    n = 0
    m = legal
    kill = mv[ply * MV_COLS + MV_KILL] - 1 if cfg[C_KILL] and side == 0 else -1
    while m:
        low = m & -m
        c = ctz(low)
        m ^= low
        pts = POINTS[c]
        if c == first:
            sc = 10000
        elif c == kill:
            sc = 9000
        elif pos == 0:
            s = c // 6
            top = (opp & HIGHER_MASK[c]) == 0
            if top and (s == trump or trump < 0 or (opp & SUIT_MASK[trump]) == 0):
                # Sure winners, plain suits before trumps (trumps first: 1.35x the nodes; plain first:
                # 0.98x on 40 corpus solves, 0.94x on 60 random deals).
                sc = 5000 + pts + (100 if s != trump else 0)
            elif top:
                sc = 3000 + pts
            else:
                sc = 1000 - pts * 8 + c % 6
        else:
            b = beats(c, win, trump)
            ws = p if b else wseat
            wc = c if b else win
            mine = ((maxm >> ws) & 1) == side
            if mine and b and seats == 2 and c // 6 == trump and led // 6 != trump:
                # Two seats: win in suit first, then ruff with the cheapest trump (the
                # highest-point trump first cost 10 % more nodes on 150 two-hand endgames).
                sc = 4500 - pts
            elif mine and (pos == seats - 1 or _safe(h1, cfg, p, pos, wc, led)):
                sc = 5000 + pts
            elif mine:
                # An opponent still to play may take it: the cheapest card first (the strongest first
                # cost 6 % more nodes on 8 corpus solves, 4 % on 60 random deals).
                sc = 3000 - pts * 8 + (6 - c % 6)
            elif pos < seats - 1 and _can_take(h1, cfg, p, pos, wc, led, side):
                # A partner still to play may win it: add points (cheapest first cost 10 % more nodes).
                sc = 2000 + pts
            else:
                sc = 1000 - pts * 8
        # insertion sort, descending
        j = n
        while j > 0 and mv[ply * MV_COLS + MV_SCORE + j - 1] < sc:
            mv[ply * MV_COLS + MV_SCORE + j] = mv[ply * MV_COLS + MV_SCORE + j - 1]
            mv[ply * MV_COLS + j] = mv[ply * MV_COLS + j - 1]
            j -= 1
        mv[ply * MV_COLS + MV_SCORE + j] = sc
        mv[ply * MV_COLS + j] = c
        n += 1
    return n
