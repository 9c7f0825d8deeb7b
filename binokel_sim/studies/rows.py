"""Study rows from a matching corpus where there is one, computed afresh otherwise.

A corpus row is the row :func:`binokel_sim.studies.deals.study_deals` computes for
the same deal (same seed and policy; deal ``i`` depends only on (seed, ``i``)), so a
study of ``N`` deals takes deals ``0 .. k - 1`` from the corpus (``k`` = the deals it
holds without a gap, at most ``N``) and solves only ``k .. N - 1``: the numbers are
those of a fresh run. The corpus is the one named (``corpus=DIR``: its rules, seed and
policy must match: :class:`InputError` otherwise) or the shipped one with the same
rules content hash, seed and policy; ``fresh=True`` ignores corpora. A damaged chunk among
those the study needs is an :class:`InputError` naming it (``binokel corpus build`` repairs
it), never a silent fresh solve of its deals.

>>> import tempfile
>>> from binokel_sim.corpus.builder import build_corpus
>>> d = tempfile.mkdtemp()
>>> _ = build_corpus("four-solo", 2, d, seed=4)
>>> df, src = study_rows("four-solo", 3, seed=4, corpus=d)
>>> len(df), src.from_corpus, src.fresh
(3, 2, 1)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim.errors import InputError
from binokel_sim.evaluation.features import FEATURES
from binokel_sim.play.dd import BUDGET_MIN_CARDS, DEFAULT_BUDGET_NODES
from binokel_sim.studies.deals import add_bounds, point_intervals, study_deals
from binokel_sim.rules import Rules, load_rules

from binokel_sim.corpus.reader import find_corpus, load_corpus

#: The columns of a study row (what :func:`study_deals` returns with ``play=True``).
STUDY_COLUMNS = ("deal", "soloist", *FEATURES, "melds_with_tapp", "melds_tapp_unseen", "melds_tapp_value", "value",
                 "took", "contract", "code", "special_made", "result", "base_result", "tapp_value", "subjective",
                 "subjective_took")
#: Deals a study plays when neither ``deals`` nor a corpus says otherwise.
DEFAULT_DEALS = 1000


@dataclass(frozen=True)
class StudySource:
    """Where a study's deals came from: ``n`` deals, the first ``from_corpus`` read from a corpus, ``fresh``
    solved afresh; the corpus's folder, rules hash, deal count and solver version where one was read (None
    otherwise); the node budget (``solve_budget``) and query (``solve_within``) its solves used, if any.

    >>> src = StudySource(n=60, from_corpus=0, fresh=60)
    >>> src.source, src.as_dict()
    ('fresh', {'source': 'fresh', 'n': 60, 'from_corpus': 0, 'fresh': 60})
    """

    n: int
    from_corpus: int
    fresh: int
    solve_budget: int | None = None
    solve_within: int | None = None
    #: The corpus folder (a path) and its manifest's rules hash, deals and solver version; None without one.
    corpus: str | None = None
    rules_hash: str | None = None
    corpus_deals: int | None = None
    solver_version: str | None = None

    @property
    def source(self) -> str:
        """``corpus`` when any deal was read from one, else ``fresh``."""
        return "corpus" if self.from_corpus else "fresh"

    def as_dict(self) -> dict[str, Any]:
        """The JSON form ``odds tapp --json`` and ``odds bids --json`` print: only the keys that apply."""
        out: dict[str, Any] = {"source": self.source, "n": self.n, "from_corpus": self.from_corpus,
                               "fresh": self.fresh}
        if self.solve_budget is not None:
            out["solve_budget"] = self.solve_budget
        if self.solve_within is not None:
            out["solve_within"] = self.solve_within
        if self.corpus is not None:
            out.update({"corpus": self.corpus, "rules_hash": self.rules_hash, "corpus_deals": self.corpus_deals,
                        "solver_version": self.solver_version})
        return out


def _prefix(df: pd.DataFrame) -> int:
    """Deals ``0 .. k - 1`` held without a gap."""
    d = df["deal"].to_numpy()
    ok = d == np.arange(len(d))
    return int(len(d) if ok.all() else np.argmin(ok))


def _budget(rules: Rules, solve_budget: int | None) -> int | None:
    """The node budget a study of ``rules`` solves with (None: exact), as a corpus manifest records it."""
    if solve_budget is None and rules.layout.deck_size >= BUDGET_MIN_CARDS:
        return DEFAULT_BUDGET_NODES
    return solve_budget


def _with_bounds(rows: pd.DataFrame) -> pd.DataFrame:
    """The study columns of corpus rows, plus a budgeted study's interval columns where a total is unresolved."""
    out = rows[list(STUDY_COLUMNS)].copy()
    if rows["points_exact"].all() and rows["base_points_exact"].all():
        return out
    return add_bounds(out, point_intervals(rows))


def study_rows(rules: Rules | str, deals: int | None, seed: int = 1, policy: str = "heuristic", *, scale=None,
               fresh: bool = False, corpus: str | os.PathLike | None = None,
               play: bool = True, solve_budget: int | None = None, least: int = 0,
               chunk_size: int = 24, baseline: bool = True) -> tuple[pd.DataFrame, StudySource]:
    """(study rows of deals ``0 .. deals - 1``, where they came from); ``deals=None``: all of the corpus but at least
    ``least`` deals (the rest solved afresh), else 1000.

    ``play=False`` (melds only) is always computed afresh: it needs no solver. ``chunk_size``: deals per
    chunk of the fresh part (rows do not depend on it; a report's checkpoint does). ``baseline=False``: the
    fresh part skips the Tapp-unseen play (the formula needs none; its columns are then not meaningful).
    """
    rules = load_rules(rules)
    solve_within: int | None = None  # a corpus's query (Solver.within) is adopted with its budget
    if fresh and corpus is not None:
        raise InputError("--fresh and --corpus exclude each other")
    folder = None
    if corpus is not None:
        if not play:
            raise InputError("--corpus: a melds-only study reads no corpus")
        folder = corpus
    elif play and not fresh:
        folder = find_corpus(rules, seed=seed, policy=policy)
    c = None
    if folder is not None:
        try:
            # A damaged chunk is an error, not a silent fresh solve of its deals: the build repairs it.
            c = load_corpus(folder, rules, below=deals)
        except InputError as exc:
            if corpus is not None:
                raise
            raise InputError(f"{exc}; or pass --fresh to solve without the corpus") from None
        if solve_budget is None and (c.manifest.get("solve_budget") is not None
                                     or c.manifest.get("solve_within") is not None):
            # No budget asked for: the corpus's own budget and query are the answer (the provenance says
            # which), and deals beyond it are solved with the same ones, so every row means the same.
            solve_budget = c.manifest.get("solve_budget")
            solve_within = c.manifest.get("solve_within")
        budget = _budget(rules, solve_budget) if solve_within is None else solve_budget
        for key, want in (("seed", seed), ("policy", policy), ("solve_budget", budget),
                          ("solve_within", solve_within)):
            if c.manifest.get(key) != want and corpus is None:  # a shipped corpus of another budget: solve afresh
                c = None
                break
            if c.manifest.get(key) != want:
                raise InputError(f"--corpus {os.fspath(folder)} was built with {key} {c.manifest.get(key)}, "
                                 f"not {want}")
    k = _prefix(c.df) if c is not None else 0
    n = deals if deals is not None else (max(k, least) or DEFAULT_DEALS)
    k = min(k, n)
    parts = []
    if k and c is not None:
        parts.append(_with_bounds(c.df.iloc[:k]))
    if n > k:
        parts.append(study_deals(rules, n, seed=seed, policy=policy, play=play, scale=scale, start=k,
                                 solve_budget=solve_budget, chunk_size=chunk_size, baseline=baseline,
                                 solve_within=solve_within))
    df = pd.concat(parts, ignore_index=True)
    budget = _budget(rules, solve_budget) if solve_within is None else solve_budget
    src = StudySource(n=n, from_corpus=k, fresh=n - k, solve_budget=None if budget is None else int(budget),
                      solve_within=None if solve_within is None else int(solve_within))
    if c is not None:
        src = replace(src, corpus=os.fspath(c.path), rules_hash=c.manifest["rules_hash"],
                      corpus_deals=c.manifest["deals"], solver_version=c.manifest.get("solver_version"))
    return df, src


def study_phases(src: StudySource):
    """Both phases of the corpus a study read (:class:`~binokel_sim.corpus.phases.PhaseRows`, its deals the
    study's ``0 .. n-1``), or None: no phase 2, or deals solved afresh beside the corpus (their bounds
    are no phase-1 rows). The study's rows and these are the same deals in the same order.

    >>> study_phases(StudySource(n=10, from_corpus=0, fresh=10)) is None
    True
    """
    from binokel_sim.corpus.phases import load_phases

    if src.source != "corpus" or src.fresh or src.corpus is None:
        return None
    ph = load_phases(load_corpus(src.corpus, below=src.n))
    if ph is None:
        return None
    rows = ph.rows()
    keep = rows.phase1["deal"].to_numpy() < src.n
    return rows.domain(keep)


def phase2_note(src: StudySource, phases) -> str | None:
    """The line a study prints about its corpus's phases: what joins them, or (a budgeted corpus without
    phase 2) that its double-dummy figures are bounds and the command that adds phase 2; None otherwise."""
    from binokel_sim.corpus.phases import phase2_command

    if phases is not None:
        return (f"two-phase figures: phase 1's bounds on {phases.n1} deals joined with phase 2's totals on the "
                f"first {phases.n2} (solved within a bid step): point figures ± SE, n and n2")
    if src.source == "corpus" and src.solve_budget and not src.solve_within and src.corpus is not None:
        return (f"bounds only: `{phase2_command(src.corpus)}` adds phase 2 (deals solved within a bid step), "
                "which turns the double-dummy ranges into point figures ± SE")
    return None
