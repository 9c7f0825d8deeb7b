"""What passing is worth: a hand's expected score when it drops out of the auction, and the bid
ladder weighed against it.

A player who passes still scores (docs/rules.md §7): as a defender his own tricks' card points,
and his melds at the soloist's trump when he takes a trick; as forehand where every other seat
passes too he may still have to play the minimum bid. :class:`PassValue` is that expectation for
one hand at one seat, with its standard error and n.

Two ways to it, as for the soloist's ladder:

* **fitted** (the instant tier): :class:`DefenceModel`, a least-squares quadratic surface of the
  seat's score on :data:`DEFENCE_FEATURES` (with their squares and pairwise products: a line
  underpredicts the weakest hands, whose score is bounded below by 0) and the seat, fitted on deals
  where one seat was made to pass and the others bid to the instant tier's ceilings, exchanged, went
  out and played as the whole-game simulator does (:mod:`binokel_sim.game.defence` builds them;
  ``binokel fit defence``); its value is bent off the floor (:mod:`~binokel_sim.evaluation.pass_surface`).
  The standard error is the surface's at this hand, ``sqrt(x' C x)`` with ``C`` the coefficients'
  covariance;
* **sampled** (the checked tier, :func:`binokel_sim.game.defence.pass_value_checked`): the mean
  of the hand's own forced-pass deals.

:func:`versus_pass` compares a ladder with passing: the gain ``E[score | win at b] - E[pass]`` at
every bid with its SE (the two estimates are independent), and **bid up to X**: the highest bid
of the unbroken run of bids from the minimum where winning beats passing -- never above a bid
whose E[score] is below passing.

>>> pv = PassValue(mean=80.0, se=2.0, sd=40.0, n=500, basis="demo")
>>> cols = {"bid": np.array([150, 160, 170]), "expected_score": np.array([200.0, 90.0, 60.0]),
...         "expected_score_se": np.array([10.0, 10.0, 10.0])}
>>> vs = versus_pass(cols, pv)
>>> vs.bid_up_to, vs.gain.tolist()
(160, [120.0, 10.0, -20.0])
>>> print(vs.line().replace(", a gain", "," + chr(10) + "a gain"))
bid up to 160: winning there scores 90.0 ± 10.0, passing 80.0 ± 2.0,
a gain of +10.0 ± 10.2 (ahead by more than 2 SE up to 150)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from binokel_sim.errors import InputError
from binokel_sim.evaluation.pass_surface import (DEFENCE_FEATURES, PAIRS, bend, bend_slope, design, fit_bend,
                                                  held_out, ols)
from binokel_sim.rules import Rules


#: The fitted models, by rules hash (as ``instant_model.json``).
MODEL_FILE = Path(__file__).with_name("pass_model.json")

#: What the pass value counts, in words (printed with it).
MEANING = ("E[score | pass]: his own score when he drops out of the auction -- as a defender his tricks' card"
           " points and, with a trick, his melds at the soloist's trump; as forehand he may still have to play"
           " the minimum where all pass")

#: What a ladder weighed against passing counts: ``own`` the seat's score (the default); ``margin`` its score
#: minus the mean of the other seats' (a game to a target: what the others score counts against you; the
#: winning side's others by :mod:`binokel_sim.evaluation.margin`).
OBJECTIVES = {"own": "the seat's own score", "margin": "the seat's score minus the mean of the other seats' scores"}


def check_objective(objective: str) -> str:
    """``objective`` if it is one of :data:`OBJECTIVES`, else an :class:`InputError` naming them.

    >>> check_objective("margin")
    'margin'
    """
    if objective not in OBJECTIVES:
        raise InputError(f"objective: expected one of {', '.join(OBJECTIVES)}, got {objective!r}")
    return objective


def defence_features(hands: np.ndarray, rules: Rules) -> np.ndarray:
    """:data:`DEFENCE_FEATURES` of hands (count vectors ``uint8[n, 24]``) as float64[n, 6].

    >>> from binokel_sim.cards import Hand
    >>> from binokel_sim.rules import load_rules
    >>> f = defence_features(Hand.parse("EA EA E10 EK EO EU GA G10 HA H10 SA S10").counts[None], load_rules("standard"))
    >>> dict(zip(DEFENCE_FEATURES, f[0].tolist()))
    {'melds_best': 250.0, 'melds_mean': 212.5, 'aces': 5.0, 'tens': 4.0, 'points': 104.0, 'longest': 6.0}
    """
    from binokel_sim.evaluation.features import FEATURES, features_batch
    from binokel_sim.melds.scorer import totals_by_trump

    hands = np.ascontiguousarray(hands, dtype=np.uint8)
    table = rules.meld_array()
    base = np.empty((len(hands), len(FEATURES)), dtype=np.int64)
    features_batch(hands, table, base)
    tot = np.empty(4, dtype=np.int64)
    mean = np.empty(len(hands))
    for i in range(len(hands)):
        totals_by_trump(hands[i], table, tot)
        mean[i] = tot.mean()
    col = {name: base[:, k] for k, name in enumerate(FEATURES)}
    return np.column_stack([col["melds"], mean, col["aces"], col["tens"], col["points"], col["longest"]]
                           ).astype(np.float64)


@dataclass(frozen=True)
class PassValue:
    """E[score | pass] of one hand at one seat: ``mean`` ± ``se``, one deal's spread ``sd``, ``n`` deals."""

    mean: float
    se: float
    sd: float
    n: int
    #: Where the figure comes from, in words (the model and its deals, or the hand's own deals).
    basis: str
    #: What it counts: one of :data:`OBJECTIVES`.
    objective: str = "own"

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The normal interval ``mean ± z se`` (95 % by default)."""
        return self.mean - z * self.se, self.mean + z * self.se

    def line(self) -> str:
        """One line for a player.

        >>> PassValue(80.04, 2.0, 40.0, 500, "500 demo deals").line()
        "passing: 80.0 ± 2.0 (500 demo deals; one deal's spread sd 40.0)"
        """
        what = "passing" if self.objective == "own" else "passing (own minus the others' mean)"
        return f"{what}: {self.mean:.1f} ± {self.se:.1f} ({self.basis}; one deal's spread sd {self.sd:.1f})"

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "meaning": MEANING if self.objective == "own" else
                "E[score - mean of the others' scores | pass]"}


@dataclass(frozen=True)
class DefenceModel:
    """``score ~ coef . [1, features, seat 1.., seat n-1]`` fitted on forced-pass deals; ``cov``: the
    coefficients' covariance; ``sd``: the residual spread of one deal; ``n``: the deals it was fitted on.
    ``margin_*``: the same line for the seat's score minus the others' mean; ``others``: the others' mean
    score when the seat wins (:class:`~binokel_sim.evaluation.margin.OthersLine`), both for the ``margin``
    objective (None in a model fitted before it)."""

    rules_hash: str
    rules: str
    coef: list[float]
    cov: list[list[float]]
    sd: float
    n: int
    provenance: dict = field(default_factory=dict, compare=False)
    margin_coef: list[float] | None = None
    margin_cov: list[list[float]] | None = None
    margin_sd: float | None = None
    others: Any = None
    #: The surface's terms: the features' squares and pairwise products besides the features (False in a model
    #: fitted before them: the line).
    quadratic: bool = False
    #: ``[k, a, b, c]`` of :func:`~binokel_sim.evaluation.pass_surface.bend` applied to the surface's value (None:
    #: unbent, a model fitted before it).
    floor_bend: list[float] | None = None

    def design(self, feats: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The fit's design rows of hands' features (float[n, 6]) at ``seats`` (int[n])."""
        quad = len(PAIRS) if self.quadratic else 0
        return design(feats, seats, len(self.coef) - len(DEFENCE_FEATURES) - quad, self.quadratic)

    def value(self, counts: np.ndarray, rules: Rules, seat: int, objective: str = "own") -> PassValue:
        """The :class:`PassValue` of one hand (count vector) at ``seat`` for ``objective`` (:data:`OBJECTIVES`)."""
        x = self.design(defence_features(np.asarray(counts)[None], rules), np.array([seat]))[0]
        if check_objective(objective) == "own":
            coef, cov, sd = self.coef, self.cov, self.sd
        elif self.margin_coef is None or self.margin_cov is None or self.margin_sd is None or self.others is None:
            raise InputError(f"the pass-value model of rules {rules.name!r} predates the margin objective: refit it"
                             f" (binokel fit defence --rules {rules.name} --write)")
        else:
            coef, cov, sd = self.margin_coef, self.margin_cov, self.margin_sd
        mean = float(x @ np.asarray(coef))
        se = float(np.sqrt(max(0.0, x @ np.asarray(cov) @ x)))
        if objective == "own" and self.floor_bend is not None:  # the delta method for the SE
            mean, se = float(bend(np.array([mean]), self.floor_bend)[0]), abs(bend_slope(mean, self.floor_bend)) * se
        what = "a quadratic surface" if self.quadratic else "a line"
        basis = (f"{what} fitted on {self.n} seats made to pass in {self.provenance.get('deals', '?')} simulated"
                 f" deals, seed {self.provenance.get('seed', '?')}")
        return PassValue(mean=mean, se=se, sd=float(sd), n=int(self.n), basis=basis, objective=objective)


def fit_defence(hands: np.ndarray, seats: np.ndarray, scores: np.ndarray, rules: Rules,
                provenance: dict | None = None, margins: np.ndarray | None = None, others: Any = None,
                quadratic: bool = True, bent: bool = True) -> DefenceModel:
    """Least squares of ``scores`` (and of ``margins``, given) on the hands' :data:`DEFENCE_FEATURES` (with
    ``quadratic`` their squares and pairwise products too) and seats (see the module docstring); ``bent``:
    the score's value bent off its floor (:mod:`~binokel_sim.evaluation.pass_surface`, fitted on held-out
    predictions, 10 folds of deals; rows in deal order); ``others``: the
    :class:`~binokel_sim.evaluation.margin.OthersLine` it carries.

    >>> from binokel_sim.rules import load_rules
    >>> rng = np.random.default_rng(0)
    >>> from binokel_sim.dealing.dealer import Dealer, seat_slices
    >>> from binokel_sim.cards import counts_of
    >>> rows = Dealer(load_rules("standard"), 3).deal(400)
    >>> hands = np.array([counts_of(r[seat_slices(load_rules("standard"))[0]], check=False) for r in rows])
    >>> x = defence_features(hands, load_rules("standard"))
    >>> y = 30 + 0.5 * x[:, 1] + 4 * x[:, 2] + rng.normal(0, 1, 400)
    >>> m = fit_defence(hands, np.zeros(400, int), y, load_rules("standard"), quadratic=False, bent=False)
    >>> abs(m.coef[2] - 0.5) < 0.02, abs(m.coef[3] - 4.0) < 0.5, round(m.sd, 1)   # the line it was drawn from
    (True, True, 1.0)
    """
    from binokel_sim.provenance import KEY_DIGITS, rules_hash

    y = np.asarray(scores, dtype=np.float64)
    k = len(DEFENCE_FEATURES) + (len(PAIRS) if quadratic else 0) + rules.n_seats
    if len(y) < 2 * k:
        raise InputError(f"fit defence: {len(y)} passing seats are too few for {k} coefficients")
    X = design(defence_features(hands, rules), seats, rules.n_seats, quadratic)
    coef, cov, sd = ols(X, y)
    floor = fit_bend(held_out(X, y, rules.n_seats), y) if bent else None
    mc, mcov, msd = ols(X, np.asarray(margins, dtype=np.float64)) if margins is not None else (None, None, None)
    return DefenceModel(rules_hash=rules_hash(rules, digits=KEY_DIGITS), rules=rules.name, coef=coef, cov=cov, sd=sd,
                        n=int(len(y)), provenance=dict(provenance or {}), margin_coef=mc, margin_cov=mcov,
                        margin_sd=msd, others=others, quadratic=quadratic, floor_bend=floor)


def load_defence(rules: Rules, path: str | Path | None = None) -> DefenceModel | None:
    """The fitted pass-value model for ``rules`` (by content hash), or None when none was fitted."""
    from binokel_sim.output import read_json_cached
    from binokel_sim.provenance import KEY_DIGITS, rules_hash

    p = Path(path) if path else MODEL_FILE
    if not p.is_file():
        return None
    d = read_json_cached(p).get(rules_hash(rules, digits=KEY_DIGITS))
    if not d:
        return None
    from binokel_sim.evaluation.margin import OthersLine

    return DefenceModel(**{**d, "others": OthersLine(**d["others"]) if d.get("others") else None})


def save_defence(model: DefenceModel, path: str | Path | None = None) -> Path:
    """Store ``model`` under its rules hash (atomically; other rules' models kept)."""
    from binokel_sim.output import write_json

    p = Path(path) if path else MODEL_FILE
    data = json.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}
    data[model.rules_hash] = asdict(model)
    write_json(data, p)
    return p


@dataclass(frozen=True)
class VersusPass:
    """A ladder weighed against passing (see the module docstring): per bid the gain of winning there over
    passing and its SE; ``bid_up_to`` None: passing beats winning even at the minimum bid."""

    bids: np.ndarray
    gain: np.ndarray
    gain_se: np.ndarray
    expected_score: np.ndarray
    expected_score_se: np.ndarray
    passing: PassValue
    bid_up_to: int | None
    #: The last bid of the run from the minimum where the gain is more than two SEs above 0 (None: none).
    sure_up_to: int | None = None
    #: What the scores count: one of :data:`OBJECTIVES` (the passing value's).
    objective: str = "own"

    def at(self, bid: int) -> tuple[float, float]:
        """(gain, its SE) at ``bid``."""
        i = int(np.flatnonzero(self.bids == bid)[0])
        return float(self.gain[i]), float(self.gain_se[i])

    def line(self) -> str:
        """The advice in one line."""
        p = self.passing
        if self.bid_up_to is None:
            g, se = float(self.gain[0]), float(self.gain_se[0])
            what = "scores" if self.objective == "own" else "scores (own minus the others' mean)"
            return (f"pass: winning even at {int(self.bids[0])} {what} less than passing ({p.mean:.1f} ± {p.se:.1f}),"
                    f" a gain of {g:+.1f} ± {se:.1f}")
        i = int(np.flatnonzero(self.bids == self.bid_up_to)[0])
        sure = (f" (ahead by more than 2 SE up to {self.sure_up_to})" if self.sure_up_to is not None else
                " (ahead by more than 2 SE at no bid)")
        what = "scores" if self.objective == "own" else "scores (own minus the others' mean)"
        return (f"bid up to {self.bid_up_to}: winning there {what} {self.expected_score[i]:.1f} ±"
                f" {self.expected_score_se[i]:.1f}, passing {p.mean:.1f} ± {p.se:.1f}, a gain of"
                f" {self.gain[i]:+.1f} ± {self.gain_se[i]:.1f}" + sure)

    def to_dict(self) -> dict[str, Any]:
        return {"bid_up_to": self.bid_up_to, "sure_up_to": self.sure_up_to, "objective": self.objective,
                "passing": self.passing.to_dict(), "line": self.line(),
                "gain": [{"bid": int(b), "gain": float(g), "gain_se": float(s)}
                         for b, g, s in zip(self.bids, self.gain, self.gain_se)]}


def versus_pass(cols, passing: PassValue) -> VersusPass:
    """Weigh a ladder (columns or frame with ``bid``, ``expected_score``, ``expected_score_se``; for the
    ``margin`` objective ``expected_margin(_se)``, :func:`~binokel_sim.evaluation.margin.margin_columns`)
    against ``passing`` (its ``objective`` says which); see the module docstring."""
    bids = np.asarray(cols["bid"], dtype=np.int64)
    what = "expected_score" if passing.objective == "own" else "expected_margin"
    e = np.asarray(cols[what], dtype=np.float64)
    # A ladder of one deal has no error (NaN): the gain's stays NaN and no bid is called "ahead by 2 SE".
    se = np.asarray(cols[f"{what}_se"], dtype=np.float64)
    gain = e - passing.mean
    gain_se = np.sqrt(se ** 2 + passing.se ** 2)
    # The unbroken run from the minimum bid: never advise a bid above one where passing was better.
    beats = np.cumprod(gain > 0).astype(bool)
    sure = np.cumprod(gain - 2 * gain_se > 0).astype(bool)
    return VersusPass(bids=bids, gain=gain, gain_se=gain_se, expected_score=e, expected_score_se=se,
                      passing=passing, bid_up_to=int(bids[beats][-1]) if beats.any() else None,
                      sure_up_to=int(bids[sure][-1]) if sure.any() else None, objective=passing.objective)


__all__ = ["DEFENCE_FEATURES", "DefenceModel", "MEANING", "OBJECTIVES", "PAIRS", "PassValue", "VersusPass",
           "check_objective", "defence_features", "fit_defence", "load_defence", "save_defence", "versus_pass"]
