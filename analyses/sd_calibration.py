"""Calibration of ``bid --play single-dummy``, sharpened by the open-card outcomes of more deals.

The issue's question -- is every decile of predicted P(make) within 2 points of how often the bid is
made? -- is a question about ten rates. On the single-dummy corpus's 750 held-out deals each rate has a
standard error of about 2 points in the middle deciles (the questions of one deal move together), so even
a perfectly calibrated model would pass all ten only about one time in six: the held-out deals alone
cannot answer it. The outcome that matters (made with every seat single-dummy) moves almost in step with
one that costs nothing more to know, made with open cards, and the double-dummy corpus holds that for
thousands of further deals the model never saw (its own held-out deals beyond the single-dummy corpus).
Per decile::

    gap = mean_H(y - p) - beta * (mean_H(z - p) - mean_F(z - p))

``y``: made single-dummy, ``z``: made with open cards, ``p``: the prediction, ``H``: the held-out
single-dummy questions of the decile, ``F``: the further deals' questions with predictions in the same
range (the decile's edges are set on ``H``), ``beta``: the slope of ``y`` on ``z`` over ``H`` (clustered by
deal). ``H`` and ``F`` are deals of one stream, so the bracket has expectation zero and only removes the
luck of ``H``'s deals: the difference (regression) estimator of survey sampling, the idea of
prediction-powered inference. Its variance is the part of ``y`` that ``z`` does not explain, over
``H``, plus ``beta^2`` times ``z``'s over ``F``, each clustered by deal. On five-fold cross-validation
of 905 training deals it cut a middle decile's standard error from 1.8 to 0.4 points before the
further deals' share (beta 0.92-0.99 there).

>>> t = controlled_reliability(np.array([.2, .8]), np.array([0, 1]), np.array([0, 1]), np.arange(2),
...                            np.array([.2, .8]), np.array([0, 1]), np.arange(2), bins=2)
>>> t["gap_controlled"].round(3).tolist()
[-0.2, 0.2]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from binokel_sim.rules import Rules

from .calibration_result import Calibration

#: A decile is corrected only by at least this many further deals: a clustered standard error from a handful
#: of deals understates the spread (at 12 further deals, deciles came out 5-10 points off with SE 0.1-1.2).
MIN_FURTHER_DEALS = 30


def _clustered(v: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """Per-deal sums of ``v`` about its mean (``inv``: each question's deal index)."""
    return np.bincount(inv, weights=v - v.mean())


def controlled_reliability(pred: np.ndarray, made: np.ndarray, made_open: np.ndarray, deal: np.ndarray,
                           f_pred: np.ndarray, f_open: np.ndarray, f_deal: np.ndarray,
                           bins: int = 10) -> pd.DataFrame:
    """Deciles of ``pred`` (equal counts of the held-out questions; the further questions ``f_*`` go by the
    same edges), each with the held-out rate (``realised``, its clustered SE and ``gap``) and the controlled
    gap (module docstring): ``gap_controlled`` with ``gap_controlled_se``, ``beta``, ``realised_controlled``
    (the mean prediction plus that gap, with a normal 95 % interval) and the further questions and deals it
    used; a decile with fewer than :data:`MIN_FURTHER_DEALS` further deals keeps its plain gap. ``within_2pp``:
    the controlled gap within 2 points."""
    from binokel_sim.stats import wilson_from_se

    order = np.argsort(pred, kind="stable")
    cuts = [float(pred[s[0]]) for s in np.array_split(order, bins)[1:] if s.size]
    where, f_where = np.searchsorted(cuts, pred, "right"), np.searchsorted(cuts, f_pred, "right")
    rows = []
    for b in range(len(cuts) + 1):
        h, f = where == b, f_where == b
        if not h.any():
            continue
        p, y, z = pred[h], made[h].astype(np.float64), made_open[h].astype(np.float64)
        _, inv = np.unique(deal[h], return_inverse=True)
        n, r = h.sum(), float(y.mean())
        se = float(np.sqrt((_clustered(y, inv) ** 2).sum()) / n)
        lo, hi = wilson_from_se(r, se, n)
        a, c = _clustered(y - p, inv), _clustered(z - p, inv)
        beta = float((a * c).sum() / (c * c).sum()) if (c * c).sum() > 0 else 0.0
        var = ((a - beta * c) ** 2).sum() / n ** 2
        gap = float((y - p).mean())
        f_deals = len(np.unique(f_deal[f]))
        if f_deals >= MIN_FURTHER_DEALS:
            zf = f_open[f].astype(np.float64) - f_pred[f]
            _, f_inv = np.unique(f_deal[f], return_inverse=True)
            cg = gap - beta * (float((z - p).mean()) - float(zf.mean()))
            var += beta ** 2 * (_clustered(zf, f_inv) ** 2).sum() / f.sum() ** 2
        else:  # too few further deals in this range to trust their clustered error: left uncorrected
            cg, var = gap, float((a ** 2).sum()) / n ** 2
        cse = float(np.sqrt(var))
        rows.append({"bin_from": float(p.min()), "bin_to": float(p.max()), "n": float(n),
                     "deals": float(inv.max() + 1), "predicted": float(p.mean()), "realised": r,
                     "realised_se": se, "realised_lo": float(lo), "realised_hi": float(hi), "gap": gap,
                     "further_n": float(f.sum()), "further_deals": float(f_deals),
                     "beta": beta, "gap_controlled": cg, "gap_controlled_se": cse,
                     "realised_controlled": float(p.mean()) + cg,
                     "controlled_lo": float(p.mean()) + cg - 1.96 * cse,
                     "controlled_hi": float(p.mean()) + cg + 1.96 * cse, "within_2pp": bool(abs(cg) <= 0.02)})
    return pd.DataFrame(rows)


def further_rows(rules: Rules, paired, limit: int | None = None) -> pd.DataFrame:
    """The double-dummy corpus's held-out deals beyond the single-dummy corpus ``paired``
    (:class:`.sd_instant.Paired`): deals of the same stream that no fit saw (the first ``limit`` of them)."""
    from binokel_sim.corpus.reader import find_corpus, load_corpus
    from binokel_sim.evaluation.instant import held_out

    m = paired.manifest
    folder = find_corpus(rules, seed=int(m["seed"]), policy=m["policy"])
    df = load_corpus(folder, rules).df
    beyond = df[(df["deal"] > int(paired.sd["deal"].max())) & held_out(df["deal"].to_numpy(), rules.n_seats)]
    return beyond.head(limit).reset_index(drop=True) if limit is not None else beyond.reset_index(drop=True)


def _judged_rows(rules: Rules, paired, further: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the held-out rows with their single-dummy totals, the further deals' open-card rows): the deals
    :func:`sd_calibration` asks about, in the order :func:`store_sd` stores their answers (one key for both)."""
    from binokel_sim.evaluation.instant import held_out

    from .sd_instant import sd_frame

    df = sd_frame(paired.dd, paired.sd)
    return df[held_out(df["deal"].to_numpy(), rules.n_seats)].reset_index(drop=True), \
        further_rows(rules, paired, further)


def shipped_or_fit(rules: Rules, paired, min_deals: int):
    """The shipped real-play model where the fit on ``paired`` is that model (up to the rounding of this CPU:
    :func:`~binokel_sim.evaluation.model_agreement.same_model`), so that its stored answers are read; else
    the fit itself (another corpus, another model)."""
    from binokel_sim.evaluation.instant import load_instant
    from binokel_sim.evaluation.model_agreement import same_model

    from .sd_instant import fit_sd

    fitted, _ = fit_sd(rules, paired, min_deals=min_deals)
    shipped = load_instant(rules, play="single-dummy")
    return shipped if same_model(shipped, fitted) else fitted


def sd_calibration(rules: Rules, corpus=None, questions: str = "ladder", bins: int = 10, span: int = 300,
                   progress: bool = False, min_deals: int | None = None, further: int | None = None,
                   scale=None) -> Calibration:
    """The :class:`~.calibration_result.Calibration` (its table :func:`controlled_reliability`) of ``bid --play
    single-dummy``'s model (fitted on the training deals of the single-dummy corpus ``corpus``: a folder,
    default the shipped one, or :class:`.sd_instant.Paired`) on its held-out deals played single-dummy at every
    seat, with the open-card outcomes of the double-dummy corpus's held-out deals beyond it (the first
    ``further``; default all) as the control: the Brier score, the deals and the model's provenance, as
    :func:`.calibration.instant_calibration`'s.
    Predictions are read from the store :func:`store_sd` writes where it holds these questions, else computed
    under ``scale`` (a :class:`~binokel_sim.runner.Scale`: workers, checkpoint; :func:`.calibration.predict`)."""
    from binokel_sim.errors import InputError
    from binokel_sim.evaluation.instant import held_out_rule

    from .calibration import asked_questions, held_out_predictions, made_outcomes
    from .calibration_result import brier, max_abs_gap
    from .sd_instant import MIN_DEALS, read_sd

    if questions not in ("one", "ladder"):
        raise InputError(f"questions: expected one or ladder, got {questions!r}")
    need = min_deals or MIN_DEALS
    paired = read_sd(rules, corpus, min_deals=need)
    model = shipped_or_fit(rules, paired, need)
    rows, extra = _judged_rows(rules, paired, further)
    if len(rows) < 2:
        raise InputError(f"single-dummy corpus: {len(rows)} held-out deals, need 2")
    both = pd.concat([rows, extra], ignore_index=True)  # single-dummy totals, then open-card ones
    idx, bids = asked_questions(rules, both, questions, span)
    ladder = np.unique(bids)
    pred = held_out_predictions(rules, model, both, ladder, True, progress, scale)[idx, np.searchsorted(ladder, bids)]
    made, deal, h = made_outcomes(rules, both, idx, bids), both["deal"].to_numpy()[idx], idx < len(rows)
    # The held-out deals' open-card outcomes: the double-dummy rows of the same deals, the same questions.
    dd = paired.dd.set_index("deal").loc[rows["deal"]].reset_index()
    made_open = made_outcomes(rules, dd, idx[h], bids[h])
    table = controlled_reliability(pred[h], made[h], made_open, deal[h], pred[~h], made[~h], deal[~h], bins)
    which = (f"{len(rows)} held-out deals of the single-dummy corpus ({model.provenance['corpus']}), played "
             f"single-dummy at every seat: {held_out_rule(rules.n_seats)}")
    more = (f"the open-card outcomes of {len(extra)} further held-out deals of the double-dummy corpus"
            + (f" (deals {int(extra['deal'].min())}..{int(extra['deal'].max())})" if len(extra) else ""))
    b, gap, controlled = brier(pred[h], made[h], deal[h]), max_abs_gap(table), max_abs_gap(table, "gap_controlled")
    table.attrs.update({"study": "calibration", "tier": "instant", "play": "single-dummy", "rules": rules.name,
                        "held_out": which, "further": more, "questions": questions,
                        "bids": [int(bids.min()), int(bids.max())], **b.to_dict(),
                        "model": model.provenance, "max_abs_gap": gap, "max_abs_gap_controlled": controlled})
    return Calibration(table, "instant", gap, b, which, questions, "single-dummy", model.provenance, further=more,
                       max_abs_gap_controlled=controlled)


def store_sd(rules: Rules, model, paired, span: int = 300, progress: bool = False):
    """Compute and store ``model``'s answers to the questions :func:`sd_calibration` asks (its held-out deals
    and every further one, over ``span``): minutes of the drawn ladder, once, beside the model."""
    from binokel_sim.evaluation.instant_store import save_predictions
    from binokel_sim.scoring import bid_ladder

    from .calibration import predict, soloist_hands

    both = pd.concat(_judged_rows(rules, paired), ignore_index=True)
    ladder = bid_ladder(rules, rules.bidding.min_bid + span)
    hands, seat = soloist_hands(both)
    return save_predictions(model, hands, seat, ladder, predict(rules, model, hands, seat, ladder, progress))
