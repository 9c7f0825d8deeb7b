"""``binokel fit formula`` and ``binokel calibrate``: fit the hand-point formula, check its calibration."""

from __future__ import annotations

from pathlib import Path

import click
import pandas as pd

from binokel_sim.output import write_figure, write_table

from .common import (echo_table, charts_options, echo_json, json_option, out_option, quiet_option, rules_option,
                     seed_option)
from .scale_options import scale_options
from .study_options import study_options


@click.command("formula", short_help="Fit the hand-point formula on double-dummy deals.")
@rules_option
@study_options(deals=2000)
@seed_option
@click.option("--write", is_flag=True, help="Store the coefficients in the package's formula_coefficients.json.")
@out_option("Write the coefficients and fit statistics (one row per term) to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
@scale_options
def fit_formula_cmd(rules, deals: int, policy: str, seed: int, write: bool, out, as_json: bool, quiet: bool,
                    scale, solve_budget) -> None:
    """Fit the soloist's double-dummy total on countable features (melds, aces, tens, trump length).

    Training and test deals come from different streams of the seed, so the test error is
    out of sample.

    \b
    Example:
      binokel fit formula --rules standard --deals 2000 --seed 1 --write
    """
    from binokel_sim.analyses.hand_formula import run, save
    from binokel_sim.evaluation.formula import formula_dict

    f, stats, _, _ = run(rules, deals, seed, policy, scale=scale, solve_budget=solve_budget)
    if write:
        save(f)
    if out is not None:
        terms = {"intercept": f.intercept, **f.coef}
        write_table(pd.DataFrame({"term": list(terms), "coefficient": list(terms.values()), "sd": f.sd,
                                  **{k: v for k, v in stats.items()}}), out)
    if as_json:
        echo_json({"formula": formula_dict(f), "rule_of_thumb": f.rule_of_thumb()})
        return
    click.echo(f"# hand formula: rules {rules.name}, seed {seed}, {deals} training deals, policy {policy}"
               + (" (stored)" if write else ""))
    click.echo(f"intercept {f.intercept:.1f}; " + ", ".join(f"{k} {v:+.2f}" for k, v in f.coef.items()))
    click.echo(f"R^2 train {stats['r2_train']:.3f}, test {stats['r2_test']:.3f} (n = {stats['n_test']}); "
               f"sd {f.sd:.1f}")
    click.echo(f.rule_of_thumb())


@click.command("calibrate", short_help="Check the hand formula's P(make) against play outcomes.")
@rules_option
@study_options
@seed_option(default=2)
@out_option()
@charts_options
@json_option
@quiet_option
@scale_options
def calibrate_cmd(rules, deals: int, policy: str, seed: int, out, charts, chart_format: str, as_json: bool,
                  quiet: bool, scale, solve_budget) -> None:
    """Predicted P(make) of the committed hand formula against the realised make rate, by bin.

    \b
    Example:
      binokel calibrate --rules standard --deals 1000 --seed 2 --out cal.csv --charts charts/
    """
    from binokel_sim.analyses.calibration import calibrate, chart

    table = calibrate(rules, deals, seed, policy, scale=scale, solve_budget=solve_budget)
    if out is not None:
        write_table(table, out)
    if charts is not None:
        write_figure(chart(table, f"Calibration, {rules.name}, n = {deals}, seed {seed}"),
                     Path(charts) / f"calibration.{chart_format}")
    if as_json:
        echo_json({**table.attrs, "table": table.to_dict(orient="records")})
        return
    a = table.attrs
    click.echo(f"# calibration: rules {a['rules']}, seed {a['seed']}, {a['deals']} deals, policy {a['policy']}; "
               f"largest gap {a['max_abs_gap']:.3f}")
    echo_table(table, "{:.3f}")
