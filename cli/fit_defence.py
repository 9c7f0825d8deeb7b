"""``binokel fit defence``: fit the pass value (a hand's expected score when it passes) on forced-pass deals."""

from __future__ import annotations

import click

from .common import echo_json, echo_table, json_option, out_option, quiet_option, rules_option, seed_option
from .numbers import Whole
from .scale_options import scale_options
from .study_options import solve_budget_option


@click.command("defence", short_help="Fit the pass value: a hand's expected score when it passes.")
@rules_option
@click.option("--deals", type=Whole(1), default=2000, show_default=True,
              help="Deals to play; each seat passes in turn on each (one row per seat).")
@seed_option
@solve_budget_option
@click.option("--write", is_flag=True, help="Store the model in the package's pass_model.json (by rules hash).")
@out_option("Write the coefficients (one row per term) to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
@scale_options
def fit_defence_cmd(rules, deals: int, seed: int, solve_budget, write: bool, out, as_json: bool, quiet: bool,
                    scale) -> None:
    """Play DEALS deals where each seat in turn passes and the others bid to the instant tier's ceilings,
    exchange and play as the whole-game simulator does (double-dummy); fit the passing seat's score on its
    hand's features and seat (see binokel_sim.evaluation.pass_value). `binokel bid` weighs its ladder
    against it.

    \b
    Example:
      binokel fit defence --rules standard --deals 2000 --checkpoint ckpt/ --write
    """
    import time
    from dataclasses import asdict

    from binokel_sim.evaluation.margin import fit_others
    from binokel_sim.evaluation.pass_check import held_out_deciles
    from binokel_sim.evaluation.pass_value import DEFENCE_FEATURES, PAIRS, fit_defence, save_defence
    from binokel_sim.game.defence import PassRows, defence_job, opponents_of
    from binokel_sim.provenance import rules_hash

    t0 = time.perf_counter()
    job = defence_job(rules, deals, seed, solve_budget)
    rows = PassRows.join(job.run(scale, desc="forced-pass deals"))
    prov = {"deals": deals, "seed": seed, "rules": rules.name, "rules_hash": rules_hash(rules),
            "solve_budget_nodes": job.params.solve_budget,
            "ceilings": opponents_of(rules),
            "command": f"binokel fit defence --rules {rules.name} --deals {deals} --seed {seed} --write",
            "cpu_seconds": round(time.perf_counter() - t0, 1)}
    m = fit_defence(rows.hands, rows.seats, rows.scores, rules, prov, margins=rows.margins,
                    others=fit_others(rows, rules))
    where = save_defence(m) if write else None
    held = held_out_deciles(rows.hands, rows.seats, rows.scores, rules, m.quadratic, bent=m.floor_bend is not None)
    line_z = float(held_out_deciles(rows.hands, rows.seats, rows.scores, rules, False, bent=False)["z"].abs().max())
    products = [f"{DEFENCE_FEATURES[i]} x {DEFENCE_FEATURES[j]} / 100" for i, j in PAIRS] if m.quadratic else []
    terms = ["intercept", *DEFENCE_FEATURES, *products, *(f"seat {s}" for s in range(1, rules.n_seats))]
    se = [float(m.cov[i][i]) ** 0.5 for i in range(len(terms))]
    if out is not None:
        import pandas as pd

        from binokel_sim.output import write_table

        write_table(pd.DataFrame({"term": terms, "coefficient": m.coef, "se": se, "margin_coefficient": m.margin_coef,
                                  "n": m.n}), out)
    if as_json:
        echo_json({"rules_hash": m.rules_hash, "n": m.n, "residual_sd": m.sd, "mean_score": float(rows.scores.mean()),
                   "terms": dict(zip(terms, m.coef)), "margin": {"mean": float(rows.margins.mean()),
                                                                 "residual_sd": m.margin_sd,
                                                                 "terms": dict(zip(terms, m.margin_coef or []))},
                   "others": asdict(m.others), "held_out": held.to_dict(orient="records"),
                   "held_out_line_max_abs_z": line_z, "written": str(where) if where else None})
        return
    click.echo(f"# pass value: rules {rules.name}, {m.n} passing seats on {deals} deals (seed {seed}), mean score"
               f" {rows.scores.mean():.1f}, residual sd {m.sd:.1f}" + (f"; stored in {where}" if where else ""))
    for t, c, s in zip(terms, m.coef, se):
        click.echo(f"{t:>32} {c:9.3f} ± {s:.3f}")
    o = m.others
    click.echo(f"# own minus the others' mean when passing: mean {rows.margins.mean():.1f}, residual sd"
               f" {m.margin_sd:.1f}; the others' mean when the soloist plays: {o.coef[0]:.1f} {o.coef[1]:+.3f} x total"
               f" {o.coef[2]:+.3f} x his melds (sd {o.sd:.1f}, {o.n} contracts); had he gone out: the credit +"
               f" {o.out_melds:.1f} ± {o.out_melds_se:.1f} in melds ({o.n_out} contracts)")
    click.echo(f"# held out (10 folds of deals): predicted against realised by decile of the prediction; largest |z|"
               f" {held['z'].abs().max():.1f} (a line alone: {line_z:.1f})")
    echo_table(held, "{:.2f}")
