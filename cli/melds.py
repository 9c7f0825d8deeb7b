"""``binokel melds``: explain a hand's melds at a trump or at its best trump."""

from __future__ import annotations

import click
import pandas as pd

from binokel_sim.dealing.hand_input import read_hand
from binokel_sim.melds.report import meld_report
from binokel_sim.output import write_table

from .common import echo_json, json_option, out_option, quiet_option, rules_option


def meld_rows(rep: dict) -> pd.DataFrame:
    """One row per meld (name, suit, cards, points) of a :func:`meld_report`."""
    return pd.DataFrame([{**m, "cards": " ".join(m["cards"]), "trump": rep["trump"]} for m in rep["melds"]],
                        columns=["trump", "name", "suit", "cards", "points"])


@click.command("melds", short_help="Explain a hand's melds and points at a trump or the best.")
@click.argument("hand")
@click.option("--trump", default="best", show_default=True, help="Trump suit (E, G, H, S or a name), none, or 'best'.")
@rules_option
@json_option
@out_option("Write one row per meld to FILE.csv, .parquet or .json.")
@quiet_option
def melds_cmd(hand: str, trump: str, rules, as_json: bool, out: str | None, quiet: bool) -> None:
    """Explain each meld of HAND with its points, at a trump or the best one.

    HAND is cards separated by spaces or commas: EA E10 EK EO EU GO SU.

    \b
    Example:
      binokel melds "GK GO EO HO SO SU" --trump G
    """
    rep = meld_report(read_hand(hand, rules), trump, rules)
    if out is not None:
        write_table(meld_rows(rep), out)
    if as_json:
        echo_json(rep)
        return
    click.echo(f"hand  {' '.join(rep['cards'])}   (rules: {rules.name})")
    click.echo(f"trump {rep['trump']}" + ("  (best)" if "best_trump" in rep else ""))
    for m in rep["melds"]:
        suit = f" {m['suit']}" if m["suit"] else ""
        click.echo(f"  {m['name'] + suit:<22} {' '.join(m['cards']):<32} {m['points']:>5}")
    if not rep["melds"]:
        click.echo("  (no melds)")
    click.echo(f"  {'total':<55} {rep['total']:>5}")
    if "totals_by_trump" in rep:
        click.echo("by trump: " + "  ".join(f"{s} {v}" for s, v in rep["totals_by_trump"].items()))
