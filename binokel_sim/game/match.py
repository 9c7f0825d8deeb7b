"""Duplicate matches of bidding policies: whole auctions on the same deals, one seat bidding by policy A, the
others by B, against B in every seat.

Each deal of stream ``match`` is played ``1 + n`` times per opponent policy B: once with B in every seat,
then with A in seat ``s`` and B in the others, for every seat ``s``. Only the auction differs between the
plays: the soloist exchanges with the heuristic optimiser, goes out when his estimate after the Tapp says
so, and the deal is played double-dummy (:func:`binokel_sim.game.simulate.play_deal`, each seat's
highest bid given). A play depends on the auction's outcome only, so each (soloist, bid) is played once.
Seat ``s``'s score with A minus its score with B is the deal's paired difference; its mean over the seats
is one observation per deal (:mod:`binokel_sim.analyses.match` clusters by deal).

Policies (:data:`POLICIES`) set a hand's highest bid before the auction, from what the hand alone shows:

* ``ceiling``: the instant tier's ceiling (the highest bid with E[score] > 0);
* ``safe``: the instant tier's safe bid (P(make) >= 0.8);
* ``vs-pass``: the highest bid where winning beats passing (:func:`~binokel_sim.evaluation.pass_value.versus_pass`
  of the instant ladder and the fitted pass value);
* ``table``: a player's count, no simulation: meld points at the best trump, plus 20 an ace and 10 a card of
  that trump, plus the deck's card points shared by the other seats (120 at 40 cards and three seats),
  floored to a legal bid (:func:`table_limit`).

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.cards import Hand
>>> # melds 140 at Eichel (trump pair 40, four aces 100) + 5 aces x 20 + 5 trumps x 10 + 240 / 2
>>> table_limit(Hand.parse("EA EA EK EO EU GA G10 HA HK SA SO SU").counts, load_rules("standard"))
410
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from binokel_sim import streams
from binokel_sim.cards import CARD_POINTS, DECK_COUNTS, cards_of, counts_of
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.errors import InputError
from binokel_sim.evaluation.features import FEATURES, features_of
from binokel_sim.game.auction import auction, floor_to_step
from binokel_sim.game.defence import others_mean
from binokel_sim.game.simulate import play_budget, play_deal
from binokel_sim.rules import Rules
from binokel_sim.runner import Chunk, Job, join_rows
from binokel_sim.scoring import SURRENDER

if TYPE_CHECKING:
    from binokel_sim.evaluation.instant import InstantModel
    from binokel_sim.evaluation.pass_value import DefenceModel

POLICIES = ("ceiling", "safe", "vs-pass", "table")
#: Deals per chunk: a deal plays in about a second at 40 cards.
CHUNK_DEALS = 10
#: P(make) the ``safe`` policy asks for.
CONFIDENCE = 0.8


def table_limit(counts: np.ndarray, rules: Rules) -> int:
    """The ``table`` policy's highest bid (see the module docstring); 0: pass."""
    f = dict(zip(FEATURES, features_of(counts, rules).tolist()))
    deck = int(CARD_POINTS @ DECK_COUNTS[rules.layout.sevens])
    value = f["melds"] + 20 * f["aces"] + 10 * f["trump_len"] + deck // (rules.n_seats - 1)
    return floor_to_step(value, rules)


def check_policies(rules: Rules, policy: str, against: tuple[str, ...]) -> None:
    """One line, before any work: an unknown policy, none to play against, or a model a policy needs missing."""
    from binokel_sim.evaluation.instant import load_instant
    from binokel_sim.evaluation.pass_value import load_defence

    rules.require_auction("study match")
    for p in (policy, *against):
        if p not in POLICIES:
            raise InputError(f"unknown policy {p!r}: expected one of {', '.join(POLICIES)}")
    if not against or policy in against:
        raise InputError(f"--against: name at least one policy other than --policy {policy!r}")
    used = {policy, *against}
    if used & {"ceiling", "safe", "vs-pass"} and load_instant(rules) is None:
        raise InputError(f"no instant bid model fitted for rules {rules.name!r} (policies ceiling, safe, vs-pass):"
                         f" run binokel fit instant --rules {rules.name} --write")
    if "vs-pass" in used and load_defence(rules) is None:
        raise InputError(f"no pass-value model fitted for rules {rules.name!r} (policy vs-pass): run binokel fit"
                         f" defence --rules {rules.name} --write")


@dataclass(frozen=True)
class MatchParams:
    """Policy A, the policies B it meets, the solve's node budget per deal (None: exact)."""

    policy: str
    against: tuple[str, ...]
    solve_budget: int | None = None


class HandLimits(NamedTuple):
    """One hand's highest bid under each policy and its fitted pass value (NaN without a model)."""

    limits: dict
    pass_value: float


class Models(NamedTuple):
    """The fitted models the policies read: the instant tier (None where no policy needs it) and the pass value
    (None where none is fitted). Loaded once per chunk: the instant model's file is megabytes."""

    instant: "InstantModel | None"
    defence: "DefenceModel | None"

    @staticmethod
    def of(rules: Rules, policies) -> "Models":
        from binokel_sim.evaluation.instant import load_instant
        from binokel_sim.evaluation.pass_value import load_defence

        need = bool(set(policies) & {"ceiling", "safe", "vs-pass"})
        return Models(load_instant(rules) if need else None, load_defence(rules))


def hand_limits(counts: np.ndarray, rules: Rules, seat: int, policies, models: Models | None = None) -> HandLimits:
    """The highest bid of the hand at ``seat`` under each of ``policies`` (see the module docstring); ``models``:
    as :meth:`Models.of` loads them (loaded here when not given)."""
    from binokel_sim.evaluation.pass_value import versus_pass

    m = models or Models.of(rules, policies)
    out: dict[str, int] = {}
    a = None
    if m.instant is not None:
        a = m.instant.advise(cards_of(counts), rules, seat, CONFIDENCE)
    pv = m.defence.value(counts, rules, seat) if m.defence is not None else None
    for p in policies:
        if p == "table":
            out[p] = table_limit(counts, rules)
        elif p == "vs-pass":
            out[p] = versus_pass(a.ladder.columns(), pv).bid_up_to or 0  # type: ignore[union-attr, arg-type]
        else:
            out[p] = (a.safe_bid if p == "safe" else a.ceiling_bid) or 0  # type: ignore[union-attr]
    return HandLimits(out, pv.mean if pv is not None else float("nan"))


class MatchRows(NamedTuple):
    """One row per (deal, policy B, seat): A's seat and B's seat under the same deal (a tuple: a checkpoint
    stores it). ``won``/``failed``/``out``: the seat won the auction / failed / went out; ``others``: the
    mean score of the other seats; ``pass_value``: the seat's fitted pass value; ``bid``: the contract;
    ``passed_b``: the seat's score had it passed at once (its highest bid 0, the first B in the other seats;
    NaN under the other Bs) -- the event the pass value predicts, so its calibration is measured on every seat,
    not only on those that lost an auction they bid in."""

    deal: np.ndarray
    against: np.ndarray
    seat: np.ndarray
    score_a: np.ndarray
    score_b: np.ndarray
    others_a: np.ndarray
    others_b: np.ndarray
    won_a: np.ndarray
    won_b: np.ndarray
    failed_a: np.ndarray
    failed_b: np.ndarray
    out_a: np.ndarray
    out_b: np.ndarray
    bid_a: np.ndarray
    bid_b: np.ndarray
    pass_value: np.ndarray
    passed_b: np.ndarray

    @staticmethod
    def join(parts) -> "MatchRows":
        """One :class:`MatchRows` of chunks' rows (tuples read back from a checkpoint too)."""
        return join_rows(MatchRows, parts)


class _Plays:
    """The plays of one dealt row, each (soloist, bid) played once: (soloist seat, scores, contract, made, bid)."""

    def __init__(self, rules: Rules, row: np.ndarray, solver, budget: int | None):
        self.rules, self.row, self.solver, self.budget = rules, row, solver, budget
        self.seen: dict[tuple[int, int], tuple] = {}

    def __call__(self, ceilings: list[int]) -> tuple:
        key = auction(ceilings, self.rules)
        if key not in self.seen:
            o = play_deal(self.rules, self.row, self.solver, self.budget, ceilings=ceilings)
            self.seen[key] = (o.soloist_seat, o.scores.astype(np.int64), o.contract, bool(o.made), o.bid)
        return self.seen[key]


def _record(cols: dict[str, list], tag: str, outcome: tuple, s: int, n: int) -> None:
    sol, scores, contract, made, bid = outcome
    won = sol == s
    cols[f"score_{tag}"].append(int(scores[s]))
    cols[f"others_{tag}"].append(others_mean(scores, s))
    cols[f"won_{tag}"].append(won)
    cols[f"failed_{tag}"].append(won and contract != SURRENDER and not made)
    cols[f"out_{tag}"].append(won and contract == SURRENDER)
    cols[f"bid_{tag}"].append(int(bid) if won else 0)


def match_chunk(job: Job, chunk: Chunk) -> MatchRows:
    """Deals ``chunk.start .. chunk.stop - 1`` of the match (see the module docstring)."""
    from binokel_sim.play.solver import Solver

    rules, prm = job.rules, job.params
    n = rules.n_seats
    solver = Solver()
    sl = seat_slices(rules)
    rows = Dealer(rules, job.seed, stream=streams.stream("match")).deal(chunk.size, start=chunk.start)
    cols: dict[str, list] = {k: [] for k in MatchRows._fields}
    policies = (prm.policy, *prm.against)
    models = Models.of(rules, policies)
    for j, row in zip(range(chunk.start, chunk.stop), rows):
        lim = [hand_limits(counts_of(row[sl[s]], check=False), rules, s, policies, models) for s in range(n)]
        play = _Plays(rules, row, solver, prm.solve_budget)
        for b_index, b in enumerate(prm.against):
            base = [lim[s].limits[b] for s in range(n)]
            ob = play(base)
            for s in range(n):
                c = list(base)
                c[s] = lim[s].limits[prm.policy]
                _record(cols, "a", play(c), s, n)
                _record(cols, "b", ob, s, n)
                cols["deal"].append(j)
                cols["against"].append(b_index)
                cols["seat"].append(s)
                cols["pass_value"].append(lim[s].pass_value)
                c[s] = 0
                # Measured against the first B only (the calibration's): a play more per seat where it changes the auction.
                cols["passed_b"].append(float(play(c)[1][s]) if b_index == 0 else float("nan"))
    types = {"deal": np.int64, "against": np.int64, "seat": np.int64, "score_a": np.int64, "score_b": np.int64,
             "others_a": np.float64, "others_b": np.float64, "bid_a": np.int64, "bid_b": np.int64,
             "pass_value": np.float64, "passed_b": np.float64}
    return MatchRows(*(np.asarray(cols[k], dtype=types.get(k, bool)) for k in MatchRows._fields))


def match_job(rules: Rules, deals: int, policy: str, against: tuple[str, ...], seed: int = 1,
              solve_budget: int | None = None) -> Job:
    """The match's :class:`~binokel_sim.runner.Job` (checked: policies, models, deals)."""
    if isinstance(deals, bool) or deals < 1:
        raise InputError(f"--deals: expected a positive number of deals, got {deals}")
    check_policies(rules, policy, tuple(against))
    return Job("match", match_chunk, n=int(deals), seed=int(seed), rules=rules,
               params=MatchParams(policy, tuple(against), play_budget(rules, solve_budget)), chunk_size=CHUNK_DEALS)


__all__ = ["CHUNK_DEALS", "MatchParams", "MatchRows", "POLICIES", "check_policies", "hand_limits", "match_job",
           "table_limit"]
