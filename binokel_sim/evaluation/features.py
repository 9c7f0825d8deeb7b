"""Countable features of a hand before the Tapp: what a player can count at the table.

Order of :data:`FEATURES`: meld points at the best trump, aces, tens, longest suit,
length of the best-meld trump suit, aces outside it, card points in hand.

>>> from binokel_sim.cards import Hand
>>> from binokel_sim.rules import load_rules
>>> f = features_of(Hand.parse("EA EA E10 EK EO EU GA G10 HA H10 SA S10").counts, load_rules("standard"))
>>> dict(zip(FEATURES, f.tolist()))
{'melds': 250, 'aces': 5, 'tens': 4, 'longest': 6, 'trump_len': 6, 'side_aces': 3, 'points': 104}
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import CARD_POINTS
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import best_trump
from binokel_sim.rules import Rules

FEATURES = ("melds", "aces", "tens", "longest", "trump_len", "side_aces", "points")


@kernel
def features_batch(hands, table, out):
    """:data:`FEATURES` of each hand (``hands`` uint8[n, 24]) into ``out`` (int64[n, 7])."""
    for i in range(hands.shape[0]):
        h = hands[i]
        melds, trump = best_trump(h, table)
        aces = 0
        tens = 0
        longest = 0
        pts = 0
        for s in range(4):
            b = s * 6
            aces += h[b]
            tens += h[b + 1]
            n = 0
            for r in range(6):
                n += h[b + r]
                pts += CARD_POINTS[b + r] * h[b + r]
            longest = max(longest, n)
        tl = 0
        for r in range(6):
            tl += h[trump * 6 + r]
        out[i, 0] = melds
        out[i, 1] = aces
        out[i, 2] = tens
        out[i, 3] = longest
        out[i, 4] = tl
        out[i, 5] = aces - h[trump * 6]
        out[i, 6] = pts


def features_of(counts: np.ndarray, rules: Rules) -> np.ndarray:
    """:data:`FEATURES` of one hand (count vector) as int64[7]."""
    out = np.empty((1, len(FEATURES)), dtype=np.int64)
    features_batch(np.ascontiguousarray(counts, dtype=np.uint8)[None], rules.meld_array(), out)
    return out[0]
