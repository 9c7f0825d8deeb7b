"""Calling a card (Rufen) and forehand passing (docs/rules.md §3, §4.4): hand-checked cases."""

import dataclasses

import numpy as np
import pytest

from binokel_sim.cards import Hand, format_cards
from binokel_sim.errors import InputError
from binokel_sim.exchange.calling import apply_calls, callable_types, swap_call
from binokel_sim.exchange.policy import cheap_candidates
from binokel_sim.game.auction import auction
from binokel_sim.game.simulate import THROWN_IN, simulate_game
from binokel_sim.melds.scorer import meld_total
from binokel_sim.provenance import rules_hash
from binokel_sim.rules import load_rules

HAND = "EA E10 EK EO G10 G10 H10 H10 S10 S10 GA HA"
TAPP = "GK HO GU HU"


def _type(card: str) -> int:
    return int(np.nonzero(Hand.parse(card).counts)[0][0])


def test_a_called_king_completes_the_trump_family():
    # Without calling the best is trump acorn with its pair: 40 (no other meld in hand + Tapp).
    plain = cheap_candidates(HAND, TAPP, "standard")[0]
    assert (plain.contract, plain.trump, plain.melds) == ("trump", 0, 40)
    # Calling HK completes A 10 K O U of hearts: trump family 150 + the acorn pair 20 = 170.
    best = cheap_candidates(HAND, TAPP, "calling")[0]
    assert (best.trump, best.melds, best.call) == (2, 170, _type("HK"))
    kept = np.bincount(best.kept, minlength=24).astype(np.uint8)
    assert format_cards(best.kept) == "EA E10 EK EO GA G10 HA H10 H10 HK HO HU"
    assert meld_total(kept, 2, load_rules("calling").meld_array()) == 170
    # Five cards go out of pool + HK (G10 GK S10 S10 GU); the one with the fewest points (GU, 2) goes
    # back to the holder, the four others are the discard.
    assert best.give == _type("GU")
    assert format_cards(best.discard) == "G10 GK S10 S10"
    assert best.discard_points == 10 + 4 + 10 + 10


def test_callable_cards_follow_the_option():
    r = load_rules("calling")
    pool = (Hand.parse(HAND).counts + Hand.parse(TAPP).counts)[None]
    absent = callable_types(r, pool)[0]
    assert not absent[_type("EA")] and not absent[_type("G10")] and absent[_type("HK")] and absent[_type("EU")]
    both = dataclasses.replace(r, calling=dataclasses.replace(r.calling, cards="not_both"))
    nb = callable_types(both, pool)[0]
    assert nb[_type("EA")] and not nb[_type("G10")]  # one EA held: the other may be called; both G10: no
    only = dataclasses.replace(r, calling=dataclasses.replace(r.calling, meld_only=True))
    mo = callable_types(only, pool)[0]
    assert mo[_type("HK")] and mo[_type("EU")] and not mo[_type("SU")]  # SU: no meld at any trump (no GO)


def test_the_first_holder_after_the_soloist_hands_the_card_over():
    hands = np.zeros((1, 3, 24), dtype=np.uint8)
    k, u = _type("HK"), _type("GU")
    hands[0, 0, k] = 1  # seat 0 holds HK, and so does seat 2
    hands[0, 2, k] = 1
    out = apply_calls(hands, 1, np.array([k]), np.array([u]))
    # From soloist 1 in playing order: seat 2 first, so seat 2 gives HK and gets GU; seat 0 keeps its HK.
    assert out[0, 2, k] == 0 and out[0, 2, u] == 1 and out[0, 0, k] == 1
    assert hands[0, 2, k] == 1  # a copy
    assert swap_call(np.array([[1, 0, 2]], np.uint8), np.array([-1]), np.array([-1])).tolist() == [[1, 0, 2]]


def test_calling_changes_the_rules_hash_only_when_allowed():
    r = load_rules("standard")
    off = dataclasses.replace(r, calling=dataclasses.replace(r.calling, cards="not_both"))
    assert rules_hash(off) == rules_hash(r)  # not allowed: its other keys are never read
    assert rules_hash(load_rules("calling")) != rules_hash(dataclasses.replace(load_rules("calling"),
                                                                                  calling=r.calling))


def _free(min_bid: int = 150):
    r = load_rules("standard")
    return dataclasses.replace(r, bidding=dataclasses.replace(r.bidding, forehand_must_open=False, min_bid=min_bid))


@pytest.mark.parametrize("ceilings,must,free", [
    ([0, 0, 0], (0, 150), (-1, 0)),        # nobody bids: forehand is obliged, or the deal is thrown in
    ([0, 200, 0], (1, 160), (1, 150)),      # obliged forehand is raised once; free, middlehand opens
    ([0, 0, 170], (2, 160), (2, 150)),      # rearhand alone
    ([0, 200, 230], (2, 210), (2, 200)),    # rearhand outbids middlehand: the raises fall one step apart
    ([180, 0, 0], (0, 150), (0, 150)),
])
def test_forehand_may_pass(ceilings, must, free):
    assert auction(ceilings, load_rules("standard")) == must
    assert auction(ceilings, _free()) == free


def test_a_game_where_forehand_may_pass_throws_in_deals():
    rec = simulate_game(_free(min_bid=350), seed=2, game=0, max_deals=4)  # deals 0 and 2 thrown in, 1 and 3 played
    thrown = [d for d in rec.records if d.soloist_seat < 0]
    played = [d for d in rec.records if d.soloist_seat >= 0]
    assert thrown and played
    assert all(d.contract == THROWN_IN and d.scores == [0, 0, 0] and d.soloist == -1 for d in thrown)
    assert all(d.bid >= 350 for d in played)


@pytest.mark.parametrize("text,message", [
    ('inherits = "two-hand"\nname = "x"\n[calling]\nallowed = true\n', "calling.allowed: layout"),
    ('inherits = "two-hand"\nname = "x"\n[bidding]\nforehand_must_open = false\n',
     "bidding.forehand_must_open: layout"),
    ('inherits = "calling"\nname = "x"\n[calling]\ncards = "any"\n', "calling.cards: expected one of"),
    ('inherits = "kreuz"\nname = "x"\n[calling]\nallowed = true\n', "calling.allowed"),
])
def test_bad_calling_options_name_the_key(tmp_path, text, message):
    p = tmp_path / "r.toml"
    p.write_text(text)
    with pytest.raises(InputError, match=message):
        load_rules(str(p))


def test_meld_odds_kept_scope_takes_the_best_call_at_each_trump():
    # The meld-odds kernel's kept scope with calling, by hand for HAND + TAPP (12 kept of 16 + the call):
    # without a call acorn trump pair 40 and 20 elsewhere (the acorn pair). Calling EU makes the acorn
    # trump family (150); calling HK the hearts family, GO the leaves family (GA G10 GK GU are in the pool):
    # trump family 150 + the acorn pair 20 = 170 at hearts or leaves, and at bells either family untrumped,
    # 100 + 20 = 120.
    from binokel_sim.exchange.calling import call_limits
    from binokel_sim.melds.scorer import totals_by_trump
    from binokel_sim.odds.monte_carlo import called_kept_totals, kept_totals

    r = load_rules("calling")
    table = r.meld_array()
    counts = (Hand.parse(HAND).counts + Hand.parse(TAPP).counts).astype(np.uint8)
    before = counts.copy()
    tot, need = np.zeros(5, np.int64), np.zeros(24, np.int64)
    totals_by_trump(counts, table, tot)
    kept_totals(counts, 12, table, need, tot)
    assert tot.tolist() == [40, 20, 20, 20, 40]
    called_kept_totals(counts, 12, table, need, call_limits(r), False, tot)
    assert tot.tolist() == [150, 170, 170, 120, 170]
    assert (counts == before).all()  # the kernel puts every tried call back
    # Calling only for a meld (meld_only) finds the same here: every best call completes a meld.
    again = np.array([40, 20, 20, 20, 40], np.int64)
    called_kept_totals(counts, 12, table, need, call_limits(r), True, again)
    assert again.tolist() == [150, 170, 170, 120, 170]


def _reference_calls(pool, ok, dsize, table, weights, mode, per):
    """The call stage written plainly: every callable card, every way of laying dsize + 1 cards of pool +
    call away (the cheapest laid card but the call goes back), the per best per trump, first found first."""
    from itertools import combinations

    from binokel_sim.cards import CARD_POINTS
    from binokel_sim.exchange.candidates import candidate_value

    best = [[] for _ in range(4)]
    for call in np.flatnonzero(ok):
        work = pool.copy()
        work[call] += 1
        cards = [c for c in range(24) for _ in range(work[c])]
        seen = set()
        for laid in combinations(cards, dsize + 1):
            key = tuple(np.bincount(laid, minlength=24))
            if key in seen:
                continue
            seen.add(key)
            disc = np.array(key, dtype=np.uint8)
            give = min((c for c in range(24) if disc[c] and c != call), key=lambda c: (CARD_POINTS[c], -c))
            kept = (work - disc).astype(np.uint8)
            dp = int((CARD_POINTS * disc).sum()) - int(CARD_POINTS[give])
            for t in range(4):
                best[t].append((candidate_value(kept, dp, t, table, weights, mode), call, give))
    out = []
    for t in range(4):
        # A stable sort keeps the first found of equal values first, as the kernel does.
        out.append(sorted(best[t], key=lambda x: -x[0])[:per])
    return out


@pytest.mark.parametrize("tapp", [TAPP, "SA SK SO HU"])
def test_the_call_stage_keeps_what_a_plain_enumeration_keeps(tapp):
    # The kernel skips a call whose bound cannot reach the values kept; the plain enumeration scores
    # everything. Four callable cards (to keep the reference fast), the heuristic's play term on.
    from binokel_sim.exchange.calling import call_batch
    from binokel_sim.exchange.candidates import PLAY_WEIGHTS

    r = load_rules("calling")
    pool = (Hand.parse(HAND).counts + Hand.parse(tapp).counts).astype(np.uint8)
    ok = np.zeros(24, bool)
    ok[[_type("HK"), _type("EU"), _type("GO"), _type("SU")]] = True
    per = 2
    disc = np.zeros((1, 4, per, 24), np.uint8)
    val = np.zeros((1, 4, per))
    call = np.zeros((1, 4, per), np.int64)
    give = np.zeros((1, 4, per), np.int64)
    call_batch(pool[None], ok[None], 4, r.meld_array(), PLAY_WEIGHTS, 1, np.full(1, -np.inf), disc, val, call, give)
    ref = _reference_calls(pool, ok, 4, r.meld_array(), PLAY_WEIGHTS, 1, per)
    for t in range(4):
        assert [round(v, 9) for v in val[0, t]] == [round(x[0], 9) for x in ref[t]]
        assert [(int(c), int(g)) for c, g in zip(call[0, t], give[0, t])] == [(x[1], x[2]) for x in ref[t]]


def test_call_bound_is_never_below_a_candidate():
    from binokel_sim.cards import CARD_POINTS
    from binokel_sim.exchange.calling import call_bound
    from binokel_sim.exchange.candidates import PLAY_WEIGHTS, candidate_value

    r = load_rules("calling")
    table = r.meld_array()
    rng = np.random.default_rng(38)
    deck = np.repeat(np.arange(24), 2)
    deck = deck[deck % 6 != 5]  # 40 cards: no sevens
    for _ in range(200):
        work = np.bincount(rng.choice(deck, 17, replace=False), minlength=24).astype(np.uint8)
        laid = np.bincount(rng.choice(np.repeat(np.arange(24), work), 5, replace=False), minlength=24)
        kept = (work - laid).astype(np.uint8)
        give = min((c for c in range(24) if laid[c]), key=lambda c: CARD_POINTS[c])
        dp = int((CARD_POINTS * laid).sum() - CARD_POINTS[give])
        for t in range(4):
            for mode in (0, 1):
                assert call_bound(work, 5, t, table, PLAY_WEIGHTS, mode) >= candidate_value(
                    kept, dp, t, table, PLAY_WEIGHTS, mode)


@pytest.mark.parametrize("policy", ["heuristic", "melds"])
@pytest.mark.slow
def test_best_only_chooses_what_the_full_candidate_set_chooses(policy):
    # best_only prunes calls that cannot beat the best candidate of any trump; the cheap policies'
    # choice (and so its estimate) must be the very same exchange, ties included.
    from binokel_sim.exchange.policy import build_candidates, choose

    r = load_rules("calling")
    rng = np.random.default_rng(381)
    deck = np.repeat(np.arange(24), 2)
    deck = deck[deck % 6 != 5]
    hands, tapps = [], []
    for _ in range(150):
        cards = rng.permutation(deck)
        hands.append(np.bincount(cards[:12], minlength=24))
        tapps.append(np.bincount(cards[12:16], minlength=24))
    h, t = np.array(hands, np.uint8), np.array(tapps, np.uint8)
    full = build_candidates(r, h, t, policy, per_trump=2)
    fast = build_candidates(r, h, t, policy, per_trump=1, best_only=True)
    a, b = choose(r, 0, full, policy), choose(r, 0, fast, policy)
    rows = np.arange(h.shape[0])
    for name in ("code", "kept", "disc_points", "call", "give", "cheap"):
        x, y = getattr(full, name)[rows, a.index], getattr(fast, name)[rows, b.index]
        assert (x == y).all(), name
    assert (a.subjective == b.subjective).all()
    assert (full.call[rows, a.index] >= 0).sum() > 10  # calls are chosen often enough to test the pruning
