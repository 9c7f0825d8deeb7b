"""Two-phase (double) sampling: a cheap bound on every deal, the deciding solve on a random subsample.

The 48-card corpora cannot afford to decide every deal. Phase 1 solves deals ``0 .. n1-1`` within a
fixed node budget: every total is an interval, whose midpoint is a strong auxiliary ``x``. Phase 2
solves deals ``0 .. n2-1`` until every total is known to within a bid step: the value ``y``. Deals
are dealt i.i.d. from the seed, so the first ``n2`` deal indices are a simple random subsample of the
first ``n1``. Two estimators join the phases (Cochran, *Sampling Techniques*, 3rd ed. 1977, ch. 12;
an infinite population: no finite-population corrections).

**Regression estimator** of a mean (a total, a paired difference such as the Tapp value, the score
at a bid), :func:`regression_mean`, Cochran §12.6::

    ybar_reg = ybar2 + b (xbar1 - xbar2),   b = s_xy / s_x^2 (phase 2)
    v = s_e^2 (1/n2 + (xbar1 - xbar2)^2 / S_xx) + b^2 s_x1^2 / n1

``s_e^2`` is the residual variance about the phase-2 line (``n2 - 2`` degrees of freedom), ``S_xx``
the phase-2 sum of squares of ``x`` (the term is the slope's own error) and ``s_x1^2`` the variance
of ``x`` over all of phase 1. Writing ``y = a + b x + e``, the estimate is ``a + b xbar1 + ebar2``:
the first part varies with phase 1 (``b^2 s_x^2 / n1``, the *phase-1 share* of the variance), the
second with phase 2 (``s_e^2 / n2``). With every deal exact (``x = y``) it is ``xbar1 ± s_x1 /
sqrt(n1)``, the plain mean of phase 1.

**Stratified estimator** of a rate (P(make) at a bid), :func:`stratified_rate`, Cochran §12.2:
phase 1 sorts each deal into decided-made, decided-failed or open (its interval straddles the
bid). With stratum shares ``w_h`` and the open stratum's rate ``p_U`` among the phase-2 deals that
phase 1 left open::

    p = w_made + w_open p_U
    v = w_open^2 s_U^2 / n2U + (1/n1) sum_h w_h (p_h - p)^2

(``p_made = 1``, ``p_failed = 0``; ``s_U^2 = p~(1 - p~) n2U / (n2U - 1)`` with ``p~ = (k + 1) /
(n2U + 2)``, so a stratum of all-made or all-failed phase-2 deals keeps a variance.) With no open
deal it is ``w_made ± sqrt(p (1 - p) / n1)``, the plain rate.

Both are checked against brute force in ``tests/core/test_twophase.py``: on a population of 20 000 exact
deals with intervals widened around the truth, thousands of seeded draws of both phases cover the
truth 93-97 % of the time.

>>> import numpy as np
>>> x = np.array([1.0, 2, 3, 4, 5, 6]); y = np.array([1.1, 2.0, 2.9, 4.2])
>>> e = regression_mean(x, y)
>>> (e.n1, e.n2, round(e.estimate, 3))
(6, 4, 3.57)
>>> r = stratified_rate(np.array([1, 1, -1, 0, -1, 1]), np.array([1, 1, 0, 0], dtype=bool))
>>> (round(r.estimate, 3), r.n1, r.n2)
(0.5, 6, 4)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from binokel_sim.errors import InputError
from binokel_sim.stats import Z95

#: Phase-1 code of a deal whose interval leaves a bid open (:func:`stratified_rate`).
OPEN = -1
#: Cochran's references, quoted wherever a figure from these estimators is written.
REFERENCE = "Cochran, Sampling Techniques (3rd ed. 1977), ch. 12: double sampling"


@dataclass(frozen=True)
class TwoPhaseEstimate:
    """A point figure from both phases: ``estimate ± se`` with the phases' sizes and the variance split.

    ``var_phase1`` / ``var_phase2``: the parts of ``se**2`` that more phase-1 or more phase-2 deals
    shrink; ``residual``: the most the phase-2 deals' own open intervals (narrower than a bid step)
    can move the estimate (half their mean width; 0 for a rate, whose phase-2 outcomes are decided).
    ``method``: ``regression`` or ``stratified``; ``slope``: the regression's ``b`` (None for a rate).
    ``open_share``: the phase-1 share left open (a rate; None for a mean).

    >>> e = TwoPhaseEstimate(1.5, 0.5, 10, 4, 0.09, 0.16, "regression", 1.0)
    >>> (e.interval(z=2.0), e.phase2_share)
    ((0.5, 2.5), 0.64)
    """

    estimate: float
    se: float
    n1: int
    n2: int
    var_phase1: float
    var_phase2: float
    method: str
    slope: float | None = None
    open_share: float | None = None
    residual: float = 0.0

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The normal interval ``estimate ± z se`` (95 % by default), rounded to 10 digits."""
        return (round(self.estimate - z * self.se, 10), round(self.estimate + z * self.se, 10))

    @property
    def phase2_share(self) -> float:
        """The share of the variance that phase 2 carries (more phase-2 deals shrink it); NaN without variance."""
        total = self.var_phase1 + self.var_phase2
        return self.var_phase2 / total if total > 0 else float("nan")

    def to_dict(self) -> dict[str, float | int | str | None]:
        """Plain fields for JSON and tables."""
        return {"estimate": self.estimate, "se": self.se, "n1": self.n1, "n2": self.n2,
                "var_phase1": self.var_phase1, "var_phase2": self.var_phase2, "method": self.method,
                "slope": self.slope, "open_share": self.open_share, "residual": self.residual}


def _phases(x1: np.ndarray, n2: int) -> None:
    if x1.ndim != 1 or n2 > x1.size:
        raise InputError(f"two-phase estimate: phase 2 ({n2} deals) must be the first deals of phase 1 "
                         f"({x1.size} deals)")
    if n2 < 3:
        raise InputError(f"two-phase estimate: phase 2 holds {n2} deals; at least 3 are needed")


def regression_mean(x1, y2, residual: float = 0.0) -> TwoPhaseEstimate:
    """The regression estimator of the mean of ``y`` (module docstring): ``x1`` the auxiliary of every
    phase-1 deal (float[n1]), ``y2`` the value of phase-2 deals ``0 .. n2-1`` (float[n2], n2 <= n1).

    >>> import numpy as np
    >>> x = np.arange(100.0); y = x[:20] + 5            # y = x + 5 exactly
    >>> e = regression_mean(x, y)
    >>> (round(e.estimate, 6), round(e.slope, 6), round(e.var_phase2, 6))
    (54.5, 1.0, 0.0)
    """
    x1 = np.asarray(x1, dtype=np.float64)
    y2 = np.asarray(y2, dtype=np.float64)
    n1, n2 = x1.size, y2.size
    _phases(x1, n2)
    x2 = x1[:n2]
    xb1, xb2, yb2 = x1.mean(), x2.mean(), y2.mean()
    dx, dy = x2 - xb2, y2 - yb2
    sxx = float(dx @ dx)
    b = float(dx @ dy) / sxx if sxx > 0 else 0.0  # x constant on phase 2: no line, the phase-2 mean alone
    e = dy - b * dx
    s2e = float(e @ e) / (n2 - 2)
    s2x1 = float(x1.var(ddof=1)) if n1 > 1 else 0.0
    v2 = float(s2e * (1.0 / n2 + ((xb1 - xb2) ** 2 / sxx if sxx > 0 else 0.0)))
    v1 = float(b * b * s2x1 / n1)
    return TwoPhaseEstimate(float(yb2 + b * (xb1 - xb2)), math.sqrt(v1 + v2), n1, n2, v1, v2, "regression",
                            slope=b, residual=float(residual))


def stratified_rate(decided1, made2) -> TwoPhaseEstimate:
    """The stratified estimator of a rate (module docstring): ``decided1`` each phase-1 deal's code
    (1 made, 0 failed, :data:`OPEN` open; int[n1]), ``made2`` whether phase-2 deals ``0 .. n2-1`` made
    it (bool[n2]). A phase-2 outcome that contradicts its phase-1 decision is an :class:`InputError`
    (one phase's proof is wrong).

    >>> import numpy as np
    >>> d = np.array([1] * 10 + [0] * 5 + [1] * 40 + [0] * 25 + [OPEN] * 20)
    >>> r = stratified_rate(d, np.array([True] * 10 + [False] * 5))   # no open deal among them
    >>> (r.estimate, r.open_share)   # the open share counted half made, with no SE
    (0.6, 0.2)
    >>> import math; math.isnan(r.se)
    True
    """
    d1 = np.asarray(decided1, dtype=np.int64)
    y2 = np.asarray(made2, dtype=bool)
    n1, n2 = d1.size, y2.size
    _phases(d1, n2)
    d2 = d1[:n2]
    wrong = np.nonzero((d2 != OPEN) & (d2 != y2.astype(np.int64)))[0]
    if wrong.size:
        raise InputError(f"two-phase estimate: deal {int(wrong[0])} is decided "
                         f"{'made' if d2[wrong[0]] == 1 else 'failed'} by phase 1 and the other way by phase 2")
    w_made, w_open = float((d1 == 1).mean()), float((d1 == OPEN).mean())
    w_fail = 1.0 - w_made - w_open
    open2 = y2[d2 == OPEN]
    k, m = int(open2.sum()), int(open2.size)
    if w_open == 0:
        p = w_made
        v1 = p * (1 - p) / n1
        return TwoPhaseEstimate(p, math.sqrt(v1), n1, n2, v1, 0.0, "stratified", open_share=0.0)
    if m == 0:  # open deals in phase 1 but none in phase 2: their rate is unknown (the caller says so)
        return TwoPhaseEstimate(w_made + w_open / 2, float("nan"), n1, n2, float("nan"), float("nan"), "stratified",
                                open_share=w_open)
    p_open = k / m
    p = w_made + w_open * p_open
    pt = (k + 1) / (m + 2)  # keeps a variance where every open phase-2 deal went one way
    s2 = pt * (1 - pt) * m / (m - 1) if m > 1 else 0.25
    v2 = w_open ** 2 * s2 / m
    v1 = (w_made * (1 - p) ** 2 + w_fail * p ** 2 + w_open * (p_open - p) ** 2) / n1
    return TwoPhaseEstimate(p, math.sqrt(v1 + v2), n1, n2, v1, v2, "stratified", open_share=w_open)
