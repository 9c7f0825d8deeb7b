"""Query kernels on top of :func:`search`: exact value (MTD(f)), threshold, batch.

>>> import numpy as np
>>> from binokel_sim.cards import parse_cards, counts_of
>>> hands = ["EA EK", "E10 EU", "EO GA"]
>>> counts = np.stack([counts_of(parse_cards(h)) for h in hands])[None]
>>> int(max_points_batch(counts, np.array([-1], np.int8), np.array([0], np.int8),
...                      np.array([1], np.uint8), np.zeros((1, 3), np.int32), 10)[0])
34
"""

from __future__ import annotations

import numpy as np

from binokel_sim.jit import kernel
from binokel_sim.play.legal import POINTS, beats
from binokel_sim.play.solver.search import (C_BONUS_SEATS, C_CREDIT, C_GEN, C_LAST, C_LIMIT, C_MAX, C_MODE, C_SEATS, C_TRUMP,
                                            CFG_SIZE, MAX_PLY, MV_COLS, MODE_POINTS, S_ABORT, S_ITERS,
                                            STATS_SIZE, search, trick_gain, upper_bound)
from binokel_sim.play.solver.quasi import QMIN, QROW, quasi_bits
from binokel_sim.play.solver.table import MAX_GEN, TT_COLS, bits_for, clear
from binokel_sim.play.solver.bitops import ptr_of
from binokel_sim.play.solver.slots import C_KILL, C_QMIN, C_RULE, C_TT_ROWS, C_QT_ROWS, MV_KILL


@kernel(noalloc=True)
def load_hands(counts, h1, h2):
    """Type masks of ``counts`` (uint8[seats, 24]): ``h1`` held, ``h2`` held twice."""
    for s in range(counts.shape[0]):
        a = np.int64(0)
        b = np.int64(0)
        for c in range(24):
            if counts[s, c] > 0:
                a |= np.int64(1) << c
            if counts[s, c] > 1:
                b |= np.int64(1) << c
        h1[s] = a
        h2[s] = b


@kernel(noalloc=True)
def tricks_of(counts, i):
    """Tricks to play in deal ``i`` of a batch: the cards of seat 0's hand."""
    n = 0
    for c in range(24):
        n += counts[i, 0, c]
    return np.int64(n)


@kernel(noalloc=True)
def fresh_stats(stats):
    """Zero the counters before a query (the move ordering keeps no state: a query's node count
    depends only on the position and the table)."""
    for i in range(stats.shape[0]):
        stats[i] = 0


@kernel(noalloc=True)
def root_bound(h1, h2, cfg, bonus, tpts, won, tleft):
    """Most the side can still get at the root: :func:`.search.upper_bound` plus the current trick's points."""
    hi = upper_bound(h1, h2, cfg, bonus, won, tleft)
    if cfg[C_MODE] == MODE_POINTS:
        hi += tpts
    return hi


@kernel(noalloc=True, inline="always")
def _search(h1, h2, cfg, bonus, tt, qt, mv, stats, ply, p, pos, top, win, wseat, tpts, won, tleft, alpha, beta):
    """:func:`search` on the arrays' data pointers (one word each instead of seven to nine)."""
    cfg[C_TT_ROWS] = tt.shape[0]
    cfg[C_QT_ROWS] = qt.shape[0]
    return search(ptr_of(h1), ptr_of(h2), ptr_of(cfg), ptr_of(bonus), ptr_of(tt), ptr_of(qt), ptr_of(mv), ptr_of(stats),
                  ply, p, pos, top, win, wseat, tpts, won, tleft, alpha, beta)


@kernel(noalloc=True)
def value(h1, h2, cfg, bonus, tt, qt, mv, stats, p, pos, top, win, wseat, tpts, won, tleft):
    """Exact value by zero-window searches from above: test ``>= hi`` until one succeeds.

    Proving that the side can *not* reach a target above the value is cheap (the
    defenders' refutation is found at once: a few thousand nodes on a full deal),
    while proving that it can reach one costs the full tree of the defenders'
    replies, far below the value nearly as much as at it. So every test here but
    the last one fails low, and each fail-soft result lowers ``hi`` to the bound
    it proves; the last test, at the value, is the one expensive proof. (MTD(f)
    from below or bisection pays for several such proofs: measured 3-4x more nodes.)

    Two seats (two-hand endgames) are the exception: there a failing test's bound lies
    barely below its target (~32 tests from above, each about as dear as the proof),
    so the targets bisect ``(lo, hi]`` instead, a little above the middle since failing
    tests stay cheaper (:func:`bisect_target`): 300 endgames of 12 tricks (bench_twohand,
    seed 1), median nodes 60 k -> 40 k, mean 102 k -> 60 k.

    A side that can win no trick (one deal in eight of random ``standard`` deals with a random
    soloist) fails ~100-140 tests one point apart, each a full refutation; so once ``hi`` has
    fallen to a quarter of the root bound, one test ">= 1" is asked first (:data:`LOW_SHARE`).
    200 random deals (seed 1): the worst deal against the solver of 5462fde 2.59x -> 1.14x the
    nodes, none above 1.2x (5 before), total nodes 1.000x; seed 2: worst 9.15x -> 4.70x, total
    1.012x; 120 corpus solves 1.001x. Asked first on every deal: 20 deals above 1.2x their
    nodes (the proof ">= 1" is dear where the value is high); at a quarter of the root bound
    the deals it reaches have low values, where that proof is cheap. From that test on, the
    defenders' killer moves are on (the card that last cut at the same ply, tried after the table's
    move; cleared before each test, so a test's nodes depend only on the position and the table):
    a refutation of a side that wins (almost) nothing is the same few defending cards at every ply.
    Seed 1: total 0.961x, worst deal against 5462fde 1.14x -> 1.05x; seed 2: 0.978x, worst 4.70x ->
    1.65x, 2 deals above 1.2x; corpus 0.998x; kreuz 0.98x, four-solo 0.97x. Killers for both sides
    in these tests: seed 1 +2.8 %, 6 deals above 1.2x; defenders' killers in every test: +6 %
    (corpus +2.9 %, one solve 8.6x).
    """
    lo = 0
    hi = root_bound(h1, h2, cfg, bonus, tpts, won, tleft)
    low = hi // LOW_SHARE
    asked = False
    k = 0
    while lo < hi:
        stats[S_ITERS] += 1
        k += 1
        if cfg[C_SEATS] == 2:
            t = bisect_target(lo, hi, k)
        elif lo == 0 and hi <= low and not asked:
            t = np.int64(1)
            asked = True
        else:
            t = hi
        if asked:
            for r in range(MAX_PLY):
                mv[r, MV_KILL] = 0
            cfg[C_KILL] = 1
        g = _search(h1, h2, cfg, bonus, tt, qt, mv, stats, np.int64(0), p, pos, top, win, wseat, tpts, won, tleft, t - 1, t)
        cfg[C_KILL] = 0
        if stats[S_ABORT]:
            return -1
        if g < t:
            hi = g
        else:
            lo = g
    return lo


#: The exact driver asks ">= 1" once ``hi`` is at most the root bound // LOW_SHARE (see :func:`value`).
LOW_SHARE = 4


@kernel(noalloc=True)
def bisect_target(lo, hi, k):
    """Target of test ``k`` (1 first) of the two-seat driver in ``lo < value <= hi``: the middle
    of the range first, then 65 % of the way up (a sweep over 100 endgames: 50 % and 80 %
    cost 5-25 % more nodes).

    >>> int(bisect_target(0, 250, 1)), int(bisect_target(0, 125, 2)), int(bisect_target(9, 10, 3))
    (125, 81, 10)
    """
    if k == 1:
        return max(hi // 2, lo + 1)
    return lo + 1 + (hi - lo - 1) * 13 // 20


@kernel(noalloc=True)
def test(h1, h2, cfg, bonus, tt, qt, mv, stats, p, pos, top, win, wseat, tpts, won, tleft, target):
    """One zero-window search "value >= ``target``?": the fail-soft result ``g`` proves
    ``value >= g`` if ``g >= target``, else ``value <= g``. Meaningless if ``stats[S_ABORT]``.
    With ``cfg[C_KILL]`` set the defenders' killer moves are on, cleared first (a test's nodes depend only on
    the position and the table)."""
    stats[S_ITERS] += 1
    if cfg[C_KILL]:
        for r in range(MAX_PLY):
            mv[r, MV_KILL] = 0
    return _search(h1, h2, cfg, bonus, tt, qt, mv, stats, np.int64(0), p, pos, top, win, wseat, tpts, won, tleft,
                  target - 1, target)


@kernel(noalloc=True)
def reaches(h1, h2, cfg, bonus, tt, qt, mv, stats, p, pos, top, win, wseat, tpts, won, tleft, target):
    """True if the maximising side can reach ``target``: one zero-window search."""
    return test(h1, h2, cfg, bonus, tt, qt, mv, stats, p, pos, top, win, wseat, tpts, won, tleft, target) >= target


@kernel
def make_cfg(seats, trump, max_mask, credit_mask, mode, last, gen, bonus, rule, limit=0):
    """The ``cfg`` array of a query (:mod:`.slots`); ``rule``: the play-rules word
    (:func:`binokel_sim.play.legal.play_rule`)."""
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[C_RULE] = rule
    cfg[C_QMIN] = QMIN
    cfg[C_SEATS] = seats
    cfg[C_TRUMP] = trump
    cfg[C_MAX] = max_mask
    cfg[C_CREDIT] = credit_mask
    cfg[C_MODE] = mode
    cfg[C_LAST] = last
    cfg[C_GEN] = gen
    cfg[C_LIMIT] = limit
    bm = 0
    for s in range(seats):
        if bonus[s] != 0:
            bm |= 1 << s
    cfg[C_BONUS_SEATS] = bm
    return cfg


@kernel
def max_points_batch_into(counts, trump, leader, side_mask, bonus, last_trick, tt, qt, gen, out, nodes, rule=0):
    """Kernel behind :func:`max_points_batch`, with the caller's tables (:func:`.table.new_table`,
    :func:`.quasi.new_quasi_table`) and node counts (``int64[n]``). ``gen`` (``int64[1]``): the last
    table generation used, 0 for new tables; each deal takes the next one, so the same tables can
    serve call after call without being cleared (zeroing 100+ MiB cost ~5 % of a corpus deal)."""
    n = counts.shape[0]
    seats = counts.shape[1]
    h1 = np.zeros(seats, dtype=np.int64)
    h2 = np.zeros(seats, dtype=np.int64)
    mv = np.zeros((MAX_PLY, MV_COLS), dtype=np.int64)
    stats = np.zeros(STATS_SIZE, dtype=np.int64)
    b = np.zeros(seats, dtype=np.int64)
    for i in range(n):
        gen[0] += 1
        if gen[0] > MAX_GEN:
            clear(tt)
            clear(qt)
            gen[0] = 1
        load_hands(counts[i], h1, h2)
        tleft = tricks_of(counts, i)
        for s in range(seats):
            b[s] = bonus[i, s] if (side_mask[i] >> s) & 1 else 0
        cfg = make_cfg(seats, trump[i], side_mask[i], side_mask[i], MODE_POINTS, last_trick, gen[0], b, rule)
        fresh_stats(stats)
        z = np.int64(0)
        m1 = np.int64(-1)
        out[i] = value(h1, h2, cfg, b, tt, qt, mv, stats, np.int64(leader[i]), z, m1, m1, m1, z, z, tleft)
        nodes[i] = stats[0]


@kernel
def max_points_batch(counts, trump, leader, side_mask, bonus, last_trick, rule=0):
    """Exact double-dummy value of many trick-start positions (all hands one size).

    ``counts`` uint8[n, seats, 24]; ``trump`` int8[n] (-1 none); ``leader`` int8[n];
    ``side_mask`` uint8[n] (bit s: seat s is on the soloist's side); ``bonus``
    int32[n, seats] (meld points a solo-side seat scores once it wins a trick);
    ``last_trick``: the last-trick bonus; ``rule``: the play-rules word
    (:func:`binokel_sim.play.legal.play_rule`). Returns int32[n]: max over the side's
    play, min over the defenders', of its card points + last trick + earned bonus.
    Callable from other kernels; releases the GIL. The tables are sized for the deals'
    length (:func:`.table.bits_for`).
    """
    n = counts.shape[0]
    out = np.zeros(n, dtype=np.int32)
    nodes = np.zeros(n, dtype=np.int64)
    bits = bits_for(tricks_of(counts, 0) if n > 0 else 0)
    tt = np.zeros((np.int64(1) << bits, TT_COLS), dtype=np.int64)
    qt = np.zeros((np.int64(1) << quasi_bits(bits), QROW), dtype=np.int64)
    max_points_batch_into(counts, trump, leader, side_mask, bonus, last_trick, tt, qt, np.zeros(1, np.int64), out,
                          nodes, rule)
    return out


@kernel(noalloc=True)
def move_values(h1, h2, cfg, bonus, tt, qt, mv, stats, p, pos, top, win, wseat, tpts, won, tleft, legal, out):
    """Exact value after each legal card of the player to move: ``out[c]`` for type ``c`` in ``legal``."""
    seats = cfg[C_SEATS]
    trump = cfg[C_TRUMP]
    z = np.int64(0)
    m1 = np.int64(-1)
    for c in range(24):
        bit = np.int64(1) << c
        if not legal & bit:
            continue
        if h2[p] & bit:
            h2[p] ^= bit
        else:
            h1[p] ^= bit
        if pos == 0 or beats(c, win, trump):
            nwin = c
            nws = p
        else:
            nwin = win
            nws = wseat
        ntop = c if pos == 0 or (c // 6 == top // 6 and c < top) else top
        ntp = tpts + POINTS[c]
        if pos + 1 == seats:
            g = trick_gain(cfg, bonus, nws, ntp, won, tleft)
            out[c] = g + value(h1, h2, cfg, bonus, tt, qt, mv, stats, nws, z, m1, m1, m1, z,
                               won | (np.int64(1) << nws), tleft - 1)
        else:
            out[c] = value(h1, h2, cfg, bonus, tt, qt, mv, stats, (p + 1) % seats, pos + 1, ntop, nwin, nws, ntp,
                           won, tleft)
        if h1[p] & bit:
            h2[p] |= bit
        else:
            h1[p] |= bit
