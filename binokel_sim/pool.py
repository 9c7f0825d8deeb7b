"""A thread pool the main thread only waits on, so Ctrl-C reaches it at once.

:func:`wait_all` runs a function over items on worker threads; on Ctrl-C it cancels
what has not started, abandons what runs (a thread cannot be stopped: the CLI ends the
process with ``os._exit``) and raises :class:`Interrupted`, whose message says what was
kept and how to resume. :mod:`binokel_sim.runner` runs every chunked job through it.

>>> wait_all(lambda x: x * x, [1, 2, 3], workers=2)
[1, 4, 9]
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Sequence


class Interrupted(Exception):
    """Ctrl-C during a run: the message says what was kept and how to resume.

    Worker threads of the abandoned chunks may still be running: whoever catches this
    must end the process with ``os._exit`` (a normal exit would wait for them).
    """

    def __init__(self, done: int, total: int, checkpoint: str | os.PathLike | None, what: str = ""):
        self.done, self.total, self.checkpoint, self.what = done, total, checkpoint, what
        if checkpoint:
            how = f"{self.counted} kept in {os.fspath(checkpoint)}; run the same command again to resume"
        else:
            how = f"{self.counted} had finished (not kept); add --checkpoint DIR to make a long run resumable"
        super().__init__(f"interrupted: {how}")

    @property
    def counted(self) -> str:
        """The chunks finished, and of what work.

        >>> Interrupted(12, 195, "ck", "instant tier").counted
        '12 of 195 chunks (instant tier)'
        """
        return f"{self.done} of {self.total} chunks" + (f" ({self.what})" if self.what else "")


class _Skipped(Exception):
    """A chunk not started because an earlier one failed."""


def wait_all(fn: Callable[[Any], Any], items: Sequence[Any], workers: int, checkpoint=None,
             already: int = 0, total: int | None = None, what: str = "") -> list[Any]:
    """``[fn(x) for x in items]`` on ``workers`` threads, the main thread only waiting (so Ctrl-C
    reaches it at once). On Ctrl-C the waiting chunks are cancelled, the running ones abandoned,
    and :class:`Interrupted` raised (``checkpoint``: where the finished ones are kept, None: nowhere;
    ``what``: the work's name in its message); on an error the waiting chunks are cancelled and the
    running ones finish (and are stored) before it is raised."""
    stop = threading.Event()

    def guarded(x: Any) -> Any:
        # After a failure or Ctrl-C no further chunk starts (a queued one may already be dequeued).
        if stop.is_set():
            raise _Skipped()
        try:
            return fn(x)
        except BaseException:
            stop.set()
            raise

    pool = ThreadPoolExecutor(max_workers=max(1, workers))
    futures = [pool.submit(guarded, x) for x in items]
    try:
        out = [f.result() for f in futures]
    except KeyboardInterrupt:
        stop.set()
        pool.shutdown(wait=False, cancel_futures=True)
        done = sum(1 for f in futures if f.done() and not f.cancelled() and f.exception() is None)
        raise Interrupted(already + done, total if total is not None else len(items), checkpoint, what) from None
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return out
