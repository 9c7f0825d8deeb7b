"""Exchange optimiser, cheap stage: exhaustive discards against itertools, legal discards, specials."""

import itertools

import numpy as np
import pytest

from binokel_sim.contracts import is_trump
from binokel_sim.cards import CARD_POINTS, Hand, cards_of, counts_of, parse_cards
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.errors import InputError
from binokel_sim.exchange.candidates import (PLAY_WEIGHTS, best_per_trump, discard_bound, durch_losers,
                                             enumerate_discards, play_estimate)
from binokel_sim.exchange.policy import build_candidates, cheap_candidates, choose
from binokel_sim.melds.scorer import meld_total
from binokel_sim.rules import load_rules


def deals(preset, n, seed=11):
    r = load_rules(preset)
    sl = seat_slices(r)
    rows = Dealer(r, seed).deal(n)
    return r, [(counts_of(row[sl[0]]), counts_of(row[sl[-1]])) for row in rows]


def py_play_estimate(kept, trump):
    """Plain-Python PLAY_FEATURES: trumps, trump A+10, side aces, side tens under an ace, void side suits."""
    t = kept[trump * 6: trump * 6 + 6]
    side = [kept[s * 6: s * 6 + 6] for s in range(4) if s != trump]
    f = [1, t.sum(), t[0] + t[1], sum(x[0] for x in side), sum(min(x[0], x[1]) for x in side),
         sum(1 for x in side if x.sum() == 0)]
    return max(float(np.dot(PLAY_WEIGHTS, f)), 0.0)


def brute_best(pool, size, table, mode):
    """Best cheap value per trump over every size-subset of the pool's cards (by position)."""
    cards = cards_of(pool)
    best = [-np.inf] * 4
    for combo in itertools.combinations(range(len(cards)), size):
        disc = counts_of([cards[i] for i in combo])
        kept = pool - disc
        dp = int(disc.astype(np.int64) @ CARD_POINTS)
        for t in range(4):
            v = meld_total(kept, t, table) + dp + (py_play_estimate(kept, t) if mode else 0.0)
            best[t] = max(best[t], v)
    return best


@pytest.mark.parametrize("preset", ["standard", "grupp"])
def test_enumerate_discards_matches_itertools(preset):
    r, ds = deals(preset, 3)
    for hand, tapp in ds:
        pool = hand + tapp
        out = np.zeros((discard_bound(r), 24), dtype=np.uint8)
        m = enumerate_discards(pool, r.layout.tapp_size, out)
        got = {tuple(out[i]) for i in range(m)}
        ref = {tuple(counts_of(c)) for c in itertools.combinations(cards_of(pool), r.layout.tapp_size)}
        assert m == len(got) == len(ref) and got == ref


@pytest.mark.parametrize("preset,mode", [("standard", 0), ("standard", 1), ("standard-48", 1)])
def test_best_per_trump_matches_brute_force(preset, mode):
    r, ds = deals(preset, 3, seed=5)
    table = r.meld_array()
    for hand, tapp in ds:
        pool = hand + tapp
        discs = np.empty((discard_bound(r), 24), dtype=np.uint8)
        od = np.zeros((4, 2, 24), dtype=np.uint8)
        ov = np.empty((4, 2))
        best_per_trump(pool, np.int64(r.layout.tapp_size), table, PLAY_WEIGHTS, np.int64(mode), discs, od, ov)
        assert ov[:, 0] == pytest.approx(brute_best(pool, r.layout.tapp_size, table, mode))
        assert (ov[:, 0] >= ov[:, 1]).all()
        for t in range(4):
            kept = pool - od[t, 0]
            assert play_estimate(kept, t, PLAY_WEIGHTS) == pytest.approx(py_play_estimate(kept, t))


@pytest.mark.parametrize("preset", ["standard", "grupp", "kreuz", "four-solo-48"])
@pytest.mark.parametrize("policy", ["melds", "heuristic"])
def test_discards_are_always_legal(preset, policy):
    r, ds = deals(preset, 6, seed=2)
    hands = np.stack([h for h, _ in ds])
    tapps = np.stack([t for _, t in ds])
    cs = build_candidates(r, hands, tapps, policy)
    kept = cs.kept
    pool = (hands + tapps).astype(np.int64)
    assert (cs.disc.astype(np.int64) <= pool[:, None, :]).all()  # only cards held
    assert (cs.disc.sum(axis=2) == r.layout.tapp_size).all()  # exactly the Tapp's size
    assert (kept.sum(axis=2) == r.layout.hand_size).all()
    if not r.layout.sevens:
        assert cs.disc[:, :, 5::6].sum() == 0  # no sevens invented in a 40-card deck
    ch = choose(r, 0, cs, policy)
    assert (is_trump(cs.code[np.arange(len(ds)), ch.index]) | (cs.measure[np.arange(len(ds)), ch.index] == 0)).all()


def test_cheap_candidates_hand_checked():
    r = load_rules("standard")
    c = cheap_candidates("EA EA E10 E10 EK EK EO EO EU EU HA HA", "GA SA S10 HK", r, "melds")
    best = c[0]
    # Trump double family 1500 kept; four aces impossible (only two free slots): lay away the 4 richest.
    assert (best.contract, best.trump, best.melds, best.discard_points) == ("trump", 0, 1500, 44)
    assert sorted(best.discard) == sorted(parse_cards("HA HA GA SA"))
    assert best.value == 1544 and best.announce() == "trump E, discard GA HA HA SA"
    assert Hand.from_cards(best.kept + best.discard) == Hand.parse("EA EA E10 E10 EK EK EO EO EU EU HA HA GA SA S10 HK")


def test_sure_durch_detected_and_ranked_first():
    r = load_rules("standard")
    # Laying away HK HO SA SU leaves only cards no unseen card can beat: a sure Durch.
    hand, tapp = "EA EA E10 E10 EK GA GA G10 G10 GK HA HA", "HK HO SA SU"
    c = cheap_candidates(hand, tapp, r, "heuristic")
    assert c[0].contract == "durch" and c[0].measure == 0 and c[0].value == 1000
    assert durch_losers(counts_of(c[0].kept), Hand.parse(hand + " " + tapp).counts) == 0
    assert {14, 15, 22} <= set(c[0].discard)  # HK, HO, SU must go (SA or EA is the fourth)
    pool = Hand.parse(hand + " " + tapp).counts
    kept = Hand.parse("EA E10 EK").counts
    assert durch_losers(kept, kept) == 2  # E10 (an unseen EA) and EK (EA, E10 unseen)
    assert durch_losers(Hand.parse(hand).counts, pool) == 0


def test_bad_inputs_raise_input_error():
    r = load_rules("standard")
    with pytest.raises(InputError, match="policy"):
        cheap_candidates("EA " * 12, "GA GA SA SA", r, "greedy")
    with pytest.raises(InputError, match="hand: expected 12"):
        cheap_candidates("EA EA", "GA GA SA SA", r)
    with pytest.raises(InputError, match="at most twice"):
        cheap_candidates("EA EA E10 E10 EK EK EO EO EU EU HA HA", "EA GA SA SA", r)
    with pytest.raises(InputError, match="40-card deck"):
        cheap_candidates("EA EA E10 E10 EK EK EO EO EU EU HA HA", "E7 GA SA SA", r)


def test_grupp_durch_from_hand_and_bettel_candidates():
    r = load_rules("grupp")  # Durch from the hand (no Tapp), Bettel allowed
    _, ds = deals("grupp", 4, seed=8)
    hands = np.stack([h for h, _ in ds])
    tapps = np.stack([t for _, t in ds])
    cs = build_candidates(r, hands, tapps, "heuristic")
    codes = cs.code[0].tolist()
    assert codes[-2:] == [4, 5] and codes[:-2] == [t for t in range(4) for _ in range(2)]
    assert (cs.disc[:, -2] == tapps).all()  # Durch from the hand lays the Tapp away unseen
    assert (cs.disc[:, -1].sum(axis=1) == 3).all()
    from binokel_sim.exchange.candidates import bettel_risk

    ea = Hand.parse("EA").counts
    assert bettel_risk(ea, ea) == 10  # two each of E10 EK EO EU E7 unseen below it
    low = Hand.parse("E7 G7").counts
    assert bettel_risk(low, low) == 0


def test_durch_from_the_hand_sees_only_the_hand():
    # Announced without the Tapp (grupp): the measure counts every card outside the hand as unseen,
    # the same in the batch path and in the facade.
    r = load_rules("grupp")
    _, ds = deals("grupp", 6, seed=3)
    hands = np.stack([h for h, _ in ds])
    tapps = np.stack([t for _, t in ds])
    cs = build_candidates(r, hands, tapps, "heuristic")
    col = list(cs.code[0]).index(4)
    assert [int(m) for m in cs.measure[:, col]] == [int(durch_losers(h, h)) for h in hands]
    for h, t, m in zip(hands, tapps, cs.measure[:, col], strict=True):
        durch = [c for c in cheap_candidates(list(cards_of(h)), list(cards_of(t)), r) if c.contract == "durch"]
        assert durch[0].measure == m and durch[0].discard == tuple(cards_of(t))


def test_trump_ties_are_broken_fairly_and_by_the_view():
    from binokel_sim.exchange.policy import TIE_SALT, best_index, view_keys
    from binokel_sim.rng import counts_key

    rng = np.random.default_rng(4)
    raw = rng.integers(0, 3, size=(4000, 24)).astype(np.uint8)
    pools = view_keys(raw)
    # Four trumps tie at the top (a lower candidate first); the pick must be fair between them.
    values = np.tile([1.0, 5.0, 5.0, 5.0, 5.0], (4000, 1))
    codes = np.tile([0, 0, 1, 2, 3], (4000, 1))
    idx = best_index(values, codes, pools)
    picked = np.bincount(codes[np.arange(4000), idx], minlength=4)
    # chi-square, 3 degrees of freedom: 16.27 is its 0.999 quantile
    assert ((picked - 1000) ** 2 / 1000).sum() < 16.27, picked
    assert (idx >= 1).all()
    assert pools[5] == counts_key(raw[5], TIE_SALT)[0]
    assert best_index(values[:7], codes[:7], pools[:7]).tolist() == idx[:7].tolist()  # a function of the view
    # Ties within one trump keep the first candidate; a clear best is the best.
    assert best_index(np.array([[3.0, 3.0, 2.0]]), np.array([[1, 1, 2]]), pools[:1]).tolist() == [0]
    assert best_index(np.array([[3.0, 4.0, 2.0]]), np.array([[0, 1, 2]]), pools[:1]).tolist() == [1]
