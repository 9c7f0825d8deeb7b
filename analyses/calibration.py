"""Calibration of the advisor: predicted P(make) against the realised make rate.

On deals independent of the fit (their own stream), deal ``i`` is asked about one bid,
``ladder[i mod len(ladder)]`` -- one question per deal keeps the outcomes independent.
The prediction is the hand formula's P(make) (:class:`binokel_sim.evaluation.formula.Formula`);
the outcome is whether the double-dummy play made it. Pairs are binned by predicted
probability; a calibrated advisor is within a few points in every bin.

    binokel calibrate --rules standard --deals 1000 --seed 2 --out cal.csv --charts charts/

>>> import numpy as np, pandas as pd
>>> from binokel_sim.evaluation.formula import Formula
>>> from binokel_sim.rules import load_rules
>>> f = Formula("standard", 0.0, {"melds": 1.0}, sd=50.0)
>>> df = pd.DataFrame({"melds": [200, 300], "aces": 0, "tens": 0, "longest": 0, "trump_len": 0, "side_aces": 0,
...                    "points": 0, "code": 0, "value": [100, 260], "took": True, "special_made": False})
>>> t = calibration_table(load_rules("standard"), f, df, bins=2, bids=np.array([250, 250]))
>>> t[["n", "predicted", "realised"]].round(4).values.tolist()
[[1.0, 0.1587, 0.0], [1.0, 0.8413, 1.0]]
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

from binokel_sim import streams
from binokel_sim.contracts import is_trump
from binokel_sim.evaluation.formula import Formula, load_formula
from binokel_sim.evaluation.features import FEATURES
from binokel_sim.errors import check_count
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Scale
from binokel_sim.palette import SERIES
from binokel_sim.scoring import bid_ladder
from binokel_sim.stats import proportion

# The instant tier's answers, computed or read from the store (public here: callers import them from this module).
from .instant_predictions import PREDICT_CHUNK, held_out_predictions, predict, soloist_hands  # noqa: F401
from .calibration_result import Brier, Calibration, brier, max_abs_gap  # noqa: F401  (brier: the old home's name)

STREAM_CALIBRATION = streams.stream("calibration")


def questions(rules: Rules, df: pd.DataFrame, span: int = 300) -> np.ndarray:
    """The bid asked of each deal: the ladder from the minimum bid over ``span`` points, in turn."""
    ladder = bid_ladder(rules, rules.bidding.min_bid + span)
    return ladder[np.arange(len(df)) % len(ladder)]


def calibration_table(rules: Rules, f: Formula, df: pd.DataFrame, bins: int = 10, span: int = 300,
                      bids: np.ndarray | None = None) -> pd.DataFrame:
    """Per predicted-probability bin: n, mean predicted P(make), realised rate and its standard error.

    ``bids``: the bid asked of each deal (default :func:`questions`).
    """
    from binokel_sim.studies.deals import bounds_of

    bids = questions(rules, df, span) if bids is None else bids
    pred = f.p_make(f.total_of(df[list(FEATURES)].to_numpy()), bids)
    trump = is_trump(df["code"].to_numpy())
    made = np.where(trump, df["took"].to_numpy(bool) & (df["value"].to_numpy() >= bids),
                    df["special_made"].to_numpy(bool))
    hi = bounds_of(df, "value")[1]
    made_hi = np.where(trump, (df["took"].to_numpy(bool) | (hi > 0)) & (hi >= bids), made)
    edges = np.linspace(0.0, 1.0, bins + 1)
    k = np.clip(np.digitize(pred, edges) - 1, 0, bins - 1)
    rows = []
    for b in range(bins):
        sel = k == b
        n = int(sel.sum())
        if n == 0:
            continue
        r = proportion(int(made[sel].sum()), n)
        rows.append({"bin_from": edges[b], "bin_to": edges[b + 1], "n": n, "predicted": float(pred[sel].mean()),
                     "realised": r["p"], "realised_se": r["se"], "realised_lo": r["lo"], "realised_hi": r["hi"],
                     "gap": r["p"] - float(pred[sel].mean()),
                     "realised_if_made": float(made_hi[sel].mean())})
    return pd.DataFrame(rows)


def chart(table: pd.DataFrame, title: str):
    """Reliability diagram: realised against predicted, with 95 % Wilson whiskers (matplotlib Figure).

    Axes span [0, 1]; markers on 0 or 1 are drawn whole (not clipped by the frame). Where three or more bins
    crowd the low corner (predicted and realised below 0.06), a panel beside the chart magnifies it; the legend
    sits below the axes, over no point. With a column ``realised_if_made`` that differs from ``realised`` (a
    budgeted corpus), hollow markers give the rate with the open totals counted made.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bounded = "realised_if_made" in table and bool((table["realised_if_made"] != table["realised"]).any())
    x, y = table["predicted"].to_numpy(float), table["realised"].to_numpy(float)
    lo, hi = table["realised_lo"].to_numpy(float), table["realised_hi"].to_numpy(float)
    controlled = "realised_controlled" in table  # the real-play model's table (analyses.sd_calibration)
    if controlled:
        y, lo, hi = (table[c].to_numpy(float) for c in ("realised_controlled", "controlled_lo", "controlled_hi"))
    top = np.maximum(hi, table["realised_if_made"].to_numpy(float)) if bounded else hi

    def draw(ax, whole: bool) -> None:
        ax.plot([0, 1], [0, 1], color="grey", lw=1, label="perfect calibration")
        eb = ax.errorbar(x, y, yerr=np.vstack([y - lo, hi - y]), fmt="o", ms=6 if whole else 4, color=SERIES[0],
                         label="realised, open totals counted failed" if bounded else
                         "realised, the held-out deals' luck taken out, 95 %" if controlled else
                         "realised, 95 % interval")
        if controlled:
            ax.plot(x, table["realised"], "o", ms=6 if whole else 4, mfc="none", color="0.45",
                    label="the held-out deals alone", clip_on=not whole)
        if bounded:  # a budgeted corpus: the realised rate lies between the two markers
            ax.plot(x, table["realised_if_made"], "o", ms=6 if whole else 4, mfc="none", color=SERIES[0],
                    label="open totals counted made", clip_on=not whole)
        for art in eb.get_children():
            art.set_clip_on(not whole)  # whole markers on 0 and 1; the zoom clips to its window

    low = (x < 0.06) & (y < 0.06)
    crowded = int(low.sum()) >= 3
    fig, axes = plt.subplots(1, 2 if crowded else 1, figsize=(8.6 if crowded else 5.5, 6.3 if crowded else 6.1),
                             squeeze=False, gridspec_kw={"width_ratios": [5, 3]} if crowded else None,
                             layout="constrained")
    # Room above the axes: markers on 1.0 are drawn whole and must not touch the title.
    fig.get_layout_engine().set(h_pad=0.12)
    ax = axes[0][0]
    draw(ax, True)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("predicted P(make)")
    ax.set_ylabel("realised make rate")
    ax.set_title(title, pad=10)
    if crowded:  # a panel beside the chart magnifies the low corner, hiding nothing
        edge = float(max(x[low].max(), top[low].max())) * 1.05
        span = next(v for v in (0.02, 0.03, 0.04, 0.05, 0.06, 0.08) if v >= edge or v == 0.08)
        zoom = axes[0][1]
        draw(zoom, False)
        zoom.set_xlim(-0.03 * span, span)  # a bin at 0 shows whole
        zoom.set_ylim(-0.03 * span, span)
        zoom.set_aspect("equal")
        zoom.tick_params(labelsize=8)
        zoom.set_xlabel("predicted P(make)", fontsize=9)
        zoom.set_title(f"the low corner (grey box), 0 to {span:g}", fontsize=10)
        ax.add_patch(plt.Rectangle((0, 0), span, span, fill=False, edgecolor="grey", linewidth=1, clip_on=False))
    handles, labels = ax.get_legend_handles_labels()
    second = ("counted made", "alone")  # the comparison markers after the main series
    order = sorted(range(len(labels)), key=lambda i: ("perfect" not in labels[i], any(w in labels[i] for w in second)))
    fig.legend([handles[i] for i in order], [labels[i] for i in order], loc="outside lower center",
               ncol=2 if (bounded or controlled) and not crowded else len(labels), fontsize="small", frameon=False)
    return fig


def calibrate(rules: Rules | str | os.PathLike[str] = "standard", deals: int = 1000, seed: int = 2,
              policy: str = "heuristic", scale: Scale | None = None, solve_budget: int | None = None) -> Calibration:
    """The committed hand formula's :class:`~.calibration_result.Calibration` on ``deals`` double-dummy deals of
    their own stream.

    ``solve_budget``: nodes per solve (see :func:`binokel_sim.studies.deals.study_deals`); a deal left
    unresolved counts as failed in ``realised`` and as made in ``realised_if_made``.

    Provenance (rules, seed, deals, policy, the largest gap) is in the table's ``attrs``, for the files written.
    """
    from binokel_sim.studies.deals import study_deals

    rules = as_rules(rules)
    check_count("deals", deals, minimum=2)
    f = load_formula(rules)
    df = study_deals(rules, deals, seed, policy, stream=STREAM_CALIBRATION, baseline=False, scale=scale,
                     solve_budget=solve_budget)
    table = calibration_table(rules, f, df)
    gap = max_abs_gap(table)
    table.attrs.update({"study": "calibration", "rules": rules.name, "seed": seed, "deals": deals, "policy": policy,
                        "max_abs_gap": gap})
    return Calibration(table, "formula", gap)


# --- The two tiers of ``binokel bid`` on held-out corpus deals -------------------------------------------------
# The corpus holds each deal's realised double-dummy outcome (the heuristic exchange, going out by the
# soloist's own estimate: evaluation.going_out), so a tier's prediction for the soloist's hand can be scored
# against it without solving anything.


def reliability(pred: np.ndarray, made: np.ndarray, deal: np.ndarray, bins: int = 10,
                made_hi: np.ndarray | None = None) -> pd.DataFrame:
    """Deciles (``bins`` equal-count groups by rank) of predicted P(make) against the realised rate.

    Per bin: n questions, the distinct deals, mean prediction, realised rate with a standard error
    clustered by deal (several questions of one deal are not independent) and its Wilson interval
    (via the effective n), the gap and whether it is within 2 points. ``made_hi``: the outcomes with every
    total a solve budget left open counted at its upper bound (``made`` counts them at the lower one); the
    bin then adds ``realised_if_made``, and "within 2 points" means of the range between the two.

    >>> t = reliability(np.array([0.1, 0.1, 0.9, 0.9]), np.array([0, 0, 1, 1]), np.arange(4), bins=2)
    >>> t[["n", "deals", "predicted", "realised", "gap"]].round(3).values.tolist()
    [[2.0, 2.0, 0.1, 0.0, -0.1], [2.0, 2.0, 0.9, 1.0, 0.1]]
    """
    from binokel_sim.stats import wilson_from_se

    order = np.argsort(pred, kind="stable")
    rows = []
    for sel in np.array_split(order, bins):
        if sel.size == 0:
            continue
        p, y = pred[sel], made[sel].astype(np.float64)
        r = float(y.mean())
        _, inv = np.unique(deal[sel], return_inverse=True)
        se = float(np.sqrt((np.bincount(inv, weights=y - r) ** 2).sum()) / sel.size)
        lo, hi = wilson_from_se(r, se, sel.size)
        rows.append({"bin_from": float(p.min()), "bin_to": float(p.max()), "n": int(sel.size),
                     "deals": int(inv.max() + 1), "predicted": float(p.mean()), "realised": r, "realised_se": se,
                     "realised_lo": float(lo), "realised_hi": float(hi), "gap": r - float(p.mean()),
                     "within_2pp": bool(abs(r - float(p.mean())) <= 0.02)})
        if made_hi is not None:
            top = float(made_hi[sel].mean())
            rows[-1]["realised_if_made"] = top
            rows[-1]["within_2pp"] = bool(r - 0.02 <= float(p.mean()) <= top + 0.02)
    return pd.DataFrame(rows)


def held_out_rows(rules: Rules, corpus: str | os.PathLike[str] | None = None, model=None) -> tuple[pd.DataFrame, str]:
    """The held-out deals of the corpus and a sentence naming them: those of ``model`` (default: the committed
    instant model of ``rules``), fitted with a two-phase corpus's decided deals or without
    (:func:`binokel_sim.corpus.phases.instant_split`)."""
    from binokel_sim.corpus.phases import instant_split
    from binokel_sim.corpus.reader import find_corpus, load_corpus, shipped_label
    from binokel_sim.errors import InputError
    from binokel_sim.evaluation.instant import load_instant

    folder = corpus or find_corpus(rules)
    if folder is None:
        raise InputError(f"no shipped corpus for rules {rules.name!r}: give a corpus folder (binokel corpus build)")
    c = load_corpus(folder, rules)
    model = model if model is not None else load_instant(rules)
    phase2 = model.provenance.get("phase2_deals") if model is not None else None
    split = instant_split(c, rules.n_seats, int(phase2) if phase2 else None)
    rows = split.test
    if len(rows) < 2:
        raise InputError(f"corpus {folder}: {len(rows)} held-out deals ({split.which}), need 2")
    decided = "; phase 2 decides every bid of theirs" if split.phase2 else ""
    return rows, (f"{len(rows)} held-out deals of {c.n} in {shipped_label(folder)}: {split.which}"
                  f" (deals {int(rows['deal'].min())}..{int(rows['deal'].max())}){decided}")


def asked_questions(rules: Rules, rows: pd.DataFrame, questions: str, span: int) -> tuple[np.ndarray, np.ndarray]:
    """(row index, bid) of every question: one bid per deal in turn (``one``), or the whole ladder (``ladder``)."""
    ladder = bid_ladder(rules, rules.bidding.min_bid + span)
    if questions == "one":
        return np.arange(len(rows)), ladder[rows["deal"].to_numpy() % len(ladder)]
    return np.repeat(np.arange(len(rows)), len(ladder)), np.tile(ladder, len(rows))


def made_outcomes(rules: Rules, rows: pd.DataFrame, idx: np.ndarray, bids: np.ndarray,
              value: np.ndarray | None = None) -> np.ndarray:
    """Whether each question's deal was made; ``value``: the rows' totals to judge by (default their lower bounds,
    e.g. the upper ones of a budgeted corpus)."""
    from binokel_sim.evaluation.ladder import outcomes
    from binokel_sim.studies.deals import parts_of

    ladder = np.unique(bids)
    parts = parts_of(rows)
    if value is not None:
        parts = parts.replace(value=value.astype(np.int64))
    made = outcomes(rules, parts, ladder)[0]
    return made[idx, np.searchsorted(ladder, bids)]


def store_held_out(rules: Rules, model, corpus=None, span: int = 300, progress: bool = False) -> Path:
    """Compute and store the instant tier's predictions of the held-out deals (the questions
    :func:`instant_calibration` asks over ``span``), for a model whose ladder is dear (the drawn one)."""
    from binokel_sim.evaluation.instant_store import save_predictions

    rows, _ = held_out_rows(rules, corpus, model)
    ladder = bid_ladder(rules, rules.bidding.min_bid + span)
    hands, seat = soloist_hands(rows)
    return save_predictions(model, hands, seat, ladder, predict(rules, model, hands, seat, ladder, progress))


def _instant_pred(rules: Rules, model, rows: pd.DataFrame, idx: np.ndarray, bids: np.ndarray,
                  stored: bool = False, progress: bool = False, scale: Scale | None = None) -> np.ndarray:
    ladder = np.unique(bids)
    p = held_out_predictions(rules, model, rows, ladder, stored, progress, scale)
    return p[idx, np.searchsorted(ladder, bids)]


def instant_calibration(rules: Rules | str | os.PathLike[str] = "standard", corpus=None, model=None,
                        questions: str = "one", bins: int | None = None, span: int = 300, progress: bool = False,
                        scale: Scale | None = None) -> Calibration:
    """The instant tier's :class:`~.calibration_result.Calibration` (:func:`reliability`) on the held-out corpus
    deals: the Brier score, the deals used and the model's provenance (in the table's ``attrs`` too).

    ``questions="one"``: deal ``d`` is asked one bid, ``ladder[d mod len(ladder)]`` (independent outcomes);
    ``"ladder"``: every bid from the minimum over ``span`` points (more n, errors clustered by deal).
    ``model``: an :class:`~binokel_sim.evaluation.instant.InstantModel` (default: the committed one).
    ``scale``: workers and checkpoint of the predictions where the store does not hold them (:func:`predict`).
    ``bins``: by default deciles, or 5 bins where the held-out deals are a two-phase corpus's decided ones (a
    hundred or so: a tenth of them would leave a bin's rate a guess).
    The model of ``bid --play single-dummy`` is scored by :func:`.sd_calibration.sd_calibration`.
    """
    from binokel_sim.errors import InputError
    from binokel_sim.studies.deals import row_bounds
    from binokel_sim.evaluation.instant import load_instant

    rules = as_rules(rules)
    if questions not in ("one", "ladder"):
        raise InputError(f"questions: expected one or ladder, got {questions!r}")
    model = model or load_instant(rules)
    if model is None:
        raise InputError(f"no instant bid model fitted for rules {rules.name!r} (binokel fit instant)")
    rows, which = held_out_rows(rules, corpus, model)
    bins = bins or (5 if model.provenance.get("phase2_deals") else 10)
    idx, bids = asked_questions(rules, rows, questions, span)
    pred = _instant_pred(rules, model, rows, idx, bids, True, progress, scale)
    made = made_outcomes(rules, rows, idx, bids)
    deal = rows["deal"].to_numpy()[idx]
    lo, hi = row_bounds(rows, "value")
    made_hi = made_outcomes(rules, rows, idx, bids, hi) if (lo < hi).any() else None
    if made_hi is not None and (made_hi == made).all():  # open totals that decide every bid (phase 2)
        made_hi = None
    table = reliability(pred, made, deal, bins, made_hi)
    open_share = float((lo < hi).mean()) if made_hi is not None else None
    if open_share is not None:
        table.attrs["open_share"] = open_share
    b, gap = brier(pred, made, deal), max_abs_gap(table)
    table.attrs.update({"study": "calibration", "tier": "instant", "play": "double-dummy", "rules": rules.name,
                        "held_out": which, "questions": questions, "bids": [int(bids.min()), int(bids.max())],
                        **b.to_dict(), "model": model.provenance, "max_abs_gap": gap})
    return Calibration(table, "instant", gap, b, which, questions, model=model.provenance, open_share=open_share)


def checked_calibration(rules: Rules | str | os.PathLike[str] = "standard", corpus=None, deals: int = 20,
                        samples: int = 50, seed: int = 1, policy: str = "heuristic", bins: int = 5,
                        scale: Scale | None = None, dd=None, span: int = 300) -> Calibration:
    """The checked tier (``binokel bid --samples``) on the first ``deals`` held-out corpus deals, one bid each
    (as :func:`instant_calibration` ``questions="one"``); the instant tier's Brier on the same questions in
    ``instant``. Costs ``deals x samples`` double-dummy samples.
    """
    from binokel_sim.evaluation.hand import evaluate_hand
    from binokel_sim.evaluation.instant import load_instant

    rules = as_rules(rules)
    check_count("deals", deals, minimum=2)
    rows, which = held_out_rows(rules, corpus)
    rows = rows.head(deals).reset_index(drop=True)
    idx, bids = asked_questions(rules, rows, "one", span)
    pred = np.empty(len(rows))
    for i, r in enumerate(rows.itertuples()):
        hand = [c for c, k in enumerate(getattr(r, f"hand{r.soloist}")) for _ in range(int(k))]  # counts -> cards
        ev = evaluate_hand(hand, rules, seat=int(r.soloist), samples=samples, seed=seed, policy=policy,
                           scale=scale, dd=dd)
        pred[i] = ev.ladder_at(bids[i:i + 1])["p_make"][0]
    made = made_outcomes(rules, rows, idx, bids)
    deal = rows["deal"].to_numpy()
    table = reliability(pred, made, deal, bins)
    model = load_instant(rules)
    inst = brier(_instant_pred(rules, model, rows, idx, bids, scale=scale), made, deal) if model else None
    b, gap, held = brier(pred, made, deal), max_abs_gap(table), f"the first {len(rows)} of " + which
    table.attrs.update({"study": "calibration", "tier": "checked", "rules": rules.name, "seed": seed,
                        "samples": samples, "policy": policy, "held_out": held,
                        "questions": "one", **b.to_dict(), "instant": inst.to_dict() if inst else None,
                        "max_abs_gap": gap})
    return Calibration(table, "checked", gap, b, held, "one", instant=inst)
