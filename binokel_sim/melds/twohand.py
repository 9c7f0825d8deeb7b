"""Two-hand melds (docs/rules.md §10): the combinations, the static score of a set of
cards, and the one-meld-at-a-time declarations of the talon phase.

Combinations, in three classes (a card serves at most one meld of each class):

* sequence: pair K+O of a plain suit, trump pair, trump family A 10 K O U;
* of-a-kind: four / eight Aces, Kings, Obers or Unters (one / two of every suit);
* binokel: binokel GO+SU, grand binokel GK+GO+SU, double binokel GO GO SU SU.

So the King and Ober of a family are never also a pair, and a King never pairs
with two Obers (nor an Ober with two Kings); a card may serve one meld of each class
(a family's King also in four Kings and in a grand binokel). The Diss (a trump
Seven) is scored by :mod:`binokel_sim.twohand.play`, not here.

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.cards import parse_cards
>>> table = meld_table(load_rules("two-hand"))
>>> static_score(parse_cards("EA E10 EK EO EU EK EO"), 0, table)   # family 250 + trump pair 40
290
>>> static_score(parse_cards("EK EO EO"), 1, table)                # one pair: the King pairs once
20
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from binokel_sim.cards import N_TYPES, RANK_10, RANK_A, RANK_K, RANK_O, RANK_U, SUIT_G, SUIT_S, card_type
from binokel_sim.rules import MELD_RANKS, Rules

SEQ, KIND, BINO = range(3)
CLASS_NAMES = ("sequence", "of-a-kind", "binokel")
_RANK_OF = {"A": RANK_A, "K": RANK_K, "O": RANK_O, "U": RANK_U}
GK, GO, SU = card_type(SUIT_G, RANK_K), card_type(SUIT_G, RANK_O), card_type(SUIT_S, RANK_U)


@dataclass(frozen=True)
class Combo:
    """One combination under one trump: its name, class, cards (type -> copies) and points."""

    name: str
    cls: int
    need: tuple[tuple[int, int], ...]
    points: int

    def contains(self, other: "Combo") -> bool:
        mine = dict(self.need)
        return other.cls == self.cls and all(mine.get(c, 0) >= k for c, k in other.need)


def meld_table(rules: Rules) -> tuple[tuple[Combo, ...], ...]:
    """The combinations under each trump suit 0..3, from the rules' meld table (zero = not a meld)."""
    m = rules.melds
    out = []
    for t in range(4):
        combos = []
        for s in range(4):
            kind = "trump pair" if s == t else "pair"
            combos.append(Combo(f"{kind} {'EGHS'[s]}", SEQ, ((card_type(s, RANK_K), 1), (card_type(s, RANK_O), 1)),
                                m.trump_pair if s == t else m.pair))
        combos.append(Combo(f"trump family {'EGHS'[t]}", SEQ,
                            tuple((card_type(t, r), 1) for r in (RANK_A, RANK_10, RANK_K, RANK_O, RANK_U)),
                            m.trump_family))
        for r in MELD_RANKS:
            for n, table in ((1, m.four), (2, m.eight)):
                combos.append(Combo(f"{'four' if n == 1 else 'eight'} {r}", KIND,
                                    tuple((card_type(s, _RANK_OF[r]), n) for s in range(4)), table[r]))
        combos.append(Combo("binokel", BINO, ((GO, 1), (SU, 1)), m.binokel))
        combos.append(Combo("grand binokel", BINO, ((GK, 1), (GO, 1), (SU, 1)), m.grand_binokel))
        combos.append(Combo("double binokel", BINO, ((GO, 2), (SU, 2)), m.double_binokel))
        out.append(tuple(c for c in combos if c.points > 0))
    return tuple(out)


def static_score(cards: Sequence[int], trump: int, table) -> int:
    """Best meld total of a set of cards declared at once (every class, reuse rules above).

    >>> from binokel_sim.rules import load_rules
    >>> from binokel_sim.cards import parse_cards
    >>> static_score(parse_cards("GK GO EO HO SO SU"), 0, meld_table(load_rules("two-hand")))  # 20 + 60 + 80
    160
    """
    state = MeldState()
    held = [0] * N_TYPES
    for c in cards:
        held[c] += 1
    total = 0
    while True:
        best = state.best(held, table[trump])
        if best is None:
            return total
        total += state.declare(best)


def declared_melds(cards: Sequence[int], trump: int, table) -> list[tuple[Combo, int]]:
    """The combinations :func:`static_score` declares, each with its full points, in class order.

    >>> from binokel_sim.rules import load_rules
    >>> from binokel_sim.cards import parse_cards
    >>> [(c.name, p) for c, p in declared_melds(parse_cards("GK GO SU EK EO"), 0, meld_table(load_rules("two-hand")))]
    [('trump pair E', 40), ('pair G', 20), ('grand binokel', 80)]
    """
    state = MeldState()
    held = [0] * N_TYPES
    for c in cards:
        held[c] += 1
    while (best := state.best(held, table[trump])) is not None:
        state.declare(best)
    return [(c, c.points) for cls in state.declared for c in cls]


@dataclass
class Declaration:
    combo: Combo
    replaces: Combo | None
    gain: int


class MeldState:
    """One player's declared melds: per class the combinations and the cards committed.

    A declaration is one combination, all of its cards held (hand or table). Its new
    cards must not already serve that class; it may *add to* a declared combination of
    the same class that it contains (trump pair -> family, four -> eight, binokel ->
    double binokel), scoring the difference.

    >>> from binokel_sim.rules import load_rules
    >>> from binokel_sim.cards import parse_cards, counts_of
    >>> table = meld_table(load_rules("two-hand"))[0]
    >>> st = MeldState(); held = list(counts_of(parse_cards("EK EO")))
    >>> st.declare(st.best(held, table))
    40
    >>> held = list(counts_of(parse_cards("EA E10 EK EO EU")))
    >>> d = st.best(held, table); (d.combo.name, d.gain)
    ('trump family E', 210)
    """

    def __init__(self) -> None:
        self.committed = [[0] * N_TYPES for _ in range(3)]
        self.declared: list[list[Combo]] = [[], [], []]

    def options(self, held: Sequence[int], combos: Sequence[Combo]) -> list[Declaration]:
        """Every declaration open now with ``held`` (count vector of hand + table)."""
        out = []
        for c in combos:
            if any(held[t] < k for t, k in c.need):
                continue
            base = None
            for d in self.declared[c.cls]:
                if c.contains(d) and d is not c and (base is None or d.points > base.points):
                    base = d
            old = dict(base.need) if base is not None else {}
            com = self.committed[c.cls]
            if all(k - old.get(t, 0) <= held[t] - com[t] for t, k in c.need) and c is not base:
                gain = c.points - (base.points if base is not None else 0)
                if gain > 0:
                    out.append(Declaration(c, base, gain))
        return out

    def best(self, held: Sequence[int], combos: Sequence[Combo]) -> Declaration | None:
        """The declaration that gains most (ties: the first in table order), or None."""
        best = None
        for d in self.options(held, combos):
            if best is None or d.gain > best.gain:
                best = d
        return best

    def declare(self, d: Declaration) -> int:
        old = dict(d.replaces.need) if d.replaces is not None else {}
        com = self.committed[d.combo.cls]
        for t, k in d.combo.need:
            com[t] += k - old.get(t, 0)
        if d.replaces is not None:
            self.declared[d.combo.cls].remove(d.replaces)
        self.declared[d.combo.cls].append(d.combo)
        return d.gain

    def played(self, card: int, held_after: int) -> None:
        """A card left the player's holding: a committed copy goes only when no free copy is left."""
        for com in self.committed:
            if com[card] > held_after:
                com[card] = held_after

    def table_cards(self) -> list[int]:
        """Card types currently committed to some meld (lying on the table), one entry per copy."""
        most = [max(self.committed[k][t] for k in range(3)) for t in range(N_TYPES)]
        return [t for t in range(N_TYPES) for _ in range(most[t])]
