"""``binokel fit formula``: fit the hand-point formula on double-dummy deals."""

from __future__ import annotations


import click
import pandas as pd

from binokel_sim.output import write_table

from .common import (echo_json, echo_table, json_option, out_option, quiet_option, rules_option,
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
    every fourth round of deals (one deal per soloist seat) is a test round, so the test
    error is out of sample and every seat is tested.

    \b
    Example:
      binokel fit formula --rules standard --seed 1 --write
    """
    from binokel_sim.analyses.hand_formula import model_table, run, save

    f, stats, train, test = run(rules, deals, seed, policy, scale=scale, solve_budget=solve_budget, fresh=fresh,
                                corpus=corpus_dir)
    table = model_table(rules, pd.concat([train, test])) if models else None
    if write:
        save(f)
    if out is not None:
        terms = {"intercept": f.intercept, **f.coef}
        write_table(pd.DataFrame({"term": list(terms), "coefficient": list(terms.values()), "sd": f.sd,
                                  **{k: v for k, v in stats.items() if not isinstance(v, (dict, list, tuple))}}), out)
    if as_json:
        echo_json({"formula": f.to_dict(), "rule_of_thumb": f.rule_of_thumb(), "usable": f.usable(),
                   **({"models": table.to_dict(orient="records")} if table is not None else {})})
        return
    src = f.provenance["source"]
    click.echo(f"# hand formula: rules {rules.name}, seed {seed}, policy {policy}, {f.provenance['deals']} deals "
               f"({src['from_corpus']} from a corpus{', hash ' + src['rules_hash'] if 'rules_hash' in src else ''}, "
               f"{src['fresh']} solved); {stats['n_train']} training and {stats['n_test']} test trump deals "
               f"({f.provenance['split']})" + (" (stored)" if write else ""))
    click.echo(f"intercept {f.intercept:.1f}; " + ", ".join(f"{k} {v:+.2f}" for k, v in f.coef.items()))
    click.echo(f"R^2 train {stats['r2_train']:.3f}; {f.verdict()}; residual sd {f.sd:.1f} (test deals)")
    if "five_terms" in f.provenance:
        g, lo, hi = f.provenance["richer_gain"]
        r5 = f.provenance["five_terms"]["r2_test"]
        click.echo(f"all seven features predict better than the five terms (R^2 {r5:.3f} -> {stats['r2_test']:.3f}, "
                   f"gain {g:.3f}, 95 % interval {lo:.3f} .. {hi:.3f}), so the formula uses them; the rule of thumb "
                   "keeps the five terms")
    if "censored" in stats:
        c = stats["censored"]
        click.echo(f"open totals (not resolved within the solve budget): {c['train']} training and {c['test']} test "
                   f"deals, mean interval {c['mean_width']:.0f} points; fitted as {c['method']}, R^2 and sd "
                   "estimated the same way")
    if f.usable():
        click.echo(f.rule_of_thumb())
    if table is not None:
        echo_table(table, "{:.3f}")
