"""``binokel odds tapp``: the Tapp's value, melds-only and double-dummy, overall and by hand class."""

from __future__ import annotations

from pathlib import Path

import click

from binokel_sim.analyses.tapp_value import by_class, chart, distribution, summary
from binokel_sim.studies.rows import phase2_note, study_phases, study_rows
from binokel_sim.output import write_figure, write_table

from .common import (charts_options, echo_json, echo_table, json_option, out_option, output_option, quiet_option,
                     rules_option, seed_option, wrapped)
from .scale_options import scale_options
from .study_options import study_options


@click.command("tapp", short_help="The Tapp's value: best exchange against the Tapp laid away unseen.")
@rules_option
@seed_option
@study_options(melds_only=True, corpus=True)
@out_option("Write the by-class table to FILE.csv, .parquet or .json.")
@output_option("--dist-out", help="Write the distribution table to FILE.csv, .parquet or .json.")
@charts_options
@json_option
@quiet_option
@scale_options
def odds_tapp_cmd(rules, seed, deals, policy, melds_only, fresh, corpus_dir, out, dist_out, charts, chart_format,
                  as_json, quiet, scale, solve_budget) -> None:
    """Tapp value = E[result with the best exchange] - E[result with the Tapp laid away unseen].

    \b
    Example:
      binokel odds tapp --deals 2000 --out tapp.csv --charts charts/
    """
    df, source = study_rows(rules, deals, seed=seed, policy=policy, play=not melds_only, scale=scale, fresh=fresh,
                            corpus=corpus_dir, solve_budget=solve_budget)
    deals = len(df)
    phases = None if melds_only else study_phases(source)
    overall, classes, dist = summary(df, phases), by_class(df, phases), distribution(df)
    if out:
        write_table(classes, out)
    if dist_out:
        write_table(dist, dist_out)
    if charts:
        write_figure(chart(dist, f"What the Tapp is worth, {rules.display_name}: {deals:,} deals (seed {seed})"),
                     Path(charts) / f"tapp_value.{chart_format}")
    head = {"rules": rules.name, "seed": seed, "deals": deals, "policy": policy, "double_dummy": not melds_only}
    if as_json:
        echo_json({**head, "source": source.as_dict(), "phases": phase2_note(source, phases),
                   "overall": overall.to_dict(orient="records")[0],
                   "by_class": classes.to_dict(orient="records"), "distribution": dist.to_dict(orient="records")})
        return
    click.echo(" ".join(f"{k} {v}" for k, v in head.items()))
    click.echo(wrapped(" ".join(f"{k} {v}" for k, v in source.as_dict().items())))
    from binokel_sim.glossary import FIGURES

    for name in ("Tapp value (melds only)",) + (() if melds_only else ("Tapp value (double-dummy)",)):
        click.echo(wrapped(f"# {name}: {FIGURES[name]}"))
    click.echo(wrapped("# Tapp value (melds only) / (double-dummy): not the Tapp meld gain of `binokel compare`"
                       " (melds kept - melds dealt)"))
    note = None if melds_only else phase2_note(source, phases)
    if note:
        click.echo(wrapped(f"# {note}"))
    echo_table(overall, "{:.2f}")
    click.echo("")
    echo_table(classes, "{:.2f}")
