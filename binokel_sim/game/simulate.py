"""Whole games to the target (docs/rules.md §3, §4, §7-§9): auction, exchange, surrender, play, score.

One deal:

1. **Auction** -- each seat bids up to its ceiling from a fast estimator of its hand
   (:func:`ceiling`), see :func:`binokel_sim.game.auction.auction` (all pass, where allowed: thrown in).
2. **Exchange** -- the soloist takes the Tapp and picks discard, contract and any call with the
   exchange optimiser's cheap stage (:func:`binokel_sim.exchange.policy.build_candidates`, the
   array path: no input validation per deal; policy ``heuristic``; a Durch/Bettel only when its cheap measure says it is sure).
3. **Surrender** -- the soloist goes out when the exchange's estimate of his side's total after
   seeing the Tapp (the partner's expected share included) makes playing the bid worse than
   going out and the rules allow it: the bid ladder's rule (:func:`binokel_sim.evaluation.going_out.goes_out`).
4. **Play** -- double-dummy, card by card (:func:`binokel_sim.game.cardplay.play_line`), so
   every seat's own tricks are known; Durch/Bettel are decided by the solver's queries.
   Which query (issue #11): the score needs the soloist's total when made and each
   defender's own card points, so a threshold alone is not enough. Exact below 48 cards
   (``budget_nodes`` None): the exact line; with ``scoring.round_to_10`` the 10-point grid
   cell aligned with the rounding (``Solver.grid``) instead of the exact value -- every rounded
   total of the soloist's side is the same, only the defenders' split may differ. At 48 cards
   (or with a budget): ``Solver.bounds`` within ``budget_nodes`` (:func:`play_budget`), then the
   line within the proven window; the deal is kept, marked ``exact=False`` when the window
   leaves the made/failed decision or the rounded total open, with ``made_lo``/``made_hi``.
   With ``play="rule-based"`` every seat plays the baseline player's rules of thumb on its own
   knowledge instead (:func:`binokel_sim.game.cardplay.rule_based_line`, no search): a Durch or
   Bettel is made or not as that line plays it, every deal is exact, its window the line's total.
5. **Scoring** -- :func:`binokel_sim.scoring.table_scores` (``score_deal``, plus the bonus of a
   dealer who sits out), used as it is (rounding, surrender credit, specials; at
   Kreuzbinokel it gives both partners their team's score).

Seats rotate: in deal ``j`` player ``p`` sits at seat ``(p - j) mod n`` (player 0 is
forehand in the first deal). Where the dealer sits out (``layout.dealer_sits_out``) the
table has ``n + 1`` players and the modulus is ``n + 1``: the dealer of deal ``j`` is player
``(j + n) mod (n + 1)``, the previous forehand, and scores ``scoring.dealer_bonus``.
The game ends when a player (a team at Kreuzbinokel)
reaches ``game.target``: the soloist first, else the higher score, else a deciding
deal (``game.decided_by = "highest"``: the highest score, a tie to the soloist, else by
player number; :func:`binokel_sim.game.ending._winner`). With ``game.aus`` a player who passes the target during the play claims the
game at once (the soloist only once its running total also covers the bid).

Game ``g`` uses the deals of stream ``game`` (:mod:`binokel_sim.streams`) with index g: its numbers
depend only on (seed, rules, g), whatever the chunking or the worker count.

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.cards import Hand
>>> r = load_rules("standard")
>>> ceiling(Hand.parse("EA EA E10 E10 EK EK EO EO EU EU HA HA").counts, r) >= 1000
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from binokel_sim.cards import DECK_COUNTS, SUITS, counts_of
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.play.dd import first_leader
from binokel_sim import streams
from binokel_sim.contracts import DURCH_CODE
from binokel_sim.exchange.calling import apply_calls
from binokel_sim.exchange.candidates import PLAY_WEIGHTS, play_estimate
from binokel_sim.exchange.policy import build_candidates, candidate_at, choose
from binokel_sim.game.auction import auction, floor_to_step
from binokel_sim.game.cardplay import (DOUBLE_DUMMY, RULE_BASED, PlayMode, check_play, play_line,
                                      rule_based_line)
from binokel_sim.game.ending import _claim, _running_totals, _team_of, _winner
from binokel_sim.melds.scorer import meld_total, totals_by_trump
from binokel_sim.play.knowledge import trumps_of
from binokel_sim.play.legal import play_rule
from binokel_sim.rules import Rules
from binokel_sim.scoring import (DURCH, SURRENDER, TRUMP, PlayedDeal, round_points, table_scores,
                                 team_total)
from binokel_sim.evaluation.going_out import goes_out
from binokel_sim.play.solver import Position, Solver

#: A game still open after this many deals is recorded as unfinished (winner -1).
MAX_DEALS = 400
THROWN_IN = "thrown in"  # the contract of a deal nobody bid on


def _formula(rules: Rules):
    """The fitted hand-point formula for ``rules`` if one is committed and predicts, else None."""
    from binokel_sim.evaluation.formula import usable_formula

    key = (rules.name, rules.meld_array().tobytes())
    if key not in _FORMULAS:
        _FORMULAS[key] = usable_formula(rules)[0]
    return _FORMULAS[key]


_FORMULAS: dict = {}


def ceiling_name(rules: Rules) -> str:
    """Which estimator sets the players' ceilings under ``rules`` (reported in the provenance)."""
    return "hand-formula" if _formula(rules) is not None else "melds+play-estimate"


def ceiling(counts: np.ndarray, rules: Rules) -> int:
    """Highest bid a hand goes to, from the fast estimator of its total.

    With a committed hand-point formula for ``rules`` (:mod:`binokel_sim.evaluation.formula`):
    its ceiling bid (the highest with a positive expected score). Otherwise the
    documented fallback ``melds+play-estimate``: best over the trumps of the hand's meld
    points (:func:`binokel_sim.melds.scorer.totals_by_trump`) plus the exchange optimiser's
    linear estimate of the card points taken in play
    (:func:`binokel_sim.exchange.candidates.play_estimate`), floored to a legal bid. 0: pass.
    """
    f = _formula(rules)
    if f is not None:
        return int(f.advise(counts, rules).ceiling_bid or 0)
    tot = np.empty(4, dtype=np.int64)
    totals_by_trump(counts, rules.meld_array(), tot)
    best = max(float(tot[t]) + float(play_estimate(counts, t, PLAY_WEIGHTS)) for t in range(4))
    return floor_to_step(best, rules)


def predicted_p_make(counts: np.ndarray, bid: int, rules: Rules) -> float:
    """The auction's P(make) of ``bid`` for a hand (before the Tapp): the formula's normal model
    around its estimate; NaN where no usable formula is committed for ``rules``."""
    f = _formula(rules)
    return float(f.p_make(f.total(counts, rules), int(bid))) if f is not None else float("nan")


#: The deals table's columns before each player's ``score_p{p}`` / ``total_p{p}``.
DEAL_COLUMNS = ("game", "deal", "soloist", "soloist_seat", "bid", "contract", "trump", "made", "p_make_predicted",
                "claimed_by", "exact", "made_lo", "made_hi", "side_total_lo", "side_total_hi", "soloist_estimate",
                "made_if_played", "made_if_played_lo", "made_if_played_hi")


@dataclass
class DealRecord:
    """One deal of a game, as the tables report it (players, not seats, except ``soloist_seat``)."""

    game: int
    deal: int
    soloist: int
    soloist_seat: int
    bid: int
    contract: str
    trump: str
    made: bool
    scores: list[int]
    totals: list[int]
    claimed_by: int = -1
    p_make_predicted: float = float("nan")
    #: False when the solve's budget left the outcome open (then ``made`` is the line's, ``made_lo``/``made_hi`` the range).
    exact: bool = True
    made_lo: bool = False
    made_hi: bool = False
    #: The proven range of the soloist side's total (trump contracts, a surrendered one played out; else -1).
    side_total_lo: int = -1
    side_total_hi: int = -1
    #: Trump contracts: the soloist's estimate of his side's total after the Tapp, which decided going out (else
    #: -1), and whether the double-dummy line makes the bid, played out also where he went out (with a budget:
    #: at the proven range's ends, open deals counted as failed / as made).
    soloist_estimate: int = -1
    made_if_played: bool = False
    made_if_played_lo: bool = False
    made_if_played_hi: bool = False

    def row(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in DEAL_COLUMNS}
        for p, (s, t) in enumerate(zip(self.scores, self.totals)):
            d[f"score_p{p}"] = s
            d[f"total_p{p}"] = t
        return d


@dataclass
class GameRecord:
    game: int
    deals: int
    winner: int
    totals: list[int]
    records: list[DealRecord] = field(default_factory=list)

    def row(self, rules: Rules) -> dict[str, Any]:
        d: dict[str, Any] = {"game": self.game, "deals": self.deals, "winner": self.winner}
        if rules.layout.partnership:
            d["winner_team"] = _team_of(rules, self.winner) if self.winner >= 0 else -1
        for p, t in enumerate(self.totals):
            d[f"final_p{p}"] = t
        return d


@dataclass
class _Outcome:
    soloist_seat: int
    bid: int
    contract: str
    trump: int
    made: bool
    scores: np.ndarray  # per seat
    #: Per trick: (winner seat, running deal total of every seat after it) -- for Aus.
    running: list[tuple[int, np.ndarray]]
    #: Trump contracts: the soloist side's total and whether it took a trick, played out also where he went
    #: out (else -1, False).
    total: int = -1
    took: bool = False
    #: The auction's P(make) of the contract (the formula's normal model on the soloist's dealt hand; NaN without one).
    predicted: float = float("nan")
    #: Proven range of the side's total (trump contracts within a budget; else ``total`` twice), whether the
    #: deal's outcome is resolved, and the made decision at the range's ends (lower: open counted as failed).
    total_lo: int = -1
    total_hi: int = -1
    exact: bool = True
    made_lo: bool = False
    made_hi: bool = False
    #: Trump contracts: the soloist's own estimate of his side's total after the Tapp (his going-out basis),
    #: and whether the double-dummy line makes the bid, played out also where he went out: (made, at the
    #: proven range's lower end, at its upper end).
    estimate: int = -1
    made_dd: tuple[bool, bool, bool] = (False, False, False)

    def __post_init__(self) -> None:
        if self.total_lo < 0 and self.total_hi < 0:
            self.total_lo = self.total_hi = self.total
        if self.exact:
            self.made_lo = self.made_hi = self.made


def play_budget(rules: Rules, budget_nodes: int | None = None) -> int | None:
    """Node budget of one deal's solve: ``budget_nodes`` if given, else the studies' default at 48 cards
    (:data:`~binokel_sim.play.dd.DEFAULT_BUDGET_NODES`), else None (exact).

    >>> from binokel_sim.rules import load_rules
    >>> play_budget(load_rules("standard")), play_budget(load_rules("standard-48")), play_budget(load_rules("standard"), 9)
    (None, 35000000, 9)
    """
    from binokel_sim.play.dd import BUDGET_MIN_CARDS, DEFAULT_BUDGET_NODES

    if budget_nodes is not None:
        return int(budget_nodes)
    return DEFAULT_BUDGET_NODES if rules.layout.deck_size >= BUDGET_MIN_CARDS else None


def _window(rules: Rules, pos: Position, solver: Solver, discard_points: int, budget_nodes: int | None
            ) -> tuple[int, int] | None:
    """The proven window of the side's value the line is played in: None (exact line) without a budget
    and rounding; the rounding's grid cell; or ``Solver.bounds`` within ``budget_nodes``."""
    if budget_nodes is not None:
        solver.reset()  # a deal's answer must not depend on the deals before it
        r = solver.bounds(pos, budget_nodes=budget_nodes)
        return r.lo, r.hi
    if rules.scoring.round_to_10 and (rules.scoring.round_per_team or not rules.layout.partnership):
        # The side's card points are rounded once, so round(discards + x) is constant on x in [g, g + 9]
        # with g = 5 - discards (mod 10): the cell decides it.
        r = solver.grid(pos, step=10, lo=(5 - discard_points) % 10)
        return r.lo, r.hi
    return None


def play_deal(rules: Rules, row: np.ndarray, solver: Solver | None, budget_nodes: int | None = None, *,
              play: PlayMode = DOUBLE_DUMMY, ceilings: list[int] | None = None) -> _Outcome:
    """Auction, exchange, surrender decision, play and score of one dealt row (``budget_nodes``: the solve's
    node budget, None: exact; ``play``: :data:`PLAY_MODES`, ``solver`` None under rule-based play;
    ``ceilings``: each seat's highest bid, default :func:`ceiling` of its hand; see the module docstring)."""
    n = rules.n_seats
    sl = seat_slices(rules)
    hands = [counts_of(row[s], check=False) for s in sl[:n]]
    sol, bid = auction([ceiling(h, rules) for h in hands] if ceilings is None else ceilings, rules)
    if sol < 0:  # every seat passed (forehand need not open): the deal is thrown in
        return _Outcome(-1, 0, THROWN_IN, -1, False, np.zeros(n, dtype=np.int64), [])
    predicted = predicted_p_make(hands[sol], bid, rules)
    cs = build_candidates(rules, hands[sol][None], counts_of(row[sl[n]], check=False)[None], "heuristic", per_trump=1)
    ch = choose(rules, sol, cs, "heuristic")
    best = candidate_at(rules, cs, 0, int(ch.index[0]))
    kept = counts_of(best.kept)
    table = rules.meld_array()
    side = rules.layout.partners(sol)
    play_hands = list(apply_calls(np.stack(hands)[None], sol, np.array([best.call]), np.array([best.give]))[0])
    play_hands[sol] = kept
    zeros = [0] * n
    if best.contract == TRUMP:
        trump = best.trump
        melds = [int(meld_total(play_hands[s], trump, table)) for s in range(n)]
        bonus = tuple(melds[s] if s in side and rules.scoring.melds_as_bonus else 0 for s in range(n))
        window = None
        if play == RULE_BASED:
            pile = counts_of(best.discard)
            line = rule_based_line(np.stack(play_hands), trump, first_leader(rules, sol, trump), side,
                                   play_rule(rules), rules.play.last_trick, DECK_COUNTS[rules.layout.sevens],
                                   pile, sol, bonus, trumps_of(pile, trump) if rules.discard.trumps_shown else None)
        else:
            assert solver is not None
            pos = Position(tuple(play_hands), trump, first_leader(rules, sol, trump), sol, side, (),
                           rules.play.last_trick, bonus, (), play_rule(rules))
            window = _window(rules, pos, solver, best.discard_points, budget_nodes)
            line = play_line(pos, solver) if window is None else play_line(pos, solver, *window, budget_nodes)
        deal = PlayedDeal(sol, bid, TRUMP, list(line.seat_points), list(line.seat_tricks), melds,
                          best.discard_points)
        scores = table_scores(rules, deal)
        running = _running_totals(rules, line, melds, sol, best.discard_points)
        total = team_total(rules, deal, side)
        took = any(line.seat_tricks[s] > 0 for s in side)
        out = _Outcome(sol, bid, TRUMP, trump, bool(scores[sol] > 0), scores, running, total, took, predicted)
        if window is not None and budget_nodes is not None:
            # The side's total at the window's ends (play.dd's formula: discards + value, rounded, plus
            # melds that need no trick); resolved when both ends give the same total.
            free = 0 if rules.scoring.melds_as_bonus else sum(melds[s] for s in side)
            out.total_lo, out.total_hi = (int(round_points(best.discard_points + v, rules)) + free for v in window)
            out.made_lo, out.made_hi = out.total_lo >= bid and window[0] > 0, out.total_hi >= bid
            out.exact = out.total_lo == out.total_hi and (line.lo, line.hi) == window  # not widened over budget
            if out.exact:
                out.made_lo = out.made_hi = out.made
        out.made_dd = (out.made, out.made_lo, out.made_hi)
        # What he knows after the Tapp: the exchange's estimate (with a partner's expected share), the bid
        # ladder's rule. (The pre-Tapp formula he bid with never advised going out: 0 % surrenders.) The line
        # above is played either way, so the auction's calibration can count surrendered deals as played out.
        out.estimate = int(round(float(ch.subjective[0].mean())))
        if goes_out(ch.subjective, ch.subjective_took, np.array([bid]), rules)[0, 0]:
            deal = PlayedDeal(sol, bid, SURRENDER, zeros, zeros, melds, best.discard_points)
            # The side's total stays the played-out one (a property of the deal, e.g. its makeable bid).
            return _Outcome(sol, bid, SURRENDER, trump, False, table_scores(rules, deal), [], out.total, out.took,
                            predicted, out.total_lo, out.total_hi, estimate=out.estimate, made_dd=out.made_dd)
        return out
    # Durch / Bettel: no trumps, no melds; the solver (or the rule-based line) says whether the soloist makes it:
    # every trick his own, or none.
    from_hand = best.contract == DURCH and not rules.durch.uses_tapp
    if play == RULE_BASED:
        line = rule_based_line(np.stack(play_hands), -1, first_leader(rules, sol, DURCH_CODE), side, play_rule(rules),
                               rules.play.last_trick, DECK_COUNTS[rules.layout.sevens], counts_of(best.discard),
                               -1 if from_hand else sol)
        made = line.seat_tricks[sol] == (len(line.trick_winners) if best.contract == DURCH else 0)
    else:
        assert solver is not None
        pos = Position(tuple(play_hands), None, first_leader(rules, sol, DURCH_CODE), sol, side, (),
                       rules.play.last_trick, tuple(zeros), (), play_rule(rules))
        made = solver.durch(pos) if best.contract == DURCH else solver.bettel(pos)
    deal = PlayedDeal(sol, bid, best.contract, zeros, zeros, zeros, best.discard_points, from_hand=from_hand,
                      special_made=made)
    return _Outcome(sol, bid, best.contract, -1, bool(made), table_scores(rules, deal), [])


def simulate_game(rules: Rules, seed: int, game: int, solver: Solver | None = None,
                  max_deals: int = MAX_DEALS, budget_nodes: int | None = None, *,
                  play: PlayMode = DOUBLE_DUMMY) -> GameRecord:
    """Play game number ``game`` of ``seed`` to its end (or ``max_deals``); ``budget_nodes``: per deal
    (None: exact; see :func:`play_budget`); ``play``: how the cards are played (:data:`PLAY_MODES`)."""
    check_play(play, budget_nodes)
    if play == DOUBLE_DUMMY:
        solver = solver or Solver()
    n = rules.layout.table_players
    dealer = Dealer(rules, seed, stream=streams.stream("game", game))
    totals = np.zeros(n, dtype=np.int64)
    rec = GameRecord(game=game, deals=0, winner=-1, totals=[0] * n)
    for j in range(max_deals):
        row = dealer.deal(1, start=j)[0]
        # Seat n - 1 of the scores is the dealer who sits out, where one does.
        seat_player = [(s + j) % n for s in range(n)]
        o = play_deal(rules, row, solver, budget_nodes, play=play)
        claimed = _claim(rules, o, seat_player, totals)
        scores = np.zeros(n, dtype=np.int64)
        for s in range(n):
            scores[seat_player[s]] = o.scores[s]
        totals += scores
        sol_player = seat_player[o.soloist_seat] if o.soloist_seat >= 0 else -1
        rec.records.append(DealRecord(
            game=game, deal=j, soloist=sol_player, soloist_seat=o.soloist_seat, bid=o.bid, contract=o.contract,
            trump=SUITS[o.trump] if o.trump >= 0 else "-", made=o.made, scores=scores.tolist(),
            totals=totals.tolist(), claimed_by=claimed, p_make_predicted=o.predicted, exact=o.exact,
            made_lo=o.made_lo, made_hi=o.made_hi, side_total_lo=o.total_lo, side_total_hi=o.total_hi,
            soloist_estimate=o.estimate, made_if_played=o.made_dd[0], made_if_played_lo=o.made_dd[1],
            made_if_played_hi=o.made_dd[2],
        ))
        rec.deals = j + 1
        rec.totals = totals.tolist()
        winner = claimed if claimed >= 0 else _winner(rules, totals, sol_player)
        if winner >= 0:
            rec.winner = winner
            break
    return rec


__all__ = ["ceiling", "check_play", "play_budget", "play_deal", "simulate_game", "GameRecord", "DealRecord",
           "PlayMode"]
