"""``binokel melds``: explain a hand's melds at a trump or at its best trump."""

from __future__ import annotations

import click

from binokel_sim.cards import SUITS, parse_trump
from binokel_sim.melds.explain import explain
from binokel_sim.dealing.hand_input import read_hand
from binokel_sim.melds.scorer import totals_by_trump

import numpy as np

from .common import echo_json, json_option, rules_option
from .main import cli


def meld_report(hand, trump_text: str, rules) -> dict:
    """The JSON-shaped explanation of ``hand``: melds at the given or best trump."""
    totals = np.empty(4, dtype=np.int64)
    totals_by_trump(hand.counts, rules.meld_array(), totals)
    if trump_text.lower() == "best":
        trump = int(np.argmax(totals))
    else:
        t = parse_trump(trump_text)  # the shared parser: letters, German / English names, none
        trump = -1 if t is None else t
    melds = explain(hand, trump, rules)
    out = {
        "cards": hand.to_list(),
        "trump": SUITS[trump] if trump >= 0 else "none",
        "total": sum(m.points for m in melds),
        "melds": [m.to_dict() for m in melds],
    }
    if trump_text.lower() == "best":
        out["best_trump"] = SUITS[trump]
        out["totals_by_trump"] = {SUITS[t]: int(totals[t]) for t in range(4)}
    return out


@cli.command("melds")
@click.argument("hand")
@click.option("--trump", default="best", show_default=True, help="Trump suit (E, G, H, S or a name), none, or 'best'.")
@rules_option
@json_option
def melds_cmd(hand: str, trump: str, rules, as_json: bool) -> None:
    """Explain each meld of HAND with its points, at a trump or the best one.

    HAND is cards separated by spaces or commas: EA E10 EK EO EU GO SU.

    \b
    Example:
      binokel melds "GK GO EO HO SO SU" --trump G
    """
    rep = meld_report(read_hand(hand, rules), trump, rules)
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
