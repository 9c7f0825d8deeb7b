"""``binokel compare``: what differs between rule sets, side by side, with charts."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from binokel_sim.errors import InputError
from binokel_sim.output import table_writer, write_figure, write_table
from binokel_sim.rules import load_rules

from .common import echo_json, json_option, quiet_option, seed_option
from .main import cli
from .scale_options import scale_options

DEFAULT_PRESETS = ("standard", "standard-48", "four-solo", "kreuz", "wuerttemberg", "grupp")


@cli.command("compare")
@click.argument("presets", nargs=-1)
@click.option("--deals", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="Deals per rule set for the meld and Durch figures.")
@click.option("--played", type=click.IntRange(min=0), default=8, show_default=True,
              help="Deals per rule set simulated and solved double-dummy (the slow part: seconds per deal at 40 cards, minutes at 48; 0 skips it).")
@seed_option
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="The long table (rules, study, figure, value, se, lo, hi, n) as CSV, Parquet or JSON.")
@click.option("--charts", type=click.Path(file_okay=False), default=None, help="Folder for the charts.")
@click.option("--chart-format", type=click.Choice(["png", "svg"]), default="png", show_default=True)
@json_option
@quiet_option
@scale_options
def compare_cmd(presets: tuple[str, ...], deals: int, played: int, seed: int, out, charts, chart_format: str,
                as_json: bool, quiet: bool, scale) -> None:
    """Compare rule sets (preset names or TOML files; default: the six main presets).

    Meld rates, mean melds, the Tapp meld gain, sure-Durch frequency, and from
    simulated deals (auction, exchange, double-dummy play) the soloist's mean score,
    the makeable bid and make rates at typical bids -- every figure with its standard error.

    \b
    Example:
      binokel compare standard kreuz grupp --deals 50000 --out compare.csv --charts charts/
    """
    from binokel_sim.analyses.compare import compare, wide

    if out is not None:
        table_writer(out)
    rule_sets = [load_rules(p) for p in (presets or DEFAULT_PRESETS)]
    df = compare(rule_sets, deals=deals, played=played, seed=seed, scale=scale)
    if out is not None:
        write_table(df, out)
    if charts is not None:
        write_compare_charts(df, Path(charts), chart_format)
    if as_json:
        echo_json({"provenance": df.attrs, "rows": df.to_dict(orient="records")})
        return
    a = df.attrs
    click.echo(f"# compare: rules={','.join(a['rules'])} seed={a['seed']} deals={a['deals']} played={a['played']} "
               f"({a['seconds']} s, binokel-sim {a['version']}); value ± standard error")
    with pd.option_context("display.max_rows", None, "display.width", 250, "display.max_colwidth", 40):
        click.echo(wide(df).to_string(index=False))


def rates_title(figures: pd.Series) -> str:
    """A title naming only what the rates chart shows (with --played 0: the sure-Durch rate alone)."""
    shown = [label for key, label in (("make rate", "make rates at typical bids"), ("surrender", "surrender rate"),
                                      ("Durch played", "Durch played"), ("sure Durch", "sure Durch with the Tapp"))
             if figures.str.contains(key).any()]
    text = ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
    return text[0].upper() + text[1:]


def write_compare_charts(df: pd.DataFrame, folder: Path, fmt: str) -> list[Path]:
    """One chart per study: meld rates, mean melds and Tapp value, play figures, make rates."""
    from binokel_sim.analyses.charts import close, grouped_bars
    from binokel_sim.glossary import words
    from binokel_sim.stats import wilson_from_se

    if folder.exists() and not folder.is_dir():
        raise InputError(f"--charts: {folder} is not a folder")
    groups = {
        "meld_rates": (df["study"] == "melds") & ~df["figure"].str.contains("mean|Tapp"),
        "mean_melds": df["figure"].str.contains("mean best|Tapp meld gain"),
        "scores": df["figure"].isin(["soloist score per deal", "contract bid", "makeable bid (double dummy)"]),
        "make_rates": df["figure"].str.startswith("make rate") | df["figure"].isin(
            ["surrender rate", "Durch played", "sure Durch with the Tapp (seat 0)"]),
    }
    titles = {"meld_rates": "Meld rates of a dealt hand", "mean_melds": "Mean melds and the Tapp meld gain",
              "scores": "Soloist: score per deal, contract and makeable bid"}
    paths = []
    for name, mask in groups.items():
        part = df[mask]
        if part.empty:
            continue
        title = titles.get(name) or rates_title(part["figure"])
        part = part.assign(figure=part["figure"].map(words))
        if name in ("make_rates", "meld_rates"):  # proportions: Wilson whiskers, never below 0
            lo, hi = wilson_from_se(part["value"], part["se"], part["n"])
            fig = grouped_bars(part.assign(lo=lo, hi=hi), "figure", "rules", "value", None, title, "rate",
                               interval=("lo", "hi"))
        else:
            fig = grouped_bars(part, "figure", "rules", "value", "se", title)
        path = folder / f"{name}.{fmt}"
        write_figure(fig, path)
        close(fig)
        paths.append(path)
    return paths
