"""Alpha-beta search over card plays, with bounds stored per trick start.

``search`` returns the value of the remaining play for the maximising seats
(``cfg[C_MAX]``): points (or tricks) won by the credited seats (``cfg[C_CREDIT]``)
from here on, the cards already in the current trick and the last-trick bonus
included, plus ``bonus[s]`` the first time a credited seat ``s`` wins a trick.
It is fail-soft: a result ``<= alpha`` is an upper bound, ``>= beta`` a lower one.

See :mod:`binokel_sim.play.solver` for the design.
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import RANK_POINTS
from binokel_sim.jit import kernel
from binokel_sim.play.legal import POINTS, beats, legal_mask
from binokel_sim.play.solver.bitops import ctz, prefetch_at
from binokel_sim.play.solver.bounds import quick_bounds
from binokel_sim.play.solver.ordering import order_moves, twin_bound
from binokel_sim.play.solver.quasi import in_play, qprefetch, qprobe, qslot, qstore, quasi_key
from binokel_sim.play.solver.slots import (C_KILL, MV_KILL, C_BONUS_SEATS, C_CREDIT, C_GEN, C_LAST, C_LIMIT, C_MAX, C_MODE,  # noqa: F401
                                           C_QMIN, C_QT_ROWS, C_RULE, C_SEATS, C_TRUMP, C_TT_ROWS, CFG_SIZE, DEPTH,
                                           MAX_PLY, MODE_POINTS, MODE_TRICKS, MV_COLS, MV_SCORE, MV_VALUE, S_ABORT,
                                           S_CUTS, S_EQUIV, S_FIRST, S_HITS, S_ITERS, S_NODES, S_PROBES, S_QCUT,
                                           S_QHITS, S_QSCUT, S_TTCUT, STATS_SIZE)
from binokel_sim.play.solver.table import INF, TT_COLS, meta_best, meta_lo, meta_hi, probe, signature, slot_of, store

#: Card points of a 6-bit suit slice.
SUIT_POINTS = np.array([sum(int(RANK_POINTS[r]) for r in range(6) if x >> r & 1) for x in range(64)], dtype=np.int64)


@kernel(noalloc=True)
def mask_points(m):
    return (SUIT_POINTS[m & 63] + SUIT_POINTS[(m >> 6) & 63]
            + SUIT_POINTS[(m >> 12) & 63] + SUIT_POINTS[(m >> 18) & 63])


@kernel(noalloc=True, inline="always")
def upper_bound(h1, h2, cfg, bonus, won, tleft):
    """Most the credited seats can still win: every card left, the last trick, every unearned bonus."""
    seats = cfg[C_SEATS]
    credit = cfg[C_CREDIT]
    if cfg[C_MODE] == MODE_POINTS:
        ub = cfg[C_LAST]
        for s in range(seats):
            ub += mask_points(h1[s]) + mask_points(h2[s])
    else:
        ub = tleft
    for s in range(seats):
        if (credit >> s) & 1 and not (won >> s) & 1:
            ub += bonus[s]
    return ub


@kernel(noalloc=True, inline="always")
def trick_gain(cfg, bonus, ws, tpts, won, tleft):
    """What the credited seats get when seat ``ws`` wins a trick worth ``tpts`` card points."""
    if not (cfg[C_CREDIT] >> ws) & 1:
        return 0
    if cfg[C_MODE] == MODE_POINTS:
        g = tpts
        if tleft == 1:
            g += cfg[C_LAST]
    else:
        g = 1
    if not (won >> ws) & 1:
        g += bonus[ws]
    return g


@kernel(noalloc=True, inline="always")
def last_trick(h1, cfg, bonus, leader, won):
    """Value of the forced last trick (each seat holds one card)."""
    seats = cfg[C_SEATS]
    trump = cfg[C_TRUMP]
    win = -1
    ws = leader
    tpts = 0
    for i in range(seats):
        s = (leader + i) % seats
        m = h1[s]
        c = ctz(m)
        tpts += POINTS[c]
        if i == 0 or beats(c, win, trump):
            win = c
            ws = s
    return trick_gain(cfg, bonus, ws, tpts, won, 1)


@kernel(noalloc=True, inline="always")
def state_key(h1, h2, cfg, leader, won):
    """Four key words of a trick-start state."""
    k0 = h1[0] | (h2[0] << 24) | (((cfg[C_TRUMP] + 1) | (cfg[C_MAX] << 3) | (cfg[C_CREDIT] << 7) | (cfg[C_MODE] << 11)) << 48)
    k1 = h1[1] | (h2[1] << 24) | ((leader | ((won & cfg[C_BONUS_SEATS]) << 2)) << 48)
    k2 = np.int64(0)
    if cfg[C_SEATS] >= 3:  # two-hand Binokel: seats 0 and 1 only
        k2 = h1[2] | (h2[2] << 24)
    k3 = np.int64(0)
    if cfg[C_SEATS] == 4:
        k3 = h1[3] | (h2[3] << 24)
    return k0, k1, k2, k3


@kernel(noalloc=True)
def narrow(lo, thi, hi, alpha, beta):
    """Stored bounds ``lo <= value <= thi`` applied to the window: ``(cut, result, alpha, hi)``."""
    if thi < hi:
        hi = thi
    if lo >= beta:
        return True, lo, alpha, hi
    if hi <= alpha:
        return True, hi, alpha, hi
    if lo > alpha:
        alpha = lo
    return False, 0, alpha, hi


@kernel(noalloc=True)
def search(h1, h2, cfg, bonus, tt, qt, mv, stats, ply, p, pos, top, win, wseat, tpts, won, tleft, alpha, beta):
    """Fail-soft alpha-beta value of the position (see the module docstring).

    The trick so far: ``pos`` cards, ``top`` the highest of the led suit (its suit is the led suit),
    ``win`` the winning card, ``wseat`` its seat, ``tpts`` their points; -1s and 0 at a trick start.

    Every array argument is its data pointer (:func:`.driver.value` and :func:`.driver.test` pass
    them): ``tt`` and ``qt`` indexed by row x columns, ``mv`` by ply x :data:`MV_COLS`, their row
    counts in ``cfg[C_TT_ROWS]`` and ``cfg[C_QT_ROWS]``."""
    stats[S_NODES] += 1
    stats[DEPTH + tleft] += 1
    if cfg[C_LIMIT] > 0 and stats[S_NODES] > cfg[C_LIMIT]:
        stats[S_ABORT] = 1
    if stats[S_ABORT]:
        return 0
    # Typed constants: literal ints in the recursive call would compile a second specialisation.
    zero = np.int64(0)
    none = np.int64(-1)
    seats = cfg[C_SEATS]
    trump = cfg[C_TRUMP]
    maxm = cfg[C_MAX]
    base = -1
    row = -1
    first = -1
    k0 = k1 = k2 = k3 = sig = np.int64(0)
    qb = -1
    qsig = u = np.int64(0)
    if pos == 0:
        if tleft == 0:
            return 0
        ub = upper_bound(h1, h2, cfg, bonus, won, tleft)
        if ub <= alpha:
            return ub
        if beta <= 0:
            return 0
        if tleft == 1:
            return last_trick(h1, cfg, bonus, p, won)
        hi = ub
        # The table first: most probes settle the window, and then the quick bounds are not needed.
        k0, k1, k2, k3 = state_key(h1, h2, cfg, p, won)
        base = slot_of(cfg[C_TT_ROWS], k0, k1, k2, k3)
        sig = signature(k0, k1, k2, k3)
        row = probe(tt, base, sig, cfg[C_GEN])
        stats[S_PROBES] += 1
        if row >= 0:
            stats[S_HITS] += 1
            meta = tt[row * TT_COLS + 1]
            cut, v, alpha, hi = narrow(meta_lo(meta), meta_hi(meta), hi, alpha, beta)
            if cut:
                stats[S_TTCUT] += 1
                return v
            first = meta_best(meta)
        if tleft >= cfg[C_QMIN]:
            # Twins (same relative ranks): their bounds, widened by the points they can differ by.
            u = in_play(h1, seats)
            q0, q1, q2, q3 = quasi_key(h1, h2, seats, k0, k1, u)
            qb = qslot(cfg[C_QT_ROWS], q0, q1, q2, q3)
            qsig = signature(q0, q1, q2, q3)
            found, qlo, qhi = qprobe(qt, qb, qsig, q0, q1, q2, q3, u, cfg[C_GEN])
            if found:
                stats[S_QHITS] += 1
                cut, v, alpha, hi = narrow(qlo, qhi, hi, alpha, beta)
                if cut:
                    stats[S_QSCUT] += 1
                    return v
        if cfg[C_MODE] == MODE_POINTS and cfg[C_CREDIT] == maxm:
            qlo, qhi = quick_bounds(h1, h2, seats, trump, maxm, cfg[C_LAST], bonus, p, won, tleft, ub)
            if qhi < hi:
                hi = qhi
            if hi <= alpha or qlo >= beta:
                stats[S_QCUT] += 1
                return hi if hi <= alpha else qlo
            if qlo > alpha:
                alpha = qlo
        if hi < beta:
            beta = hi
        legal = h1[p]
    else:
        # Partners are the seats on one side of C_MAX (the two teams at fixed partnerships).
        legal = legal_mask(h1[p], top, win, trump, cfg[C_RULE], ((maxm >> p) & 1) == ((maxm >> wseat) & 1))
    if pos + 1 == seats and tleft > 2:
        # The last card of a trick: fetch every next trick start's table buckets now (the quasi
        # bucket's three lines too), so the children's probes (a memory miss each) overlap with
        # the move ordering and each other.
        m = legal
        while m:
            c = ctz(m)
            bit = np.int64(1) << c
            m ^= bit
            if h2[p] & bit:
                h2[p] ^= bit
            else:
                h1[p] ^= bit
            nws = p if beats(c, win, trump) else wseat
            j0, j1, j2, j3 = state_key(h1, h2, cfg, nws, won | (np.int64(1) << nws))
            prefetch_at(tt, slot_of(cfg[C_TT_ROWS], j0, j1, j2, j3) * TT_COLS)
            if tleft > cfg[C_QMIN]:
                j0, j1, j2, j3 = quasi_key(h1, h2, seats, j0, j1, in_play(h1, seats))
                qprefetch(qt, qslot(cfg[C_QT_ROWS], j0, j1, j2, j3))
            if h1[p] & bit:
                h2[p] |= bit
            else:
                h1[p] |= bit
    a0 = alpha
    b0 = beta
    n = order_moves(h1, cfg, p, pos, top, win, wseat, legal, mv, ply, first)
    is_max = (maxm >> p) & 1
    best = -INF if is_max else INF
    bm = -1
    done = np.int64(0)
    for i in range(n):
        c = mv[ply * MV_COLS + i]
        bit = np.int64(1) << c
        if done:
            # An equivalent card already searched may settle this one (zero windows: every
            # earlier sibling failed on the same side).
            d, ve = twin_bound(h1, p, seats, win if pos > 0 else none, c, done, mv, ply)
            if d > 0 and cfg[C_MODE] != MODE_POINTS:
                d = 0  # tricks: the two plays are worth the same
            if d >= 0:
                if is_max and ve + d <= alpha:
                    stats[S_EQUIV] += 1
                    if ve + d > best:
                        best = ve + d
                    continue
                if not is_max and ve - d >= beta:
                    stats[S_EQUIV] += 1
                    if ve - d < best:
                        best = ve - d
                    continue
        if h2[p] & bit:
            h2[p] ^= bit
        else:
            h1[p] ^= bit
        if pos == 0:
            ntop = c
            nwin = c
            nws = p
        else:
            ntop = c if c // 6 == top // 6 and c < top else top
            if beats(c, win, trump):
                nwin = c
                nws = p
            else:
                nwin = win
                nws = wseat
        ntp = tpts + POINTS[c]
        if pos + 1 == seats:
            g = trick_gain(cfg, bonus, nws, ntp, won, tleft)
            v = g + search(h1, h2, cfg, bonus, tt, qt, mv, stats, ply + 1, nws, zero, none, none, none, zero,
                           won | (np.int64(1) << nws), tleft - 1, alpha - g, beta - g)
        else:
            v = search(h1, h2, cfg, bonus, tt, qt, mv, stats, ply + 1, (p + 1) % seats, pos + 1, ntop, nwin, nws,
                       ntp, won, tleft, alpha, beta)
        if h1[p] & bit:
            h2[p] |= bit
        else:
            h1[p] |= bit
        if stats[S_ABORT]:
            return 0
        mv[ply * MV_COLS + MV_VALUE + c] = v
        done |= bit
        if is_max:
            if v > best:
                best = v
                bm = c
                if best > alpha:
                    alpha = best
        elif v < best:
            best = v
            bm = c
            if best < beta:
                beta = best
        # alpha < beta held before this move, and only the move just tried narrows the window.
        if alpha >= beta:
            if cfg[C_KILL] and not is_max:
                mv[ply * MV_COLS + MV_KILL] = c + 1  # the defenders' killer (low tests only)
            stats[S_CUTS] += 1
            stats[S_FIRST] += i == 0
            break
    if pos == 0:
        lo = -INF
        hi = INF
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = best
            hi = best
        store(tt, base, sig, cfg[C_GEN], lo, hi, bm, tleft)
        if qb >= 0:
            qstore(qt, qb, qsig, u, cfg[C_GEN], lo, hi, tleft)
    return best
