"""``binokel report``: every study of one rule set as an HTML report and its Markdown twin."""

from __future__ import annotations

import sys

import click

from .common import quiet_option, rules_option, seed_option
from .main import cli
from .scale_options import scale_options


@cli.command("report")
@rules_option
@click.option("--budget", type=click.Choice(["quick", "standard", "full"]), default="quick", show_default=True,
              help="Deals per study: quick (minutes), standard, full.")
@click.option("--meld-deals", type=click.IntRange(min=1), default=None, help="Override the budget's meld-odds deals.")
@click.option("--study-deals", type=click.IntRange(min=2), default=None,
              help="Override the budget's double-dummy study deals.")
@click.option("--calibration-deals", type=click.IntRange(min=2), default=None,
              help="Override the budget's calibration deals.")
@seed_option
@click.option("--out", type=click.Path(file_okay=False), default=None,
              help="Output folder [default: my-report/<rules name>; the committed examples under reports/ stay untouched].")
@quiet_option
@scale_options
def report_cmd(rules, budget: str, meld_deals: int | None, study_deals: int | None, calibration_deals: int | None,
               seed: int, out: str | None, quiet: bool, scale) -> None:
    """Write OUT/report.html (self-contained) and OUT/report.md with charts in OUT/figures.

    Meld odds (Monte Carlo beside exact), the meld-total distribution, the Tapp's value,
    the bid ladder, the hand-point formula, trump choice, Durch odds, calibration and
    provenance.

    \b
    Example:
      binokel report --rules standard --budget quick --out my-report
    """
    import dataclasses

    from binokel_sim.analyses.report import BUDGETS, build_report
    from binokel_sim.analyses.report_render import render
    from binokel_sim.errors import InputError
    from pathlib import Path

    folder = Path(out or f"my-report/{rules.name}")
    if folder.exists() and not folder.is_dir():
        raise InputError(f"--out: {folder} is not a folder")
    command = "binokel " + " ".join(sys.argv[1:]) if sys.argv[0].endswith("binokel") else ""
    b = BUDGETS[budget]
    over = {k: v for k, v in (("meld_deals", meld_deals), ("study_deals", study_deals),
                              ("calibration_deals", calibration_deals)) if v is not None}
    if over:
        b = dataclasses.replace(b, name=f"{budget} (" + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in over.items())
                                + ")", **over)
    report = build_report(rules, b, seed, scale, command=command)
    paths = render(report, folder)
    click.echo(f"wrote {paths['html']} and {paths['markdown']} ({report.provenance['run time (s)']} s)")
