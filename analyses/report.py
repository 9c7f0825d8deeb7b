"""The report: every study of one rule set, computed under one seed and budget, as sections.

``build_report(rules, budget, seed, scale)`` opens with a one-screen summary in player words
(:mod:`binokel_sim.analyses.report_summary`) and runs

* **meld odds** -- Monte Carlo beside the exact values (:mod:`binokel_sim.analyses.meld_odds`);
* **meld-total distribution** -- the pmf of a hand's best meld total, MC and exact;
* **study deals** -- random deals played out double-dummy with the exchange optimiser,
  read from a matching corpus where there is one (:mod:`binokel_sim.analyses.report_play`),
  giving the Tapp's value, the bid ladder (P(make) against bid by hand class) and the
  trump choice;
* **a duplicate match** -- bidding policies over whole auctions, read from the shipped rows of
  ``binokel study match`` (:mod:`binokel_sim.analyses.report_match`);
* **Durch odds** -- how often the soloist holds a sure Durch with the Tapp
  (:func:`binokel_sim.analyses.compare.durch_chunk`, a fast kernel over many deals);
* **hand-point formula** -- the committed coefficients when fitted for these rules
  (:func:`binokel_sim.evaluation.formula.load_formula`), else fitted here on the study deals;
* **calibration** -- the formula's P(make) against double-dummy outcomes on deals of
  their own stream;
* **provenance** -- version, rules, seed, budget, deals per study, run time.

Long studies run as seeded chunks through :class:`binokel_sim.runner.Job`, so workers,
checkpoints and a Dask scheduler never change a number. The result is a
:class:`Report` (sections of text, tables and figures) that
:mod:`binokel_sim.analyses.report_render` writes as HTML and Markdown.

>>> BUDGETS["quick"].meld_deals, sorted(BUDGETS)
(200000, ['full', 'quick', 'standard'])
"""

from __future__ import annotations

import dataclasses
import os
import platform
import time

import numpy as np
import pandas as pd

from binokel_sim.analyses.calibration_result import Calibration
from binokel_sim.analyses.report_model import (BUDGETS, Budget, CalibrationResult, MeldOddsResult, Reliability,
                                               Report, Section, provenance_frame)
from binokel_sim.analyses.report_play import (STUDY_CHUNK, bid_section, corpus_label, melds_only_frame, play_study,
                                              source_line, tapp_section, tie_note)
from binokel_sim.studies.rows import StudySource
from binokel_sim.errors import InputError, check_count
from binokel_sim.glossary import SUIT_NAMES, TERMS, words
from binokel_sim.palette import contract_colour, event_colour
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Job, Scale
from binokel_sim.stats import pm, proportion, share_text


#: Meld events charted MC-beside-exact (scope ``hand``): every suit's pair and family, every four of a kind.
CHART_EVENTS = (*(f"pair_{s}" for s in "EGHS"), *(f"family_{s}" for s in "EGHS"), "four_A", "four_K", "four_O",
                "four_U", "binokel", "meld_at_least_100_best", "meld_at_least_200_best")


def check_budget(name: str) -> Budget:
    if name not in BUDGETS:
        raise InputError(f"unknown budget {name!r} (choose from {', '.join(BUDGETS)})")
    return BUDGETS[name]


def budget_with(name: str | Budget, meld_deals: int | None = None, study_deals: int | None = None,
                calibration_deals: int | None = None, solve_budget: int | None = None) -> Budget:
    """Budget ``name`` with some deal counts overridden; the name records the overrides.

    >>> budget_with("quick", study_deals=8).name
    'quick (study deals 8)'
    """
    b = name if isinstance(name, Budget) else check_budget(name)
    over = {k: check_count(k.replace("_", " "), v, minimum=1 if k == "meld_deals" else 2)
            for k, v in (("meld_deals", meld_deals), ("study_deals", study_deals),
                         ("calibration_deals", calibration_deals)) if v is not None}
    if solve_budget is not None:
        over["solve_budget"] = solve_budget
    if not over:
        return b
    label = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in over.items())
    return dataclasses.replace(b, name=f"{b.name} ({label})", **over)


# ----------------------------------------------------------------------------- study jobs


def study_frame(rules: Rules, deals: int, seed: int, scale: Scale, stream: tuple[int, ...], baseline: bool,
                policy: str = "heuristic", solve_budget: int | None = None) -> pd.DataFrame:
    """``deals`` study deals of ``stream`` as one DataFrame (seeded chunks; any scale, same rows); ``solve_budget``:
    nodes per solve (:func:`binokel_sim.studies.deals.study_deals`)."""
    from binokel_sim.studies.deals import study_deals

    return study_deals(rules, deals, seed, policy, stream=stream, baseline=baseline, chunk_size=STUDY_CHUNK,
                       scale=scale, solve_budget=solve_budget)


# ----------------------------------------------------------------------------- sections


def _figs():
    from binokel_sim.analyses import charts

    return charts


def meld_sections(rules: Rules, b: Budget, seed: int, scale: Scale) -> MeldOddsResult:
    """The meld-odds and meld-total sections, from ``b.meld_deals`` Monte Carlo deals beside the exact odds."""
    from binokel_sim.analyses.meld_odds import meld_odds_table

    ch = _figs()
    df = meld_odds_table(rules, b.meld_deals, seed, exact=b.exact, scale=scale,
                         scopes=("hand", "kept"))
    hand = df[df["scope"] == "hand"]
    events = hand[~hand["event"].str.startswith("meld_pmf_")]
    impossible = events["exact"].eq(0).to_numpy() if "exact" in events else np.zeros(len(events), bool)
    s1 = Section("meld-odds", "Meld odds: Monte Carlo beside exact")
    s1.text.append(f"{b.meld_deals:,} deals, every seat's dealt hand (n counts hands). Standard errors are "
                   "cluster-robust over deals; 95 % intervals are Wilson's. Each estimate is tested against the "
                   "exact value: exactly (binomial) where fewer than 10 hits are expected, else by z.")
    if impossible.any():
        s1.text.append(f"Impossible with {rules.layout.hand_size} cards (exact probability 0), so left out of"
                       " the table and the tests: "
                       + ", ".join(words(e) for e in events["event"][impossible]) + ".")
        events = events[~impossible]
    ps = events["p_value"].dropna()
    if len(ps):
        s1.text.append(f"Smallest p-value over {len(ps)} events: {ps.min():.3g} (with {len(ps)} tests, values "
                       f"below {0.05 / len(ps):.2g} would point at a fault).")
    s1.tables.append(("Meld events of a dealt hand",
                      events[["event", "value", "stderr", "lo", "hi", "exact", "p_value", "test", "n"]]))
    sel = events[events["event"].isin(CHART_EVENTS)]
    s1.figures.append(("meld_odds", ch.odds_dots(sel["event"].map(words), sel["value"], sel["lo"], sel["hi"],
                                                 sel["exact"] if b.exact else None,
                                                 [event_colour(e) for e in sel["event"]],
                                                 "Meld odds of a dealt hand", "chance per hand"),
                       "Meld odds of a dealt hand: Monte Carlo (dots, 95 % Wilson whiskers, mostly narrower than "
                       "the dots) and exact (diamonds); a suit's melds in the suit's colour"))
    s2 = Section("meld-totals", "The meld-total distribution")
    pmf = hand[hand["event"].str.startswith("meld_pmf_best_")].copy()
    pmf["total"] = pmf["event"].str.rsplit("_", n=1).str[1].astype(int)
    pmf = pmf.sort_values("total")
    kept = df[(df["scope"] == "kept") & (df["event"] == "meld_mean_best")].iloc[0]
    mean = events[events["event"] == "meld_mean_best"].iloc[0]
    gain_se = float(np.hypot(mean["stderr"], kept["stderr"]))
    s2.text.append(f"Best meld total of a dealt hand (over the four trumps): mean {pm(mean['value'], mean['stderr'])};"
                   f" with the Tapp and the best discard: {pm(kept['value'], kept['stderr'])}"
                   f" (n = {int(kept['n']):,}). Tapp meld gain (melds only, no card points; the figure `compare` "
                   f"prints): {pm(kept['value'] - mean['value'], gain_se)}.")
    shown = pmf[pmf["value"] > 0]
    s2.tables.append(("P(best meld total = v), Monte Carlo and exact",
                      shown[["total", "value", "stderr", "lo", "hi", "exact", "p_value", "test", "n"]]))
    overlay = (pmf["total"].to_numpy(), pmf["exact"].to_numpy()) if b.exact else None
    s2.figures.append(("meld_totals", ch.histogram(shown["total"], shown["value"], "Best meld total of a dealt hand",
                                                   "meld points", logy=True, overlay=overlay),
                       "Distribution of the best meld total (log scale); dots: exact"))
    return MeldOddsResult([s1, s2], df, ps)


def formula_section(rules: Rules, study: pd.DataFrame, seed: int, scale: Scale, b: Budget):
    """The hand-point formula: committed coefficients if fitted for ``rules``, else a fit on the study deals.

    The formula is printed only if it predicts (its out-of-sample R² interval lies above 0);
    otherwise the section says that no usable formula exists for these rules. Returns
    (section, formula or None).
    """
    from binokel_sim.evaluation.formula import load_formula

    s = Section("formula", "The hand-point formula")
    try:
        f = load_formula(rules)
        s.text.append("Coefficients as committed with the package "
                      f"(fitted with: {f.provenance.get('command', 'see provenance')}).")
    except InputError as exc:
        from binokel_sim.analyses.hand_formula import fit

        half = len(study) // 2
        f, _ = fit(rules, study.iloc[:half], study.iloc[half:],
                   provenance={"seed": seed, "source": {"source": "report", "test_from_row": half}})
        s.text.append(f"No committed coefficients ({exc}); fitted here on {half} study deals, tested on "
                      f"{len(study) - half}.")
    if not f.usable():
        s.text.append(f"**No usable formula for these rules**: {f.verdict().split(': ', 1)[1]}. "
                      "Count your hand with the bid ladder above instead.")
        return s, None
    s.text.append(f"How well it predicts: {f.verdict()}.")
    s.text.append(f"Rule of thumb: {f.rule_of_thumb()}")
    if "five_terms" in f.provenance:
        five = f.provenance["five_terms"]
        s.text.append(f"The table holds the seven-feature model, which predicts better here (out-of-sample R² "
                      f"{five['r2_test']:.2f} with five terms); the rule of thumb is the five-term fit, easier to "
                      "count at the table.")
    coef = pd.DataFrame([{"term": TERMS["intercept"], "coefficient": f.intercept}] +
                        [{"term": TERMS.get(k, k), "coefficient": v} for k, v in f.coef.items()] +
                        [{"term": TERMS["residual sd"], "coefficient": f.sd}])
    if len(f.coef) > 5:
        s.text.append("The terms overlap (a card of the likely trump also counts in the longest suit, an Ace also in"
                      " card points), so one coefficient alone can come out negative although the cards help: read"
                      " the table as a whole, or use the rule of thumb.")
    s.tables.append(("Formula: estimated total = starting value + the sum of each coefficient times its count", coef))
    return s, f


def trump_section(rules: Rules, study: pd.DataFrame, b: Budget, seed: int, scale: Scale) -> list[Section]:
    ch = _figs()
    s = Section("trump", "Trump choice")
    n = len(study)
    counts = study["contract"].value_counts().reindex(list(dict.fromkeys(study["contract"])))
    rows = [{"contract": name, "share": proportion(k, n)["p"], "se": proportion(k, n)["se"],
             "lo": proportion(k, n)["lo"], "hi": proportion(k, n)["hi"], "n": n} for name, k in counts.items()]
    t = pd.DataFrame(rows).sort_values("contract")
    s.text.append(f"Contract announced by the soloist after the exchange, over {n} deals.")
    s.text.append(tie_note(rules, seed, study, scale))
    s.tables.append(("Contracts chosen", t))
    names = [SUIT_NAMES.get(c, str(c).capitalize()) for c in t["contract"]]
    s.figures.append(("trump_choice", ch.bar_chart(t, "contract", "share", "se", "Contract chosen", "share of deals",
                                                   interval=("lo", "hi"), xlabels=names,
                                                   colors=[contract_colour(c) for c in t["contract"]]),
                      "Share of each contract, 95 % Wilson whiskers; suits in the colours of the cards"))
    d = Section("durch", "Durch odds")
    from binokel_sim.analyses.compare import durch_chunk

    m = max(b.meld_deals // 20, 100)
    sure = np.concatenate(Job("compare-durch", durch_chunk, n=m, seed=seed, rules=rules, chunk_size=2000).run(
        scale, desc="Durch"))
    sp = proportion(int(sure.sum()), m)
    durch_n = int((study["contract"] == "durch").sum())
    pp = proportion(durch_n, n)
    d.text.append(f"A sure Durch for the soloist with the Tapp (the exchange optimiser's measure: after the best "
                  f"discard no card of his can be beaten): {share_text(int(sure.sum()), m, 5)} of deals;"
                  f" announced in the study deals: {share_text(durch_n, n)}. Durch is worth {rules.durch.value} "
                  f"({rules.durch.open_value} open, {rules.durch.open_hand_value} open from the hand).")
    d.tables.append(("Durch", pd.DataFrame([
        {"figure": "sure Durch", "value": sp["p"], "se": sp["se"], "lo": sp["lo"], "hi": sp["hi"], "n": m},
        {"figure": "Durch announced (study deals)", "value": pp["p"], "se": pp["se"], "lo": pp["lo"], "hi": pp["hi"],
         "n": n}])))
    return [s, d]


def calibration_frame(rules: Rules, b: Budget, seed: int, scale: Scale, f, study: pd.DataFrame,
                      src: StudySource) -> tuple[pd.DataFrame, str]:
    """The calibration deals of the hand formula ``f`` and one line saying where they came from.

    When ``f`` was fitted on the same corpus the play sections read (its provenance names the
    corpus's rules hash and the split by deal index), its out-of-sample deals are taken from
    ``study``: the test deals (:func:`binokel_sim.analyses.hand_formula.split`) and every deal
    beyond those it was fitted on -- nothing is solved. A formula the report fitted itself on the
    first half of ``study`` is calibrated on the second half (when it holds 50 deals or more).
    Otherwise ``b.calibration_deals`` fresh deals of the calibration stream are solved.
    """
    from binokel_sim.analyses import calibration
    from binokel_sim.analyses.hand_formula import is_test, split_rule

    fp = f.provenance
    fsrc = fp.get("source") if isinstance(fp.get("source"), dict) else {}
    if fsrc.get("source") == "report" and len(study) - int(fsrc["test_from_row"]) >= 50:
        cal = study.iloc[int(fsrc["test_from_row"]):].reset_index(drop=True)
        return cal, f"{len(cal):,} of the study deals above, the half the formula was not fitted on"
    if (src.from_corpus and fsrc.get("source") == "corpus" and fsrc.get("rules_hash") == src.rules_hash
            and fp.get("split") == split_rule(rules.n_seats)):
        fitted = int(fsrc.get("corpus_deals", fp.get("deals", 0)))
        d = study["deal"].to_numpy()
        sel = is_test(d, rules.n_seats) | (d >= fitted)
        if sel.sum() >= 50:
            cal = study[sel].reset_index(drop=True)
            return cal, (f"{len(cal):,} corpus deals the formula was not fitted on (its test deals, "
                         f"{split_rule(rules.n_seats)[len('test deals: '):]}, and those beyond the {fitted:,} it saw)")
    cal = study_frame(rules, b.calibration_deals, seed, scale, calibration.STREAM_CALIBRATION, False,
                      solve_budget=b.solve_budget)
    return cal, f"{len(cal)} deals of their own stream, solved for this report"


def calibration_section(rules: Rules, f, b: Budget, seed: int, scale: Scale, study: pd.DataFrame,
                        src: StudySource) -> CalibrationResult:
    """The hand formula ``f`` (None: not usable, left out) and the instant tier against double-dummy outcomes."""
    from binokel_sim.analyses.calibration import calibration_table, chart

    s = Section("calibration", "Calibration of the advisor")
    fits = []
    if f is not None:  # calibrating a formula that does not predict tells a player nothing
        cal, where = calibration_frame(rules, b, seed, scale, f, study, src)
        t = calibration_table(rules, f, cal, bins=5 if len(cal) < 200 else 10)
        trump = int((cal["code"] < 4).sum()) if "code" in cal else len(cal)
        also = (f"; {trump:,} of them trump contracts, the deals its R² counts" if trump != len(cal) else "")
        s.text.append(f"The formula's P(make) against the double-dummy outcome on {where}{also} "
                      "(one bid asked per deal); a calibrated advisor keeps every bin near the diagonal.")
        fits.append(Reliability("formula", "Hand formula: predicted against realised, by bin", t))
        s.tables.append((fits[-1].caption, t))
        title = f"Does the hand formula's P(make) come true?\n{rules.display_name}: {len(cal):,} deals"
        s.figures.append(("calibration", chart(t, title),
                          "Realised make rate against predicted P(make), 95 % Wilson whiskers"))
    run = instant_calibration_table(rules, src, scale)
    if run is not None and run.brier is not None:
        inst, b = run.table, run.brier
        held = run.held_out.replace(f" in {src.corpus}", f" in {corpus_label(src)}")
        how = run.model.get("ladder")
        s.text.append(f"The instant tier of `binokel bid`{f' ({how})' if how else ''} on {held}, every bid 150..450"
                      " asked of each "
                      f"deal (errors clustered by deal): Brier score {b.brier:.4f} ± {b.brier_se:.4f} "
                      f"(always predicting the base rate: {b.base_rate_brier:.4f}); largest gap "
                      f"{100 * run.max_abs_gap:.1f} percentage points.")
        by = "by decile" if len(inst) == 10 else f"in {len(inst)} bins of the prediction"
        fits.append(Reliability("instant", f"Instant bid tier: predicted against realised, {by}", inst))
        s.tables.append((fits[-1].caption, inst))
        title = f"Does the bid advice's P(make) come true?\n{rules.display_name}: {int(inst['n'].sum()):,} questions"
        s.figures.append(("calibration_instant", chart(inst, title),
                          "Realised make rate against the instant tier's P(make), 95 % Wilson whiskers"))
    return CalibrationResult(s, fits)


def instant_calibration_table(rules: Rules, src: StudySource, scale: Scale | None = None) -> Calibration | None:
    """The instant tier's :class:`~.calibration_result.Calibration` (reliability table, Brier score) on the
    held-out deals of the corpus the play sections read, or None when they read none, it holds too few deals
    to hold any out (below 500), or no instant model is fitted; predictions the store does not hold are
    computed under ``scale`` (its checkpoint keeps them)."""
    from binokel_sim.analyses.calibration import instant_calibration
    from binokel_sim.evaluation.instant import held_out, load_instant

    if not src.from_corpus or load_instant(rules) is None:
        return None
    if held_out(np.arange(int(src.corpus_deals or 0)), rules.n_seats).sum() < 2:
        return None
    return instant_calibration(rules, corpus=src.corpus, questions="ladder", scale=scale)


def build_report(rules: Rules | str | os.PathLike[str] = "standard", budget: str | Budget = "quick", seed: int = 1,
                 scale: Scale | None = None, command: str = "", fresh: bool = False,
                 corpus: str | os.PathLike[str] | None = None) -> Report:
    """Compute every section of the report (see the module docstring); ``budget``: a name or a :class:`Budget`
    (:func:`budget_with` overrides its deal counts). The play sections read a matching corpus
    (:func:`play_study`; ``corpus``: that folder, ``fresh``: none)."""
    from binokel_sim._version import __version__
    from binokel_sim.provenance import git_commit, rules_hash

    rules = as_rules(rules)
    b = budget if isinstance(budget, Budget) else check_budget(budget)
    if rules.layout.kind == "talon":  # two-hand: its own studies
        from binokel_sim.analyses.report_twohand import build_twohand_report

        return build_twohand_report(rules, b, seed, scale, command)
    scale = scale or Scale()
    t0 = time.perf_counter()
    timings: dict[str, float] = {}

    def timed(name, fn, *a):
        t = time.perf_counter()
        r = fn(*a)
        timings[name] = round(time.perf_counter() - t, 2)
        return r

    odds = timed("meld odds", meld_sections, rules, b, seed, scale)
    sections = list(odds.sections)
    study, src = timed("study deals", play_study, rules, b, seed, scale, fresh, corpus)
    melds = timed("melds-only Tapp", melds_only_frame, rules, b, seed, scale, len(study))
    from binokel_sim.studies.rows import study_phases

    phases = study_phases(src)  # a 48-card corpus with phase 2: point figures from both phases
    tapp = tapp_section(rules, study, src, melds, phases)
    sections.append(tapp.section)
    bids = bid_section(rules, study, src, phases)
    sections.append(bids.section)
    from binokel_sim.analyses.report_match import match_section

    sections.append(match_section(rules))
    from binokel_sim.analyses.report_realplay import real_play_section

    real = timed("real play", real_play_section, rules, None, scale)
    sections.append(real.section)
    fsec, f = formula_section(rules, study, seed, scale, b)
    sections.append(fsec)
    sections.extend(timed("durch", trump_section, rules, study, b, seed, scale))
    cal = timed("calibration", calibration_section, rules, f, b, seed, scale, study, src)
    if cal.section.tables:
        sections.append(cal.section)
    from binokel_sim.analyses.report_summary import SummaryInputs, summary_section

    sections.insert(0, summary_section(rules, study, SummaryInputs(odds, tapp, bids, real, cal), phases))
    prov = {
        "version": __version__, "git_commit": git_commit() or "unknown (not a git checkout)",
        "rules": rules.name, "rules_source": rules.source, "rules_sha256": rules_hash(rules), "seed": seed,
        "budget": b.name, "meld_deals": b.meld_deals, "study_deals": b.study_deals,
        "calibration_deals": b.calibration_deals, "exchange_policy": "heuristic", "play": "double-dummy",
        "play_source": source_line(src), "play_deals": src.n, "from_corpus": src.from_corpus,
        "corpus": corpus_label(src), "corpus_rules_hash": src.rules_hash if src.corpus is not None else "none",
        "melds_only_deals": len(melds),
        "run_seconds": round(time.perf_counter() - t0, 1),
        "study_seconds": ", ".join(f"{k} {v}" for k, v in timings.items()),
        "python": platform.python_version(), "run_on": scale.describe(), "command": command,
    }
    psec = Section("provenance", "Provenance")
    psec.text.append("Same seed, rules and budget give the same numbers, whatever the worker count, "
                     "checkpoint or scheduler.")
    psec.tables.append(("Provenance", provenance_frame(prov)))
    sections.append(psec)
    return Report(rules, b, seed, sections, prov)
