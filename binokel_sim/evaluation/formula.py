"""The hand-point formula: a fast estimate of the soloist's total from countable features.

A linear fit (``analyses/hand_formula.py``) of the soloist's double-dummy total on
features of the hand before the Tapp (:mod:`binokel_sim.evaluation.features`); the
coefficients, with the seed, rules, policy and n that produced them, live in
``binokel_sim/formula_coefficients.json``. The residual spread turns the estimate
into P(make) per bid (normal model), a ceiling and a safe bid -- what the auction
simulation calls for every hand.

>>> f = Formula(rules="standard", intercept=100.0, coef={"melds": 1.0, "aces": 10.0}, sd=50.0)
>>> from binokel_sim.cards import Hand
>>> from binokel_sim.rules import load_rules
>>> h = Hand.parse("EA EA E10 EK EO EU GA G10 HA H10 SA S10").counts
>>> f.total(h, load_rules("standard"))   # 100 + 250 melds + 5 aces x 10
400.0
>>> round(f.p_make(400.0, 400), 3), round(f.p_make(400.0, 450), 3)
(0.5, 0.159)
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from binokel_sim.errors import InputError
from binokel_sim.evaluation.features import FEATURES, features_of
from binokel_sim.rules import Rules, load_rules
from binokel_sim.scoring import bid_ladder

COEFFICIENTS = Path(__file__).with_name("formula_coefficients.json")


@dataclass(frozen=True)
class FormulaAdvice:
    """:meth:`Formula.advise` of one hand: the estimated total ± the formula's residual ``sd``, the ceiling bid
    (the highest with E[score] > 0) and the safe bid (the highest with P(make) >= the confidence); None: no bid.

    >>> FormulaAdvice(total=350.0, sd=50.0, ceiling_bid=400, safe_bid=300).to_dict()["safe_bid"]
    300
    """

    total: float
    sd: float
    ceiling_bid: int | None
    safe_bid: int | None

    def to_dict(self) -> dict[str, float | int | None]:
        return asdict(self)


@dataclass(frozen=True)
class Formula:
    """``total ~ intercept + sum(coef[f] * feature f)``, residual standard deviation ``sd``."""

    rules: str
    intercept: float
    coef: dict[str, float]
    sd: float
    provenance: dict = field(default_factory=dict, compare=False)

    def total_of(self, features: np.ndarray) -> np.ndarray:
        """Estimated totals of feature rows (int/float[n, len(FEATURES)], :data:`FEATURES` order)."""
        x = np.atleast_2d(np.asarray(features, dtype=np.float64))
        w = np.array([self.coef.get(f, 0.0) for f in FEATURES])
        return self.intercept + x @ w

    def total(self, counts: np.ndarray, rules: Rules) -> float:
        """Estimated soloist total of one hand (count vector, before the Tapp)."""
        return float(self.total_of(features_of(counts, rules))[0])

    def p_make(self, total: float | np.ndarray, bid: int | np.ndarray):
        """P(total >= bid) under the normal model around the estimate."""
        z = (np.asarray(bid, dtype=np.float64) - np.asarray(total, dtype=np.float64)) / self.sd
        p = 0.5 * (1.0 - np.vectorize(math.erf)(z / math.sqrt(2.0)))
        return float(p) if np.ndim(p) == 0 else p

    def expected_score(self, total: float, bid: int, failure_factor: int) -> float:
        """E[score] at ``bid``: E[T; T >= bid] - failure_factor * bid * P(T < bid), T ~ N(total, sd)."""
        from binokel_sim.evaluation.going_out import EstimateError

        err = EstimateError(0.0, 1.0, self.sd, 0)
        return float(err.expected_play(np.array([float(total)]), np.array([bid]), failure_factor)[0, 0])

    def advise(self, counts: np.ndarray, rules: Rules, confidence: float = 0.8) -> FormulaAdvice:
        """Estimate, ceiling bid (E[score] > 0) and safe bid (P(make) >= confidence) of one hand."""
        from binokel_sim.evaluation.going_out import EstimateError

        t = self.total(counts, rules)
        bids = np.asarray(bid_ladder(rules, int(t + 4 * self.sd)), dtype=np.int64)
        # Every bid of the ladder at once (the auction asks this of every hand of every simulated deal).
        ev = EstimateError(0.0, 1.0, self.sd, 0).expected_play(np.array([t]), bids, rules.scoring.failure_factor)[0]
        ceiling, safe = bids[ev > 0], bids[np.atleast_1d(self.p_make(t, bids)) >= confidence]
        return FormulaAdvice(total=t, sd=self.sd, ceiling_bid=int(ceiling.max()) if ceiling.size else None,
                             safe_bid=int(safe.max()) if safe.size else None)

    def to_dict(self) -> dict[str, Any]:
        """The formula as the coefficients file stores it under its rules name (intercept, coef, sd,
        provenance; the rules are the key).

        >>> list(Formula("standard", 1.0, {"melds": 1.0}, 2.0).to_dict())
        ['intercept', 'coef', 'sd', 'provenance']
        """
        d = asdict(self)
        d.pop("rules")
        return d

    def r2_interval(self) -> tuple[float, float, float, int]:
        """(R² out of sample, 95 % lo, hi, n_test) from the fit's provenance.

        A fit by :func:`binokel_sim.analyses.hand_formula.fit` stores a bootstrap interval;
        for older fits the interval is approximated from the relative standard error of a
        mean square, sqrt(2 / n): se(R²) ~ (1 - R²) sqrt(2 / n).
        """
        p = self.provenance
        r2, n = float(p.get("r2_test", math.nan)), int(p.get("n_test", 0) or 0)
        if "r2_test_lo" in p:
            return r2, float(p["r2_test_lo"]), float(p["r2_test_hi"]), n
        if n < 2 or not math.isfinite(r2):
            return r2, math.nan, math.nan, n
        half = 1.96 * (1.0 - r2) * math.sqrt(2.0 / n)
        return r2, r2 - half, min(1.0, r2 + half), n

    def usable(self) -> bool:
        """True when the formula predicts better than a constant: its R² interval lies above 0."""
        lo = self.r2_interval()[1]
        return math.isfinite(lo) and lo > 0.0

    def verdict(self) -> str:
        """One line: how well the formula predicts out of sample, and whether to use it."""
        r2, lo, hi, n = self.r2_interval()
        head = f"out-of-sample R² {r2:.2f} (95 % interval {lo:.2f} .. {hi:.2f}, n = {n} test deals)"
        if self.usable():
            return head
        return (f"no usable hand formula for rules {self.rules!r}: {head} does not exclude 0, "
                "so it predicts no better than a constant")

    def rule_of_thumb(self) -> str:
        """The formula in plain words, rounded for counting at the table: the five-term formula fitted
        beside a richer one (``provenance["five_terms"]``) where the richer one predicts."""
        five = self.provenance.get("five_terms")
        if five:
            return Formula(self.rules, five["intercept"], five["coef"], five["sd"]).rule_of_thumb()
        names = {"melds": "your meld points", "aces": "{} per ace", "tens": "{} per ten",
                 "trump_len": "{} per card of your best meld suit", "side_aces": "{} per ace outside it",
                 "longest": "{} per card of your longest suit", "points": "{} per card point"}
        parts = []
        for f in FEATURES:
            c = self.coef.get(f)
            if c is None:
                continue
            if f == "melds":
                parts.append(f"{c:.1f} x your meld points" if abs(c - 1) > 0.05 else "your meld points")
            else:
                parts.append(names[f].format(f"{c:+.0f}"))
        return (f"Expect about {self.intercept:.0f} + " + ", ".join(parts)
                + f" (give or take {self.sd:.0f}); bid up to that minus about {self.sd * 0.85:.0f}"
                " to make it 80 % of the time.")


def load_formula(rules: Rules | str = "standard", path: str | Path | None = None) -> Formula:
    """The fitted formula for ``rules`` from the coefficients file; InputError if none was fitted."""
    name = load_rules(rules).name
    p = Path(path) if path else COEFFICIENTS
    if not p.is_file():
        raise InputError(f"no hand-formula coefficients at {p} (run binokel fit formula --write)")
    data = json.loads(p.read_text(encoding="utf-8"))
    if name not in data:
        raise InputError(f"no hand formula fitted for rules {name!r} (have: {', '.join(sorted(data))})")
    d = data[name]
    return Formula(rules=name, intercept=d["intercept"], coef=d["coef"], sd=d["sd"], provenance=d.get("provenance", {}))


def usable_formula(rules: Rules | str = "standard", path: str | Path | None = None) -> tuple[Formula | None, str]:
    """(the committed formula for ``rules`` if it predicts, else None; one line saying why).

    >>> f, why = usable_formula("standard"); f is not None, why.startswith("out-of-sample R²")
    (True, True)
    """
    try:
        f = load_formula(rules, path)
    except InputError as exc:
        return None, f"no usable hand formula: {exc}"
    return (f if f.usable() else None), f.verdict()


def _r2_reps(y: np.ndarray, pred: np.ndarray, reps: int, seed: int) -> np.ndarray:
    """R² of ``pred`` on ``reps`` bootstrap resamples of the deals (the same resamples for every ``pred``
    of one ``seed``: paired); NaN where a resample has no spread."""
    idx = np.random.default_rng(seed).integers(0, len(y), size=(reps, len(y)))
    yb, pb = y[idx], pred[idx]
    ss_tot = ((yb - yb.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.0 - ((yb - pb) ** 2).sum(axis=1) / ss_tot


def r2_bootstrap(y: np.ndarray, pred: np.ndarray, reps: int = 2000, seed: int = 0) -> tuple[float, float]:
    """95 % percentile bootstrap interval of R² = 1 - SS_res / SS_tot over the test deals.

    >>> y = np.arange(50.0); lo, hi = r2_bootstrap(y, y + 1.0); bool(0.99 < lo <= hi <= 1.0)
    True
    """
    y, pred = np.asarray(y, dtype=np.float64), np.asarray(pred, dtype=np.float64)
    if len(y) < 3:
        return math.nan, math.nan
    r2 = _r2_reps(y, pred, reps, seed)
    r2 = r2[np.isfinite(r2)]
    return float(np.quantile(r2, 0.025)), float(np.quantile(r2, 0.975))


def r2_gain_interval(y: np.ndarray, base: np.ndarray, rich: np.ndarray, reps: int = 2000,
                     seed: int = 0) -> tuple[float, float, float]:
    """R² of predictions ``rich`` minus R² of ``base`` on the same values ``y``, with its 95 % paired
    percentile bootstrap interval (the same resampled deals for both).

    >>> y = np.arange(60.0); g, lo, hi = r2_gain_interval(y, y + np.sin(y) * 9, y + np.sin(y))
    >>> bool(0 < lo <= g <= hi)
    True
    """
    y, base, rich = (np.asarray(v, dtype=np.float64) for v in (y, base, rich))
    if len(y) < 3 or np.ptp(y) == 0:
        return math.nan, math.nan, math.nan
    with np.errstate(invalid="ignore"):  # a resample without spread: -inf - -inf, dropped below
        gain = _r2_reps(y, rich, reps, seed) - _r2_reps(y, base, reps, seed)
    gain = gain[np.isfinite(gain)]
    full = float((((y - base) ** 2).sum() - ((y - rich) ** 2).sum()) / ((y - y.mean()) ** 2).sum())
    return full, float(np.quantile(gain, 0.025)), float(np.quantile(gain, 0.975))
