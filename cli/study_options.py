"""Options shared by the study commands (``odds tapp``, ``odds bids``, ``fit formula``, ``calibrate``)."""

from __future__ import annotations

from typing import Callable

import click
from .numbers import Whole

from binokel_sim.play.dd import DEFAULT_BUDGET_NODES, budget_nodes_of
from binokel_sim.exchange.candidates import POLICIES


_BUDGET_HELP = ("Per-deal solver budget at 48 cards: nodes (50000000n) or seconds (10s, converted to nodes, "
                f"reproducible). Default {DEFAULT_BUDGET_NODES}n; unresolved deals are reported as ranges; given for "
                "a smaller deck it applies there too.")


def solve_budget_option(f: Callable | None = None, *, help: str = _BUDGET_HELP) -> Callable:
    """``--solve-budget 10s|50000000n`` -> ``solve_budget`` (nodes per solve, or None: the default); ``help``: the
    option's text where a command reads the budget its own way (``corpus phase2``)."""
    option = click.option("--solve-budget", "solve_budget", default=None, metavar="BUDGET",
                          callback=lambda ctx, param, v: budget_nodes_of(v), help=help)
    return option if f is None else option(f)


def study_options(fn: Callable | None = None, *, deals: int = 1000, melds_only: bool = False,
                  corpus: bool = False) -> Callable:
    """``--deals N``, ``--policy P`` and ``--solve-budget``; with ``melds_only``, also ``--melds-only`` (no play);
    with ``corpus``, also ``--fresh`` and ``--corpus DIR`` (read solved deals from a matching corpus)."""

    def deco(f: Callable) -> Callable:
        f = solve_budget_option(f)
        if corpus:
            f = click.option("--corpus", "corpus_dir", type=click.Path(), default=None,
                             help="Read solved deals from this corpus folder (rules, seed and policy must match).")(f)
            f = click.option("--fresh", is_flag=True,
                             help="Solve every deal afresh, even where a matching corpus holds it.")(f)
        if melds_only:
            f = click.option("--melds-only", is_flag=True,
                             help="Melds and discards only: no double-dummy play (fast).")(f)
        f = click.option("--policy", type=click.Choice(POLICIES), default="heuristic", show_default=True,
                         help="Exchange policy of the soloist.")(f)
        if corpus:  # the default is what a matching corpus holds
            return click.option("--deals", type=Whole(2), default=None,
                                help=f"Random deals to play out (default: all of a matching corpus, else {deals}).")(f)
        return click.option("--deals", type=Whole(2), default=deals, show_default=True,
                            help="Random deals to play out.")(f)

    return deco(fn) if fn is not None else deco
