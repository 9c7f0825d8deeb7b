"""``binokel odds bids``: the bidding table -- ceiling and safe bid by hand class."""

from __future__ import annotations

import click

from binokel_sim.analyses.bid_levels import bid_levels
from binokel_sim.errors import check_share
from binokel_sim.studies.rows import phase2_note, study_phases, study_rows
from binokel_sim.output import write_table

from .common import echo_table, echo_json, json_option, out_option, quiet_option, rules_option, seed_option, wrapped
from .scale_options import scale_options
from .study_options import study_options
from .numbers import Real, Whole


@click.command("bids", short_help="Bidding table: ceiling and safe bid by hand class.")
@rules_option
@seed_option
@study_options(corpus=True)
@click.option("--confidence", type=Real(), default=0.8, show_default=True, help="P(make) the safe bid needs (0..1).")
@click.option("--min-n", type=Whole(2), default=20, show_default=True, help="Smallest class shown.")
@out_option()
@json_option
@quiet_option
@scale_options
def odds_bids_cmd(rules, seed, deals, policy, fresh, corpus_dir, confidence, min_n, out, as_json, quiet,
                  scale, solve_budget) -> None:
    """Over random hands: the ceiling bid (E[score] > 0) and the safe bid by meld points and aces.

    \b
    Example:
      binokel odds bids --deals 5000 --out bids.csv
    """
    check_share("confidence", confidence)  # before the deals are read or solved
    df, source = study_rows(rules, deals, seed=seed, policy=policy, scale=scale, fresh=fresh, corpus=corpus_dir,
                            solve_budget=solve_budget)
    deals = len(df)
    phases = study_phases(source)
    table = bid_levels(rules, df, confidence, min_n, phases)
    if out:
        write_table(table, out)
    head = {"rules": rules.name, "seed": seed, "deals": deals, "policy": policy, "confidence": confidence}
    if as_json:
        echo_json({**head, "source": source.as_dict(), "phases": phase2_note(source, phases),
                   "table": table.to_dict(orient="records")})
        return
    click.echo(" ".join(f"{k} {v}" for k, v in head.items()))
    click.echo(wrapped(" ".join(f"{k} {v}" for k, v in source.as_dict().items())))
    note = phase2_note(source, phases)
    if note:
        click.echo(wrapped(f"# {note}"))
    echo_table(table, "{:.2f}")
