"""Exact meld odds of one hand plus the Tapp: every Tapp the unseen cards can make, weighed by its ways.

The soloist sees his hand; the Tapp is ``tapp_size`` cards drawn from the cards he does not see, every
set of physical cards equally likely. Two copies of a card type make many sets alike, so the sets are
enumerated as multisets of card types, each weighed by its number of ways (``prod C(free_t, k_t)``); the
weights sum to ``C(unseen, tapp_size)``. For each one: the melds of hand + Tapp at their best trump, the
best meld total kept after laying ``tapp_size`` cards away (exact, :func:`~binokel_sim.melds.scorer.best_kept`;
without calling a card) and its trump, and the meld levels (families, pairs, four of a kind, Binokel).
Exact: no sampling error.

>>> odds = hand_tapp_odds("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "standard")
>>> odds.tapps, odds.ways, round(odds.mean_kept, 2) > odds.own_best
(5289, 20475, True)
>>> round(sum(odds.trump_share.values()), 12)
1.0
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass

import numpy as np

from binokel_sim.cards import DECK_COUNTS, N_TYPES, RANKS, SUITS
from binokel_sim.dealing.hand_input import as_counts
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import KIND_RANKS, best_kept, best_trump, binokel_level, suit_structure
from binokel_sim.rules import Rules, as_rules

#: The meld levels counted per hand: families and pairs by suit, four of a kind by rank, Binokel.
LEVEL_NAMES = (*(f"family {s}" for s in SUITS), *(f"pair {s}" for s in SUITS),
               *(f"four {RANKS[int(r)]}" for r in KIND_RANKS), "binokel")


@kernel
def tapp_outcomes(hand, tapps, keep, table, best, kept, kept_trump, levels):
    """Per Tapp ``tapps[i]``: the best meld total of hand + Tapp (``best``), the best kept after the discard and
    its trump (``kept``, ``kept_trump``), and the levels of :data:`LEVEL_NAMES` (``levels[i, :]``)."""
    c = np.empty(24, dtype=np.uint8)
    for i in range(tapps.shape[0]):
        for t in range(24):
            c[t] = hand[t] + tapps[i, t]
        best[i] = best_trump(c, table)[0]
        v, tr = best_kept(c, keep, table)
        kept[i] = v
        kept_trump[i] = tr
        for s in range(4):
            f, p = suit_structure(c, s)
            levels[i, s] = f
            levels[i, 4 + s] = p
        for k in range(4):
            r = KIND_RANKS[k]
            levels[i, 8 + k] = min(c[r], c[6 + r], c[12 + r], c[18 + r])
        levels[i, 12] = binokel_level(c)


@dataclass(frozen=True)
class HandTappOdds:
    """The exact odds of one hand + the Tapp (see the module docstring).

    ``tapps``: distinct Tapps (multisets of card types); ``ways``: sets of physical cards, ``C(unseen, size)``;
    ``own_best``: the hand's own melds at its best trump; ``kept_pmf``: (total, probability) of the best kept
    total; ``trump_share``: suit -> probability it is the best kept total's trump; ``levels``: name ->
    (in the hand, probability in hand + Tapp) for each meld level held at least once.
    """

    rules: str
    hand: str
    tapps: int
    ways: int
    own_best: int
    mean_best: float
    mean_kept: float
    kept_pmf: tuple[tuple[int, float], ...]
    trump_share: dict[str, float]
    levels: dict[str, tuple[int, float]]

    def p_kept_at_least(self, total: int) -> float:
        """P(best kept meld total >= ``total``).

        >>> o = hand_tapp_odds("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "standard")
        >>> o.p_kept_at_least(0), o.p_kept_at_least(10_000)
        (1.0, 0.0)
        """
        return float(sum(p for v, p in self.kept_pmf if v >= total))

    def to_dict(self) -> dict:
        """JSON-ready: the figures, P(kept >= x) at every total reached, the levels as rows."""
        return {"rules": self.rules, "hand": self.hand, "tapps": self.tapps, "ways": self.ways,
                "exact": True, "own_best": self.own_best, "mean_best": self.mean_best, "mean_kept": self.mean_kept,
                "mean_gain": self.mean_kept - self.own_best,
                "kept": [{"total": v, "p": p, "p_at_least": self.p_kept_at_least(v)} for v, p in self.kept_pmf],
                "trump_share": self.trump_share,
                "levels": [{"meld": k, "in_hand": h, "p_with_tapp": p} for k, (h, p) in self.levels.items()]}


def tapp_multisets(free: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """(Tapps uint8[m, 24], ways int64[m]): every multiset of ``size`` card types drawable from ``free``
    (copies left of each type) and its number of sets of physical cards.

    >>> t, w = tapp_multisets(np.array([2, 1] + [0] * 22), 2)
    >>> t[:, :2].tolist(), w.tolist(), int(w.sum()) == math.comb(3, 2)
    ([[2, 0], [1, 1]], [1, 2], True)
    """
    types = [t for t in range(N_TYPES) if free[t] > 0]
    rows, ways = [], []
    for combo in itertools.combinations_with_replacement(types, size):
        k = np.bincount(np.asarray(combo, dtype=np.int64), minlength=N_TYPES)
        if (k > free).any():
            continue
        rows.append(k)
        ways.append(math.prod(math.comb(int(free[t]), int(k[t])) for t in set(combo)))
    return np.asarray(rows, dtype=np.uint8).reshape(-1, N_TYPES), np.asarray(ways, dtype=np.int64)


def hand_tapp_odds(hand, rules: Rules | str | os.PathLike[str] = "standard") -> HandTappOdds:
    """Exact meld odds of ``hand`` (card text or counts, the rules' hand size) plus a Tapp drawn from the
    cards outside it; see :class:`HandTappOdds`."""
    from binokel_sim.cards import cards_of, format_cards

    rules = as_rules(rules)
    rules.require_auction("hand + Tapp odds")  # a talon game deals no Tapp to pick up
    size = rules.layout.tapp_size
    h = np.ascontiguousarray(as_counts(hand, "hand", rules.layout.hand_size, rules), dtype=np.uint8)
    free = DECK_COUNTS[rules.layout.sevens].astype(np.int64) - h
    tapps, ways = tapp_multisets(free, size)
    m = len(ways)
    table = rules.meld_array()
    best, kept, kept_trump = (np.empty(m, np.int64) for _ in range(3))
    levels = np.empty((m, len(LEVEL_NAMES)), np.int64)
    tapp_outcomes(h, tapps, np.int64(rules.layout.hand_size), table, best, kept, kept_trump, levels)
    w = ways / ways.sum()
    own_levels = np.empty((1, len(LEVEL_NAMES)), np.int64)
    zero = np.zeros((1, N_TYPES), np.uint8)
    o_best, o_kept, o_tr = (np.empty(1, np.int64) for _ in range(3))
    tapp_outcomes(h, zero, np.int64(rules.layout.hand_size), table, o_best, o_kept, o_tr, own_levels)
    values = np.unique(kept)
    pmf = tuple((int(v), float(w[kept == v].sum())) for v in values)
    share = {SUITS[s]: float(w[kept_trump == s].sum()) for s in range(4)}
    held = {name: (int(own_levels[0, j]), float(w[levels[:, j] >= 1].sum())) for j, name in enumerate(LEVEL_NAMES)
            if (levels[:, j] >= 1).any()}
    return HandTappOdds(rules.name, format_cards(cards_of(h)), m, int(ways.sum()), int(o_best[0]),
                        float(w @ best), float(w @ kept), pmf, share, held)
