"""Random deals played out for the studies (Tapp value, bid levels, hand formula, calibration).

Deal ``i`` (stream ``study`` of :mod:`binokel_sim.streams`) is a uniform full deal; the
soloist is seat ``i mod players`` so every first-lead situation appears as often as at
the table. Each deal gets the hand's features (:mod:`binokel_sim.evaluation.features`),
the melds-only Tapp value (best exchange for melds + discards, against the hand's best
melds + the Tapp's points laid away), and -- with ``play=True`` -- the double-dummy
outcome of the exchange policy and of the no-Tapp baseline (:func:`play_deals`).

Which query (issue #11): the studies report means (Tapp value, mean totals) and P(make) at
every bid of the ladder from one row per deal, so each deal asks the value itself -- exact
below 48 cards, ``bounds`` within a node budget at 48 cards (:func:`binokel_sim.play.dd.budgeted`).
Then ``value``/``result``/``base_result`` are proven lower bounds, ``value_hi``/``result_hi``/
``base_result_hi`` the upper ones, ``tapp_value_lo``/``tapp_value_hi`` the Tapp value's range and
``exact`` says whether the deal was resolved; :func:`bounds_of` reads them (exact when absent).

>>> import numpy as np
>>> from binokel_sim.play.dd import DD, budgeted
>>> df = study_deals("standard", 6, seed=1, policy="melds",
...                  dd=DD(points=lambda c, *a: np.full(len(c), 100, np.int32), specials=lambda: lambda *a: False))
>>> df["soloist"].tolist(), bool((df["melds_tapp_value"] >= 0).all())
([0, 1, 2, 0, 1, 2], True)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from binokel_sim import streams
from binokel_sim.cards import CARD_POINTS
from binokel_sim.contracts import CONTRACT_NAMES, is_trump
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.evaluation.deals import EvalSettings, deal_counts, play_deals
from binokel_sim.play.dd import DD, budgeted
from binokel_sim.exchange.policy import build_candidates
from binokel_sim.evaluation.features import FEATURES, features_batch
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.melds.scorer import totals_by_trump
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Chunk, Job, Scale, chunk_ranges, run_local_chunks

STREAM_STUDY = streams.stream("study")


def _melds_only(rules: Rules, mine: np.ndarray, tapp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(best exchange for melds + discards, hand's best melds + Tapp points laid away) per deal."""
    cs = build_candidates(rules, mine, tapp, "melds", per_trump=1)
    trump = is_trump(cs.code)
    with_tapp = np.where(trump, cs.cheap, -np.inf).max(axis=1)
    table = rules.meld_array()
    tot = np.empty(4, dtype=np.int64)
    without = np.empty(mine.shape[0], dtype=np.float64)
    tp = tapp.astype(np.int64) @ CARD_POINTS
    for i in range(mine.shape[0]):
        totals_by_trump(np.ascontiguousarray(mine[i]), table, tot)
        without[i] = tot.max() + tp[i]
    return with_tapp, without


def deal_hands(rules: Rules, seed: int, chunk: Chunk, stream: tuple[int, ...] = STREAM_STUDY
               ) -> tuple[np.ndarray, np.ndarray]:
    """(hands uint8[n, seats, 24], tapp uint8[n, 24]) of a chunk's deals: the cards alone, without
    :func:`deal_frame`'s features and melds-only exchange."""
    rows = Dealer(rules, seed, stream=stream).deal(chunk.size, start=chunk.start)
    return deal_counts(rows, rules)


def deal_frame(rules: Rules, seed: int, chunk: Chunk, stream: tuple[int, ...] = STREAM_STUDY
               ) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """(rows with the features and melds-only columns, hands uint8[n, seats, 24], tapp uint8[n, 24]) of a chunk."""
    hands, tapp = deal_hands(rules, seed, chunk, stream)
    idx = np.arange(chunk.start, chunk.stop)
    seats = idx % rules.n_seats
    mine = np.ascontiguousarray(hands[np.arange(chunk.size), seats])
    feats = np.empty((chunk.size, len(FEATURES)), dtype=np.int64)
    features_batch(mine, rules.meld_array(), feats)
    df = pd.DataFrame(feats, columns=list(FEATURES))
    df.insert(0, "deal", idx)
    df.insert(1, "soloist", seats)
    with_tapp, without = _melds_only(rules, mine, tapp)
    df["melds_with_tapp"] = with_tapp
    df["melds_tapp_unseen"] = without
    df["melds_tapp_value"] = with_tapp - without
    return df, hands, tapp


def add_play_columns(df: pd.DataFrame, cols: dict[str, np.ndarray]) -> pd.DataFrame:
    """Append the double-dummy columns of :func:`study_chunk` from :func:`play_deals`-style arrays."""
    df["value"] = cols["value"]
    df["took"] = cols["took"]
    df["contract"] = [CONTRACT_NAMES[c] for c in cols["code"]]
    df["code"] = cols["code"]
    df["special_made"] = cols["special_made"]
    df["result"] = cols["result"]
    df["base_result"] = cols["base_result"]
    df["tapp_value"] = cols["result"] - cols["base_result"]
    df["subjective"] = list(cols["subjective"])
    df["subjective_took"] = list(cols["subjective_took"])
    return df


@dataclass(frozen=True)
class PointBounds:
    """Proven bounds of each deal's points (int[n] each): ``value`` .. ``value_hi`` with the Tapp, ``base_value``
    .. ``base_value_hi`` without it (equal where a deal was resolved); what :func:`add_bounds` takes.

    >>> b = PointBounds.of({"value": np.array([100, 90])}); b.value_hi.tolist(), b.base_value.tolist()
    ([100, 90], [100, 90])
    """

    value: np.ndarray
    value_hi: np.ndarray
    base_value: np.ndarray
    base_value_hi: np.ndarray

    @classmethod
    def of(cls, cols: Mapping[str, np.ndarray]) -> PointBounds:
        """From :func:`play_deals`-style arrays: ``value``, and where present ``base_value``, ``value_hi`` and
        ``base_value_hi`` (absent: exact, the lower bound again; no baseline: the value)."""
        value = cols["value"]
        base = cols.get("base_value", value)
        return cls(value=value, value_hi=cols.get("value_hi", value), base_value=base,
                   base_value_hi=cols.get("base_value_hi", base))


def add_bounds(df: pd.DataFrame, b: PointBounds) -> pd.DataFrame:
    """The interval columns (see the module docstring) from the deals' point bounds ``b``."""
    value, hi, base, base_hi = b.value, b.value_hi, b.base_value, b.base_value_hi
    df["value_hi"] = hi
    df["result_hi"] = df["result"].to_numpy(np.int64) + (hi - value)
    df["base_result_hi"] = df["base_result"].to_numpy(np.int64) + (base_hi - base)
    df["tapp_value_lo"] = df["result"] - df["base_result_hi"]
    df["tapp_value_hi"] = df["result_hi"] - df["base_result"]
    df["exact"] = (hi == value) & (base_hi == base)
    return df


def point_intervals(rows: pd.DataFrame) -> PointBounds:
    """The :class:`PointBounds` of corpus rows (their ``points_lo``/``points_hi`` and ``base_`` columns;
    ``value``/``result``/``base_result`` hold the lower bounds)."""
    def col(c: str) -> np.ndarray:
        return rows[c].to_numpy(np.int64)

    return PointBounds(value=col("points_lo"), value_hi=col("points_hi"), base_value=col("base_points_lo"),
                       base_value_hi=col("base_points_hi"))


def row_bounds(rows: pd.DataFrame, col: str) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) proven bounds of ``value`` or ``tapp_value`` of corpus rows, as the studies read them (an
    exact row gives its value twice)."""
    cols = rows[["value", "result", "base_result", "tapp_value"]].copy()
    return bounds_of(add_bounds(cols, point_intervals(rows)), col)


def bounds_of(df: pd.DataFrame, col: str) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) bounds of ``value``, ``result`` or ``tapp_value`` per row; rows without interval
    columns (exact solves, corpus rows) give the value twice.

    >>> d = pd.DataFrame({"value": [100, 90], "value_hi": [100, 130]})
    >>> [x.tolist() for x in bounds_of(d, "value")]
    [[100.0, 90.0], [100.0, 130.0]]
    """
    x = df[col].to_numpy(np.float64)
    lo_col, hi_col = (f"{col}_lo", f"{col}_hi") if col == "tapp_value" else (col, f"{col}_hi")
    lo = df[lo_col].to_numpy(np.float64) if lo_col in df else x
    hi = df[hi_col].to_numpy(np.float64) if hi_col in df else x
    return np.where(np.isnan(lo), x, lo), np.where(np.isnan(hi), x, hi)


def upper_parts(g: pd.DataFrame) -> DealParts:
    """:func:`parts_of` with every deal at its upper bound: unresolved deals counted as made (exact rows: equal)."""
    hi = bounds_of(g, "value")[1]
    up = parts_of(g)
    return up.replace(value=hi.astype(np.int64), took=up.took | (hi > 0),
                      result=bounds_of(g, "result")[1].astype(np.int64))


def study_chunk(rules: Rules, seed: int, st: EvalSettings, chunk: Chunk, play: bool, dd: DD | None,
                stream: tuple[int, ...] = STREAM_STUDY, baseline: bool = True,
                solve_budget: int | None = None, solve_within: int | None = None) -> pd.DataFrame:
    """One chunk of :func:`study_deals` as a DataFrame (one row per deal)."""
    df, hands, tapp = deal_frame(rules, seed, chunk, stream)
    if play:
        if dd is None:
            dd = budgeted(rules, solve_budget, solve_within)
        idx = df["deal"].to_numpy()
        seats = df["soloist"].to_numpy()
        cols: dict[str, np.ndarray] = {}
        for s in range(rules.n_seats):
            sel = np.nonzero(seats == s)[0]
            if sel.size == 0:
                continue
            # Views are numbered by deal index, so inner draws do not depend on the chunking.
            # No Durch check: no study reads it, and near-Durch queries are the solver's slowest.
            parts = play_deals(rules, s, hands[sel], tapp[sel], seed, st, idx[sel], dd=dd, baseline=baseline,
                               durch_check=False).columns()
            for k, v in parts.items():
                if k not in cols:
                    cols[k] = np.zeros((chunk.size, *v.shape[1:]), dtype=v.dtype)
                cols[k][sel] = v
            if dd is not None and dd.record is not None:
                # The record is keyed by the arrays play_deals returned: gather their upper bounds now.
                for k in ("value", "base_value"):
                    cols.setdefault(f"{k}_hi", np.zeros(chunk.size, dtype=np.int64))[sel] = dd.record.hi_of(parts[k])
        add_play_columns(df, cols)
        add_bounds(df, PointBounds.of(cols))
    return df


def study_deals(rules: Rules | str | os.PathLike[str], deals: int, seed: int = 1, policy: str = "heuristic",
                settings: EvalSettings | None = None, play: bool = True, dd: DD | None = None,
                stream: tuple[int, ...] = STREAM_STUDY, chunk_size: int = 24, baseline: bool = True,
                scale: Scale | None = None, start: int = 0, solve_budget: int | None = None,
                solve_within: int | None = None) -> pd.DataFrame:
    """Deals ``start .. deals - 1``, one row each (features, melds-only and double-dummy outcomes).

    ``baseline=False`` skips the no-Tapp play (the formula and calibration do not need it).
    ``solve_budget``: nodes per deal for ``Solver.bounds`` (None: exact below 48 cards, else
    :data:`~binokel_sim.play.dd.DEFAULT_BUDGET_NODES`; see the module docstring).
    ``solve_within``: the ``Solver.within`` query (every total to fewer than that many points first).
    ``start``: skip the first deals (e.g. those a corpus already holds); rows do not depend on it.
    ``scale`` (a :class:`binokel_sim.runner.Scale`): workers, progress, checkpoint, scheduler;
    the chunks run as a :class:`~binokel_sim.runner.Job`. A replaced back end ``dd`` is a
    closure, not a plain parameter: it runs on local threads, and a checkpoint or scheduler
    in ``scale`` is refused.
    """
    rules = as_rules(rules)
    rules.require_auction("study deals (Tapp, bids)")
    st = (settings or EvalSettings(policy=policy)).check()
    if dd is None:
        params = StudyParams(st, play, tuple(stream), baseline, solve_budget, solve_within, start or None)
        job = Job("study-deals", study_job_chunk, n=deals - start, seed=seed, rules=rules, chunk_size=chunk_size,
                  params=params)
        return pd.concat(job.run(scale, desc="deals"), ignore_index=True)
    chunks = [Chunk(c.index, c.start + start, c.stop + start) for c in chunk_ranges(deals - start, chunk_size)]
    frames = run_local_chunks(lambda c: study_chunk(rules, seed, st, c, play, dd, stream, baseline, solve_budget,
                                                      solve_within),
                              chunks, scale, desc="deals", what="a replaced dd back end")
    return pd.concat(frames, ignore_index=True)


@dataclass(frozen=True)
class StudyParams:
    """The parameters of a ``study-deals`` job (see :func:`study_deals`); ``start``: the first deal (None: 0)."""

    settings: EvalSettings
    play: bool
    stream: tuple[int, ...]
    baseline: bool
    solve_budget: int | None = None
    solve_within: int | None = None
    start: int | None = None


def study_job_chunk(job, chunk: Chunk) -> pd.DataFrame:
    """:func:`study_chunk` as a :class:`~binokel_sim.runner.Job` calls it (top-level, so it pickles for Dask)."""
    p: StudyParams = job.params
    off = p.start or 0
    chunk = Chunk(chunk.index, chunk.start + off, chunk.stop + off)
    return study_chunk(job.rules, job.seed, p.settings.check(), chunk, p.play, None, p.stream, p.baseline,
                       p.solve_budget, p.solve_within)


def parts_of(df: pd.DataFrame) -> DealParts:
    """The deals :func:`binokel_sim.evaluation.ladder.bid_table` takes, from study (or corpus) rows."""
    return DealParts(
        value=df["value"].to_numpy(np.int64), took=df["took"].to_numpy(bool), code=df["code"].to_numpy(np.int64),
        special_made=df["special_made"].to_numpy(bool), result=df["result"].to_numpy(np.int64),
        subjective=np.stack(df["subjective"].to_numpy()), subjective_took=np.stack(df["subjective_took"].to_numpy()),
    )
