"""Tapp value study: what taking the Tapp is worth, overall and by hand class.

Tapp value of a deal = result with the best exchange - result when the Tapp goes to
the discards unseen (its card points still count for the soloist), measured two ways:

* ``melds``: melds kept + discard points (best exchange for melds) against the
  hand's best melds + the Tapp's points;
* ``dd``: the soloist's double-dummy total with the exchange policy against the
  double-dummy total of the hand as dealt (a special contract counts its score).

Hand classes count what the player sees before the Tapp: meld points at the best
trump, aces, tens, longest suit.

Which query (issue #11): a mean needs each deal's value, so the study asks exact values;
at 48 cards within a node budget (:mod:`binokel_sim.studies.deals`), where a deal left
unresolved is kept with its proven range: ``dd_mean_lo``/``dd_mean_hi`` bound the mean
(every unresolved deal at its lowest / highest Tapp value) and ``unresolved`` counts them.
Where any deal of a group is unresolved the group has no double-dummy point value
(``dd_mean``/``dd_se`` are NaN): a difference of two lower bounds bounds nothing.

>>> import numpy as np, pandas as pd
>>> df = pd.DataFrame({"melds": [0, 120], "aces": [1, 3], "tens": [2, 2], "longest": [4, 6],
...                    "melds_tapp_value": [30.0, 50.0], "tapp_value": [20, 40]})
>>> summary(df)[["n", "melds_mean", "dd_mean"]].values.tolist()
[[2.0, 40.0, 30.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from binokel_sim.corpus.phases import PhaseRows, two_phase_mean
from binokel_sim.studies.deals import bounds_of

#: Class edges per feature (right-closed bins) and their labels.
CLASSES = {
    "melds": ([-1, 50, 110, 190, 290, np.inf], ["0-50", "60-110", "120-190", "200-290", "300+"]),
    "aces": ([-1, 1, 2, 3, np.inf], ["0-1", "2", "3", "4+"]),
    "tens": ([-1, 1, 2, 3, np.inf], ["0-1", "2", "3", "4+"]),
    "longest": ([-1, 4, 5, 6, np.inf], ["<=4", "5", "6", "7+"]),
}


def hand_class(df: pd.DataFrame, feature: str) -> pd.Series:
    """The class label of each row for ``feature`` (see :data:`CLASSES`)."""
    edges, labels = CLASSES[feature]
    return pd.cut(df[feature], bins=edges, labels=labels).astype(str)


def _stats(g: pd.DataFrame, phases: PhaseRows | None = None) -> dict[str, float]:
    out: dict[str, float] = {"n": len(g)}
    for name, col in (("melds", "melds_tapp_value"), ("dd", "tapp_value")):
        if col in g:
            x = g[col].to_numpy(np.float64)
            out[f"{name}_mean"] = float(x.mean())
            out[f"{name}_se"] = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")
    if "tapp_value" in g:  # also for exact rows (corpus, smaller decks): one schema whatever the source
        lo, hi = bounds_of(g, "tapp_value")
        out.update(dd_mean_lo=float(lo.mean()), dd_mean_hi=float(hi.mean()), unresolved=float((lo != hi).sum()))
        if out["unresolved"]:
            out["dd_mean"] = out["dd_se"] = float("nan")
    if phases is not None:  # two phases: the double-dummy value a point figure from both
        out["n2"] = phases.n2
        if phases.n2 >= MIN_PHASE2:
            e = two_phase_tapp(phases)
            out.update(dd_mean=e.estimate, dd_se=e.se)
    return out


#: A group's two-phase Tapp value is shown from this many phase-2 deals on.
MIN_PHASE2 = 10


def two_phase_tapp(phases: PhaseRows):
    """The double-dummy Tapp value of both phases' deals (:func:`binokel_sim.corpus.phases.two_phase_mean`)."""
    return two_phase_mean(phases, "tapp_value")


def summary(df: pd.DataFrame, phases: PhaseRows | None = None) -> pd.DataFrame:
    """Overall Tapp value (melds-only and double-dummy), with n and standard errors; with ``phases`` (``df``
    their phase-1 deals) the double-dummy value from both phases, with ``n2``."""
    return pd.DataFrame([_stats(df, phases)])


def by_class(df: pd.DataFrame, phases: PhaseRows | None = None) -> pd.DataFrame:
    """Tapp value by hand class: one row per (feature, class), with n and standard errors (``phases``: as
    :func:`summary`)."""
    rows = []
    for feature in CLASSES:
        cls = hand_class(df, feature)
        for label in CLASSES[feature][1]:
            sel = (cls == label).to_numpy(bool)
            if sel.any():
                rows.append({"feature": feature, "class": label,
                             **_stats(df[sel], phases.domain(sel) if phases is not None else None)})
    return pd.DataFrame(rows)


def distribution(df: pd.DataFrame, width: int = 10) -> pd.DataFrame:
    """Share of deals per Tapp-value bin (``width`` points), melds-only and double-dummy; where some deals are
    unresolved, the double-dummy values at the low and at the high end of their ranges instead."""
    series = {"melds": df["melds_tapp_value"].to_numpy(np.float64)} if "melds_tapp_value" in df else {}
    if "tapp_value" in df:
        lo_v, hi_v = bounds_of(df, "tapp_value")
        series.update({"dd": lo_v} if (lo_v == hi_v).all() else {"dd_lo": lo_v, "dd_hi": hi_v})
    lo = int(np.floor(min(x.min() for x in series.values()) / width) * width)
    hi = int(np.floor(max(x.max() for x in series.values()) / width) * width)
    bins = np.arange(lo, hi + width, width)
    out = pd.DataFrame({"from": bins, "to": bins + width})
    for name, x in series.items():
        out[f"{name}_share"] = np.histogram(x, bins=np.append(bins, hi + width))[0] / len(df)
    out["n"] = len(df)
    return out


def two_phase_distribution(df: pd.DataFrame, phases: PhaseRows, width: int = 10) -> pd.DataFrame:
    """:func:`distribution` of a two-phase corpus: the melds-only value over every deal, the double-dummy one over
    the decided (phase-2) deals at their intervals' midpoints (under a bid step wide), each share of its own n."""
    from binokel_sim.studies.deals import row_bounds

    lo, hi = row_bounds(phases.phase2, "tapp_value")
    melds = distribution(df[["melds_tapp_value"]], width).drop(columns="n")
    dd = distribution(pd.DataFrame({"melds_tapp_value": np.floor((lo + hi) / 2)}), width)
    dd = dd.rename(columns={"melds_share": "dd_share"}).drop(columns="n")
    out = melds.merge(dd, on=["from", "to"], how="outer").fillna(0.0).sort_values("from", ignore_index=True)
    return out.assign(n=len(df), n2=phases.n2)


def _span(dist: pd.DataFrame, cols: list[str], tail: float = 0.005) -> tuple[float, float, float]:
    """x range holding all but ``tail`` of each side of every series, and the share left outside."""
    share = dist[cols].sum(axis=1).to_numpy(np.float64) / len(cols)
    cum = np.cumsum(share)
    i = int(np.searchsorted(cum, tail * cum[-1], side="right"))
    j = int(np.searchsorted(cum, (1 - tail) * cum[-1], side="left"))
    j = min(max(j, i), len(dist) - 1)
    outside = float(share[:i].sum() + share[j + 1:].sum())
    return float(dist["from"].iloc[i]), float(dist["to"].iloc[j]), outside


def chart(dist: pd.DataFrame, title: str):
    """Histogram of the Tapp value (matplotlib Figure); the x axis spans the bulk of the data
    (the rarest 1 % outside it is counted in the legend). Where deals are unresolved
    (:func:`distribution`), the double-dummy series are the low and the high ends of their ranges."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from binokel_sim.palette import SERIES

    fig, ax = plt.subplots(figsize=(7, 4))
    width = float(dist["to"].iloc[0] - dist["from"].iloc[0])
    dd = (f"Tapp value (double-dummy, the {int(dist['n2'].iloc[0])} decided deals)" if "n2" in dist
          else "Tapp value (double-dummy)")
    names = {"melds": "Tapp value (melds only)", "dd": dd,
             "dd_lo": "double-dummy, open deals at the low end of their range",
             "dd_hi": "double-dummy, open deals at the high end"}
    cols = [f"{k}_share" for k in names if f"{k}_share" in dist]
    k = len(cols)  # side by side within each bin, full width when alone
    for i, name in enumerate(c[: -len("_share")] for c in cols):
        ax.bar(dist["from"] + i * width / k, dist[f"{name}_share"], width=width / k * 0.9, align="edge",
               label=names[name], color=SERIES[i])
    lo, hi, outside = _span(dist, cols)
    ax.set_xlim(lo - width, hi + width)
    if outside > 0:
        ax.plot([], [], " ", label=f"{outside:.1%} of deals beyond the axis")
    ax.set_xlabel("Tapp value (points)")
    ax.set_ylabel("share of deals")
    ax.set_title(title)
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


@dataclass(frozen=True)
class Sharpened:
    """:func:`adjusted`'s answer: the double-dummy Tapp value ``mean`` ± ``se`` over ``n`` played deals, sharpened
    by the melds-only Tapp value (``melds_mean`` ± ``melds_se`` over ``melds_n`` deals) with slope ``beta``."""

    mean: float
    se: float
    beta: float
    n: int
    melds_n: int
    melds_mean: float
    melds_se: float


def adjusted(df: pd.DataFrame, melds_mean: float, melds_se: float, melds_n: int) -> Sharpened:
    """The double-dummy Tapp value with the melds-only Tapp value as a control variate.

    ``melds_mean`` (± ``melds_se``) is the melds-only Tapp value's mean over ``melds_n``
    deals of the same stream (cheap: no play), far more than the ``len(df)`` played deals.
    Estimate: mean(dd) - beta (mean(melds) - melds_mean), beta the least-squares slope of dd
    on melds over the played deals; its SE^2 = var(dd - beta melds) / n + beta^2 melds_se^2
    (the residual is uncorrelated with the melds-only value, so the two parts add). The two
    correlate at about 0.9 (``standard``), which shrinks the SE about 2.2-fold. Unresolved
    deals count at their lower bounds, as in :func:`summary`.

    >>> d = pd.DataFrame({"melds_tapp_value": [0.0, 10.0, 20.0, 30.0], "tapp_value": [1, 11, 21, 31]})
    >>> r = adjusted(d, 20.0, 0.0, 1000); r.mean, r.beta, r.se
    (21.0, 1.0, 0.0)
    """
    y = df["tapp_value"].to_numpy(np.float64)
    x = df["melds_tapp_value"].to_numpy(np.float64)
    n = len(y)
    vx = float(x.var(ddof=1)) if n > 1 else 0.0
    beta = float(np.cov(x, y, ddof=1)[0, 1] / vx) if vx > 0 else 0.0
    resid = y - beta * x
    mean = float(y.mean() - beta * (x.mean() - melds_mean))
    se = float(np.sqrt(resid.var(ddof=2) / n + beta ** 2 * melds_se ** 2)) if n > 2 else float("nan")
    return Sharpened(mean=round(mean, 10), se=round(se, 10), beta=round(beta, 10), n=n, melds_n=int(melds_n),
                     melds_mean=melds_mean, melds_se=melds_se)
