"""Two-hand Binokel for ``binokel deal`` and ``binokel solve`` (docs/rules.md §10).

:func:`deal_view`: a seeded two-hand deal as the players see it -- forehand's and the
dealer's 12 cards with their melds under the trump of the turned card, the turned
card and the face-down talon in drawing order. :func:`solve_endgame`: the exact value
of an endgame position (two hands of equal size, the trump suit, the leader, at most
the lead of the current trick), by the two-seat search under the rules' heading option.

>>> from binokel_sim.rules import load_rules
>>> v = deal_view(load_rules("two-hand"), seed=3, index=0)
>>> len(v["seats"][0]["cards"]), len(v["seats"][1]["cards"]), len(v["talon"]), v["trump"] == v["turned"][0]
(12, 12, 23, True)
>>> r = solve_endgame(load_rules("two-hand"), "EA E10 / EK GA", "G", leader=0, cards=True)
>>> r["points"], r["card_values"]
([15, 31], {'EA': 15, 'E10': 14})
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from binokel_sim.cards import CARD_POINTS, CARD_TEXT, SUITS, Hand, counts_of, parse_cards, parse_trump
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.errors import InputError
from binokel_sim.melds.report import meld_report
from binokel_sim.rules import Rules
from binokel_sim.twohand.play import TRICKS, check_row
from binokel_sim.twohand.search import TwoSeatSearch

#: What ``binokel solve`` cannot ask of a two-hand endgame, named in the refusal.
UNSUPPORTED = ("--durch", "--bettel", "--teams", "--batch", "--query/--grid/--lo/--hi/--budget")


def deal_view(rules: Rules, seed: int, index: int) -> dict[str, Any]:
    """Deal ``index`` of ``seed``: ``seats`` (cards and melds at the turned trump, seat 0
    forehand, seat 1 the dealer), ``turned`` (the trump card, drawn last), ``trump``, ``talon``."""
    row = check_row(rules, Dealer(rules, seed=seed).deal(1, start=index)[0])
    turned = int(row[2 * TRICKS])
    trump = SUITS[turned // 6]
    seats = []
    for s in range(2):
        hand = Hand(np.bincount(row[s * TRICKS:(s + 1) * TRICKS], minlength=24).astype(np.uint8))
        seats.append(meld_report(hand, trump, rules))
    return {"rules": rules.name, "seed": seed, "index": index, "seats": seats, "turned": CARD_TEXT[turned],
            "trump": trump, "talon": [CARD_TEXT[int(c)] for c in row[2 * TRICKS + 1:]]}


def solve_endgame(rules: Rules, hands: str, trump: str | None, leader: int | None = None, solo: int | None = None,
                  trick: str = "", target: int | None = None, cards: bool = False) -> dict[str, Any]:
    """Exact card points of a two-hand endgame (talon exhausted): ``points`` per seat from here
    (the trick's card and the last trick included), ``solo_points`` those of seat ``solo``
    (default 0), optionally whether ``solo`` reaches ``target`` and each legal card's value
    for ``solo``; ``nodes`` (trick starts) and ``seconds``."""
    if trump is None:
        raise InputError("missing --trump: two-hand is always played with a trump suit (E, G, H or S)")
    leader = 0 if leader is None else leader
    solo = 0 if solo is None else solo
    for what, seat in (("--leader", leader), ("--solo", solo)):
        if seat not in (0, 1):
            raise InputError(f"{what}: two-hand seats are 0 (forehand) and 1 (the dealer), got {seat}")
    parts = hands.split("/")
    if len(parts) != 2:
        raise InputError(f"{len(parts)} hands given, but two-hand seats 2 players (two hands separated by '/')")
    counts = tuple(counts_of(parse_cards(p)) for p in parts)
    led = parse_cards(trick) if trick.strip() else []
    ti = parse_trump(trump)
    if ti is None:
        raise InputError("--trump none: two-hand is always played with a trump suit (E, G, H or S)")
    n = [int(h.sum()) for h in counts]
    if max(n) > TRICKS:
        raise InputError(f"two-hand endgame: at most {TRICKS} cards a hand, got {max(n)}")
    if len(led) > 1:
        raise InputError("--trick: with two seats a trick holds at most the lead")
    total = counts[0].astype(np.int64) + counts[1] + np.bincount(np.asarray(led, dtype=np.int64), minlength=24)
    if total.max() > 2:
        raise InputError(f"card {CARD_TEXT[int(total.argmax())]} given {int(total.max())} times (the deck holds two)")
    search = TwoSeatSearch()
    t0 = time.perf_counter()
    v0 = search.value(counts, ti, leader, tuple(led), rules.play.last_trick, rules.talon.must_head)
    rest = sum(int(np.dot(h, CARD_POINTS)) for h in counts) + sum(int(CARD_POINTS[c]) for c in led)
    points = [v0, rest + rules.play.last_trick - v0]
    out: dict[str, Any] = {"rules": rules.name, "solo_points": points[solo], "points": points}
    if target is not None:
        out["reaches_target"] = points[solo] >= target
    if cards:
        vals = search.card_values(counts, ti, leader, tuple(led), rules.play.last_trick, rules.talon.must_head)
        out["card_values"] = {CARD_TEXT[c]: v if solo == 0 else points[0] + points[1] - v for c, v in vals.items()}
    out["nodes"] = search.nodes
    out["seconds"] = time.perf_counter() - t0
    return out
