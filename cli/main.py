"""The ``binokel`` entry point.

Every user error becomes one line ``error: ...`` on stderr and exit status 2:
our :class:`InputError` and Click's usage errors alike, and an OS failure that no
command caught (a full disk, a read-only file system, a file that is not text) --
never a traceback. SIGTERM stops a run as Ctrl-C does (the finished chunks kept,
one line how to resume); a second Ctrl-C or SIGTERM during that clean-up ends the process
at once (:mod:`binokel_sim.cli.interrupts`). The command tree is built in :mod:`binokel_sim.cli.commands`.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import unicodedata
from typing import Any

import click

from binokel_sim.errors import InputError, shown
from binokel_sim.output import os_reason, remove_pending
from binokel_sim.runner import Interrupted

from . import interrupts

#: The signal that stopped the run (SIGINT unless SIGTERM came), for the exit status 128 + signal.
_STOPPED_BY = [signal.SIGINT]


def _on_sigterm(signum: int, frame: Any) -> None:
    # As Ctrl-C (cli.interrupts): the first raises KeyboardInterrupt in the main thread, which only waits on
    # the workers, so the run stops and keeps its chunks; another during the clean-up ends the process at once.
    _STOPPED_BY[0] = signal.SIGTERM
    interrupts._handler(signum, frame)


def os_error_line(exc: OSError) -> str:
    """An OS failure as one line: the file (if known) and the reason.

    >>> import errno
    >>> os_error_line(OSError(errno.EROFS, "Read-only file system", "out/t.csv"))
    "'out/t.csv': Read-only file system"
    """
    name = exc.filename if isinstance(exc.filename, (str, bytes)) else None
    return f"{shown(os.fsdecode(name), 100)}: {os_reason(exc)}" if name else os_reason(exc)


def _leave(message: str) -> None:
    """Print ``message`` and end now: abandoned chunks may still run on worker threads (never waited for),
    and the temporary files of their writes are removed first; a further Ctrl-C or SIGTERM is ignored."""
    interrupts.quiet()
    remove_pending()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass  # a closed pipe: the line on stderr still matters
    os.write(2, (message.rstrip("\n") + "\n").encode("utf-8", "replace"))
    os._exit(128 + int(_STOPPED_BY[0]))


def _has_checkpoint(args: list[str]) -> bool:
    return any(a == "--checkpoint" or a.startswith("--checkpoint=") for a in args)


def _abort_line(args: list[str]) -> str:
    """The line for a run stopped outside its chunks: how to resume only where it keeps chunks.

    >>> _abort_line(["card", "EA"])
    'interrupted before the command finished'
    """
    if _has_checkpoint(args):
        return "interrupted: run the same command again to resume from the finished chunks in its --checkpoint"
    return "interrupted before the command finished"


def _interrupted_line(exc: Interrupted, args: list[str]) -> str:
    """The line for a run stopped in its chunks: the exception's, except where the command was given a
    --checkpoint and the part stopped keeps none (seconds of work, e.g. the exact odds): then not "add --checkpoint".

    >>> _interrupted_line(Interrupted(3, 10, None, "exact odds"), ["report", "--checkpoint", "ck"])[:70]
    'interrupted: 3 of 10 chunks (exact odds) had finished, in a part that '
    """
    if type(exc) is Interrupted and not exc.checkpoint and _has_checkpoint(args):
        return (f"interrupted: {exc.counted} had finished, in a part that keeps none; run the same command again"
                " to resume from the finished chunks in its --checkpoint")
    return str(exc)


def one_line(text: str) -> str:
    """An error message as one printable line: a control character a user's value brought in (a path with a
    carriage return) is shown escaped, never obeyed by the terminal.

    >>> print(one_line("corpus " + chr(13) + ": no such folder"))
    corpus \\r: no such folder
    """
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) == "Cc" else ch for ch in text)


def as_option(text: str, argv: list[str]) -> str:
    """The library's error named as the user gave it: a message about the field ``seat`` (``seat: ...``) reads
    ``--seat: ...`` where the command line set ``--seat`` (the library checks, the CLI only names).

    >>> as_option("seat: expected 0..2, got 5", ["bid", "EA", "--seat", "5"])
    '--seat: expected 0..2, got 5'
    >>> as_option("solve_budget: too small", ["bid", "--solve-budget=3n"]), as_option("hand: 2 cards", ["bid", "EA"])
    ('--solve-budget: too small', 'hand: 2 cards')
    """
    field, sep, rest = text.partition(": ")
    if not sep or not field.isidentifier():
        return text
    flag = "--" + field.replace("_", "-")
    return f"{flag}: {rest}" if any(a == flag or a.startswith(flag + "=") for a in argv) else text


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the CLI, turning user errors into one line and exit 2."""
    from binokel_sim.provenance import set_command

    from .commands import cli

    set_command(["binokel", *(sys.argv[1:] if argv is None else argv)])
    if any("\0" in a for a in (sys.argv[1:] if argv is None else argv)):
        # No command line holds one (only a call in-process can): refused before any path meets the OS.
        click.echo("error: an argument contains a NUL character", err=True)
        sys.exit(2)
    _STOPPED_BY[0] = signal.SIGINT
    main_thread = threading.current_thread() is threading.main_thread()
    previous_int = interrupts.install()  # None off the main thread
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main_thread else None
    try:
        rv = cli.main(args=argv, prog_name="binokel", standalone_mode=False)
        sys.stdout.flush()
    except InputError as exc:
        click.echo(f"error: {one_line(as_option(str(exc), sys.argv[1:] if argv is None else argv))}", err=True)
        sys.exit(2)
    except Interrupted as exc:
        _leave(_interrupted_line(exc, sys.argv[1:] if argv is None else argv))
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        # Ctrl-C or SIGTERM outside a chunked run (between chunks, or in a command's own work).
        _leave(_abort_line(sys.argv[1:] if argv is None else argv))
    except click.ClickException as exc:
        click.echo(f"error: {one_line(exc.format_message())}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        # The reader (e.g. `head`) left early: silence the final flush too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except OSError as exc:  # an OS failure no command turned into its own message
        click.echo(f"error: {one_line(os_error_line(exc))}", err=True)
        sys.exit(2)
    except UnicodeDecodeError:
        click.echo("error: an input file is not text (UTF-8 expected)", err=True)
        sys.exit(2)
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)
            signal.signal(signal.SIGINT, signal.default_int_handler if previous_int is None else previous_int)
    sys.exit(rv if isinstance(rv, int) else 0)


if __name__ == "__main__":
    main()
