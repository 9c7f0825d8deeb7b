"""The partner's share of the soloist's own estimate at a partnership layout (``layout.teams``).

At Kreuzbinokel the bid is made on the team's total, so the soloist's estimate after seeing
the Tapp -- the one that decides whether he goes out -- must count what his partner brings:
the partner's melds at the named trump and the card points the partner takes in play. The
soloist cannot see the partner's cards, so he counts their expectation over the cards he has
not seen: :data:`PARTNER_DRAWS` partner hands drawn from them, each valued as the soloist
values his own (:func:`~binokel_sim.melds.scorer.meld_total` +
:func:`~binokel_sim.exchange.candidates.play_estimate`).

The draws come from a stream keyed by the seen cards and the trump alone, so the estimate
is a function of what the soloist knows: the same view gives the same number in a corpus
build, a fresh study, the checked tier and a simulated game, whatever the seed or chunking.

Measured on the shipped ``kreuz`` corpus (10 000 deals): the own-hand estimate averaged 202
points against a team total of 288; the partner's actual melds and play estimate add 26 + 44.
The rest (about 16 points) is team play the cheap estimate does not see (the partner's
trumps and aces winning tricks the soloist's tens are thrown on), so the estimate stays a
little cautious.

>>> from binokel_sim.cards import counts_of, parse_cards
>>> from binokel_sim.rules import load_rules
>>> pool = counts_of(parse_cards("EA EA E10 EK EO EU HA H10 SA GA G10 GK GO"))  # 9 cards + the Tapp
>>> a = partner_allowance(load_rules("kreuz"), pool[None], np.array([0]))
>>> 40 < int(a[0]) < 110, int(partner_allowance(load_rules("four-solo"), pool[None], np.array([0]))[0])
(True, 0)
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import N_TYPES, DECK_COUNTS
from binokel_sim.dealing.dealer import deal_one, unseen_types
from binokel_sim.exchange.candidates import PLAY_WEIGHTS, play_estimate
from binokel_sim.jit import kernel
from binokel_sim.melds.scorer import meld_total
from binokel_sim.rng import counts_key
from binokel_sim.rules import Rules

#: Partner hands drawn per view: the standard error of the allowance is about 4 points (sd ~45 / sqrt 128).
PARTNER_DRAWS = 128


@kernel
def allowance_batch(pools, trumps, deck, hand_size, table, weights, draws, out):
    """Mean partner melds + play estimate over ``draws`` hands of the unseen cards, per view, into ``out``.

    ``pools``: uint8[n, 24] the cards the soloist has seen; ``trumps``: int64[n] (only trumps 0..3).
    """
    for i in range(pools.shape[0]):
        free = unseen_types(deck, pools[i])
        size = free.shape[0]
        fixed = np.full(size, -1, dtype=np.int8)
        buf = np.empty(size, dtype=np.int8)
        row = np.empty(size, dtype=np.int8)
        hand = np.zeros(N_TYPES, dtype=np.uint8)
        key0, key1 = counts_key(pools[i], trumps[i])
        total = 0.0
        for j in range(draws):
            deal_one(key0, key1, np.int64(j), free, fixed, buf, row)
            for c in range(N_TYPES):
                hand[c] = 0
            for x in range(hand_size):
                hand[row[x]] += 1
            total += meld_total(hand, trumps[i], table) + play_estimate(hand, trumps[i], weights)
        out[i] = total / draws


def partner_allowance(rules: Rules, pools: np.ndarray, trumps: np.ndarray) -> np.ndarray:
    """Expected partner contribution (float64[n]) for views ``pools`` (uint8[n, 24]) at ``trumps`` (int64[n]);
    zeros where the soloist has no partner (no ``layout.teams``)."""
    n = pools.shape[0]
    out = np.zeros(n, dtype=np.float64)
    if not rules.layout.partnership or n == 0:
        return out
    deck = DECK_COUNTS[rules.layout.sevens]
    allowance_batch(np.ascontiguousarray(pools, dtype=np.uint8), np.asarray(trumps, dtype=np.int64), deck,
                    np.int64(rules.layout.hand_size), rules.meld_array(), PLAY_WEIGHTS, np.int64(PARTNER_DRAWS), out)
    return out
