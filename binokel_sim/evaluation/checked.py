"""The checked tier's cheap path: threshold queries at the deciding bids, exact values on a subsample.

A bid ladder needs, per sampled deal, only whether the soloist's total reaches each
bid; a mean (E[score], the Tapp value) also needs how far above it lands. So every
sample is asked threshold queries at a few *deciding bids* ``B`` (the safe and the
ceiling bid with their neighbours: :func:`deciding_bids`), and only every
``exact_every``-th sample (index ``i % exact_every == 0``) is solved exactly, with its
no-Tapp baseline. The rest of the ladder comes from a *difference estimator*
(two-phase sampling, Cochran 1977, ch. 12):

* every row gets a proxy ``x`` of each figure (:func:`proxy_parts`): the total replaced by
  the policy's own estimate clipped into the row's proven cell of ``B`` -- so at a bid of
  ``B`` the proxy's "made" *is* the double-dummy one, and the going-out decision (from
  the policy's estimate) is exact on every row;
* the exact rows also have the true value ``y``;
* estimate ``T = mean_N(x) + mean_M(y - x)``: unbiased whatever the proxy's quality, with
  ``Var = s_z^2 / M + (1 - f)^2 s_x^2 / (N - M)``, ``z = y - (1 - f) x`` on the exact rows,
  ``f = M / N`` (:func:`two_phase`). A figure the proxy gets right on every row (P(make) at
  a bid of ``B``, P(go out), contract shares) has the plain binomial error of all ``N``.

The estimate is clipped into the mean of the samples' proven ranges, so no figure leaves what the
scoring allows (:mod:`binokel_sim.evaluation.bounds`), and it rests on at least :data:`MIN_EXACT`
exact samples (:func:`exact_every_for`): every error is estimated, finite from two samples on.

The cell is a function of the exact value alone (:func:`cells`), so an exact row's proxy is
the one a threshold row would have had. ``B`` is chosen by the instant tier for the first
block of samples (or a 50-point grid where no instant model exists), then after each block
of :data:`BLOCK` samples from the estimate so far: a function of the seeded results only,
so workers and chunk size never change a number.

>>> x = np.array([[1.0], [0.0], [1.0], [0.0]]); y = np.array([[1.0], [1.0]])
>>> t, se = two_phase(x, y, np.array([True, True, False, False]))
>>> float(t[0])  # mean 0.5 of the proxy, +0.5 corrected on the exact half
1.0
>>> deciding_bids(load_rules("standard"), safe=300, ceiling=350)
(300, 310, 350, 360)
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from binokel_sim.stats import decreasing

from binokel_sim.cards import N_TYPES
from binokel_sim.contracts import is_trump
from binokel_sim.evaluation.ladder import LadderSummary, contract_shares, decisions, mean_se, outcomes
from binokel_sim.evaluation.instant_advice import InstantAdvice, Ladder
from binokel_sim.evaluation.parts import CheckedRows, Queries
from binokel_sim.rules import Rules, load_rules  # noqa: F401  (load_rules: the doctest)
from binokel_sim.scoring import bid_ladder
from binokel_sim.stats import wilson_from_se

#: Samples per block: the deciding bids and the early-stopping test are renewed after each block.
BLOCK = 100
#: Where no instant model exists, the first block is decided on this grid of bids (50-point steps).
PILOT_STEP = 50
#: A cell's open top (no deciding bid above the value).
TOP = 1 << 20
#: Rows per task when earlier samples are asked new bids (small, as ``EvalSettings.chunk_size``).
REFINE_ROWS = 5
#: Every estimate rests on at least this many exactly solved samples (on all of them when fewer are drawn).
MIN_EXACT = 10


def exact_every_for(samples: int, every: int) -> int:
    """``every``, or less so that ``samples`` hold at least :data:`MIN_EXACT` exact samples (all, when fewer):
    a correction from one or two samples would leave the estimate to chance.

    >>> exact_every_for(1000, 50), exact_every_for(200, 50), exact_every_for(20, 50), exact_every_for(5, 50)
    (50, 20, 2, 1)
    """
    return max(1, min(every, samples // MIN_EXACT))


def deciding_bids(rules: Rules, safe: int | None, ceiling: int | None) -> tuple[int, ...]:
    """The bids every sample is decided at: the safe bid and the next one, the ceiling and the next one
    (a missing one: the minimum bid) -- where P(make) crosses the confidence and E[score] crosses 0."""
    step, low = rules.bidding.bid_step, rules.bidding.min_bid
    s = low if safe is None else safe
    c = low if ceiling is None else ceiling
    return tuple(sorted({max(low, b) for b in (s, s + step, c, c + step)}))


def pilot_bids(rules: Rules, instant: InstantAdvice | None, top: int = 600) -> tuple[int, ...]:
    """The first block's bids: from the instant tier's answer, else every :data:`PILOT_STEP` points."""
    if instant is not None:
        return deciding_bids(rules, instant.safe_bid, instant.ceiling_bid)
    return tuple(range(rules.bidding.min_bid, top + 1, PILOT_STEP))


def cells(bids, value: np.ndarray, value_hi: np.ndarray, took: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the cell of ``bids`` its total is proven to lie in: (highest bid made or 0, lowest bid
    not made - 1 or :data:`TOP`). A bid neither proven made nor failed (a budget ran out) widens the cell."""
    b = np.asarray(sorted(bids), dtype=np.int64)[None, :]
    made = took[:, None] & (value[:, None] >= b)
    failed = value_hi[:, None] < b
    lo = np.where(made, b, 0).max(axis=1)
    hi = np.where(failed, b - 1, TOP).min(axis=1)
    return lo, hi


def empty_queries(n: int, seats: int) -> Queries:
    """The :class:`~binokel_sim.evaluation.parts.Queries` of ``n`` rows with nothing asked (``trump`` -1)."""
    return Queries(counts=np.zeros((n, seats, N_TYPES), dtype=np.uint8), trump=np.full(n, -1, dtype=np.int8),
                   bonus=np.zeros((n, seats), dtype=np.int32), outside=np.zeros(n, dtype=np.int64),
                   disc=np.zeros(n, dtype=np.int64))


def queries_of(keep: dict, n: int, seats: int) -> Queries:
    """The questions of ``n`` rows from a back end's ``keep`` (:class:`binokel_sim.play.dd.DD`)."""
    q = empty_queries(n, seats)
    rows = keep["rows"]
    for col, key in zip(q, Queries._fields):
        col[rows] = keep[key]
    return q


class RefinePlan(NamedTuple):
    """Questions to earlier samples at new bids: ``ask`` each of ``tasks`` (on any worker), then
    ``apply`` the answers in task order (in place)."""

    tasks: list
    ask: Callable
    apply: Callable

    def run(self, workers: int | None = 1) -> None:
        """Ask and apply, on ``workers`` threads of their own."""
        from binokel_sim.runner import run_chunks

        self.apply(run_chunks(self.ask, self.tasks, workers=workers))


def refine_plan(rules: Rules, seat: int, parts: CheckedRows, bids, targets,
                points=None) -> RefinePlan | None:
    """How every threshold row gets decided at ``bids`` too (in place, by the plan's ``apply``): a row is
    asked only the bids inside its cell (the others its earlier answers decide); ``None`` when no row needs
    a question. ``targets``: the threshold back end (:func:`binokel_sim.play.dd.threshold_points`);
    ``points``: an exact one instead (a stand-in)."""
    from binokel_sim.play.dd import first_leader
    from binokel_sim.runner import Chunk
    from binokel_sim.scoring import points_targets, round_points

    b = np.asarray(sorted(bids), dtype=np.int64)
    inside = (parts.cell_lo[:, None] < b[None, :]) & (b[None, :] <= parts.cell_hi[:, None])
    rows = np.nonzero(~parts.exact & (parts.q_trump >= 0) & inside.any(axis=1))[0]
    if rows.size == 0:
        return None
    tg = points_targets(rules, parts.q_outside[rows], parts.q_disc[rows], b)
    first = tg[np.arange(rows.size), inside[rows].argmax(axis=1)]
    tg = np.where(inside[rows], tg, first[:, None])  # a bid the cell decides is not asked again
    lead = np.full(rows.size, first_leader(rules, seat, 0), dtype=np.int8)
    side = np.full(rows.size, rules.layout.side_masks[seat], dtype=np.uint8)
    args = (parts.q_counts[rows], parts.q_trump[rows], lead, side, parts.q_bonus[rows],
            int(rules.play.last_trick))

    def ask(c: Chunk) -> tuple[np.ndarray, np.ndarray]:
        a = tuple(x[c.start:c.stop] if isinstance(x, np.ndarray) else x for x in args)
        if points is not None:
            p = np.asarray(points(*a), dtype=np.int64)
            return p, p
        return targets(*a, tg[c.start:c.stop])

    def apply(got: list[tuple[np.ndarray, np.ndarray]]) -> None:
        lo = np.concatenate([g[0] for g in got]).astype(np.int64)
        hi = np.concatenate([g[1] for g in got]).astype(np.int64)
        out, dp = parts.q_outside[rows], parts.q_disc[rows]
        value = np.maximum(parts.value[rows], out + round_points(dp + lo, rules))
        took = parts.took[rows] | (lo > 0)
        value_hi = np.minimum(parts.hi[rows], out + round_points(dp + hi, rules))
        # In place: the rows' arrays are the same objects the next :func:`merge` reads.
        parts.value[rows], parts.took[rows], parts.hi[rows] = value, took, value_hi
        parts.result[rows] = value  # the cells follow in the next :func:`merge`, with the bids added to the blocks

    tasks = [Chunk(i, s, min(s + REFINE_ROWS, rows.size)) for i, s in enumerate(range(0, rows.size, REFINE_ROWS))]
    return RefinePlan(tasks, ask, apply)


def widen_plan(rules: Rules, seat: int, parts: CheckedRows, blocks, bids, targets, points=None):
    """``(blocks with bids added, the refine plan or None)``; the same list (and None) when every block
    holds ``bids`` already. Apply the plan before the next :func:`merge` of ``parts``."""
    new = set(bids)
    if all(new <= bs for _, _, bs in blocks):
        return blocks, None
    return [(x0, x1, bs | new) for x0, x1, bs in blocks], refine_plan(rules, seat, parts, new, targets, points)


def widen(rules: Rules, seat: int, parts: CheckedRows, blocks, bids, targets, workers: int | None = 1,
          points=None):
    """``blocks`` (``(start, stop, bids)``) all decided at ``bids`` too: the samples are asked what their cells
    leave open (:func:`refine_plan`, in place). The same list when every block holds ``bids`` already."""
    widened, plan = widen_plan(rules, seat, parts, blocks, bids, targets, points)
    if plan is not None:
        plan.run(workers)
    return widened


def merge(chunks: list[CheckedRows], blocks) -> CheckedRows:
    """Rows of ``chunks`` in sample order, with each row's cell of the bids its block was decided at
    (``blocks``: ``(start, stop, bids)``; an exact row's cell follows from its value the same way)."""
    rows = CheckedRows.concat(chunks)
    rows = rows.select(np.argsort(rows.index, kind="stable"))
    cell_lo, cell_hi = np.zeros(rows.n, dtype=np.int64), np.zeros(rows.n, dtype=np.int64)
    open_ = rows.value < rows.hi
    trump = is_trump(rows.code)
    for b0, b1, bids in blocks:
        sel = (rows.index >= b0) & (rows.index < b1)
        b = np.asarray(sorted(bids), dtype=np.int64)
        v, hi, took = rows.value[sel], rows.hi[sel], rows.took[sel]
        cell_lo[sel], cell_hi[sel] = cells(b, v, hi, took)
        # A budget cut: a bid neither proven made nor failed (an exact row: any interval left).
        undecided = (~(took[:, None] & (v[:, None] >= b)) & (hi[:, None] >= b)).any(axis=1)
        open_[sel] = trump[sel] & np.where(rows.exact[sel], v < hi, undecided)
    return rows.replace(cell_lo=cell_lo, cell_hi=cell_hi, open=open_)


def proxy_parts(parts: CheckedRows) -> CheckedRows:
    """``parts`` with each trump row's total replaced by the policy's estimate clipped into its cell."""
    trump = is_trump(parts.code)
    subj = parts.subjective.astype(np.float64).mean(axis=1)
    v = np.clip(np.rint(subj).astype(np.int64), parts.cell_lo, parts.cell_hi)
    # A made bid of B proves a trick; below every bid of B the policy's own view decides.
    took = (parts.cell_lo > 0) | (parts.subjective_took.mean(axis=1) >= 0.5)
    return parts.replace(value=np.where(trump, v, parts.value), took=np.where(trump, took, parts.took),
                         result=np.where(trump, v, parts.result))


def two_phase(x: np.ndarray, y: np.ndarray, exact: np.ndarray, lo: np.ndarray | None = None,
              hi: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Difference estimate and its standard error per column: ``x`` [N, k] proxies on every row,
    ``y`` [M, k] true values on the rows ``exact`` (bool[N]); see the module docstring.

    ``lo``/``hi`` [N, k]: each row's proven range of the figure (the exact rows': their value). The
    estimate is clipped into the range of their means -- the true mean of the N samples lies there,
    so the clip only removes error -- and with fewer than two exact rows the correction's spread is
    bounded by the ranges (``|y - x| <= max(hi - x, x - lo)``) instead of estimated: the error is
    finite whenever ``N >= 2``. The proxies' own spread is estimated on all N rows.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    n, m = x.shape[0], int(exact.sum())
    f = m / n
    xe = x[exact]
    t = x.mean(axis=0) + (y - xe).mean(axis=0)
    z = y - (1 - f) * xe
    sx2 = x.var(axis=0, ddof=1) if n > 1 else np.full(x.shape[1], np.nan)
    if m > 1:
        sz2 = z.var(axis=0, ddof=1)
    elif lo is not None and hi is not None and n > 1:
        d2 = np.maximum(hi - x, x - lo).astype(np.float64) ** 2
        sz2 = (np.sqrt(d2.mean(axis=0)) + f * np.sqrt(sx2)) ** 2
    else:
        sz2 = np.full(x.shape[1], np.nan)
    var = sz2 / max(m, 1) + ((1 - f) ** 2 * sx2 / (n - m) if n > m else 0.0)
    if lo is not None and hi is not None:
        t = np.clip(t, np.asarray(lo, dtype=np.float64).mean(axis=0), np.asarray(hi, dtype=np.float64).mean(axis=0))
    return t, np.sqrt(var)


def ladder(rules: Rules, parts: CheckedRows, bids=None) -> Ladder:
    """The columns of :func:`binokel_sim.evaluation.ladder.ladder_columns`, by :func:`two_phase`,
    plus ``n_exact`` (the exactly solved samples behind each correction).

    Each figure is clipped into the mean of the samples' proven ranges
    (:func:`binokel_sim.evaluation.bounds.row_outcome_bounds`); P(make) then takes the closest
    falling ladder (:func:`~binokel_sim.stats.decreasing`): on every sample "made" falls with the bid, so only
    the correction's noise can make the mean rise. E[score] too: every option at a higher bid is worse (made:
    the same total; failed or gone out: a larger loss), so a rise is noise or a misstep of the going-out rule
    (failing at one bid, going out at the next), never the hand's worth.
    """
    from binokel_sim.evaluation.bounds import row_outcome_bounds

    exact = parts.exact
    px = proxy_parts(parts)
    if bids is None:
        ok = is_trump(px.code) & px.took
        top = int(max(px.value[ok].max(initial=0), parts.value[exact & ok].max(initial=0)))
        step = rules.bidding.bid_step
        bids = bid_ladder(rules, max(-(-top // step) * step + step, rules.bidding.min_bid))
    bids = np.sort(np.asarray(bids, dtype=np.int64))
    n, m = exact.shape[0], int(exact.sum())
    xs = outcomes(rules, px, bids)
    ys = outcomes(rules, parts.select(exact), bids)
    lows, highs = row_outcome_bounds(rules, parts, bids)
    (p, p_se), (sc, sc_se), (ps, ps_se), (pd_, _) = (two_phase(a, b, exact, lo, hi)
                                                      for a, b, lo, hi in zip(xs, ys, lows, highs))
    p = decreasing(np.clip(p, 0.0, 1.0))
    ps = np.clip(ps, 0.0, 1.0)
    lo, hi = wilson_from_se(p, p_se, n)
    return Ladder.of({
        "bid": np.asarray(bids), "n": np.full(len(bids), n),
        "p_make": p, "p_make_se": p_se, "p_make_lo": lo, "p_make_hi": hi,
        "expected_score": decreasing(sc), "expected_score_se": sc_se, "p_surrender": ps, "p_surrender_se": ps_se,
        "p_made_dd": decreasing(np.clip(pd_, 0.0, 1.0)), "n_exact": np.full(len(bids), m),
    })


def _figure(x: np.ndarray, y: np.ndarray, exact: np.ndarray, lo: np.ndarray, hi: np.ndarray
            ) -> tuple[float, float]:
    t, se = two_phase(x[:, None], y[:, None], exact, lo[:, None], hi[:, None])
    return float(t[0]), float(se[0])


def summary_of_thresholds(rules: Rules, parts: CheckedRows, confidence: float) -> LadderSummary:
    """What :func:`binokel_sim.evaluation.ladder.summary_of_exact` gives, from threshold rows and exact ones
    (merged by :func:`merge`).

    Tapp value and totals: the proxy of the total with the Tapp is :func:`proxy_parts`' one; of
    the total with the Tapp laid away unseen, the Tapp's card points (they go to the discards).
    """
    from binokel_sim.evaluation.bounds import total_range

    exact = parts.exact
    bids = ladder(rules, parts).frame()
    d = decisions(rules, bids, confidence)
    px = proxy_parts(parts)
    base = parts.need("base_result")
    ye_result, ye_base = parts.result[exact], base[exact]
    x_with = px.result.astype(np.float64)
    x_base = parts.tapp_points.astype(np.float64)
    # Proven ranges: the total with the Tapp from the row's interval; without it (solved on the exact rows
    # only) anything the scoring allows.
    low, high = total_range(rules)
    with_lo = parts.result.astype(np.float64)
    with_hi = np.where(is_trump(parts.code), parts.hi, parts.result).astype(float)
    base_lo = np.where(exact, base, low).astype(np.float64)
    base_hi = np.where(exact, base, high).astype(np.float64)
    return LadderSummary(
        bids=bids, ceiling_bid=d.ceiling_bid, safe_bid=d.safe_bid, order_note=d.order_note,
        tapp_value=_figure(x_with - x_base, (ye_result - ye_base).astype(np.float64), exact,
                           with_lo - base_hi, with_hi - base_lo),
        total_with_tapp=_figure(x_with, ye_result.astype(np.float64), exact, with_lo, with_hi),
        total_tapp_unseen=_figure(x_base, ye_base.astype(np.float64), exact, base_lo, base_hi),
        contracts=contract_shares(parts.code), p_durch=mean_se(parts.need("durch")), n_exact=int(exact.sum()),
        unresolved=float(parts.open.mean()),
    )
