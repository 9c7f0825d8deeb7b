"""``binokel report``: every study of one rule set as an HTML report and its Markdown twin."""

from __future__ import annotations

import sys

import click

from .common import echo_json, json_option, output_option, quiet_option, rules_option, seed_option
from .scale_options import scale_options
from .study_options import solve_budget_option
from .numbers import Whole


@click.command("report", short_help="Strategy report of a rule set: HTML + Markdown, charts.")
@rules_option
@click.option("--budget", type=click.Choice(["quick", "standard", "full"]), default="quick", show_default=True,
              help="Deals per study: quick (minutes), standard, full.")
@click.option("--meld-deals", type=Whole(1), default=None, help="Override the budget's meld-odds deals.")
@click.option("--study-deals", type=Whole(2), default=None,
              help="Override the budget's double-dummy study deals.")
@click.option("--calibration-deals", type=Whole(2), default=None,
              help="Override the budget's calibration deals.")
@seed_option
@solve_budget_option
@click.option("--fresh", is_flag=True, help="Solve the play sections' deals afresh, even where a matching corpus "
                                            "holds them.")
@click.option("--corpus", "corpus_dir", type=click.Path(), default=None,
              help="Read the play sections' deals from this corpus folder (rules, seed and policy must match; "
                   "default: the shipped corpus of these rules, if any).")
@output_option("--out", kind="folder",
               help="Output folder [default: my-report/<rules name>; the committed examples under reports/ "
                    "stay untouched].")
@json_option
@quiet_option
@scale_options
def report_cmd(rules, budget: str, meld_deals: int | None, study_deals: int | None, calibration_deals: int | None,
               seed: int, solve_budget: int | None, fresh: bool, corpus_dir: str | None, out: str | None, as_json: bool,
               quiet: bool, scale) -> None:
    """Write OUT/report.html (self-contained) and OUT/report.md with charts in OUT/figures.

    Meld odds (Monte Carlo beside exact), the meld-total distribution, the Tapp's value,
    the bid ladder, the hand-point formula, trump choice, Durch odds, calibration and
    provenance. The play sections rest on every deal of a matching corpus (same rules
    content hash, seed and policy; at least the budget's study deals, the rest solved here).
    --json prints the paths and the provenance.

    \b
    Example:
      binokel report --rules standard --budget quick --out my-report
    """
    from binokel_sim.analyses.report import budget_with, build_report
    from binokel_sim.analyses.report_render import render
    from binokel_sim.output import check_output

    folder = out or f"my-report/{rules.name}"
    check_output(folder, "--out", "folder")
    command = "binokel " + " ".join(sys.argv[1:]) if sys.argv[0].endswith("binokel") else ""
    b = budget_with(budget, meld_deals, study_deals, calibration_deals, solve_budget)
    report = build_report(rules, b, seed, scale, command=command, fresh=fresh, corpus=corpus_dir)
    paths = render(report, folder)
    if as_json:
        echo_json({"paths": paths.to_dict(), "provenance": report.provenance})
        return
    click.echo(f"wrote {paths.html} and {paths.markdown} ({report.provenance['run_seconds']} s)")
