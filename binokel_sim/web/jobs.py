"""Checked-tier bid jobs for the web server: each in its own process, with progress, cancel and limits.

A checked answer plays hundreds of deals double-dummy (seconds to minutes). The server runs each job in a
child process (``python -m binokel_sim.web.worker``: a fresh interpreter, nothing of the server copied),
so a request thread never waits on one and a cancel ends it at once: the process is terminated, then
killed if it has not ended within a second -- its core is free again within :data:`FREE_WITHIN` seconds
(a thread cannot be stopped; a process can). The child reads its question as JSON on stdin and writes
progress and its answer as JSON lines on stdout; nothing is unpickled.

Limits: one job per client at a time, at most ``max_jobs`` at once on the server, ``samples`` capped at
``max_samples``; a job whose client has not asked for it for ``leave_after`` seconds (the page polls
every half second, and tells the server when it is closed) is cancelled: a client that left holds no core.

>>> JobLimit("busy").status
429
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from binokel_sim.errors import InputError

#: Seconds within which a cancelled job's process has ended (terminated, then killed).
FREE_WITHIN = 2.0
#: Finished jobs are kept this long for their client to read the answer, then dropped.
KEEP_FINISHED = 600.0


class JobLimit(InputError):
    """A job refused by a server limit (one per client, the server's job slots): HTTP 429."""

    status = 429


@dataclass
class Job:
    """One checked-tier job: its ``state`` (starting, running, passing, done, error, cancelled), progress
    (``done`` of ``total`` samples), the answer or the one-line error, and its timings."""

    id: str
    client: str
    params: dict[str, Any]
    process: Any
    state: str = "starting"
    done: int = 0
    total: int = 0
    pass_done: int = 0
    pass_total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    last_seen: float = field(default_factory=time.monotonic)
    freed_in: float | None = None

    @property
    def active(self) -> bool:
        return self.state in ("starting", "running", "passing")

    def to_json(self) -> dict[str, Any]:
        """What a client polls: state, progress, seconds so far, and the answer or error once there."""
        end = self.finished if self.finished is not None else time.monotonic()
        return {"id": self.id, "state": self.state, "done": self.done, "total": self.total,
                "pass_done": self.pass_done, "pass_total": self.pass_total,
                "seconds": round(end - self.started, 2), "params": self.params, "result": self.result,
                "error": self.error, "freed_in": self.freed_in}


class JobManager:
    """The server's checked jobs (see the module docstring); thread-safe."""

    def __init__(self, max_jobs: int = 1, max_samples: int = 2000, leave_after: float = 10.0):
        self.max_jobs, self.max_samples, self.leave_after = max_jobs, max_samples, leave_after
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watch_loop, name="binokel-jobs", daemon=True)
        self._watch.start()

    def start(self, client: str, params: dict[str, Any]) -> Job:
        """Start a checked job for ``client`` (``params``: rules, hand, seat, samples, seed, confidence,
        objective, already validated); refused with :class:`JobLimit` beyond a limit."""
        if params["samples"] > self.max_samples:
            raise InputError(f"samples: at most {self.max_samples} on this server, got {params['samples']}")
        with self.lock:
            mine = [j for j in self.jobs.values() if j.client == client and j.active]
            if mine:
                raise JobLimit(f"one checked job per player at a time: job {mine[0].id} is still running"
                               " (cancel it first)")
            if sum(j.active for j in self.jobs.values()) >= self.max_jobs:
                raise JobLimit(f"the server runs {self.max_jobs} checked job(s) at a time and all are busy:"
                               " try again when one finishes")
            proc = subprocess.Popen([sys.executable, "-m", "binokel_sim.web.worker"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            job = Job(uuid.uuid4().hex[:12], client, dict(params), proc, total=params["samples"])
            self.jobs[job.id] = job
        assert proc.stdin is not None  # stdin=PIPE
        proc.stdin.write(json.dumps(params))
        proc.stdin.close()
        threading.Thread(target=self._read, args=(job,), name=f"job-{job.id}", daemon=True).start()
        return job

    def get(self, job_id: str, client: str | None = None) -> Job:
        """The job ``job_id`` (its client's poll keeps it alive); an unknown id is an :class:`InputError`."""
        with self.lock:
            job = self.jobs.get(job_id)
            if job is None or (client is not None and job.client != client):
                raise InputError(f"job: no job {job_id!r} of yours on this server")
            job.last_seen = time.monotonic()
            return job

    def cancel(self, job_id: str, client: str | None = None) -> Job:
        """End the job's process (terminated, then killed); ``freed_in``: seconds until it had ended."""
        job = self.get(job_id, client)
        with self.lock:
            self._end(job, "cancelled")
        return job

    def shutdown(self) -> None:
        """Cancel every running job (the server is stopping)."""
        self._stop.set()
        with self.lock:
            for job in self.jobs.values():
                if job.active:
                    self._end(job, "cancelled")

    def running(self) -> int:
        with self.lock:
            return sum(j.active for j in self.jobs.values())

    # -- under the lock ------------------------------------------------------------------------------

    def _end(self, job: Job, state: str) -> None:
        if not job.active:
            return
        t0 = time.monotonic()
        if job.process.poll() is None:
            job.process.terminate()
            try:
                job.process.wait(FREE_WITHIN / 2)
            except subprocess.TimeoutExpired:
                job.process.kill()
                job.process.wait(FREE_WITHIN / 2)
        job.freed_in = round(time.monotonic() - t0, 3)
        job.state, job.finished = state, time.monotonic()

    def _read(self, job: Job) -> None:
        """The job's reader thread: each JSON line of the child updates the job; a child that ends without
        an answer (not cancelled) is an error."""
        for line in job.process.stdout:
            msg = json.loads(line)
            with self.lock:
                if not job.active:
                    break
                if msg["kind"] == "progress":
                    job.state, job.done, job.total = "running", msg["done"], msg["total"]
                elif msg["kind"] == "passing":
                    job.state, job.pass_done, job.pass_total = "passing", msg["done"], msg["total"]
                elif msg["kind"] == "done":
                    job.result, job.state, job.finished = msg["result"], "done", time.monotonic()
                elif msg["kind"] == "error":
                    job.error, job.state, job.finished = msg["error"], "error", time.monotonic()
        code = job.process.wait()
        with self.lock:
            if job.active:
                job.error = f"the job's process ended without an answer (exit code {code})"
                job.state, job.finished = "error", time.monotonic()

    def _watch_loop(self) -> None:
        while not self._stop.wait(0.25):
            now = time.monotonic()
            with self.lock:
                for job in list(self.jobs.values()):
                    if job.active and now - job.last_seen > self.leave_after:
                        self._end(job, "cancelled")
                        job.error = f"cancelled: its page was gone for {self.leave_after:g} s"
                    elif not job.active and job.finished is not None and now - job.finished > KEEP_FINISHED:
                        del self.jobs[job.id]
