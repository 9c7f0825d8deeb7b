"""The ``binokel`` entry point.

Every user error becomes one line ``error: ...`` on stderr and exit status 2:
our :class:`InputError` and Click's usage errors alike, never a traceback. The
command tree is built in :mod:`binokel_sim.cli.commands`.
"""

from __future__ import annotations

import os
import sys

import click

from binokel_sim.errors import InputError
from binokel_sim.runner import Interrupted


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning user errors into one line and exit 2."""
    from binokel_sim.provenance import set_command

    from .commands import cli

    set_command(["binokel", *(sys.argv[1:] if argv is None else argv)])
    try:
        rv = cli.main(args=argv, prog_name="binokel", standalone_mode=False)
        sys.stdout.flush()
    except InputError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except Interrupted as exc:
        # Abandoned chunks may still run on worker threads: leave without waiting for them.
        click.echo(str(exc), err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        # Ctrl-C outside a chunked run (between chunks, or in a command's own work).
        click.echo("interrupted: a command run with --checkpoint DIR resumes from its finished chunks when "
                   "started again", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(130)
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
