"""A corpus of deals played single-dummy beside their open-card (double-dummy) value (issue #37).

The double-dummy corpus machinery (:mod:`binokel_sim.corpus`) with a play mode: the manifest records
``play = "single-dummy"``, the worlds per decision, the tolerance and the seed; each row is one
:func:`.play_gap.gap_chunk` row (the deal, its open-card total, the total with every seat single-dummy
and with the single-dummy soloist against open-card defenders), plus the deal's CPU seconds. Deal
``i`` is deal ``i`` of the studies' stream, so a row depends only on (rules, seed, deal, worlds,
tolerance), never on the chunking or the worker count. One writer at a time (the folder lock),
chunks written atomically as they finish, a killed build resumes from the chunks in the manifest
(a chunk in flight keeps its finished start).

>>> import tempfile
>>> m = build_sd_corpus("kreuz", 2, tempfile.mkdtemp(), seed=3, worlds=2, chunk_size=1)
>>> m["play"], m["deals"], [c["stop"] for c in m["chunks"]]
('single-dummy', 2, [1, 2])
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

import pandas as pd

from binokel_sim._version import __version__
from binokel_sim.corpus.builder import CorpusInterrupted, plan
from binokel_sim.corpus.lock import corpus_writer
from binokel_sim.corpus.manifest import (CORPUS_FORMAT, MANIFEST, check_rules, file_sha256, held_deals,
                                         read_manifest, write_manifest)
from binokel_sim.corpus.reader import confirmed_chunks, shipped_root
from binokel_sim.corpus.writer import ChunkWriter
from binokel_sim.errors import InputError
from binokel_sim.studies.deals import STREAM_STUDY
from binokel_sim.provenance import KEY_DIGITS, rules_hash
from binokel_sim.rules import Rules, load_rules
from binokel_sim.runner import Chunk, Interrupted, Job, Scale, run_jobs

from .play_gap import GapSettings, check_rules as check_play_rules, gap_chunk

PLAY = "single-dummy"
#: The shipped single-dummy corpus of ``standard`` (inside the package's corpora).
SHIPPED = Path(str(shipped_root() or "data/corpus")) / "standard-sd"
DEFAULT_CHUNK = 20


@dataclass(frozen=True)
class SdParams:
    """A task's parameters: the play settings and the first deal of its chunk (``offset``)."""

    settings: GapSettings
    offset: int


def sd_task(job: Job, chunk: Chunk) -> pd.DataFrame:
    """Deals ``offset + chunk.start ..`` played three ways, one at a time so each row carries its CPU seconds."""
    p: SdParams = job.params
    frames = []
    for d in range(chunk.start + p.offset, chunk.stop + p.offset):
        t0 = time.thread_time()
        one = Job("play-gap", gap_chunk, n=1, seed=job.seed, rules=job.rules, params=p.settings)
        row = gap_chunk(one, Chunk(0, d, d + 1))
        row["seconds"] = time.thread_time() - t0
        frames.append(row)
    return pd.concat(frames, ignore_index=True)


def _new_manifest(rules: Rules, seed: int, gs: GapSettings, chunk_size: int) -> dict[str, Any]:
    return {"format": CORPUS_FORMAT, "rules": rules.name, "rules_source": rules.source,
            "rules_hash": rules_hash(rules, digits=KEY_DIGITS), "rules_data": rules.to_dict(), "seed": int(seed),
            "stream": list(STREAM_STUDY), "policy": gs.policy, "play": PLAY, "worlds": gs.worlds,
            "tolerance": gs.tolerance, "chunk_size": int(chunk_size), "deals": 0, "cpu_seconds": 0.0, "nodes": 0,
            "chunks": [], "builds": []}


def _open(folder: Path, rules: Rules, seed: int, gs: GapSettings, chunk_size: int | None) -> dict[str, Any]:
    if not (folder / MANIFEST).is_file():
        if folder.is_dir() and any(folder.glob("chunk-*.parquet")):
            raise InputError(f"corpus {folder}: missing {MANIFEST} beside its chunk files")
        return _new_manifest(rules, seed, gs, chunk_size or DEFAULT_CHUNK)
    m = read_manifest(folder)
    check_rules(m, rules, folder)
    if m.get("play") != PLAY:
        raise InputError(f"corpus {folder} is not a single-dummy corpus (play {m.get('play', 'open cards')!r})")
    for key, val in (("seed", seed), ("worlds", gs.worlds), ("tolerance", gs.tolerance), ("chunk_size", chunk_size)):
        if val is not None and m[key] != val:
            raise InputError(f"corpus {folder} was built with {key} {m[key]}, not {val}")
    m["chunks"] = confirmed_chunks(folder, m)  # a chunk not whole is recomputed; rows not the manifest's: refused
    return m


def build_sd_corpus(rules: Rules | str, deals: int, out: str | os.PathLike, *, seed: int = 1, worlds: int = 20,
                    tolerance: float = 0.5, chunk_size: int | None = None, scale: Scale | None = None,
                    command: str | None = None) -> dict[str, Any]:
    """Build or extend the single-dummy corpus in ``out`` to ``deals`` deals; returns the manifest. ``seed``,
    ``worlds``, ``tolerance`` and ``chunk_size`` must match an existing corpus. Where it already holds every deal
    below ``deals`` (a part of it, or all), it is read: not locked, not written."""
    rules = check_play_rules(load_rules(rules))
    gs = GapSettings(worlds=worlds, tolerance=tolerance).check()
    if chunk_size is not None and chunk_size < 1:
        raise InputError(f"--chunk-size: must be at least 1, got {chunk_size}")
    folder = Path(out)
    if (folder / MANIFEST).is_file():
        m = _open(folder, rules, seed, gs, chunk_size)
        if not plan(m["chunks"], deals, m["chunk_size"]):
            # Every deal asked is held: read them without the writer's lock (a build may be extending the
            # corpus), and never rewrite a finished corpus.
            return m
    with corpus_writer(folder, "`binokel study play-gap --corpus`"):
        m = _open(folder, rules, seed, gs, chunk_size)
        todo = plan(m["chunks"], deals, m["chunk_size"])
        if not todo:  # another build finished them meanwhile
            return m
        m["builds"].append({"command": command, "started": datetime.now(UTC).isoformat(timespec="seconds"),
                            "target_deals": int(deals), "package_version": __version__})
        write_manifest(m, folder)
        # One deal per task: a deal costs 2-60 s, so workers share a chunk; rows do not depend on it.
        jobs = [Job("sd-corpus", sd_task, n=stop - start, seed=seed, rules=rules, chunk_size=1,
                    params=SdParams(gs, start)) for _, start, stop in todo]
        writer = ChunkWriter(folder, m, todo, jobs, _chunk_stats, _summarise)
        try:
            run_jobs(jobs, scale or Scale(), "deals", on_result=writer.collect)
        except Interrupted:
            raise CorpusInterrupted(folder, writer.settle(), deals, command) from None
        writer.finish()
        return m


def _chunk_stats(path: Path, rows: pd.DataFrame) -> dict[str, Any]:
    """A chunk's manifest figures: the file's SHA-256, the search nodes of both single-dummy ways, CPU seconds."""
    return {"sha256": file_sha256(path), "nodes": int(rows["sd_nodes"].sum() + rows["sd_solo_nodes"].sum()),
            "cpu_seconds": round(float(rows["seconds"].sum()), 3), "unresolved": 0}


def _summarise(m: dict[str, Any]) -> None:
    m["deals"] = held_deals(m)
    m["cpu_seconds"] = round(sum(c["cpu_seconds"] for c in m["chunks"]), 3)
    m["nodes"] = sum(int(c["nodes"]) for c in m["chunks"])


def load_sd_corpus(folder: str | os.PathLike) -> tuple[dict[str, Any], pd.DataFrame]:
    """The manifest and rows of a single-dummy corpus (its whole chunks, in deal order)."""
    folder = Path(folder)
    if not (folder / MANIFEST).is_file():
        raise InputError(f"no single-dummy corpus at {folder} (no {MANIFEST}); build one with "
                         "`binokel study play-gap --corpus DIR`")
    m = read_manifest(folder)
    if m.get("play") != PLAY:
        raise InputError(f"corpus {folder} is not a single-dummy corpus")
    chunks = sorted(confirmed_chunks(folder, m), key=lambda c: c["index"])
    rows = pd.concat([pd.read_parquet(folder / c["file"]) for c in chunks], ignore_index=True) if chunks else \
        pd.DataFrame()
    return m, rows


def sd_headline(folder: str | os.PathLike, rules: Rules | str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the manifest, the headline figures) of a single-dummy corpus, as ``binokel corpus info`` prints them: the
    soloist's mean total under each way of play with the paired differences, and the fail share (± SE, n)."""
    from .play_gap import fail_share, totals

    from binokel_sim.corpus.reader import Corpus, load_rules_of

    m, rows = load_sd_corpus(folder)
    r = load_rules(rules) if rules is not None else load_rules_of(Corpus(Path(folder), m, rows))
    check_rules(m, r, Path(folder))
    if not len(rows) or not rows["played"].any():
        return m, {"deals": len(rows), "played": 0}
    return m, {"deals": len(rows), "played": int(rows["played"].sum()),
               "cpu_seconds_per_deal": float(rows["seconds"].mean()),
               "totals": totals(rows).to_dict(orient="records"),
               "fail_share": fail_share(r, rows).to_dict(orient="records")}
