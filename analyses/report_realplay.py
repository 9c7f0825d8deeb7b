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

from .report_model import Section

#: Readers' words for the play modes.
WORDS = {"open": "open cards (double-dummy)", "sd": "single-dummy, every seat",
         "sd_solo": "single-dummy soloist, open-card defenders"}


def ladder_frame(rules: Rules, rows: pd.DataFrame, top: int = 30) -> pd.DataFrame:
    """P(make) by bid under open cards and single-dummy play (every seat), with 95 % Wilson bands."""
    from .play_gap import make_table

    t = make_table(rules, rows, rows=top)
    out = []
    for mode in ("open", "sd"):
        k = t[f"p_make_{mode}"].to_numpy() * t["n"].to_numpy()
        lo, hi = wilson(k, t["n"].to_numpy())
        out.append(pd.DataFrame({"bid": t["bid"], "p_make": t[f"p_make_{mode}"], "lo": lo, "hi": hi,
                                 "play": f"{WORDS[mode]} (n = {int(t['n'].iloc[0])})"}))
    return pd.concat(out, ignore_index=True)


def real_play_section(rules: Rules, folder: str | os.PathLike | None = None) -> Section:
    """The section, from the single-dummy corpus in ``folder`` (None: the shipped one of ``rules``)."""
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
        return s
    if int(rows["played"].sum()) < 2 if len(rows) else True:
        s.text.append(f"Not measured yet: the single-dummy corpus holds {len(rows)} deals, too few to compare.")
        return s
    t = totals(rows).set_index("figure")
    gap, n = t.loc["sd - open"], int(t.loc["sd - open", "n"])
    lo, hi = gap["mean"] - 1.96 * gap["se"], gap["mean"] + 1.96 * gap["se"]
    f = fail_share(rules, rows).set_index("mode")
    s.text.append(f"From {len(rows)} deals ({n} played in a suit or without trump; seed {m['seed']}, {m['worlds']} "
                  f"sampled deals per decision, rules {rules.name}): single-dummy play at every seat changes the "
                  f"soloist's total by {gap['mean']:+.1f} points on average (95 % interval {lo:+.1f} to {hi:+.1f}, "
                  f"SE {gap['se']:.1f}). On {f.loc['sd', 'share']:.1%} ± {f.loc['sd', 'se']:.1%} of the deals whose "
                  f"open-card total makes the minimum bid (n = {int(f.loc['sd', 'n'])}), single-dummy play fails the "
                  "highest bid the open-card total makes.")
    shown = t.reset_index().replace({"figure": {**WORDS, "sd - open": "single-dummy minus open cards",
                                                "sd_solo - open": "single-dummy soloist minus open cards",
                                                "sd - sd_solo": "every seat minus soloist alone"}})
    s.tables.append(("The soloist's mean total under each way of play and the paired differences (points, ± SE)",
                     shown.rename(columns={"figure": "play"}).round({"mean": 1, "se": 1})))
    lad = ladder_frame(rules, rows)
    fig = ch.line_chart(lad, "bid", "p_make", "play", "P(make) by bid: open cards against single-dummy play",
                        xlabel="bid (points)", ylabel="P(make)", clip=(0.0, 1.0), interval=("lo", "hi"))
    s.figures.append(("real_play", fig, "P(make) against the bid, the same deals played with open cards and "
                                        "single-dummy at every seat; 95 % Wilson bands"))
    from .calibration import instant_calibration
    from .sd_instant import MIN_DEALS

    if len(rows) >= MIN_DEALS and folder is None:  # the bid model with real play, on its held-out deals
        cal = instant_calibration(rules, questions="ladder", play="single-dummy")
        a = cal.attrs
        s.text.append(f"`binokel bid --play single-dummy` answers with the instant tier fitted on the training deals "
                      f"of this corpus, played single-dummy. On its {a['deals']} held-out deals (every bid from the "
                      f"minimum to 300 points above it, n = {a['n']} questions) its Brier score is {a['brier']:.4f} "
                      f"± {a['brier_se']:.4f} (the base rate's {a['base_rate_brier']:.4f}); its deciles lie within "
                      f"{100 * a['max_abs_gap']:.1f} points of what happened.")
        shown = cal[["bin_from", "bin_to", "n", "deals", "predicted", "realised", "realised_se", "gap"]]
        s.tables.append(("`binokel bid --play single-dummy`: predicted against realised P(make) on the held-out "
                         "deals, by deciles of the prediction (SE clustered by deal)", shown.round(3)))
    return s


def safe_shift(rules: Rules, rows: pd.DataFrame, confidence: float = 0.8) -> tuple[int | None, int | None]:
    """The highest bid made with P(make) >= ``confidence`` over all deals, open cards and single-dummy."""
    lad = ladder_frame(rules, rows)
    out = []
    for mode in ("open", "sd"):
        part = lad[lad["play"].str.startswith(WORDS[mode])]
        ok = part.loc[part["p_make"].to_numpy() >= confidence, "bid"]
        out.append(int(np.max(ok)) if len(ok) else None)
    return out[0], out[1]
