"""The report section "Open cards against real play": the single-dummy corpus's paired gap and P(make) by bid.

Read from the single-dummy corpus of the rules (:mod:`.sd_corpus`; ``standard`` ships one); without it the
section says what is missing and how to build it, and the rest of the report is unchanged.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from binokel_sim.errors import InputError
from binokel_sim.rules import Rules
from binokel_sim.stats import wilson

from .report_model import RealPlayResult, Section

#: Readers' words for the play modes.
WORDS = {"open": "open cards (double-dummy)", "sd": "single-dummy, every seat",
         "sd_solo": "single-dummy soloist, open-card defenders"}


def ladder_frame(rules: Rules, rows: pd.DataFrame, top: int = 30) -> pd.DataFrame:
    """P(make) by bid under open cards and the two single-dummy settings, with 95 % Wilson bands."""
    from .play_gap import make_table

    t = make_table(rules, rows, rows=top)
    out = []
    for mode in ("open", "sd", "sd_solo"):
        k = t[f"p_make_{mode}"].to_numpy() * t["n"].to_numpy()
        lo, hi = wilson(k, t["n"].to_numpy())
        out.append(pd.DataFrame({"bid": t["bid"], "p_make": t[f"p_make_{mode}"], "lo": lo, "hi": hi,
                                 "play": f"{WORDS[mode]} (n = {int(t['n'].iloc[0])})"}))
    return pd.concat(out, ignore_index=True)


def real_play_section(rules: Rules, folder: str | os.PathLike | None = None, scale=None) -> RealPlayResult:
    """The section, from the single-dummy corpus in ``folder`` (None: the shipped one of ``rules``); ``scale``:
    workers and checkpoint of the calibration's predictions where they are not stored."""
    from . import charts as ch
    from .play_gap import fail_share, totals
    from .sd_corpus import SHIPPED, load_sd_corpus

    s = Section("real-play", "Open cards against real play")
    s.text.append("Every other section plays with open cards: each seat sees every card (double-dummy). At a real "
                  "table the soloist does not know how the defenders' cards lie. Here the same deals and exchange "
                  "are also played single-dummy: each seat sees its own hand, the Tapp and the declared melds, "
                  "and picks the card with the best mean over sampled deals of the unseen cards.")
    where = folder if folder is not None else (SHIPPED if rules.name == "standard" else None)
    try:
        if where is None:
            raise InputError("none ships")
        m, rows = load_sd_corpus(where)
    except InputError:
        s.text.append(f"Not measured for rules {rules.name!r}: no single-dummy corpus (build one with `binokel study "
                      f"play-gap --rules {rules.name} --deals 2000 --worlds 20 --corpus DIR`).")
        return RealPlayResult(s)
    if int(rows["played"].sum()) < 2 if len(rows) else True:
        s.text.append(f"Not measured yet: the single-dummy corpus holds {len(rows)} deals, too few to compare.")
        return RealPlayResult(s)
    t = totals(rows).set_index("figure")
    gap, n = t.loc["sd - open"], int(t.loc["sd - open", "n"])
    lo, hi = gap["mean"] - 1.96 * gap["se"], gap["mean"] + 1.96 * gap["se"]
    f = fail_share(rules, rows).set_index("mode")
    s.text.append(f"From {len(rows)} deals ({n} played in a suit or without trump; seed {m['seed']}, {m['worlds']} "
                  f"sampled deals per decision, rules {rules.name}): single-dummy play at every seat changes the "
                  f"soloist's total by {gap['mean']:+.1f} points on average (95 % interval {lo:+.1f} to {hi:+.1f}, "
                  f"SE {gap['se']:.1f}). On {f.loc['sd', 'share']:.1%} ± {f.loc['sd', 'se']:.1%} of the deals whose "
                  f"open-card total makes the minimum bid (n = {int(f.loc['sd', 'n'])}), single-dummy play at every "
                  "seat fails the highest bid the open-card total makes; the blind soloist against open-card defenders "
                  f"fails it on {f.loc['sd_solo', 'share']:.1%} ± {f.loc['sd_solo', 'se']:.1%}.")
    shown = t.reset_index().replace({"figure": {**WORDS, "sd - open": "single-dummy minus open cards",
                                                "sd_solo - open": "single-dummy soloist minus open cards",
                                                "sd - sd_solo": "every seat minus soloist alone"}})
    totals = shown.rename(columns={"figure": "play"})
    s.tables.append(("The soloist's mean total under each way of play and the paired differences (points, ± SE)",
                     totals))
    lad = ladder_frame(rules, rows)
    fig = ch.line_chart(lad, "bid", "p_make", "play", "P(make) by bid: open cards against single-dummy play",
                        xlabel="bid (points)", ylabel="P(make)", clip=(0.0, 1.0), interval=("lo", "hi"))
    ax = fig.axes[0]  # where each line crosses it is that way's safe bid
    ax.axhline(0.8, color="0.45", lw=0.9, ls=":", zorder=1)
    ax.text(ax.get_xlim()[1] - 3, 0.81, "made 80 % of the time: the safe bid", fontsize=8, color="0.3",
            va="bottom", ha="right")
    ax.get_legend().set_loc("lower left")  # the lines fall from upper left to lower right: lower left stays free
    s.figures.append(("real_play", fig, "P(make) against the bid, the same deals played with open cards, "
                                        "single-dummy at every seat, and by a single-dummy soloist against "
                                        "open-card defenders; 95 % Wilson bands; the dotted line: made 80 % of "
                                        "the time (the safe bid where a line crosses it)"))
    from .sd_calibration import sd_calibration
    from .sd_instant import MIN_DEALS, pair

    try:  # the double-dummy corpus rows of the same deals, read once for the safe bids and the calibration
        p = pair(rules, m, rows, where)
    except InputError as e:
        s.text.append(f"The safe bid under real play is not measured: {e}.")
        return RealPlayResult(s, totals)
    raw = safe_bids(rules, p.dd, p.sd)
    safe = _safe_bid_table(raw, s)
    s.text.extend(_safe_bid_text(raw))
    if len(rows) >= MIN_DEALS and folder is None:  # the bid model with real play, on its held-out deals
        run = sd_calibration(rules, p, questions="ladder", scale=scale)
        cal, b = run.table, run.brier
        assert b is not None and run.max_abs_gap_controlled is not None  # sd_calibration always scores and controls
        s.text.append(f"`binokel bid --play single-dummy` answers with the instant tier fitted on the training deals "
                      f"of this corpus, played single-dummy. On its {b.deals} held-out deals (every bid from the "
                      f"minimum to 300 points above it, n = {b.n} questions) its Brier score is {b.brier:.4f} "
                      f"± {b.brier_se:.4f} (the base rate's {b.base_rate_brier:.4f}). On those deals alone its "
                      f"deciles lie within {100 * run.max_abs_gap:.1f} points of what happened, with a standard "
                      f"error of up to {100 * cal['realised_se'].max():.1f} points each; with the held-out deals' "
                      f"own luck taken out by {run.further}, within {100 * run.max_abs_gap_controlled:.1f} points "
                      f"(standard error up to {100 * cal['gap_controlled_se'].max():.1f}).")
        shown = cal[["bin_from", "bin_to", "n", "deals", "predicted", "realised", "realised_se", "gap", "further_n",
                     "gap_controlled", "gap_controlled_se"]]
        s.tables.append(("`binokel bid --play single-dummy`: predicted against realised P(make) on the held-out "
                         "deals, by deciles of the prediction (SE clustered by deal); *luck taken out*: the gap "
                         "with the held-out deals' luck taken out by the open-card outcomes of the further "
                         "questions, those of further deals", shown.round(3)))
    return RealPlayResult(s, totals, safe)


def _safe_bid_table(t: pd.DataFrame, s: Section) -> pd.DataFrame | None:
    """The safe bid under each way of play (``t``: :func:`safe_bids`) as the report shows it (rounded), appended
    to ``s``; None where no class holds enough deals."""
    if not len(t):
        return None
    shown = t.round({"p_make_at_open_safe": 3, "se": 3})
    s.tables.append(("The safe bid (made at least 80 % of the time) and the ceiling of the same deals under each way "
                     "of play, going out after the Tapp included; 95 % range: the bids the sampling error cannot "
                     "tell apart; P(make) of the open-card safe bid that way (± SE)", shown))
    return shown


def _safe_bid_text(t: pd.DataFrame) -> list[str]:
    """What single-dummy play means for the safe bid, in words (``t``: :func:`safe_bids`, every digit)."""
    if not len(t):
        return []
    a = t[t["melds"] == "all"].set_index("play")
    o, e, d = (a.loc[WORDS[k]] for k in ("open", "sd", "sd_solo"))
    if pd.isna(o["safe_bid"]):
        return ["No bid is made 80 % of the time with open cards, so there is no safe bid to compare."]

    def bid(x) -> str:
        return "none" if pd.isna(x) else f"{x:.0f}"

    return [f"What it means for the safe bid (any hand, n = {int(o['n'])}): with open cards it is {bid(o['safe_bid'])} "
            f"(range {bid(o['safe_bid_lo'])}-{bid(o['safe_bid_hi'])}); played single-dummy at every seat "
            f"{bid(e['safe_bid'])} ({bid(e['safe_bid_lo'])}-{bid(e['safe_bid_hi'])}), the blind soloist against "
            "open-card defenders "
            f"{bid(d['safe_bid'])} ({bid(d['safe_bid_lo'])}-{bid(d['safe_bid_hi'])}). The open-card safe bid is made "
            f"{e['p_make_at_open_safe']:.1%} ± {e['se']:.1%} of the time single-dummy and "
            f"{d['p_make_at_open_safe']:.1%} ± {d['se']:.1%} against open-card defenders "
            f"({o['p_make_at_open_safe']:.1%} with open cards): a real table lies between the two."]


def safe_bids(rules: Rules, dd: pd.DataFrame, sd: pd.DataFrame, confidence: float = 0.8, min_n: int = 100
              ) -> pd.DataFrame:
    """The safe bid and the ceiling of the same deals with open cards (``dd``: double-dummy corpus rows) and played
    single-dummy (``sd``: the single-dummy corpus's rows of those deals, both of its ways), as the report's bid
    table defines them (going out after the Tapp included, :func:`.bid_levels.levels`), for every hand and by meld
    class (from ``min_n`` deals). Each with the bids its sampling error cannot tell apart
    (``safe_bid_lo``..``safe_bid_hi``) and how often the open-card safe bid is made that way (± SE)."""
    from binokel_sim.evaluation.ladder import bid_table
    from binokel_sim.studies.deals import parts_of

    from .bid_levels import REPORT_CLASSES, levels
    from .sd_instant import sd_frame

    edges, labels = REPORT_CLASSES["melds"]
    cls = pd.cut(dd["melds"], bins=edges, labels=labels).astype(str).to_numpy()
    ways = {"open": dd, "sd": sd_frame(dd, sd, "sd"), "sd_solo": sd_frame(dd, sd, "sd_solo")}
    out = []
    for label in ["all", *labels]:
        sel = np.ones(len(dd), dtype=bool) if label == "all" else cls == label
        if sel.sum() < min_n:
            continue
        safe_open = None
        for way, rows in ways.items():
            lv = levels(rules, rows[sel], confidence).picks
            assert lv is not None  # levels() of played deals always picks
            safe_open = lv.safe_bid if way == "open" else safe_open
            row = {"melds": label, "play": WORDS[way], "n": int(sel.sum()), "safe_bid": lv.safe_bid,
                   "safe_bid_lo": lv.safe_bid_lo, "safe_bid_hi": lv.safe_bid_hi, "ceiling_bid": lv.ceiling_bid,
                   "p_make_at_open_safe": np.nan, "se": np.nan}
            if safe_open is not None:
                t = bid_table(rules, parts_of(rows[sel]), np.array([safe_open]))
                row["p_make_at_open_safe"], row["se"] = float(t["p_make"].iat[0]), float(t["p_make_se"].iat[0])
            out.append(row)
    return pd.DataFrame(out)
