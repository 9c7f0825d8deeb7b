"""The pass value's least squares: the design (a line or a quadratic surface in the hand's features, and the
seat), its fit, predictions on held-out folds of deals, and the **bend** that keeps the weakest hands' value
off the floor.

A defender's score is bounded below by 0 (no trick, no melds), so a surface fitted by least squares dips
below what the weakest hands realise. The bend maps the surface's prediction ``s`` to
``a + b s + c max(0, k - s)``: fitted by least squares of the scores on the surface's held-out predictions,
the knot ``k`` chosen among their 5 %, 10 %, ..., 50 % quantiles by the smallest residual sum of squares
(a one-knot linear spline, a recalibration in the manner of Platt scaling).

>>> p = np.linspace(-20, 100, 400)
>>> y = np.maximum(p, 15.0) + np.random.default_rng(0).normal(0, 1, 400)   # a floor at 15
>>> k, a, b, c = fit_bend(p, y)
>>> 0 <= k <= 40, round(b, 1), bend(np.array([-20.0, 90.0]), [k, a, b, c]).round(0).tolist()
(True, 1.0, [15.0, 90.0])
"""

from __future__ import annotations

import numpy as np


#: The hand's features the pass value is fitted on: meld points at its best trump and on average over the
#: four trumps (the soloist names trump, not he), aces, tens, card points in hand, longest suit.
DEFENCE_FEATURES = ("melds_best", "melds_mean", "aces", "tens", "points", "longest")

#: The quadratic surface's products, as (i, j) of :data:`DEFENCE_FEATURES` with i <= j.
PAIRS = tuple((i, j) for i in range(len(DEFENCE_FEATURES)) for j in range(i, len(DEFENCE_FEATURES)))


def design(feats: np.ndarray, seats: np.ndarray, n_seats: int, quadratic: bool = False) -> np.ndarray:
    """``[1, features, (products / 100,) one-hot seat 1..n-1]`` rows (seat 0 is the base); ``quadratic`` adds
    every square and pairwise product of the features (:data:`PAIRS`, scaled by 1/100).

    >>> design(np.array([[1.0, 2, 3, 4, 5, 6]]), np.array([2]), 3).tolist()
    [[1.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 0.0, 1.0]]
    >>> design(np.array([[1.0, 2, 3, 4, 5, 10]]), np.array([0]), 3, quadratic=True)[0, 7:10].tolist()   # 1x1, 1x2, 1x3
    [0.01, 0.02, 0.03]
    """
    seats = np.asarray(seats, dtype=np.int64)
    f = np.asarray(feats, dtype=np.float64)
    onehot = (seats[:, None] == np.arange(1, n_seats)[None, :]).astype(np.float64)
    quad = [f[:, i] * f[:, j] / 100 for i, j in PAIRS] if quadratic else []
    return np.column_stack([np.ones(len(f)), f, *quad, onehot])


def ols(X: np.ndarray, y: np.ndarray) -> tuple[list[float], list[list[float]], float]:
    """(coefficients, their covariance, residual sd) of least squares; all-zero columns (a seat absent from a
    single-seat fit) keep a zero coefficient."""
    used = np.any(X != 0, axis=0)
    coef = np.zeros(X.shape[1])
    sol, *_ = np.linalg.lstsq(X[:, used], y, rcond=None)
    coef[used] = sol
    resid = y - X @ coef
    s2 = float(resid @ resid / (len(y) - int(used.sum())))
    cov = np.zeros((X.shape[1], X.shape[1]))
    cov[np.ix_(used, used)] = s2 * np.linalg.inv(X[:, used].T @ X[:, used])
    return coef.tolist(), cov.tolist(), float(np.sqrt(s2))



def held_out(X: np.ndarray, y: np.ndarray, n_seats: int, folds: int = 10) -> np.ndarray:
    """Each row's prediction by least squares on the other folds (fold: deal index mod ``folds``; rows in deal
    order, ``n_seats`` a deal: a deal's seats share its cards, so they stay in one fold)."""
    fold = (np.arange(len(y)) // n_seats) % folds
    out = np.empty(len(y))
    for k in range(folds):
        test = fold == k
        coef, *_ = np.linalg.lstsq(X[~test], y[~test], rcond=None)
        out[test] = X[test] @ coef
    return out


def fit_bend(pred: np.ndarray, y: np.ndarray) -> list[float]:
    """``[k, a, b, c]`` of the bend (see the module docstring) of held-out predictions ``pred`` to ``y``."""
    best: tuple[float, list[float]] | None = None
    for q in np.arange(0.05, 0.51, 0.05):
        k = float(np.quantile(pred, q))
        A = np.column_stack([np.ones(len(pred)), pred, np.maximum(0.0, k - pred)])
        coef, *_ = np.linalg.lstsq(A, y, rcond=None)
        sse = float(np.sum((y - A @ coef) ** 2))
        if best is None or sse < best[0]:
            best = (sse, [k, *map(float, coef)])
    assert best is not None
    return best[1]


def bend(s: np.ndarray, params) -> np.ndarray:
    """The bent value of surface predictions ``s``; ``params`` None: ``s`` itself."""
    if params is None:
        return np.asarray(s, dtype=np.float64)
    k, a, b, c = params
    return a + b * np.asarray(s, dtype=np.float64) + c * np.maximum(0.0, k - np.asarray(s, dtype=np.float64))


def bend_slope(s: float, params) -> float:
    """d bend / d s at ``s`` (the SE's factor: the delta method)."""
    if params is None:
        return 1.0
    k, _, b, c = params
    return float(b - c) if s < k else float(b)


__all__ = ["DEFENCE_FEATURES", "PAIRS", "bend", "bend_slope", "design", "fit_bend", "held_out", "ols"]
