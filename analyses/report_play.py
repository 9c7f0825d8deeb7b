"""The report's play sections: where their deals come from, the Tapp value and the bid ladder.

The play sections rest on every deal of a matching corpus (same rules content hash, seed and
policy: :func:`binokel_sim.studies.rows.study_rows`), topped up with fresh deals to the
budget's study deals; :func:`source_line` says which (corpus path, n, hash). The Tapp value is
also given sharpened by the melds-only Tapp value as a control variate
(:func:`binokel_sim.analyses.tapp_value.adjusted`); the bid table shows only cells of at least
:data:`binokel_sim.analyses.bid_levels.MIN_CELL` deals; unresolved deals (48 cards, within the node
budget) are printed with their fraction and P(make) as a range.

>>> from binokel_sim.studies.rows import StudySource
>>> source_line(StudySource(n=60, from_corpus=0, fresh=60))
'60 deals solved for this report (no matching corpus read).'
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from binokel_sim.analyses.report_model import BidResult, Budget, Estimate, Section, TappResult
from binokel_sim.studies.rows import StudySource
from binokel_sim.glossary import FIGURES, SUIT_NAMES
from binokel_sim.rules import Rules, as_rules
from binokel_sim.stats import pm
from binokel_sim.runner import Scale

#: Deals per chunk of the study jobs (fixed; never depends on the worker count).
STUDY_CHUNK = 2


def play_study(rules: Rules, b: Budget, seed: int, scale: Scale, fresh: bool = False,
               corpus: str | os.PathLike[str] | None = None) -> tuple[pd.DataFrame, StudySource]:
    """The play sections' deals and where they came from: every deal of a matching corpus (same rules
    content hash, seed and policy; :func:`binokel_sim.studies.rows.study_rows`), at least the budget's
    study deals (the rest solved afresh, in chunks of :data:`STUDY_CHUNK`); ``fresh``: none from a corpus."""
    from binokel_sim.studies.rows import study_rows

    return study_rows(rules, None, seed, "heuristic", scale=scale, fresh=fresh, corpus=corpus,
                      solve_budget=b.solve_budget, least=b.study_deals, chunk_size=STUDY_CHUNK)


def corpus_label(src: StudySource) -> str:
    """The corpus a study read: a shipped one as ``data/corpus/<name> (shipped)`` (no machine path in a report
    that is shared), another by its path; 'none' if it read none."""
    from binokel_sim.corpus.reader import shipped_label

    return shipped_label(src.corpus) if src.from_corpus and src.corpus is not None else "none"


def source_line(src: StudySource) -> str:
    """One sentence: which deals the play sections rest on (corpus path, n, rules hash) and how many were solved."""
    if not src.from_corpus:
        return f"{src.n:,} deals solved for this report (no matching corpus read)."
    line = (f"{src.n:,} deals: {src.from_corpus:,} read from the corpus {corpus_label(src)} (rules hash "
            f"{src.rules_hash}, solver {src.solver_version})")
    return line + (f", {src.fresh:,} solved for this report." if src.fresh else ".")


def _unresolved(o: pd.Series) -> str:
    """The unresolved deals' line: their fraction and the range of the double-dummy mean (empty if none)."""
    k = int(o.get("unresolved", 0) or 0)
    if not k:
        return ""
    return (f" {k} of {int(o['n'])} deals ({k / o['n']:.1%}) were not resolved within the solver budget, so the"
            " double-dummy Tapp value is known only as a range: its mean lies between"
            f" {o['dd_mean_lo']:.1f} (every open deal at its lowest Tapp value) and {o['dd_mean_hi']:.1f} (at its"
            " highest); no point value is given.")


def melds_only_frame(rules: Rules, b: Budget, seed: int, scale: Scale, least: int) -> pd.DataFrame:
    """Melds-only Tapp values of the study stream's first deals (no play: cheap), the Tapp value's control
    variate: a tenth of the budget's meld-odds deals, at least ``least``."""
    from binokel_sim.studies.deals import STREAM_STUDY, study_deals

    m = max(b.meld_deals // 10, least)
    return study_deals(rules, m, seed, "heuristic", play=False, stream=STREAM_STUDY, chunk_size=2000, scale=scale)


def _two_phase_tapp(s: Section, o: pd.Series, phases) -> None:
    """The Tapp section's words for a two-phase corpus (:mod:`binokel_sim.corpus.phases`)."""
    from binokel_sim.analyses.tapp_value import two_phase_tapp
    from binokel_sim.twophase import REFERENCE

    e = two_phase_tapp(phases)
    s.text.append(f"Result with the best exchange minus result with the Tapp laid away unseen: Tapp value (melds "
                  f"only) {pm(o['melds_mean'], o['melds_se'])} over {int(o['n']):,} deals.")
    s.text.append(f"**Headline: the Tapp is worth {pm(e.estimate, e.se)} points** (double-dummy). The solver bounds "
                  f"every one of the {e.n1:,} deals within its node budget (phase 1) and decides the first {e.n2:,} "
                  f"to within a bid step (phase 2); the regression of the decided values on the bounds' midpoints "
                  f"(slope {e.slope:.2f}) carries phase 1's mean over to them ({REFERENCE}). Of its variance "
                  f"{e.phase2_share:.0%} comes from phase 2: more decided deals shrink that part, more bounded "
                  "deals the rest.")


def tapp_section(rules: Rules, study: pd.DataFrame, src: StudySource | None = None,
                 melds: pd.DataFrame | None = None, phases=None) -> TappResult:
    """The Tapp value: plain means over the played deals and, with ``melds`` (:func:`melds_only_frame`), the
    double-dummy value sharpened by the melds-only value as a control variate (:func:`tapp_value.adjusted`);
    with ``phases`` (a corpus with phase 2) the double-dummy value from both phases instead."""
    from binokel_sim.analyses.tapp_value import adjusted, by_class, chart, distribution, summary, two_phase_distribution

    s = Section("tapp", "The Tapp's value")
    if src is not None:
        s.text.append(source_line(src))
    o = summary(study, phases).iloc[0]
    if phases is not None and np.isfinite(o.get("dd_mean", np.nan)):
        _two_phase_tapp(s, o, phases)
        whole = o.to_frame().T.assign(feature="all", **{"class": "all"})
        t = by_class(study, phases)
        s.tables.append(("Tapp value by hand class (first row: all deals; double-dummy from both phases, n2 the "
                         "decided deals)", pd.concat([whole[t.columns], t], ignore_index=True)))
        s.figures.append(("tapp_value", chart(two_phase_distribution(study, phases),
                                              f"What the Tapp is worth, {rules.display_name}: {len(study):,} deals"),
                          f"Tapp value per deal: melds only over {len(study):,} deals, double-dummy over the "
                          f"{phases.n2} deals decided to within a bid step"))
        return TappResult(s)
    exact = not o.get("unresolved", 0)  # a point value (and the variate sharpening it) only where all are resolved
    dd = f", Tapp value (double-dummy) {pm(o['dd_mean'], o['dd_se'])}" if exact else ""
    s.text.append(f"Result with the best exchange minus result with the Tapp laid away unseen, over {int(o['n'])} "
                  f"deals: Tapp value (melds only) {pm(o['melds_mean'], o['melds_se'])}{dd} points."
                  + _unresolved(o))
    sharp, sharpened = None, None
    if melds is not None and len(study) > 2 and exact:
        x = melds["melds_tapp_value"].to_numpy(np.float64)
        a = adjusted(study, float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x))), len(x))
        if a.se < 0.95 * o["dd_se"]:  # it sharpens only with more melds-only deals than played ones
            s.text.append(f"**Headline: the Tapp is worth {pm(a.mean, a.se)} points** (double-dummy, sharpened;"
                          f" n = {a.n:,} played deals; the melds-only Tapp value, known from {a.melds_n:,}"
                          f" deals of the same stream as {a.melds_mean:.1f} ± {a.melds_se:.2f}, serves as a"
                          f" control variate with slope {a.beta:.2f}: same expectation, smaller standard error)."
                          " The melds-only figure explains most of it; the rest is card points and tricks.")
            sharp = ("Tapp value (double-dummy): plain and sharpened", pd.DataFrame([
                {"figure": "plain mean", "value": o["dd_mean"], "se": o["dd_se"], "n": int(o["n"])},
                {"figure": "with the melds-only control variate", "value": a.mean, "se": a.se, "n": a.n}]))
            sharpened = Estimate(float(a.mean), float(a.se))
        else:
            s.text.append(f"**Headline: the Tapp is worth {pm(o['dd_mean'], o['dd_se'])} points** (double-dummy,"
                          f" n = {int(o['n']):,} deals). The melds-only figure explains most of it; the rest is card"
                          " points and tricks. (The melds-only value as a control variate cannot sharpen it here:"
                          f" its {a.melds_n:,} deals are no more than the {a.n:,} played ones, so it adds no"
                          " information.)")
    elif exact:
        s.text.append(f"**Headline: the Tapp is worth {pm(o['dd_mean'], o['dd_se'])} points** (double-dummy,"
                      f" n = {int(o['n']):,} deals); the melds-only figure explains most of it.")
    s.text.append(f"Tapp value (melds only): {FIGURES['Tapp value (melds only)']} "
                  f"Tapp value (double-dummy): {FIGURES['Tapp value (double-dummy)']}")
    from binokel_sim.analyses.tapp_value import summary as overall

    whole = overall(study).assign(feature="all", **{"class": "all"})
    s.tables.append(("Tapp value by hand class (first row: all deals)",
                     pd.concat([whole[by_class(study).columns], by_class(study)], ignore_index=True)))
    if sharp is not None:
        s.tables.append(sharp)
    title = f"What the Tapp is worth, {rules.display_name}: {len(study):,} deals"
    s.figures.append(("tapp_value", chart(distribution(study), title),
                      "Tapp value per deal, melds only and double-dummy"
                      + ("" if exact else " (open deals at both ends of their range)")))
    return TappResult(s, sharpened)


def _ranges(rules: Rules, study: pd.DataFrame) -> tuple[str, pd.DataFrame | None]:
    """Unresolved deals (48 cards, within the node budget): their fraction and P(make) per bid as a range,
    lower = unresolved counted failed, upper = counted made; ('', None) when every deal is resolved."""
    from binokel_sim.analyses.bid_levels import levels_range

    t = levels_range(rules, study)
    if t is None:
        return "", None
    k, n = int(t["unresolved"].iloc[0]), len(study)
    return (f"{k} of {n} deals ({k / n:.1%}) were not resolved within the solver budget: P(make) is given as a "
            "range, from counting them failed to counting them made."), t


def _two_phase_ladder(rules: Rules, phases, cls: pd.Series, labels: list[str]) -> pd.DataFrame:
    """P(make) by bid for each meld class from both phases (those with :data:`~.bid_levels.MIN_PHASE2` decided
    deals; none: all hands), with its 95 % Wilson band at the effective n."""
    from binokel_sim.analyses.bid_levels import MIN_PHASE2
    from binokel_sim.corpus.phases import two_phase_figures
    from binokel_sim.stats import wilson_from_se

    step = rules.bidding.bid_step
    bids = tuple(range(rules.bidding.min_bid, rules.bidding.min_bid + 41 * step, step))
    groups = [(f"meld points {label}", phases.domain((cls == label).to_numpy(bool))) for label in labels]
    groups = [(name, d) for name, d in groups if d.n2 >= MIN_PHASE2]
    frames = []
    for name, d in groups or [("all hands", phases)]:
        f = two_phase_figures(d, rules, bids)
        p = np.array([b.p_make.estimate for b in f.bids])
        se = np.array([b.p_make.se for b in f.bids])
        lo, hi = wilson_from_se(p, se, d.n1)
        frames.append(pd.DataFrame({"bid": bids, "p_make": p, "p_make_se": se, "p_make_lo": lo, "p_make_hi": hi,
                                    "melds": f"{name} (n = {d.n1}, decided {d.n2})"}))
    return pd.concat(frames, ignore_index=True)


def bid_section(rules: Rules, study: pd.DataFrame, src: StudySource | None = None, phases=None) -> BidResult:
    """The bid ladder: P(make) by bid and meld class (a chart) and the ceiling and safe bid by hand class."""
    from binokel_sim.analyses.bid_levels import MIN_CELL, MIN_PHASE2, REPORT_CLASSES, class_table
    from binokel_sim.evaluation.ladder import bid_table
    from binokel_sim.studies.deals import bounds_of, parts_of, upper_parts

    from binokel_sim.analyses import charts as ch
    s = Section("bids", "The bid ladder")
    if src is not None:
        s.text.append(source_line(src))
    from binokel_sim.evaluation.going_out import basis

    s.text.append("P(make) against the bid, by the meld points of the hand before the Tapp (double-dummy play, "
                  "exchange by the heuristic optimiser). After seeing the Tapp the soloist goes out where his own "
                  "estimate says playing the bid is worth less than going out; the estimate is weighed with its "
                  f"error: {basis(rules)}.")
    edges, labels = REPORT_CLASSES["melds"]
    cls = pd.cut(study["melds"], bins=edges, labels=labels).astype(str)
    lo_v, hi_v = bounds_of(study, "value")
    ranged = bool((lo_v != hi_v).any()) and phases is None
    frames = [] if phases is None else [_two_phase_ladder(rules, phases, cls, labels)]
    if phases is not None:
        s.text.append("P(make) from both phases of the corpus: the solver's bounds on every deal, the deciding "
                      "solve on the first ones (two-phase estimates, each with its standard error).")
    for label in [c for c in labels if (cls == c).any() and phases is None]:
        g = study[cls == label]
        t = bid_table(rules, parts_of(g))
        if ranged:  # the band reaches up to the rate with the unresolved deals counted made
            up = bid_table(rules, upper_parts(g), t["bid"].to_numpy())
            t["p_make_hi"], t["p_make_made"] = up["p_make_hi"].to_numpy(), up["p_make"].to_numpy()
        frames.append(t.assign(melds=f"meld points {label} (n = {len(g)})"))
    ladder = pd.concat(frames, ignore_index=True)
    top = rules.bidding.min_bid + 40 * rules.bidding.bid_step
    ladder = ladder[ladder["bid"] <= top]
    title = ("P(make) by bid, one panel per meld class (meld points before the Tapp)" if ranged
             else "P(make) by bid and meld class (meld points before the Tapp)")
    caption = ("P(make) against bid, one panel per meld class: solid line with the unresolved deals counted failed, "
               "dashed with them counted made; the band runs from the 95 % Wilson low of the first to the high of "
               "the second" if ranged else "P(make) against bid by meld class, 95 % Wilson bands")
    s.figures.append(("bid_ladder", ch.line_chart(ladder, "bid", "p_make", "melds", title, ylabel="P(make)",
                                                  clip=(0.0, 1.0), interval=("p_make_lo", "p_make_hi"),
                                                  y2="p_make_made" if ranged else None, panels=ranged,
                                                  legend=("open deals counted failed", "open deals counted made",
                                                          "95 % range")), caption))
    table = class_table(rules, study, phases=phases)
    blank = int((table["n"] < MIN_CELL).sum())
    if phases is not None and "ceiling_bid" in table:
        few = int(((table["n"] >= MIN_CELL) & table["ceiling_bid"].isna() & table["safe_bid"].isna()).sum())
        if few:
            s.text.append(f"{few} more rows hold fewer than {MIN_PHASE2} decided (phase-2) deals: their figures are "
                          "left blank; more phase-2 deals fill them.")
    if blank:
        s.text.append(f"In the bid table, {blank} of {len(table)} rows hold fewer than {MIN_CELL} deals: their "
                      "figures are left blank (too few deals to trust); a larger corpus fills them.")
    s.text.append(f"A '-' for the safe bid in a row of {MIN_CELL} deals or more: no bid from {rules.bidding.min_bid} on"
                  " is made 80 % of the time by such hands; for the ceiling: no bid has a positive expected score.")
    s.tables.append((f"Ceiling and safe bid (P(make) ≥ 0.8) by hand class (figures for rows of {MIN_CELL} deals or"
                     " more)", table))
    line, ranges = _ranges(rules, study) if phases is None else ("", None)
    if ranges is not None:
        s.text.append(line)
        s.tables.append(("P(make) per bid as a range: unresolved deals counted failed, counted made", ranges))
    return BidResult(s, table)


#: Deals per chunk of the trump-tie count (:func:`tied_deals`).
TIE_CHUNK = 2000


def tied_deals(rules: Rules, seed: int, n: int, scale: Scale | None = None) -> np.ndarray:
    """Whether two or more trumps tie in the exchange's valuation (bool[n]) on the study stream's first ``n``
    deals, each dealt to seat ``deal mod seats``; in chunks, kept in ``scale.checkpoint`` (seconds at a corpus's size).

    >>> tied_deals("standard", 1, 5).shape
    (5,)
    """
    from binokel_sim.studies.deals import STREAM_STUDY, deal_hands
    from binokel_sim.exchange.policy import trump_ties
    from binokel_sim.provenance import rules_hash
    from binokel_sim.runner import chunk_ranges, run_local_chunks

    rules = as_rules(rules)

    def tied(c):
        hands, tapp = deal_hands(rules, seed, c)
        mine = np.ascontiguousarray(hands[np.arange(c.size), np.arange(c.start, c.stop) % rules.n_seats])
        return trump_ties(rules, mine, tapp).sum(axis=1) > 1

    key = {"rules": rules_hash(rules), "seed": int(seed), "stream": list(STREAM_STUDY)}
    parts = run_local_chunks(tied, chunk_ranges(n, TIE_CHUNK), scale, desc="trump ties", what="the trump-tie count",
                             key=key)
    return np.concatenate(parts) if parts else np.zeros(0, bool)


def tie_note(rules: Rules, seed: int, study: pd.DataFrame, scale: Scale | None = None) -> str:
    """How often the exchange's valuation ties between trumps on the study's deals, and the shares without them."""
    n = len(study)
    tied = tied_deals(rules, seed, n, scale)
    code = study["code"].to_numpy()[:n]
    clear = ~tied & (code < 4)
    shares = ", ".join(f"{SUIT_NAMES[c]} {np.mean(code[clear] == k):.3f}" for k, c in enumerate("EGHS"))
    return (f"In {int(tied.sum())} of {n} deals ({tied.mean():.1%}) two or more trumps tie in the exchange's"
            " valuation; the soloist then names one of them by a key of the cards he has seen (the same cards,"
            " the same choice; fair between the suits)."
            f" Without those deals the trump shares are {shares} ({int(clear.sum())}"
            f" deals; a choice blind to the suit gives 0.250 ± {np.sqrt(0.25 * 0.75 / max(int(clear.sum()), 1)):.3f}"
            " each).")
