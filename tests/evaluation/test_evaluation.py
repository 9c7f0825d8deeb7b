"""Hand evaluation: a known deal equals the direct computation, P(make) never rises with the bid,
seeds reproduce whatever the chunking, the sampled policy follows its double-dummy estimates.

The double-dummy back end is injected: ``toy_points`` is a simple, fully specified
stand-in (the side's card points in hand + 5 per trump held + earned melds), so the
plumbing is checked exactly and fast; ``test_real_solver_*`` runs the real solver.
"""

from dataclasses import fields

import numpy as np
import pytest
import pandas as pd

from binokel_sim.runner import Scale
from binokel_sim.contracts import Contract
from binokel_sim.cards import CARD_POINTS, Hand, counts_of, parse_cards
from binokel_sim.errors import InputError
from binokel_sim.evaluation.hand import EvalSettings, evaluate_hand
from binokel_sim.play.dd import DD, solve_rows
from binokel_sim.exchange.candidates import PLAY_WEIGHTS, durch_losers, play_estimate
from binokel_sim.exchange.policy import cheap_candidates, inner_hands
from binokel_sim.melds.scorer import meld_total
from binokel_sim.rules import load_rules

STD = load_rules("standard")
HAND = "EA EA E10 EK EO EU GA G10 HA H10 SA S10"


def toy_points(counts, trump, leader, side, bonus, last):
    out = np.zeros(counts.shape[0], dtype=np.int32)
    for i in range(counts.shape[0]):
        for s in range(counts.shape[1]):
            if side[i] >> s & 1:
                v = int(counts[i, s].astype(np.int64) @ CARD_POINTS)
                if trump[i] >= 0:
                    v += 5 * int(counts[i, s, trump[i] * 6: trump[i] * 6 + 6].sum())
                out[i] += v + (bonus[i, s] if v > 0 else 0)
    return out


def toy_specials():
    # A Durch is "made" when no other hand holds a card beating one of the soloist's.
    def made(code, counts, soloist, side, leader, last):
        others = sum(counts[s].astype(np.int64) for s in range(counts.shape[0]) if s != soloist)
        return code == Contract.DURCH and durch_losers(counts[soloist], (2 - others).astype(np.uint8)) == 0
    return made


TOY = DD(points=toy_points, specials=toy_specials)


def test_known_deal_equals_direct_computation():
    opp1, opp2, tapp = "EU GK GK GO GO GU GU HK HK HO HO HU", "EK EO GA G10 HA H10 HU SA SK SK SO SU", "S10 SO SU E10"
    ev = evaluate_hand(HAND, STD, samples=3, seed=5, settings=EvalSettings(policy="heuristic", exact_every=1),
                       dd=TOY, predealt={"tapp": tapp, 1: opp1, 2: opp2})
    best = cheap_candidates(HAND, tapp, STD, "heuristic")[0]
    kept = counts_of(best.kept)
    melds = int(meld_total(kept, best.trump, STD.meld_array()))
    toy = int(kept.astype(np.int64) @ CARD_POINTS) + 5 * int(kept[best.trump * 6: best.trump * 6 + 6].sum()) + melds
    total = best.discard_points + toy
    assert ev.parts.value.tolist() == [total] * 3
    assert ev.parts.code.tolist() == [best.trump] * 3
    row = ev.bids.set_index("bid")
    for bid, p in row["p_make"].items():
        assert p == (1.0 if total >= bid else 0.0)
        if total >= bid:
            assert row.loc[bid, "expected_score"] == total
    # Tapp value: the same deal with the Tapp laid away and the hand's own best trump.
    h = Hand.parse(HAND).counts
    t = max(range(4), key=lambda t: meld_total(h, t, STD.meld_array()) + play_estimate(h, t, PLAY_WEIGHTS))
    assert ev.baseline_contract == "EGHS"[t]
    base = (Hand.parse(tapp).points + h.astype(np.int64) @ CARD_POINTS + 5 * int(h[t * 6: t * 6 + 6].sum())
            + int(meld_total(h, t, STD.meld_array())))
    assert ev.tapp_value == (float(total - base), 0.0)


@pytest.mark.parametrize("policy", ["melds", "heuristic", "sampled"])
def test_p_make_never_rises_with_the_bid(policy):
    ev = evaluate_hand(HAND, STD, samples=40, seed=2, policy=policy, dd=TOY,
                       settings=EvalSettings(policy=policy, inner=2, top_k=2))
    p = ev.bids["p_make"].to_numpy()
    assert (np.diff(p) <= 0).all() and p[0] > p[-1]
    assert ev.n == 40 and (ev.bids["n"] == 40).all()
    assert ev.contracts["share"].sum() == pytest.approx(1.0)


def test_same_seed_same_numbers_any_chunking_and_workers():
    a = evaluate_hand(HAND, STD, samples=30, seed=9, policy="sampled", dd=TOY, scale=Scale(workers=1),
                      settings=EvalSettings(inner=2, top_k=2, chunk_size=30))
    b = evaluate_hand(HAND, STD, samples=30, seed=9, policy="sampled", dd=TOY, scale=Scale(workers=2),
                      settings=EvalSettings(inner=2, top_k=2, chunk_size=7))
    c = evaluate_hand(HAND, STD, samples=30, seed=10, policy="sampled", dd=TOY, scale=Scale(workers=2),
                      settings=EvalSettings(inner=2, top_k=2, chunk_size=7))
    for f in fields(a.parts):
        assert np.array_equal(getattr(a.parts, f.name), getattr(b.parts, f.name)), f.name
    assert a.bids.equals(b.bids)
    assert not np.array_equal(a.parts.value, c.parts.value)


def test_sampled_policy_follows_double_dummy_estimate():
    # A back end that pays 400 for hearts trump, 0 otherwise, and never makes a Durch: the sampled
    # policy must name hearts on every deal, whatever the meld values say.
    def hearts(counts, trump, leader, side, bonus, last):
        return np.where(trump == 2, 400, 0).astype(np.int32)

    dd = DD(points=hearts, specials=lambda: lambda *a: False)
    ev = evaluate_hand(HAND, STD, samples=12, seed=4, policy="sampled", dd=dd,
                       settings=EvalSettings(inner=2, top_k=4))
    assert ev.contracts.set_index("contract").loc["H", "share"] == 1.0
    assert ev.baseline_contract == "H"
    cheap = evaluate_hand(HAND, STD, samples=12, seed=4, policy="melds", dd=dd)
    assert cheap.contracts.set_index("contract").loc["H", "share"] < 1.0


def test_inner_deals_are_the_unseen_cards():
    pool = (Hand.parse(HAND).counts + Hand.parse("S10 SO SU E10").counts)[None]
    deck = np.full(24, 2, dtype=np.int64)
    deck[5::6] = 0
    out = np.zeros((1, 5, 3, 24), dtype=np.uint8)
    inner_hands(np.uint64(1), np.uint64(2), np.zeros(1, np.int64), pool, deck, np.int64(5), np.array([1, 2]),
                np.int64(12), out)
    assert (out[0, :, 0].sum(axis=1) == 0).all()
    assert (out[0, :, 1:].sum(axis=2) == 12).all()
    assert (out[0, :, 1] + out[0, :, 2] == deck - pool[0]).all()
    assert len({out[0, j].tobytes() for j in range(5)}) == 5  # five different draws


def test_kreuz_partner_melds_count_only_for_the_side():
    k = load_rules("kreuz")
    hands = np.stack([counts_of(parse_cards(h)) for h in (
        "EA EA E10 E10 EK EO EU GA HA", "GK GO HK HO SK SO EK EO SA",
        "GO SU HA H10 HK HO HU SU S10", "G10 G10 GK GU GU EU SA S10 SK")])[None]
    kept = hands[:, 0]
    v, took = solve_rows(k, 0, kept, np.array([0]), np.array([7]), hands, TOY)
    # Side = seats 0 and 2; the toy credits each side seat's card points, trumps and melds.
    exp = 7
    for s in (0, 2):
        h = hands[0, s]
        exp += int(h.astype(np.int64) @ CARD_POINTS) + 5 * int(h[0:6].sum()) + int(meld_total(h, 0, k.meld_array()))
    assert v.tolist() == [exp] and took.tolist() == [True]


def test_bad_arguments_are_input_errors():
    with pytest.raises(InputError, match="seat"):
        evaluate_hand(HAND, STD, seat=3, samples=1, dd=TOY)
    with pytest.raises(InputError, match="confidence"):
        evaluate_hand(HAND, STD, confidence=1.0, samples=1, dd=TOY)
    with pytest.raises(InputError, match="policy"):
        evaluate_hand(HAND, STD, policy="psychic", samples=1, dd=TOY)
    with pytest.raises(InputError, match="hand: expected 12"):
        evaluate_hand("EA EA", STD, samples=1, dd=TOY)


@pytest.mark.slow
def test_real_solver_known_deal_equals_direct_computation():
    # The real solver (four-solo: 9-card hands keep it quick): the evaluation of one fully dealt
    # deal is the chosen exchange solved by hand, plus the discards.
    from binokel_sim.dealing.dealer import Dealer, seat_slices
    from binokel_sim.play.solver import max_points_batch

    rules = load_rules("four-solo")
    row = Dealer(rules, 7).deal(1)[0]
    sl = seat_slices(rules)
    cards = [[int(c) for c in row[s]] for s in sl]
    ev = evaluate_hand(cards[0], rules, samples=1, seed=1, policy="melds",
                       predealt={"tapp": cards[4], 1: cards[1], 2: cards[2], 3: cards[3]})
    best = cheap_candidates(cards[0], cards[4], rules, "melds")[0]
    assert best.contract == "trump" and ev.parts.code.tolist() == [best.trump]
    counts = np.stack([counts_of(best.kept)] + [counts_of(cards[s]) for s in (1, 2, 3)])[None]
    dd = max_points_batch(counts, np.array([best.trump], np.int8), np.array([0], np.int8), np.array([1], np.uint8),
                          np.array([[best.melds, 0, 0, 0]], np.int32), 10)
    assert ev.parts.value.tolist() == [best.discard_points + int(dd[0])]
    assert 0 <= dd[0] <= 240 + 10 + best.melds


def test_choose_exchange_single_hand():
    from binokel_sim.evaluation.exchange_choice import choose_exchange

    ch = choose_exchange(HAND, "S10 SO SU E10", STD, policy="sampled", dd=TOY,
                         settings=EvalSettings(inner=3, top_k=8))
    c = ch.candidate
    assert len(c.discard) == 4 and len(c.kept) == 12 and ch.n == 3 and c.contract == "trump"
    assert sorted(c.discard + c.kept) == sorted(parse_cards(HAND + " S10 SO SU E10"))
    # The toy back end pays the kept cards' points + 5 per trump + melds: a deterministic value per choice.
    kept = counts_of(list(c.kept))
    t = c.trump
    toy = int(kept.astype(np.int64) @ CARD_POINTS) + 5 * int(kept[t * 6: t * 6 + 6].sum()) + int(
        meld_total(kept, t, STD.meld_array()))
    disc = int(counts_of(list(c.discard)).astype(np.int64) @ CARD_POINTS)
    assert ch.estimate == disc + toy and ch.estimate_se == 0.0


def _parts(value, took, subj):
    from binokel_sim.evaluation.parts import DealParts

    return DealParts.of_totals(np.array(value), np.array(took), estimate=np.array(subj))


def test_ladder_counts_a_surrender_as_not_made_hand_checked():
    from binokel_sim.evaluation.ladder import bid_table, order_note

    # Four deals, all made double-dummy at 150; deals 2 and 3 underestimate themselves (100) and go out.
    t = bid_table(STD, _parts([200, 200, 200, 170], [True] * 4, [200, 100, 100, 170]), bids=np.array([150, 180, 210]))
    assert t["p_made_dd"].tolist() == pytest.approx([1.0, 0.75, 0.0])
    assert t["p_make"].tolist() == pytest.approx([0.5, 0.25, 0.0])  # going out is not making it
    # bid 150: 200, -150, -150, 170; bid 180: 200, -180 x 3 (deal 4: 170 < 180, goes out); 210: all out.
    assert t["expected_score"].tolist() == pytest.approx([70 / 4, -340 / 4, -210])
    ceiling = int(t[t["expected_score"] > 0]["bid"].max())
    safe = int(t[t["p_make"] >= 0.5]["bid"].max())
    assert (ceiling, safe) == (150, 150)
    # Counting P(make) double-dummy (the old way) put the "safe" bid above the ceiling.
    assert int(t[t["p_made_dd"] >= 0.5]["bid"].max()) == 180
    assert order_note(STD, 0.5, safe, ceiling) is None


def test_safe_above_ceiling_only_below_the_loss_bound_and_explained():
    from binokel_sim.evaluation.ladder import bid_table, loss_factor, order_note

    # Deal 3 overestimates (250), plays bid 200 and fails: 200 + 200 - 400 = 0, not > 0.
    t = bid_table(STD, _parts([200, 200, 190], [True] * 3, [200, 200, 250]), bids=np.array([150, 200]))
    assert t["expected_score"].tolist() == pytest.approx([590 / 3, 0.0])
    assert t["p_make"].tolist() == pytest.approx([1.0, 2 / 3])
    assert loss_factor(STD) == 2  # failure factor 2, penalty 1: the bound is 2/3
    note = order_note(STD, 0.6, safe=200, ceiling=150)
    assert note.startswith("safe bid 200 above the ceiling 150: confidence 0.6 <= L/(1+L) = 0.667")
    # Above the bound only a Durch/Bettel can break the order.
    assert "Durch/Bettel" in order_note(STD, 0.7, safe=200, ceiling=150)


def test_settings_decide_the_policy_and_a_conflict_is_an_error():
    a = evaluate_hand(HAND, STD, samples=6, seed=2, settings=EvalSettings(policy="melds"), dd=TOY)
    b = evaluate_hand(HAND, STD, samples=6, seed=2, policy="melds", dd=TOY)
    assert a.settings.policy == "melds" and a.parts.value.tolist() == b.parts.value.tolist()
    with pytest.raises(InputError, match="contradicts settings.policy 'melds'"):
        evaluate_hand(HAND, STD, samples=6, policy="sampled", settings=EvalSettings(policy="melds"), dd=TOY)
    with pytest.raises(InputError, match="checkpoint"):
        evaluate_hand(HAND, STD, samples=6, policy="melds", dd=TOY, scale=Scale(checkpoint="ck"))
    with pytest.raises(InputError, match="se: must be positive"):
        evaluate_hand(HAND, STD, samples=6, policy="melds", dd=TOY, se=0.0)


@pytest.mark.parametrize("every", [1, 20], ids=["exact", "thresholds"])
@pytest.mark.slow
def test_early_stopping_is_a_seeded_prefix_whatever_the_workers(every):
    st = EvalSettings(policy="heuristic", exact_every=every)
    kw = dict(samples=1000, seed=6, settings=st, dd=TOY, se=0.02)
    a = evaluate_hand(HAND, STD, scale=Scale(workers=1), **kw)
    b = evaluate_hand(HAND, STD, scale=Scale(workers=2), **kw)
    assert a.n == b.n == 300  # checks every 100 samples
    full = evaluate_hand(HAND, STD, samples=a.n, seed=6, settings=st, dd=TOY)
    pd.testing.assert_frame_equal(a.bids, full.bids)
    pd.testing.assert_frame_equal(a.bids, b.bids)
    # Stopped at the first check where the safe bid's P(make) was known to +-0.02, not before.
    from binokel_sim.evaluation.ladder import safe_bid_se

    assert safe_bid_se(a.bids, a.safe_bid) <= 0.02
    early = evaluate_hand(HAND, STD, samples=a.n - 100, seed=6, settings=st, dd=TOY)
    safe = early.bids[early.bids["bid"] == early.safe_bid]
    assert max(safe_bid_se(early.bids, early.safe_bid), float(safe["p_make_se"].iloc[0])) > 0.02
