"""Many simulated games as one seeded, chunked job; tables and a summary with standard errors.

``simulate_auction_games`` (the games of the auction layouts; :func:`binokel_sim.simulation.simulate_games`
takes any layout) returns three pandas DataFrames:

* ``games``: one row per game -- deals, winner (player), final totals;
* ``deals``: one row per deal -- soloist, bid, contract, trump, made, each player's
  score and running total (the score trajectories);
* ``summary``: one row per figure -- deals per game, each player's win rate (player 0
  is forehand in the first deal), each seat's mean score per deal, soloist make and
  surrender rates, Durch frequency -- each with ``n`` and a standard error.

>>> from binokel_sim.rules import load_rules
>>> res = simulate_auction_games(load_rules("standard"), games=0, seed=1)
>>> list(res.games.columns)[:3]
['game', 'deals', 'winner']
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim._version import __version__
from binokel_sim.game.results import GameResults, mean_row, rate_row
from binokel_sim.errors import InputError
from binokel_sim.game.cardplay import DOUBLE_DUMMY, PlayMode, check_play
from binokel_sim.game.simulate import DEAL_COLUMNS, MAX_DEALS, ceiling_name, play_budget, simulate_game
from binokel_sim.rules import Rules, as_rules
from binokel_sim.scoring import SURRENDER, TRUMP
from binokel_sim.runner import Chunk, Job, Scale

@dataclass(frozen=True)
class GamesParams:
    """The parameters of a ``games`` job: deals per game at most, the bid ceiling's name, the exchange,
    search nodes per deal (None: exact), how the cards are played."""

    max_deals: int
    ceiling: str
    exchange: str = "heuristic"
    solve_budget: int | None = None
    play: PlayMode = DOUBLE_DUMMY


#: Games per chunk: a game takes seconds, so small chunks keep workers busy and checkpoints fine-grained.
GAMES_PER_CHUNK = 2


def games_chunk(job: Job, chunk: Chunk) -> tuple[list[dict], list[dict]]:
    """Games ``chunk.start .. chunk.stop - 1``: (game rows, deal rows)."""
    from binokel_sim.play.solver import Solver

    play = job.params.play
    solver = Solver() if play == DOUBLE_DUMMY else None  # rule-based play searches nothing
    games: list[dict] = []
    deals: list[dict] = []
    for g in range(chunk.start, chunk.stop):
        rec = simulate_game(job.rules, job.seed, g, solver, max_deals=job.params.max_deals,
                            budget_nodes=job.params.solve_budget, play=play)
        games.append(rec.row(job.rules))
        deals.extend(d.row() for d in rec.records)
    return games, deals


def games_job(rules: Rules, games: int, seed: int, max_deals: int = MAX_DEALS, solve_budget: int | None = None, *,
              play: PlayMode = DOUBLE_DUMMY) -> Job:
    """The job behind :func:`simulate_auction_games` (for runners that want the raw chunks)."""
    check_play(play, solve_budget)
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 0:
        raise InputError(f"--games: expected a non-negative integer, got {games!r}")
    if max_deals < 1:
        raise InputError(f"max_deals: expected a positive integer, got {max_deals}")
    if solve_budget is not None and solve_budget < 1:
        raise InputError(f"--solve-budget: expected a positive node count, got {solve_budget}")
    budget = play_budget(rules, solve_budget) if play == DOUBLE_DUMMY else None
    params = GamesParams(int(max_deals), ceiling_name(rules), solve_budget=budget, play=play)
    return Job("games", games_chunk, n=int(games), seed=seed, rules=rules, params=params, chunk_size=GAMES_PER_CHUNK)


def simulate_auction_games(rules: Rules | str | os.PathLike[str], games: int, seed: int = 1, scale: Scale | None = None,
                           max_deals: int = MAX_DEALS, solve_budget: int | None = None, *,
                           play: PlayMode = DOUBLE_DUMMY) -> GameResults:
    """Simulate ``games`` whole games of an auction layout; numbers depend only on (rules, seed, games, solve
    budget, play).

    ``solve_budget``: search nodes per deal (None: exact below 48 cards, the studies' default
    budget at 48; :func:`binokel_sim.game.simulate.play_budget`). Deals the budget leaves open
    are kept (``exact`` False in the deal rows) and counted in the summary. ``play``: ``double-dummy``
    or ``rule-based`` (every seat plays the baseline player's rules of thumb on its own knowledge: no
    search, no budget, not double-dummy numbers).
    """
    rules = as_rules(rules)
    rules.require_auction("auction games")
    job = games_job(rules, games, seed, max_deals, solve_budget, play=play)
    t0 = time.perf_counter()
    parts = job.run(scale or Scale(), desc="games")
    game_rows = [r for g, _ in parts for r in g]
    deal_rows = [r for _, d in parts for r in d]
    n = rules.layout.table_players  # seat n - 1 is the dealer who sits out, where one does
    gcols = ["game", "deals", "winner"] + (["winner_team"] if rules.layout.partnership else []) + [
        f"final_p{p}" for p in range(n)]
    dcols = list(DEAL_COLUMNS) + [
        c for p in range(n) for c in (f"score_p{p}", f"total_p{p}")]
    gdf = pd.DataFrame(game_rows, columns=gcols)
    ddf = pd.DataFrame(deal_rows, columns=dcols)
    prov = {
        "version": __version__, "rules": rules.name, "rules_source": rules.source, "seed": seed, "games": int(games),
        "deals": int(len(ddf)), "max_deals": max_deals, "ceiling": ceiling_name(rules), "exchange": "heuristic",
        "play": play, "solve_budget_nodes": job.params.solve_budget,
        "seconds": round(time.perf_counter() - t0, 3),
    }
    return GameResults(gdf, ddf, summarise(rules, gdf, ddf, budgeted=job.params.solve_budget is not None, play=play),
                       prov)



def summarise(rules: Rules, games: pd.DataFrame, deals: pd.DataFrame, budgeted: bool = False,
              play: PlayMode = DOUBLE_DUMMY) -> pd.DataFrame:
    """The summary table (see the module docstring); a proportion's SE is sqrt(p(1-p)/n). ``budgeted``: the
    deals were solved within a budget -- the unresolved fraction and the make rate's range are added; ``play``
    names the line the make rate of the calibration rows is played by."""
    n = rules.layout.table_players  # seat n - 1 is the dealer who sits out, where one does
    finished = games[games["winner"] >= 0]
    rows = [mean_row("deals per game", games["deals"].to_numpy())]
    rows.append(rate_row("unfinished games", (games["winner"] < 0).to_numpy()))
    if not rules.layout.partnership:
        for p in range(n):
            rows.append(rate_row(f"win rate player {p}", (finished["winner"] == p).to_numpy()))
    else:
        for t, team in enumerate(rules.layout.teams):
            rows.append(rate_row(f"win rate team {t} (players {', '.join(map(str, team))})",
                                  (finished["winner_team"] == t).to_numpy()))
    # Seat advantage: the mean score of whoever sits at seat s, per deal.
    for s in range(n):
        player = (s + deals["deal"].to_numpy()) % n
        sc = deals[[f"score_p{p}" for p in range(n)]].to_numpy()[np.arange(len(deals)), player] if len(deals) else []
        out = " (the dealer, sitting out)" if s >= rules.n_seats else ""
        rows.append(mean_row(f"mean score per deal, seat {s}{out}", np.asarray(sc)))
        rows.append(rate_row(f"soloist rate, seat {s}", (deals["soloist_seat"] == s).to_numpy()))
    if not rules.bidding.forehand_must_open:
        rows.append(rate_row("thrown-in deals (all passed)", (deals["soloist"] < 0).to_numpy()))
    deals = deals[deals["soloist"] >= 0]  # the soloist's figures: deals with a soloist
    sol_score = deals[[f"score_p{p}" for p in range(n)]].to_numpy()[np.arange(len(deals)), deals["soloist"].to_numpy()] \
        if len(deals) else np.array([])
    rows.append(mean_row("soloist score per deal", sol_score))
    rows.append(mean_row("contract bid", deals["bid"].to_numpy()))
    played = deals[deals["contract"] != SURRENDER]
    rows.append(rate_row("make rate (played contracts)", played["made"].to_numpy()))
    if budgeted:
        rows.extend(budget_rows(deals, rules.scoring.failure_factor))
    rows.extend(calibration_rows(deals, budgeted, play))
    rows.append(rate_row("surrender rate", (deals["contract"] == SURRENDER).to_numpy()))
    rows.append(rate_row("durch rate", (deals["contract"] == "durch").to_numpy()))
    rows.append(rate_row("bettel rate", (deals["contract"] == "bettel").to_numpy()))
    if rules.game.aus:
        rows.append(rate_row("games ended by Aus", (deals["claimed_by"] >= 0).groupby(deals["game"]).any().to_numpy()))
    return pd.DataFrame(rows, columns=["figure", "value", "se", "lo", "hi", "n"])



def calibration_rows(deals: pd.DataFrame, budgeted: bool = False, play: PlayMode = DOUBLE_DUMMY
                     ) -> list[dict[str, Any]]:
    """The auction's predicted P(make) of its trump contracts beside the double-dummy make rate (with ``play``
    ``rule-based``: the rule-based line's).

    Every trump contract counts, a surrendered one as played out (``made_if_played``): the
    auction predicts whether the bid is reachable, before the Tapp decides going out, so
    leaving the surrendered deals out would compare it with a selected sample.
    ``made - predicted``: its standard error is the outcomes' spread under the prediction,
    sqrt(sum p(1 - p)) / n, so |value / se| > 4 flags an auction whose estimates are off.
    ``budgeted``: the make rate also as a range (deals the solve budget left open counted as
    failed / as made), which the prediction should fall in.

    >>> d = pd.DataFrame({"contract": ["trump", "surrender", "trump"], "p_make_predicted": [0.8, 0.6, 0.7],
    ...                   "made_if_played": [True, False, True]})
    >>> [(r["figure"], round(r["value"], 3), r["n"]) for r in calibration_rows(d)]  # doctest: +NORMALIZE_WHITESPACE
    [('predicted P(make) (trump contracts)', 0.7, 3),
     ('double-dummy make rate (trump contracts, surrendered ones played out)', 0.667, 3),
     ('made - predicted (trump contracts)', -0.033, 3)]
    """
    t = deals[deals["contract"].isin([TRUMP, SURRENDER]) & deals["p_make_predicted"].notna()]
    pred = t["p_make_predicted"].to_numpy(np.float64)
    made = t["made_if_played"].to_numpy(bool)
    n = len(t)
    rows = [mean_row("predicted P(make) (trump contracts)", pred),
            rate_row(f"{play} make rate (trump contracts, surrendered ones played out)", made)]
    gap = float(made.mean() - pred.mean()) if n else float("nan")
    se = float(np.sqrt((pred * (1 - pred)).sum()) / n) if n else float("nan")
    rows.append({"figure": "made - predicted (trump contracts)", "value": gap, "se": se, "n": n})
    if budgeted:
        for end, word in (("lo", "failed"), ("hi", "made")):
            rows.append(rate_row(f"double-dummy make rate (trump contracts), unresolved as {word}",
                                 t[f"made_if_played_{end}"].to_numpy(bool)))
    return rows


def budget_rows(deals: pd.DataFrame, failure_factor: int) -> list[dict[str, Any]]:
    """Deals left open by the solve budget: their fraction, the played contracts' make rate as a range
    (lower: open deals counted as failed; upper: as made), each with its n and interval, and the bias bound
    of the soloist's mean score: the mean width of the range his double-dummy score is proven to lie in
    (0 for a resolved deal; the realised line's score lies in the range unless its window was widened).

    >>> d = pd.DataFrame({"contract": ["trump", "trump", "surrender"], "exact": [True, False, True], "bid": 200,
    ...                   "made": [True, False, False], "made_lo": [True, False, False], "made_hi": [True, True, False],
    ...                   "side_total_lo": [220, 190, -1], "side_total_hi": [220, 230, -1]})
    >>> [(r["figure"], round(r["value"], 3)) for r in budget_rows(d, 2)]    # doctest: +NORMALIZE_WHITESPACE
    [('unresolved deals (solve budget)', 0.333), ('make rate (played contracts), unresolved as failed', 0.5),
     ('make rate (played contracts), unresolved as made', 1.0), ('soloist score per deal: bias bound', 210.0)]
    """
    played = deals[deals["contract"] != SURRENDER]
    fail = -failure_factor * deals["bid"].to_numpy(np.int64)
    lo = np.where(deals["made_lo"].to_numpy(bool), deals["side_total_lo"].to_numpy(np.int64), fail)
    hi = np.where(deals["made_hi"].to_numpy(bool), deals["side_total_hi"].to_numpy(np.int64), fail)
    width = np.where(deals["exact"].to_numpy(bool), 0, hi - lo)
    bias = mean_row("soloist score per deal: bias bound", width)
    return [rate_row("unresolved deals (solve budget)", ~deals["exact"].to_numpy(bool)),
            rate_row("make rate (played contracts), unresolved as failed", played["made_lo"].to_numpy(bool)),
            rate_row("make rate (played contracts), unresolved as made", played["made_hi"].to_numpy(bool)),
            {**bias, "se": float("nan")}]
