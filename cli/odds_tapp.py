"""``binokel odds tapp``: the Tapp's value, melds-only and double-dummy, overall and by hand class."""

from __future__ import annotations

import click
import pandas as pd

from binokel_sim.analyses.tapp_value import by_class, chart, distribution, summary
from binokel_sim.corpus.studies import study_rows
from binokel_sim.output import check_figure_path, table_writer, write_figure, write_table

from .common import echo_json, json_option, quiet_option, rules_option, seed_option
from .main import odds
from .scale_options import scale_options
from .study_options import study_options


@odds.command("tapp")
@rules_option
@seed_option
@study_options
@click.option("--out", type=click.Path(dir_okay=False), default=None, help="Write the by-class table (.csv, .parquet, .json).")
@click.option("--dist-out", type=click.Path(dir_okay=False), default=None, help="Write the distribution table.")
@click.option("--chart", "chart_path", type=click.Path(dir_okay=False), default=None, help="Histogram (.png, .svg, .pdf).")
@json_option
@quiet_option
@scale_options
def odds_tapp_cmd(rules, seed, deals, policy, melds_only, fresh, corpus_dir, out, dist_out, chart_path, as_json, quiet, scale) -> None:
    """Tapp value = E[result with the best exchange] - E[result with the Tapp laid away unseen].

    \b
    Example:
      binokel odds tapp --deals 2000 --out tapp.csv --chart tapp.png
    """
    for path in (out, dist_out):
        if path:
            table_writer(path)
    if chart_path:
        check_figure_path(chart_path)
    df, source = study_rows(rules, deals, seed=seed, policy=policy, play=not melds_only, scale=scale, fresh=fresh,
                            corpus=corpus_dir)
    deals = len(df)
    overall, classes, dist = summary(df), by_class(df), distribution(df)
    if out:
        write_table(classes, out)
    if dist_out:
        write_table(dist, dist_out)
    if chart_path:
        write_figure(chart(dist, f"Tapp value, {rules.name}, n = {deals}, seed {seed}"), chart_path)
    head = {"rules": rules.name, "seed": seed, "deals": deals, "policy": policy, "double_dummy": not melds_only}
    if as_json:
        echo_json({**head, "source": source, "overall": overall.to_dict(orient="records")[0],
                   "by_class": classes.to_dict(orient="records"), "distribution": dist.to_dict(orient="records")})
        return
    click.echo(" ".join(f"{k} {v}" for k, v in head.items()))
    click.echo(" ".join(f"{k} {v}" for k, v in source.items()))
    with pd.option_context("display.max_rows", None, "display.width", 200, "display.float_format", "{:.2f}".format):
        click.echo(overall.to_string(index=False))
        click.echo("")
        click.echo(classes.to_string(index=False))
