"""The "own minus the others" objective: a bid ladder scored as the seat's score minus the mean of the other
seats' scores, for games played to a target, where what the others score counts against you.

Winning at bid ``b``, the others' mean score is

* where the soloist plays the contract: a line in his side's total ``T`` and his dealt hand's melds ``M``,
  ``a + b_T T + c_M M`` (the defenders' card points fall as his rise; his melds take no card points from
  them), fitted by :func:`fit_others` on the forced-pass deals' plays (:class:`~binokel_sim.game.defence.PassRows`);
* where he goes out: the rules' credit at ``b`` (docs/rules.md §4.3, with a partner's ``-b`` at
  Kreuzbinokel) plus the others' mean melds at his trump, averaged over the same plays.

:func:`margin_columns` weighs the two by the ladder's going-out share at each bid:
``E[margin | b] = E[score | b] - (1 - p_out) (a + b_T T + c_M M) - p_out (credit(b) + melds)``, with ``T``
the ladder's expected total. Durch and Bettel count as played (rare; their others' score is the rules').
The standard error adds the ladder's, the line's at ``(T, M)`` and the meld mean's (independent estimates).

>>> ol = OthersLine(coef=[150.0, -0.25, 0.1], cov=[[0.0] * 3] * 3, sd=30.0, n=100, out_melds=20.0,
...                 out_melds_se=1.0, n_out=100)
>>> from binokel_sim.rules import load_rules
>>> cols = {"bid": np.array([150, 200]), "expected_score": np.array([250.0, 100.0]),
...         "expected_score_se": np.array([5.0, 5.0]), "p_surrender": np.array([0.0, 0.5])}
>>> m = margin_columns(cols, ol, load_rules("standard"), total=300.0, melds=100)
>>> m.expected_margin.tolist()   # 250 - (150 - 75 + 10); 100 - (0.5 * 85 + 0.5 * (50 + 20))
[165.0, 22.5]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from binokel_sim.rules import Rules

#: The kinds of a forced-pass deal's play (``PassRows.play_kind``, :mod:`binokel_sim.game.defence`): a trump
#: contract played out, one the soloist went out of, a Durch or Bettel, a deal every seat passed.
PLAYED, WENT_OUT, SPECIAL, THROWN_IN = 0, 1, 2, 3


@dataclass(frozen=True)
class OthersLine:
    """The others' mean score when this seat wins (see the module docstring): ``coef`` ``[a, b_T, c_M]``
    with covariance ``cov`` and residual ``sd`` on ``n`` played contracts; ``out_melds`` ± ``out_melds_se``:
    the others' mean melds at the soloist's trump, on ``n_out`` trump contracts."""

    coef: list[float]
    cov: list[list[float]]
    sd: float
    n: int
    out_melds: float
    out_melds_se: float
    n_out: int

    def played(self, total: float, melds: float) -> tuple[float, float]:
        """(the others' mean score, its SE) where the soloist plays with expected total ``total``."""
        x = np.array([1.0, float(total), float(melds)])
        return float(x @ np.asarray(self.coef)), float(np.sqrt(max(0.0, x @ np.asarray(self.cov) @ x)))


def out_credit(rules: Rules, bids) -> np.ndarray:
    """The others' mean score where the soloist goes out at each of ``bids`` with no melds among them
    (float[len(bids)]; at Kreuzbinokel every seat carries its team's score: the partner -bid, each defender
    the team's credit).

    >>> from binokel_sim.rules import load_rules
    >>> out_credit(load_rules("standard"), [150, 300]).tolist(), out_credit(load_rules("kreuz"), [200]).tolist()
    ([50.0, 50.0], [0.0])
    """
    from binokel_sim.scoring import SURRENDER, PlayedDeal, table_scores

    n = rules.n_seats
    zeros = [0] * n
    out = []
    for b in np.asarray(bids, dtype=np.int64):
        s = table_scores(rules, PlayedDeal(0, int(b), SURRENDER, zeros, zeros, zeros, 0))
        out.append(float((s.sum() - s[0]) / (len(s) - 1)))
    return np.asarray(out)


def fit_others(rows, rules: Rules) -> OthersLine:
    """:class:`OthersLine` from forced-pass plays (``rows``: :class:`~binokel_sim.game.defence.PassRows`).

    >>> from types import SimpleNamespace
    >>> rng = np.random.default_rng(2)
    >>> t, m = rng.uniform(100, 400, 300), rng.uniform(0, 300, 300)
    >>> rows = SimpleNamespace(play_kind=np.full(300, PLAYED), play_total=t, play_bid=np.full(300, 200),
    ...                        play_others=160 - 0.3 * t + 0.1 * m, play_others_out=80.0 + rng.normal(0, 5, 300),
    ...                        play_melds=m)
    >>> ol = fit_others(rows, __import__("binokel_sim.rules").rules.load_rules("standard"))
    >>> np.round(ol.coef, 3).tolist(), round(ol.out_melds)   # 80 - the credit of 50
    ([160.0, -0.3, 0.1], 30)
    """
    from binokel_sim.errors import InputError

    kind = np.asarray(rows.play_kind)
    played = kind == PLAYED
    if played.sum() < 10:
        raise InputError(f"fit defence: {int(played.sum())} played contracts are too few for the others' line")
    X = np.column_stack([np.ones(played.sum()), rows.play_total[played], rows.play_melds[played]]).astype(np.float64)
    y = np.asarray(rows.play_others, dtype=np.float64)[played]
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    resid = y - X @ coef
    s2 = float(resid @ resid / (len(y) - 3))
    trump = played | (kind == WENT_OUT)
    melds = rows.play_others_out[trump] - out_credit(rules, rows.play_bid[trump])
    return OthersLine(coef=coef.tolist(), cov=(s2 * np.linalg.inv(X.T @ X)).tolist(), sd=float(np.sqrt(s2)),
                      n=int(len(y)), out_melds=float(melds.mean()),
                      out_melds_se=float(melds.std(ddof=1) / np.sqrt(len(melds))), n_out=int(len(melds)))


@dataclass(frozen=True)
class Margins:
    """:func:`margin_columns`' answer: per bid of a ladder (int[k] ``bid``) the expected margin (own score minus
    the others' mean, float[k]) and its standard error; :meth:`columns` gives them as the ladder columns
    :func:`~binokel_sim.evaluation.pass_value.versus_pass` weighs."""

    bid: np.ndarray
    expected_margin: np.ndarray
    expected_margin_se: np.ndarray

    def columns(self) -> dict[str, np.ndarray]:
        return {"bid": self.bid, "expected_margin": self.expected_margin,
                "expected_margin_se": self.expected_margin_se}


def margin_columns(cols, others: OthersLine, rules: Rules, total: float, melds: float) -> Margins:
    """:class:`Margins` (``expected_margin`` ± ``expected_margin_se``) per bid of a ladder (columns or frame with
    ``bid``, ``expected_score(_se)``, ``p_surrender``) for a hand of expected total ``total`` and dealt melds
    ``melds``; non-increasing like E[score] (:func:`~binokel_sim.stats.decreasing`)."""
    from binokel_sim.stats import decreasing

    bids = np.asarray(cols["bid"], dtype=np.int64)
    e = np.asarray(cols["expected_score"], dtype=np.float64)
    se = np.asarray(cols["expected_score_se"], dtype=np.float64)
    p_out = np.asarray(cols["p_surrender"], dtype=np.float64)
    played, played_se = others.played(total, melds)
    away = out_credit(rules, bids) + others.out_melds
    rest = (1 - p_out) * played + p_out * away
    rest_se = np.sqrt(((1 - p_out) * played_se) ** 2 + (p_out * others.out_melds_se) ** 2)
    return Margins(bid=bids, expected_margin=decreasing(e - rest), expected_margin_se=np.sqrt(se ** 2 + rest_se ** 2))


__all__ = ["PLAYED", "SPECIAL", "THROWN_IN", "WENT_OUT", "Margins", "OthersLine", "fit_others", "margin_columns",
           "out_credit"]
