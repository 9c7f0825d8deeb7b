"""``binokel compare``: what differs between rule sets, side by side, with charts."""

from __future__ import annotations

import click

from binokel_sim.output import write_table
from binokel_sim.rules import load_rules

from .common import echo_table, charts_options, echo_json, json_option, out_option, quiet_option, seed_option
from .scale_options import scale_options
from .study_options import solve_budget_option
from .numbers import Whole

DEFAULT_PRESETS = ("standard", "standard-48", "four-solo", "kreuz", "wuerttemberg", "grupp")


@click.command("compare", short_help="Compare rule sets: melds, Durch and played deals.")
@click.argument("presets", nargs=-1)
@click.option("--rules", "more_rules", multiple=True,
              help="A rule set to compare (preset or TOML file); repeat it, or name presets as arguments.")
@click.option("--deals", type=Whole(1), default=20_000, show_default=True,
              help="Deals per rule set for the meld and Durch figures.")
@click.option("--played", type=Whole(0), default=0, show_default=True,
              help="Deals per rule set simulated with the auction and solved double-dummy (the auction winner's"
                   " score, contract and make rates; seconds per deal at 40 cards, up to --solve-budget per deal at"
                   " 48). Without it the double-dummy figures come from the shipped corpus of the same rules.")
@seed_option
@out_option("The long table (rules, study, figure, value, se, n, lo, hi; n2: phase 2 of a two-phase corpus) as "
            "CSV, Parquet or JSON.")
@charts_options
@json_option
@quiet_option
@scale_options
@solve_budget_option
def compare_cmd(presets: tuple[str, ...], more_rules: tuple[str, ...], deals: int, played: int, seed: int, out,
                charts, chart_format: str, as_json: bool, quiet: bool, scale, solve_budget) -> None:
    """Compare rule sets (preset names or TOML files, as arguments or --rules; default: the six main presets).

    Meld rates, mean melds, the Tapp meld gain, sure-Durch frequency; from the shipped corpus
    of the same rules (thousands of solved deals, any hand as soloist) the double-dummy total,
    make rates at typical bids, the Tapp value and makeable Durch; with --played N from simulated
    deals (auction, exchange, double-dummy play) the auction winner's score, contract and make
    rates. Every figure with its 95 % interval and n.

    \b
    Example:
      binokel compare standard kreuz grupp --deals 50000 --out compare.csv --charts charts/
    """
    from binokel_sim.analyses.compare import compare, compare_charts, wide

    rule_sets = [load_rules(p) for p in (presets + more_rules or DEFAULT_PRESETS)]
    df = compare(rule_sets, deals=deals, played=played, seed=seed, scale=scale, solve_budget=solve_budget)
    if out is not None:
        write_table(df, out)
    if charts is not None:
        compare_charts(df, charts, chart_format)
    if as_json:
        echo_json({"provenance": df.attrs, "rows": df.to_dict(orient="records")})
        return
    a = df.attrs
    click.echo(f"# compare: rules={','.join(a['rules'])} seed={a['seed']} deals={a['deals']} played={a['played']} "
               f"({a['seconds']} s, binokel-sim {a['version']})")
    click.echo("# each cell: value [95 % interval] n=sample size (Wilson for a rate, +-1.96 SE for a mean in points)")
    echo_table(wide(df))
    for name, figures in a.get("not_applicable", {}).items():
        click.echo(f"# {name}: not applicable: {'; '.join(figures)}")
