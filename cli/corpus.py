"""``binokel corpus build|phase2|info|refresh|seal``: a corpus of solved deals, built once and read by the studies."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click
import pandas as pd

from binokel_sim.corpus.builder import build_corpus
from binokel_sim.errors import InputError
from binokel_sim.play.dd import BUDGET_MIN_CARDS
from binokel_sim.exchange.candidates import POLICIES
from binokel_sim.output import write_table

from .common import (echo_json, echo_table, json_option, out_option, output_option, quiet_option, rules_option,
                     seed_option, wrapped)
from .scale_options import scale_options
from .study_options import solve_budget_option
from .numbers import MAX_CORPUS_DEALS, MAX_POINTS, Whole


#: The corpus folder argument and the --rules check that ``info`` and ``refresh`` share.
corpus_folder = click.argument("folder", type=click.Path())
check_rules_option = click.option("--rules", "rules_src", default=None,
                                  help="Check the corpus against these rules (preset or TOML).")


@click.group(short_help="Corpora of solved deals: build, extend, inspect.")
def corpus() -> None:
    """Corpora of solved deals (build, extend, inspect)."""


@corpus.command("build", short_help="Build or extend a corpus of solved deals.")
@rules_option
@click.option("--deals", type=Whole(1, MAX_CORPUS_DEALS), required=True, help="Deals the corpus should hold.")
@output_option("--out", kind="folder", help="Corpus folder (created or extended; required).")
@seed_option
@click.option("--policy", type=click.Choice(POLICIES), default=None,
              help="Exchange policy (default: heuristic; an existing corpus keeps its own).")
@click.option("--chunk-size", type=Whole(1, MAX_CORPUS_DEALS), default=None,
              help="Deals per chunk file (default 200; an existing corpus keeps its own).")
@solve_budget_option
@click.option("--within", "solve_within", type=Whole(1, MAX_POINTS), default=None, metavar="POINTS",
              help="48-card presets: prove every total to fewer than POINTS points first, whatever it costs, "
                   "then exact as far as --solve-budget allows (none: exact). 10 decides every bid.")
@json_option
@quiet_option
@scale_options
def build_cmd(rules, deals, out, seed, policy, chunk_size, solve_budget, solve_within, as_json, quiet, scale) -> None:
    """Solve deals 0..N-1 of the seed and store them; appends to an existing corpus.

    With --solve-budget (the 48-card presets) each total is proven within the budget and
    stored as an interval (lo, hi, exact); the manifest counts the unresolved deals. With
    --within 10 every total is first proven to within 10 points (fewer than 10 apart), then
    exact as far as the budget allows (the shipped 48-card corpora).

    \b
    Example:
      binokel corpus build --rules four-solo --deals 1000 --out data/corpus/four-solo --workers 2
      binokel corpus build --rules standard-48 --deals 200 --out my-corpus --solve-budget 2000000n
      binokel corpus build --rules wuerttemberg --deals 3000 --out my-corpus --within 10 --solve-budget 100000000n
    """
    if out is None:
        raise InputError("--out: give the corpus folder to create or extend")
    if solve_within is not None and solve_budget is None and rules.layout.deck_size < BUDGET_MIN_CARDS:
        raise InputError(f"--within: applies to budgeted solves (48-card presets, or with --solve-budget); "
                         f"{rules.name} deals are solved exactly")
    command = "binokel " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    m = build_corpus(rules, deals, out, seed=seed, policy=policy, chunk_size=chunk_size, scale=scale,
                     command=command, solve_budget=solve_budget, solve_within=solve_within)
    if as_json:
        echo_json({k: v for k, v in m.items() if k not in ("chunks", "rules_data")})
    elif not quiet:
        click.echo(f"corpus {out}: {m['deals']} deals, rules {m['rules']} ({m['rules_hash']}), seed {m['seed']}, "
                   f"policy {m['policy']}, {len(m['chunks'])} chunks, {m['cpu_seconds']:.0f} CPU s, unresolved "
                   f"fraction {m['unresolved_fraction']:.3f}")


@corpus.command("phase2", short_help="Build or extend a corpus's phase 2: deals decided at every bid.")
@corpus_folder
@click.option("--deals", type=Whole(1, MAX_CORPUS_DEALS), required=True, help="Deals phase 2 should hold.")
@click.option("--within", "solve_within", type=Whole(1, MAX_POINTS), default=None, metavar="POINTS",
              help="Prove every total to fewer than POINTS points (default 10: every bid decided; an existing "
                   "phase 2 keeps its own).")
@solve_budget_option(help="After every bid is decided, go on toward the exact totals until a total has taken "
                          "this many nodes (200000000n, or seconds: 10s). Default: stop once every bid is decided; "
                          "an existing phase 2 keeps its own.")
@click.option("--chunk-size", type=Whole(1, MAX_CORPUS_DEALS), default=None,
              help="Deals per chunk file (default 50; an existing phase 2 keeps its own).")
@check_rules_option
@out_option("Write phase 2's summary (deals, within, chunks, CPU seconds) to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
@scale_options
def phase2_cmd(folder, deals, solve_within, solve_budget, chunk_size, rules_src, out, as_json, quiet, scale) -> None:
    """Solve deals 0..N-1 of a budgeted corpus (the 48-card presets) until every total is known to
    within a bid step, in FOLDER/phase2, with the corpus's seed, rules and policy; the same command
    resumes it. `corpus info`, `compare` and the studies then join both phases into point figures ± SE
    (two-phase sampling).

    \b
    Example:
      binokel corpus phase2 data/corpus/wuerttemberg --deals 400 --workers 2
    """
    from binokel_sim.corpus.phases import build_phase2

    command = "binokel " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    if rules_src is not None:  # the corpus must have been built with these rules
        from binokel_sim.corpus.manifest import check_rules, read_manifest
        from binokel_sim.rules import load_rules

        check_rules(read_manifest(Path(folder)), load_rules(rules_src), folder)
    m = build_phase2(folder, deals, within=solve_within, solve_budget=solve_budget, chunk_size=chunk_size,
                     scale=scale, command=command)
    if out is not None:
        write_table(pd.DataFrame([{"corpus": str(folder), "deals": m["deals"], "within": m["solve_within"],
                                   "chunks": len(m["chunks"]), "cpu_seconds": m["cpu_seconds"]}]), out)
    if as_json:
        echo_json({k: v for k, v in m.items() if k not in ("chunks", "rules_data")})
    elif not quiet:
        click.echo(f"corpus {folder}, phase 2: {m['deals']} deals within {m['solve_within']} points, "
                   f"{len(m['chunks'])} chunks, {m['cpu_seconds']:.0f} CPU s")


@corpus.command("info", short_help="Print a corpus's manifest and headline figures.")
@corpus_folder
@check_rules_option
@out_option("Write the make rates per bid to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
def info_cmd(folder, rules_src, out, as_json, quiet) -> None:
    """The manifest and the headline figures of a corpus (each with n and a standard error).

    \b
    Example:
      binokel corpus info data/corpus/standard
    """
    from binokel_sim.corpus.manifest import read_manifest
    from binokel_sim.corpus.reader import load_corpus
    from binokel_sim.corpus.summary import headline, render_info

    if read_manifest(Path(folder)).get("play", "open") == "single-dummy":
        _sd_info(folder, rules_src, out, as_json)
        return
    c = load_corpus(folder, rules_src)
    h = headline(c)
    if out is not None:
        write_table(pd.DataFrame(h.get("make", [])), out)
    if as_json:
        echo_json({"manifest": {k: v for k, v in c.manifest.items() if k not in ("chunks", "rules_data")},
                   "headline": h})
        return
    click.echo(wrapped(render_info(c, h)))


def _sd_info(folder, rules_src, out, as_json: bool) -> None:
    """``corpus info`` of a single-dummy corpus: its settings and the study's headline figures."""
    from binokel_sim.analyses.sd_corpus import sd_headline

    m, h = sd_headline(folder, rules_src)
    if out is not None:
        write_table(pd.DataFrame(h.get("totals", [])), out)
    if as_json:
        echo_json({"manifest": {k: v for k, v in m.items() if k not in ("chunks", "rules_data")}, "headline": h})
        return
    click.echo(f"single-dummy corpus {folder}: {h['deals']} deals ({h['played']} played single-dummy), rules "
               f"{m['rules']} ({m['rules_hash']}), seed {m['seed']}, policy {m['policy']}, {m['worlds']} worlds a "
               f"decision, tolerance {m['tolerance']}, {len(m['chunks'])} chunks, {m['cpu_seconds']:.0f} CPU s")
    if not h["played"]:
        return
    click.echo("# the soloist's total: open cards, single-dummy at every seat (sd), single-dummy soloist against "
               "open-card defenders (sd_solo); paired differences")
    echo_table(pd.DataFrame(h["totals"]), "{:.2f}")
    click.echo("\n# single-dummy play fails the highest bid the open-card total makes")
    echo_table(pd.DataFrame(h["fail_share"]), "{:.4f}")
    click.echo(f"\n# more: binokel study play-gap --rules {m['rules']} --deals {h['deals']} --worlds {m['worlds']} "
               f"--seed {m['seed']} --corpus {folder}")


@corpus.command("refresh", short_help="Bring a corpus up to the current exchange policy.")
@corpus_folder
@check_rules_option
@out_option("Write the summary (rows, re-solved, new estimates, seconds) to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
@scale_options
def refresh_cmd(folder, rules_src, out, as_json, quiet, scale) -> None:
    """Bring a corpus up to the current exchange policy: re-derive every row's decisions and the
    soloist's estimate from its cards, re-solve only the rows whose decisions changed.

    The result holds the rows a fresh build would (except the kept rows' nodes and seconds).

    \b
    Example:
      binokel corpus refresh data/corpus/four-solo --workers 2
    """
    from binokel_sim.corpus.refresh import refresh_corpus

    command = "binokel " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    r = refresh_corpus(folder, scale=scale, command=command, rules=rules_src)
    if out is not None:
        write_table(pd.DataFrame([r]), out)
    if as_json:
        echo_json(r)
    elif not quiet:
        click.echo(f"corpus {folder}: {r['rows']} rows, {r['changed']} re-solved (their exchange changed), "
                   f"{r['estimates_changed']} more with a new estimate; {r['seconds']:.0f} s")


@corpus.command("seal", short_help="Check a corpus in full and add its identity digest.")
@corpus_folder
@check_rules_option
@out_option("Write the result (corpus, deals, chunks, sealed) to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
def seal_cmd(folder, rules_src, out, as_json, quiet) -> None:
    """Check every chunk of a corpus written before corpora carried an identity digest (each file whole,
    its rows the manifest's seed, rules and policy) and add the digest to its manifest; a corpus that
    carries one is only checked.

    \b
    Example:
      binokel corpus seal my-corpus
    """
    from binokel_sim.corpus.seal import seal_corpus

    r = seal_corpus(folder, rules_src)
    if out is not None:
        write_table(pd.DataFrame([r]), out)
    if as_json:
        echo_json(r)
    elif not quiet:
        done = "sealed: its identity digest is written" if r["sealed"] else "already sealed, and it checks"
        click.echo(f"corpus {folder}: {r['deals']} deals in {r['chunks']} chunks, each checked; {done}")
