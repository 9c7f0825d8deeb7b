"""Sampled deals of one hand: the exchange, the double-dummy values and the no-Tapp baseline.

The layer under :func:`binokel_sim.evaluation.hand.evaluate_hand`, the corpus builder and the
studies: :func:`play_deals` takes dealt hands and returns per-deal arrays (the settings in
:class:`EvalSettings`; :func:`resolve_settings` makes it the one object that decides).

>>> resolve_settings(None, "heuristic").exact_every
50
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from binokel_sim import streams
from binokel_sim.cards import CARD_POINTS, N_TYPES
from binokel_sim.contracts import BETTEL_CODE, DURCH_CODE, is_trump
from binokel_sim.dealing.dealer import seat_slices
from binokel_sim.errors import InputError
from binokel_sim.evaluation import EXACT_EVERY
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.play.dd import DD, solve_rows
from binokel_sim.exchange.candidates import check_policy
from binokel_sim.exchange.views import exchange_views
from binokel_sim.rng import derive_key
from binokel_sim.rules import Rules
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
    #: Samples per task. Small tasks keep both workers busy up to each block's end: 1000 samples of one
    #: hand on 2 workers used 1.70 cores with 25, 1.86 with 5 (1.90 with 2), the same answers.
    chunk_size: int = 5
    #: Sample ``i`` is solved exactly (with its no-Tapp baseline) when ``i % exact_every == 0``; the others
    #: only at the deciding bids (:mod:`binokel_sim.evaluation.checked`). 1: every sample exactly.
    exact_every: int = EXACT_EVERY
    #: Node budget per solve (None: none below 48 cards, :data:`DEFAULT_BUDGET_NODES` from 48 cards).
    solve_budget: int | None = None

    def check(self) -> "EvalSettings":
        check_policy(self.policy)
        if self.solve_budget is not None and self.solve_budget < 1:
            raise InputError(f"solve-budget: must be at least 1 node, got {self.solve_budget}")
        for name in ("inner", "top_k", "per_trump", "base_inner", "chunk_size", "exact_every"):
            if getattr(self, name) < 1:
                raise InputError(f"{name.replace('_', '-')}: must be at least 1, got {getattr(self, name)}")
        if self.policy == "sampled" and self.inner < 2:
            # One estimate per deal is weighed with the corpus's error model (evaluation.going_out), which
            # was fitted for the heuristic's estimate: the sampled policy averages its inner deals instead.
            raise InputError(f"inner: the sampled policy weighs going out over 2 or more inner deals, got {self.inner}")
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


def baseline_choices(rules: Rules, mine: np.ndarray, seat: int, seed: int, st: EvalSettings, views: np.ndarray,
                     inner: int, dd: DD | None) -> tuple[np.ndarray, np.ndarray]:
    """(contract code, cheap measure) per hand when the Tapp goes to the discards unseen.

    The choice depends on the hand alone (the Tapp is never seen); the sampled policy
    plays it out on ``inner`` deals of the cards outside the hand (view numbers ``views``).
    """
    h = np.ascontiguousarray(mine, dtype=np.uint8)
    ex = exchange_views(rules, seat, h, np.zeros_like(h), policy=st.policy, tapp_unseen=True,
                        key=derive_key(seed, *STREAM_BASE), views=views, inner=inner, top_k=st.top_k,
                        durch_max_losers=st.durch_max_losers, dd=dd)
    return ex.code, ex.measure


@dataclass(frozen=True, eq=False)
class PlayedDeals:
    """What :func:`play_deals` returns: per deal (n of them), the exchange and its double-dummy outcome."""

    value: np.ndarray  #: int64[n]: the soloist's side's total; a Durch or Bettel: 1 made, 0 not
    took: np.ndarray  #: bool[n]: the side took a trick
    code: np.ndarray  #: int64[n]: the contract chosen (0..3 trump, 4 Durch, 5 Bettel)
    special_made: np.ndarray  #: bool[n]: a Durch or Bettel made
    subjective: np.ndarray  #: the soloist's own estimate of the total, per inner deal
    subjective_took: np.ndarray  #: ... and of taking a trick
    discard_points: np.ndarray  #: int64[n]: card points laid away
    result: np.ndarray  #: int64[n]: the deal's result for the Tapp's worth (a special's score)
    base_result: np.ndarray  #: int64[n]: the no-Tapp baseline's (``result`` when it was not played)
    durch: np.ndarray  #: bool[n]: a makeable Durch (all False without the Durch check)
    kept: np.ndarray  #: uint8[n, 24]: the soloist's cards after the exchange
    call: np.ndarray  #: int64[n]: the called card type (-1: none; docs/rules.md §4.4)
    give: np.ndarray  #: int64[n]: the card handed back for it
    base_code: np.ndarray  #: int64[n]: the baseline's contract
    base_value: np.ndarray  #: int64[n]: the baseline's total (``value`` when it was not played)

    def columns(self) -> dict[str, np.ndarray]:
        """The arrays by name, for code that gathers or extends them as a table's columns."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def parts(self) -> DealParts:
        """What the bid ladder reads of these deals (:class:`~binokel_sim.evaluation.parts.DealParts`)."""
        return DealParts(value=self.value, took=self.took, code=self.code, special_made=self.special_made,
                         result=self.result, subjective=self.subjective, subjective_took=self.subjective_took,
                         base_result=self.base_result, durch=self.durch)


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
               views: np.ndarray, *, base: tuple[np.ndarray, np.ndarray] | None = None,
               dd: DD | None = None, baseline: bool = True, durch_check: bool = True) -> PlayedDeals:
    """Exchange, double-dummy play and baseline for deals numbered ``views`` (``hands`` uint8[n, seats, 24]).

    ``seat`` is the soloist. ``base``: the no-Tapp contract per deal (code, measure);
    None: chosen per deal from its hand (:func:`baseline_choices`, ``st.inner`` deals).
    ``baseline=False`` skips the baseline's solve; ``durch_check=False`` the makeable-Durch one.
    """
    n = hands.shape[0]
    mine = np.ascontiguousarray(hands[:, seat, :])
    if base is None and baseline:
        base = baseline_choices(rules, mine, seat, seed, st, views, st.inner, dd)
    ex = exchange_views(rules, seat, mine, tapp, policy=st.policy, hands=hands, per_trump=st.per_trump,
                        key=derive_key(seed, *STREAM_INNER), views=views, inner=st.inner, top_k=st.top_k,
                        durch_max_losers=st.durch_max_losers, dd=dd)
    code = ex.code
    assert ex.hands is not None  # given above
    value, took = solve_rows(rules, seat, ex.kept, code, ex.disc_points, ex.hands, dd)
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
    cs = ex.candidates
    dcol = np.nonzero(cs.code[0] == DURCH_CODE)[0]
    if dcol.size and durch_check:
        j = int(dcol[0])
        try_ = np.nonzero(cs.measure[:, j] <= st.durch_max_losers)[0]
        if try_.size:
            dv, _ = solve_rows(rules, seat, cs.kept[try_, j], cs.code[try_, j], cs.disc_points[try_, j], hands[try_],
                               dd)
            durch[try_] = dv > 0
    return PlayedDeals(
        value=value, took=took, code=code, special_made=made_special, subjective=ex.choice.subjective,
        subjective_took=ex.choice.subjective_took, discard_points=ex.disc_points,
        result=result, base_result=base_result, durch=durch, kept=ex.kept, call=ex.call, give=ex.give,
        base_code=base[0] if baseline and base is not None else code, base_value=base_value if baseline else value,
    )


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
