"""Build or extend a corpus of solved deals: seeded chunks written as they finish.

Deal ``i`` is deal ``i`` of the study stream under the seed
(:func:`binokel_sim.studies.deals.deal_frame`), with soloist ``i mod players``, so a
corpus row equals the row a fresh study (``odds tapp`` / ``odds bids`` with the same
seed and policy) computes for that deal. Each deal runs the study's pipeline
(:func:`binokel_sim.evaluation.deals.play_deals`: exchange, double-dummy value of the
contract, the Tapp-unseen baseline, a Durch check) on its own, so its nodes and CPU
seconds are its own; exact values do not depend on the chunking or the worker count.

Chunk ``k`` holds deals ``k * chunk_size ..``; a build to N deals fills what is
missing below N (a partial last chunk is completed, never re-solved), so building
more deals appends. A chunk is solved as tasks of :data:`TASK_DEALS` deals that any
worker takes; a killed build keeps the finished tasks at the start of each chunk in
flight as a partial chunk and loses only the others. A chunk
file that is missing, truncated or altered (SHA-256 in the manifest, or deals that repeat or skip) is
recomputed. One writer at a time: a build holds the folder's lock (:mod:`.lock`) from reading the manifest on.

Policy: ``heuristic`` (the studies' default) -- see :data:`POLICY_NOTE`. Measured
(``benchmarks/bench_corpus.py``, ``standard``, the same 20 deals, CPU time on the
shared 2-core machine): ``heuristic`` 1.88 s per deal with the Durch check (2.00 s
before the 16-byte table rows), ``melds`` 2.23 s (20 % more nodes), today's study deal
2.08 s (2.46 s before); ``melds
also plays worse (mean total 188 against 257, Tapp value 44 against 108), so its
baseline would understate the Tapp. ``sampled`` solves every candidate on inner deals
(~16 solves per deal): out of budget.

>>> import tempfile
>>> m = build_corpus("four-solo", 4, tempfile.mkdtemp(), seed=3, chunk_size=2)
>>> m["deals"], [c["stop"] for c in m["chunks"]]
(4, [2, 4])
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim._version import __version__
from binokel_sim.errors import InputError
from binokel_sim.play.dd import melds_batch
from binokel_sim.play.legal import play_rule
from binokel_sim.evaluation.deals import EvalSettings, play_deals
from binokel_sim.studies.deals import STREAM_STUDY, add_play_columns, deal_frame
from binokel_sim.exchange.calling import swap_call
from binokel_sim.exchange.candidates import check_policy
from binokel_sim.rules import Rules, load_rules
from binokel_sim.runner import Chunk, Interrupted, Job, Scale, run_jobs

from .backends import bounded_dd, counting_dd
from .lock import corpus_writer
from binokel_sim.provenance import KEY_DIGITS, rules_hash

from .manifest import CORPUS_FORMAT, MANIFEST, file_sha256, held_deals, solver_version, write_manifest
from .writer import ChunkWriter

DEFAULT_POLICY = "heuristic"
#: Why the shipped corpora use DEFAULT_POLICY (also written to each manifest).
POLICY_NOTE = (
    "heuristic: the studies' default exchange policy (best cheap-stage value with the play "
    "weights), so corpus rows equal fresh study rows; it costs no solver calls to choose "
    "(unlike 'sampled', which plays every candidate on inner deals), and unlike 'melds' it "
    "values the cards it keeps for play, which makes the Tapp-value baseline the soloist's "
    "actual best plain choice rather than a meld-count one")
DEFAULT_CHUNK = 200
#: Deals per task: a chunk file is solved as tasks of this many deals that any worker takes, so no
#: worker idles while another finishes a whole chunk alone (a deal costs 0.1-20 s; measured, 200
#: ``standard`` deals on 2 workers: 50-deal tasks 93.2 s wall for 162 s CPU, see the README).
TASK_DEALS = 5


class CorpusInterrupted(Interrupted):
    """Ctrl-C during a corpus build: the finished deals are in the corpus itself (no --checkpoint needed).

    >>> str(CorpusInterrupted("c/", 300, 1000, "binokel corpus build --deals 1000 --out c/"))[:60]
    'interrupted: corpus c/ keeps 300 of 1000 deals (every finish'
    """

    def __init__(self, folder: str | os.PathLike, held: int, target: int, command: str | None):
        again = f"`{command}`" if command else "the same `binokel corpus build` command"
        Exception.__init__(self, f"interrupted: corpus {os.fspath(folder)} keeps {held} of {target} deals (every "
                                 "finished chunk and the finished start of each chunk in flight); "
                                 f"run {again} again to resume")
        self.done, self.total, self.checkpoint = held, target, folder


def _count_string(counts: np.ndarray) -> list[str]:
    """Each row of uint8[n, 24] as 24 digits (card-type counts in card order)."""
    return ["".join(map(str, r)) for r in counts.tolist()]


def corpus_rows(rules: Rules, seed: int, policy: str, chunk: Chunk, durch: bool = True,
                solve_budget: int | None = None, solve_within: int | None = None) -> pd.DataFrame:
    """The corpus rows of deals ``chunk.start .. chunk.stop - 1`` (see the module docstring); ``solve_budget``:
    nodes per solve of ``Solver.bounds`` (48 cards), rows then hold each total as an interval; ``solve_within``:
    the ``Solver.within`` query instead (every total to fewer than that many points, then exact within the budget)."""
    st = EvalSettings(policy=policy).check()
    df, hands, tapp = deal_frame(rules, seed, chunk, STREAM_STUDY)
    idx = df["deal"].to_numpy()
    cols: dict[str, list] = {}
    extra: dict[str, list] = {"nodes": [], "seconds": []}
    budgeted, rule = solve_budget is not None or solve_within is not None, play_rule(rules)
    for i in range(chunk.size):
        dd, counter = bounded_dd(solve_budget, solve_within, rule) if budgeted else counting_dd(rule)
        t0 = time.thread_time()
        seat = int(idx[i] % rules.n_seats)
        parts = play_deals(rules, seat, hands[i:i + 1], tapp[i:i + 1], seed, st, idx[i:i + 1], dd=dd,
                           durch_check=durch).columns()
        if dd.record is not None:  # the upper bounds, found by the arrays play_deals returned
            parts = {**parts, "value_hi": dd.record.hi_of(parts["value"]),
                     "base_value_hi": dd.record.hi_of(parts["base_value"])}
        extra["seconds"].append(time.thread_time() - t0)
        extra["nodes"].append(counter[0])
        for k, v in parts.items():
            cols.setdefault(k, []).append(v[0])
    arr = {k: np.stack(v) for k, v in cols.items()}
    add_play_columns(df, arr)
    seats = idx % rules.n_seats
    mine = hands[np.arange(chunk.size), seats]
    for s in range(rules.n_seats):
        df[f"hand{s}"] = _count_string(hands[:, s])
    df["tapp"] = _count_string(tapp)
    pool = mine + tapp
    if rules.calling.allowed:  # the called card came in, the one handed back went out (docs/rules.md §4.4)
        pool = swap_call(pool, arr["call"], arr["give"])
        df["call"], df["give"] = arr["call"].astype(np.int64), arr["give"].astype(np.int64)
    df["discard"] = _count_string(pool - arr["kept"])
    df["policy"] = policy
    melds = np.zeros(chunk.size, dtype=np.int64)
    code = arr["code"].astype(np.int64)
    melds_batch(np.ascontiguousarray(arr["kept"]), np.where(code < 4, code, -1), rules.meld_array(), melds)
    df["melds_kept"] = melds
    # Exact solves: lo = hi = value. A bounded query stores its interval (exact where it closed).
    for pre, val in (("", arr["value"]), ("base_", arr["base_value"])):
        hi = arr.get(f"{pre}value_hi", val)
        df[f"{pre}points_lo"] = val.astype(np.int64)
        df[f"{pre}points_hi"] = hi.astype(np.int64)
        df[f"{pre}points_exact"] = True if hi is val else (hi == val)
    from binokel_sim.contracts import CONTRACT_NAMES

    df["base_contract"] = [CONTRACT_NAMES[c] for c in arr["base_code"]]
    df["durch_makeable"] = arr["durch"] if durch else False
    df["nodes"] = np.asarray(extra["nodes"], dtype=np.int64)
    df["seconds"] = np.asarray(extra["seconds"], dtype=np.float64)
    return df


@dataclass(frozen=True)
class CorpusParams:
    """The parameters of a ``corpus`` job: the exchange policy, the first deal (``offset``), the Durch check,
    the node budget per solve or the ``within`` query's step (None: not used)."""

    policy: str
    offset: int
    durch: bool
    solve_budget: int | None = None
    solve_within: int | None = None


def corpus_job_chunk(job: Job, chunk: Chunk) -> pd.DataFrame:
    """:func:`corpus_rows` as a :class:`~binokel_sim.runner.Job` calls it (``params.offset`` shifts the range)."""
    p: CorpusParams = job.params
    c = Chunk(chunk.index, chunk.start + p.offset, chunk.stop + p.offset)
    return corpus_rows(job.rules, job.seed, p.policy, c, p.durch, p.solve_budget, p.solve_within)


def chunk_stats(path: Path, rows: pd.DataFrame) -> dict[str, Any]:
    """A chunk's manifest figures: the file's SHA-256, its rows' search nodes, CPU seconds and open deals."""
    return {"sha256": file_sha256(path), "nodes": int(rows["nodes"].sum()),
            "cpu_seconds": round(float(rows["seconds"].sum()), 3),
            "unresolved": int((~rows["points_exact"] | ~rows["base_points_exact"]).sum())}


def _new_manifest(rules: Rules, seed: int, policy: str, chunk_size: int, durch: bool) -> dict[str, Any]:
    return {
        "format": CORPUS_FORMAT, "rules": rules.name, "rules_source": rules.source,
        "rules_hash": rules_hash(rules, digits=KEY_DIGITS),
        "rules_data": rules.to_dict(), "seed": int(seed), "stream": list(STREAM_STUDY), "policy": policy,
        "policy_note": POLICY_NOTE, "durch_check": durch, "chunk_size": int(chunk_size), "deals": 0,
        "unresolved_fraction": 0.0, "cpu_seconds": 0.0, "nodes": 0, "chunks": [], "builds": [],
    }


def plan(chunks: list[dict[str, Any]], deals: int, chunk_size: int) -> list[tuple[int, int, int]]:
    """(chunk index, start, stop) of the deals still to solve below ``deals``.

    >>> plan([{"index": 0, "start": 0, "stop": 3}], 7, 3)
    [(1, 3, 6), (2, 6, 7)]
    >>> plan([{"index": 0, "start": 0, "stop": 2}], 3, 3)
    [(0, 2, 3)]
    """
    have = {int(c["index"]): int(c["stop"]) for c in chunks}
    out = []
    for k in range(-(-deals // chunk_size)):
        lo, hi = k * chunk_size, min((k + 1) * chunk_size, deals)
        start = have.get(k, lo)
        if start < hi:
            out.append((k, start, hi))
    return out


def _open(folder: Path, rules: Rules, seed: int, policy: str | None, chunk_size: int | None,
          durch: bool) -> tuple[dict[str, Any], int]:
    """(the manifest with its whole chunks only, the deals its file lists)."""
    from .manifest import check_rules, read_manifest
    from .reader import confirmed_chunks

    if (folder / MANIFEST).is_file():
        m = read_manifest(folder)
        check_rules(m, rules, folder)
        for key, val in (("seed", seed), ("policy", policy), ("chunk_size", chunk_size)):
            if val is not None and m[key] != val:
                raise InputError(f"corpus {folder} was built with {key} {m[key]}, not {val}")
        listed = held_deals(m)
        m["chunks"] = confirmed_chunks(folder, m)  # a chunk not whole is recomputed; rows not the manifest's: refused
        return m, listed
    if folder.is_dir() and any(folder.glob("chunk-*.parquet")):
        raise InputError(f"corpus {folder}: missing {MANIFEST} beside its chunk files")
    return _new_manifest(rules, seed, policy or DEFAULT_POLICY, chunk_size or DEFAULT_CHUNK, durch), 0


def _summarise(m: dict[str, Any]) -> None:
    m["deals"] = held_deals(m)
    m["cpu_seconds"] = round(sum(c["cpu_seconds"] for c in m["chunks"]), 3)
    m["nodes"] = sum(int(c["nodes"]) for c in m["chunks"])
    unresolved = sum(int(c["unresolved"]) for c in m["chunks"])
    m["unresolved_fraction"] = unresolved / m["deals"] if m["deals"] else 0.0


#: Deals a builder re-solves to show that another solver proves a budgeted corpus's bounds (:func:`_same_solver`).
SAME_SOLVER_DEALS = 2


def _same_solver(m: dict[str, Any], folder: Path, rules: Rules) -> None:
    """Bounds within a node budget depend on the solver's search: rows of a budgeted corpus (not the ``within``
    query, whose totals are known to a bid step whatever proved them) are extended only by a solver that proves
    the same bounds, so that every row's interval means the same (a two-phase auxiliary, :mod:`.phases`). Where
    the solver's version differs from the corpus's, its first :data:`SAME_SOLVER_DEALS` deals are solved again
    and must give the stored rows' intervals (about a second a deal); otherwise an :class:`InputError`."""
    old, new = m.get("solver_version"), solver_version()
    if not m["chunks"] or m.get("solve_budget") is None or m.get("solve_within") is not None or old in (None, new):
        return
    from .reader import load_corpus

    k = min(SAME_SOLVER_DEALS, held_deals(m))
    stored = load_corpus(folder, below=k).df.iloc[:k]
    again = corpus_rows(rules, int(m["seed"]), m["policy"], Chunk(0, 0, k), bool(m["durch_check"]),
                        int(m["solve_budget"]))
    cols = ["points_lo", "points_hi", "base_points_lo", "base_points_hi"]
    if not np.array_equal(stored[cols].to_numpy(), again[cols].to_numpy()):
        raise InputError(f"corpus {folder} holds bounds proven by solver {old} within {m['solve_budget']} nodes; "
                         f"this solver ({new}) proves other bounds at that budget (deals 0..{k - 1} solved again), "
                         "so its rows would not mean the same: build into a new folder")


def build_corpus(rules: Rules | str, deals: int, out: str | os.PathLike, *, seed: int = 1, policy: str | None = None,
                 chunk_size: int | None = None, scale: Scale | None = None, durch: bool = True,
                 command: str | None = None, solve_budget: int | None = None,
                 solve_within: int | None = None) -> dict[str, Any]:
    """Build or extend the corpus in ``out`` to ``deals`` deals; returns the manifest.

    ``policy`` / ``chunk_size`` / ``seed`` must match an existing corpus (None: keep).
    ``deals`` below what the corpus holds is an :class:`InputError`. ``solve_budget``: nodes per
    ``Solver.bounds`` solve (the 48-card presets): each total is stored as ``lo``/``hi``/``exact``,
    the manifest counts the unresolved deals, and no Durch check runs (its exact query is
    unbudgeted); an existing corpus keeps its budget (None: exact solves, the 40-card path). ``solve_within``:
    each total first proven to fewer than that many points whatever it costs, then exact as far as
    ``solve_budget`` allows (:meth:`binokel_sim.play.solver.Solver.within`; the corpus query of the 48-card
    presets); an existing corpus keeps it too.
    """
    rules = load_rules(rules)
    if policy is not None:
        check_policy(policy)
    if chunk_size is not None and chunk_size < 1:
        raise InputError(f"--chunk-size: must be at least 1, got {chunk_size}")
    folder = Path(out)
    if solve_within is not None and solve_within < 1:
        raise InputError(f"--within: must be at least 1 point, got {solve_within}")
    with corpus_writer(folder, "`binokel corpus build`"):  # one writer at a time, from reading the manifest on
        plain = durch and solve_budget is None and solve_within is None
        m, listed = _open(folder, rules, seed, policy, chunk_size, plain)
        if not m["chunks"] and "solve_budget" not in m:
            m["solve_budget"] = solve_budget
        if not m["chunks"] and "solve_within" not in m and solve_within is not None:
            m["solve_within"] = solve_within
        if m.get("solve_budget") != solve_budget:
            raise InputError(f"corpus {folder} was built with --solve-budget "
                             f"{m.get('solve_budget') or 'none (exact)'}, not {solve_budget or 'none (exact)'}")
        if m.get("solve_within") != solve_within:
            raise InputError(f"corpus {folder} was built with --within {m.get('solve_within') or 'none'}, "
                             f"not {solve_within or 'none'}")
        _same_solver(m, folder, rules)
        held = held_deals(m)
        if deals < max(held, listed):  # a missing chunk below the target is recomputed; one above it is kept listed
            raise InputError(f"--deals {deals} is smaller than the {max(held, listed)} deals corpus {folder} "
                             "already lists")
        todo = plan(m["chunks"], deals, m["chunk_size"])
        if not todo and (folder / MANIFEST).is_file():  # nothing to build: a finished corpus is never rewritten
            return m
        started = datetime.now(UTC).isoformat(timespec="seconds")
        m.setdefault("builds", []).append({"command": command, "started": started, "target_deals": int(deals),
                                           "package_version": __version__, "solver_version": solver_version()})
        m["package_version"], m["solver_version"] = __version__, solver_version()
        _summarise(m)
        write_manifest(m, folder)
        jobs = [Job("corpus", corpus_job_chunk, n=stop - start, seed=seed, rules=rules, chunk_size=TASK_DEALS,
                    params=CorpusParams(m["policy"], start, bool(m["durch_check"]),
                                        None if solve_budget is None else int(solve_budget),
                                        None if solve_within is None else int(solve_within)))
                for _, start, stop in todo]
        writer = ChunkWriter(folder, m, todo, jobs, chunk_stats, _summarise)
        try:
            results = run_jobs(jobs, scale or Scale(), "deals", on_result=writer.collect)
        except Interrupted:
            raise CorpusInterrupted(folder, writer.settle(), deals, command) from None
        writer.finish(results)
        return m
