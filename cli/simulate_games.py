"""``binokel simulate games``: whole games to the target, with seat advantage and trajectories."""

from __future__ import annotations

from pathlib import Path

import click

from binokel_sim.simulation import simulate_games
from binokel_sim.game.cardplay import DOUBLE_DUMMY, PLAY_MODES, RULE_BASED
from binokel_sim.game.simulate import MAX_DEALS
from binokel_sim.output import write_figure, write_table

from .common import (charts_options, echo_json, echo_table, json_option, out_option, output_option, quiet_option,
                     rules_option, seed_option)
from .scale_options import scale_options
from .study_options import solve_budget_option
from .numbers import Whole


@click.command("games", short_help="Whole games to the target: win rates, scores.")
@rules_option
@click.option("--games", type=Whole(1), default=20, show_default=True, help="Number of games.")
@seed_option
@click.option("--max-deals", type=Whole(1), default=MAX_DEALS, show_default=True,
              help="A game still open after this many deals is recorded as unfinished.")
@out_option("Summary table to FILE.csv, .parquet or .json.")
@output_option("--games-out", help="One row per game (CSV/Parquet/JSON).")
@output_option("--deals-out", help="One row per deal with running totals (CSV/Parquet/JSON).")
@charts_options
@json_option
@quiet_option
@scale_options
@solve_budget_option
@click.option("--play", type=click.Choice(PLAY_MODES), default=DOUBLE_DUMMY, show_default=True,
              help="How the deals are played: double-dummy (the solver) or rule-based (every seat plays the "
                   "baseline player's rules of thumb on its own knowledge; fast, not double-dummy numbers).")
def games_cmd(rules, games: int, seed: int, max_deals: int, out, games_out, deals_out, charts, chart_format: str,
              as_json: bool, quiet: bool, scale, solve_budget, play: str) -> None:
    """Simulate GAMES whole games: auction, exchange, surrender, play, scoring.

    Each seat bids up to a fast estimate of its hand; the soloist exchanges with the
    heuristic optimiser, goes out when its own estimate is below the bid, and the deal
    is played double-dummy (at 48 cards within --solve-budget per deal: deals it leaves
    open are kept, counted and printed as the unresolved fraction), or with --play
    rule-based by the baseline player at every seat. Prints deals per game, win rates by
    player (player 0 is forehand in the first deal), each seat's mean score per deal,
    all with standard errors.

    \b
    Example:
      binokel simulate games --rules kreuz --games 50 --deals-out deals.parquet --charts charts/
      binokel simulate games --rules dabb-two --games 10000 --play rule-based --workers 2
    """
    res = simulate_games(rules, games, seed, scale=scale, max_deals=max_deals, solve_budget=solve_budget,
                         play=play)
    for df, path in ((res.summary, out), (res.games, games_out), (res.deals, deals_out)):
        if path is not None:
            write_table(df, path)
    if charts is not None:
        from binokel_sim.analyses.charts import game_trajectories

        write_figure(game_trajectories(res.games, res.deals, rules), Path(charts) / f"games.{chart_format}")
    if as_json:
        echo_json({"provenance": res.provenance, "summary": res.summary.to_dict(orient="records")})
        return
    p = res.provenance
    click.echo(f"# rules {p['rules']}, seed {p['seed']}, {p['games']} games, {p['deals']} deals, "
               f"{p['seconds']} s (binokel-sim {p['version']})"
               + (", rule-based play" if p.get("play") == RULE_BASED else "")
               + (f", solve budget {p['solve_budget_nodes']} nodes per deal" if p.get("solve_budget_nodes") else ""))
    echo_table(res.summary)
