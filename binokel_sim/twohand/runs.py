"""Many two-hand games as one seeded chunked job, and their summary with standard errors.

Returns the same :class:`binokel_sim.game.runs.GameResults` as the three-hand games:
``games`` (one row per game), ``deals`` (one row per deal: each seat's melds, card
points and score, running totals, who exchanged the trump Seven, who claimed) and
``summary`` (figure, value, se, lo, hi, n; lo/hi the Wilson interval of a rate).
Figures: deals per game, forehand's win rate (player 0, forehand in the first
deal), mean score / meld points / card points per deal by seat, the share of deals
with an exchange and the value of the exchange (paired replay, see
:mod:`binokel_sim.twohand.games`), games in which both players reached the target in
the last deal (where the claim rule, or else the higher total, decided).

>>> from binokel_sim.rules import load_rules
>>> res = simulate_twohand_games(load_rules("two-hand"), games=2, seed=1)
>>> int(res.summary.set_index("figure").loc["deals per game", "n"])
2
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from binokel_sim._version import __version__
from binokel_sim.errors import InputError
from binokel_sim.rules import Rules
from binokel_sim.game.results import GameResults, mean_row, rate_row
from binokel_sim.runner import Chunk, Job, Scale

GAMES_PER_CHUNK = 4


@dataclass(frozen=True)
class TwoHandParams:
    """The parameters of a ``twohand-games`` job: deals per game at most, the talon and endgame players."""

    max_deals: int
    talon: str = "heuristic"
    endgame: str = "exact"


def twohand_chunk(job: Job, chunk: Chunk) -> list[dict]:
    """Games ``chunk.start .. chunk.stop - 1`` (each a dict, see :func:`.games.simulate_twohand_game`)."""
    from binokel_sim.twohand.games import simulate_twohand_game
    from binokel_sim.twohand.search import TwoSeatSearch

    search = TwoSeatSearch()
    return [simulate_twohand_game(job.rules, job.seed, g, search, job.params.max_deals)
            for g in range(chunk.start, chunk.stop)]


def simulate_twohand_games(rules: Rules, games: int, seed: int = 1, scale: Scale | None = None,
                           max_deals: int = 400):
    """Simulate ``games`` whole two-hand games; numbers depend only on (rules, seed, games)."""

    if rules.layout.kind != "talon":
        raise InputError(f"rules {rules.name!r}: layout {rules.layout.name!r} is not a two-hand (talon) layout")
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 0:
        raise InputError(f"--games: expected a non-negative integer, got {games!r}")
    job = Job("twohand-games", twohand_chunk, n=int(games), seed=seed, rules=rules,
              params=TwoHandParams(int(max_deals)),
              chunk_size=GAMES_PER_CHUNK)
    t0 = time.perf_counter()
    recs = [g for part in job.run(scale or Scale(), desc="games") for g in part]
    gdf = pd.DataFrame([{k: r[k] for k in ("game", "deals", "winner", "final_p0", "final_p1", "exchange_gain")}
                        for r in recs], columns=["game", "deals", "winner", "final_p0", "final_p1", "exchange_gain"])
    ddf = pd.DataFrame([row for r in recs for row in r["rows"]])
    prov = {"version": __version__, "rules": rules.name, "rules_source": rules.source, "seed": seed,
            "games": int(games), "deals": int(len(ddf)), "max_deals": max_deals, "talon": "heuristic",
            "play": "heuristic talon phase, exact double-dummy endgame", "seconds": round(time.perf_counter() - t0, 3)}
    return GameResults(gdf, ddf, summarise_twohand(gdf, ddf, rules.game.target), prov)


def summarise_twohand(games: pd.DataFrame, deals: pd.DataFrame, target: int) -> pd.DataFrame:
    """The summary table: a proportion (rate) with its SE sqrt(p(1-p)/n) and 95 % Wilson interval
    (``lo``, ``hi``), a mean with the sample SD / sqrt(n) (no interval).

    Per-deal figures treat deals as independent (deals of one game share only the totals,
    which the heuristic ignores)."""
    finished = games[games["winner"] >= 0]
    rows = [mean_row("deals per game", games["deals"]), rate_row("unfinished games", games["winner"] < 0),
            rate_row("win rate of the first player (forehand in deal 1)", finished["winner"] == 0)]
    if len(deals):
        for s, who in ((0, "forehand"), (1, "dealer")):
            for k, what in (("score", "score"), ("melds", "meld points"), ("cards", "card points")):
                rows.append(mean_row(f"{what} per deal, {who}", deals[f"{k}_seat{s}"]))
        rows.append(rate_row("deals with a trump Seven exchange", deals["exchanged_by"] >= 0))
        last = deals.groupby("game").tail(1)
        both = (last["total_p0"] >= target) & (last["total_p1"] >= target)
        rows.append(rate_row("games where both reached the target in the last deal (claim or higher total decided)",
                              both))
    gain = games["exchange_gain"].dropna()
    rows.append(mean_row("trump Seven exchange in the games' first deals (exchanger's net gain; the text's figure "
                         "pairs deals of its own)", gain))
    return pd.DataFrame(rows, columns=["figure", "value", "se", "lo", "hi", "n"])
