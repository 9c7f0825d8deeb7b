"""A second Ctrl-C during the first one's clean-up ends the process at once, quietly.

The first Ctrl-C raises ``KeyboardInterrupt`` as Python's own handler does, so a run stops
its workers and prints one line saying what was kept. A second one while that clean-up runs
(a user pressing twice, or ``timeout -s INT`` sending it again) would raise a second
``KeyboardInterrupt`` inside the clean-up: a traceback from wherever it lands (``click.echo``,
a pool's shutdown). After :func:`install`, every Ctrl-C after the first ends the process with
exit status 130 and, unless the first one's line is already out, the one line
``interrupted``; :func:`leave` prints that line itself, ignoring Ctrl-C while it does.

The entry point calls :func:`install` before the command runs (restoring the previous handler
after it) and :func:`quiet` first thing where it reports an interrupted run; :func:`leave` is
both for a script of its own.

>>> _STATE["said"]
False
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from typing import NoReturn

#: Ctrl-Cs seen, and whether the interrupted run's line was printed.
_STATE = {"count": 0, "said": False}


def _handler(signum, frame) -> None:
    _STATE["count"] += 1
    if _STATE["count"] == 1:
        raise KeyboardInterrupt
    if not _STATE["said"]:
        os.write(2, b"interrupted\n")
    os._exit(130)


def install():
    """Handle Ctrl-C as described in the module docstring; returns the handler it replaced (restore it
    with ``signal.signal(signal.SIGINT, previous)`` when the command is done). Only the main thread can
    install a handler: elsewhere nothing changes and None comes back."""
    if threading.current_thread() is not threading.main_thread():
        return None
    _STATE.update(count=0, said=False)
    return signal.signal(signal.SIGINT, _handler)


def quiet() -> None:
    """The interrupted run is about to print its line and end: any further Ctrl-C (or SIGTERM) is ignored,
    and the line counts as said. The first statement of the entry point's exit path."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _STATE["said"] = True


def leave(message: str) -> NoReturn:
    """:func:`quiet`, then print ``message`` (the interrupted run's one line) on stderr and end the process
    with status 130. Worker threads may still run: nothing waits for them."""
    quiet()
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass  # a closed pipe or stream: the line on stderr still matters
    os.write(2, (message.rstrip("\n") + "\n").encode("utf-8", "replace"))
    os._exit(130)
