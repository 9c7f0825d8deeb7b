"""``binokel odds melds``: meld odds by Monte Carlo, optionally beside the exact values."""

from __future__ import annotations

import click

from binokel_sim.analyses.meld_odds import meld_odds_table, provenance_line
from binokel_sim.odds.monte_carlo import SCOPES
from binokel_sim.output import write_table

from .common import echo_table, echo_json, json_option, out_option, quiet_option, rules_option, seed_option
from .scale_options import scale_options
from .numbers import Whole


@click.command("melds", short_help="Meld odds, Monte Carlo beside exact, with errors.")
@rules_option
@click.option("--deals", type=Whole(1), default=1_000_000, show_default=True,
              help="Number of seeded deals.")
@seed_option
@click.option("--exact", is_flag=True, help="Also compute the exact values (combinatorics) and z-scores.")
@click.option("--no-kept", is_flag=True, help="Skip the 'kept' scope (the best discard; the slowest part).")
@out_option("Write the whole table to FILE.csv, .parquet or .json (a list of rows).")
@click.option("--pmf", "show_pmf", is_flag=True, help="Also print the meld_pmf_* rows (always in --out and --json).")
@json_option
@quiet_option
@scale_options
def odds_melds_cmd(rules, deals: int, seed: int, exact: bool, no_kept: bool, out: str | None, show_pmf: bool,
                   as_json: bool, quiet: bool, scale) -> None:
    """Probabilities of every meld and the meld-total distribution, with standard errors.

    Scopes: every seat's dealt hand ('hand'), seat 0's hand + Tapp ('hand+tapp') and
    the best meld total kept from it after discarding ('kept').

    \b
    Example:
      binokel odds melds --deals 1000000 --exact --out odds.csv
    """
    scopes = tuple(s for s in SCOPES if not (no_kept and s == "kept"))
    df = meld_odds_table(rules, deals, seed, exact=exact, scale=scale, scopes=scopes)
    if out is not None:
        write_table(df, out)
    if as_json:
        echo_json({"provenance": df.attrs, "rows": df.to_dict(orient="records")})
        return
    shown = df if show_pmf else df[~df["event"].str.startswith("meld_pmf_")]
    click.echo(provenance_line(df))
    echo_table(shown)
    if not show_pmf:
        hidden = len(df) - len(shown)
        where = f" (in {out})" if out else " (--pmf or --out)"
        click.echo(f"# {hidden} rows of the meld-total distribution (meld_pmf_*) not shown{where}")
