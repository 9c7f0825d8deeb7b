"""``binokel deal``: one seeded deal with each hand's melds at its best trump."""

from __future__ import annotations

import click
import pandas as pd

from binokel_sim.dealing.dealer import Dealer
from binokel_sim.melds.report import meld_report
from binokel_sim.output import write_table

from .common import echo_json, json_option, out_option, quiet_option, rules_option, seed_option
from .numbers import Whole


@click.command("deal", short_help="One seeded deal: every seat's cards and melds, the Tapp.")
@rules_option
@seed_option
@click.option("--index", type=Whole(0), default=0, show_default=True,
              help="Which deal of the seed's sequence (deal i depends only on seed and i).")
@json_option
@out_option("Write one row per seat and the Tapp (cards, trump, melds) to FILE.csv, .parquet or .json.")
@quiet_option
def deal_cmd(rules, seed: int, index: int, as_json: bool, out: str | None, quiet: bool) -> None:
    """Deal one hand of RULES and show every seat's melds and the Tapp.

    \b
    Example:
      binokel deal --rules standard-48 --seed 7

    Two-hand (--rules two-hand): forehand's and the dealer's 12 cards with their melds at
    the trump of the turned card, the turned card and the talon in drawing order.
    """
    if rules.layout.kind == "talon":
        _twohand(rules, seed, index, as_json, out)
        return
    deal = Dealer(rules, seed=seed).deal_object(index)
    seats = [meld_report(h, "best", rules) for h in deal.hands]
    if out is not None:
        rows = [{"seat": str(i), "cards": " ".join(r["cards"]), "trump": r["trump"], "melds": r["total"]}
                for i, r in enumerate(seats)]
        rows.append({"seat": "tapp", "cards": " ".join(deal.tapp.to_list()), "trump": "", "melds": 0})
        write_table(pd.DataFrame(rows), out)
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


def _twohand(rules, seed: int, index: int, as_json: bool, out: str | None) -> None:
    from binokel_sim.twohand.views import deal_view

    view = deal_view(rules, seed, index)
    who = ("0 (forehand)", "1 (dealer)")
    if out is not None:
        rows = [{"seat": who[i], "cards": " ".join(r["cards"]), "trump": r["trump"], "melds": r["total"]}
                for i, r in enumerate(view["seats"])]
        rows.append({"seat": "turned", "cards": view["turned"], "trump": view["trump"], "melds": 0})
        rows.append({"seat": "talon", "cards": " ".join(view["talon"]), "trump": "", "melds": 0})
        write_table(pd.DataFrame(rows), out)
    if as_json:
        echo_json(view)
        return
    click.echo(f"rules {rules.name}, seed {seed}, deal {index}")
    for i, rep in enumerate(view["seats"]):
        melds = ", ".join(f"{m['name']}{' ' + m['suit'] if m['suit'] else ''} {m['points']}" for m in rep["melds"])
        click.echo(f"seat {who[i]}: {' '.join(rep['cards'])}")
        click.echo(f"        melds {rep['total']} at trump {rep['trump']}" + (f": {melds}" if melds else ""))
    click.echo(f"turned: {view['turned']} (trump {view['trump']}, drawn last)")
    click.echo(f"talon:  {' '.join(view['talon'])}")
