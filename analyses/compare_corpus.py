"""The comparison's double-dummy figures read from the shipped corpus of each rule set.

``binokel compare`` used to simulate a handful of auctions for its play figures (8 by default:
a make rate of "1.0 [0.7, 1.0]" says nothing). Where a shipped corpus was built with the same
rules (content hash), its thousands of solved deals answer instead: the soloist is every seat in
turn (any hand, not the auction's winner), the heuristic policy's exchange, double-dummy play:

* the soloist's double-dummy total (trump contracts),
* the make rate at typical bids (a trick and the total at least the bid),
* the Tapp value (with the Tapp against without, the same deal),
* the safe bid and the ceiling by the hand's meld points (the report's bid table), each with the bids
  the deals' sampling error cannot tell apart as its interval,
* the share of hands with a makeable Durch (where the corpus checked it).

A corpus solved within a node budget holds intervals: the figures are then the corpus
headline's (:func:`binokel_sim.corpus.summary.headline`): midpoints where every interval is
narrower than a bid step, else each figure twice, at the intervals' lower and upper ends (open
deals counted failed and made): the range the corpus proves.

>>> rows = corpus_rows(__import__("binokel_sim.rules", fromlist=["x"]).load_rules("standard"))
>>> r = next(r for r in rows if r["figure"].startswith("make rate at 200")); r["n"], bool(0.5 < r["value"] < 0.9)
(20000, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from binokel_sim.rules import Rules

#: The suffix of every corpus figure: who the soloist is.
WHO = "any hand (corpus)"


def _mean(rules: Rules, figure: str, d: dict[str, Any]) -> dict[str, Any]:
    return {"rules": rules.name, "study": "corpus", "figure": figure, "value": d["mean"], "se": d["se"],
            "n": d["n"]}


def _rate(rules: Rules, figure: str, p: float, se: float, n: int) -> dict[str, Any]:
    return {"rules": rules.name, "study": "corpus", "figure": figure, "value": p, "se": se, "n": n}


def bid_rows(rules: Rules, df, phases=None) -> list[dict[str, Any]]:
    """The safe bid and the ceiling of every meld class of the report's bid table (and of all hands), each
    with the bids its sampling error cannot tell apart as the interval
    (:func:`~binokel_sim.analyses.bid_levels.levels`; with ``phases``, a two-phase corpus's
    :class:`~binokel_sim.corpus.phases.PhaseRows`, from both phases)."""
    from binokel_sim.analyses.bid_levels import MIN_CELL, class_table

    t = class_table(rules, df, phases=phases)
    out = []
    shown = (t["aces"] == "all") & (t["n"] >= MIN_CELL) & t.get("ceiling_bid", pd.Series(np.nan, t.index)).notna()
    for r in t[shown].itertuples():
        who = "any hand" if r.melds == "all" else f"meld points {r.melds}"
        for key, name in (("safe_bid", "safe bid"), ("ceiling_bid", "ceiling bid")):
            v = getattr(r, key)
            if v is not None and np.isfinite(v):
                lo, hi = getattr(r, f"{key}_lo"), getattr(r, f"{key}_hi")
                out.append({"rules": rules.name, "study": "corpus", "figure": f"{name}, {who} (corpus)",
                            "value": float(v), "se": np.nan, "n": int(r.n), "n2": getattr(r, "n2", np.nan),
                            "lo": float(lo) if lo is not None and np.isfinite(lo) else np.nan,
                            "hi": float(hi) if hi is not None and np.isfinite(hi) else np.nan})
    return out


def _two_phase_rows(rules: Rules, c, h: dict[str, Any]) -> list[dict[str, Any]]:
    """The corpus figures of a two-phase corpus: point figures ± SE from both phases, each with ``n`` (phase 1)
    and ``n2`` (phase 2) and its own 95 % interval."""
    from binokel_sim.corpus.phases import load_phases
    from binokel_sim.stats import Z95, wilson_from_se

    def row(figure: str, value: float, se: float, n2: int, rate: bool) -> dict[str, Any]:
        # A rate: Wilson's interval at the effective n p(1-p)/se^2 (as corpus info prints it); a mean: ± 1.96 SE.
        lo, hi = (wilson_from_se(value, se, h["n"]) if rate else (value - Z95 * se, value + Z95 * se))
        return {"rules": rules.name, "study": "corpus", "figure": figure, "value": value, "se": se, "n": h["n"],
                "n2": n2, "lo": lo, "hi": hi}

    t, v = h["soloist_total"], h["tapp_value"]
    rows = [row(f"double-dummy total, {WHO}", t["mean"], t["se"], t["n2"], False)]
    rows += [row(f"make rate at {m['bid']}, {WHO}", m["p_make"], m["se"], m["n2"], True) for m in h["make"]]
    rows.append(row(f"Tapp value (double dummy), {WHO}", v["mean"], v["se"], v["n2"], False))
    ph = load_phases(c)
    return rows + bid_rows(rules, c.df, ph.rows() if ph is not None else None)


def corpus_rows(rules: Rules) -> list[dict[str, Any]]:
    """The corpus figures of ``rules`` (see the module docstring); none without a matching shipped corpus."""
    from binokel_sim.corpus.reader import find_corpus, load_corpus
    from binokel_sim.corpus.summary import HEADLINE_BIDS, headline

    folder = find_corpus(rules)
    if folder is None:
        return []
    c = load_corpus(folder, rules)
    h = headline(c, HEADLINE_BIDS)
    if not h.get("n"):
        return []
    if h["mode"] == "two-phase":
        return _two_phase_rows(rules, c, h)
    ranged = h["mode"] == "range"  # wide intervals: every figure as its proven lower and upper end
    lo_, hi_ = (", lower bound", ", upper bound") if ranged else ("", "")
    rows = [_mean(rules, f"double-dummy total, {WHO}{lo_}", h["soloist_total"])]
    if ranged:
        rows.append(_mean(rules, f"double-dummy total, {WHO}{hi_}", h["soloist_total_hi"]))
    for m in h["make"]:
        rows.append(_rate(rules, f"make rate at {m['bid']}, {WHO}" + (", open deals as failed" if ranged else ""),
                          m["p_make"], m["se"], m["n"]))
        if "counted_made" in m:
            up = m["counted_made"]
            rows.append(_rate(rules, f"make rate at {m['bid']}, {WHO}, open deals as made", up["p_make"], up["se"],
                              up["n"]))
    rows.append(_mean(rules, f"Tapp value (double dummy), {WHO}{lo_}", h["tapp_value"]))
    if not ranged:
        rows += bid_rows(rules, c.df)
    if ranged:
        rows.append(_mean(rules, f"Tapp value (double dummy), {WHO}{hi_}", h["tapp_value_hi"]))
    d = h.get("durch_makeable")
    if d is not None:
        rows.append(_rate(rules, f"makeable Durch, {WHO}", d["p"], d["se"], d["n"]))
    if h.get("unresolved_fraction"):
        k = float(h["unresolved_fraction"])
        rows.append(_rate(rules, f"unresolved deals (solve budget), {WHO}", k, float(np.sqrt(k * (1 - k) / h["n"])),
                          h["n"]))
    return rows
