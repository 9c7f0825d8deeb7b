"""A hand's melds as one JSON-shaped report: at a given trump, or at its best trump.

:func:`melds` is the public entry point (card text in, report out; validated once);
:func:`meld_report` takes a parsed :class:`~binokel_sim.cards.Hand` and :class:`Rules`.

>>> rep = melds("EA E10 EK EO EU GO SU")
>>> rep["trump"], rep["total"], [m["name"] for m in rep["melds"]]
('E', 190, ['trump family', 'binokel'])
>>> rep["totals_by_trump"]
{'E': 190, 'G': 140, 'H': 140, 'S': 140}
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from binokel_sim.cards import SUITS, Hand, parse_trump
from binokel_sim.melds.explain import explain, trump_totals
from binokel_sim.rules import Rules, as_rules


def meld_report(hand: Hand, trump_text: str, rules: Rules | str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON-shaped explanation of ``hand``: melds at the given trump (a suit) or ``"best"``.

    With ``best``, also ``best_trump`` and ``totals_by_trump``. ``rules``: a :class:`Rules`, a preset
    name or a TOML path.
    """
    rules = as_rules(rules)
    totals = trump_totals(hand, rules)
    best = trump_text.strip().lower() == "best"
    if best:
        trump = int(np.argmax(totals))
    else:
        t = parse_trump(trump_text)  # the shared parser: letters, German / English names, none
        trump = -1 if t is None else t
    found = explain(hand, trump, rules)
    out: dict[str, Any] = {
        "cards": hand.to_list(),
        "trump": SUITS[trump] if trump >= 0 else "none",
        "total": sum(m.points for m in found),
        "melds": [m.to_dict() for m in found],
    }
    if best:
        out["best_trump"] = SUITS[trump]
        out["totals_by_trump"] = {SUITS[t]: int(totals[t]) for t in range(4)}
    return out


def melds(hand: str | Hand | list, rules: Rules | str | os.PathLike[str] = "standard",
          trump: str = "best") -> dict[str, Any]:
    """Explain the melds of ``hand`` (card text, card list or :class:`Hand`) under ``rules``.

    ``trump``: a suit (``E``, ``Grün``, ``hearts``...) or ``best``. Any number of cards
    up to a hand with the Tapp; bad cards are an :class:`~binokel_sim.errors.InputError`.
    """
    from binokel_sim.dealing.hand_input import read_hand

    rules = as_rules(rules)
    cards = hand.to_list() if isinstance(hand, Hand) else hand
    return meld_report(read_hand(cards, rules), trump, rules)


__all__ = ["meld_report", "melds"]
