"""The duplicate match of bidding policies (:mod:`binokel_sim.game.match`) in figures: paired differences
clustered by deal, auction, failure and going-out shares, and the pass value's calibration.

:func:`match_summary`, one row per opponent policy B:

* ``gain``: seat score per round with A minus with B, mean over the deals of each deal's mean over the
  seats, its SE the deals' spread / sqrt(deals) (the seats of one deal share its cards: clustered by deal);
* ``gain_vs_others``: the same for own score minus the mean of the other seats';
* ``won_a``/``won_b``: share of the auctions the seat wins; ``failed_*``/``out_*``: share of the contracts
  it wins that it fails / goes out of (each with its Wilson SE ``sqrt(p(1-p)/n)``, n its contracts);
* ``score_a``/``score_b``: the seat's mean score per round.

:func:`pass_calibration`: the fitted pass value against the score of every seat had it passed at once with
the first B in the other seats (the counterfactual the pass value is: ``passed_b``), in ``bins`` quantile
bins of the prediction, each with n and the realised mean's SE and ``z`` = gap / SE; ``event="natural"``
the same on the seats that bid by B and lost the auction (:func:`competing_gain`: what they scored against
passing at once).

>>> import numpy as np
>>> from binokel_sim.game.match import MatchRows
>>> z = np.zeros(4, bool)
>>> r = MatchRows(deal=np.array([0, 0, 1, 1]), against=np.zeros(4, int), seat=np.array([0, 1, 0, 1]),
...               score_a=np.array([10, 0, 30, 0]), score_b=np.array([0, 0, 10, 0]), others_a=np.zeros(4),
...               others_b=np.zeros(4), won_a=z, won_b=z, failed_a=z, failed_b=z, out_a=z, out_b=z,
...               bid_a=np.zeros(4, int), bid_b=np.zeros(4, int), pass_value=np.full(4, np.nan),
...               passed_b=np.full(4, np.nan))
>>> s = match_summary(r, "vs-pass", ("ceiling",))
>>> s[["policy", "against", "deals", "gain", "gain_se"]].values.tolist()   # deal means 5 and 10
[['vs-pass', 'ceiling', 2, 7.5, 2.5]]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from binokel_sim.game.match import MatchRows


def _clustered(deal: np.ndarray, x: np.ndarray) -> tuple[float, float, int]:
    """(mean, SE, deals) of the per-deal means of ``x``."""
    per = pd.Series(x, dtype=float).groupby(deal).mean().to_numpy()
    n = len(per)
    return float(per.mean()), float(per.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan"), n


def _share(x: np.ndarray, among: np.ndarray) -> tuple[float, float, int]:
    n = int(among.sum())
    p = float(x[among].mean()) if n else float("nan")
    return p, float(np.sqrt(p * (1 - p) / n)) if n else float("nan"), n


def match_summary(rows: MatchRows, policy: str, against: tuple[str, ...]) -> pd.DataFrame:
    """One row per opponent policy (see the module docstring)."""
    out = []
    for k, b in enumerate(against):
        m = rows.against == k
        r = MatchRows(*(np.asarray(f)[m] for f in rows))
        g, g_se, n = _clustered(r.deal, r.score_a - r.score_b)
        go, go_se, _ = _clustered(r.deal, (r.score_a - r.others_a) - (r.score_b - r.others_b))
        row = {"policy": policy, "against": b, "deals": n, "gain": g, "gain_se": g_se, "gain_vs_others": go,
               "gain_vs_others_se": go_se}
        for tag in ("a", "b"):
            won = getattr(r, f"won_{tag}")
            row[f"score_{tag}"], row[f"score_{tag}_se"], _ = _clustered(r.deal, getattr(r, f"score_{tag}"))
            row[f"won_{tag}"] = float(won.mean())
            row[f"failed_{tag}"], row[f"failed_{tag}_se"], row[f"contracts_{tag}"] = _share(
                getattr(r, f"failed_{tag}"), won)
            row[f"out_{tag}"], _, _ = _share(getattr(r, f"out_{tag}"), won)
            bids = getattr(r, f"bid_{tag}")[won]
            row[f"mean_bid_{tag}"] = float(bids.mean()) if bids.size else float("nan")
        out.append(row)
    return pd.DataFrame(out)


def pass_calibration(rows: MatchRows, bins: int = 10, event: str = "forced") -> pd.DataFrame:
    """Predicted pass value against the realised score, in ``bins`` quantile bins of the prediction (see the
    module docstring); ``event``: ``forced`` -- every seat's score had it passed at once under the first B
    (``passed_b``: what the pass value predicts) -- or ``natural``, the seats that bid by B and lost the
    auction. Empty where no pass value was fitted."""
    first = (rows.against == 0) & np.isfinite(rows.pass_value)
    if event == "forced":
        m = first & np.isfinite(rows.passed_b)
        real = rows.passed_b[m].astype(float)
    else:
        m = first & ~rows.won_b
        real = rows.score_b[m].astype(float)
    from binokel_sim.evaluation.pass_check import PASS_COLUMNS, deciles

    pred = rows.pass_value[m]
    if pred.size < bins:
        return pd.DataFrame(columns=["bin", "n", "pass_predicted", "pass_realised", "pass_realised_se", "z"])
    return deciles(pred, real, bins).rename(columns=PASS_COLUMNS)


def competing_gain(rows: MatchRows) -> tuple[float, float, int]:
    """(mean, SE clustered by deal, seats): what the seats that bid by the first B and lost the auction scored
    above passing at once on the same cards -- their bids moved the soloist's contract (NaN without
    ``passed_b``).

    >>> import numpy as np
    >>> from binokel_sim.game.match import MatchRows
    >>> z, t = np.zeros(4, bool), np.array([True, False, False, False])
    >>> r = MatchRows(deal=np.array([0, 0, 1, 1]), against=np.zeros(4, int), seat=np.array([0, 1, 0, 1]),
    ...               score_a=np.zeros(4, int), score_b=np.array([300, 80, 60, 40]), others_a=np.zeros(4),
    ...               others_b=np.zeros(4), won_a=z, won_b=t, failed_a=z, failed_b=z, out_a=z, out_b=z,
    ...               bid_a=np.zeros(4, int), bid_b=np.zeros(4, int), pass_value=np.zeros(4),
    ...               passed_b=np.array([0.0, 70, 60, 30]))
    >>> competing_gain(r)[0]   # deal 0: 80 - 70; deal 1: (0 + 10) / 2
    7.5
    """
    m = (rows.against == 0) & ~rows.won_b & np.isfinite(rows.passed_b)
    if not m.any():
        return float("nan"), float("nan"), 0
    mean, se, _ = _clustered(rows.deal[m], rows.score_b[m] - rows.passed_b[m])
    return mean, se, int(m.sum())


def match_chart(summary: pd.DataFrame, rules_label: str, deals: int, seed: int):
    """Gain per round of policy A over each opponent policy, own score and own minus the others', 95 %
    whiskers."""
    from binokel_sim.analyses.charts import grouped_bars

    long = pd.concat([
        pd.DataFrame({"against": summary["against"], "measure": "own score", "gain": summary["gain"],
                      "se": summary["gain_se"]}),
        pd.DataFrame({"against": summary["against"], "measure": "own minus the others' mean",
                      "gain": summary["gain_vs_others"], "se": summary["gain_vs_others_se"]}),
    ])
    a = summary["policy"].iloc[0]
    title = (f"Bidding by '{a}' in one seat, each other policy in the rest\n"
             f"{rules_label}, {deals} deals, seed {seed}; whiskers: 95 %")
    fig = grouped_bars(long, "against", "measure", "gain", "se", title, ylabel=f"gain of '{a}' (points a round)")
    fig.axes[0].set_xlabel("policy of the other seats")
    fig.axes[0].axhline(0, color="grey", linewidth=0.8)
    fig.tight_layout()
    return fig


__all__ = ["competing_gain", "match_chart", "match_summary", "pass_calibration"]
