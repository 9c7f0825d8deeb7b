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
    bids = questions(rules, df, span) if bids is None else bids
    pred = f.p_make(f.total_of(df[list(FEATURES)].to_numpy()), bids)
    trump = is_trump(df["code"].to_numpy())
    made = np.where(trump, df["took"].to_numpy(bool) & (df["value"].to_numpy() >= bids),
                    df["special_made"].to_numpy(bool))
    edges = np.linspace(0.0, 1.0, bins + 1)
    k = np.clip(np.digitize(pred, edges) - 1, 0, bins - 1)
    rows = []
    for b in range(bins):
        sel = k == b
        n = int(sel.sum())
        if n == 0:
            continue
        r = proportion(int(made[sel].sum()), n)
        rows.append({"bin_from": edges[b], "bin_to": edges[b + 1], "n": float(n), "predicted": float(pred[sel].mean()),
                     "realised": r["p"], "realised_se": r["se"], "realised_lo": r["lo"], "realised_hi": r["hi"],
                     "gap": r["p"] - float(pred[sel].mean())})
    return pd.DataFrame(rows)


def chart(table: pd.DataFrame, title: str):
    """Reliability diagram: realised against predicted, with 95 % Wilson whiskers (matplotlib Figure)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", lw=1, label="perfect")
    yerr = np.vstack([table["realised"] - table["realised_lo"], table["realised_hi"] - table["realised"]])
    ax.errorbar(table["predicted"], table["realised"], yerr=yerr, fmt="o", color=SERIES[0], label="advisor")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("predicted P(make)")
    ax.set_ylabel("realised make rate")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    return fig


def calibrate(rules: Rules | str | os.PathLike[str] = "standard", deals: int = 1000, seed: int = 2,
              policy: str = "heuristic", scale: Scale | None = None) -> pd.DataFrame:
    """The committed hand formula's calibration table on ``deals`` double-dummy deals of their own stream.

    Provenance (rules, seed, deals, policy, the largest gap) is in ``df.attrs``.
    """
    from binokel_sim.evaluation.study import study_deals

    rules = as_rules(rules)
    check_count("deals", deals, minimum=2)
    f = load_formula(rules)
    df = study_deals(rules, deals, seed, policy, stream=STREAM_CALIBRATION, baseline=False, scale=scale)
    table = calibration_table(rules, f, df)
    table.attrs.update({"study": "calibration", "rules": rules.name, "seed": seed, "deals": deals, "policy": policy,
                        "max_abs_gap": float(table["gap"].abs().max()) if len(table) else float("nan")})
    return table
