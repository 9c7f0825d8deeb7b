"""Bid level tables: the ceiling bid and the safe bid by hand class, over random hands.

Deals of one class are pooled: P(make) and the expected score per bid come from
:func:`binokel_sim.evaluation.hand.bid_table` on the class's deals (the soloist goes out
after seeing the Tapp where his own estimate says so); the ceiling is the highest bid
with positive expected score, the safe bid the highest with P(make) >= confidence.
Classes: meld points at the best trump x aces (what a player counts before bidding).

Which query (issue #11): the table prints P(make) at the ceiling and safe bids and the mean
total, so the study's per-deal values serve all of them (a mean needs the value; below 48
cards they are exact). At 48 cards a deal left unresolved by the node budget counts as
failed in ``safe_p_make`` (its lower bound, which also picks the safe bid) and as made in
``safe_p_make_hi``; ``mean_total``/``mean_total_hi`` bound the mean, ``unresolved`` counts them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from binokel_sim.evaluation.hand import bid_table
from binokel_sim.evaluation.study import bounds_of, parts_of
from binokel_sim.rules import Rules

from .tapp_value import CLASSES, hand_class


def levels(rules: Rules, g: pd.DataFrame, confidence: float) -> dict:
    """Ceiling and safe bid of a group of study deals, with the P(make) and E[score] behind them."""
    t = bid_table(rules, parts_of(g))
    pos = t[t["expected_score"] > 0]
    safe = t[t["p_make"] >= confidence]
    ceiling = int(pos["bid"].max()) if len(pos) else None
    safe_bid = int(safe["bid"].max()) if len(safe) else None
    at = t.set_index("bid")
    lo, hi = bounds_of(g, "value")
    # The same table with every deal at its upper bound: unresolved deals counted as made (exact rows: equal).
    up = parts_of(g)
    up.update(value=hi.astype(np.int64), took=up["took"] | (hi > 0), result=bounds_of(g, "result")[1].astype(np.int64))
    at_hi = bid_table(rules, up, t["bid"].to_numpy()).set_index("bid")
    ranged = {"mean_total_hi": float(hi.mean()), "unresolved": int((lo != hi).sum()),
              "safe_p_make_hi": float(at_hi.loc[safe_bid, "p_make"]) if safe_bid else None,
              "safe_p_make_hi_se": float(at_hi.loc[safe_bid, "p_make_se"]) if safe_bid else None}
    return {
        "n": len(g), "mean_total": float(g["value"].mean()),
        "mean_total_se": float(g["value"].std(ddof=1) / np.sqrt(len(g))) if len(g) > 1 else float("nan"),
        "ceiling_bid": ceiling,
        "ceiling_expected_score": float(at.loc[ceiling, "expected_score"]) if ceiling else None,
        "ceiling_expected_score_se": float(at.loc[ceiling, "expected_score_se"]) if ceiling else None,
        "safe_bid": safe_bid,
        "safe_p_make": float(at.loc[safe_bid, "p_make"]) if safe_bid else None,
        "safe_p_make_se": float(at.loc[safe_bid, "p_make_se"]) if safe_bid else None,
        **ranged,
    }


def bid_levels(rules: Rules, df: pd.DataFrame, confidence: float = 0.8, min_n: int = 20) -> pd.DataFrame:
    """The bidding table: one row per (meld class, ace class) with at least ``min_n`` deals, then 'all'."""
    melds = hand_class(df, "melds")
    aces = hand_class(df, "aces")
    rows = []
    for m in CLASSES["melds"][1]:
        for a in CLASSES["aces"][1]:
            g = df[(melds == m) & (aces == a)]
            if len(g) >= min_n:
                rows.append({"melds": m, "aces": a, **levels(rules, g, confidence)})
    rows.append({"melds": "all", "aces": "all", **levels(rules, df, confidence)})
    return pd.DataFrame(rows)
