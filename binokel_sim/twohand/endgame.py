"""The two-hand endgame (talon exhausted, 12 tricks, both hands known): exact against heuristic.

From the moment the talon runs out every card is known to a player who remembers
them, so the endgame is a double-dummy problem, solved by the two-seat search
:class:`binokel_sim.twohand.search.TwoSeatSearch` under the rules' heading option.
:func:`endgame_study` measures what the heuristic's endgame rules (:mod:`.heuristic`)
cost: for each endgame the exact value ``V`` (seat 0's card points, both sides
exact), then seat 0 played by the heuristic against an exact seat 1 (loss ``V - x``,
never negative), seat 1 by the heuristic against an exact seat 0 (loss ``y - V`` in
seat 1's points), and both by the heuristic (``z - V``).

>>> from binokel_sim.rules import load_rules
>>> df = endgame_study(load_rules("two-hand"), deals=3, seed=1)
>>> bool((df["loss_seat0"] >= 0).all() and (df["loss_seat1"] >= 0).all())
True
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from binokel_sim import streams
from binokel_sim.cards import CARD_POINTS
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.errors import InputError
from binokel_sim.play.legal import counts_mask, trick_winner
from binokel_sim.play.solver import Position
from binokel_sim.rules import Rules
from binokel_sim.twohand.heuristic import Heuristic
from binokel_sim.twohand.legal import legal_twohand
from binokel_sim.melds.twohand import meld_table
from binokel_sim.twohand.play import play_deal
from binokel_sim.twohand.search import TwoSeatSearch

#: Stream id of the endgame study's deals.
ENDGAME_STREAM = streams.stream("twohand_endgame")
_PTS = [int(x) for x in CARD_POINTS]


def play_endgame(pos: Position, exact: tuple[bool, bool], player: Heuristic, search: TwoSeatSearch,
                 must_head: bool = True) -> int:
    """Seat 0's card points (last trick included) when seat ``s`` plays exactly if ``exact[s]``,
    else by the heuristic's endgame rules; exact ties go to the lowest card type."""
    hands = [h.copy() for h in pos.hands]
    leader, trump, got = pos.leader, pos.trump_index, 0
    for t in range(int(hands[0].sum())):
        trick: list[int] = []
        for k in range(2):
            s = (leader + k) % 2
            led = trick[0] if trick else -1
            legal = int(legal_twohand(counts_mask(hands[s]), led, led, trump, False, must_head))
            if exact[s]:
                vals = search.card_values(hands, trump, leader, tuple(trick), pos.last_trick, must_head)
                card = (max if s == 0 else min)(sorted(vals), key=lambda c: vals[c])
            elif k == 0:
                card = player.endgame_lead(list(hands[s]), trump)
            else:
                card = player.follow(list(hands[s]), trick[0], trump, None, False, legal)
            hands[s][card] -= 1
            trick.append(card)
        w = (leader + int(trick_winner(np.array(trick, dtype=np.int64), 2, trump))) % 2
        if w == 0:
            got += _PTS[trick[0]] + _PTS[trick[1]] + (pos.last_trick if t == 11 else 0)
        leader = w
    return got


def endgame_study(rules: Rules, deals: int, seed: int) -> pd.DataFrame:
    """One row per deal: ``exact`` (V), ``heur_vs_exact`` (x), ``exact_vs_heur`` (y), ``heur_vs_heur`` (z),
    ``loss_seat0`` = V - x, ``loss_seat1`` = y - V, ``both_heur_minus_exact`` = z - V (seat 0's points)."""
    if deals < 1:
        raise InputError(f"--deals: expected a positive integer, got {deals}")
    rows_ = Dealer(rules, seed, stream=ENDGAME_STREAM).deal(deals)
    search = TwoSeatSearch()
    mh = rules.talon.must_head
    out = []
    for i, row in enumerate(rows_):
        pos = play_deal(rules, row, endgame="none").endgame
        assert pos is not None and pos.trump is not None  # a talon deal always reaches its endgame
        player = Heuristic(meld_table(rules)[pos.trump])
        v = search.value(pos.hands, trump=pos.trump, leader=pos.leader, last=pos.last_trick, must_head=mh)
        x, y, z = (play_endgame(pos, e, player, search, mh) for e in ((False, True), (True, False), (False, False)))
        out.append({"deal": i, "exact": v, "heur_vs_exact": x, "exact_vs_heur": y, "heur_vs_heur": z,
                    "loss_seat0": v - x, "loss_seat1": y - v, "both_heur_minus_exact": z - v})
    return pd.DataFrame(out)


def endgame_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Mean, SE and n of the study's loss columns (points per endgame)."""
    rows = []
    for col, what in (("loss_seat0", "heuristic endgame loss against exact play, seat 0 (forehand)"),
                      ("loss_seat1", "heuristic endgame loss against exact play, seat 1 (dealer)"),
                      ("both_heur_minus_exact", "both heuristic minus exact value, seat 0's points")):
        x = df[col].to_numpy(dtype=np.float64)
        rows.append({"figure": what, "value": float(x.mean()), "se": float(x.std(ddof=1) / np.sqrt(len(x)))
                     if len(x) > 1 else float("nan"), "n": len(x)})
    return pd.DataFrame(rows, columns=["figure", "value", "se", "n"])
