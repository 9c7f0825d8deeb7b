"""Names of the meld events and meld-total quantities that the odds tables report.

A *level* is a per-hand count 0..2 of one meld (families in a suit, pairs in a suit,
sets of a rank, Binokels, trump sevens); each level gives two events, "at least one"
and "two". The Monte Carlo kernel (:mod:`binokel_sim.odds.monte_carlo`) computes the levels in
the order of :data:`LEVELS`; the exact module (:mod:`binokel_sim.odds.exact`) computes the
same events by name.

``dissle_1``/``dissle_2`` hold one / two sevens of the trump suit with the trump fixed
(suit E; every suit gives the same numbers by symmetry); they exist only with sevens.

>>> [lv.events for lv in LEVELS[:2]]
[('family_E', 'double_family_E'), ('family_G', 'double_family_G')]
>>> meld_unit(load_rules("standard").melds)
10
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from binokel_sim.cards import RANKS, SUITS
from binokel_sim.rules import MELD_RANKS, Melds, Rules, load_rules  # noqa: F401  (load_rules: doctest)


@dataclass(frozen=True)
class Level:
    """One per-hand meld count 0..2 and its two events (at least one, two).

    ``kind``: family or pair (of suit ``index``), kind (of rank ``index``), binokel, or
    dissle (trump sevens, trump fixed at suit ``index``).
    """

    kind: str
    index: int
    events: tuple[str, str]


#: Dissle events are counted with trump fixed at this suit.
DISSLE_SUIT = 0

LEVELS: tuple[Level, ...] = (
    *(Level("family", s, (f"family_{SUITS[s]}", f"double_family_{SUITS[s]}")) for s in range(4)),
    *(Level("pair", s, (f"pair_{SUITS[s]}", f"double_pair_{SUITS[s]}")) for s in range(4)),
    *(Level("kind", RANKS.index(r), (f"four_{r}", f"eight_{r}")) for r in MELD_RANKS),
    Level("binokel", 0, ("binokel", "double_binokel")),
    Level("dissle", DISSLE_SUIT, ("dissle_1", "dissle_2")),
)

#: Meld-total quantities: the total at each fixed trump, then at the best trump.
QUANTITIES = tuple(f"trump_{s}" for s in SUITS) + ("best",)
BEST = len(QUANTITIES) - 1

#: Thresholds of the ``meld_at_least_{v}_best`` rows.
LADDER = (100, 150, 200, 250, 300, 400, 500, 1000)


def levels_for(rules: Rules) -> list[int]:
    """Indices into :data:`LEVELS` that apply to ``rules`` (Dissle only with sevens)."""
    return [i for i, lv in enumerate(LEVELS) if lv.kind != "dissle" or rules.layout.sevens]


def meld_unit(melds: Melds) -> int:
    """Greatest common divisor of the meld values (10 for every shipped table; 1 if all are 0).

    Totals are tallied in this unit so histograms stay small.
    """
    values = [int(v) for v in melds.as_array()]
    return math.gcd(*values) or 1
