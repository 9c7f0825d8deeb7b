"""The exchange optimiser's cheap stage: every discard for every trump, in numba.

The soloist holds hand + Tapp (the *pool*), lays away ``tapp_size`` cards (their card
points count for the soloist, they cannot be melded) and names trump -- or Durch /
Bettel where the rules allow. The cheap stage scores every distinct discard (a
multiset of the pool: at most C(16, 4) = 1820 in the default preset) at each of the
four trumps:

* ``melds``: meld points of the kept cards + card points of the discard;
* ``heuristic``: that plus :func:`play_estimate`, a fast linear estimate of the card
  points the soloist takes in play (weights :data:`PLAY_WEIGHTS`).

It also ranks the special contracts: Durch by :func:`durch_losers` (soloist cards that
an unseen card beats; 0 means a sure Durch), Bettel by :func:`bettel_risk`.
The ``sampled`` policy (:mod:`binokel_sim.exchange.policy`) re-scores them by double-dummy play.

The entry points: :func:`binokel_sim.exchange.policy.build_candidates` (arrays of many
deals, used by the game and the evaluation) and the validating facades over it,
:func:`binokel_sim.exchange.policy.cheap_candidates` and
:func:`binokel_sim.evaluation.exchange_choice.choose_exchange`.

>>> from binokel_sim.exchange.policy import cheap_candidates
>>> best = cheap_candidates("EA EA E10 E10 EK EK EO EO EU EU HA HA", "GA SA S10 HK", "standard", "melds")[0]
>>> best.contract, best.trump_text, best.melds, best.discard_points
('trump', 'E', 1500, 44)
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from binokel_sim.cards import CARD_POINTS, SUITS, cards_of, format_cards
from binokel_sim.contracts import BETTEL_CODE, DURCH_CODE
from binokel_sim.errors import InputError
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import meld_total, plain_total, trump_gain
from binokel_sim.rules import Rules

POLICIES = ("melds", "heuristic", "sampled")
_MODE = {"melds": 0, "heuristic": 1, "sampled": 1}

#: Weights of :func:`play_estimate`, in the order of :data:`PLAY_FEATURES` (card points per unit).
#: Set by hand from the game's arithmetic: a trick is worth ~20 points (250 / 12), a
#: trump or a side ace wins roughly one, a guarded ten or a void about half of one.
PLAY_FEATURES = ("const", "trumps", "trump_a10", "side_aces", "side_guarded_tens", "voids")
PLAY_WEIGHTS = np.array([-10.0, 12.0, 8.0, 16.0, 8.0, 6.0])



@kernel(noalloc=True)
def play_counts(kept, trump):
    """(trumps, trump A and 10, side aces, side guarded tens, voids) of the kept hand at ``trump``."""
    t = trump * 6
    aces = 0
    tens = 0
    voids = 0
    for s in range(4):
        if s == trump:
            continue
        b = s * 6
        aces += kept[b]
        tens += min(kept[b + 1], kept[b])
        if kept[b] + kept[b + 1] + kept[b + 2] + kept[b + 3] + kept[b + 4] + kept[b + 5] == 0:
            voids += 1
    return (kept[t] + kept[t + 1] + kept[t + 2] + kept[t + 3] + kept[t + 4] + kept[t + 5], kept[t] + kept[t + 1],
            aces, tens, voids)


@kernel
def play_features(kept, trump, out):
    """Countable features of the kept hand at ``trump`` into ``out`` (float64[6], PLAY_FEATURES order)."""
    out[0] = 1.0
    f1, f2, f3, f4, f5 = play_counts(kept, trump)
    out[1] = np.float64(f1)
    out[2] = np.float64(f2)
    out[3] = np.float64(f3)
    out[4] = np.float64(f4)
    out[5] = np.float64(f5)


@kernel(noalloc=True)
def play_estimate(kept, trump, weights):
    """Fast estimate of the soloist's card points in play (tricks only, not discards)."""
    f1, f2, f3, f4, f5 = play_counts(kept, trump)
    # The weighted sum in PLAY_FEATURES order, added up as a loop over play_features would.
    v = 0.0 + weights[0] * 1.0
    v += weights[1] * np.float64(f1)
    v += weights[2] * np.float64(f2)
    v += weights[3] * np.float64(f3)
    v += weights[4] * np.float64(f4)
    v += weights[5] * np.float64(f5)
    return max(v, 0.0)


@kernel
def _fill(cap, x, k, left):
    # Greedy refill of types k.. with ``left`` cards; returns what did not fit.
    for j in range(k, cap.shape[0]):
        take = min(cap[j], left)
        x[j] = take
        left -= take
    return left


@kernel
def enumerate_discards(pool, size, out):
    """All distinct discards (multisets of ``size`` cards of ``pool``) as rows of ``out``; returns how many.

    Iterative, in decreasing lexicographic order over the pool's card types: move one
    card from the rightmost type that can give one to the types after it, refill greedily.
    """
    nt = 0
    for c in range(24):
        if pool[c] > 0:
            nt += 1
    types = np.empty(nt, dtype=np.int64)
    cap = np.empty(nt, dtype=np.int64)
    j = 0
    for c in range(24):
        if pool[c] > 0:
            types[j] = c
            cap[j] = pool[c]
            j += 1
    x = np.zeros(nt, dtype=np.int64)
    if _fill(cap, x, 0, np.int64(size)) > 0:
        return 0
    n = 0
    while True:
        for c in range(24):
            out[n, c] = 0
        for j in range(nt):
            out[n, types[j]] = x[j]
        n += 1
        # suffix: cards held by types after k; room: free capacity after k.
        suffix = 0
        room = 0
        k = nt - 1
        found = False
        while k >= 0:
            if x[k] > 0 and room >= suffix + 1:
                found = True
                break
            suffix += x[k]
            room += cap[k]
            k -= 1
        if not found:
            return n
        x[k] -= 1
        _fill(cap, x, k + 1, suffix + 1)


@kernel
def durch_losers(kept, seen):
    """Soloist cards in ``kept`` that some unseen card (not in ``seen``) beats without trumps.

    0 means a sure Durch: the soloist leads every trick and no opponent can ever overtake.
    """
    losers = 0
    for s in range(4):
        b = s * 6
        for r in range(6):
            if kept[b + r] == 0:
                continue
            for h in range(r):
                if seen[b + h] < 2:
                    losers += kept[b + r]
                    break
    return losers


@kernel
def bettel_risk(kept, seen):
    """Pairs (soloist card, unseen lower card of its suit): each may force the soloist to win a trick."""
    risk = 0
    for s in range(4):
        b = s * 6
        for r in range(6):
            if kept[b + r] == 0:
                continue
            for lo in range(r + 1, 6):
                risk += kept[b + r] * (2 - seen[b + lo])
    return risk


@kernel
def candidate_value(kept, disc_points, trump, table, weights, mode):
    """Cheap value of keeping ``kept`` at ``trump``: melds + discard points (+ play estimate in mode 1)."""
    v = np.float64(meld_total(kept, trump, table) + disc_points)
    if mode == 1:
        v += play_estimate(kept, trump, weights)
    return v


@kernel
def make_room(values, rows, v):
    """Where ``v`` goes among the descending ``values`` (int64 or float[per]): shift the lower values and
    ``rows[j:]`` down a slot and return ``j``, the slot now free; -1 where ``v`` is no better than the last.
    Ties keep the earlier entry first."""
    per = values.shape[0]
    if v <= values[per - 1]:
        return -1
    j = per - 1
    while j > 0 and values[j - 1] < v:
        values[j] = values[j - 1]
        for c in range(rows.shape[1]):
            rows[j, c] = rows[j - 1, c]
        j -= 1
    values[j] = v
    return j


@kernel
def best_per_trump(pool, dsize, table, weights, mode, discs, out_disc, out_value):
    """For each trump the ``per`` best discards (``out_disc[4, per, 24]``, ``out_value[4, per]``, best first).

    ``discs``: scratch uint8[m, 24] big enough for every discard. Unused slots get value -inf.
    Ties keep the discard enumerated first.
    """
    m = enumerate_discards(pool, dsize, discs)
    per = out_value.shape[1]
    for t in range(4):
        for j in range(per):
            out_value[t, j] = -np.inf
    kept = np.empty(24, dtype=np.uint8)
    vals = np.empty(4, dtype=np.float64)
    for i in range(m):
        dp = np.int64(0)
        for c in range(24):
            kept[c] = pool[c] - discs[i, c]
            dp += CARD_POINTS[c] * discs[i, c]
        fixed_discard_values(kept, dp, table, weights, mode, vals)
        for t in range(4):
            j = make_room(out_value[t], out_disc[t], vals[t])
            if j >= 0:
                for c in range(24):
                    out_disc[t, j, c] = discs[i, c]


@kernel
def best_special(pool, dsize, seen, discs, kind, out_disc):
    """Discard minimising the Durch losers (kind 4) or Bettel risk (kind 5); returns that minimum."""
    m = enumerate_discards(pool, dsize, discs)
    best = np.int64(1 << 40)
    kept = np.empty(24, dtype=np.uint8)
    for i in range(m):
        for c in range(24):
            kept[c] = pool[c] - discs[i, c]
        v = durch_losers(kept, seen) if kind == DURCH_CODE else bettel_risk(kept, seen)
        if v < best:
            best = v
            for c in range(24):
                out_disc[c] = discs[i, c]
    return best


@dataclass(frozen=True)
class Candidate:
    """One exchange: what to lay away and what to announce.

    ``contract``: ``trump``, ``durch`` or ``bettel``; ``trump``: suit index or -1;
    ``value``: the policy's estimate of the soloist's total (for specials: the contract
    value if sure, else -inf for the cheap policies); ``melds``: meld points kept;
    ``measure``: Durch losers / Bettel risk (0 for trump contracts).
    """

    discard: tuple[int, ...]
    kept: tuple[int, ...]
    contract: str
    trump: int
    value: float
    melds: int
    discard_points: int
    measure: int = 0
    #: The called card and the card handed back for it (-1: no call; docs/rules.md §4.4).
    call: int = -1
    give: int = -1

    @property
    def code(self) -> int:
        return {"durch": DURCH_CODE, "bettel": BETTEL_CODE}.get(self.contract, self.trump)

    @property
    def trump_text(self) -> str:
        return SUITS[self.trump] if self.trump >= 0 else "-"

    def announce(self) -> str:
        """The announcement in words, e.g. ``trump E, discard GA SA S10 HK``."""
        what = f"trump {self.trump_text}" if self.contract == "trump" else self.contract
        if self.call >= 0:
            what += f", call {format_cards([self.call])} (give back {format_cards([self.give])})"
        return f"{what}, discard {format_cards(self.discard)}"


def check_policy(policy: str) -> str:
    if policy not in POLICIES:
        raise InputError(f"unknown policy {policy!r} (choose from {', '.join(POLICIES)})")
    return policy


def discard_bound(rules: Rules) -> int:
    """Upper bound on the distinct discards: C(hand + Tapp, Tapp)."""
    return comb(rules.layout.hand_size + rules.layout.tapp_size, rules.layout.tapp_size)


def make_candidate(pool, disc, contract, trump, value, table, measure=0, call=-1, give=-1) -> Candidate:
    """A :class:`Candidate` from the pool and discard count vectors (and a call: the card types in and out)."""
    kept = pool.astype(np.int64) - disc
    if call >= 0:
        kept[call] += 1
        kept[give] -= 1
    kept = kept.astype(np.uint8)
    melds = int(meld_total(kept, trump, table)) if contract == "trump" else 0
    return Candidate(
        discard=tuple(cards_of(disc)), kept=tuple(cards_of(kept)), contract=contract, trump=int(trump),
        value=float(value), melds=melds, discard_points=int(disc.astype(np.int64) @ CARD_POINTS), measure=int(measure),
        call=int(call), give=int(give),
    )


@kernel
def discard_buffer(pools, dsize):
    """Scratch rows for every discard of a pool: C(pool size, dsize) bounds the distinct ones."""
    size = 1
    total = 0
    for c in range(24):
        total += pools[0, c]
    for j in range(dsize):
        size = size * (total - j) // (j + 1)
    return np.empty((size, 24), dtype=np.uint8)


@kernel
def cheap_batch(pools, dsize, table, weights, mode, out_disc, out_value):
    """:func:`best_per_trump` per row of ``pools`` (uint8[n, 24]) into ``out_disc[n, 4, per, 24]``, ``out_value``."""
    discs = discard_buffer(pools, dsize)
    for i in range(pools.shape[0]):
        best_per_trump(pools[i], dsize, table, weights, mode, discs, out_disc[i], out_value[i])


@kernel(noalloc=True)
def fixed_discard_values(kept, disc_points, table, weights, mode, out):
    """:func:`candidate_value` of keeping ``kept`` at each trump into ``out`` (float64[4]); the melds no
    trump changes are counted once, not four times."""
    for t in range(4):
        out[t] = play_estimate(kept, t, weights) if mode == 1 else 0.0
    base = plain_total(kept, table) + disc_points
    for t in range(4):
        out[t] += base + trump_gain(kept, t, table)


@kernel
def special_batch(pools, dsize, kind, out_disc, out_measure):
    """Best Durch (kind 4) or Bettel (kind 5) discard of each pool; the cards seen are the pool."""
    discs = discard_buffer(pools, dsize)
    for i in range(pools.shape[0]):
        out_measure[i] = best_special(pools[i], dsize, pools[i], discs, kind, out_disc[i])
