"""Deals where a seat passes: the data of the pass value (:mod:`binokel_sim.evaluation.pass_value`).

A seat made to pass (its ceiling 0) watches the others bid up to the instant tier's ceilings
(:func:`opponent_ceilings`: what ``bid`` calls the ceiling, the match's ``ceiling`` policy); the
winner exchanges, may go out and plays
double-dummy; the passing seat scores as docs/rules.md §7 says (its own tricks, its melds with a
trick; as forehand it plays the minimum where every seat passes and forehand must open). One
played deal serves every seat whose pass leaves the same auction outcome (:func:`passing_scores`).

* :func:`defence_job` -- ``deals`` deals of stream ``defence``, every seat passing in turn: the
  rows ``binokel fit defence`` fits :class:`~binokel_sim.evaluation.pass_value.DefenceModel` on;
* :func:`pass_value_checked` -- the checked tier's pass value of one hand: its own deals of the
  unseen cards (stream ``eval_pass``), the hand passing at its seat.

Chunks are seeded by deal index (:mod:`binokel_sim.runner`): the same seed gives the same rows
at any worker count.

>>> from binokel_sim.rules import load_rules
>>> r = load_rules("standard")
>>> rows = defence_job(r, 2, seed=1).run()
>>> [len(c.scores) for c in rows], sorted(set(rows[0].seats.tolist()))
([6], [0, 1, 2])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from binokel_sim import streams
from binokel_sim.cards import cards_of, counts_of
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.errors import InputError
from binokel_sim.evaluation.instant import load_instant
from binokel_sim.evaluation.margin import PLAYED, SPECIAL, THROWN_IN, WENT_OUT
from binokel_sim.evaluation.pass_value import PassValue
from binokel_sim.game.auction import auction
from binokel_sim.game.simulate import play_budget, play_deal
from binokel_sim.rules import Rules
from binokel_sim.runner import Chunk, Job, Scale, chunk_ranges, join_rows, run_local_chunks

#: Deals per chunk: a deal takes about 0.2 s at 40 cards, so a chunk is seconds of work.
CHUNK_DEALS = 20
#: The checked tier's pass value plays at most this many deals: one deal spreads about 40 points, so 200 give an SE
#: near 3, below the ladder's own errors at the bids that matter.
CHECKED_PASS_DEALS = 200


class PassRows(NamedTuple):
    """Forced-pass observations (a tuple, so a checkpoint stores it).

    Per passing seat: its dealt hand (``uint8[n, 24]``), seat, score and margin (its score minus the mean of
    the other seats'). Per distinct play of those deals (the soloist's side, for the "own minus the others"
    objective): ``play_kind`` (:data:`~binokel_sim.evaluation.margin.PLAYED` and its kin), the
    soloist side's total played out, the bid, the mean score of the seats other than the soloist, that mean
    had he gone out at the bid (trump contracts; else NaN) and the melds of his dealt hand at its best trump.
    """

    hands: np.ndarray
    seats: np.ndarray
    scores: np.ndarray
    margins: np.ndarray
    play_kind: np.ndarray
    play_total: np.ndarray
    play_bid: np.ndarray
    play_others: np.ndarray
    play_others_out: np.ndarray
    play_melds: np.ndarray

    @staticmethod
    def join(parts) -> "PassRows":
        """One :class:`PassRows` of chunks' rows (tuples read back from a checkpoint too)."""
        return join_rows(PassRows, parts)


def others_mean(scores: np.ndarray, seat: int) -> float:
    """The mean score of the seats other than ``seat``.

    >>> others_mean(np.array([100, 40, 20]), 0)
    30.0
    """
    return float((scores.sum() - scores[seat]) / (len(scores) - 1))


def _play_facts(rules: Rules, row: np.ndarray, o) -> tuple:
    """One play's row of :class:`PassRows`' ``play_*`` columns (``o``: :func:`play_deal`'s outcome)."""
    from binokel_sim.evaluation.pass_value import defence_features
    from binokel_sim.melds.scorer import meld_total
    from binokel_sim.scoring import SURRENDER, TRUMP, PlayedDeal, table_scores

    if o.soloist_seat < 0:
        return THROWN_IN, 0, 0, float(o.scores.mean()), float("nan"), 0
    sol, n = o.soloist_seat, rules.n_seats
    hands = [counts_of(row[s], check=False) for s in seat_slices(rules)[:n]]
    melds = int(defence_features(hands[sol][None], rules)[0, 0])
    if o.contract not in (TRUMP, SURRENDER):
        return SPECIAL, 0, o.bid, others_mean(o.scores, sol), float("nan"), melds
    # Had he gone out at this bid: the credit and the others' melds at his trump (their dealt hands).
    table = rules.meld_array()
    m = [0 if s == sol else int(meld_total(hands[s], o.trump, table)) for s in range(n)]
    zeros = [0] * n
    out = table_scores(rules, PlayedDeal(sol, o.bid, SURRENDER, zeros, zeros, m, 0))
    kind = WENT_OUT if o.contract == SURRENDER else PLAYED
    return kind, int(o.total), int(o.bid), others_mean(o.scores, sol), others_mean(out, sol), melds


def opponent_ceilings(rules: Rules, row: np.ndarray, model, skip=()) -> list[int]:
    """Each seat's highest bid on the dealt ``row``: the instant tier's ceiling (``model``, an
    :class:`~binokel_sim.evaluation.instant.InstantModel`; the highest bid with E[score] > 0, what ``bid`` and
    the match's ``ceiling`` policy bid to), or where no instant tier is fitted (``model`` None: a rules file of
    one's own) the whole-game simulator's (:func:`~binokel_sim.game.simulate.ceiling`); seats in ``skip`` 0
    (they pass: not asked)."""
    from binokel_sim.game.simulate import ceiling

    hands = [counts_of(row[s], check=False) for s in seat_slices(rules)[:rules.n_seats]]
    return [0 if s in skip else
            ceiling(h, rules) if model is None else
            int(model.advise(cards_of(h), rules, s, 0.8).ceiling_bid or 0)
            for s, h in enumerate(hands)]


def _opponents(model) -> str:
    """Whose ceilings the other seats bid to, in words (``model``: the instant tier or None)."""
    return ("the instant tier's ceilings" if model is not None else
            "the simulator's formula ceilings (no instant tier fitted for these rules)")


def opponents_of(rules: Rules) -> str:
    """Whose ceilings the other seats of the forced-pass deals bid to under ``rules``, in words: the instant
    tier's where one is fitted, else the simulator's (the figures say so)."""
    from binokel_sim.evaluation.instant import load_instant

    return _opponents(load_instant(rules))


def passing_plays(rules: Rules, row: np.ndarray, solver, budget: int | None, seats,
                  natural: list[int]) -> tuple[np.ndarray, ...]:
    """Each seat in ``seats`` passing on the dealt ``row`` while the others bid up to ``natural`` (each seat's
    highest bid, :func:`opponent_ceilings`): (its scores, its margins, the distinct plays' :class:`PassRows`
    ``play_*`` columns as a list of tuples)."""
    seen: dict[tuple[int, int], np.ndarray] = {}
    plays: list[tuple] = []
    score = np.empty(len(seats), dtype=np.int64)
    margin = np.empty(len(seats), dtype=np.float64)
    for k, s in enumerate(seats):
        c = list(natural)
        c[s] = 0
        key = auction(c, rules)
        if key not in seen:  # the play depends on the auction's outcome only
            o = play_deal(rules, row, solver, budget, ceilings=c)
            seen[key] = o.scores
            plays.append(_play_facts(rules, row, o))
        score[k] = seen[key][s]
        margin[k] = score[k] - others_mean(seen[key], s)
    return score, margin, plays  # type: ignore[return-value]


def passing_scores(rules: Rules, row: np.ndarray, solver, budget: int | None, seats, natural: list[int]
                   ) -> np.ndarray:
    """The score of each seat in ``seats`` when it passes on the dealt ``row`` (int64[len(seats)])."""
    return passing_plays(rules, row, solver, budget, seats, natural)[0]


@dataclass(frozen=True)
class DefenceParams:
    """The solve's node budget per deal (None: exact) and the content hash of the instant models the other seats
    bid by (a refitted model makes other rows: a checkpoint of the old ones is not reused)."""

    solve_budget: int | None = None
    opponents: str = ""


def _instant_digest(model) -> str:
    """The checkpoint's word for the other seats' bidding: the instant models' content hash, or ``simulator``."""
    import hashlib

    from binokel_sim.evaluation.instant import model_file

    if model is None:
        return "simulator"
    return hashlib.sha256(model_file("double-dummy").read_bytes()).hexdigest()[:16]


def defence_chunk(job: Job, chunk: Chunk) -> PassRows:
    """Deals ``chunk.start .. chunk.stop - 1`` of stream ``defence``, every seat passing in turn."""
    from binokel_sim.play.solver import Solver

    rules = job.rules
    n = rules.n_seats
    rows = Dealer(rules, job.seed, stream=streams.stream("defence")).deal(chunk.size, start=chunk.start)
    solver = Solver()
    model = load_instant(rules)  # once per chunk: its file is megabytes
    sl = seat_slices(rules)
    hands: list[np.ndarray] = []
    seats: list[int] = []
    scores: list[np.ndarray] = []
    margins: list[np.ndarray] = []
    plays: list[tuple] = []
    for row in rows:
        sc, mg, pl = passing_plays(rules, row, solver, job.params.solve_budget, range(n),
                                   opponent_ceilings(rules, row, model))
        scores.append(sc)
        margins.append(mg)
        plays.extend(pl)
        hands.extend(counts_of(row[sl[s]], check=False) for s in range(n))
        seats.extend(range(n))
    cols = list(zip(*plays)) if plays else [()] * 6
    kinds = (np.int8, np.int64, np.int64, np.float64, np.float64, np.int64)
    return PassRows(np.asarray(hands, dtype=np.uint8).reshape(-1, 24), np.asarray(seats, dtype=np.int64),
                    np.concatenate(scores) if scores else np.zeros(0, np.int64),
                    np.concatenate(margins) if margins else np.zeros(0),
                    *(np.asarray(c, dtype=t) for c, t in zip(cols, kinds)))


def defence_job(rules: Rules, deals: int, seed: int = 1, solve_budget: int | None = None) -> Job:
    """The forced-pass deals ``binokel fit defence`` fits on (see the module docstring)."""
    rules.require_auction("the pass value")
    if deals < 1:
        raise InputError(f"--deals: expected a positive number of deals, got {deals}")
    return Job("defence", defence_chunk, n=int(deals), seed=int(seed), rules=rules,
               params=DefenceParams(play_budget(rules, solve_budget), _instant_digest(load_instant(rules))),
               chunk_size=CHUNK_DEALS)


def pass_value_checked(counts: np.ndarray, rules: Rules, seat: int, samples: int, seed: int = 1,
                       scale: Scale | None = None, solve_budget: int | None = None,
                       objective: str = "own") -> PassValue:
    """The pass value of one hand (count vector) at ``seat`` from ``samples`` deals of the unseen cards
    (``objective``: :data:`~binokel_sim.evaluation.pass_value.OBJECTIVES`; both are played alike)."""
    from binokel_sim.evaluation.pass_value import check_objective

    check_objective(objective)
    rules.require_auction("the pass value")
    if not 0 <= seat < rules.n_seats:
        raise InputError(f"seat: expected 0..{rules.n_seats - 1} for preset {rules.name!r}, got {seat}")
    budget = play_budget(rules, solve_budget)
    dealer = Dealer(rules, seed, predealt={seat: cards_of(counts)}, stream=streams.stream("eval_pass"))
    model = load_instant(rules)  # once: the chunks run on local threads

    def one(c: Chunk) -> np.ndarray:
        from binokel_sim.play.solver import Solver

        solver = Solver()
        # Rows: (score, margin) per deal.
        return np.array([[float(v[0]) for v in passing_plays(rules, row, solver, budget, [seat],
                                                             opponent_ceilings(rules, row, model, (seat,)))[:2]]
                         for row in dealer.deal(c.size, start=c.start)], dtype=np.float64).reshape(-1, 2)

    from binokel_sim.provenance import rules_hash

    key = {"hand": cards_of(counts), "seat": seat, "seed": seed, "rules": rules_hash(rules), "budget": budget,
           "opponents": _instant_digest(model)}
    both = np.concatenate(run_local_chunks(one, chunk_ranges(samples, CHUNK_DEALS), scale, "pass value",
                                           "the pass value", key))
    y = both[:, 0 if objective == "own" else 1]
    sd = float(y.std(ddof=1)) if len(y) > 1 else float("nan")
    return PassValue(mean=float(y.mean()), se=sd / np.sqrt(len(y)), sd=sd, n=len(y),
                     basis=f"{len(y)} deals of the unseen cards where this hand passed, the others bidding to"
                           f" {_opponents(model)}, seed {seed}",
                     objective=objective)


def pass_value(hand, rules="standard", seat: int = 0, samples: int | None = None, seed: int = 1,
               scale: Scale | None = None, objective: str = "own") -> PassValue:
    """What passing is worth to ``hand`` (card text or card types) at ``seat``: the fitted model
    (instant) without ``samples``, else its own ``samples`` forced-pass deals (checked); ``objective``
    ``own`` (its score) or ``margin`` (its score minus the mean of the other seats').

    >>> pass_value("EA EA EK EO EU GA G10 HA HK SA SO SU", "standard", samples=4).n
    4
    """
    from binokel_sim.dealing.hand_input import as_counts
    from binokel_sim.evaluation.pass_value import load_defence
    from binokel_sim.rules import as_rules

    rules = as_rules(rules)
    rules.require_auction("the pass value")
    counts = as_counts(hand, "hand", rules.layout.hand_size, rules)
    if not 0 <= seat < rules.n_seats:
        raise InputError(f"seat: expected 0..{rules.n_seats - 1} for preset {rules.name!r}, got {seat}")
    if samples is not None:
        if samples < 2:
            raise InputError(f"samples: expected at least 2 deals for an error, got {samples}")
        return pass_value_checked(counts, rules, seat, samples, seed, scale, objective=objective)
    m = load_defence(rules)
    if m is None:
        raise InputError(f"no pass-value model fitted for rules {rules.name!r}: give samples=N (or run binokel fit"
                         f" defence --rules {rules.name} --write)")
    return m.value(counts, rules, seat, objective)


def weigh_ladder(hand, cols, rules: Rules, seat: int = 0, total: float | None = None, objective: str = "own",
                 samples: int | None = None, seed: int = 1, scale: Scale | None = None):
    """A ladder (columns or frame: ``bid``, ``expected_score(_se)``, ``p_surrender``) of ``hand`` at ``seat``
    weighed against passing (:class:`~binokel_sim.evaluation.pass_value.VersusPass`) for ``objective``:
    :func:`pass_value` (fitted, or its ``samples`` deals); for ``margin`` the ladder's others' mean by the fitted
    :class:`~binokel_sim.evaluation.margin.OthersLine` at the ladder's expected ``total``.

    >>> from binokel_sim.rules import load_rules
    >>> cols = {"bid": np.array([150, 160]), "expected_score": np.array([300.0, 290.0]),
    ...         "expected_score_se": np.array([5.0, 5.0]), "p_surrender": np.array([0.0, 0.0])}
    >>> vs = weigh_ladder("EA EA E10 EK EO EU GA G10 HA H10 SA S10", cols, load_rules("standard"), total=320.0,
    ...                   objective="margin")
    >>> vs.objective, vs.bid_up_to
    ('margin', 160)
    """
    from binokel_sim.dealing.hand_input import as_counts
    from binokel_sim.evaluation.margin import margin_columns
    from binokel_sim.evaluation.pass_value import check_objective, defence_features, load_defence, versus_pass
    from binokel_sim.rules import as_rules

    rules = as_rules(rules)
    check_objective(objective)
    pv = pass_value(hand, rules, seat, samples, seed, scale, objective=objective)
    if objective == "own":
        return versus_pass(cols, pv)
    m = load_defence(rules)
    if m is None or m.others is None or total is None:
        why = "no expected total given" if total is None else f"no others' line fitted for rules {rules.name!r}"
        raise InputError(f"objective margin: {why} (binokel fit defence --rules {rules.name} --write)")
    melds = float(defence_features(as_counts(hand, "hand", rules.layout.hand_size, rules)[None], rules)[0, 0])
    return versus_pass(margin_columns(cols, m.others, rules, total, melds).columns(), pv)


__all__ = ["CHECKED_PASS_DEALS", "DefenceParams", "PLAYED", "PassRows", "SPECIAL", "THROWN_IN", "WENT_OUT",
           "defence_job", "opponent_ceilings", "opponents_of", "others_mean", "pass_value", "pass_value_checked",
           "passing_plays", "passing_scores", "weigh_ladder"]
