"""Honest uncertainty for proportions and counts: Wilson intervals and exact tests.

Every proportion the toolkit prints carries its ``n``, a standard error and a Wilson
score interval ``lo .. hi``. Unlike ``p ± 1.96 SE`` the Wilson interval never leaves
[0, 1] and is not empty at p = 0 or 1 (at n = 20 and 20 of 20 made it is 0.839 .. 1).
Rare events (fewer than :data:`RARE` expected hits) are compared with an exact value
by an exact binomial test, never by a z from the observed SE. scipy is not needed:
the pmfs come from ``math.lgamma``.

>>> lo, hi = wilson(20, 20)
>>> round(float(lo), 3), float(hi)
(0.839, 1.0)
>>> round(binomial_test(2, 1000, 0.0005), 4)   # 2 hits where 0.5 were expected
0.0902
>>> round(binomial_test(5, 10, 0.5), 4)
1.0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

#: z of a two-sided 95 % interval.
Z95 = 1.959963984540054
#: Below this many expected hits a comparison with an exact value uses the exact test.
RARE = 10.0


def wilson(k, n, z: float = Z95):
    """Wilson score interval (lo, hi) for ``k`` successes in ``n`` trials (numbers or arrays).

    ``n = 0`` gives (nan, nan). ``k`` may be fractional (an effective count).

    >>> [round(float(v), 4) for v in wilson(0, 10)]
    [0.0, 0.2775]
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        z2 = z * z
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        lo = np.clip(centre - half, 0.0, 1.0)
        hi = np.clip(centre + half, 0.0, 1.0)
    # Exact ends where the data sit on a bound (rounding would otherwise leave 1e-17 gaps).
    lo = np.where(k <= 0, 0.0, lo)
    hi = np.where(k >= n, 1.0, hi)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def proportion(k: int, n: int, z: float = Z95) -> dict[str, Any]:
    """``{"p", "se", "lo", "hi", "n"}`` of ``k`` in ``n`` (se = sqrt(p(1-p)/n); lo/hi Wilson).

    >>> d = proportion(19, 19); (d["p"], d["se"], round(d["lo"], 3), d["hi"], d["n"])
    (1.0, 0.0, 0.832, 1.0, 19)
    """
    n = int(n)
    if n == 0:
        return {"p": math.nan, "se": math.nan, "lo": math.nan, "hi": math.nan, "n": 0}
    p = k / n
    lo, hi = wilson(k, n, z)
    return {"p": float(p), "se": math.sqrt(p * (1 - p) / n), "lo": lo, "hi": hi, "n": n}


def wilson_from_se(p, se, n, z: float = Z95):
    """Wilson interval of an estimate ``p`` with a (cluster-robust) ``se``, via the effective n.

    The effective sample size ``p(1-p)/se²`` carries the design effect of dependent
    members (the hands of one deal) into the interval; where it is undefined (p at 0
    or 1, se 0) the nominal ``n`` is used.

    >>> [round(float(v), 4) for v in wilson_from_se(0.5, 0.05, 1000)]
    [0.4038, 0.5962]
    """
    p = np.asarray(p, dtype=np.float64)
    se = np.asarray(se, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        eff = np.where((se > 0) & (p > 0) & (p < 1), p * (1 - p) / (se * se), n)
    return wilson(p * eff, eff, z)


def _log_binom_pmf(k: np.ndarray, n: int, p: float) -> np.ndarray:
    lc = math.lgamma(n + 1) - np.array([math.lgamma(x + 1) + math.lgamma(n - x + 1) for x in k])
    return lc + k * math.log(p) + (n - k) * math.log1p(-p)


def binomial_test(k: int, n: int, p: float) -> float:
    """Two-sided exact binomial p-value: P(X's pmf <= pmf(k)), X ~ Bin(n, p).

    For large ``n`` only the range with non-negligible mass is summed (mean ± 40 sd
    and the observed ``k``), so a million trials cost microseconds.

    >>> round(binomial_test(0, 100, 0.05), 4)
    0.0102
    """
    k, n = int(k), int(n)
    if not 0 <= k <= n:
        raise ValueError(f"binomial_test: k={k} outside 0..{n}")
    if p <= 0.0:
        return 1.0 if k == 0 else 0.0
    if p >= 1.0:
        return 1.0 if k == n else 0.0
    mu, sd = n * p, math.sqrt(n * p * (1 - p))
    a = max(0, min(k, int(mu - 40 * sd) - 1))
    b = min(n, max(k, int(mu + 40 * sd) + 1))
    xs = np.arange(a, b + 1, dtype=np.float64)
    logp = _log_binom_pmf(xs, n, p)
    at = logp[k - a]
    # Relative tolerance as in R's binom.test: ties with the observed pmf count as extreme.
    sel = logp <= at + 1e-7
    m = logp[sel].max()
    return float(min(1.0, math.exp(m) * np.exp(logp[sel] - m).sum()))


def poisson_test(k: int, mu: float) -> float:
    """Two-sided exact Poisson p-value of ``k`` events where ``mu`` were expected.

    >>> round(poisson_test(3, 0.5), 4)
    0.0144
    """
    k = int(k)
    if mu <= 0:
        return 1.0 if k == 0 else 0.0
    hi = int(max(k, mu + 40 * math.sqrt(mu) + 10)) + 1
    xs = np.arange(0, hi + 1, dtype=np.float64)
    logp = xs * math.log(mu) - mu - np.array([math.lgamma(x + 1) for x in xs])
    sel = logp <= logp[k] + 1e-7
    return float(min(1.0, np.exp(logp[sel]).sum()))


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal ``z``.

    >>> round(normal_p(1.96), 3)
    0.05
    """
    return math.erfc(abs(z) / math.sqrt(2.0)) if math.isfinite(z) else math.nan


def compare_exact(value: float, se: float, exact: float, n: int) -> tuple[float, str]:
    """(p-value, test) of an estimated proportion ``value`` over ``n`` against ``exact``.

    Exact binomial when fewer than :data:`RARE` hits are expected (or observed),
    else the z from the estimate's standard error.

    >>> p, t = compare_exact(2 / 1_000_000, 1.4e-6, 4e-7, 1_000_000); t, round(p, 3)
    ('exact binomial', 0.062)
    """
    if not (math.isfinite(value) and math.isfinite(exact)) or n <= 0:
        return math.nan, ""
    k = int(round(value * n))
    if min(exact * n, (1 - exact) * n) < RARE or min(k, n - k) < RARE:
        return binomial_test(k, n, exact), "exact binomial"
    if not se > 0:
        return math.nan, ""
    return normal_p((value - exact) / se), "z"


def pm(value: float, se: float) -> str:
    """``value ± se`` with the error to two significant digits and the value to the same place, so a small
    error never prints as ``± 0.0``.

    >>> pm(35.6512, 0.0412), pm(116.08, 0.81), pm(120.4, 11.3), pm(5.0, 0.0)
    ('35.651 ± 0.041', '116.08 ± 0.81', '120 ± 11', '5 (exact: no spread)')
    """
    if not se > 0:
        return f"{value:g} (exact: no spread)" if se == 0 else f"{value:.1f}"
    places = max(0, 1 - int(math.floor(math.log10(se))))
    return f"{value:.{places}f} ± {se:.{places}f}"


def share_text(k: int, n: int, digits: int = 4) -> str:
    """A proportion in words with its 95 % Wilson interval; none or all of ``n`` is said so (no ``± 0``).

    >>> share_text(0, 10000), share_text(3, 200, 3), share_text(20, 20, 3)
    ('0 of 10,000 (95 %: at most 0.0004)', '0.015 (95 % 0.005 .. 0.043, n = 200)', '20 of 20 (95 %: at least 0.839)')
    """
    d = proportion(k, n)
    if k == 0:
        return f"0 of {n:,} (95 %: at most {d['hi']:.{digits}f})"
    if k == n:
        return f"{n:,} of {n:,} (95 %: at least {d['lo']:.{digits}f})"
    return f"{d['p']:.{digits}f} (95 % {d['lo']:.{digits}f} .. {d['hi']:.{digits}f}, n = {n:,})"


def decreasing(p: np.ndarray) -> np.ndarray:
    """The non-increasing sequence closest to ``p`` in least squares (pool adjacent violators).

    >>> decreasing(np.array([0.9, 0.7, 0.75, 0.2])).round(3).tolist()
    [0.9, 0.725, 0.725, 0.2]
    """
    blocks: list[list[float]] = []  # [mean, weight]
    for v in np.asarray(p, dtype=np.float64):
        blocks.append([float(v), 1.0])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            (a, wa), (b, wb) = blocks[-2], blocks.pop()
            blocks[-1] = [(a * wa + b * wb) / (wa + wb), wa + wb]
    return np.concatenate([np.full(int(w), m) for m, w in blocks]) if blocks else np.asarray(p, dtype=np.float64)
