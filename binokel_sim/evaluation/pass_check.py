"""The pass value's calibration on held-out deals: every forced-pass seat predicted by the surface fitted on
the other folds of deals (a deal's seats stay in one fold: they share its cards), then binned by the
prediction, each bin's realised mean against its predicted mean with n, SE and ``z`` = gap / SE.

``binokel fit defence`` prints it; a well-specified model keeps every ``|z|`` near 2 or below.

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.dealing.dealer import Dealer, seat_slices
>>> from binokel_sim.cards import counts_of
>>> from binokel_sim.evaluation.pass_value import defence_features
>>> R = load_rules("standard")
>>> rows = Dealer(R, 5).deal(300)
>>> hands = np.array([counts_of(r[seat_slices(R)[s]], check=False) for r in rows for s in range(3)])
>>> seats = np.tile(np.arange(3), 300)
>>> y = 50 + 2 * defence_features(hands, R)[:, 2] + np.random.default_rng(0).normal(0, 5, 900)
>>> t = held_out_deciles(hands, seats, y, R, quadratic=False, bins=5, bent=False)
>>> int(t["n"].sum()), bool((t["z"].abs() < 3).all())
(900, True)
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from binokel_sim.evaluation.pass_surface import bend, design, fit_bend, held_out
from binokel_sim.evaluation.pass_value import defence_features
from binokel_sim.rules import Rules


def held_out_predictions(hands: np.ndarray, seats: np.ndarray, scores: np.ndarray, rules: Rules,
                         quadratic: bool = True, folds: int = 10, bent: bool = True) -> np.ndarray:
    """Each row's prediction by the surface fitted on the other folds (fold: deal index mod ``folds``; rows in
    deal order, ``rules.n_seats`` a deal), ``bent`` off the floor as :func:`fit_defence` bends it."""
    X = design(defence_features(hands, rules), seats, rules.n_seats, quadratic)
    y = np.asarray(scores, dtype=np.float64)
    pred = held_out(X, y, rules.n_seats, folds)
    return bend(pred, fit_bend(pred, y)) if bent else pred


def deciles(pred: np.ndarray, real: np.ndarray, bins: int = 10) -> pd.DataFrame:
    """``bins`` quantile bins of ``pred``: n, mean predicted, mean realised, its SE and z per bin.

    >>> deciles(np.array([1.0, 2, 3, 4]), np.array([1.0, 3, 3, 5]), 2)[["n", "predicted", "realised"]].values.tolist()
    [[2.0, 1.5, 2.0], [2.0, 3.5, 4.0]]
    """
    edges = np.quantile(pred, np.linspace(0, 1, bins + 1))
    which = np.clip(np.searchsorted(edges, pred, side="right") - 1, 0, bins - 1)
    rows = []
    for k in range(bins):
        sel = which == k
        n = int(sel.sum())
        if n < 2:
            continue
        se = float(real[sel].std(ddof=1) / np.sqrt(n))
        p, r = float(pred[sel].mean()), float(real[sel].mean())
        rows.append({"bin": k + 1, "n": n, "predicted": p, "realised": r, "realised_se": se,
                     "z": (r - p) / se if se > 0 else float("nan")})
    return pd.DataFrame(rows)


#: :func:`deciles`' columns as the pass value's tables name them (the glossary's words).
PASS_COLUMNS = {"predicted": "pass_predicted", "realised": "pass_realised", "realised_se": "pass_realised_se"}


def held_out_deciles(hands: np.ndarray, seats: np.ndarray, scores: np.ndarray, rules: Rules,
                     quadratic: bool = True, folds: int = 10, bins: int = 10, bent: bool = True) -> pd.DataFrame:
    """:func:`deciles` of :func:`held_out_predictions` against the scores (see the module docstring; the bend's
    four numbers are fitted on the same held-out predictions)."""
    pred = held_out_predictions(hands, seats, scores, rules, quadratic, folds, bent)
    return deciles(pred, np.asarray(scores, dtype=np.float64), bins).rename(columns=PASS_COLUMNS)


__all__ = ["PASS_COLUMNS", "deciles", "held_out_deciles", "held_out_predictions"]
