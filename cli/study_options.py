"""Options shared by the study commands (``odds tapp``, ``odds bids``): deals, policy, play, corpus."""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from binokel_sim.exchange.candidates import POLICIES


def study_options(fn: Callable) -> Callable:
    """``--deals N``, ``--policy P``, ``--melds-only`` (skip the double-dummy play), ``--fresh``, ``--corpus DIR``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    options = [
        click.option("--deals", type=click.IntRange(min=2), default=None,
                     help="Random deals to play out (default: all of a matching corpus, else 1000)."),
        click.option("--policy", type=click.Choice(POLICIES), default="heuristic", show_default=True,
                     help="Exchange policy of the soloist."),
        click.option("--melds-only", is_flag=True, help="Melds and discards only: no double-dummy play (fast)."),
        click.option("--fresh", is_flag=True, help="Solve every deal afresh, even where a matching corpus holds it."),
        click.option("--corpus", "corpus_dir", type=click.Path(), default=None,
                     help="Read solved deals from this corpus folder (its rules, seed and policy must match)."),
    ]
    for opt in reversed(options):
        wrapper = opt(wrapper)
    return wrapper
