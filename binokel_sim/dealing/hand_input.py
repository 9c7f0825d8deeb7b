"""Validated hands from user text: card syntax, at most two copies, deck and size checks.

>>> from binokel_sim.rules import load_rules
>>> str(read_hand("EA E10 EK", load_rules()))
'EA E10 EK'
>>> str(read_hand("EA E10 EK", "standard"))   # a preset name (or a TOML path) works too
'EA E10 EK'
>>> read_hand("E7", load_rules())
Traceback (most recent call last):
...
binokel_sim.errors.InputError: hand: E7 is not in the 40-card deck of preset 'standard'
"""

from __future__ import annotations

import os
from typing import Iterable

import numpy as np

from binokel_sim.cards import Hand, counts_of, format_cards, to_cards
from binokel_sim.dealing.dealer import check_deck
from binokel_sim.errors import InputError
from binokel_sim.rules import Rules, as_rules


def read_hand(text: str | Iterable[str] | Iterable[int], rules: Rules | str | os.PathLike[str] = "standard",
              size: int | None = None, what: str = "hand") -> Hand:
    """Read ``text`` (card text, or a list of card texts or types) as a hand for ``rules`` (a
    :class:`Rules`, a preset name or a TOML path); with ``size``, demand exactly that many cards."""
    return _hand(to_cards(text), as_rules(rules), size, what)


def _hand(cards: list[int], rules: Rules, size: int | None, what: str) -> Hand:
    if not cards:
        raise InputError(f"{what}: no cards given")
    check_deck(rules, cards, what)
    try:
        counts = counts_of(cards)
    except InputError as exc:
        raise InputError(f"{what}: {exc}") from None
    if size is not None and len(cards) != size:
        raise InputError(f"{what}: {len(cards)} cards, but a hand of preset {rules.name!r} has {size}")
    return Hand(counts)


def as_counts(cards, what: str, size: int, rules: Rules) -> np.ndarray:
    """Count vector of exactly ``size`` cards (text, card texts or types) valid for ``rules``."""
    cards = to_cards(cards)
    if len(cards) != size:
        raise InputError(f"{what}: expected {size} cards, got {len(cards)}")
    return _hand(cards, rules, None, what).counts


def pool_of(hand, tapp, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Validated (hand counts, Tapp counts); InputError for wrong sizes or a card held three times."""
    h = as_counts(hand, "hand", rules.layout.hand_size, rules)
    t = as_counts(tapp, "Tapp", rules.layout.tapp_size, rules)
    both = h.astype(np.int64) + t
    if (both > 2).any():
        c = int(np.argmax(both > 2))
        raise InputError(f"card {format_cards([c])} is in hand and Tapp {int(both[c])} times (at most twice)")
    return h, t
