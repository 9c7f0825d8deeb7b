"""Whole games of any layout: the auction games (:mod:`binokel_sim.game.runs`) or the two-hand
talon games (:mod:`binokel_sim.twohand.runs`), the same :class:`~binokel_sim.game.results.GameResults`.

>>> res = simulate_games("two-hand", games=0, seed=1)
>>> list(res.games.columns)[:3]
['game', 'deals', 'winner']
"""

from __future__ import annotations

import os

from binokel_sim.errors import InputError
from binokel_sim.game.cardplay import DOUBLE_DUMMY, PlayMode, check_play
from binokel_sim.game.results import GameResults
from binokel_sim.game.runs import simulate_auction_games
from binokel_sim.game.simulate import MAX_DEALS
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Scale
from binokel_sim.twohand.runs import simulate_twohand_games


def simulate_games(rules: Rules | str | os.PathLike[str], games: int, seed: int = 1, scale: Scale | None = None,
                   max_deals: int = MAX_DEALS, solve_budget: int | None = None, *,
                   play: PlayMode = DOUBLE_DUMMY) -> GameResults:
    """Simulate ``games`` whole games; numbers depend only on (rules, seed, games, solve budget, play).

    ``solve_budget``: search nodes per deal of an auction game (None: exact below 48 cards, the
    studies' default budget at 48); two-hand games solve only small endgames, exactly. ``play``: how an
    auction game's deals are played, ``double-dummy`` or ``rule-based``
    (:func:`binokel_sim.game.runs.simulate_auction_games`); two-hand games have their own players.
    """
    rules = as_rules(rules)
    check_play(play, solve_budget)
    if rules.layout.kind == "talon":  # two-hand Binokel: no auction, a talon phase
        if solve_budget is not None:
            raise InputError("--solve-budget: two-hand games solve only small endgames exactly; drop the option")
        if play != DOUBLE_DUMMY:
            raise InputError("--play: two-hand games play a heuristic talon phase and an exact endgame; "
                             "drop the option")
        return simulate_twohand_games(rules, games, seed, scale=scale, max_deals=max_deals)
    return simulate_auction_games(rules, games, seed, scale, max_deals, solve_budget, play=play)
