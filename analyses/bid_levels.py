"""Bid level tables: the ceiling bid and the safe bid by hand class, over random hands.

Deals of one class are pooled: P(make) and the expected score per bid come from
:func:`binokel_sim.evaluation.hand.bid_table` on the class's deals (the soloist goes out
after seeing the Tapp where his own estimate, weighed with its measured error, says so:
:mod:`binokel_sim.evaluation.going_out`); the ceiling is the highest bid
with positive expected score, the safe bid the highest with P(make) >= confidence.
Classes: meld points at the best trump x aces (what a player counts before bidding).

Which query (issue #11): the table prints P(make) at the ceiling and safe bids and the mean
total, so the study's per-deal values serve all of them (a mean needs the value; below 48
cards they are exact). At 48 cards a deal left unresolved by the node budget counts as
failed in ``safe_p_make`` (its lower bound, which also picks the safe bid) and as made in
``safe_p_make_hi``; ``mean_total``/``mean_total_hi`` bound the mean, ``unresolved`` counts them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim.evaluation.ladder import bid_table
from binokel_sim.studies.deals import bounds_of, parts_of, upper_parts
from binokel_sim.corpus.phases import PhaseRows, two_phase_figures
from binokel_sim.rules import Rules

from .tapp_value import CLASSES, hand_class


@dataclass(frozen=True)
class Picks:
    """:func:`picks`' answer: the ceiling (the highest bid with E[score] > 0) and the safe bid (the highest with
    P(make) >= the confidence), the figures at them ± SE, and the bids their sampling error cannot tell apart
    (``*_lo`` .. ``*_hi``, at the lower .. upper end of each 95 % interval); None: no such bid."""

    ceiling_bid: int | None
    ceiling_expected_score: float | None
    ceiling_expected_score_se: float | None
    safe_bid: int | None
    safe_p_make: float | None
    safe_p_make_se: float | None
    safe_bid_lo: int | None
    safe_bid_hi: int | None
    ceiling_bid_lo: int | None
    ceiling_bid_hi: int | None


@dataclass(frozen=True)
class Unresolved:
    """What the deals a node budget left open change (48 cards): the mean total with them at their upper bound,
    how many there are, and P(make) ± SE of the safe bid with them counted made."""

    mean_total_hi: float
    unresolved: int
    safe_p_make_hi: float | None
    safe_p_make_hi_se: float | None


@dataclass(frozen=True)
class Levels:
    """:func:`levels` of a group of deals: ``n`` deals (``n2``: phase 2's, for a two-phase corpus), the mean
    total ± SE and the :class:`Picks`; ``unresolved`` where the deals were played here (:func:`levels`); no
    figures where a two-phase group has too few phase-2 deals (:func:`group_levels`). :meth:`to_dict` is a row
    of the bid table.

    >>> Levels(n=12, n2=3).to_dict()
    {'n': 12, 'n2': 3}
    """

    n: int
    n2: int | None = None
    mean_total: float | None = None
    mean_total_se: float | None = None
    picks: Picks | None = None
    unresolved: Unresolved | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.n}
        if self.n2 is not None:
            out["n2"] = self.n2
        if self.picks is not None:
            out |= {"mean_total": self.mean_total, "mean_total_se": self.mean_total_se, **asdict(self.picks)}
        if self.unresolved is not None:
            out |= asdict(self.unresolved)
        return out


def levels_range(rules: Rules, g: pd.DataFrame, bids: np.ndarray | None = None) -> pd.DataFrame | None:
    """P(make) per bid as a range when some deals are unresolved: ``p_make_counted_failed`` counts them failed
    (their lower bounds), ``p_make_counted_made`` made (upper bounds); None when every deal is resolved.

    >>> from binokel_sim.rules import load_rules
    >>> d = pd.DataFrame({"value": [100, 200], "value_hi": [100, 250], "took": [True, True], "code": [0, 0],
    ...                   "special_made": [False, False], "result": [100, 200], "result_hi": [100, 250],
    ...                   "subjective": [np.full(1, 300), np.full(1, 300)], "subjective_took": [np.ones(1, bool)] * 2})
    >>> t = levels_range(load_rules("standard"), d, np.array([150, 220]))
    >>> t[["bid", "p_make_counted_failed", "p_make_counted_made"]].values.tolist()
    [[150.0, 0.5, 0.5], [220.0, 0.0, 0.5]]
    """
    lo, hi = bounds_of(g, "value")
    k = int((lo != hi).sum())
    if not k:
        return None
    a = bid_table(rules, parts_of(g), bids)
    b = bid_table(rules, upper_parts(g), a["bid"].to_numpy())
    return pd.DataFrame({"bid": a["bid"], "p_make_counted_failed": a["p_make"], "p_make_counted_made": b["p_make"],
                         "n": len(g), "unresolved": k})


def _top(t: pd.DataFrame, ok: pd.Series) -> int | None:
    return int(t.loc[ok, "bid"].max()) if ok.any() else None


def picks(t: pd.DataFrame, confidence: float) -> Picks:
    """The ceiling and the safe bid of a ladder (``bid``, ``p_make``, ``expected_score`` and their ``_se``), the
    figures at them, and the bids their sampling error cannot tell apart (``*_lo`` .. ``*_hi``).

    >>> t = pd.DataFrame({"bid": [150, 160], "p_make": [0.9, 0.7], "p_make_se": [0.05, 0.05],
    ...                   "expected_score": [120.0, -5.0], "expected_score_se": [10.0, 10.0]})
    >>> p = picks(t, 0.8); (p.safe_bid, p.safe_bid_lo, p.safe_bid_hi, p.ceiling_bid, p.ceiling_bid_hi)
    (150, 150, 150, 150, 160)
    """
    from binokel_sim.stats import Z95

    ceiling, safe_bid = _top(t, t["expected_score"] > 0), _top(t, t["p_make"] >= confidence)
    at = t.set_index("bid")
    return Picks(
        ceiling_bid=ceiling,
        ceiling_expected_score=float(at.loc[ceiling, "expected_score"]) if ceiling else None,
        ceiling_expected_score_se=float(at.loc[ceiling, "expected_score_se"]) if ceiling else None,
        safe_bid=safe_bid,
        safe_p_make=float(at.loc[safe_bid, "p_make"]) if safe_bid else None,
        safe_p_make_se=float(at.loc[safe_bid, "p_make_se"]) if safe_bid else None,
        safe_bid_lo=_top(t, t["p_make"] - Z95 * t["p_make_se"] >= confidence),
        safe_bid_hi=_top(t, t["p_make"] + Z95 * t["p_make_se"] >= confidence),
        ceiling_bid_lo=_top(t, t["expected_score"] - Z95 * t["expected_score_se"] > 0),
        ceiling_bid_hi=_top(t, t["expected_score"] + Z95 * t["expected_score_se"] > 0),
    )


def levels(rules: Rules, g: pd.DataFrame, confidence: float) -> Levels:
    """Ceiling and safe bid of a group of study deals, with the P(make) and E[score] behind them.

    ``safe_bid_lo .. safe_bid_hi`` (likewise the ceiling): the bids the deals' sampling error cannot tell
    apart from the safe bid, the highest bid whose P(make) clears ``confidence`` at the lower .. upper end
    of its 95 % interval (E[score] above 0 for the ceiling)."""
    t = bid_table(rules, parts_of(g))
    p = picks(t, confidence)
    safe_bid = p.safe_bid
    lo, hi = bounds_of(g, "value")
    at_hi = bid_table(rules, upper_parts(g), t["bid"].to_numpy()).set_index("bid")
    ranged = Unresolved(mean_total_hi=float(hi.mean()), unresolved=int((lo != hi).sum()),
                        safe_p_make_hi=float(at_hi.loc[safe_bid, "p_make"]) if safe_bid else None,
                        safe_p_make_hi_se=float(at_hi.loc[safe_bid, "p_make_se"]) if safe_bid else None)
    return Levels(n=len(g), mean_total=float(g["value"].mean()),
                  mean_total_se=float(g["value"].std(ddof=1) / np.sqrt(len(g))) if len(g) > 1 else float("nan"),
                  picks=p, unresolved=ranged)


def two_phase_levels(rules: Rules, rows: PhaseRows, confidence: float) -> Levels:
    """:func:`levels` of a group of deals from both phases of a corpus (:mod:`binokel_sim.corpus.phases`): each
    P(make) and E[score] a two-phase point figure ± SE, ``n`` phase 1's deals and ``n2`` phase 2's; the safe bid
    and the ceiling and the bids their errors cannot tell apart, as :func:`levels` picks them."""
    lo, hi = bounds_of(rows.phase1, "value")
    step = rules.bidding.bid_step
    bids = np.arange(rules.bidding.min_bid, max(int(hi.max()), rules.bidding.min_bid) + step, step)
    f = two_phase_figures(rows, rules, tuple(bids.tolist()))
    t = pd.DataFrame({"bid": bids, "p_make": [b.p_make.estimate for b in f.bids],
                      "p_make_se": [b.p_make.se for b in f.bids],
                      "expected_score": [b.expected_score.estimate for b in f.bids],
                      "expected_score_se": [b.expected_score.se for b in f.bids]})
    return Levels(n=rows.n1, n2=rows.n2, mean_total=f.mean_total.estimate, mean_total_se=f.mean_total.se,
                  picks=picks(t, confidence))


#: A group's two-phase figures are shown from this many phase-2 deals on (fewer: n and n2 only).
MIN_PHASE2 = 20


def group_levels(rules: Rules, g: pd.DataFrame, confidence: float, mask: np.ndarray,
                 phases: PhaseRows | None) -> Levels:
    """:func:`levels` of the deals ``g`` (``df[mask]``), or with ``phases`` :func:`two_phase_levels` of the same
    deals in both phases (figures blank below :data:`MIN_PHASE2` phase-2 deals)."""
    if phases is None:
        return levels(rules, g, confidence)
    d = phases.domain(mask)
    return two_phase_levels(rules, d, confidence) if d.n2 >= MIN_PHASE2 else Levels(n=d.n1, n2=d.n2)


def bid_levels(rules: Rules, df: pd.DataFrame, confidence: float = 0.8, min_n: int = 20,
               phases: PhaseRows | None = None) -> pd.DataFrame:
    """The bidding table: one row per (meld class, ace class) with at least ``min_n`` deals, then 'all';
    with ``phases`` (``df`` its phase-1 rows) every figure a two-phase point figure (:func:`two_phase_levels`)."""
    melds = hand_class(df, "melds")
    aces = hand_class(df, "aces")
    rows = []
    for m in CLASSES["melds"][1]:
        for a in CLASSES["aces"][1]:
            sel = ((melds == m) & (aces == a)).to_numpy(bool)
            if sel.sum() >= min_n:
                rows.append({"melds": m, "aces": a, **group_levels(rules, df[sel], confidence, sel, phases).to_dict()})
    every = np.ones(len(df), dtype=bool)
    rows.append({"melds": "all", "aces": "all", **group_levels(rules, df, confidence, every, phases).to_dict()})
    return pd.DataFrame(rows)


#: The report's bid-table classes: coarse enough that a few thousand deals fill every cell (right-closed bins).
REPORT_CLASSES = {"melds": ([-1, 50, 110, np.inf], ["0-50", "60-110", "120+"]),
                  "aces": ([-1, 2, np.inf], ["0-2", "3+"])}
#: The report shows a cell's figures only from this many deals on.
MIN_CELL = 200


def class_table(rules: Rules, df: pd.DataFrame, confidence: float = 0.8, min_n: int = MIN_CELL,
                phases: PhaseRows | None = None) -> pd.DataFrame:
    """The report's bid table: every (meld class, ace class) cell of :data:`REPORT_CLASSES`, then each meld
    class and each ace class alone, then all deals. A row with fewer than ``min_n`` deals keeps its n and
    leaves its figures blank (NaN). With ``phases`` (``df`` its phase-1 rows) every figure is a two-phase
    point figure (:func:`group_levels`).

    >>> from binokel_sim.rules import load_rules
    >>> d = pd.DataFrame({"melds": [0, 60, 200], "aces": [1, 3, 4]})
    >>> t = class_table(load_rules("standard"), d)
    >>> t[["melds", "aces", "n"]].values.tolist()[-3:], len(t), "ceiling_bid" in t
    ([['all', '0-2', 1], ['all', '3+', 2], ['all', 'all', 3]], 12, False)
    """
    cls = {f: pd.cut(df[f], bins=e, labels=lab).astype(str) for f, (e, lab) in REPORT_CLASSES.items()}
    mel, ace = REPORT_CLASSES["melds"][1], REPORT_CLASSES["aces"][1]
    keys = [(m, a) for m in mel for a in ace] + [(m, "all") for m in mel] + [("all", a) for a in ace] + [("all", "all")]
    rows = []
    for m, a in keys:
        sel = np.ones(len(df), dtype=bool)
        if m != "all":
            sel &= (cls["melds"] == m).to_numpy()
        if a != "all":
            sel &= (cls["aces"] == a).to_numpy()
        g = df[sel]
        lv = group_levels(rules, g, confidence, sel, phases) if len(g) >= min_n else Levels(n=len(g))
        rows.append({"melds": m, "aces": a, **lv.to_dict()})
    out = pd.DataFrame(rows)
    if "unresolved" in out and not out["unresolved"].fillna(0).any():  # every deal resolved: no ranges to show
        out = out.drop(columns=["mean_total_hi", "unresolved", "safe_p_make_hi", "safe_p_make_hi_se"])
    return out
