"""The two-seat endgame search: two-hand Binokel after the talon is exhausted (docs/rules.md §10).

With two seats a trick is one lead and one answer, so the search moves by whole tricks:
each node is a trick start (seat 0's and seat 1's remaining cards, the player on lead)
and its value is the card points seat 0 wins from there, last trick included. Within a
node the leader's cards and the follower's legal answers are searched as pairs
(fail-soft alpha-beta; the follower's loop is the inner minimum or maximum), so the
transposition table holds trick starts only.

*State.* Each seat is two 24-bit masks over card types (``h1``: holds one or more,
``h2``: holds two): identical cards are one move. The table key is both seats' masks
and the leader (two int64 words, stored whole: no false hits).

*Bounds.* At a node seat 0's value lies in ``[0, R]`` (``R``: points left plus the last
trick), narrowed after the table probe (which settles most windows alone) by two
quick bounds. Sure trump tricks: a trump of one seat ranked above every trump of the
other (and not held by it too) wins its trick however it is played -- led, it cannot
be beaten; following, it beats whatever was led, since the other seat holds no trump
that could; each such trick also brings one of the other seat's cards, at least its
cheapest. Cashing, for the seat on lead: in each suit its cards ranked at or above all
of the other seat's (of two identical cards the first played wins), as many as the
other seat can follow when it holds a trump to ruff with; the leader keeps the lead
throughout, so the suits add up (and the last trick, if they take every trick). Seat 0
gets at least its own sure points, at most ``R`` minus seat 1's. (The bounds cut few
nodes, 24.9k -> 24.5k median on 100 endgames; the table does most of the work.)

*Driver.* Bisection on zero-window tests (~6.6 per endgame): 100 endgames, median
trick starts 18.3k / mean 26.6k against 23.9k / 37.4k for one full window; MTD(f) from 125 and first
guesses at 35 % / 65 % of the interval were no better.

*Legal moves* come from :func:`binokel_sim.twohand.legal.legal_twohand`, the one
function for both phases: with ``must_head`` false the follower only follows suit,
else trumps.

*Ordering.* The table's best lead first; then leads the follower cannot beat (most
points first), then the others (fewest points first), trumps after other suits in each
group. Answers: the cheapest card that takes the trick, else the cheapest card, a
trump last. (Trick starts on 100 endgames, median / mean: 24.9k / 43.9k with the
answers by immediate swing, 23.1k / 33.1k cheapest winner first, 19.2k / 28.1k trumps
led last.)

>>> import numpy as np
>>> from binokel_sim.cards import parse_cards, counts_of
>>> hands = (counts_of(parse_cards("EA E10")), counts_of(parse_cards("EK GA")))
>>> TwoSeatSearch().value(hands, trump=1, leader=0)   # EA takes EK; GA trumps E10 in the last trick
15
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import N_TYPES
from binokel_sim.errors import InputError
from binokel_sim.jit import kernel
from binokel_sim.play.legal import HIGHER_MASK, SUIT_MASK, beats
from binokel_sim.twohand.legal import legal_twohand
from binokel_sim.twohand.quick import PTS, cash, type_of, points_left, popcount, put, sure_trumps, take

#: Table rows (a power of two); one row per trick start, always replaced.
TABLE_BITS = 17
_NOVAL = -10_000

@kernel(noalloc=True)
def _order(cards, score, n):
    # insertion sort, highest score first (n <= 12)
    for i in range(1, n):
        c = cards[i]
        s = score[i]
        j = i - 1
        while j >= 0 and score[j] < s:
            cards[j + 1] = cards[j]
            score[j + 1] = score[j]
            j -= 1
        cards[j + 1] = c
        score[j + 1] = s


@kernel(noalloc=True)
def _last(h, leader, rest, trump):
    a = type_of(h[2 * leader])
    b = type_of(h[2 - 2 * leader])
    return rest if (1 - leader if beats(b, a, trump) else leader) == 0 else 0


@kernel(noalloc=True)
def _two(h, leader, rest, trump, must_head, pts):
    """Seat 0's points from a trick start with two tricks left (plain minimax, no table)."""
    f = 1 - leader
    best = -1 if leader == 0 else 1 << 20
    x = h[2 * leader]
    while x:
        abit = x & -x
        x ^= abit
        a = type_of(abit)
        take(h, leader, abit)
        inner = 1 << 20 if leader == 0 else -1
        y = legal_twohand(h[2 * f], a, a, trump, False, must_head)
        while y:
            bbit = y & -y
            y ^= bbit
            b = type_of(bbit)
            take(h, f, bbit)
            w = f if beats(b, a, trump) else leader
            gain = pts[a] + pts[b] if w == 0 else 0
            v = gain + _last(h, w, rest - pts[a] - pts[b], trump)
            put(h, f, bbit)
            if (leader == 0 and v < inner) or (leader == 1 and v > inner):
                inner = v
        put(h, leader, abit)
        if (leader == 0 and inner > best) or (leader == 1 and inner < best):
            best = inner
    return best


@kernel(noalloc=True)
def search(h, leader, rest, alpha, beta, trump, must_head, last, tag, pts, keys, lohi, best, work, stats):
    """Seat 0's points from this trick start (fail-soft within ``alpha``, ``beta``); ``rest``: the
    points still in the hands plus the last trick's bonus.

    ``h``: int64[4] = seat 0's h1, h2, seat 1's h1, h2 (changed and restored); ``keys``
    int64[rows, 2], ``lohi`` int16[rows, 2], ``best`` int8[rows]: the table; ``work``
    int64[13, 48]: per-depth move lists; ``stats[0]`` counts nodes. ``tag``: trump, heading and
    last-trick bonus as key bits (table entries are facts about a state under those rules).
    """
    stats[0] += 1
    follower = 1 - leader
    n = popcount(h[0]) + popcount(h[1])
    if n == 1:
        return _last(h, leader, rest, trump)
    if n == 2:
        return _two(h, leader, rest, trump, must_head, pts)
    k0 = h[0] | (h[1] << 24) | (np.int64(leader) << 48)
    k1 = h[2] | (h[3] << 24) | tag
    row = ((k0 * np.int64(0x9E3779B97F4A7C15)) ^ (k1 * np.int64(0xC2B2AE3D27D4EB4F))) >> (64 - TABLE_BITS)
    row &= (np.int64(1) << TABLE_BITS) - 1
    # the table first: it settles most windows alone; then the quick bounds
    lo = 0
    hi = rest
    hint = -1
    if keys[row, 0] == k0 and keys[row, 1] == k1:
        lo = lohi[row, 0]
        hi = lohi[row, 1]
        hint = best[row]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
    if leader == 0:
        qlo = cash(h[0], h[1], h[2], h[3], trump, pts, last, n)
        qhi = rest - sure_trumps(h[2], h[3], h[0], h[1], trump, pts)
    else:
        qlo = sure_trumps(h[0], h[1], h[2], h[3], trump, pts)
        qhi = rest - cash(h[2], h[3], h[0], h[1], trump, pts, last, n)
    if qlo > lo:
        lo = qlo
    if qhi < hi:
        hi = qhi
    if lo >= beta or lo == hi:
        return lo
    if hi <= alpha:
        return hi
    a0 = alpha if alpha > lo else lo
    b0 = beta if beta < hi else hi
    # the leader's cards, ordered
    cards = work[n]
    score = work[n, 24:]
    cnt = 0
    x = h[2 * leader]
    opp = h[2 * follower]
    while x:
        bit = x & -x
        c = type_of(bit)
        x ^= bit
        # can the follower take it: a higher card of the suit, or void and holding a trump
        beaten = (opp & HIGHER_MASK[c]) != 0 or (c // 6 != trump and (opp & SUIT_MASK[c // 6]) == 0
                                                 and (opp & SUIT_MASK[trump]) != 0)
        cards[cnt] = c
        if c == hint:
            score[cnt] = 1000
        elif beaten:
            score[cnt] = -pts[c] - 20 * (c // 6 == trump)
        else:
            score[cnt] = 100 + pts[c] - 20 * (c // 6 == trump)
        cnt += 1
    _order(cards, score, cnt)
    maxing = leader == 0
    res = _NOVAL if maxing else -_NOVAL
    mv = -1
    for i in range(cnt):
        a = cards[i]
        abit = np.int64(1) << a
        take(h, leader, abit)
        lo_w = a0 if not maxing or res <= a0 else res
        hi_w = b0 if maxing or res >= b0 else res
        # the answers, ordered by the follower's immediate swing
        legal = legal_twohand(h[2 * follower], a, a, trump, False, must_head)
        ans = work[n, 12:]
        asc = work[n, 36:]
        m = 0
        y = legal
        while y:
            bb = y & -y
            b = type_of(bb)
            y ^= bb
            ans[m] = b
            asc[m] = 100 + (b % 6) if beats(b, a, trump) else -pts[b] - (b // 6 == trump) * 8
            m += 1
        _order(ans, asc, m)
        inner = -_NOVAL if maxing else _NOVAL
        for j in range(m):
            b = ans[j]
            bbit = np.int64(1) << b
            take(h, follower, bbit)
            w = follower if beats(b, a, trump) else leader
            gain = pts[a] + pts[b] if w == 0 else 0
            v = gain + search(h, w, rest - pts[a] - pts[b], lo_w - gain, hi_w - gain, trump, must_head, last,
                              tag, pts, keys, lohi, best, work, stats)
            put(h, follower, bbit)
            if maxing:
                if v < inner:
                    inner = v
                if inner <= lo_w:
                    break
            else:
                if v > inner:
                    inner = v
                if inner >= hi_w:
                    break
        put(h, leader, abit)
        if (maxing and inner > res) or (not maxing and inner < res):
            res = inner
            mv = a
        if (maxing and res >= b0) or (not maxing and res <= a0):
            break
    # store: the result bounds the value from below (>= b0), above (<= a0) or exactly
    if res >= b0:
        if res > lo:
            lo = res
    elif res <= a0:
        if res < hi:
            hi = res
    else:
        lo = res
        hi = res
    keys[row, 0] = k0
    keys[row, 1] = k1
    lohi[row, 0] = lo
    lohi[row, 1] = hi
    best[row] = mv
    return res


def _masks(hands) -> np.ndarray:
    h = np.zeros(4, dtype=np.int64)
    for s in range(2):
        for c in range(N_TYPES):
            if hands[s][c] > 0:
                h[2 * s] |= 1 << c
            if hands[s][c] > 1:
                h[2 * s + 1] |= 1 << c
    return h


class TwoSeatSearch:
    """Exact two-seat endgame values (seat 0's card points), one table kept across solves.

    Table entries are facts about a state under (trump, heading, last-trick bonus), all in
    the key, so one object serves any number of endgames; :meth:`reset` empties it (for
    timing on a fresh table). ``nodes``: trick starts searched by the last call.
    """

    def __init__(self) -> None:
        rows = 1 << TABLE_BITS
        self.keys = np.zeros((rows, 2), dtype=np.int64)
        self.lohi = np.zeros((rows, 2), dtype=np.int16)
        self.best = np.full(rows, -1, dtype=np.int8)
        self.work = np.zeros((13, 48), dtype=np.int64)
        self.stats = np.zeros(1, dtype=np.int64)
        self.nodes = 0

    def reset(self) -> None:
        """Empty the table."""
        self.keys[:] = 0

    def _run(self, h: np.ndarray, leader: int, trump: int, must_head: bool, last: int) -> int:
        # Bisection on zero-window tests: fewer nodes than one full window (see *Driver* above).
        tag = (np.int64(trump + 1) << 48) | (np.int64(bool(must_head)) << 51) | (np.int64(last) << 52)
        rest = int(points_left(h, PTS)) + last
        lo, hi = 0, rest
        while lo < hi:
            t = (lo + hi + 1) // 2
            v = int(search(h, np.int64(leader), np.int64(rest), np.int64(t - 1), np.int64(t), np.int64(trump),
                           bool(must_head), np.int64(last), tag, PTS, self.keys, self.lohi, self.best, self.work,
                           self.stats))
            if v >= t:
                lo = v
            else:
                hi = v
        return lo

    def value(self, hands, trump: int, leader: int, trick=(), last: int = 10, must_head: bool = True) -> int:
        """Seat 0's points from here (the cards of ``trick``, at most the lead, included).

        ``hands``: two count vectors (24 card types); both hold the same number of cards
        after the trick's cards are taken into account.
        """
        h = _masks(hands)
        n = [int(np.sum(hands[s])) for s in range(2)]
        if not 0 <= trump < 4:
            raise InputError(f"two-seat endgame: trump must be a suit 0..3, got {trump}")
        if len(trick) > 1 or n[leader] + len(trick) != n[1 - leader] or n[1 - leader] == 0:
            raise InputError(f"two-seat endgame: hands of {n[0]} and {n[1]} cards do not fit a trick of {len(trick)}")
        self.stats[0] = 0
        if not trick:
            v = self._run(h, leader, trump, must_head, last)
        else:
            v = self._answers(h, hands, int(trick[0]), leader, trump, must_head, last)[1]
        self.nodes = int(self.stats[0])
        return v

    def _answers(self, h, hands, a: int, leader: int, trump: int, must_head: bool, last: int):
        """Seat 0's value after each legal answer to lead ``a`` (dict), and the best of them."""
        f = 1 - leader
        legal = int(legal_twohand(h[2 * f], a, a, trump, False, must_head))
        out = {}
        final = int(np.sum(hands[f])) == 1
        for b in range(N_TYPES):
            if not legal >> b & 1:
                continue
            w = f if beats(b, a, trump) else leader
            gain = int(PTS[a] + PTS[b]) + (last if final else 0) if w == 0 else 0
            if final:
                out[b] = gain
                continue
            g = h.copy()
            take(g, f, np.int64(1) << b)
            out[b] = gain + self._run(g, w, trump, must_head, last)
        return out, (max if f == 0 else min)(out.values())

    def card_values(self, hands, trump: int, leader: int, trick=(), last: int = 10,
                    must_head: bool = True) -> dict[int, int]:
        """Seat 0's value after each legal card of the player to move (card type -> points)."""
        self.value(hands, trump, leader, trick, last, must_head)
        h = _masks(hands)
        if trick:
            return self._answers(h, hands, int(trick[0]), leader, trump, must_head, last)[0]
        out = {}
        for a in range(N_TYPES):
            if hands[leader][a] > 0:
                g = h.copy()
                take(g, leader, np.int64(1) << a)
                out[a] = self._answers(g, hands, a, leader, trump, must_head, last)[1]
        return out

    def line(self, hands, trump: int, leader: int, last: int = 10,
             must_head: bool = True) -> tuple[list[int], list[int]]:
        """Trick winners and trick points (last trick included) along an exact line from a trick
        start: each seat plays the first card, in card-type order, that keeps seat 0's value
        (the line :func:`binokel_sim.game.cardplay.play_line` plays)."""
        hands = [np.array(h, dtype=np.int64) for h in hands]
        need = self.value(hands, trump, leader, (), last, must_head)
        winners: list[int] = []
        points: list[int] = []
        for _ in range(int(hands[0].sum())):
            a = min(c for c, v in self.card_values(hands, trump, leader, (), last, must_head).items() if v == need)
            hands[leader][a] -= 1
            b = min(c for c, v in self.card_values(hands, trump, leader, (a,), last, must_head).items() if v == need)
            hands[1 - leader][b] -= 1
            w = 1 - leader if beats(b, a, trump) else leader
            p = int(PTS[a] + PTS[b]) + (last if not hands[0].any() else 0)
            winners.append(w)
            points.append(p)
            need -= p if w == 0 else 0
            leader = w
        return winners, points
