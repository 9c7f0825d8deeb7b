"""Exact hand + Tapp meld odds against brute force over every set of physical cards."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from binokel_sim.cards import DECK_COUNTS, N_TYPES
from binokel_sim.dealing.hand_input import as_counts
from binokel_sim.melds.scorer import best_kept, best_trump
from binokel_sim.odds.hand_tapp import LEVEL_NAMES, hand_tapp_odds, tapp_multisets
from binokel_sim.rules import load_rules


def brute(hand: str, preset: str):
    """Every set of ``tapp_size`` physical cards of the unseen ones, each counted once: exact fractions."""
    r = load_rules(preset)
    h = as_counts(hand, "hand", r.layout.hand_size, r).astype(np.uint8)
    unseen = np.repeat(np.arange(N_TYPES), DECK_COUNTS[r.layout.sevens] - h)
    table = r.meld_array()
    kept, trump, n, best = {}, {}, 0, 0
    for pick in itertools.combinations(range(unseen.size), r.layout.tapp_size):
        c = h.copy()
        np.add.at(c, unseen[list(pick)], 1)
        v, t = best_kept(c, np.int64(r.layout.hand_size), table)
        kept[int(v)] = kept.get(int(v), 0) + 1
        trump[int(t)] = trump.get(int(t), 0) + 1
        best += int(best_trump(c, table)[0])
        n += 1
    return (n, {v: Fraction(k, n) for v, k in kept.items()}, {t: Fraction(k, n) for t, k in trump.items()},
            Fraction(best, n))


@pytest.mark.parametrize("hand, preset", [("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "standard"),
                                          ("GO GO SU HK HO EK EO E10 SA S10 GA G7 H7 S7 E7", "wuerttemberg")])
def test_kept_distribution_and_trump_match_brute_force(hand, preset):
    n, kept, trump, best = brute(hand, preset)
    odds = hand_tapp_odds(hand, preset)
    assert odds.ways == n == math.comb(n_unseen(preset), load_rules(preset).layout.tapp_size)
    assert {v: p for v, p in odds.kept_pmf} == pytest.approx({v: float(p) for v, p in kept.items()}, abs=1e-12)
    assert odds.trump_share == pytest.approx({"EGHS"[t]: float(trump.get(t, 0)) for t in range(4)}, abs=1e-12)
    assert odds.mean_kept == pytest.approx(float(sum(v * p for v, p in kept.items())), abs=1e-9)
    assert odds.mean_best == pytest.approx(float(best), abs=1e-9)


def n_unseen(preset: str) -> int:
    r = load_rules(preset)
    return r.layout.deck_size - r.layout.hand_size


def test_binokel_by_hand():
    """Hand with one Grün Ober and no Schellen Unter: a Binokel needs a Schellen Unter from the Tapp, and both
    copies are unseen: P = 1 - C(26, 4) / C(28, 4)."""
    odds = hand_tapp_odds("EA EA E10 EK EO EU GA GO HA H10 SA S10", "standard")
    in_hand, p = odds.levels["binokel"]
    assert in_hand == 0
    assert p == pytest.approx(1 - math.comb(26, 4) / math.comb(28, 4), abs=1e-12)
    assert set(odds.levels) <= set(LEVEL_NAMES)


def test_multisets_weigh_to_all_sets():
    free = np.zeros(N_TYPES, np.int64)
    free[:5] = [2, 1, 2, 1, 1]
    t, w = tapp_multisets(free, 3)
    assert int(w.sum()) == math.comb(7, 3)
    assert (t.astype(np.int64) <= free).all() and (t.sum(axis=1) == 3).all()
    assert len({tuple(x) for x in t.tolist()}) == len(t)


def test_no_tapp_is_refused():
    from binokel_sim.errors import InputError

    with pytest.raises(InputError, match="hand \\+ Tapp odds"):
        hand_tapp_odds("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "two-hand")
