"""Deals where a seat passes: the data of the pass value (:mod:`binokel_sim.evaluation.pass_value`).

A seat made to pass (its ceiling 0) watches the others bid up to the whole-game simulator's
ceilings (:func:`binokel_sim.game.simulate.ceiling`); the winner exchanges, may go out and plays
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
from binokel_sim.evaluation.pass_value import PassValue
from binokel_sim.game.auction import auction
from binokel_sim.game.simulate import ceiling, play_budget, play_deal
from binokel_sim.rules import Rules
from binokel_sim.runner import Chunk, Job, Scale, chunk_ranges, join_rows, run_local_chunks

#: Deals per chunk: a deal takes about 0.2 s at 40 cards, so a chunk is seconds of work.
CHUNK_DEALS = 20
#: The checked tier's pass value plays at most this many deals: one deal spreads about 40 points, so 200 give an SE
#: near 3, below the ladder's own errors at the bids that matter.
CHECKED_PASS_DEALS = 200


class PassRows(NamedTuple):
    """Forced-pass observations: each passing seat's dealt hand (``uint8[n, 24]``), seat and score (a tuple,
    so a checkpoint stores it)."""

    hands: np.ndarray
    seats: np.ndarray
    scores: np.ndarray

    @staticmethod
    def join(parts) -> "PassRows":
        """One :class:`PassRows` of chunks' rows (tuples read back from a checkpoint too)."""
        return join_rows(PassRows, parts)


def passing_scores(rules: Rules, row: np.ndarray, solver, budget: int | None, seats) -> np.ndarray:
    """The score of each seat in ``seats`` when it passes on the dealt ``row`` (int64[len(seats)])."""
    n = rules.n_seats
    hands = [counts_of(row[s], check=False) for s in seat_slices(rules)[:n]]
    natural = [ceiling(h, rules) for h in hands]
    seen: dict[tuple[int, int], np.ndarray] = {}
    out = np.empty(len(seats), dtype=np.int64)
    for k, s in enumerate(seats):
        c = list(natural)
        c[s] = 0
        key = auction(c, rules)
        if key not in seen:  # the play depends on the auction's outcome only
            seen[key] = play_deal(rules, row, solver, budget, ceilings=c).scores
        out[k] = seen[key][s]
    return out


@dataclass(frozen=True)
class DefenceParams:
    """The solve's node budget per deal (None: exact)."""

    solve_budget: int | None = None


def defence_chunk(job: Job, chunk: Chunk) -> PassRows:
    """Deals ``chunk.start .. chunk.stop - 1`` of stream ``defence``, every seat passing in turn."""
    from binokel_sim.play.solver import Solver

    rules = job.rules
    n = rules.n_seats
    rows = Dealer(rules, job.seed, stream=streams.stream("defence")).deal(chunk.size, start=chunk.start)
    solver = Solver()
    sl = seat_slices(rules)
    hands: list[np.ndarray] = []
    seats: list[int] = []
    scores: list[np.ndarray] = []
    for row in rows:
        scores.append(passing_scores(rules, row, solver, job.params.solve_budget, range(n)))
        hands.extend(counts_of(row[sl[s]], check=False) for s in range(n))
        seats.extend(range(n))
    return PassRows(np.asarray(hands, dtype=np.uint8).reshape(-1, 24), np.asarray(seats, dtype=np.int64),
                    np.concatenate(scores) if scores else np.zeros(0, np.int64))


def defence_job(rules: Rules, deals: int, seed: int = 1, solve_budget: int | None = None) -> Job:
    """The forced-pass deals ``binokel fit defence`` fits on (see the module docstring)."""
    rules.require_auction("the pass value")
    if deals < 1:
        raise InputError(f"--deals: expected a positive number of deals, got {deals}")
    return Job("defence", defence_chunk, n=int(deals), seed=int(seed), rules=rules,
               params=DefenceParams(play_budget(rules, solve_budget)), chunk_size=CHUNK_DEALS)


def pass_value_checked(counts: np.ndarray, rules: Rules, seat: int, samples: int, seed: int = 1,
                       scale: Scale | None = None, solve_budget: int | None = None) -> PassValue:
    """The pass value of one hand (count vector) at ``seat`` from ``samples`` deals of the unseen cards."""
    rules.require_auction("the pass value")
    if not 0 <= seat < rules.n_seats:
        raise InputError(f"seat: expected 0..{rules.n_seats - 1} for preset {rules.name!r}, got {seat}")
    budget = play_budget(rules, solve_budget)
    dealer = Dealer(rules, seed, predealt={seat: cards_of(counts)}, stream=streams.stream("eval_pass"))

    def one(c: Chunk) -> np.ndarray:
        from binokel_sim.play.solver import Solver

        solver = Solver()
        return np.array([passing_scores(rules, row, solver, budget, [seat])[0]
                         for row in dealer.deal(c.size, start=c.start)], dtype=np.int64)

    from binokel_sim.provenance import rules_hash

    key = {"hand": cards_of(counts), "seat": seat, "seed": seed, "rules": rules_hash(rules), "budget": budget}
    y = np.concatenate(run_local_chunks(one, chunk_ranges(samples, CHUNK_DEALS), scale, "pass value",
                                        "the pass value", key)).astype(np.float64)
    sd = float(y.std(ddof=1)) if len(y) > 1 else float("nan")
    return PassValue(mean=float(y.mean()), se=sd / np.sqrt(len(y)), sd=sd, n=len(y),
                     basis=f"{len(y)} deals of the unseen cards where this hand passed, seed {seed}")


def pass_value(hand, rules="standard", seat: int = 0, samples: int | None = None, seed: int = 1,
               scale: Scale | None = None) -> PassValue:
    """What passing is worth to ``hand`` (card text or card types) at ``seat``: the fitted model
    (instant) without ``samples``, else its own ``samples`` forced-pass deals (checked).

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
        return pass_value_checked(counts, rules, seat, samples, seed, scale)
    m = load_defence(rules)
    if m is None:
        raise InputError(f"no pass-value model fitted for rules {rules.name!r}: give samples=N (or run binokel fit"
                         f" defence --rules {rules.name} --write)")
    return m.value(counts, rules, seat)


__all__ = ["CHECKED_PASS_DEALS", "DefenceParams", "PassRows", "defence_job", "pass_value", "pass_value_checked",
           "passing_scores"]
