"""Scoring arithmetic of a deal (RULES.md §4, §7, §8), read from the rules data.

Two layers:

* :func:`score_deal` scores one finished deal for every seat -- the pure function
  the game simulation calls;
* vectorised helpers (:func:`bid_outcomes`, :func:`surrender_choice`) turn arrays of
  soloist totals into scores per bid for the hand evaluation.

Soloist total = card points of the discards + own tricks + own melds, the melds only
with at least one own trick. Made: at least one trick and total >= bid, scoring the
total; otherwise ``-failure_factor * bid``.

>>> from binokel_sim.rules import load_rules
>>> r = load_rules("standard")
>>> contract_score(r, total=230, took_trick=True, bid=200)
230
>>> contract_score(r, total=190, took_trick=True, bid=200)
-400
>>> surrender_score(r, bid=200), surrender_credit(r, bid=200)
(-200, 50)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .errors import InputError
from .rules import Rules

#: Contract kinds of :class:`PlayedDeal` (surrender: the soloist went out after naming trump).
TRUMP, DURCH, BETTEL, SURRENDER = "trump", "durch", "bettel", "surrender"
CONTRACTS = (TRUMP, DURCH, BETTEL, SURRENDER)


def round_points(points: int | np.ndarray, rules: Rules):
    """Card points rounded to the nearest 10 (halves up) where ``scoring.round_to_10`` says so.

    >>> from binokel_sim.rules import load_rules
    >>> round_points(125, load_rules("grupp")), round_points(124, load_rules("grupp")), round_points(124, load_rules("standard"))
    (130, 120, 124)
    """
    if not rules.scoring.round_to_10:
        return points
    return (np.asarray(points) + 5) // 10 * 10 if isinstance(points, np.ndarray) else (int(points) + 5) // 10 * 10


def counted_melds(melds: int | np.ndarray, took_trick, rules: Rules):
    """Melds that count: all of them, or only with a trick when ``scoring.melds_need_trick``."""
    if not rules.scoring.melds_need_trick:
        return melds
    return np.where(took_trick, melds, 0) if isinstance(melds, np.ndarray) else (melds if took_trick else 0)


def contract_score(rules: Rules, total: int, took_trick: bool, bid: int) -> int:
    """Soloist's score for a trump contract: the total if made (a trick and total >= bid), else -ff x bid."""
    if took_trick and total >= bid:
        return int(total)
    return -rules.scoring.failure_factor * int(bid)


def surrender_score(rules: Rules, bid: int) -> int:
    """Soloist's score for going out after naming trump: ``-penalty_factor * bid``."""
    return -rules.surrender.penalty_factor * int(bid)


def surrender_credit(rules: Rules, bid: int) -> int:
    """Each opponent's credit when the soloist goes out (their melds come on top)."""
    return int(bid) // 2 if rules.surrender.credit_half_bid else rules.surrender.credit


def special_value(rules: Rules, kind: str, open_hand: bool = False, from_hand: bool = False) -> int:
    """Value of a made Durch or Bettel; ``open_hand``: Durch shown after the exchange,
    ``from_hand``: open Durch announced without the Tapp."""
    if kind == DURCH:
        if from_hand:
            return rules.durch.open_hand_value
        return rules.durch.open_value if open_hand else rules.durch.value
    if kind == BETTEL:
        return rules.bettel.value
    raise InputError(f"unknown special contract {kind!r} (durch or bettel)")


def special_score(rules: Rules, kind: str, made: bool, open_hand: bool = False, from_hand: bool = False) -> int:
    """Soloist's score for Durch/Bettel: +value when made, ``-failure_factor * value`` when not.

    >>> from binokel_sim.rules import load_rules
    >>> special_score(load_rules("standard"), "durch", False), special_score(load_rules("grupp"), "durch", False)
    (-1000, -2000)
    """
    value = special_value(rules, kind, open_hand, from_hand)
    factor = rules.durch.failure_factor if kind == DURCH else rules.bettel.failure_factor
    return value if made else -factor * value


@dataclass(frozen=True)
class PlayedDeal:
    """A finished deal, as the scorer needs it.

    ``trick_points[s]``: card points of seat ``s``'s trick pile incl. the last-trick bonus;
    ``tricks[s]``: how many tricks seat ``s`` took; ``melds[s]``: seat ``s``'s meld points
    at the named trump (ignored for Durch/Bettel); ``discard_points``: card points the
    soloist laid away. A surrendered deal needs no tricks (zeros).
    """

    soloist: int
    bid: int
    contract: str
    trick_points: Sequence[int]
    tricks: Sequence[int]
    melds: Sequence[int]
    discard_points: int = 0
    open_hand: bool = False
    from_hand: bool = False
    #: Durch/Bettel: made or not (the play stops at the first lost / won trick).
    special_made: bool = False


def _side(rules: Rules, soloist: int) -> tuple[int, ...]:
    return rules.layout.partners(soloist)


def side_mask(rules: Rules, soloist: int) -> int:
    """Bit mask of the seats on the soloist's side at play (the partner too at Kreuzbinokel).

    >>> from binokel_sim.rules import load_rules
    >>> side_mask(load_rules("standard"), 1), side_mask(load_rules("kreuz"), 1)
    (2, 10)
    """
    m = 0
    for s in _side(rules, soloist):
        m |= 1 << s
    return m


def seat_totals(rules: Rules, deal: PlayedDeal) -> np.ndarray:
    """Each seat's own total: card points (rounded where the rules say) + melds that count.

    The soloist's card points include the discards. Returned as int64[seats].
    """
    seats = rules.n_seats
    tp = np.asarray(deal.trick_points, dtype=np.int64).copy()
    tp[deal.soloist] += deal.discard_points
    took = np.asarray(deal.tricks) > 0
    melds = np.asarray(deal.melds, dtype=np.int64)
    out = np.empty(seats, dtype=np.int64)
    for s in range(seats):
        out[s] = round_points(int(tp[s]), rules) + counted_melds(int(melds[s]), bool(took[s]), rules)
    return out


def score_deal(rules: Rules, deal: PlayedDeal) -> np.ndarray:
    """Score of every seat for one finished deal (int64[seats]), RULES.md §4, §7, §8.

    Trump contract: the soloist's side total (the team's at Kreuzbinokel) is compared
    with the bid; the soloist (and partner) score it or ``-failure_factor * bid``;
    each opponent scores their own total (a team: the team's total).
    Durch / Bettel: soloist +-value, opponents the rules' credit on a failed Durch.
    Surrender: soloist ``-penalty_factor * bid``, each opponent credit + own melds.

    >>> from binokel_sim.rules import load_rules
    >>> r = load_rules("standard")
    >>> d = PlayedDeal(soloist=0, bid=200, contract="trump", trick_points=[150, 60, 40],
    ...                tricks=[8, 2, 2], melds=[60, 20, 40], discard_points=14)
    >>> score_deal(r, d).tolist()
    [224, 80, 80]
    """
    if deal.contract not in CONTRACTS:
        raise InputError(f"unknown contract {deal.contract!r} (one of {', '.join(CONTRACTS)})")
    seats = rules.n_seats
    for name in ("trick_points", "tricks", "melds"):
        if len(getattr(deal, name)) != seats:
            raise InputError(f"{name}: expected {seats} values, got {len(getattr(deal, name))}")
    if not 0 <= deal.soloist < seats:
        raise InputError(f"soloist: expected a seat 0..{seats - 1}, got {deal.soloist}")
    side = _side(rules, deal.soloist)
    others = tuple(s for s in range(seats) if s not in side)
    out = np.zeros(seats, dtype=np.int64)
    if deal.contract == SURRENDER:
        out[deal.soloist] = surrender_score(rules, deal.bid)
        for s in others:
            out[s] = surrender_credit(rules, deal.bid) + int(deal.melds[s])
        return out
    if deal.contract in (DURCH, BETTEL):
        out[deal.soloist] = special_score(rules, deal.contract, deal.special_made, deal.open_hand, deal.from_hand)
        if deal.contract == DURCH and not deal.special_made:
            for s in others:
                out[s] = rules.durch.opponent_credit
        return out
    own = seat_totals(rules, deal)
    took_side = any(deal.tricks[s] > 0 for s in side) if rules.layout.partnership else deal.tricks[deal.soloist] > 0
    side_total = int(sum(own[s] for s in side))
    score = contract_score(rules, side_total, took_side, deal.bid)
    for s in side:
        out[s] = score
    if rules.layout.partnership:
        team_total = int(sum(own[s] for s in others))
        for s in others:
            out[s] = team_total
    else:
        for s in others:
            out[s] = own[s]
    return out


def bid_ladder(rules: Rules, top: int) -> np.ndarray:
    """Bids from ``bidding.min_bid`` upward in ``bid_step`` up to ``top`` (at least the minimum)."""
    lo, step = rules.bidding.min_bid, rules.bidding.bid_step
    hi = max(lo, int(top))
    return np.arange(lo, hi + 1, step, dtype=np.int64)


def bid_outcomes(totals: np.ndarray, took: np.ndarray, bids: np.ndarray, rules: Rules):
    """(made[n, b], play_score[n, b]) for trump contracts: made iff a trick and total >= bid.

    >>> from binokel_sim.rules import load_rules
    >>> m, s = bid_outcomes(np.array([200, 170]), np.array([True, True]), np.array([150, 180]), load_rules("standard"))
    >>> m.tolist(), s.tolist()
    ([[True, True], [True, False]], [[200, 200], [170, -360]])
    """
    totals = np.asarray(totals, dtype=np.int64)[:, None]
    made = np.asarray(took, dtype=bool)[:, None] & (totals >= bids[None, :])
    score = np.where(made, totals, -rules.scoring.failure_factor * bids[None, :])
    return made, score


def surrender_choice(expected_play: np.ndarray, bids: np.ndarray, rules: Rules) -> np.ndarray:
    """True where going out (``-penalty_factor * bid``) beats the expected play score.

    ``expected_play[n, b]``: the soloist's own estimate, after seeing the Tapp, of the
    score of playing bid ``b``. Never True when the rules forbid surrender.
    """
    if not rules.surrender.allowed:
        return np.zeros(expected_play.shape, dtype=bool)
    return expected_play < (-rules.surrender.penalty_factor * bids)[None, :]
