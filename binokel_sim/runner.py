"""Run long jobs as seeded chunks: threads, a checkpoint folder, or a Dask cluster.

A job is split into chunks of a fixed size that never depends on the worker count;
chunk ``i`` covers items ``start .. stop - 1`` and its result depends only on
(seed, rules, parameters, start, stop). Results come back *in chunk order*, so the
numbers are the same for any worker count, on one machine or on a cluster.

- ``workers``: local worker threads (kernels release the GIL, so threads scale).
- ``checkpoint``: a folder; each finished chunk is stored there atomically, as data with a
  checksum (:mod:`binokel_sim.checkpoint`), under a key derived from (job name, parameters,
  rules, seed, chunk size, chunk range, the solver's and the code's versions). A killed run
  started again loads the finished chunks instead of recomputing them; a changed parameter
  or code gives a different key, so stale chunks are never reused; a damaged one is recomputed.
- ``scheduler``: ``tcp://host:port`` of a ``dask.distributed`` scheduler; the same
  chunk function runs on its workers (install the ``distributed`` extra).

Ctrl-C: chunks always run on worker threads while the main thread waits, so the
interrupt reaches it at once; chunks in flight are abandoned (their threads cannot be
stopped, so the CLI ends the process with ``os._exit``), finished ones are already in the
checkpoint, and :class:`Interrupted` carries the one-line message how to resume.

>>> run_chunks(lambda c: c.start, chunk_ranges(10, 4), workers=2)
[0, 4, 8]
>>> job = Job("demo", _demo_chunk, n=10, seed=1, chunk_size=4)
>>> job.run(Scale(workers=2))
[6, 22, 17]
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any, Callable, Mapping, Sequence, TypeVar

from binokel_sim._version import __version__
from binokel_sim.checkpoint import Checkpoint
from binokel_sim.dask_link import check_scheduler, connect, require_dask, run_dask as _run_dask
from binokel_sim.errors import InputError
from binokel_sim.pool import Interrupted, wait_all as _wait_all
from binokel_sim import versions

__all__ = ["Chunk", "Checkpoint", "Interrupted", "Job", "Scale", "check_scheduler", "chunk_ranges", "connect",
           "join_rows", "require_dask", "run_chunks", "run_job", "run_jobs", "run_local_chunks"]

T = TypeVar("T")

#: Bump when a chunk's stored form changes, so old checkpoints are not read back.
CHECKPOINT_FORMAT = 2


@dataclass(frozen=True)
class Chunk:
    """Items ``start .. stop - 1`` of a job; ``index`` is the chunk's position."""

    index: int
    start: int
    stop: int

    @property
    def size(self) -> int:
        return self.stop - self.start


#: Most chunks one job is split into: the list is planned up front, so a count of 10^15 deals in chunks of 4
#: is refused in one line rather than filling the memory.
MAX_CHUNKS = 1_000_000


def chunk_ranges(n: int, chunk_size: int) -> list[Chunk]:
    """Split ``n`` items into chunks of ``chunk_size`` (the last may be shorter); at most :data:`MAX_CHUNKS`.

    >>> chunk_ranges(5, 2)[-1]
    Chunk(index=2, start=4, stop=5)
    >>> chunk_ranges(10**15, 4)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: 1000000000000000 items in chunks of 4 make more than 1000000 chunks: ask for fewer
    """
    if chunk_size < 1:
        raise ValueError("chunk_size must be positive")
    if -(-n // chunk_size) > MAX_CHUNKS:
        raise InputError(f"{n} items in chunks of {chunk_size} make more than {MAX_CHUNKS} chunks: ask for fewer")
    return [Chunk(i, s, min(s + chunk_size, n)) for i, s in enumerate(range(0, n, chunk_size))]


def default_workers() -> int:
    """All cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


class _Progress:
    """A tqdm bar over items (not chunks), or nothing; safe to update from threads. ``report(done, total)``:
    also called after each update (a web page's progress)."""

    def __init__(self, enabled: bool, total: int, desc: str, report: Callable[[int, int], None] | None = None):
        self.bar = None
        self.lock = threading.Lock()
        self.total, self.report = total, report
        self.done = 0  # items reported finished, with or without a bar
        if enabled:
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, unit="it", unit_scale=True, leave=False)

    def update(self, n: int) -> None:
        with self.lock:
            self.done += n
            if self.bar is not None:
                self.bar.update(n)
            if self.report is not None:
                self.report(self.done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def run_chunks(
    fn: Callable[[Chunk], T],
    chunks: Sequence[Chunk],
    workers: int | None = None,
    progress: bool = False,
    desc: str = "",
) -> list[T]:
    """Apply ``fn`` to every chunk on local threads; results come back in chunk order."""
    workers = workers or default_workers()
    bar = _Progress(progress, sum(c.size for c in chunks), desc)

    def run(c: Chunk) -> T:
        r = fn(c)
        bar.update(c.size)
        return r

    try:
        return _wait_all(run, chunks, min(workers, max(len(chunks), 1)), what=desc)
    finally:
        bar.close()


def run_local_chunks(fn: Callable[[Chunk], T], chunks: Sequence[Chunk], scale: "Scale | None" = None, desc: str = "",
                     what: str = "this computation", key: Mapping[str, Any] | None = None) -> list[T]:
    """``[fn(c) for c in chunks]`` under a :class:`Scale` (its workers, progress bar and checkpoint) for work
    that is not a :class:`Job` (a closure over arrays); results in chunk order.

    ``key``: what every chunk's result depends on besides its range, JSON-ready (e.g. digests of the input
    arrays, the rules hash, the model's identity); with it, ``scale.checkpoint`` keeps each finished chunk
    under ``desc`` and ``key`` (and the package's, solver's and ``fn``'s code versions, as :meth:`Job.identity`).
    Without a key a checkpoint is refused, and a scheduler always (a closure does not travel): never silently
    ignored. ``what`` names the work in that refusal; ``desc`` on the progress bar and in an interrupt.

    >>> run_local_chunks(lambda c: c.stop, chunk_ranges(5, 2), Scale(workers=1), key={"demo": 1})
    [2, 4, 5]
    """
    scale = scale or Scale()
    if scale.scheduler or (scale.checkpoint and key is None):
        raise InputError(f"{what} runs on local threads only: a {'scheduler' if scale.scheduler else 'checkpoint'}"
                         " does not apply")
    work = _Closure(re.sub(r"[^a-z0-9]+", "-", desc.lower()).strip("-") or "chunks", fn, tuple(chunks), key)
    return run_jobs([work], scale, desc)[0]


@dataclass(frozen=True, eq=False)
class _Closure:
    """A closure's chunks as the job-like object :func:`run_jobs` and :class:`Checkpoint` take: ``name``, the
    given ``chunks()``, an :meth:`identity` from the caller's ``params`` (its key) and the code versions."""

    name: str
    call: Callable[[Chunk], Any]
    given: tuple[Chunk, ...]
    params: Any = None

    @staticmethod
    def fn(work: Any, chunk: Chunk) -> Any:  # called as run_jobs calls a Job's: fn(job, chunk)
        return work.call(chunk)

    def chunks(self) -> list[Chunk]:
        return list(self.given)

    def identity(self) -> dict[str, Any]:
        return {"job": self.name, "params": _canonical(self.params), "version": __version__,
                "solver": versions.solver_version(), "code": versions.code_version(self.call),
                "format": CHECKPOINT_FORMAT}

    def key(self) -> str:
        return _digest(self.identity())


# --------------------------------------------------------------------------- jobs


@dataclass(frozen=True)
class Scale:
    """Where and how a job runs; none of it changes the numbers.

    >>> Scale(workers=2).describe()
    'local, 2 workers'
    """

    workers: int | None = None
    checkpoint: str | os.PathLike | None = None
    scheduler: str | None = None
    progress: bool = False
    #: Called with (items done, items in all) as chunks finish, bar or not (e.g. a web job's progress).
    report: Callable[[int, int], None] | None = None

    def describe(self) -> str:
        where = f"dask {self.scheduler}" if self.scheduler else f"local, {self.workers or default_workers()} workers"
        return where + (f", checkpoint {os.fspath(self.checkpoint)}" if self.checkpoint else "")


def _canonical(obj: Any) -> Any:
    """A JSON-ready form of job parameters (tuples as lists, numpy scalars as numbers; a dataclass as the
    mapping of its fields, those at None left out, so an option that is not set leaves the key as before it existed)."""
    import numpy as np

    if is_dataclass(obj) and not isinstance(obj, type):
        return _canonical({k: v for k, v in asdict(obj).items() if v is not None})
    if isinstance(obj, Mapping):
        return {str(k): _canonical(v) for k, v in sorted(obj.items(), key=lambda kv: str(kv[0]))}
    if isinstance(obj, (list, tuple)):
        return [_canonical(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return _canonical(obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise TypeError(f"job parameter of type {type(obj).__name__} cannot be part of a checkpoint key")


def _digest(identity: Mapping[str, Any]) -> str:
    """A short hex digest of a JSON-ready identity: a job's folder in a checkpoint."""
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass(frozen=True)
class Job:
    """A long computation as seeded chunks: ``fn(job, chunk)`` returns chunk ``chunk``'s result.

    ``fn`` must be a top-level function (so it pickles for Dask and for another
    process), deterministic in (``job.seed``, ``job.rules``, ``job.params``,
    ``chunk.start``, ``chunk.stop``). ``params``: the job kind's parameters, a frozen
    dataclass of plain values (numbers, strings, tuples, dataclasses), or a mapping of them;
    they are part of the checkpoint key. ``chunk_size`` is fixed by
    the job, never by the worker count.
    """

    name: str
    fn: Callable[["Job", Chunk], Any]
    n: int
    seed: int
    rules: Any = None
    params: Any = field(default_factory=dict)
    chunk_size: int = 10_000

    def __post_init__(self) -> None:
        if self.n < 0:
            raise ValueError("n must not be negative")
        if self.chunk_size < 1:
            raise ValueError("chunk_size must be positive")

    def chunks(self) -> list[Chunk]:
        return chunk_ranges(self.n, self.chunk_size)

    def identity(self) -> dict[str, Any]:
        """Everything a chunk's result depends on, except its range (JSON-ready): with the solver's and
        the code's content hashes, so a checkpoint made by other code is recomputed, never reused."""
        rules = self.rules.to_dict() if hasattr(self.rules, "to_dict") else _canonical(self.rules)
        return {
            "job": self.name,
            "params": _canonical(self.params),
            "rules": rules,
            "seed": int(self.seed),
            "chunk_size": int(self.chunk_size),
            "version": __version__,
            "solver": versions.solver_version(),
            "code": versions.code_version(self.fn),
            "format": CHECKPOINT_FORMAT,
        }

    def key(self) -> str:
        """Hex digest of :meth:`identity`: the job's folder in a checkpoint."""
        return _digest(self.identity())

    def chunk_key(self, chunk: Chunk) -> str:
        """Unique name of one chunk's result (job key, chunk index and range)."""
        return f"{self.name}-{self.key()}-{chunk.index:06d}-{chunk.start}-{chunk.stop}"

    def run(self, scale: Scale | None = None, desc: str | None = None) -> list[Any]:
        """All chunk results in chunk order, computed per ``scale`` (see :func:`run_job`)."""
        return run_job(self, scale or Scale(), desc=desc)


def run_job(job: Job, scale: Scale, desc: str | None = None) -> list[Any]:
    """Run ``job``'s chunks per ``scale``; results in chunk order, identical for any ``scale``."""
    return run_jobs([job], scale, desc or job.name)[0]


def run_jobs(jobs: Sequence["Job | _Closure"], scale: Scale, desc: str = "jobs",
             on_result: Callable[[int, Chunk, Any], None] | None = None) -> list[list[Any]]:
    """Run the chunks of several jobs in one pool (one progress bar); per job, its results in
    chunk order -- the same numbers as running each job alone. Workers pick chunks in the
    order given, so list the slowest job first: no worker idles while another finishes a
    long job's last chunk. ``on_result(job index, chunk, result)`` runs as each chunk
    finishes (from worker threads: it must be thread-safe), e.g. to store it at once.

    >>> jobs = [Job("demo", _demo_chunk, n=10, seed=1, chunk_size=4), Job("demo", _demo_chunk, n=3, seed=1)]
    >>> run_jobs(jobs, Scale(workers=2))
    [[6, 22, 17], [3]]
    """
    results: list[list[Any]] = []
    todo: list[tuple[int, Chunk]] = []
    ckpts: list[Checkpoint | None] = []
    total = 0
    for j, job in enumerate(jobs):
        chunks = job.chunks()
        total += sum(c.size for c in chunks)
        results.append([None] * len(chunks))
        ckpt = Checkpoint(scale.checkpoint, job) if scale.checkpoint else None
        ckpts.append(ckpt)
        if ckpt is not None:
            ckpt.prepare()
        for c in chunks:
            ok, value = ckpt.load(c) if ckpt is not None else (False, None)
            if ok:
                results[j][c.index] = value
            else:
                todo.append((j, c))
    bar = _Progress(scale.progress, total, desc, scale.report)
    bar.update(total - sum(c.size for _, c in todo))

    def finish(j: int, c: Chunk, value: Any) -> None:
        ckpt = ckpts[j]
        if ckpt is not None:
            ckpt.save(c, value)
        results[j][c.index] = value
        if on_result is not None:
            on_result(j, c, value)
        bar.update(c.size)

    try:
        if not todo:
            pass
        elif scale.scheduler:
            _run_dask(jobs, todo, scale.scheduler, finish, scale.checkpoint, len(todo), desc)
        else:
            _run_local(jobs, todo, scale.workers, finish, scale.checkpoint,
                       sum(len(r) for r in results) - len(todo), desc)
    finally:
        bar.close()
    return results


def _run_local(jobs: Sequence["Job | _Closure"], todo: list[tuple[int, Chunk]], workers: int | None,
               finish: Callable[[int, Chunk, Any], None], checkpoint=None, already: int = 0, what: str = "") -> None:
    workers = workers or default_workers()

    def one(item: tuple[int, Chunk]) -> None:
        j, c = item
        job: Any = jobs[j]  # a Job or a _Closure: each takes itself as fn's first argument
        finish(j, c, job.fn(job, c))

    # Chunks finished before a failure or Ctrl-C are already stored by ``finish``.
    _wait_all(one, todo, min(workers, len(todo)), checkpoint, already, already + len(todo), what)


def join_rows(cls: Any, parts: Sequence[Any]) -> Any:
    """One ``cls`` (a NamedTuple of arrays, each chunk's rows) of all chunks, in order: chunks read back from a
    checkpoint are plain tuples, so each is rebuilt as ``cls`` first.

    >>> from typing import NamedTuple
    >>> import numpy as np
    >>> class Rows(NamedTuple):
    ...     x: np.ndarray
    >>> join_rows(Rows, [Rows(np.array([1])), (np.array([2, 3]),)]).x.tolist()
    [1, 2, 3]
    """
    import numpy as np

    parts = [cls(*p) for p in parts]
    return cls(*(np.concatenate([p[k] for p in parts]) for k in range(len(cls._fields))))


def _demo_chunk(job: Job, chunk: Chunk) -> int:
    """Doctest chunk function: the sum of the chunk's item numbers."""
    return sum(range(chunk.start, chunk.stop))
