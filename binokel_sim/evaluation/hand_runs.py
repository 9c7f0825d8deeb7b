"""The sampling loops of :func:`binokel_sim.evaluation.hand.evaluate_hand`: every sample exact, or
blocks decided at the deciding bids (:mod:`binokel_sim.evaluation.checked`) with early stopping.

Both stop only at multiples of a block, on the seeded results alone, so workers and chunk size never
change a number.

>>> calls = []; r = Reported(type("Bar", (), {"done": 0, "update": lambda s, n: None, "close": lambda s: None})(),
...                          lambda d, t: calls.append(t), 10)
>>> r.update(4); calls
[10]
"""

from __future__ import annotations

from functools import partial
from typing import Callable

import numpy as np

from binokel_sim.evaluation import checked
from binokel_sim.evaluation.hand import STOP_EVERY, _budget, _merge, _targets, evaluate_chunk
from binokel_sim.evaluation.ladder import safe_bid_se, summarise
from binokel_sim.cards import cards_of
from binokel_sim.runner import Chunk, _Progress, run_chunks


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


def _stop(se: float | None, summary: dict, n: int, checked_se: bool = False) -> bool:
    if se is None or n < 100:
        return False
    err = safe_bid_se(summary["bids"], summary["safe_bid"])
    if checked_se:  # the difference estimate's own error where it is larger (a bid outside the asked ones)
        b = summary["bids"]
        row = b[b["bid"] == (summary["safe_bid"] or int(b["bid"].iloc[0]))]
        err = max(err, float(row["p_make_se"].iloc[0]))
    return err <= se


def run_exact(rules, counts, seat, seed, st, base, predealt, dd, samples, confidence, se, workers, bar):
    """Every sample solved exactly; the early-stopping test every ``STOP_EVERY`` samples."""
    step = samples if se is None else STOP_EVERY
    done: list[dict[str, np.ndarray]] = []
    for b0 in range(0, samples, step):
        b1 = min(b0 + step, samples)
        chunks = [Chunk(k, s, min(s + st.chunk_size, b1)) for k, s in enumerate(range(b0, b1, st.chunk_size))]
        done += run_chunks(lambda c: evaluate_chunk(rules, counts, seat, seed, st, base, c, predealt, dd),
                           chunks, workers=workers)
        bar.update(b1 - b0)
        parts = _merge(done)
        summary = summarise(rules, parts, confidence)
        if _stop(se, summary, parts["code"].shape[0]):
            break
    return parts, {**summary, "n_exact": parts["code"].shape[0]}, []


#: Rounds of the final refinement (the safe bid can move once the last bids are decided everywhere).
REFINE_ROUNDS = 3


def run_thresholds(rules, counts, seat, seed, st, base, predealt, dd, samples, confidence, se, workers, bar):
    """Blocks of :data:`checked.BLOCK` samples decided at the deciding bids (the instant tier's for the
    first block, the estimate's after each), every ``exact_every``-th sample solved exactly; at the end
    every sample is decided at the final deciding bids too."""
    from binokel_sim.evaluation.instant import load_instant

    model = load_instant(rules)
    at = checked.pilot_bids(rules, None if model is None else model.advise(cards_of(counts), rules, seat,
                                                                           confidence, frame=False))
    blocks: list[tuple[int, int, set[int]]] = []
    done: list[dict[str, np.ndarray]] = []
    backend = dict(targets=dd.targets if dd is not None and dd.targets is not None else _targets(_budget(rules, st)),
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
        summary = checked.summarise(rules, parts, confidence)
        if _stop(se, summary, b1, checked_se=True) or b1 == samples:
            break
        at = checked.deciding_bids(rules, summary["safe_bid"], summary["ceiling_bid"])
        # Every sample is decided at every bid asked since its block (the early-stopping test needs P(make)
        # at the safe bid exact on every sample): the earlier ones are asked beside the next block, whose
        # answers they do not need, so no worker waits between the two.
        widened, plan = checked.widen_plan(rules, seat, parts, blocks, at, **backend)
        if widened is not blocks:
            blocks, done = widened, [parts]
    for _ in range(REFINE_ROUNDS):
        # The last block can move the deciding bids: they are asked everywhere too.
        widened = widen(parts, blocks, checked.deciding_bids(rules, summary["safe_bid"], summary["ceiling_bid"]))
        if widened is blocks:
            break
        blocks = widened
        parts = checked.merge([parts], blocks)
        summary = checked.summarise(rules, parts, confidence)
    asked = [[x0, x1, *sorted(bs)] for x0, x1, bs in blocks]
    return parts, summary, asked
