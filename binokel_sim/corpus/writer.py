"""Writing a corpus's chunks as their tasks finish: the part every corpus build shares.

A chunk runs as tasks (a few deals each) that any worker takes, in any order. :class:`ChunkWriter`
gathers a chunk's task rows and writes the chunk once its last task is in: atomically, completing
a partial chunk the manifest already holds (its rows are kept, never recomputed), with the
manifest rewritten after every chunk. After Ctrl-C, :meth:`ChunkWriter.settle` keeps the finished
tasks at the start of each chunk in flight as a partial chunk, so a resumed build loses only the
others. Used by :func:`binokel_sim.corpus.builder.build_corpus` (double-dummy solves) and the
single-dummy study's corpus.

>>> import tempfile
>>> from binokel_sim.runner import Job
>>> d, m = Path(tempfile.mkdtemp()), {"chunks": [], "builds": [{}]}
>>> jobs = [Job("demo", None, n=2, seed=1, chunk_size=1)]
>>> w = ChunkWriter(d, m, [(0, 0, 2)], jobs, lambda path, rows: {"sha256": "..."}, lambda m: None)
>>> w.collect(0, jobs[0].chunks()[1], pd.DataFrame({"deal": [1]}))   # the second task first: nothing yet
>>> w.collect(0, jobs[0].chunks()[0], pd.DataFrame({"deal": [0]}))
>>> [(c["start"], c["stop"], c["rows"]) for c in m["chunks"]]
[(0, 2, 2)]
"""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import pandas as pd

from binokel_sim.output import atomic_path
from binokel_sim.runner import Chunk, Job

from .manifest import chunk_name, held_deals, write_manifest


class ChunkWriter:
    """Chunks ``todo`` (``(chunk index, start, stop)``, one per job of ``jobs``) of the corpus in ``folder`` with
    manifest ``m``: ``stats(path, rows)`` gives a written chunk's manifest figures, ``summarise(m)`` brings the
    manifest's totals up to date; the last build record (``m["builds"][-1]``) gets the wall seconds."""

    def __init__(self, folder: Path, m: dict[str, Any], todo: Sequence[tuple[int, int, int]], jobs: Sequence[Job],
                 stats: Callable[[Path, pd.DataFrame], dict[str, Any]], summarise: Callable[[dict[str, Any]], None]):
        self.folder, self.m, self.todo, self.jobs = folder, m, todo, jobs
        self.stats, self.summarise = stats, summarise
        self.lock = threading.Lock()
        self.parts: dict[int, dict[int, pd.DataFrame]] = {}
        self.done: set[int] = set()
        self.closed = False
        self.t0 = time.perf_counter()

    def collect(self, j: int, c: Chunk, rows: pd.DataFrame) -> None:
        """A task's rows (a :func:`binokel_sim.runner.run_jobs` callback); job ``j``'s chunk is written once its
        last task is in."""
        with self.lock:
            if self.closed:  # a task still running after Ctrl-C: its chunk was settled already
                return
            got = self.parts.setdefault(j, {})
            got[c.index] = rows
            if len(got) < len(self.jobs[j].chunks()):
                return
            del self.parts[j]
        self.store(j, pd.concat([got[i] for i in range(len(got))], ignore_index=True))

    def store(self, j: int, rows: pd.DataFrame) -> None:
        """Write job ``j``'s rows as its chunk (after the rows a partial chunk of it holds) and the manifest."""
        k = self.todo[j][0]
        m = self.m
        with self.lock:
            entry = next((c for c in m["chunks"] if c["index"] == k), None)
            if entry is not None:  # complete a partial chunk: keep its rows, never recompute them
                rows = pd.concat([pd.read_parquet(self.folder / entry["file"]), rows], ignore_index=True)
                m["chunks"].remove(entry)
            path = self.folder / chunk_name(k)
            with atomic_path(path) as tmp:
                rows.to_parquet(tmp, index=False, compression="zstd")
            m["chunks"].append({"index": k, "file": path.name, "start": int(rows["deal"].iloc[0]),
                                "stop": int(rows["deal"].iloc[-1]) + 1, "rows": len(rows), **self.stats(path, rows)})
            m["chunks"].sort(key=lambda c: c["index"])
            self.summarise(m)
            m["builds"][-1]["wall_seconds"] = round(time.perf_counter() - self.t0, 1)
            write_manifest(m, self.folder)
            self.done.add(j)

    def settle(self) -> int:
        """After an interrupt: keep the finished tasks at the start of each chunk in flight (a partial chunk);
        returns the deals the corpus now holds."""
        with self.lock:
            self.closed, flight = True, list(self.parts.items())
        for j, got in flight:
            head = list(itertools.takewhile(got.__contains__, range(len(self.jobs[j].chunks()))))
            if head:
                self.store(j, pd.concat([got[i] for i in head], ignore_index=True))
        with self.lock:
            return held_deals(self.m)

    def finish(self, results: Sequence[Sequence[pd.DataFrame]] = ()) -> None:
        """The build ran to its end: store the jobs not stored by :meth:`collect` (loaded from a checkpoint
        folder) and close the build record."""
        from datetime import UTC, datetime

        for j, res in enumerate(results):
            if j not in self.done:
                self.store(j, pd.concat(res, ignore_index=True))
        self.m["builds"][-1]["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
        self.m["builds"][-1]["wall_seconds"] = round(time.perf_counter() - self.t0, 1)
        write_manifest(self.m, self.folder)
