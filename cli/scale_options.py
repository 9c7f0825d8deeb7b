"""Shared options of the long commands: ``--workers``, ``--checkpoint``, ``--scheduler``.

``@scale_options`` adds the three options and hands the command one ``scale``
argument (a :class:`binokel_sim.runner.Scale`) instead; the progress bar follows the
command's ``--quiet`` flag when it has one. None of the options changes the numbers.

    @click.command("tapp")
    @rules_option
    @seed_option
    @quiet_option
    @scale_options
    def tapp(rules, seed, quiet, scale):
        df = tapp_value(rules, seed=seed, scale=scale)
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import click

from binokel_sim.errors import InputError
from binokel_sim.output import check_output
from binokel_sim.runner import Scale, check_scheduler, require_dask

from .common import show_progress
from .numbers import Whole


def _scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    check_scheduler(value)
    require_dask()  # before any work, not when the first chunk is sent
    return value


def _checkpoint(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and value.strip() == "":
        raise InputError("--checkpoint: expected a folder path")
    check_output(value, "--checkpoint", "folder")
    return value


def scale_options(fn: Callable) -> Callable:
    """Add ``--workers N``, ``--checkpoint DIR``, ``--scheduler tcp://host:port``; pass ``scale=Scale(...)``."""

    @functools.wraps(fn)
    def wrapper(*args: Any, workers: int | None, checkpoint: str | None, scheduler: str | None, **kwargs: Any) -> Any:
        scale = Scale(
            workers=workers, checkpoint=checkpoint, scheduler=scheduler,
            progress=show_progress(bool(kwargs.get("quiet", False))),
        )
        return fn(*args, scale=scale, **kwargs)

    options = [
        click.option("--workers", type=Whole(1), default=None,
                     help="Local worker threads (default: all cores). Results do not depend on it."),
        click.option("--checkpoint", type=click.Path(file_okay=False), default=None, callback=_checkpoint,
                     help="Folder for finished chunks: a killed run started again resumes from them."),
        click.option("--scheduler", default=None, metavar="tcp://HOST:PORT", callback=_scheduler,
                     help="Run the chunks on this Dask distributed scheduler (needs the 'distributed' extra)."),
    ]
    for opt in reversed(options):
        wrapper = opt(wrapper)
    return wrapper
