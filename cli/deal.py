"""``binokel deal``: one seeded deal with each hand's melds at its best trump."""

from __future__ import annotations

import click

from binokel_sim.dealing.dealer import Dealer

from .common import echo_json, json_option, rules_option, seed_option
from .main import cli
from .melds import meld_report


@cli.command("deal")
@rules_option
@seed_option
@click.option("--index", type=click.IntRange(min=0), default=0, show_default=True,
              help="Which deal of the seed's sequence (deal i depends only on seed and i).")
@json_option
def deal_cmd(rules, seed: int, index: int, as_json: bool) -> None:
    """Deal one hand of RULES and show every seat's melds and the Tapp.

    \b
    Example:
      binokel deal --rules standard-48 --seed 7
    """
    deal = Dealer(rules, seed=seed).deal_object(index)
    seats = [meld_report(h, "best", rules) for h in deal.hands]
    if as_json:
        echo_json({"rules": rules.name, "seed": seed, "index": index,
                   "seats": seats, "tapp": deal.tapp.to_list()})
        return
    click.echo(f"rules {rules.name}, seed {seed}, deal {index}")
    for i, rep in enumerate(seats):
        melds = ", ".join(f"{m['name']}{' ' + m['suit'] if m['suit'] else ''} {m['points']}" for m in rep["melds"])
        click.echo(f"seat {i}: {' '.join(rep['cards'])}")
        click.echo(f"        melds {rep['total']} at trump {rep['trump']}" + (f": {melds}" if melds else ""))
    click.echo(f"Tapp:   {' '.join(deal.tapp.to_list())}")
