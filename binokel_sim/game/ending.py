"""How a game of the auction layouts ends (docs/rules.md §9): "Aus" during a deal, the winner after one.

>>> from binokel_sim.rules import load_rules
>>> totals = np.array([1000, 1100, 1100])
>>> _winner(load_rules("standard"), totals, soloist=0), _winner(load_rules("dabb"), totals, soloist=0)
(-1, 1)
"""

from __future__ import annotations

import numpy as np

from binokel_sim.rules import Rules


def _team_of(rules: Rules, player: int) -> int:
    # Seats rotate by one per deal, so at four with partners opposite a player's team is fixed.
    for i, team in enumerate(rules.layout.teams):
        if player in team:
            return i
    return player


def _running_totals(rules: Rules, line, melds: list[int], sol: int, discard_points: int) -> list[tuple[int, np.ndarray]]:
    """Each seat's deal total after every trick: own card points (the soloist's discards
    from the start) plus its melds once it holds a trick (once its team does, with
    ``scoring.team_trick_keeps_melds``)."""
    n = rules.n_seats
    pts = np.zeros(n, dtype=np.int64)
    pts[sol] = discard_points
    has = np.zeros(n, dtype=bool)
    out = []
    for w, p in zip(line.trick_winners, line.trick_points):
        pts[w] += p
        has[list(rules.layout.partners(w)) if rules.scoring.team_trick_keeps_melds else w] = True
        counted = np.where(has | (not rules.scoring.melds_need_trick), np.asarray(melds), 0)
        out.append((w, pts + counted))
    return out


def _claim(rules: Rules, o, seat_player: list[int], totals: np.ndarray) -> int:
    """With ``game.aus``: the player who first passes the target during the play (``o``: the deal's
    outcome), else -1."""
    if not rules.game.aus:
        return -1
    target = rules.game.target
    for w, run in o.running:
        p = seat_player[w]
        if w == o.soloist_seat and run[w] < o.bid:
            continue
        if totals[p] + run[w] >= target:
            return p
    return -1


def _winner(rules: Rules, totals: np.ndarray, soloist: int) -> int:
    """Winner after a deal, or -1 to play on (docs/rules.md §9). ``game.decided_by``: ``soloist`` -- a
    soloist at the target wins, else the one highest score, ties play on; ``highest`` -- the highest
    score at the target wins, a tie goes to the soloist if he is among it, else to the lowest player
    number (the dabb app's seat order)."""
    target = rules.game.target
    if totals.max() < target:
        return -1
    top = np.flatnonzero(totals == totals.max())
    if rules.game.decided_by == "highest":
        # At fixed partnerships both partners carry the team's total: a team ties as one.
        return soloist if soloist in top else int(top[0])
    if soloist >= 0 and totals[soloist] >= target:
        return soloist
    if rules.layout.partnership:
        teams = {_team_of(rules, int(p)) for p in top}
        return int(top[0]) if len(teams) == 1 else -1
    return int(top[0]) if len(top) == 1 else -1
