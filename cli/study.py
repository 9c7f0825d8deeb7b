"""``binokel study play-gap``: single-dummy play against open cards on the double-dummy studies' deals."""

from __future__ import annotations

import click

from binokel_sim.output import write_table

from .common import (charts_options, echo_json, echo_table, json_option, out_option, quiet_option, rules_option,
                     seed_option)
from .study_options import solve_budget_option
from .scale_options import scale_options
from .numbers import Real, Whole


@click.group(short_help="Studies of play and bidding: the play gap, duplicate matches of bidding policies.")
def study() -> None:
    """Studies of how the cards are played (single-dummy against open cards) and bid (duplicate matches)."""


#: The summary's columns printed (--json and --out carry all).
SHOWN = ("against", "deals", "gain", "gain_se", "gain_vs_others", "gain_vs_others_se", "won_a", "won_b", "failed_a",
         "failed_b", "out_a", "out_b", "mean_bid_a", "mean_bid_b")


@study.command("match", short_help="Duplicate match of bidding policies over whole auctions.")
@rules_option
@seed_option
@click.option("--deals", type=Whole(1), default=1500, show_default=True, help="Deals of the match.")
@click.option("--policy", default="vs-pass", show_default=True,
              help="Policy A, in one seat: vs-pass, ceiling, safe or table.")
@click.option("--against", "against", multiple=True, default=("ceiling", "safe", "table"), show_default=True,
              help="Policy B in the other seats (repeat for several; each is a match of its own on the same deals).")
@solve_budget_option
@out_option("Write one row per deal, opponent policy and seat to FILE.csv, .parquet or .json.")
@charts_options
@json_option
@quiet_option
@scale_options
def match_cmd(rules, seed, deals, policy, against, solve_budget, out, charts, chart_format, as_json, quiet,
              scale) -> None:
    """Play each deal in whole auctions with policy A in one seat and B in the others, then with B in every
    seat, A rotated over the seats; exchange, going out and double-dummy play by the engine. Prints the seat's
    paired gain per round (own score, and own minus the others' mean) with SEs clustered by deal, auction,
    failure and going-out shares, and the pass value against what passing seats realised.

    \b
    Example:
      binokel study match --rules dabb --deals 1500 --policy vs-pass --against ceiling --against safe
    """
    from pathlib import Path

    import pandas as pd

    from binokel_sim.analyses.match import competing_gain, match_chart, match_summary, pass_calibration
    from binokel_sim.game.match import MatchRows, match_job
    from binokel_sim.output import write_figure

    against = tuple(dict.fromkeys(against))
    job = match_job(rules, deals, policy, against, seed, solve_budget)
    rows = MatchRows.join(job.run(scale, desc="match deals"))
    summary = match_summary(rows, policy, against)
    calib = pass_calibration(rows)
    natural = pass_calibration(rows, event="natural")
    comp = competing_gain(rows)
    if out:
        write_table(pd.DataFrame(rows._asdict()).assign(against=lambda d: [against[k] for k in d["against"]]), out)
    if charts is not None:
        write_figure(match_chart(summary, rules.display_name, deals, seed), Path(charts) / f"match.{chart_format}")
    head = {"rules": rules.name, "seed": seed, "deals": deals, "policy": policy, "against": list(against),
            "solve_budget_nodes": job.params.solve_budget}
    if as_json:
        echo_json({**head, "summary": summary.to_dict(orient="records"),
                   "pass_calibration": calib.to_dict(orient="records"),
                   "pass_calibration_natural": natural.to_dict(orient="records"),
                   "competing_gain": dict(zip(("mean", "se", "n"), comp))})
        return
    click.echo(" ".join(f"{k} {v}" for k, v in head.items()))
    click.echo(f"# policy A ({policy}) in one seat, B in the others, against B in every seat; a seat's points a"
               " round, paired on the same deals, SE clustered by deal")
    for r in summary.itertuples():
        click.echo(f"{policy} vs {r.against}: gain {r.gain:+.1f} ± {r.gain_se:.1f} a round (own minus others"
                   f" {r.gain_vs_others:+.1f} ± {r.gain_vs_others_se:.1f}); wins {r.won_a:.1%} of the auctions"
                   f" (B: {r.won_b:.1%}), fails {r.failed_a:.1%} of them (B: {r.failed_b:.1%}), goes out"
                   f" {r.out_a:.1%} (B: {r.out_b:.1%})")
    echo_table(summary[list(SHOWN)], "{:.3f}")
    if calib.empty:
        click.echo("\n# pass value: not calibrated (no pass-value model fitted for these rules, or too few passing"
                   " seats)")
        return
    click.echo(f"\n# pass value: predicted against every seat's score had it passed at once, {against[0]} in the"
               " other seats (bins of the prediction)")
    echo_table(calib, "{:.2f}")
    click.echo(f"# the seats that bid by {against[0]} and lost the auction: {comp[0]:+.1f} ± {comp[1]:.1f} points"
               f" against passing at once on the same cards (n = {comp[2]}; their bids moved the soloist's contract)")


@study.command("play-gap", short_help="Single-dummy play against open cards: the gap.")
@rules_option
@seed_option
@click.option("--deals", type=Whole(2), default=100, show_default=True, help="Random deals to play.")
@click.option("--worlds", type=Whole(1), default=20, show_default=True,
              help="Sampled deals of the unseen cards per single-dummy decision (W).")
@click.option("--tolerance", type=Real(0), default=0.5, show_default=True,
              help="A decision is proven to within this many points of the best mean (below 1: exact at W = 1).")
@click.option("--decision-budget", type=Real(0, lo_open=True), default=None, metavar="X",
              help="A decision may search X times the nodes of one exact solve of a sampled world; past it its "
                   "leading card is played (faster, no longer proven). Default: none.")
@click.option("--chunk-size", type=Whole(1), default=None,
              help="Deals per chunk (a checkpoint's unit; default 4, with --corpus the corpus's own, 20 for a new "
                   "one). Results do not depend on it.")
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Build or extend the single-dummy corpus in DIR to --deals deals (resumable: finished chunks are "
                   "kept) and report from its rows.")
@out_option("Write one row per deal (totals under each mode, decisions' tests and nodes) to FILE.")
@json_option
@quiet_option
@scale_options
def play_gap_cmd(rules, seed, deals, worlds, tolerance, decision_budget, chunk_size, corpus_dir, out, as_json,
                 quiet, scale) -> None:
    """Play each deal three ways on the same exchange: open cards (the double-dummy value of every other
    study), single-dummy at every seat, and the single-dummy soloist against open-card defenders.

    \b
    Example:
      binokel study play-gap --rules standard --deals 200 --worlds 20 --checkpoint ckpt/ --out gap.parquet
      binokel study play-gap --rules standard --deals 2000 --worlds 20 --corpus data/corpus/standard-sd
    """
    from binokel_sim.analyses.play_gap import (GapSettings, by_class, check_rules, fail_share, make_table, play_gap,
                                               totals)
    from binokel_sim.analyses.report_realplay import safe_bids
    from binokel_sim.analyses.sd_instant import open_rows
    from binokel_sim.errors import InputError

    check_rules(rules)  # one line before any work: no auction, or a 48-card deck
    gs = GapSettings(worlds=worlds, tolerance=tolerance, budget=decision_budget).check()
    if corpus_dir is not None:
        import sys

        from binokel_sim.analyses.sd_corpus import build_sd_corpus, load_sd_corpus

        if decision_budget is not None:
            raise click.UsageError("--decision-budget: a corpus holds proven decisions only")
        build_sd_corpus(rules, deals, corpus_dir, seed=seed, worlds=worlds, tolerance=tolerance,
                        chunk_size=chunk_size, scale=scale,
                        command="binokel " + " ".join(sys.argv[1:]))
        df = load_sd_corpus(corpus_dir)[1]
        df = df[df["deal"] < deals]
    else:
        df = play_gap(rules, deals, seed=seed, settings=gs, scale=scale, chunk_size=chunk_size or 4)
    if out:
        write_table(df, out)
    tabs = {"totals": totals(df), "fail_share": fail_share(rules, df), "by_class": by_class(df),
            "p_make": make_table(rules, df)}
    try:  # the safe bid needs each deal's going-out estimates: the double-dummy corpus rows of the same deals
        tabs["safe_bids"] = safe_bids(rules, *open_rows(rules, df, seed, gs.policy))
        why = "" if len(tabs["safe_bids"]) else "fewer than 100 deals"
    except InputError as e:
        why = str(e)
    played = int(df["played"].sum())
    head = {"rules": rules.name, "seed": seed, "deals": deals, "played": played, "worlds": worlds,
            "tolerance": tolerance, "decision_budget": decision_budget}
    if as_json:
        echo_json({**head, **{k: t.to_dict(orient="records") for k, t in tabs.items()},
                   **({"safe_bids_not_measured": why} if why else {})})
        return
    click.echo(" ".join(f"{k} {v}" for k, v in head.items()))
    click.echo(f"# {deals - played} Durch/Bettel deals kept at their open-card result, not played single-dummy")
    click.echo("# the soloist's total: open cards, single-dummy at every seat (sd), single-dummy soloist against "
               "open-card defenders (sd_solo); paired differences")
    echo_table(tabs["totals"], "{:.2f}")
    click.echo("\n# single-dummy play fails the highest bid the open-card total makes")
    echo_table(tabs["fail_share"], "{:.4f}")
    click.echo("\n# the gap by meld class (hand before the Tapp) and by Tapp class (the Tapp's meld gain)")
    echo_table(tabs["by_class"], "{:.2f}")
    click.echo("\n# P(make) per bid")
    echo_table(tabs["p_make"], "{:.4f}")
    if why:
        click.echo(f"\n# the safe bid under each way of play is not measured: {why}")
        return
    click.echo("\n# the safe bid (P(make) >= 0.8, going out after the Tapp included) and the ceiling by meld class;"
               " P(make) of the open-card safe bid under each way of play")
    echo_table(tabs["safe_bids"], "{:.3f}")
