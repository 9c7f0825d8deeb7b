"""Scoring arithmetic of a deal (docs/rules.md §4, §7, §8), read from the rules data.

Two layers:

* :func:`score_deal` scores one finished deal for every seat -- the pure function
  the game simulation calls (at Kreuzbinokel each seat's entry is its team's score);
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

from binokel_sim.errors import InputError
from binokel_sim.rules import Rules

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


def unit_total(rules: Rules, seats: Sequence[int], points: Sequence[int] | np.ndarray, melds: Sequence[int],
               took: Sequence[bool] | np.ndarray) -> int:
    """Total of the scoring unit ``seats`` (one seat, or a team at fixed partnerships): the card points
    ``points[s]`` (raw: tricks, last trick, the soloist's discards) rounded where the rules round -- each
    seat's, or once for the unit with ``scoring.round_per_team`` -- plus the melds that count: a seat's own
    where it took a trick (``took[s]``), or with ``scoring.team_trick_keeps_melds`` where any seat of the
    unit did (§7).

    >>> from binokel_sim.rules import load_rules
    >>> unit_total(load_rules("dabb-four"), (0, 2), [34, 0, 43, 0], [20, 0, 100, 0], [True, False, False, False])
    200
    """
    if rules.scoring.round_per_team:
        pts = int(round_points(sum(int(points[s]) for s in seats), rules))
    else:
        pts = sum(int(round_points(int(points[s]), rules)) for s in seats)
    team_took = any(took[s] for s in seats)
    keep = rules.scoring.team_trick_keeps_melds
    return pts + sum(int(counted_melds(int(melds[s]), team_took if keep else bool(took[s]), rules)) for s in seats)


def contract_score(rules: Rules, total: int, took_trick: bool, bid: int) -> int:
    """Soloist's score for a trump contract: the total if made (a trick and total >= bid), else -ff x bid."""
    if took_trick and total >= bid:
        return int(total)
    return -rules.scoring.failure_factor * int(bid)


def surrender_score(rules: Rules, bid: int) -> int:
    """Soloist's score for going out after naming trump: ``-penalty_factor * bid``."""
    return -rules.surrender.penalty_factor * int(bid)


def surrender_credit(rules: Rules, bid: int) -> int:
    """Each opponent's credit when the soloist goes out (their melds come on top); with
    ``surrender.credit_per_team`` the defending team's, once."""
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


def _raw_points(deal: PlayedDeal) -> np.ndarray:
    """Each seat's card points before rounding, the soloist's discards included."""
    tp = np.asarray(deal.trick_points, dtype=np.int64).copy()
    tp[deal.soloist] += deal.discard_points
    return tp


def seat_totals(rules: Rules, deal: PlayedDeal) -> np.ndarray:
    """Each seat's own total: card points (rounded where the rules say) + melds that count.

    The soloist's card points include the discards. Returned as int64[seats]. A team's total at fixed
    partnerships is :func:`team_total` (it may round and keep melds per team).
    """
    tp, took = _raw_points(deal), np.asarray(deal.tricks) > 0
    return np.array([unit_total(rules, (s,), tp, deal.melds, took) for s in range(rules.n_seats)], dtype=np.int64)


def team_total(rules: Rules, deal: PlayedDeal, seats: Sequence[int]) -> int:
    """The total of the seats ``seats`` together (:func:`unit_total` of the deal): the soloist's side's total."""
    return unit_total(rules, seats, _raw_points(deal), deal.melds, np.asarray(deal.tricks) > 0)


def score_deal(rules: Rules, deal: PlayedDeal) -> np.ndarray:
    """Score of every seat for one finished deal (int64[seats]), docs/rules.md §4, §7, §8, §9.

    One convention for every contract and every layout: **entry ``s`` is what the
    scoring unit of seat ``s`` gains in the deal** -- the seat itself at three and at a
    four-player solo, its team at Kreuzbinokel, where both partners carry the same
    number (a team's running total is then either partner's total).

    The soloist's side scores its contract result once (at Kreuzbinokel the contract is
    the team's, so the partner carries it too and nothing is added for the partner):

    * trump: the side's total (discards + tricks + melds with an own trick, the
      partner's added at Kreuzbinokel) if the side took a trick and it is ``>= bid``,
      else ``-failure_factor * bid``;
    * surrender: ``-penalty_factor * bid``;
    * Durch / Bettel: ``+value`` made, ``-failure_factor * value`` failed.

    Each defender scores on its own -- trump: own total (card points + melds with an
    own trick); surrender: the surrender credit + the melds it holds; failed Durch:
    ``durch.opponent_credit``; otherwise 0 -- and at Kreuzbinokel the defending team
    scores the sum of its members' scores ("the team's totals are added", §7). The
    per-team options change a team's number: ``scoring.round_per_team`` and
    ``scoring.team_trick_keeps_melds`` (:func:`unit_total`, either team), and
    ``surrender.credit_per_team`` (the defending team's credit once).

    >>> from binokel_sim.rules import load_rules
    >>> r = load_rules("standard")
    >>> d = PlayedDeal(soloist=0, bid=200, contract="trump", trick_points=[150, 60, 40],
    ...                tricks=[8, 2, 2], melds=[60, 20, 40], discard_points=14)
    >>> score_deal(r, d).tolist()
    [224, 80, 80]

    A surrender at Kreuzbinokel: the soloist's team -bid, the defenders 50 + 80 and 50 + 0.

    >>> d = PlayedDeal(soloist=1, bid=150, contract="surrender", trick_points=[0] * 4,
    ...                tricks=[0] * 4, melds=[80, 40, 0, 20])
    >>> score_deal(load_rules("kreuz"), d).tolist()
    [180, -150, 180, -150]
    >>> score_deal(load_rules("dabb-four"), d).tolist()   # the credit (40) once: 40 + 80 + 0
    [120, -150, 120, -150]
    """
    if deal.contract not in CONTRACTS:
        raise InputError(f"unknown contract {deal.contract!r} (one of {', '.join(CONTRACTS)})")
    seats = rules.n_seats
    for name in ("trick_points", "tricks", "melds"):
        if len(getattr(deal, name)) != seats:
            raise InputError(f"{name}: expected {seats} values, got {len(getattr(deal, name))}")
    if not 0 <= deal.soloist < seats:
        raise InputError(f"soloist: expected a seat 0..{seats - 1}, got {deal.soloist}")
    allowed = {SURRENDER: rules.surrender.allowed, DURCH: rules.durch.allowed, BETTEL: rules.bettel.allowed}
    if not allowed.get(deal.contract, True):
        raise InputError(f"contract {deal.contract!r} is not allowed by the rules {rules.name!r}")
    side = rules.layout.partners(deal.soloist)
    others = tuple(s for s in range(seats) if s not in side)
    team = None  # the defending team's score where it is not the sum of its members' (per-team options)
    if deal.contract == SURRENDER:
        side_score = surrender_score(rules, deal.bid)
        defender = {s: surrender_credit(rules, deal.bid) + int(deal.melds[s]) for s in others}
        if rules.surrender.credit_per_team and rules.layout.partnership:
            team = surrender_credit(rules, deal.bid) + sum(int(deal.melds[s]) for s in others)
    elif deal.contract in (DURCH, BETTEL):
        side_score = special_score(rules, deal.contract, deal.special_made, deal.open_hand, deal.from_hand)
        credit = rules.durch.opponent_credit if deal.contract == DURCH and not deal.special_made else 0
        defender = {s: int(credit) for s in others}
    else:
        own = seat_totals(rules, deal)
        took_side = any(deal.tricks[s] > 0 for s in side)
        side_score = contract_score(rules, team_total(rules, deal, side), took_side, deal.bid)
        defender = {s: int(own[s]) for s in others}
        if rules.layout.partnership:
            team = team_total(rules, deal, others)
    out = np.zeros(seats, dtype=np.int64)
    out[list(side)] = side_score
    if rules.layout.partnership:
        out[list(others)] = sum(defender.values()) if team is None else team
    else:
        for s, v in defender.items():
            out[s] = v
    return out


def table_scores(rules: Rules, deal: PlayedDeal) -> np.ndarray:
    """Every table player's score for one deal: :func:`score_deal`'s seats, then -- where the
    dealer sits out (``layout.dealer_sits_out``) -- the dealer's ``scoring.dealer_bonus``.

    >>> from binokel_sim.rules import load_rules
    >>> d = PlayedDeal(soloist=0, bid=200, contract="trump", trick_points=[150, 60, 40],
    ...                tricks=[8, 2, 2], melds=[60, 20, 40], discard_points=14)
    >>> table_scores(load_rules("four-dealer-out"), d).tolist()   # card points rounded to 10 there
    [220, 80, 80, 200]
    """
    out = score_deal(rules, deal)
    return np.append(out, rules.scoring.dealer_bonus) if rules.layout.dealer_sits_out else out


def points_targets(rules: Rules, outside: np.ndarray, disc_points: np.ndarray, bids) -> np.ndarray:
    """Per row and bid (int64[n, k]): the fewest card points ``p >= 1`` (a trick) with
    ``outside + round(discards + p) >= bid`` -- so "made at the bid" is "points >= target".

    >>> from binokel_sim.rules import load_rules
    >>> points_targets(load_rules("standard"), np.array([100, 0]), np.array([15, 0]), [150, 300]).tolist()
    [[35, 185], [150, 300]]
    >>> points_targets(load_rules("grupp"), np.array([0]), np.array([4]), [150]).tolist()  # 4 + 141 rounds to 150
    [[141]]
    """
    b = np.asarray(bids, dtype=np.int64)[None, :]
    raw = b - outside.astype(np.int64)[:, None] - disc_points.astype(np.int64)[:, None]
    if not rules.scoring.round_to_10:
        return np.maximum(raw, 1)
    # Rounding is monotone and moves a value by at most 5: the answer lies in raw - 5 .. raw + 5.
    cand = raw[:, :, None] + np.arange(-5, 6)[None, None, :]
    ok = outside[:, None, None] + round_points(disc_points[:, None, None] + cand, rules) >= b[:, :, None]
    first = np.where(ok.any(axis=2), cand[np.arange(cand.shape[0])[:, None], np.arange(cand.shape[1])[None, :],
                                            ok.argmax(axis=2)], raw + 6)
    return np.maximum(first, 1)


def bid_grid(rules: Rules, outside: np.ndarray, disc_points: np.ndarray) -> np.ndarray:
    """Per row, card points at which the total reaches a bid (every bid's target differs by a multiple of
    the bid step): the grid of the ``within`` query, so its interval decides every bid.

    >>> from binokel_sim.rules import load_rules
    >>> bid_grid(load_rules("wuerttemberg"), np.array([0, 40]), np.array([13, 0])).tolist()
    [7, 0]
    """
    far = rules.bidding.min_bid + 1000 * rules.bidding.bid_step  # above every total: no clamp at one point
    return points_targets(rules, outside, disc_points, [far])[:, 0] % rules.bidding.bid_step


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
