"""Run a job as seeded chunks over worker threads, with an optional progress bar.

A job is split into chunks that depend only on (seed, chunk range); each chunk
returns a result and the caller merges them *in chunk order*, so the numbers do
not depend on the worker count or on which chunk finished first. Kernels release
the GIL (``nogil=True``), so threads give real parallelism.

>>> run_chunks(lambda c: c.start, chunk_ranges(10, 4), workers=2)
[0, 4, 8]
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Chunk:
    """Items ``start .. stop - 1`` of a job; ``index`` is the chunk's position."""

    index: int
    start: int
    stop: int

    @property
    def size(self) -> int:
        return self.stop - self.start


def chunk_ranges(n: int, chunk_size: int) -> list[Chunk]:
    """Split ``n`` items into chunks of ``chunk_size`` (the last may be shorter)."""
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    return [Chunk(i, s, min(s + chunk_size, n)) for i, s in enumerate(range(0, n, chunk_size))]


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_chunks(
    fn: Callable[[Chunk], T],
    chunks: Sequence[Chunk],
    workers: int | None = None,
    progress: bool = False,
    desc: str = "",
) -> list[T]:
    """Apply ``fn`` to every chunk; results come back in chunk order."""
    workers = workers or default_workers()
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=sum(c.size for c in chunks), desc=desc, unit="it", unit_scale=True, leave=False)

    def run(c: Chunk) -> T:
        r = fn(c)
        if bar is not None:
            bar.update(c.size)
        return r

    try:
        if workers == 1 or len(chunks) <= 1:
            return [run(c) for c in chunks]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(run, chunks))
    finally:
        if bar is not None:
            bar.close()
