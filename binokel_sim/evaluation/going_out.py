"""The soloist's going-out decision after the Tapp: his own estimate, weighed with its measured error.

After picking up the Tapp the soloist knows his kept cards, not the others' hands. The
exchange policy gives him an estimate ``e`` of his side's total (``subjective``). He plays
bid ``B`` unless going out (``-penalty_factor * B``) is worth more than playing it:

* **heuristic / melds policies** (one estimate per deal): the corpus shows how far the
  double-dummy total ``V`` lies from that estimate. ``V ~ N(a + b e, sd)`` is fitted on
  the instant model's training deals (``binokel fit instant``, stored with that model and
  looked up by the rules' content hash); playing ``B`` is worth
  ``E[V; V >= B] - failure_factor * B * P(V < B)``. At ``standard`` (training deals of the
  20 000-deal corpus) ``a`` = -20, ``b`` = 1.05, ``sd`` = 33; at ``kreuz`` the estimate runs low
  (``a`` + (``b`` - 1) ``e`` = +15 on average: team play it cannot see) and ``sd`` = 61.
  Taking the estimate at face value (go out whenever ``e < B``) gave up hands that make
  it about 40 % of the time: on held-out corpus deals, at a bid 10 above the estimate, the
  mean score rose from -300 to -275 (``standard``), -214 to -148 (``four-solo``) and -283 to
  -59 (``kreuz``); at 20 above, ``standard`` lost 4.6 ± 1.4 points (the residual's mean wanders
  by -3 .. +8 across the estimates, which one line cannot follow; ``benchmarks/going_out_gain.py``).
* **Rules without a fitted model** (a user's TOML, no corpus): the estimate at face value,
  and :func:`basis` says so.
* **sampled policy** (several inner deals of the unseen cards, each solved double-dummy):
  the mean over its own inner outcomes, which carry their spread themselves.

One rule for every consumer: the bid ladder (instant and checked tiers), every corpus
study and whole-game simulation.

>>> err = EstimateError(intercept=0.0, slope=1.0, sd=30.0, n=100)
>>> from binokel_sim.rules import load_rules
>>> std, est, took = load_rules("standard"), np.array([[230], [190]]), np.ones((2, 1), bool)
>>> goes_out(est, took, np.array([200, 250]), std, err).tolist()   # 190 plays 200: P(make) 0.37
[[False, True], [False, True]]
>>> goes_out(est, took, np.array([200, 250]), std, None).tolist()  # at face value 190 < 200 goes out
[[False, True], [True, True]]
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from binokel_sim.rules import Rules
from binokel_sim.scoring import surrender_choice


@dataclass(frozen=True)
class EstimateError:
    """``V ~ N(intercept + slope * e, sd)``: the double-dummy total given the policy's estimate ``e``."""

    intercept: float
    slope: float
    sd: float
    n: int

    @classmethod
    def from_list(cls, e) -> "EstimateError | None":
        """From its stored form ``[intercept, slope, sd, n]`` (an instant model's ``estimate_error``); None if empty."""
        return cls(float(e[0]), float(e[1]), float(e[2]), int(e[3])) if e else None

    def expected_play(self, estimate: np.ndarray, bids: np.ndarray, failure_factor: int) -> np.ndarray:
        """float[n, b]: E[score] of playing each bid, ``E[V; V >= B] - failure_factor * B * P(V < B)``.

        >>> e = EstimateError(0.0, 1.0, 30.0, 1)
        >>> [round(x) for x in e.expected_play(np.array([200.0]), np.array([200, 260]), 2)[0]]  # 100 + 12 - 200
        [-88, -502]
        """
        m = (self.intercept + self.slope * np.asarray(estimate, dtype=np.float64))[:, None]
        return _play_vec(m, self.sd, np.asarray(bids, dtype=np.float64)[None, :], failure_factor)

    def threshold(self, bid: int, failure_factor: int, penalty_factor: int) -> float:
        """The estimate below which playing ``bid`` is worth less than ``-penalty_factor * bid``.

        With a positive slope the expected play score rises with the estimate, so going out is
        one comparison per deal (bisection on the closed form, cached): the instant tier asks
        it for ~2 000 residual rows x 30 bids per hand, calibration for every held-out deal.

        >>> e = EstimateError(0.0, 1.0, 30.0, 1)
        >>> round(e.threshold(200, 2, 1), 1)   # E[play] at 186.2 is -200 (P(make) 0.32)
        186.2
        """
        return _threshold(self, int(bid), int(failure_factor), int(penalty_factor))

    def describe(self, total: str = "the double-dummy total") -> str:
        """In words: ``total`` (what the estimate predicts) as a line of the estimate, its sd and n."""
        return (f"{total} taken as {self.intercept:+.0f} + {self.slope:.3f} x estimate, sd "
                f"{self.sd:.0f}, fitted on {self.n} corpus deals")


def _play(m: float, sd: float, bid: float, ff: int) -> float:
    """E[V; V >= bid] - ff * bid * P(V < bid) for V ~ N(m, sd), in scalar math (~1 us: the bisection's step)."""
    z = (bid - m) / sd
    p = 0.5 * math.erfc(z / math.sqrt(2.0))
    return m * p + sd * math.exp(-0.5 * z * z) / math.sqrt(2.0 * math.pi) - ff * bid * (1.0 - p)


_play_vec = np.vectorize(_play, otypes=[np.float64])


@lru_cache(maxsize=4096)
def _threshold(err: EstimateError, bid: int, ff: int, pf: int) -> float:
    lo, hi = -10.0 * bid - 1000.0, 10.0 * bid + 1000.0
    cost = -pf * bid
    for _ in range(48):  # the bracket shrinks by 2**-48: far below a point
        mid = 0.5 * (lo + hi)
        if _play(err.intercept + err.slope * mid, err.sd, bid, ff) < cost:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def fit_estimate_error(total: np.ndarray, estimate: np.ndarray) -> EstimateError:
    """Least-squares line of the totals on the estimates and its residual sd (``ddof`` 2).

    >>> e = fit_estimate_error(np.array([110.0, 190.0, 310.0, 390.0]), np.array([100.0, 200.0, 300.0, 400.0]))
    >>> round(e.intercept, 1), round(e.slope, 2), round(e.sd, 1), e.n
    (10.0, 0.96, 12.6, 4)
    """
    total = np.asarray(total, dtype=np.float64)
    estimate = np.asarray(estimate, dtype=np.float64)
    slope, intercept = np.polyfit(estimate, total, 1)
    sd = float(np.sqrt(((total - intercept - slope * estimate) ** 2).sum() / max(len(total) - 2, 1)))
    return EstimateError(float(intercept), float(slope), sd, int(len(total)))


#: The instant models' file (``instant_model.json``, written by ``binokel fit instant``): named here, where
#: the going-out rule reads it without importing :mod:`.instant` (which imports this module).
MODEL_FILE = Path(__file__).with_name("instant_model.json")


@lru_cache(maxsize=16)
def _cached(key: str) -> EstimateError | None:
    return read_estimate_error(key, MODEL_FILE)


def read_estimate_error(key: str, path: str | Path) -> EstimateError | None:
    """The going-out error model stored with the instant model of rules hash ``key`` (16 digits), or None."""
    p = Path(path)
    if not p.is_file():
        return None
    return EstimateError.from_list((json.loads(p.read_text(encoding="utf-8")).get(key) or {}).get("estimate_error"))


def estimate_error(rules: Rules) -> EstimateError | None:
    """The fitted error of the policy's estimate under ``rules`` (by content hash), or None."""
    from binokel_sim.provenance import KEY_DIGITS, rules_hash

    global _LAST
    # A simulated game asks once per deal with the same (frozen) rules object, and hashing the rules costs more
    # than a rule-based deal's play: remember the last object asked (held, so its id is not reused; one tuple,
    # read once, so worker threads never pair one rules object with another's model).
    last = _LAST
    if last[0] is not rules:
        last = _LAST = (rules, _cached(rules_hash(rules, digits=KEY_DIGITS)))
    return last[1]


_LAST: tuple[Rules | None, EstimateError | None] = (None, None)


#: How a caller names the error model: a model, None (face value) or ``"fitted"`` (the rules' own).
ErrorArg = EstimateError | None | str


def goes_out(subjective: np.ndarray, subjective_took: np.ndarray, bids: np.ndarray, rules: Rules,
             error: ErrorArg = "fitted") -> np.ndarray:
    """bool[n, b]: the soloist of a trump contract goes out at bid ``b`` (see the module docstring).

    ``subjective[n, m]`` / ``subjective_took[n, m]``: the policy's totals after the Tapp (m = 1: one
    estimate, weighed with ``error``; m > 1: a sampled policy's inner outcomes, averaged). ``error``:
    ``"fitted"`` looks the rules' model up, None takes the estimate at face value.
    """
    bids = np.asarray(bids, dtype=np.int64)
    subj = np.asarray(subjective)
    took = np.asarray(subjective_took, dtype=bool)
    ff = rules.scoring.failure_factor
    if isinstance(error, str):
        if error != "fitted":
            raise ValueError(f"going-out error model: a model, None or 'fitted', not {error!r}")
        error = estimate_error(rules)
    if error is not None and subj.shape[1] == 1:
        if not rules.surrender.allowed:
            return np.zeros((subj.shape[0], bids.size), dtype=bool)
        pf = rules.surrender.penalty_factor
        if error.slope > 0:  # E[play] rises with the estimate: one threshold per bid
            thr = np.array([error.threshold(int(b), ff, pf) for b in bids])
            return np.where(took[:, :1], subj[:, :1] < thr[None, :], (ff > pf))
        play = np.where(took[:, :1], error.expected_play(subj[:, 0], bids, ff), -ff * bids[None, :])
    else:
        made = took[:, :, None] & (subj[:, :, None] >= bids[None, None, :])
        play = np.where(made, subj[:, :, None], -ff * bids[None, None, :]).mean(axis=1)
    return surrender_choice(play, bids, rules)


def basis(rules: Rules) -> str:
    """How a one-estimate policy's going out is weighed under ``rules``, in words."""
    err = estimate_error(rules)
    return err.describe() if err is not None else "the estimate at face value (no fitted model for these rules)"
