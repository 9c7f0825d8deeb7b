"""Refresh a corpus after a change of the exchange policy: re-derive its decisions, re-solve only what changed.

A change of the ``melds``/``heuristic`` policy (a tie-break, what the soloist's estimate
counts) changes some rows' decisions and every row's estimate, but most solved values stand.
:func:`refresh_corpus` re-derives, from each row's own cards, what the current code decides:

* the contract and discard with the Tapp, and the contract with the Tapp laid away unseen;
* the soloist's own estimate (``subjective``, ``subjective_took``), which decides going out.

Rows whose decisions are unchanged keep every solved column and take the new estimate; the
others are rebuilt from scratch (:func:`~binokel_sim.corpus.builder.corpus_rows` of that
deal), as a fresh build would. So the refreshed corpus holds the rows a fresh build under
the current code writes, except the kept rows' ``nodes``/``seconds`` (they were solved by
the solver of their build) -- and it costs the re-solves of the changed rows only. The
Durch check is not re-derived (its candidate does not depend on the tie-break or the
estimate). ``sampled`` corpora are refused: their decisions need the solver on every row.

Chunk by chunk, each written atomically with the manifest (``revisions`` records the run), under the
folder's write lock (:mod:`.lock`: a build or another refresh meanwhile is refused),
so a killed refresh loses at most the chunks in flight, and running it again finishes the
job (a chunk already refreshed costs only the cheap re-derivation).

>>> import tempfile
>>> d = tempfile.mkdtemp()
>>> _ = build_corpus("four-solo", 4, d, seed=3, chunk_size=2)
>>> r = refresh_corpus(d)
>>> r["rows"], r["changed"], r["estimates_changed"]
(4, 0, 0)
"""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim._version import __version__
from binokel_sim.contracts import CONTRACT_NAMES
from binokel_sim.errors import InputError
from binokel_sim.evaluation.deals import EvalSettings, baseline_choices
from binokel_sim.exchange.policy import build_candidates, choose
from binokel_sim.output import atomic_path
from binokel_sim.rules import Rules, load_rules
from binokel_sim.runner import Chunk, Interrupted, Job, Scale, run_jobs

from .builder import _count_string, _summarise, build_corpus, chunk_stats, corpus_rows  # noqa: F401  (build_corpus: the doctest)
from .lock import corpus_writer
from .manifest import check_solves, read_manifest, write_manifest

class RefreshInterrupted(Interrupted):
    """Ctrl-C during a refresh: the chunks refreshed so far are stored in the corpus itself."""

    def __init__(self, folder: str | os.PathLike, done: int, total: int, command: str | None):
        again = f"`{command}`" if command else "the same `binokel corpus refresh` command"
        Exception.__init__(self, f"interrupted: corpus {os.fspath(folder)} has {done} of {total} rows refreshed "
                                 f"(every finished chunk); run {again} again to finish")
        self.done, self.total, self.checkpoint = done, total, folder


#: The columns that hold a row's exchange decisions (compared) and the soloist's estimate (replaced).
DECISIONS = ("code", "discard", "base_contract")
ESTIMATE = ("subjective", "subjective_took")


def _counts(col) -> np.ndarray:
    """uint8[n, 24] from a column of 24-digit count strings (the inverse of the builder's ``_count_string``)."""
    return np.array([[int(ch) for ch in s] for s in col], dtype=np.uint8).reshape(len(col), -1)


def derive(rules: Rules, policy: str, df: pd.DataFrame) -> dict[str, Any]:
    """What the current code decides for rows ``df`` (their cards and soloist): ``code``, ``discard``
    (count strings), ``base_contract`` (names) and the estimate columns."""
    st = EvalSettings(policy=policy).check()
    n = len(df)
    sol = df["soloist"].to_numpy()
    hands = np.stack([_counts(df[f"hand{s}"]) for s in range(rules.n_seats)], axis=1)
    mine = np.ascontiguousarray(hands[np.arange(n), sol])
    tapp = _counts(df["tapp"])
    # The cheap policies' choices depend on the cards alone: seat, seed and views only matter to 'sampled'.
    base_code, _ = baseline_choices(rules, mine, 0, 1, st, df["deal"].to_numpy(), st.inner, None)
    cs = build_candidates(rules, mine, tapp, policy, per_trump=st.per_trump)
    ch = choose(rules, 0, cs, policy)
    rows = np.arange(n)
    return {"code": cs.code[rows, ch.index].astype(np.int64), "discard": _count_string(cs.disc[rows, ch.index]),
            "base_contract": [CONTRACT_NAMES[c] for c in base_code], "call": cs.call[rows, ch.index],
            "subjective": list(ch.subjective), "subjective_took": list(ch.subjective_took)}


def refresh_rows(rules: Rules, m: dict[str, Any], df: pd.DataFrame) -> tuple[pd.DataFrame, int, int]:
    """(refreshed rows, rows re-solved, rows whose estimate alone changed) of one chunk's rows."""
    new = derive(rules, m["policy"], df)
    changed = np.zeros(len(df), dtype=bool)
    for col in (*DECISIONS, "call") if "call" in df.columns else DECISIONS:
        changed |= np.asarray(df[col].tolist(), dtype=object) != np.asarray(new[col], dtype=object)
    out = df.copy()
    estimate = np.zeros(len(df), dtype=bool)
    for col in ESTIMATE:
        estimate |= ~np.array([np.array_equal(a, b) for a, b in zip(df[col], new[col])], dtype=bool)
        out[col] = new[col]
    est_changed = int((estimate & ~changed).sum())
    budget = m.get("solve_budget")
    fresh = [corpus_rows(rules, int(m["seed"]), m["policy"], Chunk(0, d, d + 1), bool(m["durch_check"]), budget,
                         m.get("solve_within"))
             for d in df["deal"].to_numpy()[changed]]
    out = pd.concat([out[~changed], *fresh], ignore_index=True).sort_values("deal", ignore_index=True)
    return out[list(df.columns)].astype(df.dtypes.to_dict()), int(changed.sum()), est_changed


def refresh_job_chunk(job: Job, chunk: Chunk) -> tuple[pd.DataFrame, int, int]:
    """:func:`refresh_rows` of the corpus chunk ``params['entries'][chunk.index]`` as a runner job."""
    p = job.params
    entry = p["entries"][chunk.index]
    df = pd.read_parquet(Path(p["folder"]) / entry["file"])
    return refresh_rows(job.rules, p["manifest"], df)


def refresh_corpus(folder: str | os.PathLike, *, scale: Scale | None = None, command: str | None = None,
                   rules: Rules | str | None = None) -> dict[str, Any]:
    """Refresh corpus ``folder`` under the current exchange policy code (see the module docstring);
    with ``rules``, the corpus must have been built with them (content hash).

    Returns ``rows``, ``changed`` (re-solved), ``estimates_changed`` and ``seconds``.
    """
    folder = Path(folder)
    check_solves(read_manifest(folder), folder)  # a missing, damaged or single-dummy corpus: one line, before the lock
    with corpus_writer(folder, "`binokel corpus refresh`", create=False):
        return _refresh(folder, scale, command, rules)


def _refresh(folder: Path, scale: Scale | None, command: str | None, rules: Rules | str | None) -> dict[str, Any]:
    from .manifest import check_rules
    from .reader import Corpus, check_chunks, load_rules_of

    m = read_manifest(folder)
    if m["policy"] == "sampled":
        raise InputError(f"corpus {folder}: a 'sampled' corpus cannot be refreshed (its decisions need the solver"
                         " on every row): rebuild it")
    if rules is not None:
        check_rules(m, load_rules(rules), folder)
    of = load_rules_of(Corpus(folder, m, pd.DataFrame()))
    entries = sorted(m["chunks"], key=lambda c: c["index"])
    # A corrupt chunk, or rows that are not the manifest's deals, stop the refresh before any work (one line).
    check_chunks(folder, m, entries)
    t0 = time.perf_counter()
    lock = threading.Lock()
    totals = {"rows": 0, "changed": 0, "estimates_changed": 0}
    revision: dict[str, Any] = {"what": "refresh", "command": command, "package_version": __version__,
                                "started": datetime.now(UTC).isoformat(timespec="seconds")}
    m.setdefault("revisions", []).append(revision)

    def store(_j: int, c: Chunk, res: tuple[pd.DataFrame, int, int]) -> None:
        rows, changed, est = res
        entry = entries[c.index]
        with lock:
            path = folder / entry["file"]
            if changed or est:
                with atomic_path(path) as tmp:
                    rows.to_parquet(tmp, index=False, compression="zstd")
            entry.update(chunk_stats(path, rows))
            totals["rows"] += len(rows)
            totals["changed"] += changed
            totals["estimates_changed"] += est
            revision.update(totals, wall_seconds=round(time.perf_counter() - t0, 1))
            _summarise(m)
            write_manifest(m, folder)

    job = Job("corpus-refresh", refresh_job_chunk, n=len(entries), seed=int(m["seed"]), rules=of, chunk_size=1,
              params={"folder": os.fspath(folder), "entries": [dict(e) for e in entries], "manifest": _plain(m)})
    try:
        run_jobs([job], scale or Scale(), "chunks", on_result=store)
    except Interrupted:
        with lock:
            done = totals["rows"]
        raise RefreshInterrupted(folder, done, sum(int(e["rows"]) for e in entries), command) from None
    revision["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    write_manifest(m, folder)
    return {**totals, "seconds": round(time.perf_counter() - t0, 1)}


def _plain(m: dict[str, Any]) -> dict[str, Any]:
    """The manifest fields a chunk needs (the job's parameters: no chunk list, which the run rewrites)."""
    return {k: m.get(k) for k in ("policy", "seed", "durch_check", "solve_budget", "solve_within")}
