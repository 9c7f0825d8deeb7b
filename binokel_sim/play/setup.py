"""Positions for the solver from user input, with the defaults a rule set implies.

:func:`build_position` validates once (hands, trump, seats, the deck of the preset) and
fills in what the rules decide: the first leader (the soloist at a Durch), the
soloist's partners at a partnership preset, the last-trick bonus, the play rules.

>>> pos = build_position("standard", "EA E10 / GA G10 / HA H10", trump="E")
>>> pos.seats, pos.trump, pos.leader, pos.side
(3, 0, 0, (0,))
"""

from __future__ import annotations

import os
from typing import Any

from binokel_sim.cards import Hand
from binokel_sim.dealing.dealer import Deal, check_deck
from binokel_sim.errors import InputError
from binokel_sim.play.legal import play_rule
from binokel_sim.play.solver import Position, parse_trump
from binokel_sim.rules import Rules, as_rules


def _hands_of(hands: Any) -> Any:
    # A Deal or a list of Hand objects becomes card lists; text and lists pass to Position.parse.
    if isinstance(hands, Deal):
        hands = hands.hands
    if isinstance(hands, (list, tuple)):
        return [h.to_list() if isinstance(h, Hand) else h for h in hands]
    return hands


def build_position(rules: Rules | str | os.PathLike[str], hands: Any, trump: Any = None, leader: int | None = None,
                   solo: int | None = None, teams: Any = None, trick: Any = None, durch: bool = False,
                   bettel: bool = False) -> Position:
    """A validated :class:`Position` of ``hands`` (text ``"EA ... / GK ... / ..."``, card lists, Hands or a Deal).

    Defaults from the rules: ``solo`` 0, ``leader`` per ``play.first_lead`` (the soloist at
    a Durch), ``teams`` per the layout's partnerships. Durch and Bettel are played
    without trumps, so ``trump`` must then be left out.
    """
    rules = as_rules(rules)
    hands = _hands_of(hands)
    special = durch or bettel
    if solo is None:
        solo = 0
    if leader is None:
        leader = rules.play.first_leader(solo, durch=durch)
    if special:
        if parse_trump(trump) is not None:
            raise InputError("Durch and Bettel are played without trumps (leave out --trump or give none)")
        trump = None
    elif trump is None:
        raise InputError("missing trump: give a suit letter E, G, H, S or none")
    given = len(hands.split("/")) if isinstance(hands, str) else len(hands) if isinstance(hands, (list, tuple)) else 0
    fits = given == rules.layout.players  # else the seat count's own message below, not a teams error
    if teams is None and rules.layout.teams and fits:
        teams = rules.layout.partners(solo)  # an invalid ``solo`` is Position.parse's error
    pos = Position.parse(hands, trump, leader, solo, teams, trick or (), last_trick=rules.play.last_trick,
                         rule=play_rule(rules) if fits else 0)
    if pos.seats != rules.layout.players:
        raise InputError(f"{pos.seats} hands given, but preset {rules.name!r} seats {rules.layout.players} players "
                         "(choose --rules to match)")
    for s, h in enumerate(pos.hands):
        check_deck(rules, [c for c in range(24) if h[c]], f"seat {s}")
    check_deck(rules, pos.trick, "trick")
    return pos


__all__ = ["build_position"]
