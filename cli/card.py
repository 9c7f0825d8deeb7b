"""``binokel card``: which card to play at a real table, seeing only what the table showed you.

    binokel card "EA EA E10 EK EO GA G10 HA H10 SA S10 SK" --seat 0 --soloist 0 --trump E \\
        --tapp "EU GK HO SU" --discards "EU GK HO SU" --played "EA EK EU"
"""

from __future__ import annotations

import click

from .common import echo_json, json_option, out_option, quiet_option, rules_option, seed_option, show_progress
from .numbers import Whole


@click.command("card", short_help="Which card to play at a real table (single-dummy over sampled deals).")
@rules_option
@click.argument("hand")
@click.option("--seat", type=Whole(0, 7), required=True, help="Your seat (0 = forehand).")
@click.option("--soloist", type=Whole(0, 7), required=True, help="The soloist's seat.")
@click.option("--trump", required=True, help="The trump suit (E, G, H, S or a name).")
@click.option("--played", default="", help="Every card played so far, in order from the first lead ('/' between "
                                           "tricks allowed).")
@click.option("--tapp", default=None, help="The Tapp as it was turned face up.")
@click.option("--melds", default=None, metavar="CARDS / CARDS / ...",
              help="The cards each seat laid out, in seat order, '-' for none (your own are read from your hand).")
@click.option("--discards", default=None, help="Your discards, when you are the soloist; a defender's where the rules "
                                               "announce the trumps laid away (dabb): those trumps, '-' for none.")
@click.option("--leader", type=Whole(0, 7), default=None, help="The first trick's leader (default: from the rules).")
@click.option("--worlds", type=Whole(1), default=20, show_default=True,
              help="Deals of the unseen cards to sample.")
@seed_option
@click.option("--exact", is_flag=True, help="Value every legal card exactly in every sampled deal (mean +- SE); "
                                            "dearer by about the number of legal cards.")
@out_option("Write the table of cards to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
def card_cmd(rules, hand: str, seat: int, soloist: int, trump: str, played: str, tapp, melds, discards, leader,
             worlds: int, seed: int, exact: bool, out, as_json: bool, quiet: bool) -> None:
    """Which card to play, seeing only your own hand: the single-dummy player's choice.

    HAND is your hand at the first trick (the soloist's kept cards). The command draws --worlds deals of
    the cards you cannot see that fit everything the table showed you (the Tapp, the melds, the cards played
    and what they reveal), values every legal card in each with the double-dummy solver and plays the best
    mean. Values are the soloist's side's points from here on. Suit contracts only.

    \b
    Example:
      binokel card "EA EA E10 EK EO GA G10 HA H10 SA S10 SK" --seat 0 --soloist 0 --trump E \\
        --tapp "EU GK HO SU" --discards "EU GK HO SU" --played "EA EK EU"
    """
    from binokel_sim.play.advice import advise, card_json, table_view

    rules.require_auction("card advice")
    view = table_view(rules, hand, seat, soloist, trump, played, tapp, melds, discards, leader)
    a = advise(rules, view, worlds, seed, exact, progress=show_progress(quiet))
    ans = card_json(rules, view, a, soloist, exact)
    trick, nth = ans["trick"] - 1, ans["card_of_trick"] - 1
    rows = ans["cards"]
    if out is not None:
        import pandas as pd

        from binokel_sim.output import write_table

        write_table(pd.DataFrame(rows), out)
    if as_json:
        echo_json({k: v for k, v in ans.items() if k != "soloist_side"})
        return
    side = "you play on the soloist's side: higher is better" if a.soloist_side else \
        "you defend: lower is better"
    click.echo(f"# seat {seat} to play card {nth + 1} of trick {trick + 1}; soloist seat {soloist}, trump "
               f"{ans['trump']}, rules {rules.name}; {worlds} sampled deals of the {ans['unseen_cards']} cards "
               f"you cannot see (seed {seed})")
    if len(rows) == 1:
        click.echo(f"play {rows[0]['card']}: your only legal card")
        return
    click.echo(f"# value: the soloist's side's points from here on, mean over the deals ({side})")
    for r in rows:
        if exact:
            value = f"{r['mean_lo']:6.1f} ± {r['se']:4.1f}" + (
                "" if r["play"] else f"   {r['diff']:+6.1f} ± {r['diff_se']:4.1f} against {ans['play']}")
        elif r["mean_hi"] - r["mean_lo"] < 1e-9:
            value = f"{r['mean_lo']:6.1f}"
        else:
            value = f"{r['mean_lo']:6.1f} .. {r['mean_hi']:.1f}"
        click.echo(f"{r['card']:<4} {value}" + ("   <- play" if r["play"] else ""))
    if not exact:
        click.echo("# each mean proven only as far as the choice needs (a range); --exact gives every card's mean ± SE")
    click.echo("# as any sampling player it values each deal as if every later guess came out right (strategy fusion)")
