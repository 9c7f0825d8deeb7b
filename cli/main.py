"""The ``binokel`` command group and its entry point.

Every user error becomes one line ``error: ...`` on stderr and exit status 2:
our :class:`InputError` and Click's usage errors alike, never a traceback.
"""

from __future__ import annotations

import os
import sys

import click

from binokel_sim import __version__
from binokel_sim.errors import InputError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="binokel")
def cli() -> None:
    """binokel-sim: meld odds, double-dummy play, hand evaluation and reports for Binokel."""


@cli.group()
def odds() -> None:
    """Monte Carlo and exact studies (meld odds, Tapp value, bid levels)."""


@cli.group()
def simulate() -> None:
    """Whole-game simulation."""


def _register() -> None:
    # Each command lives in its own module; importing it attaches it to the group.
    from . import commands  # noqa: F401


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning user errors into one line and exit 2."""
    _register()
    try:
        rv = cli.main(args=argv, prog_name="binokel", standalone_mode=False)
        sys.stdout.flush()
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("error: aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        # The reader (e.g. `head`) left early: silence the final flush too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
