"""Every random stream of a seed, in one table.

A seed feeds many independent uses (the meld-odds deals, the study deals, the inner
deals of the sampled exchange, each simulated game...). Each use draws from its own
*stream*: a path of ints handed to :func:`binokel_sim.rng.derive_key` (the spawn key
of :class:`numpy.random.SeedSequence`). Same seed => same numbers rests on two uses
never sharing a stream, so every path lives here, and ``tests/core/test_streams.py``
checks that none collide. A stream ``per`` something (a game) appends that index.

Changing a path changes every seeded number of its use: never renumber one.

>>> stream("study"), stream("game", 3)
((4, 4), (27198, 3))
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stream:
    """One use of a seed: its name, spawn-key path, what draws from it, and the index it takes (if any)."""

    name: str
    path: tuple[int, ...]
    use: str
    per: str | None = None


_TABLE = (
    Stream("deal", (), "binokel deal, Dealer(rules, seed) without a stream"),
    Stream("meld_odds", (6,), "meld-odds deals (binokel_sim.odds.monte_carlo)"),
    Stream("eval_deals", (4, 1), "evaluate_hand: outer deals of the unseen cards"),
    Stream("eval_inner", (4, 2), "sampled exchange: the soloist's inner deals"),
    Stream("eval_base", (4, 3), "sampled exchange: inner deals of the no-Tapp baseline"),
    Stream("study", (4, 4), "study deals: Tapp value, bid levels, formula training"),
    Stream("formula_test", (4, 5), "hand formula: out-of-sample test deals"),
    Stream("calibration", (4, 6), "calibration deals"),
    Stream("game", (0x6A3E,), "simulated games: the deals of game g", per="game"),
    Stream("compare_durch", (0xC0D1,), "compare: sure-Durch deals"),
    Stream("compare_play", (0xC0D2,), "compare: played deals"),
    Stream("twohand_odds", (0x2B0D,), "two-hand meld odds (binokel_sim.twohand.odds)"),
    Stream("twohand_endgame", (0x2BE6,), "two-hand endgame study: exact against heuristic play"),
    Stream("twohand_game", (0x2B1D,), "two-hand games: the deals of game g", per="game"),
    Stream("twohand_exchange", (0x2BE7,), "two-hand study of the trump Seven exchange"),
    Stream("twohand_growth", (0x2B67,), "two-hand report: meld growth in the talon phase"),
    Stream("scale_test", (9,), "tests of the chunk runner (tests/scale_jobs.py)"),
    Stream("bench_bid", (9, 9), "benchmarks/bench_bid.py"),
    Stream("defence", (0xDEF1,), "pass value: deals where each seat passes in turn (binokel fit defence)"),
    Stream("eval_pass", (4, 7), "evaluate_hand: the hand's own deals where it passes (the checked pass value)"),
    Stream("match", (0x3A7C,), "study match: the deals of the duplicate match of bidding policies"),
    Stream("single_dummy", (0x5D01,), "single-dummy play: the worlds drawn at deal d's decisions", per="deal"),
)

#: Every stream by name.
STREAMS: dict[str, Stream] = {s.name: s for s in _TABLE}


def stream(name: str, *index: int) -> tuple[int, ...]:
    """The path of stream ``name``; a ``per`` stream takes its index (``stream("game", g)``)."""
    if name not in STREAMS:
        raise ValueError(f"unknown stream {name!r} (add it to binokel_sim.streams)")
    s = STREAMS[name]
    if (s.per is not None) != bool(index) or len(index) > 1:
        raise ValueError(f"stream {name!r} takes {'one ' + s.per + ' index' if s.per else 'no index'}")
    return s.path + tuple(int(i) for i in index)


__all__ = ["Stream", "STREAMS", "stream"]
