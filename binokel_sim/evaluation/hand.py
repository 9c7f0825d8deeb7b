"""Hand evaluation before the auction: "what should this hand bid?"

For one seat's hand, the unseen cards (the other hands and the Tapp) are dealt
uniformly at random ``samples`` times. On each deal the soloist takes the Tapp, the
exchange policy (:mod:`binokel_sim.exchange.policy`) picks discard and contract, the
play is solved double-dummy and the deal is scored (:mod:`binokel_sim.scoring`).
For every bid from the minimum up: P(make) and the expected score -- the soloist goes
out after seeing the Tapp whenever his own estimate says that is better. Also the
ceiling bid (highest with positive expected score), the safe bid (P(make) >=
confidence), the Tapp's value (paired: same deal, Tapp laid away unseen), the
contracts chosen and the chance of a makeable Durch. Every figure carries n and a
standard error; deal ``i`` depends only on (seed, i), so workers and chunking never
change a number.

>>> from binokel_sim.rules import load_rules
>>> ev = evaluate_hand("EA EA E10 EK EO EU GA G10 HA H10 SA S10", load_rules("standard"), samples=20,
...                    seed=3, policy="melds", dd=DD(points=lambda c, *a: np.full(len(c), 120, np.int32),
...                                                 specials=lambda: lambda *a: False))
>>> ev.n, ev.ceiling_bid is not None, bool((np.diff(ev.bids["p_make"]) <= 0).all())
(20, True, True)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim import streams
from binokel_sim.cards import CARD_POINTS, N_TYPES, deck_types, format_cards
from binokel_sim.contracts import BETTEL_CODE, CONTRACT_NAMES, DURCH_CODE, is_trump
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.errors import InputError, check_count
from binokel_sim.evaluation.dd import DD, solve_rows
from binokel_sim.evaluation.ladder import SEMANTICS, SURRENDER_BASIS, safe_bid_se, summarise
from binokel_sim.evaluation.ladder import bid_table  # noqa: F401  (its old home: analyses import it from here)
from binokel_sim.exchange.candidates import Candidate, as_counts, check_policy, pool_of
from binokel_sim.exchange.policy import build_candidates, candidate_at, choose, inner_hands
from binokel_sim.rng import derive_key
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Chunk, Scale, _Progress, chunk_ranges, run_chunks
from binokel_sim.scoring import special_score

#: Streams (:mod:`binokel_sim.streams`): outer deals, the soloist's inner deals, the baseline's.
STREAM_DEALS, STREAM_INNER, STREAM_BASE = (streams.stream(s) for s in ("eval_deals", "eval_inner", "eval_base"))


@dataclass(frozen=True)
class EvalSettings:
    """How the evaluation samples and decides (all part of the provenance)."""

    policy: str = "sampled"
    #: sampled policy: inner deals per candidate, trump candidates played, cheap discards kept per trump.
    inner: int = 4
    top_k: int = 3
    per_trump: int = 2
    #: Durch candidates with at most this many cheap-stage losers are solved double-dummy.
    durch_max_losers: int = 1
    #: Inner deals for the no-Tapp baseline's contract choice (made once per hand).
    base_inner: int = 16
    chunk_size: int = 25

    def check(self) -> "EvalSettings":
        check_policy(self.policy)
        for name in ("inner", "top_k", "per_trump", "base_inner", "chunk_size"):
            if getattr(self, name) < 1:
                raise InputError(f"{name.replace('_', '-')}: must be at least 1, got {getattr(self, name)}")
        return self


def deal_counts(rows: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """(hands uint8[n, seats, 24], tapp uint8[n, 24]) of deal rows."""
    sl = seat_slices(rules)
    n = rows.shape[0]
    hands = np.zeros((n, rules.n_seats, N_TYPES), dtype=np.uint8)
    for s in range(rules.n_seats):
        np.add.at(hands[:, s, :], (np.arange(n)[:, None], rows[:, sl[s]]), 1)
    tapp = np.zeros((n, N_TYPES), dtype=np.uint8)
    np.add.at(tapp, (np.arange(n)[:, None], rows[:, sl[-1]]), 1)
    return hands, tapp


def _inner(rules: Rules, key, views: np.ndarray, pools: np.ndarray, seat: int, m: int) -> np.ndarray:
    deck = np.bincount(deck_types(rules.layout.sevens), minlength=N_TYPES).astype(np.int64)
    others = np.array([s for s in range(rules.n_seats) if s != seat], dtype=np.int64)
    out = np.zeros((pools.shape[0], m, rules.n_seats, N_TYPES), dtype=np.uint8)
    inner_hands(key[0], key[1], np.asarray(views, dtype=np.int64), np.ascontiguousarray(pools, dtype=np.uint8), deck,
                np.int64(m), others, np.int64(rules.layout.hand_size), out)
    return out


def baseline_choices(rules: Rules, mine: np.ndarray, seat: int, seed: int, st: EvalSettings, views: np.ndarray,
                     inner: int, dd: DD | None) -> tuple[np.ndarray, np.ndarray]:
    """(contract code, cheap measure) per hand when the Tapp goes to the discards unseen.

    The choice depends on the hand alone (the Tapp is never seen); the sampled policy
    plays it out on ``inner`` deals of the cards outside the hand (view numbers ``views``).
    """
    h = np.ascontiguousarray(mine, dtype=np.uint8)
    cs = build_candidates(rules, h, np.zeros_like(h), st.policy, tapp_unseen=True)
    deals = None
    if st.policy == "sampled":
        deals = _inner(rules, derive_key(seed, *STREAM_BASE), views, h, seat, inner)
    ch = choose(rules, seat, cs, st.policy, deals, top_k=st.top_k, durch_max_losers=st.durch_max_losers, dd=dd)
    rows = np.arange(h.shape[0])
    return cs.code[rows, ch.index], cs.measure[rows, ch.index]


def _special_made(code: np.ndarray, value: np.ndarray) -> np.ndarray:
    # Durch / Bettel rows are solved by the solver's queries: value 1 = made.
    return ~is_trump(code) & (value > 0)


def _result(rules: Rules, code: np.ndarray, value: np.ndarray, made: np.ndarray) -> np.ndarray:
    """Deal result for the Tapp value: the total of a trump contract, the score of a special."""
    out = value.astype(np.int64).copy()
    for c, kind in ((DURCH_CODE, "durch"), (BETTEL_CODE, "bettel")):
        sel = code == c
        out[sel] = np.where(made[sel], special_score(rules, kind, True), special_score(rules, kind, False))
    return out


def play_deals(rules: Rules, seat: int, hands: np.ndarray, tapp: np.ndarray, seed: int, st: EvalSettings,
               views: np.ndarray, base: tuple[np.ndarray, np.ndarray] | None = None,
               dd: DD | None = None, baseline: bool = True, durch_check: bool = True) -> dict[str, np.ndarray]:
    """Exchange, double-dummy play and baseline for deals numbered ``views`` (``hands`` uint8[n, seats, 24]).

    ``seat`` is the soloist. ``base``: the no-Tapp contract per deal (code, measure);
    None: chosen per deal from its hand (:func:`baseline_choices`, ``st.inner`` deals).
    Returns per-deal arrays: ``value``/``took`` (total and a trick; 1/0 for specials),
    ``code`` (contract), ``special_made``, ``subjective*`` (the soloist's own estimate),
    ``result``/``base_result`` (for the Tapp value; ``baseline=False`` skips that solve
    and leaves ``base_result`` equal to ``result``), ``durch`` (a makeable Durch; all False
    with ``durch_check=False``).
    """
    n = hands.shape[0]
    mine = np.ascontiguousarray(hands[:, seat, :])
    if base is None and baseline:
        base = baseline_choices(rules, mine, seat, seed, st, views, st.inner, dd)
    cs = build_candidates(rules, mine, tapp, st.policy, per_trump=st.per_trump)
    inner = None
    if st.policy == "sampled":
        inner = _inner(rules, derive_key(seed, *STREAM_INNER), views, cs.pool, seat, st.inner)
    ch = choose(rules, seat, cs, st.policy, inner, top_k=st.top_k, durch_max_losers=st.durch_max_losers, dd=dd)
    rows = np.arange(n)
    kept = cs.kept[rows, ch.index]
    code = cs.code[rows, ch.index]
    disc_pts = cs.disc_points[rows, ch.index]
    value, took = solve_rows(rules, seat, kept, code, disc_pts, hands, dd)
    made_special = _special_made(code, value)
    result = _result(rules, code, value, made_special)
    base_result = result
    if baseline:
        assert base is not None  # chosen above when not given
        # The baseline: hand as dealt, Tapp laid away unseen, the hand-only contract.
        base_value, _ = solve_rows(rules, seat, mine, base[0], tapp.astype(np.int64) @ CARD_POINTS, hands, dd)
        base_result = _result(rules, base[0], base_value, _special_made(base[0], base_value))
    # A makeable Durch: the best Durch exchange, solved where the cheap stage leaves a chance.
    durch = np.zeros(n, dtype=bool)
    dcol = np.nonzero(cs.code[0] == DURCH_CODE)[0]
    if dcol.size and durch_check:
        j = int(dcol[0])
        try_ = np.nonzero(cs.measure[:, j] <= st.durch_max_losers)[0]
        if try_.size:
            dv, _ = solve_rows(rules, seat, cs.kept[try_, j], cs.code[try_, j], cs.disc_points[try_, j], hands[try_],
                               dd)
            durch[try_] = dv > 0
    return dict(
        value=value, took=took, code=code, special_made=made_special, subjective=ch.subjective,
        subjective_took=ch.subjective_took, discard_points=disc_pts,
        result=result, base_result=base_result, durch=durch, kept=kept,
        base_code=base[0] if baseline and base is not None else code, base_value=base_value if baseline else value,
    )


def evaluate_chunk(rules: Rules, hand: np.ndarray, seat: int, seed: int, st: EvalSettings,
                   base: tuple[np.ndarray, np.ndarray], chunk: Chunk, predealt: dict | None = None,
                   dd: DD | None = None) -> dict[str, np.ndarray]:
    """Deals ``chunk.start .. chunk.stop - 1`` of ``hand``'s evaluation (see :func:`play_deals`)."""
    pre = {seat: [c for c in range(N_TYPES) for _ in range(int(hand[c]))], **(predealt or {})}
    dealer = Dealer(rules, seed, predealt=pre, stream=STREAM_DEALS)
    hands, tapp = deal_counts(dealer.deal(chunk.size, start=chunk.start), rules)
    n = chunk.size
    fixed = (np.full(n, base[0][0], dtype=np.int64), np.full(n, base[1][0], dtype=np.int64))
    return play_deals(rules, seat, hands, tapp, seed, st, np.arange(chunk.start, chunk.stop), fixed, dd)


@dataclass
class HandEvaluation:
    """Everything ``binokel bid`` reports for one hand (see :func:`evaluate_hand`)."""

    hand: str
    seat: int
    rules: Rules
    seed: int
    settings: EvalSettings
    confidence: float
    n: int
    bids: pd.DataFrame
    ceiling_bid: int | None
    safe_bid: int | None
    tapp_value: tuple[float, float]
    total_with_tapp: tuple[float, float]
    total_tapp_unseen: tuple[float, float]
    baseline_contract: str
    contracts: pd.DataFrame
    p_durch: tuple[float, float]
    seconds: float
    parts: dict[str, np.ndarray] = field(default_factory=dict, repr=False)
    #: None when safe <= ceiling; else why not (:func:`binokel_sim.evaluation.ladder.order_note`).
    order_note: str | None = None
    #: Samples asked for, and the early-stopping target (None: all samples were drawn).
    samples_requested: int = 0
    se_target: float | None = None

    @property
    def surrender_basis(self) -> str:
        """What decides going out after the Tapp is seen (never the deal's own double-dummy result)."""
        return SURRENDER_BASIS[self.settings.policy]

    def p_durch_interval(self) -> dict[str, Any]:
        """P(makeable Durch) with its n, standard error and 95 % Wilson interval."""
        from binokel_sim.stats import proportion

        d = proportion(round(self.p_durch[0] * self.n), self.n)
        return {"mean": d["p"], "se": d["se"], "lo": d["lo"], "hi": d["hi"], "n": self.n}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report: all figures with n and standard errors, and the provenance."""
        mse = lambda t: {"mean": t[0], "se": t[1], "n": self.n}  # noqa: E731
        return {
            "hand": self.hand, "seat": self.seat, "rules": self.rules.name, "rules_source": self.rules.source,
            "seed": self.seed, "samples": self.n, "samples_requested": self.samples_requested,
            "se_target": self.se_target, "policy": self.settings.policy,
            "settings": {k: getattr(self.settings, k) for k in self.settings.__dataclass_fields__},
            "confidence": self.confidence, "semantics": SEMANTICS, "surrender_decided_by": self.surrender_basis,
            "ceiling_bid": self.ceiling_bid, "safe_bid": self.safe_bid, "order_note": self.order_note,
            "bids": self.bids.to_dict(orient="records"),
            "tapp_value": mse(self.tapp_value), "total_with_tapp": mse(self.total_with_tapp),
            "total_tapp_unseen": mse(self.total_tapp_unseen), "baseline_contract": self.baseline_contract,
            "contracts": self.contracts.to_dict(orient="records"), "p_durch_makeable": self.p_durch_interval(),
            "seconds": round(self.seconds, 3),
        }


def _merge(chunks: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]}


def resolve_settings(settings: EvalSettings | None, policy: str | None) -> EvalSettings:
    """The one settings object: ``settings`` (or the defaults) with ``policy`` when given; a
    ``policy`` that contradicts ``settings.policy`` is an :class:`InputError`, never an override.

    >>> resolve_settings(EvalSettings(policy="melds"), None).policy
    'melds'
    >>> resolve_settings(None, "heuristic").policy
    'heuristic'
    """
    if settings is None:
        return EvalSettings(policy=check_policy(policy or EvalSettings.policy)).check()
    if policy is not None and policy != settings.policy:
        raise InputError(f"policy: {policy!r} contradicts settings.policy {settings.policy!r} (give one of them)")
    return settings.check()


#: Early stopping looks at the results every this many chunks (a fixed sample count: the
#: stopping point depends only on the seeded results, never on timing or workers).
STOP_EVERY_CHUNKS = 4


def evaluate_hand(hand, rules: Rules | str | os.PathLike[str] = "standard", *, seat: int = 0, samples: int = 1000,
                  seed: int = 1, policy: str | None = None, confidence: float = 0.8,
                  settings: EvalSettings | None = None, scale: Scale | None = None, predealt: dict | None = None,
                  dd: DD | None = None, se: float | None = None) -> HandEvaluation:
    """Evaluate ``hand`` (card text or types) for ``seat`` over ``samples`` random deals of the unseen cards.

    ``settings`` decides the exchange policy (``policy`` is a shorthand; both and
    different: an error). ``predealt`` fixes other seats' hands or the Tapp
    (``{1: "...", "tapp": "..."}``), e.g. to check the evaluation of one known deal. ``dd``
    replaces the double-dummy back end (see :class:`binokel_sim.evaluation.dd.DD`).
    ``scale``: worker threads and progress bar; a checkpoint or a scheduler is refused in
    one line (the chunks close over this hand's arrays). ``se``: stop once P(make) at the
    safe bid is known to +-``se`` (checked every ``STOP_EVERY_CHUNKS`` chunks, at least
    100 samples; :func:`binokel_sim.evaluation.ladder.safe_bid_se`).
    """
    rules = as_rules(rules)
    rules.require_auction("bid evaluation")
    st = resolve_settings(settings, policy)
    if not 0 <= seat < rules.n_seats:
        raise InputError(f"seat: expected 0..{rules.n_seats - 1} for preset {rules.name!r}, got {seat}")
    check_count("samples", samples)
    if not 0.0 < confidence < 1.0:
        raise InputError(f"confidence: must be between 0 and 1 (exclusive), got {confidence}")
    if se is not None and not se > 0:
        raise InputError(f"se: must be positive, got {se}")
    scale = scale or Scale()
    if scale.checkpoint or scale.scheduler:
        raise InputError("a hand evaluation runs on local threads only: a checkpoint or a scheduler does not apply")
    counts = as_counts(hand, "hand", rules.layout.hand_size, rules)
    t0 = time.perf_counter()
    # The no-Tapp contract depends on the hand alone: chosen once, on base_inner deals.
    base = baseline_choices(rules, counts[None], seat, seed, st, np.zeros(1, np.int64), st.base_inner, dd)
    chunks = chunk_ranges(samples, st.chunk_size)
    step = len(chunks) if se is None else STOP_EVERY_CHUNKS
    bar = _Progress(scale.progress, samples, "bid")
    done: list[dict[str, np.ndarray]] = []
    try:
        for k in range(0, len(chunks), step):
            done += run_chunks(lambda c: evaluate_chunk(rules, counts, seat, seed, st, base, c, predealt, dd),
                               chunks[k:k + step], workers=scale.workers)
            bar.update(sum(c.size for c in chunks[k:k + step]))
            parts = _merge(done)
            summary = summarise(rules, parts, confidence)
            n = parts["code"].shape[0]
            if se is not None and n >= 100 and safe_bid_se(summary["bids"], summary["safe_bid"]) <= se:
                break
    finally:
        bar.close()
    return HandEvaluation(
        hand=format_cards([c for c in range(N_TYPES) for _ in range(int(counts[c]))]), seat=seat, rules=rules,
        seed=seed, settings=st, confidence=confidence, n=n, baseline_contract=CONTRACT_NAMES[int(base[0][0])],
        seconds=time.perf_counter() - t0, parts=parts, samples_requested=samples, se_target=se, **summary,
    )


@dataclass(frozen=True)
class ExchangeChoice:
    """The exchange a policy makes for one hand + Tapp, and the soloist's own estimate of its result."""

    candidate: Candidate
    estimate: float
    estimate_se: float
    n: int

    def announce(self) -> str:
        return self.candidate.announce()


def choose_exchange(hand, tapp, rules: Rules | str | os.PathLike[str] = "standard", *, policy: str | None = None,
                    seat: int = 0,
                    seed: int = 1, settings: EvalSettings | None = None, dd: DD | None = None) -> ExchangeChoice:
    """Discard and contract for ``hand`` + ``tapp`` by ``policy`` (the announced contract included).

    ``estimate``: for ``sampled`` the mean double-dummy total (a special: its score) over
    ``settings.inner`` deals of the unseen cards (n = inner, with its standard error);
    else the heuristic value (n = 1).

    >>> ch = choose_exchange("EA EA E10 E10 EK EK EO EO EU EU HA HA", "GA SA S10 HK", policy="melds")
    >>> ch.announce(), ch.estimate > 1544
    ('trump E, discard GA HA HA SA', True)
    """
    rules = as_rules(rules)
    st = resolve_settings(settings, policy)
    h, t = pool_of(hand, tapp, rules)
    cs = build_candidates(rules, h[None], t[None], st.policy, per_trump=st.per_trump)
    inner = None
    if st.policy == "sampled":
        inner = _inner(rules, derive_key(seed, *STREAM_INNER), np.zeros(1, np.int64), cs.pool, seat, st.inner)
    ch = choose(rules, seat, cs, st.policy, inner, top_k=st.top_k, durch_max_losers=st.durch_max_losers, dd=dd)
    j = int(ch.index[0])
    code = int(cs.code[0, j])
    est = ch.subjective[0].astype(np.float64)
    contract = "trump" if is_trump(code) else CONTRACT_NAMES[code]
    if not is_trump(code):
        # A special is worth its score: made (value) or failed (-failure factor x value).
        est = (np.array([cs.cheap[0, j]]) if st.policy != "sampled"
               else np.where(est > 0, special_score(rules, contract, True), special_score(rules, contract, False)))
    se = float(est.std(ddof=1) / np.sqrt(est.size)) if est.size > 1 else float("nan")
    cand = candidate_at(rules, cs, 0, j, float(est.mean()))
    return ExchangeChoice(candidate=cand, estimate=float(est.mean()), estimate_se=se, n=int(est.size))
