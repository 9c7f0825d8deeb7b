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
@study_options(corpus=True)
@seed_option
@click.option("--models", is_flag=True, help="Also compare richer linear models with the formula, out of sample.")
@click.option("--write", is_flag=True, help="Store the coefficients in the package's formula_coefficients.json.")
@out_option("Write the coefficients and fit statistics (one row per term) to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
@scale_options
def fit_formula_cmd(rules, deals: int | None, policy: str, seed: int, fresh: bool, corpus_dir, models: bool,
                    write: bool, out, as_json: bool, quiet: bool, scale, solve_budget) -> None:
    """Fit the soloist's double-dummy total on countable features (melds, aces, tens, trump length).

    The deals come from a matching corpus where there is one (all it holds unless --deals
    says otherwise; --fresh solves them, --corpus names another), split by deal index:
    deal i is a test deal when i mod 4 = 3, so the test error is out of sample.

    \b
    Example:
      binokel fit formula --rules standard --seed 1 --write
    """
    from binokel_sim.analyses.hand_formula import model_table, run, save
    from binokel_sim.evaluation.formula import formula_dict

    f, stats, train, test = run(rules, deals, seed, policy, scale=scale, solve_budget=solve_budget, fresh=fresh,
                                corpus=corpus_dir)
    table = model_table(rules, pd.concat([train, test])) if models else None
    if write:
        save(f)
    if out is not None:
        terms = {"intercept": f.intercept, **f.coef}
        write_table(pd.DataFrame({"term": list(terms), "coefficient": list(terms.values()), "sd": f.sd,
                                  **{k: v for k, v in stats.items()}}), out)
    if as_json:
        echo_json({"formula": formula_dict(f), "rule_of_thumb": f.rule_of_thumb(), "usable": f.usable(),
                   **({"models": table.to_dict(orient="records")} if table is not None else {})})
        return
    src = f.provenance["source"]
    click.echo(f"# hand formula: rules {rules.name}, seed {seed}, policy {policy}, {f.provenance['deals']} deals "
               f"({src['from_corpus']} from a corpus{', hash ' + src['rules_hash'] if 'rules_hash' in src else ''}, "
               f"{src['fresh']} solved); {stats['n_train']} training and {stats['n_test']} test trump deals "
               f"({f.provenance['split']})" + (" (stored)" if write else ""))
    click.echo(f"intercept {f.intercept:.1f}; " + ", ".join(f"{k} {v:+.2f}" for k, v in f.coef.items()))
    click.echo(f"R^2 train {stats['r2_train']:.3f}; {f.verdict()}; residual sd {f.sd:.1f} (test deals)")
    if f.usable():
        click.echo(f.rule_of_thumb())
    if table is not None:
        echo_table(table, "{:.3f}")


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
