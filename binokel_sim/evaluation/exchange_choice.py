"""The exchange one hand + Tapp gets under an exchange policy, and the soloist's own estimate of it.

>>> ch = choose_exchange("EA EA E10 E10 EK EK EO EO EU EU HA HA", "GA SA S10 HK", policy="melds")
>>> ch.announce()
'trump E, discard GA HA HA SA'
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from binokel_sim.contracts import CONTRACT_NAMES, is_trump
from binokel_sim.play.dd import DD
from binokel_sim.evaluation.deals import STREAM_INNER, EvalSettings, resolve_settings
from binokel_sim.dealing.hand_input import pool_of
from binokel_sim.exchange.candidates import Candidate
from binokel_sim.exchange.policy import candidate_at
from binokel_sim.exchange.views import exchange_views
from binokel_sim.rng import derive_key
from binokel_sim.rules import Rules, as_rules
from binokel_sim.scoring import special_score


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
    else the heuristic value (n = 1), with the partner's expected share where a team plays
    (:mod:`binokel_sim.exchange.partner`).

    >>> ch = choose_exchange("EA EA E10 E10 EK EK EO EO EU EU HA HA", "GA SA S10 HK", policy="melds")
    >>> ch.announce(), ch.estimate > 1544
    ('trump E, discard GA HA HA SA', True)
    """
    rules = as_rules(rules)
    st = resolve_settings(settings, policy)
    h, t = pool_of(hand, tapp, rules)
    ex = exchange_views(rules, seat, h[None], t[None], policy=st.policy, per_trump=st.per_trump,
                        key=derive_key(seed, *STREAM_INNER), views=np.zeros(1, np.int64), inner=st.inner,
                        top_k=st.top_k, durch_max_losers=st.durch_max_losers, dd=dd)
    cs, j, code = ex.candidates, int(ex.choice.index[0]), int(ex.code[0])
    est = ex.choice.subjective[0].astype(np.float64)
    contract = "trump" if is_trump(code) else CONTRACT_NAMES[code]
    if not is_trump(code):
        # A special is worth its score: made (value) or failed (-failure factor x value).
        est = (np.array([cs.cheap[0, j]]) if st.policy != "sampled"
               else np.where(est > 0, special_score(rules, contract, True), special_score(rules, contract, False)))
    se = float(est.std(ddof=1) / np.sqrt(est.size)) if est.size > 1 else float("nan")
    cand = candidate_at(rules, cs, 0, j, float(est.mean()))
    return ExchangeChoice(candidate=cand, estimate=float(est.mean()), estimate_se=se, n=int(est.size))
