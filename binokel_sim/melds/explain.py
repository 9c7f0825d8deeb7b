"""Readable meld lists: each meld of a hand by name, with its cards and points.

Plain Python written straight from docs/rules.md §5, independent of the numba scorer
in :mod:`binokel_sim.melds.scorer`, so each serves as the other's reference in the tests.

>>> from binokel_sim.cards import Hand
>>> from binokel_sim.rules import load_rules
>>> [(m.name, m.points) for m in explain(Hand.parse("GK GO EO HO SO SU"), 1, load_rules())]
[('trump pair', 40), ('four Obers', 60), ('binokel', 40)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from binokel_sim.cards import CARD_TEXT, SUITS, Hand, card_type
from binokel_sim.rules import MELD_RANKS, Rules

from .twohand import declared_melds, meld_table

_RANK_INDEX = {"A": 0, "10": 1, "K": 2, "O": 3, "U": 4, "7": 5}
_PLURAL = {"A": "Aces", "K": "Kings", "O": "Obers", "U": "Unters", "10": "tens", "7": "sevens"}
_FAMILY_RANKS = ("A", "10", "K", "O", "U")


@dataclass(frozen=True)
class Meld:
    """One declared meld: ``name`` (e.g. ``trump family``), ``suit`` letter or None, cards, points."""

    name: str
    suit: str | None
    cards: tuple[str, ...]
    points: int

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["cards"] = list(self.cards)
        return d


def _count(hand: Hand, suit: int, rank: str) -> int:
    return int(hand.counts[card_type(suit, _RANK_INDEX[rank])])


def _cards(suit: int, ranks: tuple[str, ...], times: int) -> tuple[str, ...]:
    return tuple(CARD_TEXT[card_type(suit, _RANK_INDEX[r])] for r in ranks for _ in range(times))


def _sequence_meld(rules: Rules, kind: str, n: int, suit: int, trump: int, ranks: tuple[str, ...]) -> Meld:
    """A family or pair meld held ``n`` (1 or 2) times; the table key names the variant."""
    words = (["trump"] if suit == trump else []) + (["double"] if n == 2 else []) + [kind]
    return Meld(" ".join(words), SUITS[suit], _cards(suit, ranks, n), getattr(rules.melds, "_".join(words)))


def _sequences(hand: Hand, trump: int, rules: Rules) -> list[Meld]:
    out = []
    for s in range(4):
        fam = min(_count(hand, s, r) for r in _FAMILY_RANKS)
        pairs = min(_count(hand, s, "K"), _count(hand, s, "O")) - fam
        if fam:
            out.append(_sequence_meld(rules, "family", fam, s, trump, _FAMILY_RANKS))
        if pairs:
            out.append(_sequence_meld(rules, "pair", pairs, s, trump, ("K", "O")))
    return out


def _kinds(hand: Hand, rules: Rules) -> list[Meld]:
    m = rules.melds
    ranks = [(r, m.four[r], m.eight[r]) for r in MELD_RANKS] + [("10", 0, m.eight_tens), ("7", 0, m.eight_sevens)]
    out = []
    for r, four, eight in ranks:
        n = min(_count(hand, s, r) for s in range(4))
        pts = eight if n == 2 else four if n == 1 else 0
        if pts:
            label = "eight" if n == 2 else "four"
            cards = tuple(c for s in range(4) for c in _cards(s, (r,), n))
            out.append(Meld(f"{label} {_PLURAL[r]}", None, cards, pts))
    return out


def _explain_twohand(hand: Hand, trump: int, rules: Rules) -> list[Meld]:
    """The two-hand table's melds (docs/rules.md §10), declared at once, plus the Diss."""

    cards = [c for c in range(len(hand.counts)) for _ in range(int(hand.counts[c]))]
    out = []
    for combo, pts in declared_melds(cards, max(trump, 0), meld_table(rules)):
        words = combo.name.split()
        suit = words.pop() if len(words[-1]) == 1 and words[-1] in SUITS else None
        if words[0] in ("four", "eight"):
            words[1] = _PLURAL[words[1]]
        out.append(Meld(" ".join(words), suit, tuple(CARD_TEXT[t] for t, k in combo.need for _ in range(k)), pts))
    return out + _dissle(hand, trump, rules)


def _dissle(hand: Hand, trump: int, rules: Rules) -> list[Meld]:
    sevens = _count(hand, trump, "7") if trump >= 0 and rules.melds.dissle else 0
    return [Meld("Dissle", SUITS[trump], _cards(trump, ("7",), sevens), rules.melds.dissle * sevens)] if sevens else []


def trump_totals(hand: Hand, rules: Rules) -> np.ndarray:
    """Meld total of ``hand`` under each trump E, G, H, S (int64[4]), for every layout kind.

    >>> from binokel_sim.rules import load_rules
    >>> trump_totals(Hand.parse("GK GO EO HO SO SU"), load_rules("two-hand")).tolist()
    [160, 180, 160, 160]
    """
    if rules.layout.kind == "talon":
        return np.array([explain_total(hand, t, rules) for t in range(4)], dtype=np.int64)
    from binokel_sim.melds.scorer import totals_by_trump

    totals = np.empty(4, dtype=np.int64)
    totals_by_trump(hand.counts, rules.meld_array(), totals)
    return totals


def explain(hand: Hand, trump: int, rules: Rules) -> list[Meld]:
    """Every meld of ``hand`` with ``trump`` (suit index, or -1 for none), in declaration order.

    A talon layout (two-hand) scores its own table, cards declared all at once.
    """
    if rules.layout.kind == "talon":
        return _explain_twohand(hand, trump, rules)
    m = rules.melds
    melds = _sequences(hand, trump, rules) + _kinds(hand, rules)
    b = min(_count(hand, 1, "O"), _count(hand, 3, "U"))
    if b:
        melds.append(Meld("double binokel" if b == 2 else "binokel", None, ("GO", "SU") * b,
                          m.double_binokel if b == 2 else m.binokel))
    return melds + _dissle(hand, trump, rules)


def explain_total(hand: Hand, trump: int, rules: Rules) -> int:
    """Sum of :func:`explain`'s meld points."""
    return sum(m.points for m in explain(hand, trump, rules))
