"""The report's first screen: the answers in player words, every number taken from a table further down.

:func:`summary_section` reads the typed results of the sections :func:`binokel_sim.analyses.report.build_report`
made (:class:`SummaryInputs`: the meld odds, the Tapp's value, the bid ladder, real play, the calibration) --
their fields, never a table's caption -- and says, in at most
:data:`MAX_LINES` lines of Markdown:

* what the Tapp is worth -- one headline figure, the double-dummy Tapp value, the melds-only one as
  its explanation;
* the safe and the ceiling bid by the meld points in hand;
* how sure the figures are, and where an advisor is off (a calibration bin further from the
  diagonal than its error allows) or a pattern is odd (a hand class out of line with its
  neighbours);
* what "double-dummy" means (open-card play) and what it leaves out;
* what each variant changes: the Tapp value, the make rate at 200 and the mean total of every
  rule set with a shipped corpus, in a table of its own.

>>> flagged_gaps(pd.DataFrame({"bin_from": [0.4, 0.5], "bin_to": [0.5, 0.6], "gap": [-0.01, -0.09],
...                            "realised_se": [0.02, 0.027]}))
[(0.5, 0.6, -0.09)]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from binokel_sim.analyses.report_model import (BidResult, CalibrationResult, MeldOddsResult, RealPlayResult,
                                               Section, TappResult)
from binokel_sim.rules import Rules
from binokel_sim.stats import pm

#: The summary fits one screen.
MAX_LINES = 40
#: A calibration bin is named when it is off by more than this and by more than two standard errors.
GAP = 0.03
#: A model is called calibrated when every bin lies within this many points of what happened.
CALIBRATED_POINTS = 2
#: Figures of the variants' table (corpus figure prefix -> column).
VARIANT_FIGURES = {"Tapp value (double dummy)": "Tapp value", "make rate at 200": "make rate at 200",
                   "double-dummy total": "mean total", "safe bid, any hand": "safe bid",
                   "ceiling bid, any hand": "ceiling"}


def flagged_gaps(t: pd.DataFrame) -> list[tuple[float, float, float]]:
    """(from, to, gap) of the calibration bins off by more than :data:`GAP` and two standard errors."""
    se = t["realised_se"].to_numpy(np.float64)
    gap = t["gap"].to_numpy(np.float64)
    bad = (np.abs(gap) > GAP) & (np.abs(gap) > 2 * se)
    return [(float(a), float(b), float(g)) for a, b, g in zip(t["bin_from"][bad], t["bin_to"][bad], gap[bad])]


@dataclass(frozen=True)
class SummaryInputs:
    """The section results the summary repeats figures of; ``calibration`` None: no calibration section."""

    meld_odds: MeldOddsResult | None = None
    tapp: TappResult | None = None
    bids: BidResult | None = None
    real_play: RealPlayResult | None = None
    calibration: CalibrationResult | None = None


def _tapp_lines(rules: Rules, study: pd.DataFrame, tapp: TappResult | None, phases=None) -> list[str]:
    from binokel_sim.analyses.tapp_value import summary

    o = summary(study, phases).iloc[0].copy()
    n = int(o["n"])
    if phases is not None and np.isfinite(o.get("dd_mean", np.nan)):
        return [f"- **The Tapp is worth {pm(o['dd_mean'], o['dd_se'])} points** to the soloist: his double-dummy"
                f" total with the Tapp and the best discard, against laying it away unseen (two-phase estimate:"
                f" {n:,} deals bounded by the solver, the first {int(o['n2']):,} of them decided; section *The"
                f" Tapp's value*). Its melds alone make {pm(o['melds_mean'], o['melds_se'])} of it; the rest is"
                " card points and the tricks the better hand takes."]
    sharp = tapp.sharpened if tapp is not None else None
    if sharp is not None:  # the section's headline is the sharpened figure: the summary names the same one
        o["dd_mean"], o["dd_se"] = sharp.value, sharp.se
    if o.get("unresolved", 0):
        return [f"- **The Tapp is worth between {o['dd_mean_lo']:.0f} and {o['dd_mean_hi']:.0f} points** to the"
                f" soloist (double-dummy, n = {n:,} deals): the solver left {int(o['unresolved'])} of them as a"
                " range, so only the range is known (table *Tapp value by hand class*). By melds alone it adds"
                f" {pm(o['melds_mean'], o['melds_se'])}."]
    how = ", sharpened by the melds-only value: table *plain and sharpened*" if sharp else ""
    return [f"- **The Tapp is worth {pm(o['dd_mean'], o['dd_se'])} points** to the soloist: his double-dummy total"
            f" with the Tapp and the best discard, against laying it away unseen (n = {n:,} deals; the headline"
            f" figure{how}). Its melds alone make {pm(o['melds_mean'], o['melds_se'])} of it; the rest is card points"
            " and the tricks the better hand takes."]


def _bid_lines(rules: Rules, study: pd.DataFrame, bids: BidResult | None = None, phases=None) -> list[str]:
    """The bullet of the safe and the ceiling bid by meld class: ``bids``'s table (None: computed here)."""
    from binokel_sim.analyses.bid_levels import MIN_CELL, class_table

    t = bids.classes if bids is not None else class_table(rules, study, phases=phases)
    rows = t[(t["aces"] == "all") & (t["melds"] != "all") & (t["n"] >= MIN_CELL)]
    if "n2" in t:  # two phases: a class needs its phase-2 deals too
        has = [c for c in ("ceiling_bid", "safe_bid") if c in rows]
        rows = rows[rows[has].notna().any(axis=1)] if has else rows.iloc[:0]
    if rows.empty:
        return [f"- **What to bid**: too few deals per hand class here (fewer than {MIN_CELL}); see the bid ladder."]
    cells = "; ".join(f"{r.melds}: safe {_bid(r.safe_bid)}, ceiling {_bid(r.ceiling_bid)} (n = {int(r.n):,}"
                      + (f", of them {int(r.n2)} decided" if "n2" in t else "") + ")" for r in rows.itertuples())
    return [f"- **What to bid**, by the meld points in hand before the Tapp: {cells}. *Safe*: made at least 80 % of"
            " the time; *ceiling*: the highest bid that still gains on average -- it weighs only the soloist's own"
            " score, not what the defenders score (table *Ceiling and safe bid by hand class*, which also splits"
            " them by aces)."]


def _real_play_lines(real: RealPlayResult | None) -> list[str]:
    """The real-play section's answer in one bullet: the paired gaps and how often the open-card safe bid is made."""
    from binokel_sim.analyses.report_realplay import WORDS

    tot = real.totals if real is not None else None
    safe = real.safe_bids if real is not None else None
    if tot is None or safe is None:
        return []
    g = tot.set_index("play")
    a = safe[safe["melds"] == "all"].set_index("play")
    if len(a) < 3 or pd.isna(a.loc[WORDS["open"], "safe_bid"]):
        return []
    e, d = a.loc[WORDS["sd"]], a.loc[WORDS["sd_solo"]]
    both, alone = g.loc["single-dummy minus open cards"], g.loc["single-dummy soloist minus open cards"]
    return [f"- **At a real table** (the same {int(g['n'].iloc[0]):,} deals played single-dummy: each seat sees only"
            f" its own hand, the Tapp and the melds): the soloist's total changes by {_signed(both)} points with"
            f" every seat single-dummy and by {_signed(alone)} alone against seeing"
            f" defenders; the open-card safe bid of {_bid(a.loc[WORDS['open'], 'safe_bid'])} is made"
            f" {e['p_make_at_open_safe']:.0%} of the time with every seat single-dummy and"
            f" {d['p_make_at_open_safe']:.0%} by the blind soloist (section *Open cards"
            " against real play*)."]


def _signed(row) -> str:
    """A paired difference with its sign: ``+11.15 ± 0.42``."""
    return ("+" if row["mean"] > 0 else "") + pm(row["mean"], row["se"])


def _bid(b) -> str:
    return "-" if b is None or (isinstance(b, float) and not np.isfinite(b)) else str(int(b))


def _sure_lines(cal: CalibrationResult | None, odds: MeldOddsResult | None = None) -> list[str]:
    """How sure the advisors are (each calibration table: calibrated, too few deals, or flagged bins) and the meld
    odds' smallest p-value against the exact odds."""
    out = []
    if cal is not None:
        for fit in cal.tables:
            caption, t = fit.caption, fit.table
            if "gap" not in t:
                continue
            who = "the instant advisor (`binokel bid`)" if fit.advisor == "instant" else "the hand-point formula"
            bad = flagged_gaps(t)
            worst = float(np.abs(t["gap"]).max())
            pts = max(1, round(100 * worst))
            if not bad and pts <= CALIBRATED_POINTS:
                out.append(f"- **How sure**: {who} is calibrated: every bin within {pts} point{'s' * (pts > 1)} of"
                           f" what happened (table *{caption}*).")
            elif not bad:
                out.append(f"- **How sure**: {who} shows no gap beyond two standard errors, but its bins differ from"
                           f" what happened by up to {pts} points (table *{caption}*): too few deals to call it"
                           " calibrated.")
            else:
                where = ", ".join(f"{100 * g:+.0f} points at predicted {a:.1f}-{b:.1f}" for a, b, g in bad)
                out.append(f"- **Flagged**: {who} is off where the table *{caption}* shows: made minus predicted"
                           f" {where} (beyond two standard errors): read its P(make) there as a rough guide.")
    if odds is not None:
        ps = odds.p_values
        if len(ps):
            out.append(f"- The meld odds agree with exact combinatorics: smallest p-value {ps.min():.2g} over"
                       f" {len(ps)} tests (table *Meld events of a dealt hand*).")
    return out


def _odd_class_lines(study: pd.DataFrame) -> list[str]:
    """A meld class whose Tapp value rises against the falling trend beyond two standard errors."""
    from binokel_sim.analyses.tapp_value import by_class

    t = by_class(study)
    t = t[(t["feature"] == "melds") & t["dd_mean"].notna()].reset_index(drop=True)
    for i in range(1, len(t)):
        a, b = t.iloc[i - 1], t.iloc[i]
        if b["dd_mean"] - a["dd_mean"] > 2 * np.hypot(a["dd_se"], b["dd_se"]) and i >= 2:
            return [f"- **Odd**: the Tapp value falls with the meld points but rises again to"
                    f" {pm(b['dd_mean'], b['dd_se'])} for {b['class']} meld points (n = {int(b['n'])}) against"
                    f" {pm(a['dd_mean'], a['dd_se'])} for {a['class']}, beyond two standard errors; this report"
                    " does not explain it, so take the strongest class's figure with care (table *Tapp value by"
                    " hand class*)."]
    return []


def variants_table() -> pd.DataFrame:
    """Tapp value, make rate at 200, mean total, safe bid and ceiling of every rule set with a shipped corpus
    (any hand as soloist, double-dummy), each as ``value [95 % interval]`` (a bid: ``[the bids its sampling
    error cannot tell apart]``) with its n; a budgeted corpus as its range (no bids)."""
    from binokel_sim.analyses.compare_corpus import corpus_rows
    from binokel_sim.corpus.reader import read_manifest, shipped_root
    from binokel_sim.rules import load_rules
    from binokel_sim.stats import Z95, wilson_from_se

    root = shipped_root()
    rows = []
    for sub in sorted(p for p in (root.iterdir() if root else []) if (p / "manifest.json").is_file()):
        try:
            m = read_manifest(sub)
            if m.get("play", "open") != "open":  # the single-dummy corpus has its own section
                continue
            rules = load_rules(m["rules"])
        except Exception:  # noqa: BLE001  (a corpus of rules no preset has: left out)
            continue
        got = corpus_rows(rules)
        if not got:
            continue
        row: dict = {"rules": rules.name, "n": max(int(r["n"]) for r in got)}
        for prefix, col in VARIANT_FIGURES.items():
            hits = [r for r in got if r["figure"].startswith(prefix)]
            rate = col.startswith("make")
            d = 3 if rate else 0
            # A bid (no SE): the bids its sampling error cannot tell apart; a two-phase figure brings an SE.
            if len(hits) == 1 and "lo" in hits[0] and not np.isfinite(hits[0]["se"]):
                h = hits[0]
                known = np.isfinite(h["lo"]) and np.isfinite(h["hi"])
                row[col] = f"{h['value']:.0f}" + (f" [{h['lo']:.0f}, {h['hi']:.0f}]" if known else "")
            elif len(hits) == 1:
                v, se = hits[0]["value"], hits[0]["se"]
                # A rate's interval is Wilson's (never past 0 or 1); the others are normal.
                lo, hi = ((float(x) for x in wilson_from_se(v, se, hits[0]["n"])) if rate
                          else (v - Z95 * se, v + Z95 * se))
                row[col] = f"{v:.{d}f} [{lo:.{d}f}, {hi:.{d}f}]"
            elif hits:
                row[col] = f"{hits[0]['value']:.{d}f} .. {hits[-1]['value']:.{d}f} (range)"
        rows.append(row)
    return pd.DataFrame(rows)


def summary_section(rules: Rules, study: pd.DataFrame, parts: SummaryInputs, phases=None) -> Section:
    """The summary (see the module docstring) from the sections' results ``parts``;
    ``phases``: the corpus's two phases where it has a phase 2
    (:func:`binokel_sim.studies.rows.study_phases`): the double-dummy figures are then point figures."""
    s = Section("summary", "Summary: what the Tapp is worth, what to bid")
    s.text.append(f"The answers of this report for **{rules.name}** in player words; every number is in a table"
                  " further down with its n and its standard error or interval. *Double-dummy* means the cards are"
                  " played as if all hands lay open, by perfect players on both sides: real players see only their"
                  " own cards, so read the figures as what the cards allow.")
    sure = sorted(_sure_lines(parts.calibration, parts.meld_odds),
                  key=lambda line: not line.startswith("- **How sure**"))
    lines = (_tapp_lines(rules, study, parts.tapp, phases) + _bid_lines(rules, study, parts.bids, phases)
             + _real_play_lines(parts.real_play) + sure + _odd_class_lines(study))
    s.text.append("\n".join(lines))
    t = variants_table()
    if len(t):
        s.text.append("**What each variant changes** (shipped corpora, any hand as soloist, double-dummy; a"
                      " 48-card corpus solved within a node budget shows the range it proves, or with its phase 2"
                      " the two-phase point figure):")
        s.tables.append(("Variants: Tapp value, make rate at 200, mean total [95 % interval], safe bid and ceiling"
                         " of any hand [the bids the deals cannot tell apart]", t))
    return s
