"""Exchange policies over many deals at once: candidate sets and the choice among them.

A :class:`CandidateSet` holds, for ``n`` soloist views (hand + Tapp), ``K`` candidate
exchanges: the ``per_trump`` best discards at each trump from the cheap stage, then
Durch / Bettel where allowed. :func:`choose` picks one per view:

* ``melds`` / ``heuristic``: the highest cheap value (a special only when sure);
* ``sampled``: ``top_k`` trump candidates (each trump's best first, then runners-up,
  by cheap value) and a promising Durch are played
  double-dummy on ``inner`` opponent deals drawn from the cards the soloist has not
  seen; the highest mean total wins (a Durch by its expected score).

The soloist's own estimate (``subjective`` totals) comes back too: it decides
whether to go out after seeing the Tapp.

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.cards import Hand
>>> r = load_rules("standard")
>>> h = Hand.parse("EA EA E10 E10 EK EK EO EO EU EU HA HA").counts[None]
>>> t = Hand.parse("GA SA S10 HK").counts[None]
>>> cs = build_candidates(r, h, t, "melds")
>>> ch = choose(r, 0, cs, "melds")
>>> int(cs.code[0, ch.index[0]]), int(cs.disc_points[0, ch.index[0]])
(0, 44)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim.cards import CARD_POINTS, N_TYPES
from binokel_sim.contracts import BETTEL_CODE, CONTRACT_NAMES, DURCH_CODE, is_trump
from binokel_sim.dealing.dealer import deal_one, unseen_types
from binokel_sim.play.dd import DD, solve_rows
from binokel_sim.dealing.hand_input import pool_of
from binokel_sim.exchange.candidates import (PLAY_WEIGHTS, _MODE, Candidate, bettel_risk, cheap_batch, check_policy,
                                             durch_losers, fixed_discard_values, make_candidate, special_batch)
from binokel_sim.exchange.calling import apply_calls, call_batch, callable_types
from binokel_sim.exchange.partner import partner_allowance
from binokel_sim.jit import kernel
from binokel_sim.rng import counts_key
from binokel_sim.rules import Rules, as_rules
from binokel_sim.scoring import special_score



@dataclass
class CandidateSet:
    """``K`` candidate exchanges for each of ``n`` views (arrays indexed [view, candidate]).

    ``code``: a :class:`~binokel_sim.contracts.Contract` code; ``cheap``: the cheap-stage value (-inf: none);
    ``measure``: Durch losers / Bettel risk (0 for trump).
    """

    pool: np.ndarray  # uint8[n, 24]
    disc: np.ndarray  # uint8[n, K, 24]
    code: np.ndarray  # int64[n, K]
    cheap: np.ndarray  # float64[n, K]
    measure: np.ndarray  # int64[n, K]
    #: The called card type and the card handed back for it (-1: no call; docs/rules.md §4.4).
    # None only as the default: __post_init__ fills both, so readers index them as arrays.
    call: np.ndarray = None  # type: ignore[assignment]  # int64[n, K]
    give: np.ndarray = None  # type: ignore[assignment]  # int64[n, K]
    #: bool[n, K]: a trump contract (not Durch / Bettel); filled from ``code``.
    trump: np.ndarray = None  # type: ignore[assignment]
    #: uint64[n]: each view's tie-break key (:func:`view_keys`); filled from ``pool``.
    key: np.ndarray = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.trump = is_trump(self.code)
        self.key = view_keys(self.pool)
        if self.call is None:
            self.call = np.full(self.code.shape, -1, dtype=np.int64)
        if self.give is None:
            self.give = np.full(self.code.shape, -1, dtype=np.int64)

    @property
    def kept(self) -> np.ndarray:
        kept = self.pool[:, None, :].astype(np.int64) - self.disc
        n, k = np.nonzero(self.call >= 0)
        np.add.at(kept, (n, k, self.call[n, k]), 1)
        np.add.at(kept, (n, k, self.give[n, k]), -1)
        return kept.astype(np.uint8)

    @property
    def disc_points(self) -> np.ndarray:
        return self.disc.astype(np.int64) @ CARD_POINTS


def _special_value(rules: Rules, code: int, measure: np.ndarray) -> np.ndarray:
    value = rules.durch.value if code == DURCH_CODE else rules.bettel.value
    return np.where(measure == 0, float(value), -np.inf)


def build_candidates(rules: Rules, hands: np.ndarray, tapps: np.ndarray, policy: str, per_trump: int = 2,
                     tapp_unseen: bool = False, best_only: bool = False) -> CandidateSet:
    """Cheap-stage candidates for each view (``hands``, ``tapps``: uint8[n, 24]).

    ``tapp_unseen``: the baseline where the Tapp goes to the discards unseen -- the
    discard is the Tapp, the only choice is the contract (Durch from the hand).
    ``best_only``: only the best candidate over all trumps must be right (what ``melds`` and ``heuristic``
    choose): the call stage skips calls that cannot beat it, so another trump's candidates may be missing.
    """
    check_policy(policy)
    n = hands.shape[0]
    pools = np.ascontiguousarray(hands + tapps, dtype=np.uint8)
    table = rules.meld_array()
    mode = np.int64(_MODE[policy])
    dsize = np.int64(rules.layout.tapp_size)
    discs, codes, values, measures, calls, gives = [], [], [], [], [], []
    if tapp_unseen:
        vals = np.empty((n, 4), dtype=np.float64)
        dp = tapps.astype(np.int64) @ CARD_POINTS
        for i in range(n):
            fixed_discard_values(np.ascontiguousarray(hands[i]), dp[i], table, PLAY_WEIGHTS, mode, vals[i])
        for t in range(4):
            discs.append(tapps.astype(np.uint8))
            codes.append(np.full(n, t))
            values.append(vals[:, t])
            measures.append(np.zeros(n, dtype=np.int64))
            calls.append(np.full(n, -1))
            gives.append(np.full(n, -1))
    else:
        out_disc = np.zeros((n, 4, per_trump, N_TYPES), dtype=np.uint8)
        out_value = np.empty((n, 4, per_trump), dtype=np.float64)

        def take(c_call: np.ndarray, c_give: np.ndarray) -> None:
            # One candidate per trump and rank; copies, since the call stage reuses the buffers.
            for t in range(4):
                for j in range(per_trump):
                    discs.append(out_disc[:, t, j].copy())
                    codes.append(np.full(n, t))
                    values.append(out_value[:, t, j].copy())
                    measures.append(np.zeros(n, dtype=np.int64))
                    calls.append(c_call[:, t, j])
                    gives.append(c_give[:, t, j])

        cheap_batch(pools, dsize, table, PLAY_WEIGHTS, mode, out_disc, out_value)
        take(np.full((n, 4, per_trump), -1), np.full((n, 4, per_trump), -1))
        if rules.calling.allowed:
            # The same number of candidates again, each with a call: the best per trump over every call.
            c_call = np.empty((n, 4, per_trump), dtype=np.int64)
            c_give = np.empty((n, 4, per_trump), dtype=np.int64)
            floors = out_value.reshape(n, -1).max(axis=1) if best_only else np.full(n, -np.inf)
            call_batch(pools, callable_types(rules, pools), dsize, table, PLAY_WEIGHTS, mode, floors, out_disc,
                       out_value, c_call, c_give)
            take(c_call, c_give)
    for code, allowed in ((DURCH_CODE, rules.durch.allowed), (BETTEL_CODE, rules.bettel.allowed)):
        if not allowed:
            continue
        disc = np.zeros((n, N_TYPES), dtype=np.uint8)
        meas = np.empty(n, dtype=np.int64)
        from_hand = code == DURCH_CODE and not rules.durch.uses_tapp
        if tapp_unseen or from_hand:
            # Durch from the hand is announced without the Tapp (docs/rules.md §8): only the hand is seen.
            disc[:] = tapps
            seen = hands
            measure = durch_losers if code == DURCH_CODE else bettel_risk
            for i in range(n):
                meas[i] = measure(hands[i], seen[i])
        else:
            special_batch(pools, dsize, np.int64(code), disc, meas)
        discs.append(disc)
        codes.append(np.full(n, code))
        values.append(_special_value(rules, code, meas))
        measures.append(meas)
        calls.append(np.full(n, -1))
        gives.append(np.full(n, -1))
    return CandidateSet(
        pool=pools, disc=np.stack(discs, axis=1), code=np.stack(codes, axis=1).astype(np.int64),
        cheap=np.stack(values, axis=1), measure=np.stack(measures, axis=1),
        call=np.stack(calls, axis=1).astype(np.int64), give=np.stack(gives, axis=1).astype(np.int64),
    )


@kernel
def inner_hands(key0, key1, views, pools, deck, m, others, hand_size, out):
    """Opponent hands the soloist cannot see, ``m`` draws per view, into ``out`` (uint8[n, m, seats, 24]).

    Draw ``j`` of view ``i`` is deal number ``views[i] * m + j`` of the key, so it
    depends only on the seed and the view's global index ``views[i]``. Cards beyond the seats'
    hands (a Tapp the soloist never saw) are dealt last and left out.
    """
    n = pools.shape[0]
    for i in range(n):
        free = unseen_types(deck, pools[i])
        size = free.shape[0]
        fixed = np.full(size, -1, dtype=np.int8)
        buf = np.empty(size, dtype=np.int8)
        row = np.empty(size, dtype=np.int8)
        for j in range(m):
            deal_one(key0, key1, views[i] * m + j, free, fixed, buf, row)
            for s in range(out.shape[2]):
                for c in range(24):
                    out[i, j, s, c] = 0
            for q in range(others.shape[0]):
                for x in range(hand_size):
                    out[i, j, others[q], row[q * hand_size + x]] += 1


@dataclass
class Choice:
    """The chosen candidate per view and the soloist's own estimate of its total.

    ``subjective``: int64[n, M] totals the soloist expects (M = 1 for the cheap
    policies: the heuristic value); ``subjective_took``: bool[n, M].
    """

    index: np.ndarray
    subjective: np.ndarray
    subjective_took: np.ndarray


def _heuristic_estimate(rules: Rules, cs: CandidateSet, idx: np.ndarray) -> np.ndarray:
    """The cheap policies' own estimate of the chosen candidates' totals (0 for a special): the kept
    cards' heuristic value, plus the partner's expected share where a team plays (:mod:`.partner`)."""
    n = idx.shape[0]
    at = (np.arange(n), idx)
    kept, dp, code, trump = cs.kept[at], cs.disc_points[at], cs.code[at], cs.trump[at]
    out = np.zeros(n, dtype=np.int64)
    vals = np.empty(4, dtype=np.float64)
    table = rules.meld_array()
    for i in np.nonzero(trump)[0]:
        fixed_discard_values(np.ascontiguousarray(kept[i]), dp[i], table, PLAY_WEIGHTS, np.int64(1), vals)
        out[i] = int(round(vals[code[i]]))
    if rules.layout.partnership:
        share = partner_allowance(rules, cs.pool[trump], code[trump])
        out[trump] += np.rint(share).astype(np.int64)
    return out


def trump_ties(rules: Rules | str, hands: np.ndarray, tapps: np.ndarray) -> np.ndarray:
    """Per view (``hands``, ``tapps``: uint8[n, 24]): which trumps (bool[n, 4]) reach the best cheap value of
    the ``heuristic``/``melds`` policies' candidates. With two or more, :func:`best_index`'s tie-break picks
    the trump.

    >>> from binokel_sim.cards import counts_of, parse_cards
    >>> hand = counts_of(parse_cards("EA E10 EK EO EU HA H10 HK HO HU GA SA"))  # Eichel and Herz alike
    >>> trump_ties("standard", hand[None], counts_of(parse_cards("G10 S10 GK SK"))[None]).tolist()
    [[True, False, True, False]]
    """
    cs = build_candidates(as_rules(rules), hands, tapps, "heuristic")
    best = cs.cheap.max(axis=1)
    return np.stack([((cs.code == t) & (cs.cheap == best[:, None])).any(axis=1) for t in range(4)], axis=1)


#: Salt of the trump tie-break's key (:func:`binokel_sim.rng.counts_key` of the view).
TIE_SALT = 0x71E


def view_keys(pools: np.ndarray) -> np.ndarray:
    """The trump tie-break key (uint64[n]) of each view (``pools``: uint8[n, 24], the cards the soloist has
    seen): :func:`binokel_sim.rng.counts_key`, a function of what he has seen, the same in every run."""
    # A loop over a kernel every caller has loaded already: a kernel of its own would cost an instant
    # answer another cache load, more than the loop costs a corpus chunk.
    p = np.ascontiguousarray(pools, dtype=np.uint8)
    return np.array([counts_key(p[i], TIE_SALT)[0] for i in range(p.shape[0])], dtype=np.uint64)


def best_index(values: np.ndarray, codes: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Per view, the candidate with the highest value (``values``, ``codes``: [n, K]).

    Where two or more trumps reach it, the trump is picked by the view's key (``keys``:
    :func:`view_keys`): fair between the suits (the first maximum favoured Eichel, then Grün). Ties
    within one trump, or with no trump among the best, keep the first candidate.

    >>> v = np.array([[5.0, 7.0, 7.0, 7.0]]); c = np.array([[0, 0, 1, 3]])
    >>> int(best_index(v, c, view_keys(np.zeros((1, 24), np.uint8)))[0]) in (1, 2, 3)
    True
    """
    at = values == values.max(axis=1, keepdims=True)
    idx = np.argmax(at, axis=1)
    tied = np.stack([(at & (codes == t)).any(axis=1) for t in range(4)], axis=1)
    for i in np.nonzero(tied.sum(axis=1) > 1)[0]:
        trumps = np.nonzero(tied[i])[0]
        t = trumps[int(keys[i] % np.uint64(trumps.size))]
        idx[i] = np.argmax(at[i] & (codes[i] == t))
    return idx


def choose(rules: Rules, soloist: int, cs: CandidateSet, policy: str, inner: np.ndarray | None = None,
           top_k: int = 3, durch_max_losers: int = 1, dd: DD | None = None) -> Choice:
    """Pick one candidate per view by ``policy``; ``inner`` (uint8[n, M, seats, 24]) for ``sampled``."""
    check_policy(policy)
    n, K = cs.code.shape
    rows = np.arange(n)
    if policy != "sampled":
        idx = best_index(cs.cheap, cs.code, cs.key)
        est = _heuristic_estimate(rules, cs, idx)
        return Choice(index=idx, subjective=est[:, None], subjective_took=np.ones((n, 1), dtype=bool))
    assert inner is not None, "the sampled policy needs inner deals"
    M = inner.shape[1]
    # Which candidates get played: top_k trump ones -- each trump's best first (by cheap value),
    # then the runners-up -- and a Durch with few losers.
    trump_cand = cs.trump
    cheap = np.where(trump_cand, cs.cheap, -np.inf)
    rank = np.zeros((n, K), dtype=np.int64)
    for t in range(4):
        sel = cs.code == t
        # rank of each candidate among its own trump's (0 = that trump's best)
        vals = np.where(sel, -cheap, np.inf)
        rank += np.where(sel, np.argsort(np.argsort(vals, axis=1, kind="stable"), axis=1, kind="stable"), 0)
    rank = np.where(trump_cand, rank, K)
    order = np.lexsort((-cheap, rank), axis=1)
    play = np.zeros((n, K), dtype=bool)
    play[rows[:, None], order[:, :top_k]] = True
    play &= trump_cand & np.isfinite(cs.cheap)
    play |= (cs.code == DURCH_CODE) & (cs.measure <= durch_max_losers)
    vi, ci = np.nonzero(play)
    kept, code, dp, trump_sel = cs.kept[vi, ci], cs.code[vi, ci], cs.disc_points[vi, ci], cs.trump[vi, ci]
    # Every played candidate meets the same M inner deals (common random numbers).
    kept_r = np.repeat(kept, M, axis=0)
    code_r = np.repeat(code, M)
    dp_r = np.repeat(dp, M)
    hands_r = inner[vi].reshape(-1, *inner.shape[2:])
    if rules.calling.allowed:
        hands_r = apply_calls(hands_r, soloist, np.repeat(cs.call[vi, ci], M), np.repeat(cs.give[vi, ci], M))
    val, took = solve_rows(rules, soloist, kept_r, code_r, dp_r, hands_r, dd)
    val = val.reshape(-1, M)
    took = took.reshape(-1, M)
    score = np.full((n, K), -np.inf)
    score[vi[trump_sel], ci[trump_sel]] = val[trump_sel].mean(axis=1)
    if (~trump_sel).any():
        p = val[~trump_sel].mean(axis=1)
        made = special_score(rules, "durch", True)
        failed = special_score(rules, "durch", False)
        score[vi[~trump_sel], ci[~trump_sel]] = p * made + (1 - p) * failed
    # A sure special not played (Bettel, or Durch by the cheap measure) keeps its cheap value.
    unplayed_special = ~cs.trump & ~play & np.isfinite(cs.cheap)
    score[unplayed_special] = cs.cheap[unplayed_special]
    idx = best_index(score, cs.code, cs.key)
    subj = np.zeros((n, M), dtype=np.int64)
    subj_took = np.zeros((n, M), dtype=bool)
    pos = {(int(a), int(b)): r for r, (a, b) in enumerate(zip(vi, ci))}
    for i in range(n):
        r = pos.get((i, int(idx[i])))
        if r is not None:
            subj[i] = val[r]
            subj_took[i] = took[r]
    return Choice(index=idx, subjective=subj, subjective_took=subj_took)


def candidate_at(rules: Rules, cs: CandidateSet, i: int, j: int, value: float | None = None) -> Candidate:
    """Candidate ``j`` of view ``i`` as a :class:`Candidate` (``value``: default its cheap value)."""
    code = int(cs.code[i, j])
    trump = code if is_trump(code) else -1
    return make_candidate(cs.pool[i], cs.disc[i, j], "trump" if trump >= 0 else CONTRACT_NAMES[code], trump,
                          float(cs.cheap[i, j]) if value is None else value, rules.meld_array(), int(cs.measure[i, j]),
                          int(cs.call[i, j]), int(cs.give[i, j]))


def cheap_candidates(hand, tapp, rules: Rules | str = "standard", policy: str = "heuristic",
                     per_trump: int = 1) -> list[Candidate]:
    """The cheap stage's candidates for one hand + Tapp, best first: the ``per_trump`` best discards at
    each trump (by the ``melds`` or ``heuristic`` value), then Durch / Bettel where the rules allow them.

    The validating facade (card text, lists or types, checked once) over :func:`build_candidates`.
    A sure special (measure 0) is worth its contract value and so sorts to the top.
    """
    rules = as_rules(rules)
    check_policy(policy)
    h, t = pool_of(hand, tapp, rules)
    cs = build_candidates(rules, h[None], t[None], policy, per_trump=per_trump)
    cols = [j for j in range(cs.code.shape[1]) if not is_trump(cs.code[0, j]) or np.isfinite(cs.cheap[0, j])]
    # Stable sort: equal values keep trump order, so the choice is deterministic.
    return sorted((candidate_at(rules, cs, 0, j) for j in cols), key=lambda c: -c.value)
