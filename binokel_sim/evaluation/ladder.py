"""The bid ladder of a hand: P(make), E[score] and P(go out) per bid, the ceiling and the safe bid.

Semantics (printed by ``binokel bid``):

* **made** at bid ``b``: the soloist plays (does not go out after seeing the Tapp) and
  makes it -- a trump contract with a trick and total >= ``b``, or a made Durch/Bettel.
  A surrender counts as *not made*.
* **ceiling**: the highest bid with E[score] > 0.
* **safe**: the highest bid with P(make) >= confidence.

The going-out decision uses only what the soloist knows after seeing the Tapp: the
exchange policy's own estimate (``subjective`` totals) with its error measured on the
corpus (:mod:`binokel_sim.evaluation.going_out`), never the double-dummy result of the
deal itself (:data:`SURRENDER_BASIS`).

Why safe <= ceiling: at bid ``b`` a made trump deal scores its total >= ``b``; any
other deal scores ``-failure_factor * b`` (failed) or ``-penalty_factor * b`` (went
out), so with ``L = max(failure_factor, penalty_factor)`` and ``p`` = P(make)::

    E[score] >= p * b - (1 - p) * L * b  >  0   whenever  p > L / (1 + L).

So a confidence above ``L / (1 + L)`` (2/3 at ``standard``) guarantees safe <= ceiling
for trump contracts; Durch/Bettel score their own value whatever the bid, the one
other way the order can break. :func:`order_note` says which applies.

>>> from binokel_sim.rules import load_rules
>>> order_note(load_rules("standard"), 0.6, safe=420, ceiling=400).split(":")[0]
'safe bid 420 above the ceiling 400'
>>> order_note(load_rules("standard"), 0.8, safe=400, ceiling=420) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from binokel_sim.contracts import CONTRACT_NAMES, is_trump
from binokel_sim.rules import Rules
from binokel_sim.evaluation.going_out import ErrorArg, goes_out
from binokel_sim.evaluation.instant_advice import Ladder
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.scoring import bid_ladder
from binokel_sim.stats import decreasing, wilson

if TYPE_CHECKING:  # pandas is imported where a frame is built: the instant tier's start-up does without it
    import pandas as pd

SEMANTICS = ("P(make): the soloist plays (does not go out) and makes the bid; ceiling: highest bid with"
             " E[score] > 0; safe: highest bid with P(make) >= confidence")

#: What decides going out after seeing the Tapp, per exchange policy (the soloist's own knowledge).
SURRENDER_BASIS = {
    "melds": "the policy's own estimate (heuristic value of the kept cards; with a partner, plus his expected"
             " share) weighed with its error measured on the corpus, not the deal's double-dummy result",
    "heuristic": "the policy's own estimate (heuristic value of the kept cards; with a partner, plus his expected"
                 " share) weighed with its error measured on the corpus, not the deal's double-dummy result",
    "sampled": "the policy's own estimate (mean double-dummy score on its inner deals of the unseen cards),"
               " not the deal's own double-dummy result",
}


def loss_factor(rules: Rules) -> int:
    """``L = max(failure_factor, penalty_factor)``: the worst loss per bid point of a deal not made."""
    pen = rules.surrender.penalty_factor if rules.surrender.allowed else 0
    return max(int(rules.scoring.failure_factor), int(pen))


def order_note(rules: Rules, confidence: float, safe: int | None, ceiling: int | None) -> str | None:
    """None when safe <= ceiling (or either is missing); else one sentence saying why not."""
    if safe is None or (ceiling is not None and safe <= ceiling):
        return None
    L = loss_factor(rules)
    bound = L / (1 + L)
    top = f"safe bid {safe} above the ceiling {ceiling if ceiling is not None else '(none)'}: "
    if confidence <= bound:
        return top + (f"confidence {confidence:g} <= L/(1+L) = {bound:.3f} (L = max(failure, penalty factor)"
                      f" = {L}), so P(make) >= confidence does not imply E[score] > 0")
    return top + "a Durch/Bettel scores its own value whatever the bid, so its losses do not scale with the bid"


def outcomes(rules: Rules, parts: DealParts, bids, error: ErrorArg = "fitted") -> tuple[np.ndarray, ...]:
    """Per deal and bid (arrays [n, len(bids)]): (made, score, went out, made double-dummy).

    The rows :func:`bid_table` averages; calibration compares them one by one with predictions.
    Going out: :func:`binokel_sim.evaluation.going_out.goes_out` with ``error`` (an
    :class:`~binokel_sim.evaluation.going_out.EstimateError`, None: the estimate at face value,
    ``"fitted"``: the model fitted for ``rules``).

    >>> from binokel_sim.rules import load_rules
    >>> parts = DealParts.of_totals(np.array([200]), np.array([True]), estimate=np.array([190]))
    >>> # at 200 his own estimate (190, at face value) says go out: -1 x bid beats failing at -2 x bid
    >>> [x.tolist() for x in outcomes(load_rules("standard"), parts, np.array([180, 200, 210]), None)[:2]]
    [[[True, False, False]], [[200, -200, -210]]]
    """
    bids = np.asarray(bids, dtype=np.int64)
    value, took = parts.value, parts.took
    trump = is_trump(parts.code)
    b = bids[None, :]
    ff = rules.scoring.failure_factor
    made_dd = np.where(trump[:, None], took[:, None] & (value[:, None] >= b), parts.special_made[:, None])
    # A special's score does not depend on the bid: it is the deal's result.
    play = np.where(trump[:, None], np.where(made_dd, value[:, None], -ff * b), parts.result[:, None])
    # The soloist's own view of playing each bid, from his sampled (or heuristic) totals.
    out_ = goes_out(parts.subjective, parts.subjective_took, bids, rules, error) & trump[:, None]
    score = np.where(out_, -rules.surrender.penalty_factor * b, play)
    made = made_dd & ~out_
    return made, score, out_, made_dd


def bid_table(rules: Rules, parts: DealParts, bids: np.ndarray | None = None,
              error: ErrorArg = "fitted") -> pd.DataFrame:
    """:func:`ladder_columns` as a DataFrame."""
    return ladder_columns(rules, parts, bids, error).frame()


def ladder_columns(rules: Rules, parts: DealParts, bids: np.ndarray | None = None,
                   error: ErrorArg = "fitted") -> Ladder:
    """P(make), expected score and P(surrender) per bid, each with n and a standard error
    (P(make) also with its 95 % Wilson interval ``p_make_lo`` .. ``p_make_hi``).

    Made: the soloist plays and makes it (a trump contract with a trick and total >=
    bid, or a made Durch/Bettel: their value covers any bid); going out counts as not
    made. ``p_made_dd``: made double-dummy whether or not he went out. Score: the total,
    or ``-failure_factor * bid``; a special its own score; going out ``-penalty * bid``
    wherever the soloist's own estimate of playing is worse (``error``: see :func:`outcomes`).
    E[score] is the closest non-increasing ladder (:func:`~binokel_sim.stats.decreasing`) to the deals' means:
    every option at a higher bid is worse, so a rise (a deal that fails at one bid and goes out at the next)
    is the going-out rule's misstep, not the hand's worth.
    """
    value, took, code = parts.value, parts.took, parts.code
    trump = is_trump(code)
    if bids is None:
        top = int(value[trump & took].max()) if (trump & took).any() else rules.bidding.min_bid
        step = rules.bidding.bid_step
        bids = bid_ladder(rules, -(-top // step) * step + step)
    made, score, out_, made_dd = outcomes(rules, parts, bids, error)
    n = value.shape[0]
    p = made.mean(axis=0)
    ps = out_.mean(axis=0)
    sd = score.std(axis=0, ddof=1) if n > 1 else np.full(len(bids), np.nan)
    lo, hi = wilson(made.sum(axis=0), n)
    return Ladder.of({
        "bid": np.asarray(bids), "n": np.full(len(bids), n), "p_make": p, "p_make_se": np.sqrt(p * (1 - p) / n),
        "p_make_lo": lo, "p_make_hi": hi,
        "expected_score": decreasing(score.mean(axis=0)), "expected_score_se": sd / np.sqrt(n),
        "p_surrender": ps, "p_surrender_se": np.sqrt(ps * (1 - ps) / n), "p_made_dd": made_dd.mean(axis=0),
    })


class Decisions(NamedTuple):
    """What a ladder decides (:func:`decisions`): the ceiling, the safe bid (None: no bid qualifies) and,
    where safe > ceiling, why (:func:`order_note`)."""

    ceiling_bid: int | None
    safe_bid: int | None
    order_note: str | None


def decisions(rules: Rules, cols, confidence: float) -> Decisions:
    """Ceiling and safe bid of a ladder (a :class:`~binokel_sim.evaluation.instant_advice.Ladder`, a frame or
    columns), with :func:`order_note`.

    >>> from binokel_sim.rules import load_rules
    >>> decisions(load_rules("standard"), {"bid": [150, 160], "expected_score": [20.0, -5.0],
    ...                                    "p_make": [0.9, 0.7]}, 0.8)
    Decisions(ceiling_bid=150, safe_bid=150, order_note=None)
    """
    bid = np.asarray(cols["bid"])
    pos = bid[np.asarray(cols["expected_score"]) > 0]
    safe = bid[np.asarray(cols["p_make"]) >= confidence]
    ceiling_bid = int(pos.max()) if pos.size else None
    safe_bid = int(safe.max()) if safe.size else None
    return Decisions(ceiling_bid, safe_bid, order_note(rules, confidence, safe_bid, ceiling_bid))


def mean_se(x: np.ndarray) -> tuple[float, float]:
    """(mean, standard error) of ``x``; the error is NaN for fewer than two values."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")


@dataclass(frozen=True, eq=False)
class LadderSummary:
    """A hand's checked answer from its samples: :func:`summary_of_exact` (every sample solved) or
    :func:`binokel_sim.evaluation.checked.summary_of_thresholds` (most samples decided at a few bids).
    Each ``(mean, se)`` pair's n is the samples'."""

    #: The bid ladder (:func:`ladder_columns` as a frame; the threshold path adds ``n_exact``).
    bids: pd.DataFrame
    #: Highest bid with E[score] > 0 (None: none).
    ceiling_bid: int | None
    #: Highest bid with P(make) >= confidence (None: none).
    safe_bid: int | None
    #: None when safe <= ceiling; else why not (:func:`order_note`).
    order_note: str | None
    #: (mean, se) of the result with the Tapp minus the result with the Tapp laid away unseen (paired).
    tapp_value: tuple[float, float]
    #: (mean, se) of the result with the Tapp.
    total_with_tapp: tuple[float, float]
    #: (mean, se) of the result with the Tapp laid away unseen.
    total_tapp_unseen: tuple[float, float]
    #: Share of each contract chosen (:func:`contract_shares`).
    contracts: pd.DataFrame
    #: (mean, se) of a makeable Durch.
    p_durch: tuple[float, float]
    #: Samples solved exactly (all of them on the exact path).
    n_exact: int
    #: Share of samples a solve budget left open (counted as not made where undecided).
    unresolved: float = 0.0

    @property
    def decisions(self) -> Decisions:
        """Ceiling, safe bid and order note together."""
        return Decisions(self.ceiling_bid, self.safe_bid, self.order_note)


def summary_of_exact(rules: Rules, parts: DealParts, confidence: float) -> LadderSummary:
    """Bid table, ceiling and safe bid (with :func:`order_note`), Tapp value, contract shares and
    P(Durch) from samples all solved exactly (``parts`` needs ``base_result`` and ``durch``).

    >>> from binokel_sim.rules import load_rules
    >>> p = DealParts.of_totals(np.array([200, 170]), np.array([True, True]))
    >>> s = summary_of_exact(load_rules("standard"), p.replace(base_result=p.result - 30, durch=np.zeros(2, bool)), 0.8)
    >>> s.safe_bid, s.tapp_value
    (170, (30.0, 0.0))
    """
    bids = bid_table(rules, parts)
    d = decisions(rules, bids, confidence)
    base = parts.need("base_result")
    return LadderSummary(
        bids=bids, ceiling_bid=d.ceiling_bid, safe_bid=d.safe_bid, order_note=d.order_note,
        tapp_value=mean_se(parts.result - base), total_with_tapp=mean_se(parts.result),
        total_tapp_unseen=mean_se(base), contracts=contract_shares(parts.code), p_durch=mean_se(parts.need("durch")),
        n_exact=parts.n,
    )


def contract_shares(code: np.ndarray) -> pd.DataFrame:
    """Share of each contract among the deals, with n, standard error and 95 % Wilson interval."""
    import pandas as pd

    n = code.shape[0]
    shares = np.array([(code == c).mean() for c in range(len(CONTRACT_NAMES))])
    lo, hi = wilson(shares * n, n)
    return pd.DataFrame({"contract": CONTRACT_NAMES, "n": n, "share": shares,
                         "share_se": np.sqrt(shares * (1 - shares) / n), "share_lo": lo, "share_hi": hi})


def safe_bid_se(bids: pd.DataFrame, safe: int | None) -> float:
    """Uncertainty of P(make) at the safe bid (the lowest bid when there is none): the early-stopping test.

    The posterior standard deviation under a uniform prior, Beta(x + 1, n - x + 1): close
    to the binomial standard error, but never 0 (0 of 100 made does not mean "known exactly").

    >>> import pandas as pd
    >>> round(safe_bid_se(pd.DataFrame({"bid": [150], "n": [100], "p_make": [1.0]}), 150), 4)
    0.0097
    """
    row = bids[bids["bid"] == safe] if safe is not None else bids.head(1)
    n = float(row["n"].iloc[0])
    x = float(row["p_make"].iloc[0]) * n
    a, b = x + 1, n - x + 1
    return float(np.sqrt(a * b / ((a + b) ** 2 * (a + b + 1))))
