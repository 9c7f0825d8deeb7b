"""The sampling of :func:`binokel_sim.evaluation.hand.evaluate_hand`: the samples of one chunk
(:func:`evaluate_chunk`, with their back ends), and the loops over them -- every sample exact, or
blocks decided at the deciding bids (:mod:`binokel_sim.evaluation.checked`) with early stopping.

Both stop only at multiples of a block, on the seeded results alone, so workers and chunk size never
change a number.

>>> calls = []; r = Reported(type("Bar", (), {"done": 0, "update": lambda s, n: None, "close": lambda s: None})(),
...                          lambda d, t: calls.append(t), 10)
>>> r.update(4); calls
[10]
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache, partial
from typing import Callable

import numpy as np

from binokel_sim.cards import CARD_POINTS
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.evaluation import checked
from binokel_sim.play.dd import (BUDGET_MIN_CARDS, DEFAULT_BUDGET_NODES, DD, Record, budgeted,
                                       threshold_points)
from binokel_sim.evaluation.deals import STREAM_DEALS, EvalSettings, deal_counts, play_deals
from binokel_sim.play.legal import play_rule
from binokel_sim.rules import Rules
from binokel_sim.evaluation.ladder import LadderSummary, safe_bid_se, summary_of_exact
from binokel_sim.evaluation.parts import CheckedRows, DealParts
from binokel_sim.cards import cards_of
from binokel_sim.runner import Chunk, _Progress, run_chunks


def evaluate_chunk(rules: Rules, hand: np.ndarray, seat: int, seed: int, st: EvalSettings,
                   base: tuple[np.ndarray, np.ndarray], chunk: Chunk, predealt: dict | None = None,
                   dd: DD | None = None, at_bids: tuple[int, ...] | None = None,
                   exact: bool = False) -> DealParts | CheckedRows:
    """Deals ``chunk.start .. chunk.stop - 1`` of ``hand``'s evaluation (see :func:`play_deals`).

    ``at_bids``: the threshold path (:mod:`binokel_sim.evaluation.checked`): with ``exact`` the
    chunk's samples ``i % st.exact_every == 0`` solved exactly (with the baseline), else its other
    samples decided at these bids; :class:`~binokel_sim.evaluation.parts.CheckedRows` then, with
    ``index``, ``exact``, ``value_hi``, ``tapp_points`` and the questions asked (to ask more later).
    """
    pre = {seat: cards_of(hand), **(predealt or {})}
    dealer = Dealer(rules, seed, predealt=pre, stream=STREAM_DEALS)
    hands, tapp = deal_counts(dealer.deal(chunk.size, start=chunk.start), rules)
    n = chunk.size
    fixed = (np.full(n, base[0][0], dtype=np.int64), np.full(n, base[1][0], dtype=np.int64))
    views = np.arange(chunk.start, chunk.stop)
    if at_bids is None:
        return play_deals(rules, seat, hands, tapp, seed, st, views, base=fixed, dd=dd).parts()
    sel = (views % st.exact_every == 0) == exact
    back = _exact_backend(rules, st, dd) if exact else _threshold_backend(rules, st, dd, at_bids)
    parts = play_deals(rules, seat, hands[sel], tapp[sel], seed, st, views[sel], base=(fixed[0][sel], fixed[1][sel]),
                       dd=back, baseline=exact).parts()
    m = parts.n
    # The record is keyed by the value array play_deals returned: its upper bounds are found by it.
    value_hi = parts.value if back is None or back.record is None else back.record.hi_of(parts.value)
    asked = (checked.queries_of(back.keep, m, rules.n_seats) if back is not None and back.keep
             else checked.empty_queries(m, rules.n_seats))
    return CheckedRows.of(parts, asked, value_hi, index=views[sel], exact=np.full(m, exact),
                          tapp_points=tapp[sel].astype(np.int64) @ CARD_POINTS)


def _budget(rules: Rules, st: EvalSettings) -> int | None:
    return st.solve_budget if st.solve_budget or rules.layout.deck_size < BUDGET_MIN_CARDS else DEFAULT_BUDGET_NODES


def _exact_backend(rules: Rules, st: EvalSettings, dd: DD | None) -> DD | None:
    """The exact rows' back end: ``dd`` when injected, else exact (within the budget from 48 cards)."""
    return dd if dd is not None else budgeted(rules, _budget(rules, st))


def _threshold_backend(rules: Rules, st: EvalSettings, dd: DD | None, at_bids: tuple[int, ...]) -> DD:
    """The other rows' back end: threshold queries at ``at_bids`` (an injected ``dd`` answers them itself)."""
    if dd is not None:
        return replace(dd, at_bids=at_bids, record=Record(), keep={})
    return DD(at_bids=at_bids, targets=_targets(_budget(rules, st), play_rule(rules)), record=Record(), keep={})


@cache
def _targets(budget: int | None, rule: int):
    # One back end per budget and play rules for the process: its solvers (one per thread) and tables are reused.
    return threshold_points(budget, rule=rule)


#: Early stopping looks at the results every this many samples (the stopping point depends only
#: on the seeded results, never on timing, workers or the chunk size).
STOP_EVERY = 100


class Reported:
    """A progress bar that also tells ``report(done, total)`` after each update."""

    def __init__(self, bar: _Progress, report: Callable[[int, int], None], total: int):
        self.bar, self.report, self.total = bar, report, total

    @property
    def done(self) -> int:
        return self.bar.done

    def update(self, n: int) -> None:
        self.bar.update(n)
        self.report(self.bar.done, self.total)

    def close(self) -> None:
        self.bar.close()


def _stop(se: float | None, summary: LadderSummary, n: int, checked_se: bool = False) -> bool:
    if se is None or n < 100:
        return False
    err = safe_bid_se(summary.bids, summary.safe_bid)
    if checked_se:  # the difference estimate's own error where it is larger (a bid outside the asked ones)
        b = summary.bids
        row = b[b["bid"] == (summary.safe_bid or int(b["bid"].iloc[0]))]
        err = max(err, float(row["p_make_se"].iloc[0]))
    return err <= se


def run_exact(rules, counts, seat, seed, st, base, predealt, dd, samples, confidence, se, workers, bar):
    """Every sample solved exactly; the early-stopping test every ``STOP_EVERY`` samples."""
    step = samples if se is None else STOP_EVERY
    done: list[DealParts] = []
    for b0 in range(0, samples, step):
        b1 = min(b0 + step, samples)
        chunks = [Chunk(k, s, min(s + st.chunk_size, b1)) for k, s in enumerate(range(b0, b1, st.chunk_size))]
        done += run_chunks(lambda c: evaluate_chunk(rules, counts, seat, seed, st, base, c, predealt, dd),
                           chunks, workers=workers)
        bar.update(b1 - b0)
        parts = DealParts.concat(done)
        summary = summary_of_exact(rules, parts, confidence)
        if _stop(se, summary, parts.n):
            break
    return parts, summary, []


#: Rounds of the final refinement (the safe bid can move once the last bids are decided everywhere).
REFINE_ROUNDS = 3


def run_thresholds(rules, counts, seat, seed, st, base, predealt, dd, samples, confidence, se, workers, bar):
    """Blocks of :data:`checked.BLOCK` samples decided at the deciding bids (the instant tier's for the
    first block, the estimate's after each), every ``exact_every``-th sample solved exactly; at the end
    every sample is decided at the final deciding bids too."""
    from binokel_sim.evaluation.instant import load_instant

    model = load_instant(rules)
    at = checked.pilot_bids(rules, None if model is None else model.advise(cards_of(counts), rules, seat,
                                                                           confidence))
    blocks: list[tuple[int, int, set[int]]] = []
    done: list[CheckedRows] = []
    own = dd.targets if dd is not None else None
    backend = dict(targets=own if own is not None else _targets(_budget(rules, st), play_rule(rules)),
                   points=None if dd is None else dd.points)
    widen = partial(checked.widen, rules, seat, workers=workers, **backend)
    plan = None  # the earlier samples' questions at the new bids, asked beside the next block's samples
    for b0 in range(0, samples, checked.BLOCK):
        b1 = min(b0 + checked.BLOCK, samples)
        run = partial(evaluate_chunk, rules, counts, seat, seed, st, base, predealt=predealt, dd=dd, at_bids=at)
        # The exact samples run as tasks of their own, first: a one-core task each, the longest ones.
        exact = [partial(run, Chunk(0, i, i + 1), exact=True) for i in range(b0, b1) if i % st.exact_every == 0]
        ask = [] if plan is None else [partial(plan.ask, c) for c in plan.tasks]
        work = exact + ask + [partial(run, Chunk(0, s, min(s + st.chunk_size, b1)), exact=False)
                              for s in range(b0, b1, st.chunk_size)
                              if any(i % st.exact_every for i in range(s, min(s + st.chunk_size, b1)))]
        got = run_chunks(lambda c, work=work: work[c.index](), [Chunk(k, 0, 1) for k in range(len(work))],
                         workers=workers)
        ne, na = len(exact), len(ask)
        if plan is not None:
            plan.apply(got[ne:ne + na])  # in place, into ``parts`` (``done[0]``)
        done += got[:ne] + got[ne + na:]
        blocks.append((b0, b1, set(at)))
        bar.update(b1 - b0)
        parts = checked.merge(done, blocks)
        summary = checked.summary_of_thresholds(rules, parts, confidence)
        if _stop(se, summary, b1, checked_se=True) or b1 == samples:
            break
        at = checked.deciding_bids(rules, summary.safe_bid, summary.ceiling_bid)
        # Every sample is decided at every bid asked since its block (the early-stopping test needs P(make)
        # at the safe bid exact on every sample): the earlier ones are asked beside the next block, whose
        # answers they do not need, so no worker waits between the two.
        widened, plan = checked.widen_plan(rules, seat, parts, blocks, at, **backend)
        if widened is not blocks:
            blocks, done = widened, [parts]
    for _ in range(REFINE_ROUNDS):
        # The last block can move the deciding bids: they are asked everywhere too.
        widened = widen(parts, blocks, checked.deciding_bids(rules, summary.safe_bid, summary.ceiling_bid))
        if widened is blocks:
            break
        blocks = widened
        parts = checked.merge([parts], blocks)
        summary = checked.summary_of_thresholds(rules, parts, confidence)
    asked = [[x0, x1, *sorted(bs)] for x0, x1, bs in blocks]
    return parts, summary, asked
