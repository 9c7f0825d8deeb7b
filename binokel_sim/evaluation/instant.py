"""The instant tier of ``binokel bid``: the bid ladder from a model fitted on a corpus, in well under a second.

The model, per rule set (looked up by the rules' content hash,
:func:`binokel_sim.provenance.rules_hash`, as the corpus's manifest keys it): a least-squares line of the soloist's
double-dummy total on the hand's countable features
(:mod:`binokel_sim.evaluation.features`) and the seat, plus the corpus's residual
pairs -- (total - line, the soloist's own estimate - line, took a trick) of every
trump deal. A new hand's ladder is :func:`binokel_sim.evaluation.ladder.bid_table` on
``line + residuals``: the same table, semantics and going-out rule as the checked
tier, with the model's own estimate deciding going out, weighed with the error model
(:mod:`binokel_sim.evaluation.going_out`) fitted on the same training deals. The Tapp value is a second
line with its residual spread. ``n`` is the number of training deals whose residuals
the hand draws on; the standard errors are those of that many deals (the line's own error
is not in them).

The residuals are pooled by the line's value (:data:`RESIDUAL_POOLS` pools of equal size):
a hand draws on the deals whose line value lies in its own pool, because strong hands
spread wider and go out differently. One pool for all was over-confident for strong hands
at four players (held-out deals, 14 725 questions per bin: the top two bins of predicted
P(make) 2.6-5.5 points too high at `four-solo` and 2.9-5.3 at `kreuz`); five pools bring every
bin within 1.5 points there (`standard`: largest gap 1.5 -> 0.9 points, Brier 0.1373 -> 0.1371).
Durch/Bettel deals are left out of the fit (their share is in the provenance).

*Budgeted corpora* (48 cards, and 11-card four-player deals: totals solved within a node budget,
most of them only as a proven interval): the line is the maximum-likelihood fit of the censored
normal model (:func:`binokel_sim.censored.fit`), and each open deal's residual is a seeded draw of
its total from that model restricted to its proven interval (the integers ``lo..hi``, weighted by
the normal density): the model's estimate, the main columns of the table. Beside it the same
ladder at the proven bounds, every open total at its lower bound (``p_make_lower``: counted as
failed, as the checked tier counts them) and at its upper bound (``p_make_upper``): the range
the corpus itself proves, whatever the model. Where exact totals were known to check it
(``benchmarks/censored_fit.py``), the censored fit came out about 17 points low, so the model's
column leans to the cautious side.

Coefficients live in ``instant_model.json`` beside this module (``binokel fit instant --write``); the models
fitted on single-dummy totals (``bid --play single-dummy``) in ``instant_model_sd.json``.

>>> m = InstantModel(rules_hash="x", rules="standard", intercept=100.0, coef=[1.0] + [0.0] * 6,
...                  seat=[0.0, 0.0, 0.0], residuals=[[0, 0, 1], [-40, -40, 1]], tapp=[50.0, [0.0] * 7, 10.0])
>>> from binokel_sim.rules import load_rules
>>> a = m.advise("EA EA E10 EK EO EU GA G10 HA H10 SA S10", load_rules("standard"))
>>> a.total, a.ceiling_bid, a.safe_bid   # 100 + 250 melds; totals 350, 310 (at 350: -350 out)
(350.0, 340, 310)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from binokel_sim.censored import impute, line_fit
from binokel_sim.errors import InputError
from binokel_sim.evaluation.features import FEATURES, features_batch
from binokel_sim.evaluation.going_out import MODEL_FILE, EstimateError, fit_estimate_error
from binokel_sim.evaluation.instant_advice import InstantAdvice, ProvenBounds, TappValue
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.rules import Rules

#: The model trains on the corpus deals numbered below this and on every other deal of each soloist seat
#: above; the others from here on are held out for calibration (``binokel calibrate``). Both sets grow with
#: the corpus, and the first model (fitted on deals 0..499) never saw a held-out deal.
TRAIN_BELOW = 500
#: Residual pools by the line's value (see the module docstring).
RESIDUAL_POOLS = 5
#: The real-play models (fitted on a single-dummy corpus, ``binokel fit instant --play single-dummy --write``): a
#: file of their own, so the open-card models' file that every ``bid`` parses stays as small.
SD_MODEL_FILE = MODEL_FILE.with_name("instant_model_sd.json")


def held_out_rule(seats: int, phase2: int | None = None) -> str:
    """How :func:`held_out` picks for ``seats`` players, in words; ``phase2``: the rule of a two-phase corpus.

    >>> held_out_rule(3)
    'every other deal of each soloist seat from 500 on (the odd-numbered ones)'
    >>> held_out_rule(3, 200)
    'every other deal of each soloist seat below 200, where phase 2 decides them (the odd-numbered ones)'
    >>> held_out([500, 501, 502, 503], 2).tolist()   # seats 0 1 0 1: rounds 250 and 251
    [False, True, True, False]
    """
    even = ("forehand in odd rounds of deals, the second seat in even ones" if seats == 2 else
            "forehand and the third seat in odd rounds of deals, the second and fourth in even ones")
    which = "the odd-numbered ones" if seats % 2 else even
    where = f"from {TRAIN_BELOW} on" if phase2 is None else f"below {phase2}, where phase 2 decides them"
    return f"every other deal of each soloist seat {where} ({which})"


def held_out(deals, seats: int, phase2: int | None = None) -> np.ndarray:
    """Which corpus deal numbers are held out of the fit: from :data:`TRAIN_BELOW` on (with ``phase2=n2``, a
    two-phase corpus: below ``n2``, where phase 2 decides every bid), every other deal of each soloist seat
    (deal ``d`` has the soloist ``d mod seats``): with an odd number of seats the odd-numbered deals; with an
    even number the alternation flips every round (odd deals would hold out only seats 1 and 3).

    >>> held_out([0, 499, 500, 501, 1203], 3).tolist(), held_out([0, 1, 199, 201], 3, phase2=200).tolist()
    ([False, False, False, True, True], [False, True, True, False])
    >>> held_out(range(500, 508), 4).tolist()   # seats 0 1 2 3 0 1 2 3
    [True, False, True, False, False, True, False, True]
    """
    d = np.asarray(deals, dtype=np.int64)
    every_other = (d + (d // seats) * (seats + 1)) % 2 == 1
    return (d < phase2) & every_other if phase2 is not None else (d >= TRAIN_BELOW) & every_other


@dataclass(frozen=True)
class InstantModel:
    """``total ~ intercept + coef . features + seat[s]``; ``residuals``: [d total, d estimate, took] rows;
    ``tapp``: [intercept, coef, residual sd] of the Tapp value; ``tapp_cov``: the covariance of
    the Tapp line's coefficients (intercept first), for the standard error of a prediction;
    ``pool_edges``: the line values between residual pools, ``pool``: each residual row's pool
    (both empty: one pool). On a budgeted corpus each residual row adds the proven bounds' residuals
    (``d lower, d upper``) and ``open_share`` is the share of training totals left open."""

    rules_hash: str
    rules: str
    intercept: float
    coef: list[float]
    seat: list[float]
    residuals: list[list[int]]
    tapp: list[Any]
    tapp_cov: list[list[float]] = field(default_factory=list)
    pool_edges: list[float] = field(default_factory=list)
    pool: list[int] = field(default_factory=list)
    open_share: float = 0.0
    #: [intercept, slope, sd, n]: the double-dummy total on the policy's own estimate
    #: (:class:`~binokel_sim.evaluation.going_out.EstimateError`, the going-out rule's error model).
    estimate_error: list[float] = field(default_factory=list)
    #: The drawn ladder (:mod:`binokel_sim.evaluation.instant_draws`; 0 draws: the line's ladder): Tapp
    #: draws per hand, the pool edges on the exchange's estimate, the residual rows [pool, total - estimate,
    #: took] and the mean residual of each seat against all (added to the pooled rows).
    draws: int = 0
    draw_edges: list[float] = field(default_factory=list)
    draw_rows: list[list[int]] = field(default_factory=list)
    draw_shift: list[float] = field(default_factory=list)
    provenance: dict = field(default_factory=dict, compare=False)

    @property
    def budgeted(self) -> bool:
        """Whether the model was fitted on interval totals (its ladder then has bounds columns)."""
        return bool(self.residuals) and len(self.residuals[0]) == 5

    def line(self, feats: np.ndarray, seat: int) -> float:
        return float(self.intercept + np.asarray(feats, dtype=np.float64) @ np.asarray(self.coef) + self.seat[seat])

    @cached_property
    def _pools(self) -> list[np.ndarray]:
        r = np.asarray(self.residuals, dtype=np.float64).reshape(-1, 5 if self.budgeted else 3)
        if not self.pool_edges:
            return [r]
        which = np.asarray(self.pool)
        return [r[which == k] for k in range(len(self.pool_edges) + 1)]

    def residuals_at(self, total: float) -> np.ndarray:
        """The residual rows a hand whose line value is ``total`` draws on (its pool)."""
        return self._pools[int(np.searchsorted(self.pool_edges, total))] if self.pool_edges else self._pools[0]

    def parts(self, total: float, at: str = "model") -> DealParts:
        """Per training deal of the hand's pool, the arrays :func:`~binokel_sim.evaluation.ladder.bid_table` takes;
        ``at``: the totals of the model (``"model"``), or of a budgeted corpus's ``"lower"``/``"upper"`` bounds."""
        r = self.residuals_at(total)
        value = np.rint(total + r[:, {"model": 0, "lower": 3, "upper": 4}[at]]).astype(np.int64)
        n = value.size
        return DealParts(value=value, took=r[:, 2] > 0, code=np.zeros(n, np.int64), special_made=np.zeros(n, bool),
                         result=value, subjective=np.rint(total + r[:, 1]).astype(np.int64)[:, None],
                         subjective_took=np.ones((n, 1), bool), base_result=value, durch=np.zeros(n, bool))

    @cached_property
    def going_out_error(self) -> EstimateError | None:
        """The error model of the soloist's estimate fitted with this model (None: face value)."""
        return EstimateError.from_list(self.estimate_error)

    @property
    def drawn(self) -> bool:
        """Whether hands are answered by the drawn ladder (:mod:`~binokel_sim.evaluation.instant_draws`)."""
        return self.draws > 0 and not self.budgeted

    def drawn_parts(self, rules: Rules, counts: np.ndarray, seat: int, drawn=None) -> DealParts:
        """The drawn ladder's pseudo-deals of one hand (count vector) at ``seat`` (``drawn``: its
        :func:`~binokel_sim.evaluation.instant_draws.draw_exchanges`, made here where not given)."""
        from binokel_sim.evaluation.instant_draws import drawn_parts

        return drawn_parts(rules, counts, seat, self.draw_edges, np.asarray(self.draw_rows, dtype=np.int64),
                           self.draw_shift[seat], self.draws, drawn)

    def p_make(self, rules: Rules, hands: np.ndarray, seats: np.ndarray, bids) -> np.ndarray:
        """Predicted P(make) float[n, len(bids)] of hands (count vectors ``hands[n, 24]``) at ``seats[n]``."""
        from binokel_sim.evaluation.ladder import outcomes

        hands = np.ascontiguousarray(hands, dtype=np.uint8)
        feats = np.empty((len(hands), len(FEATURES)), dtype=np.int64)
        features_batch(hands, rules.meld_array(), feats)
        out = np.empty((len(hands), len(bids)))
        for i in range(len(hands)):
            parts = (self.drawn_parts(rules, hands[i], int(seats[i])) if self.drawn
                     else self.parts(self.line(feats[i], int(seats[i]))))
            out[i] = outcomes(rules, parts, bids, self.going_out_error)[0].mean(axis=0)
        return out

    def advise(self, hand, rules: Rules, seat: int = 0, confidence: float = 0.8) -> InstantAdvice:
        """The ladder, ceiling, safe bid and Tapp value of ``hand`` (card text or count vector) at ``seat``
        (:class:`~binokel_sim.evaluation.instant_advice.InstantAdvice`)."""
        from binokel_sim.dealing.hand_input import as_counts
        from binokel_sim.evaluation.ladder import decisions, ladder_columns

        counts = as_counts(hand, "hand", rules.layout.hand_size, rules)
        feats = np.empty((1, len(FEATURES)), dtype=np.int64)
        features_batch(np.ascontiguousarray(counts, dtype=np.uint8)[None], rules.meld_array(), feats)
        total = self.line(feats[0], seat)
        bounds = None
        drawn = None
        if self.budgeted:
            # The upper bounds reach highest: their ladder sets the bids the other two are asked at.
            err = self.going_out_error
            upper = ladder_columns(rules, self.parts(total, "upper"), None, err)
            cols = ladder_columns(rules, self.parts(total), upper.bid, err)
            lower = ladder_columns(rules, self.parts(total, "lower"), upper.bid, err)
            at = {}
            for name, b in (("lower", lower), ("upper", upper)):
                cols = cols.with_columns(**{f"p_make_{name}": b.p_make, f"expected_score_{name}": b.expected_score})
                at[name] = decisions(rules, b, confidence)
            bounds = ProvenBounds(at["lower"].ceiling_bid, at["lower"].safe_bid, at["upper"].ceiling_bid,
                                  at["upper"].safe_bid, self.open_share)
        elif self.drawn:
            from binokel_sim.evaluation.instant_draws import draw_exchanges, rescale

            # The ladder and the Tapp value read the same draws: the exchanges are made once.
            drawn = draw_exchanges(rules, counts, seat, self.draws)
            parts = self.drawn_parts(rules, counts, seat, drawn)
            cols = rescale(ladder_columns(rules, parts, None, self.going_out_error), self.draws)
            trump = parts.code < 4
            total = float(parts.value[trump].mean()) if trump.any() else total
        else:
            cols = ladder_columns(rules, self.parts(total), None, self.going_out_error)
        d = decisions(rules, cols, confidence)
        t0, tc, tsd = self.tapp
        x = np.concatenate([[1.0], feats[0].astype(np.float64)])
        tv = float(x[0] * t0 + x[1:] @ np.asarray(tc, dtype=np.float64))
        # Standard error of the line at this hand (the mean Tapp value of such hands).
        tse = float(np.sqrt(x @ np.asarray(self.tapp_cov) @ x)) if self.tapp_cov else float("nan")
        n = self.draws if self.drawn else len(self.residuals_at(total))
        basis = (f"{n} Tapps drawn for this hand through the exchange, the play as the residuals of"
                 f" {self.provenance.get('n_train', '?')} corpus deals" if self.drawn else f"{n} corpus deals")
        p = self.provenance
        if p.get("phase2_train"):  # a two-phase corpus: its decided deals in the fit
            basis += f" (the line fitted on {p['n_train']} deals, {p['phase2_train']} decided)"
        line = TappValue(tv, tse, float(tsd), int(self.provenance.get("n_tapp", n)))
        return InstantAdvice(total=total, n=n, basis=basis, ladder=cols, ceiling_bid=d.ceiling_bid,
                             safe_bid=d.safe_bid, order_note=d.order_note,
                             tapp_value=self._tapp(rules, counts, seat, line, drawn),
                             surrender_decided_by=self.surrender_basis, provenance=self.provenance, bounds=bounds)

    def _tapp(self, rules: Rules, counts: np.ndarray, seat: int, line: TappValue, drawn=None) -> TappValue:
        """The drawn ladder: this hand's own Tapp value, the line's (hands like it) as its ``reference``."""
        from dataclasses import replace

        from binokel_sim.evaluation.instant_draws import hand_tapp_value

        if not self.drawn:
            return replace(line, basis="the line of hands like it")
        own = hand_tapp_value(rules, counts, seat, self.draw_edges, np.asarray(self.draw_rows, dtype=np.int64),
                              self.draw_shift[seat], self.draws, drawn)
        return replace(own, reference=line)

    @property
    def surrender_basis(self) -> str:
        """What decides going out in this model's ladder, in words."""
        err = self.going_out_error
        return ("the model's own estimate (its residual pairs), "
                + (f"weighed with its error: {err.describe(f'the {self.play} total')}" if err else
                   "at face value (no error model fitted)"))

    @property
    def play(self) -> str:
        """How the totals it was fitted on were played: ``double-dummy``, or ``single-dummy`` (every seat)."""
        return str(self.provenance.get("play", "double-dummy"))


def fit_instant(df, rules: Rules, provenance: dict | None = None, seed: int = 1, ladder: str = "line",
                error: EstimateError | None = None) -> InstantModel:
    """Fit on corpus rows (:func:`binokel_sim.corpus.reader.load_corpus` ``.df``) of ``rules``; ``seed``
    draws the open totals of a budgeted corpus inside their intervals (see the module docstring);
    ``ladder``: ``line``, or ``drawn`` where the corpus allows it (:mod:`~binokel_sim.evaluation.instant_draws`);
    ``error``: the going-out error model the soloist weighs his estimate with (default: fitted on these rows)."""
    from binokel_sim.provenance import KEY_DIGITS, rules_hash
    from binokel_sim.studies.deals import row_bounds

    trump = df["code"].to_numpy() < 4
    d = df[trump]
    if len(d) < 3 * (len(FEATURES) + rules.n_seats):
        raise InputError(f"instant model: {len(d)} trump deals are too few to fit {len(FEATURES)} features")
    X = d[list(FEATURES)].to_numpy(np.float64)
    seats = np.eye(rules.n_seats)[d["soloist"].to_numpy()][:, 1:]  # seat 0 is the baseline
    A = np.column_stack([np.ones(len(d)), X, seats])
    lo, hi = row_bounds(d, "value")
    beta, sd = line_fit(A, lo, hi)
    pred = A @ beta
    rng = np.random.default_rng([seed, 0x1A57])
    y = impute(pred, sd, lo, hi, rng)
    est = np.array([np.mean(s) for s in d["subjective"]])
    err = error or fit_estimate_error(y, est)
    cols = [np.rint(y - pred), np.rint(est - pred), d["took"].to_numpy(bool)]
    budgeted = bool((lo < hi).any())
    if budgeted:
        cols += [np.rint(lo - pred), np.rint(hi - pred)]
    res = np.column_stack(cols).astype(int)
    edges = np.quantile(pred, np.arange(1, RESIDUAL_POOLS) / RESIDUAL_POOLS)
    pool = np.searchsorted(edges, pred)
    At = np.column_stack([np.ones(len(df)), df[list(FEATURES)].to_numpy(np.float64)])
    tb, tsd = line_fit(At, *row_bounds(df, "tapp_value"))
    tcov = tsd ** 2 * np.linalg.pinv(At.T @ At)
    draws = _draw_fit(d, y, est, budgeted, rules) if ladder == "drawn" else {"why": "the line (asked for)"}
    prov = {**(provenance or {}), "n_train": int(len(d)), "n_tapp": int(len(df)), "ladder": draws.pop("why"),
            "special_share": float(1 - trump.mean()), "residual_sd": sd,
            **({"fit": "censored normal (maximum likelihood on the proven intervals), open totals drawn inside"
                       f" them with seed {seed}"} if budgeted else {})}
    return InstantModel(rules_hash=rules_hash(rules, digits=KEY_DIGITS), rules=rules.name, intercept=float(beta[0]),
                        coef=[float(b) for b in beta[1:1 + len(FEATURES)]],
                        seat=[0.0] + [float(b) for b in beta[1 + len(FEATURES):]], residuals=res.tolist(),
                        tapp=[float(tb[0]), [float(b) for b in tb[1:]], tsd], tapp_cov=tcov.tolist(),
                        pool_edges=[float(e) for e in edges], pool=[int(k) for k in pool],
                        open_share=float((lo < hi).mean()),
                        estimate_error=[err.intercept, err.slope, err.sd, err.n], **draws, provenance=prov)


def _draw_fit(d, y: np.ndarray, est: np.ndarray, budgeted: bool, rules: Rules) -> dict[str, Any]:
    """The drawn ladder's fields of :class:`InstantModel` from the trump training rows ``d`` (totals ``y``,
    the exchange's own estimates ``est``), with ``why``: which ladder the model answers with, in words."""
    from binokel_sim.evaluation.instant_draws import QUANTILES, draws_for, residual_rows

    policy = set(d["policy"]) if "policy" in d else set()
    if budgeted or policy != {"heuristic"}:
        why = ("the line (open totals: no residual to pool)" if budgeted else
               f"the line (the corpus's exchange policy {sorted(policy)} is not the heuristic the draws replay)")
        return {"why": why}
    edges, rows = residual_rows(est, y, d["took"].to_numpy(bool), RESIDUAL_POOLS)
    resid = y - est
    seat = d["soloist"].to_numpy()
    shift = [float(resid[seat == s].mean() - resid.mean()) if (seat == s).any() else 0.0
             for s in range(rules.n_seats)]
    draws = draws_for(rules)
    return {"draws": draws, "draw_edges": edges, "draw_rows": rows.tolist(), "draw_shift": shift,
            "why": (f"drawn: {draws} Tapps per hand through the heuristic exchange, the play as the corpus's"
                    f" residuals of its estimate ({RESIDUAL_POOLS} pools of {QUANTILES} rows)")}


def model_file(play: str = "double-dummy") -> Path:
    """The file of the fitted models of ``play``: the open-card models' (``instant_model.json``, read by every
    ``bid``), or the real-play ones' (``instant_model_sd.json``, ``bid --play single-dummy``)."""
    if play not in ("double-dummy", "single-dummy"):
        raise InputError(f"play: expected double-dummy or single-dummy, got {play!r}")
    return MODEL_FILE if play == "double-dummy" else SD_MODEL_FILE


def load_instant(rules: Rules, path: str | Path | None = None, play: str = "double-dummy") -> InstantModel | None:
    """The fitted model for ``rules`` (by content hash) and ``play``, or None when none was fitted."""
    from binokel_sim.output import read_json_cached
    from binokel_sim.provenance import KEY_DIGITS, rules_hash

    p = Path(path) if path else model_file(play)
    if not p.is_file():
        return None
    d = read_json_cached(p).get(rules_hash(rules, digits=KEY_DIGITS))
    return InstantModel(**d) if d else None


def save_instant(model: InstantModel, path: str | Path | None = None) -> Path:
    """Store ``model`` under its rules hash in the model file of its play (atomically; other rules' models
    kept)."""
    from binokel_sim.output import write_json

    p = Path(path) if path else model_file(model.play)
    data = json.loads(p.read_text(encoding="utf-8")) if p.is_file() else {}
    data[model.rules_hash] = asdict(model)
    write_json(data, p)
    return p
