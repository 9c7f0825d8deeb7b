"""Shared pieces of the Click commands: options, error handling, progress, output."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click

from binokel_sim.errors import InputError
from binokel_sim.rules import Rules, load_rules


def rules_option(fn: Callable) -> Callable:
    """``--rules PRESET|FILE.toml`` (default ``standard``), parsed into a :class:`Rules`."""

    def convert(ctx: click.Context, param: click.Parameter, value: str) -> Rules:
        return load_rules(value)

    return click.option(
        "--rules", "rules", default="standard", show_default=True, callback=convert,
        help="Rules preset name, or path to a TOML file that may inherit from a preset.",
    )(fn)


def seed_option(fn: Callable) -> Callable:
    return click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
                        help="Random seed; the same seed gives the same numbers.")(fn)


def json_option(fn: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(fn)


def quiet_option(fn: Callable) -> Callable:
    return click.option("--quiet", "-q", is_flag=True, help="No progress bar.")(fn)


def workers_option(fn: Callable) -> Callable:
    return click.option("--workers", type=click.IntRange(min=1), default=None,
                        help="Worker threads (default: all cores). Results do not depend on it.")(fn)


def show_progress(quiet: bool) -> bool:
    """Progress goes to stderr only when it is a terminal and --quiet is not given."""
    return not quiet and sys.stderr.isatty()


def echo_json(obj: Any) -> None:
    from binokel_sim.output import _json_default

    click.echo(json.dumps(obj, indent=2, default=_json_default))


def fail(message: str) -> None:
    """Raise the one-line user error (exit 2)."""
    raise InputError(message)
