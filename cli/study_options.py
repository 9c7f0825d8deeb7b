"""Options shared by the study commands (``odds tapp``, ``odds bids``): deals, policy, play."""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from binokel_sim.exchange.candidates import POLICIES


def study_options(fn: Callable) -> Callable:
    """``--deals N``, ``--policy P``, ``--melds-only`` (skip the double-dummy play)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    options = [
        click.option("--deals", type=click.IntRange(min=2), default=1000, show_default=True,
                     help="Random deals to play out."),
        click.option("--policy", type=click.Choice(POLICIES), default="heuristic", show_default=True,
                     help="Exchange policy of the soloist."),
        click.option("--melds-only", is_flag=True, help="Melds and discards only: no double-dummy play (fast)."),
    ]
    for opt in reversed(options):
        wrapper = opt(wrapper)
    return wrapper
