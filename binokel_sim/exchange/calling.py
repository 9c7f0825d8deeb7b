"""Calling a card (*Rufen*, docs/rules.md §4.4): the calls the soloist may make and what they do to the hands.

After taking the Tapp the soloist of a trump game may name a card (``calling.cards``: one of which he
holds no copy, or one he does not hold twice; with ``calling.meld_only`` only one that raises his
melds at some trump). The first opponent after him in playing order who holds it hands it over and
gets back a card of the soloist's choice, so every hand keeps its size. The cheap stage
(:func:`call_batch`) scores every call with every way of laying away: the pool plus the called card
loses ``tapp_size + 1`` cards, the one with the fewest card points goes back to the holder (the
others are the discard and count for the soloist), so a call is worth what the card adds to the kept
hand less the points handed back.

>>> import numpy as np
>>> from binokel_sim.cards import Hand
>>> from binokel_sim.rules import load_rules
>>> r = load_rules("calling")
>>> pool = Hand.parse("EA E10 EK EO GA GA G10 G10 HA HA H10 H10 SA SA S10 S10").counts[None]
>>> ok = callable_types(r, pool)
>>> from binokel_sim.cards import format_cards
>>> format_cards(np.nonzero(ok[0])[0])[:14]       # the acorn Unter (completes the family) is among them
'EU GK GO GU HK'
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import CARD_POINTS, N_TYPES, DECK_COUNTS
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import meld_total, totals_by_trump
from binokel_sim.rules import Rules

from .candidates import discard_buffer, enumerate_discards, fixed_discard_values, make_room


def call_limits(rules: Rules) -> np.ndarray:
    """Per card type, the count in hand + Tapp below which it may be called (0: never).

    >>> from binokel_sim.rules import load_rules
    >>> call_limits(load_rules("calling"))[:6].tolist(), int(call_limits(load_rules("standard")).sum())
    ([1, 1, 1, 1, 1, 0], 0)
    """
    out = np.zeros(N_TYPES, dtype=np.int64)
    if rules.calling.allowed:
        out[DECK_COUNTS[rules.layout.sevens] > 0] = 1 if rules.calling.cards == "absent" else 2
    return out


def callable_types(rules: Rules, pools: np.ndarray) -> np.ndarray:
    """bool[n, 24]: the card types the soloist may call with ``pools`` (hand + Tapp, uint8[n, 24])."""
    ok = pools < call_limits(rules)[None, :]
    if rules.calling.meld_only:
        table = rules.meld_array()
        before = np.empty(4, dtype=np.int64)
        after = np.empty(4, dtype=np.int64)
        for i, j in zip(*np.nonzero(ok)):
            p = np.array(pools[i], dtype=np.uint8)  # a copy: the pool itself must not change
            totals_by_trump(p, table, before)
            p[j] += 1
            totals_by_trump(p, table, after)
            ok[i, j] = bool((after > before).any())
    return ok


@kernel
def _give_back(laid, call):
    """The card of ``laid`` (not the called one) with the fewest card points; of equals the highest type."""
    best = -1
    for c in range(24):
        if laid[c] == 0 or c == call:
            continue
        if best < 0 or CARD_POINTS[c] <= CARD_POINTS[best]:
            best = c
    return best


@kernel
def call_bound(work, removed, trump, table, weights, mode):
    """At least what any way of laying ``removed`` cards of ``work`` away (one handed back) is worth at
    ``trump`` (:func:`~binokel_sim.exchange.candidates.candidate_value`): the melds of every card of
    ``work`` (a meld table never falls when a card is added, docs/rules.md §5), its ``removed - 1``
    dearest cards as discard points, and in mode 1 each play feature at its most."""
    pts = np.empty(48, dtype=np.int64)
    n = 0
    for c in range(24):
        for _ in range(work[c]):
            pts[n] = CARD_POINTS[c]
            n += 1
    top = np.sort(pts[:n])
    v = np.float64(meld_total(work, trump, table) + top[n - removed + 1:].sum())
    if mode == 1:
        kept = n - removed
        t = trump * 6
        side = np.empty(3, dtype=np.int64)
        aces = 0
        tens = 0
        k = 0
        for s in range(4):
            b = s * 6
            if s != trump:
                aces += work[b]
                tens += min(work[b + 1], work[b])
                side[k] = work[b] + work[b + 1] + work[b + 2] + work[b + 3] + work[b + 4] + work[b + 5]
                k += 1
        # Most voids: empty the shortest side suits while the laid cards last.
        voids = 0
        left = removed
        for x in np.sort(side):
            if x <= left:
                left -= x
                voids += 1
        f = np.empty(6, dtype=np.float64)  # the features of candidates.play_features, each at its most
        f[0] = 1.0
        f[1] = min(work[t] + work[t + 1] + work[t + 2] + work[t + 3] + work[t + 4] + work[t + 5], kept)
        f[2] = min(work[t] + work[t + 1], kept)
        f[3] = min(aces, kept)
        f[4] = min(tens, kept)
        f[5] = voids
        play = weights[0]
        for i in range(1, 6):
            if weights[i] > 0:  # features are never negative: a negative weight's term is at most 0
                play += weights[i] * f[i]
        v += max(play, 0.0)
    return v + 1e-6  # a hair above: rounding can never make the bound cut a candidate it should keep


@kernel
def call_per_trump(pool, ok, dsize, table, weights, mode, floor, discs, out_disc, out_value, out_call, out_give):
    """For each trump the ``per`` best calls with their discards (``out_disc[4, per, 24]``, ``out_value``,
    ``out_call``/``out_give`` ``[4, per]``); unused slots value -inf. Ties keep the call and discard found first.

    A call whose :func:`call_bound` at a trump is no better than the ``per``-th value kept there is not
    scored at that trump (none of its candidates could enter); where that holds at all four, its laid
    cards are not enumerated. The result is the same as scoring everything. ``floor`` > -inf asks only for
    the best candidate over all trumps, given one of value ``floor`` without a call: a call is also skipped
    where its bound is no better than ``floor`` or than the best call found at any trump, so the other
    trumps' slots may miss candidates that could not be the best (-inf: every trump's own best)."""
    per = out_value.shape[1]
    for t in range(4):
        for j in range(per):
            out_value[t, j] = -np.inf
            out_call[t, j] = -1
            out_give[t, j] = -1
    work = pool.copy()
    kept = np.empty(24, dtype=np.uint8)
    bound = np.empty(4, dtype=np.float64)
    vals = np.empty(4, dtype=np.float64)
    for call in range(24):
        if not ok[call]:
            continue
        work[call] += 1
        live = False
        for t in range(4):
            bound[t] = call_bound(work, dsize + 1, t, table, weights, mode)
            live = live or bound[t] > max(out_value[t, per - 1], floor)
        if not live:
            work[call] -= 1
            continue
        m = enumerate_discards(work, dsize + 1, discs)
        for i in range(m):
            give = _give_back(discs[i], call)
            dp = np.int64(0)
            for c in range(24):
                kept[c] = work[c] - discs[i, c]
                dp += CARD_POINTS[c] * discs[i, c]
            dp -= CARD_POINTS[give]
            fixed_discard_values(kept, dp, table, weights, mode, vals)
            for t in range(4):
                if vals[t] < floor:  # cannot be the best over all trumps (ties with it are kept)
                    continue
                j = make_room(out_value[t], out_disc[t], vals[t])
                if j < 0:
                    continue
                for k in range(per - 1, j, -1):  # the call and the card handed back move with their discard
                    out_call[t, k] = out_call[t, k - 1]
                    out_give[t, k] = out_give[t, k - 1]
                out_call[t, j] = call
                out_give[t, j] = give
                for c in range(24):
                    out_disc[t, j, c] = discs[i, c]
                out_disc[t, j, give] -= 1
                floor = max(floor, vals[t]) if floor > -np.inf else floor
        work[call] -= 1


@kernel
def call_batch(pools, ok, dsize, table, weights, mode, floors, out_disc, out_value, out_call, out_give):
    """:func:`call_per_trump` for every row of ``pools`` (uint8[n, 24]), ``ok`` (bool[n, 24]) and ``floors``
    (float64[n]; -inf: every trump's best)."""
    grown = pools[:1].copy()
    grown[0, 0] += 1  # one card more than the pool: the scratch must hold every discard of pool + call
    discs = discard_buffer(grown, dsize + 1)
    for i in range(pools.shape[0]):
        call_per_trump(pools[i], ok[i], dsize, table, weights, mode, floors[i], discs, out_disc[i], out_value[i],
                       out_call[i], out_give[i])


def swap_call(pools: np.ndarray, call: np.ndarray, give: np.ndarray) -> np.ndarray:
    """The soloist's pools (uint8[n, 24]) with each row's called card in and the card handed back out
    (rows with ``call < 0`` unchanged). A copy.

    >>> swap_call(np.array([[1, 0, 2]], np.uint8), np.array([1]), np.array([2])).tolist()
    [[1, 1, 1]]
    """
    out = np.array(pools, dtype=np.int64)
    rows = np.nonzero(np.asarray(call) >= 0)[0]
    np.add.at(out, (rows, np.asarray(call)[rows]), 1)
    np.add.at(out, (rows, np.asarray(give)[rows]), -1)
    return out.astype(np.uint8)


def apply_calls(hands: np.ndarray, seat: int | np.ndarray, call: np.ndarray, give: np.ndarray) -> np.ndarray:
    """The hands (uint8[n, seats, 24]) after each row's call: the first opponent after ``seat`` (per row or
    one for all) in playing order who holds ``call`` gives it and gets ``give``. Rows with ``call < 0`` and
    the soloist's own row are unchanged (the callers put his kept cards there). A copy."""
    out = hands.copy()
    n, seats = hands.shape[0], hands.shape[1]
    sol = np.broadcast_to(np.asarray(seat, dtype=np.int64), (n,))
    for i in np.nonzero(np.asarray(call) >= 0)[0]:
        c, g = int(call[i]), int(give[i])
        for k in range(1, seats):
            s = (int(sol[i]) + k) % seats
            if out[i, s, c] > 0:
                out[i, s, c] -= 1
                out[i, s, g] += 1
                break
        else:
            raise AssertionError(f"called card type {c} is in no opponent's hand")
    return out
