"""Worlds for a seat: deals of the cards it has not seen, consistent with all it knows, drawn without bias.

A *world* gives every other seat its cards now and, where the seat does not know them, the soloist's
discards (the *pile*). It is consistent with a :class:`~binokel_sim.play.knowledge.Knowledge` when every
hand has its size, holds no card the trick rules ruled out, together with the cards it played holds the
melds its seat declared and no other (docs/rules.md §6.1), and -- for a seat that saw the Tapp turned up
but not the discards -- the soloist's cards and the pile hold the Tapp, and the pile's trumps are the ones
announced where the rules announce them (``discard.trumps_shown``).

Which distribution: the posterior of a uniformly shuffled deck given what the seat saw, with the
soloist's discards any of its cards alike (the exchange policy, the bidding and the players' choices of
play are not modelled). Over the worlds as count vectors this weighs each by its number of deals of the
physical cards (the two copies of a card told apart): per card type the multinomial ``U! / prod(X_h!)`` of
the holders' original counts ``X_h`` (played cards included), or ``(U - T)! S! / ((S - T)! prod(X_h!))``
where ``T`` of the ``U`` copies are the Tapp's and must lie among the ``S`` copies of the soloist and the
pile (the tests count the labelled deals by brute force).

How: a dynamic programme over the 24 card types counts, for every vector of remaining capacities, the
weighted completions (:func:`count_table`); a world is then drawn type by type with probabilities
proportional to those counts (:func:`draw_worlds`), from one uniform integer below the total -- exact
integer arithmetic wherever the total is below 2**53 (every view of the 40-card and 48-card three-seat
presets; the first tricks of four-seat 48-card views exceed it and carry a relative rounding error below
1e-15). The melds' "no other meld" is then checked and a world that fails it drawn again: rejection from
the exact distribution over a superset is the exact distribution over the subset.

Seeding: the worlds of decision ``i`` (cards played so far) of deal ``d`` come from counter ``i`` of the key
of (seed, stream ``single_dummy`` ``d``) (:mod:`binokel_sim.streams`), so they depend on nothing else.

>>> from binokel_sim.cards import counts_of, parse_cards
>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.play.knowledge import PlayState
>>> h = [counts_of(parse_cards(t)) for t in ("EA EK", "E10 EU", "EO GA")]
>>> st = PlayState.start(load_rules("standard"), h, pile=counts_of([]), tapp=None, trump=-1, soloist=0,
...                      ending=True)
>>> v = st.view(0)
>>> count(v)                     # EA-less: 4 cards E10 EU EO GA into two hands of two, weighted
6.0
>>> w = sample(v, 3, world_key(1, 0))
>>> w.hands.shape, all(consistent(v, w.hands[i], w.pile[i]) for i in range(3))
((3, 3, 24), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim import streams
from binokel_sim.jit import kernel
from binokel_sim.play.knowledge import Knowledge, shown_counts, trumps_of
from binokel_sim.rng import derive_key, next_u64, stream_start

__all__ = ["Worlds", "consistent", "count", "count_table", "draw_worlds", "sample", "world_key"]

#: A world that keeps failing the melds check this often in a row means the knowledge is contradictory.
MAX_TRIES = 2_000_000
_EXACT = 2.0 ** 53


@kernel
def _splits(c, u, allow, lb, base, tapp, solo, pile, xs, ws):
    """Ways to place the ``u`` (0..2) unseen copies of type ``c`` on the holders, with their weights."""
    hn = allow.shape[0]
    n = 0
    for h in range(hn):
        for k in range(h, hn):
            for x in range(hn):
                xs[n, x] = 0
            if u == 0:
                if h > 0 or k > 0:
                    continue
            elif u == 1:
                if k != h:
                    continue
                xs[n, h] = 1
            else:
                xs[n, h] += 1
                xs[n, k] += 1
            ok = True
            den = np.int64(1)
            tot = np.int64(0)
            for x in range(hn):
                tot += xs[n, x] + base[x, c]
                if xs[n, x] > 0 and not allow[x, c]:
                    ok = False
                if xs[n, x] < lb[x, c]:
                    ok = False
                t = xs[n, x] + base[x, c]
                den *= 2 if t == 2 else 1
            if not ok:
                continue
            # Deals of the labelled copies: U! / prod(X!) (2 ways to split two copies, else 1); where T of them
            # are the Tapp's, among the S copies of the soloist and the pile: (U - T)! S! / ((S - T)! prod(X!)),
            # with U <= 2 that is S! / (S - T)! / prod(X!).
            w = 2 // den if tot == 2 else np.int64(1)
            if tapp[c] > 0 and solo >= 0:
                s = xs[n, solo] + base[solo, c] + (xs[n, pile] + base[pile, c] if pile >= 0 else 0)
                if s < tapp[c]:
                    continue
                w = (s if tapp[c] == 1 else s * (s - 1)) // den
            ws[n] = w
            n += 1
    return n


@kernel
def _decode(s, stride, r):
    """Write into ``r`` the per-holder room left in state index ``s`` (mixed radix ``stride``)."""
    rest = s
    for h in range(r.shape[0] - 1, -1, -1):
        r[h] = rest // stride[h]
        rest -= r[h] * stride[h]


@kernel
def _child(s, xs, j, r, stride):
    """State index after split ``j`` (``xs[j]`` cards to each holder) from state ``s`` with room ``r``,
    or -1 where a holder has no room for its share."""
    idx = s
    for h in range(r.shape[0]):
        if xs[j, h] > r[h]:
            return -1
        idx -= xs[j, h] * stride[h]
    return idx


@kernel
def count_table(pool, caps, allow, lb, base, tapp, solo, pile):
    """``f[c, r]``: weighted ways to place the unseen cards of types ``c..23`` on holders with remaining
    capacities ``r`` (mixed radix ``caps + 1``). ``allow``/``lb``/``base``: int64[holders, 24] (type
    allowed, copies at least, copies already played); ``solo``/``pile``: holder indices or -1."""
    hn = caps.shape[0]
    stride = np.ones(hn, dtype=np.int64)
    for h in range(1, hn):
        stride[h] = stride[h - 1] * (caps[h - 1] + 1)
    size = stride[hn - 1] * (caps[hn - 1] + 1)
    f = np.zeros((25, size), dtype=np.float64)
    f[24, 0] = 1.0
    xs = np.zeros((16, hn), dtype=np.int64)
    ws = np.zeros(16, dtype=np.int64)
    r = np.zeros(hn, dtype=np.int64)
    for c in range(23, -1, -1):
        n = _splits(c, pool[c], allow, lb, base, tapp, solo, pile, xs, ws)
        for s in range(size):
            _decode(s, stride, r)
            tot = 0.0
            for j in range(n):
                idx = _child(s, xs, j, r, stride)
                if idx >= 0:
                    tot += ws[j] * f[c + 1, idx]
            f[c, s] = tot
    return f


@kernel
def _below(state, total):
    """(state, R): R uniform below ``total`` -- an exact integer draw where total < 2**53, else a float."""
    if total < 2.0 ** 53:
        t = np.uint64(total)
        thr = (np.uint64(0) - t) % t
        while True:
            state, x = next_u64(state)
            if x >= thr:
                return state, np.float64(x % t)
    state, x = next_u64(state)
    return state, np.float64(x >> np.uint64(11)) * (1.0 / 2.0 ** 53) * total


@kernel
def draw_worlds(key0, key1, index, f, pool, caps, allow, lb, base, tapp, solo, pile, check, shown, trump, table,
                max_tries, out):
    """Fill ``out`` (uint8[W, holders, 24]) with W worlds from counter ``index``; returns the draws made
    (W plus the ones the melds check rejected), or -1 after ``max_tries`` rejections in a row."""
    hn = caps.shape[0]
    stride = np.ones(hn, dtype=np.int64)
    for h in range(1, hn):
        stride[h] = stride[h - 1] * (caps[h - 1] + 1)
    start = np.int64(0)
    for h in range(hn):
        start += caps[h] * stride[h]
    xs = np.zeros((16, hn), dtype=np.int64)
    ws = np.zeros(16, dtype=np.int64)
    hand = np.zeros(24, dtype=np.uint8)
    r = np.zeros(hn, dtype=np.int64)
    state = stream_start(key0, key1, np.uint64(index))
    exact = f[0, start] < 2.0 ** 53
    draws = np.int64(0)
    for w in range(out.shape[0]):
        fails = 0
        while True:
            draws += 1
            state, rr = _below(state, f[0, start])
            s = start
            for c in range(24):
                n = _splits(c, pool[c], allow, lb, base, tapp, solo, pile, xs, ws)
                _decode(s, stride, r)
                pick = -1
                nxt = s
                for j in range(n):
                    idx = _child(s, xs, j, r, stride)
                    if idx < 0:
                        continue
                    wt = ws[j] * f[c + 1, idx]
                    if wt <= 0.0:
                        continue
                    # The last positive split takes what rounding leaves over (float mode only).
                    pick = j
                    nxt = idx
                    if rr < wt:
                        break
                    rr -= wt
                if pick >= 0:
                    # rr is uniform below ws * f[c + 1]: each completion is ws labelled deals, so the next
                    # type draws from rr // ws (exactly uniform below f[c + 1]; a division in float mode).
                    rr = np.floor(rr / ws[pick]) if exact else rr / ws[pick]
                for h in range(hn):
                    out[w, h, c] = xs[pick, h] if pick >= 0 else 0
                s = nxt
            good = True
            for h in range(hn):
                if check[h]:
                    for c in range(24):
                        hand[c] = out[w, h, c] + base[h, c]
                    got = shown_counts(hand, trump, table)
                    for c in range(24):
                        if got[c] != shown[h, c]:
                            good = False
            if good:
                break
            fails += 1
            if fails >= max_tries:
                return np.int64(-1)
    return draws


@dataclass(frozen=True)
class Worlds:
    """Drawn worlds: ``hands`` uint8[W, seats, 24] (every seat's cards now, the viewer's own included) and
    ``pile`` uint8[W, 24] (the discards: known, or drawn); ``draws``: draws made, rejections included."""

    hands: np.ndarray
    pile: np.ndarray
    draws: int


def _holders(k: Knowledge) -> tuple[list[int], int]:
    """Seats holding unseen cards (the others), and the pile's holder index (-1 where the seat knows it)."""
    seats = [s for s in range(k.seats) if s != k.seat]
    return seats, (len(seats) if k.pile is None else -1)


def _problem(k: Knowledge):
    seats, pile = _holders(k)
    hn = len(seats) + (pile >= 0)
    allow = np.ones((hn, 24), dtype=np.int64)
    lb = np.zeros((hn, 24), dtype=np.int64)
    base = np.zeros((hn, 24), dtype=np.int64)
    shown = np.zeros((hn, 24), dtype=np.uint8)
    check = np.zeros(hn, dtype=np.int64)
    caps = np.zeros(hn, dtype=np.int64)
    for h, s in enumerate(seats):
        allow[h] = [0 if (k.forbidden[s] >> c) & 1 else 1 for c in range(24)]
        base[h] = k.played[s]
        caps[h] = k.held[s]
        if k.shown is not None:
            shown[h] = k.shown[s]
            check[h] = 1
            lb[h] = np.maximum(k.shown[s].astype(np.int64) - k.played[s], 0)
    if pile >= 0:
        caps[pile] = k.pile_size
        if k.pile_trumps is not None:
            # Announced: those trumps lie in the pile (as a seat's played cards lie in its count), no other.
            base[pile] = k.pile_trumps
            caps[pile] -= int(k.pile_trumps.sum())
            allow[pile, k.trump * 6:k.trump * 6 + 6] = 0
    pool = k.unseen()
    if (pool < 0).any() or pool.sum() != caps.sum():
        raise ValueError("inconsistent knowledge: the unseen cards do not fill the other hands")
    # Only a seat that saw the Tapp turned up but not the discards learns from it.
    tapp = (k.tapp.astype(np.int64) if k.tapp is not None and pile >= 0 and k.seat != k.soloist
            else np.zeros(24, dtype=np.int64))
    solo = seats.index(k.soloist) if k.soloist in seats else -1
    return (pool, caps, allow, lb, base, tapp, np.int64(solo), np.int64(pile)), check, shown


def count(k: Knowledge) -> float:
    """Weighted count of the worlds that meet every constraint but the melds' "no other meld" (the DP's total)."""
    args, _, _ = _problem(k)
    return float(count_table(*args)[0, -1])


def world_key(seed: int, deal: int) -> tuple[np.uint64, np.uint64]:
    """The key of deal ``deal``'s worlds under ``seed`` (stream ``single_dummy``)."""
    return derive_key(seed, *streams.stream("single_dummy", deal))


def sample(k: Knowledge, n: int, key: tuple[np.uint64, np.uint64], index: int | None = None) -> Worlds:
    """``n`` worlds for ``k`` from counter ``index`` (default ``k.decision``) of ``key`` (:func:`world_key`)."""
    args, check, shown = _problem(k)
    f = count_table(*args)
    if f[0, -1] <= 0:
        raise ValueError("inconsistent knowledge: no world fits what the seat knows")
    hn = args[1].shape[0]
    out = np.zeros((n, hn, 24), dtype=np.uint8)
    draws = draw_worlds(key[0], key[1], np.int64(k.decision if index is None else index), f, *args, check, shown,
                        np.int64(k.trump), k.table, np.int64(MAX_TRIES), out)
    if draws < 0:
        raise ValueError("inconsistent knowledge: no drawn world matches the declared melds")
    seats, pile = _holders(k)
    hands = np.zeros((n, k.seats, 24), dtype=np.uint8)
    hands[:, k.seat] = k.hand
    for h, s in enumerate(seats):
        hands[:, s] = out[:, h]
    piles = out[:, pile] + args[4][pile].astype(np.uint8) if pile >= 0 else \
        np.repeat(np.asarray(k.pile, dtype=np.uint8)[None], n, axis=0)
    return Worlds(hands, np.ascontiguousarray(piles), int(draws))


def consistent(k: Knowledge, hands: np.ndarray, pile: np.ndarray) -> bool:
    """Does the world (every seat's cards now, the discards) fit everything ``k`` knows? Written from the
    rules, independent of the sampler, which the tests check against it."""
    hands = np.asarray(hands, dtype=np.int64)
    pile = np.asarray(pile, dtype=np.int64)
    if not (hands[k.seat] == k.hand).all() or (k.pile is not None and not (pile == k.pile).all()):
        return False
    if k.pile is None and k.pile_trumps is not None and not (trumps_of(pile, k.trump) == k.pile_trumps).all():
        return False
    if int(pile.sum()) != k.pile_size or any(int(hands[s].sum()) != k.held[s] for s in range(k.seats)):
        return False
    if not (hands.sum(axis=0) + pile + k.played.sum(axis=0) == k.deck).all():
        return False
    for s in range(k.seats):
        if any(hands[s, c] and (k.forbidden[s] >> c) & 1 for c in range(24)):
            return False
        if k.shown is not None:
            dealt = (hands[s] + k.played[s]).astype(np.uint8)
            if not (shown_counts(dealt, k.trump, k.table) == k.shown[s]).all():
                return False
    if k.tapp is not None and not (hands[k.soloist] + k.played[k.soloist] + pile >= k.tapp).all():
        return False
    return True
