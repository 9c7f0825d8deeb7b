"""``binokel calibrate``: check predicted P(make) (the bid tiers, the hand formula) against play outcomes."""

from __future__ import annotations

from pathlib import Path

import click

from binokel_sim.errors import InputError
from binokel_sim.output import write_figure, write_table

from .common import (charts_options, echo_json, echo_table, json_option, out_option, quiet_option, rules_option,
                     seed_option)
from .scale_options import scale_options
from .study_options import study_options
from .numbers import Whole


@click.command("calibrate", short_help="Check predicted P(make) (bid tiers, hand formula) against play outcomes.")
@rules_option
@click.option("--tier", type=click.Choice(("instant", "checked", "formula")), default="instant", show_default=True,
              help="instant / checked: binokel bid's tiers on the corpus deals held out of the instant fit;"
                   " formula: the hand formula on --deals fresh double-dummy deals.")
@click.option("--questions", type=click.Choice(("ladder", "one")), default="ladder", show_default=True,
              help="instant: every bid of --span above the minimum bid for each held-out deal (errors clustered by"
                   " deal), or one bid each.")
@click.option("--span", type=Whole(10, 5000), default=300, show_default=True,
              help="instant: the bids asked run from the rules' minimum bid over this many points (a preset whose"
                   " hands reach far beyond it, such as dabb-two, needs more).")
@click.option("--held-out", "held", type=Whole(2), default=20, show_default=True,
              help="checked: the first N held-out deals, each evaluated with --samples deals.")
@click.option("--samples", type=Whole(1), default=50, show_default=True,
              help="checked: samples per held-out deal (binokel bid --samples).")
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None,
              help="instant / checked: corpus folder (default: the shipped corpus of these rules; with --play "
                   "single-dummy, the single-dummy corpus).")
@click.option("--play", type=click.Choice(["double-dummy", "single-dummy"]), default="double-dummy",
              show_default=True, help="instant: binokel bid's model against open-card totals, or the model of bid "
                                      "--play single-dummy against the single-dummy corpus's held-out deals.")
@study_options
@seed_option(default=2)
@out_option()
@charts_options
@json_option
@quiet_option
@scale_options
def calibrate_cmd(rules, tier: str, questions: str, span: int, held: int, samples: int, corpus_dir, play: str,
                  deals: int, policy: str, seed: int, out, charts, chart_format: str, as_json: bool, quiet: bool, scale,
                  solve_budget) -> None:
    """Predicted P(make) against the realised double-dummy outcome (single-dummy with --play single-dummy), by
    deciles of the prediction, with the Brier score. The instant model never saw the held-out deals (the
    odd-numbered corpus deals from 500 on).

    \b
    Examples:
      binokel calibrate --rules standard
      binokel calibrate --rules dabb-two --span 600
      binokel calibrate --rules standard --play single-dummy
      binokel calibrate --rules standard --tier checked --held-out 20 --samples 50
      binokel calibrate --rules standard --tier formula --deals 1000 --seed 2 --out cal.csv --charts charts/
    """
    from binokel_sim.analyses import calibration as cal

    if play == "single-dummy" and tier != "instant":
        raise InputError(f"--play single-dummy: the {tier} tier plays open cards only (use --tier instant)")
    if tier == "instant":
        if play == "single-dummy":
            from binokel_sim.analyses.sd_calibration import sd_calibration

            run = sd_calibration(rules, corpus_dir, questions=questions, span=span, scale=scale)
        else:
            run = cal.instant_calibration(rules, corpus_dir, questions=questions, span=span, scale=scale)
    elif tier == "checked":
        run = cal.checked_calibration(rules, corpus_dir, held, samples, seed, policy, scale=scale)
    else:
        run = cal.calibrate(rules, deals, seed, policy, scale=scale, solve_budget=solve_budget)
    table, b = run.table, run.brier
    n = b.n if b is not None else deals
    if out is not None:
        write_table(table, out)
    if charts is not None:
        played = ", single-dummy play" if play == "single-dummy" else ""
        title = f"Does the {tier} tier's P(make) come true?{played}\n{rules.display_name}, n = {n:,}"
        write_figure(cal.chart(table, title),
                     Path(charts) / f"calibration.{chart_format}")
    if as_json:  # the provenance the written table carries, then the table
        echo_json({**table.attrs, "table": table.to_dict(orient="records")})
        return
    if b is None:
        click.echo(f"# calibration of the hand formula: rules {rules.name}, seed {seed}, {deals} deals,"
                   f" policy {policy}; largest gap {run.max_abs_gap:.3f}")
    else:
        how = ", single-dummy play" if run.play == "single-dummy" else ""
        click.echo(f"# calibration of the {tier} tier{how}: rules {rules.name}, {run.held_out}; {b.n} questions"
                   f" ({run.questions} per deal); Brier {b.brier:.4f} ± {b.brier_se:.4f} (base rate"
                   f" {b.base_rate_brier:.4f}); largest gap {run.max_abs_gap:.3f}")
        if run.open_share:
            click.echo(f"# {run.open_share:.1%} of the held-out totals are open (solved within a node budget):"
                       " 'made' counts them failed, 'made, unresolved counted made' as made; within 2 points"
                       " means of that range")
        if run.further:
            click.echo(f"# gap_controlled: each decile's gap with the held-out deals' luck taken out by {run.further}"
                       f" (the same questions, open cards); largest {run.max_abs_gap_controlled:.3f}")
        if run.instant:
            click.echo(f"# instant tier on the same questions: Brier {run.instant.brier:.4f}"
                       f" ± {run.instant.brier_se:.4f}")
    echo_table(table, "{:.3f}")
