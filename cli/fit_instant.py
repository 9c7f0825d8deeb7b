"""``binokel fit instant``: fit the instant tier of ``binokel bid`` on a corpus of solved deals."""

from __future__ import annotations

import click

from .common import echo_json, json_option, out_option, quiet_option, rules_option


@click.command("instant", short_help="Fit the instant bid model on a corpus of solved deals.")
@rules_option
@click.option("--corpus", "corpus_dir", type=click.Path(file_okay=False), default=None,
              help="Corpus folder (default: the shipped corpus built with these rules).")
@click.option("--ladder", type=click.Choice(["line", "drawn"]), default="drawn", show_default=True,
              help="drawn: Tapps drawn per hand through the exchange, the play as residuals (a corpus with every"
                   " total exact and the heuristic exchange; elsewhere the line, and the output says so; with"
                   " --write the held-out deals' answers are stored for calibrate); line: the features' line and"
                   " its pooled residuals.")
@click.option("--play", type=click.Choice(["double-dummy", "single-dummy"]), default="double-dummy",
              show_default=True, help="single-dummy: the model of bid --play single-dummy, fitted on the training"
                                      " deals of the single-dummy corpus (--corpus, default the shipped one).")
@click.option("--write", is_flag=True, help="Store the model in the package's instant_model.json (by rules hash;"
                                            " instant_model_sd.json with --play single-dummy).")
@out_option("Write the coefficients (one row per term) to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
def fit_instant_cmd(rules, corpus_dir, ladder: str, play: str, write: bool, out, as_json: bool, quiet: bool
                    ) -> None:
    """Fit the soloist's total on the hand's features and seat, keeping the residuals (see
    :mod:`binokel_sim.evaluation.instant`), on the corpus deals not held out for calibration.

    \b
    Example:
      binokel fit instant --rules standard --write
      binokel fit instant --rules standard --play single-dummy --write
    """
    from binokel_sim.corpus.reader import find_corpus, load_corpus, shipped_label
    from binokel_sim.errors import InputError
    from binokel_sim.corpus.phases import instant_split, load_phases
    from binokel_sim.evaluation.instant import fit_instant, save_instant

    if play == "single-dummy":
        from binokel_sim.analyses.sd_instant import SHIPPED, fit_sd, read_sd

        paired = read_sd(rules, corpus_dir)
        m, test = fit_sd(rules, paired, ladder=ladder)
        folder, n_train = corpus_dir or SHIPPED, int(m.provenance["n_tapp"])  # the training deals, specials too
        n_all, to_store = n_train + len(test), len(test)
    else:
        folder = corpus_dir or find_corpus(rules)
        if folder is None:
            raise InputError(f"no shipped corpus for rules {rules.name!r}: give --corpus DIR (binokel corpus build)")
        c = load_corpus(folder, rules)
        ph = load_phases(c)  # a two-phase corpus: decided deals train the line and are the held-out ones
        split = instant_split(c, rules.n_seats, ph.n2 if ph is not None else None)
        train = split.train
        deals = f"{len(train)} of {c.n}: all but the held-out ones ({split.which}), kept for calibration"
        extra = {} if split.phase2 is None else {
            "phase2_deals": split.phase2, "phase2_train": int((train["deal"].to_numpy() < split.phase2).sum())}
        m = fit_instant(train, rules, {**c.provenance(), "corpus": shipped_label(folder), "deals": deals, **extra},
                        seed=int(c.manifest.get("seed", 1)), ladder=ladder)
        n_all, n_train, to_store = c.n, len(train), len(split.test)
    where = save_instant(m) if write else None
    if where is not None and m.drawn and to_store >= 2:
        # Scoring the drawn ladder on every held-out deal takes minutes: stored once, read by calibrate (with
        # --play single-dummy also the further deals whose open-card outcomes sharpen its calibration).
        from binokel_sim.analyses.calibration import store_held_out
        from binokel_sim.analyses.sd_calibration import store_sd

        from .common import show_progress

        if play == "single-dummy":
            store_sd(rules, m, paired, progress=show_progress(quiet))
        else:
            store_held_out(rules, m, folder, progress=show_progress(quiet))
    if out is not None:
        import pandas as pd

        from binokel_sim.evaluation.features import FEATURES
        from binokel_sim.output import write_table

        terms = ["intercept", *FEATURES, *(f"seat {s}" for s in range(len(m.seat)))]
        write_table(pd.DataFrame({"term": terms, "coefficient": [m.intercept, *m.coef, *m.seat],
                                  "n": m.provenance["n_train"]}), out)
    p = m.provenance
    if as_json:
        echo_json({"rules_hash": m.rules_hash, "n_train": p["n_train"], "residual_sd": p["residual_sd"],
                   "estimate_error": dict(zip(("intercept", "slope", "sd", "n"), m.estimate_error)),
                   "written": str(where) if where else None})
        return
    how = ", single-dummy play" if m.play == "single-dummy" else ""
    click.echo(f"# instant model{how}: rules {rules.name} (hash {m.rules_hash}), {p['n_train']} trump deals of"
               f" {n_train} training deals ({n_all} in {shipped_label(folder)}, the rest held out); residual sd"
               f" {p['residual_sd']:.1f}" + (f"; stored in {where}" if where else ""))
    click.echo(f"# ladder: {p['ladder']}")
    click.echo(f"# going out weighs the soloist's estimate with {m.going_out_error.describe()}")
