"""Seeded dealing for every layout, with optional predealt cards.

A deal is a row of card types: seat 0's cards, seat 1's, ..., then the Tapp
(``players * hand_size + tapp_size`` slots). Predealt cards fix some slots; the
rest of the deck is shuffled into the free slots uniformly (Fisher-Yates on a
counter-based stream, see :mod:`binokel_sim.rng`).

>>> from binokel_sim.rules import load_rules
>>> d = Dealer(load_rules("standard"), seed=1)
>>> deals = d.deal(5)
>>> deals.shape
(5, 40)
>>> bool((d.deal(5, start=3)[0] == deals[3]).all())   # deal i depends only on (seed, i)
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Mapping

import numpy as np

from binokel_sim.cards import COPIES, N_TYPES, Hand, counts_of, deck_types, format_cards, to_cards
from binokel_sim.errors import InputError
from binokel_sim.jit import kernel
from binokel_sim.rng import derive_key, next_below, stream_start
from binokel_sim.rules import Rules, as_rules

TAPP = "tapp"


@kernel(noalloc=True)
def deal_one(key0, key1, index, free, fixed, buf, out):
    """Deal number ``index`` into ``out`` (one row): fixed slots copied, the rest shuffled from ``free``."""
    m = free.shape[0]
    for j in range(m):
        buf[j] = free[j]
    state = stream_start(key0, key1, np.uint64(index))
    for j in range(m - 1, 0, -1):
        state, r = next_below(state, np.uint64(j + 1))
        k = np.int64(r)
        t = buf[j]
        buf[j] = buf[k]
        buf[k] = t
    k = 0
    for s in range(fixed.shape[0]):
        if fixed[s] >= 0:
            out[s] = fixed[s]
        else:
            out[s] = buf[k]
            k += 1


@kernel
def unseen_types(deck, pool):
    """The cards of ``deck`` (counts per type) not in ``pool``, one int8 type per card, in type order."""
    size = 0
    for c in range(deck.shape[0]):
        size += deck[c] - pool[c]
    free = np.empty(size, dtype=np.int8)
    k = 0
    for c in range(deck.shape[0]):
        for _ in range(deck[c] - pool[c]):
            free[k] = c
            k += 1
    return free


@kernel
def deal_batch(key0, key1, start, free, fixed, out):
    """Deals ``start .. start + len(out)`` into ``out`` (int8[n, slots])."""
    buf = np.empty(free.shape[0], dtype=np.int8)
    for i in range(out.shape[0]):
        deal_one(key0, key1, start + i, free, fixed, buf, out[i])


@dataclass(frozen=True)
class DealSpec:
    """Slot layout and predealt cards of a dealer (arrays the kernels take)."""

    free: np.ndarray  # int8[m]: cards left to shuffle
    fixed: np.ndarray  # int8[slots]: card type or -1


def seat_slices(rules: Rules) -> list[slice]:
    """Slices of a deal row: one per seat, then the Tapp."""
    h, p = rules.layout.hand_size, rules.layout.players
    return [slice(i * h, (i + 1) * h) for i in range(p)] + [slice(p * h, p * h + rules.layout.tapp_size)]


def check_deck(rules: Rules, cards: Iterable[int], what: str) -> None:
    """Raise :class:`InputError` for sevens in a 40-card preset."""
    if not rules.layout.sevens:
        sevens = [c for c in cards if c % 6 == 5]
        if sevens:
            raise InputError(f"{what}: {format_cards(sevens[:1])} is not in the 40-card deck of preset {rules.name!r}")


def make_spec(rules: Rules, predealt: Mapping[int | str, Iterable[int] | str] | None = None) -> DealSpec:
    """Build the slot arrays; ``predealt`` maps a seat number or ``"tapp"`` to cards (types or text)."""
    slices = seat_slices(rules)
    fixed = np.full(slices[-1].stop, -1, dtype=np.int8)
    used = np.zeros(N_TYPES, dtype=np.int64)
    for who, cards in (predealt or {}).items():
        cards = to_cards(cards)
        if who == TAPP:
            sl, label = slices[-1], "Tapp"
        elif isinstance(who, int) and 0 <= who < rules.layout.players:
            sl, label = slices[who], f"seat {who}"
        else:
            raise InputError(f"predealt: unknown seat {who!r} (0..{rules.layout.players - 1} or 'tapp')")
        if len(cards) > sl.stop - sl.start:
            raise InputError(f"predealt {label}: {len(cards)} cards, but it holds {sl.stop - sl.start}")
        check_deck(rules, cards, f"predealt {label}")
        for j, c in enumerate(cards):
            fixed[sl.start + j] = c
            used[c] += 1
    over = np.nonzero(used > COPIES)[0]
    if over.size:
        card = int(over[0])
        raise InputError(f"predealt: card {format_cards([card])} given {int(used[card])} times (at most twice)")
    deck = deck_types(rules.layout.sevens)
    remaining = np.bincount(deck, minlength=N_TYPES) - used
    free = np.repeat(np.arange(N_TYPES, dtype=np.int8), remaining)
    return DealSpec(free=free, fixed=fixed)


class Dealer:
    """Seeded dealer for a rules preset; same seed and index, same deal."""

    def __init__(self, rules: Rules | str | os.PathLike[str], seed: int = 0, predealt=None,
                 stream: tuple[int, ...] = ()):
        rules = as_rules(rules)
        self.rules = rules
        self.seed = seed
        self.key = derive_key(seed, *stream)
        self.spec = make_spec(rules, predealt)
        self.slices = seat_slices(rules)

    def deal(self, n: int, start: int = 0) -> np.ndarray:
        """Deals ``start .. start + n - 1`` as ``int8[n, slots]``."""
        out = np.empty((n, self.spec.fixed.shape[0]), dtype=np.int8)
        deal_batch(self.key[0], self.key[1], np.int64(start), self.spec.free, self.spec.fixed, out)
        return out

    def deal_object(self, index: int = 0) -> "Deal":
        return Deal(self.rules, self.deal(1, start=index)[0])


class Deal:
    """A friendly view over one deal row: ``hands`` per seat and the ``tapp``."""

    def __init__(self, rules: Rules | str | os.PathLike[str], row: np.ndarray):
        rules = self.rules = as_rules(rules)
        self.row = row
        sl = seat_slices(rules)
        self.hands = [Hand(counts_of(row[s], check=False)) for s in sl[:-1]]
        self.tapp = Hand(counts_of(row[sl[-1]], check=False))

    def __repr__(self) -> str:
        seats = " / ".join(str(h) for h in self.hands)
        return f"Deal({seats} | Tapp {self.tapp})"
