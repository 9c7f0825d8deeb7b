"""The exchange in one call: candidates, the policy's choice and the chosen exchange of many views at once.

:func:`exchange_views` is what a caller above the exchange asks (the evaluation's sampled deals, the
exchange advice of one hand): it builds the candidate set (:func:`~binokel_sim.exchange.policy.build_candidates`),
draws the ``sampled`` policy's inner deals (:func:`inner_deals`), chooses
(:func:`~binokel_sim.exchange.policy.choose`) and returns the chosen exchange as an :class:`Exchanged`,
with the seats' hands as they go into the play (a called card moved, docs/rules.md §4.4).

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.cards import Hand
>>> r = load_rules("standard")
>>> h = Hand.parse("EA EA E10 E10 EK EK EO EO EU EU HA HA").counts[None]
>>> t = Hand.parse("GA SA S10 HK").counts[None]
>>> ex = exchange_views(r, 0, h, t, policy="melds")
>>> int(ex.code[0]), int(ex.disc_points[0])
(0, 44)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim.cards import N_TYPES, DECK_COUNTS
from binokel_sim.exchange.calling import apply_calls
from binokel_sim.exchange.policy import CandidateSet, Choice, build_candidates, choose, inner_hands
from binokel_sim.play.dd import DD
from binokel_sim.rules import Rules


def inner_deals(rules: Rules, key, views: np.ndarray, pools: np.ndarray, seat: int, m: int) -> np.ndarray:
    """``m`` deals per view (uint8[n, m, seats, 24]) of the cards the soloist at ``seat`` has not seen
    (outside ``pools``), numbered by ``views`` under ``key`` (:func:`~binokel_sim.exchange.policy.inner_hands`)."""
    deck = DECK_COUNTS[rules.layout.sevens]
    others = np.array([s for s in range(rules.n_seats) if s != seat], dtype=np.int64)
    out = np.zeros((pools.shape[0], m, rules.n_seats, N_TYPES), dtype=np.uint8)
    inner_hands(key[0], key[1], np.asarray(views, dtype=np.int64), np.ascontiguousarray(pools, dtype=np.uint8), deck,
                np.int64(m), others, np.int64(rules.layout.hand_size), out)
    return out


@dataclass(frozen=True, eq=False)
class Exchanged:
    """The exchange chosen for each of ``n`` views: its candidate set and choice, and the chosen
    candidate's parts (arrays indexed by view)."""

    candidates: CandidateSet
    choice: Choice
    kept: np.ndarray  #: uint8[n, 24]: the soloist's cards after the exchange (a call included)
    code: np.ndarray  #: int64[n]: the contract (0..3 trump, 4 Durch, 5 Bettel)
    disc_points: np.ndarray  #: int64[n]: card points laid away
    measure: np.ndarray  #: int64[n]: a Durch's losers / a Bettel's risk (0 for trump)
    call: np.ndarray  #: int64[n]: the called card type (-1: none)
    give: np.ndarray  #: int64[n]: the card handed back for it
    hands: np.ndarray | None  #: uint8[n, seats, 24]: every seat's cards as the play starts (None: not given)


def exchange_views(rules: Rules, seat: int, mine: np.ndarray, tapps: np.ndarray, *, policy: str,
                   hands: np.ndarray | None = None, per_trump: int = 2, tapp_unseen: bool = False,
                   key: tuple[np.uint64, np.uint64] | None = None, views: np.ndarray | None = None, inner: int = 4,
                   top_k: int = 3, durch_max_losers: int = 1, dd: DD | None = None) -> Exchanged:
    """The exchange of the soloist at ``seat`` for each view (``mine``, ``tapps``: uint8[n, 24]) by ``policy``.

    ``hands`` (uint8[n, seats, 24], optional): the deals, returned with the call applied. ``tapp_unseen``: the
    Tapp goes to the discards unseen (only the contract is chosen). The ``sampled`` policy plays its
    candidates on ``inner`` deals per view, numbered ``views`` under ``key``; the others need neither.
    """
    cs = build_candidates(rules, mine, tapps, policy, per_trump=per_trump, tapp_unseen=tapp_unseen)
    deals = None
    if policy == "sampled":
        if key is None or views is None:
            raise ValueError("the sampled policy draws inner deals: give key and views")
        deals = inner_deals(rules, key, views, cs.pool, seat, inner)
    ch = choose(rules, seat, cs, policy, deals, top_k=top_k, durch_max_losers=durch_max_losers, dd=dd)
    rows = np.arange(mine.shape[0])
    call, give = cs.call[rows, ch.index], cs.give[rows, ch.index]
    played = apply_calls(hands, seat, call, give) if hands is not None and rules.calling.allowed else hands
    at = (rows, ch.index)
    return Exchanged(candidates=cs, choice=ch, kept=cs.kept[at], code=cs.code[at], disc_points=cs.disc_points[at],
                     measure=cs.measure[at], call=call, give=give, hands=played)
