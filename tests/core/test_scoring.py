"""Scoring arithmetic (docs/rules.md §4, §7, §8): hand-checked values for every contract and table."""

import numpy as np
import pytest

from binokel_sim.errors import InputError
from binokel_sim.evaluation.ladder import bid_table
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.rules import load_rules
from binokel_sim.scoring import (PlayedDeal, bid_ladder, bid_outcomes, contract_score, round_points, score_deal,
                                 special_score, surrender_choice, surrender_credit, surrender_score)

STD = load_rules("standard")


def custom(tmp_path, body):
    p = tmp_path / "r.toml"
    p.write_text('inherits = "standard"\nname = "custom"\n' + body)
    return load_rules(str(p))


def test_contract_made_failed_and_no_trick():
    assert contract_score(STD, 200, True, 200) == 200
    assert contract_score(STD, 199, True, 200) == -400
    assert contract_score(STD, 300, False, 200) == -400  # no trick: never made


def test_surrender_penalty_and_credit(tmp_path):
    assert surrender_score(STD, 250) == -250 and surrender_credit(STD, 250) == 50
    r = custom(tmp_path, "[surrender]\npenalty_factor = 2\ncredit_half_bid = true\n")
    assert surrender_score(r, 250) == -500 and surrender_credit(r, 250) == 125
    assert surrender_credit(load_rules("grupp"), 250) == 30


def test_specials_values():
    assert special_score(STD, "durch", True) == 1000 and special_score(STD, "durch", False) == -1000
    assert special_score(STD, "durch", True, open_hand=True) == 1500
    assert special_score(STD, "durch", True, from_hand=True) == 2000
    grupp = load_rules("grupp")
    assert special_score(grupp, "durch", False) == -2000  # Grupp: failure -2x the win
    assert special_score(grupp, "bettel", True) == 1000 and special_score(grupp, "bettel", False) == -1000
    with pytest.raises(InputError):
        special_score(STD, "ramsch", True)


def test_round_to_10():
    g = load_rules("grupp")
    assert [round_points(x, g) for x in (124, 125, 126, 0)] == [120, 130, 130, 0]
    assert round_points(np.array([14, 15]), g).tolist() == [10, 20]
    assert round_points(124, STD) == 124


def test_score_deal_three_players():
    # Soloist: 150 in tricks + 14 discarded + 60 melds = 224 >= 200. Seat 1: 60 + 20. Seat 2: 40 + 40.
    d = PlayedDeal(soloist=0, bid=200, contract="trump", trick_points=[150, 60, 40], tricks=[8, 2, 2],
                   melds=[60, 20, 40], discard_points=14)
    assert score_deal(STD, d).tolist() == [224, 80, 80]
    # Seat 2 took no trick: its melds do not count; the soloist fails a 230 bid.
    d = PlayedDeal(soloist=0, bid=230, contract="trump", trick_points=[190, 60, 0], tricks=[10, 2, 0],
                   melds=[20, 20, 40], discard_points=10)
    assert score_deal(STD, d).tolist() == [-460, 80, 0]


def test_score_deal_soloist_without_trick_loses_melds():
    d = PlayedDeal(soloist=1, bid=150, contract="trump", trick_points=[150, 0, 100], tricks=[7, 0, 5],
                   melds=[0, 300, 0], discard_points=20)
    assert score_deal(STD, d).tolist() == [150, -300, 100]


def test_score_deal_round_to_10_grupp():
    g = load_rules("grupp")
    d = PlayedDeal(soloist=2, bid=200, contract="trump", trick_points=[47, 64, 143], tricks=[3, 4, 8],
                   melds=[0, 20, 60], discard_points=12)
    # Soloist card points 155 -> 160, + 60 melds = 220; seat 0: 47 -> 50; seat 1: 64 -> 60 + 20.
    assert score_deal(g, d).tolist() == [50, 80, 220]


def test_score_deal_kreuz_team_totals():
    k = load_rules("kreuz")
    # Team 0+2: 140 + 10 discards = 150, melds 40 (seat 0) + 20 (seat 2 took no trick: lost) -> 190.
    # Team 1+3: 60 + 50 + 60 melds (seat 3 took a trick) = 170.
    d = PlayedDeal(soloist=0, bid=190, contract="trump", trick_points=[140, 60, 0, 50], tricks=[6, 2, 0, 3],
                   melds=[40, 0, 20, 60], discard_points=10)
    assert score_deal(k, d).tolist() == [190, 170, 190, 170]
    d2 = PlayedDeal(soloist=0, bid=200, contract="trump", trick_points=[140, 60, 0, 50], tricks=[6, 2, 0, 3],
                    melds=[40, 0, 20, 60], discard_points=10)
    assert score_deal(k, d2).tolist() == [-400, 170, -400, 170]
    assert k.layout.side_masks[1] == 0b1010 and STD.layout.side_masks[2] == 0b100


def test_score_deal_surrender_and_specials():
    d = PlayedDeal(soloist=1, bid=220, contract="surrender", trick_points=[0, 0, 0], tricks=[0, 0, 0],
                   melds=[40, 500, 0])
    assert score_deal(STD, d).tolist() == [90, -220, 50]
    d = PlayedDeal(soloist=0, bid=300, contract="durch", trick_points=[0, 0, 0], tricks=[0, 0, 0],
                   melds=[0, 0, 0], special_made=False)
    assert score_deal(STD, d).tolist() == [-1000, 0, 0]
    with pytest.raises(InputError, match="trick_points"):
        score_deal(STD, PlayedDeal(0, 150, "trump", [1, 2], [1, 1, 1], [0, 0, 0]))


KREUZ = load_rules("kreuz")


def kreuz_custom(tmp_path, body):
    p = tmp_path / "k.toml"
    p.write_text('inherits = "kreuz"\nname = "kreuz-custom"\n' + body)
    return load_rules(str(p))


def _deal(soloist, bid, contract, melds=(0, 0, 0, 0), **kw):
    return PlayedDeal(soloist=soloist, bid=bid, contract=contract, trick_points=[0] * 4, tricks=[0] * 4,
                      melds=list(melds), **kw)


def test_score_deal_kreuz_surrender(tmp_path):
    # Seat 2 goes out at 230 (kreuz: penalty 1x, credit 50). Team 0+2 scores -1 x 230 = -230,
    # the soloist's 100 and the partner's 60 in melds do not count. Team 1+3: each defender
    # credit + the melds it holds, added: (50 + 40) + (50 + 0) = 140. Partners carry their team's.
    d = _deal(2, 230, "surrender", melds=[60, 40, 100, 0])
    assert score_deal(KREUZ, d).tolist() == [-230, 140, -230, 140]
    # Defenders without melds: (50 + 0) + (50 + 0) = 100 (not 50: each defender's credit counts).
    assert score_deal(KREUZ, _deal(0, 150, "surrender")).tolist() == [-150, 100, -150, 100]
    # Penalty 2x, credit half the bid: team 1+3 (soloist 3) -2 x 250 = -500;
    # team 0+2: (125 + 20) + (125 + 0) = 270.
    r = kreuz_custom(tmp_path, "[surrender]\npenalty_factor = 2\ncredit_half_bid = true\n")
    assert score_deal(r, _deal(3, 250, "surrender", melds=[20, 300, 0, 80])).tolist() == [270, -500, 270, -500]


def test_score_deal_kreuz_durch_made_and_failed(tmp_path):
    # kreuz: Durch 1000, open 1500, from the hand 2000, failure factor 1, no opponent credit.
    # Made by seat 1: team 1+3 +1000, team 0+2 scores 0 + 0 = 0.
    assert score_deal(KREUZ, _deal(1, 300, "durch", special_made=True)).tolist() == [0, 1000, 0, 1000]
    # Failed: team 1+3 -1 x 1000 = -1000; team 0+2 0.
    assert score_deal(KREUZ, _deal(1, 300, "durch", special_made=False)).tolist() == [0, -1000, 0, -1000]
    # Open Durch after the exchange by seat 0, made: team 0+2 +1500.
    assert score_deal(KREUZ, _deal(0, 200, "durch", open_hand=True, special_made=True)).tolist() == [
        1500, 0, 1500, 0]
    # Each opponent 300 on a failed Durch, failure -2x: soloist 2 -> team 0+2 -2 x 1000 = -2000;
    # team 1+3 300 + 300 = 600. Made: +1000 and the opponents get nothing.
    r = kreuz_custom(tmp_path, "[durch]\nopponent_credit = 300\nfailure_factor = 2\n")
    assert score_deal(r, _deal(2, 300, "durch", special_made=False)).tolist() == [-2000, 600, -2000, 600]
    assert score_deal(r, _deal(2, 300, "durch", special_made=True)).tolist() == [1000, 0, 1000, 0]


def test_score_deal_kreuz_bettel(tmp_path):
    # kreuz does not allow Bettel: scoring one is an input error naming the contract and preset.
    with pytest.raises(InputError, match="'bettel' is not allowed by the rules 'kreuz'"):
        score_deal(KREUZ, _deal(3, 150, "bettel", special_made=True))
    r = kreuz_custom(tmp_path, "[bettel]\nallowed = true\nvalue = 500\nfailure_factor = 2\n"
                               "[durch]\nopponent_credit = 400\n")
    # Bettel worth 500, failure 2x: seat 0 fails -> team 0+2 -2 x 500 = -1000, team 1+3 0.
    assert score_deal(r, _deal(0, 150, "bettel", special_made=False)).tolist() == [-1000, 0, -1000, 0]
    assert score_deal(r, _deal(0, 150, "bettel", special_made=True)).tolist() == [500, 0, 500, 0]


def test_score_deal_solo_layouts_score_seat_by_seat():
    four = load_rules("four-solo")
    # Four-player solo, seat 2 goes out at 200: -200; each opponent 50 + own melds: 90, 50, 70.
    assert score_deal(four, _deal(2, 200, "surrender", melds=[40, 0, 80, 20])).tolist() == [90, 50, -200, 70]
    # Grupp (three): Bettel made +1000, failed -1000; opponents 0.
    g = load_rules("grupp")
    d = PlayedDeal(2, 150, "bettel", [0] * 3, [0] * 3, [0] * 3, special_made=False)
    assert score_deal(g, d).tolist() == [0, 0, -1000]


@pytest.mark.parametrize("preset", ["kreuz", "kreuz-48", "credits"])
def test_kreuz_partners_always_score_alike(preset, tmp_path):
    # Bettel allowed everywhere here, so that every contract kind is scored.
    body = "[bettel]\nallowed = true\n"
    if preset == "credits":
        body += "[durch]\nopponent_credit = 300\n[surrender]\ncredit_half_bid = true\n"
    p = tmp_path / "k.toml"
    p.write_text(f'inherits = "{"kreuz" if preset == "credits" else preset}"\nname = "k"\n' + body)
    r = load_rules(str(p))
    rng = np.random.default_rng(7)
    for contract in ("trump", "surrender", "durch", "bettel"):
        for soloist in range(4):
            for _ in range(25):
                tricks = rng.integers(0, 4, size=4)
                points = np.where(tricks > 0, rng.integers(0, 120, size=4), 0)
                d = PlayedDeal(soloist=soloist, bid=int(rng.integers(15, 40)) * 10, contract=contract,
                               trick_points=points.tolist(), tricks=tricks.tolist(),
                               melds=(rng.integers(0, 30, size=4) * 10).tolist(),
                               discard_points=int(rng.integers(0, 40)), open_hand=bool(rng.integers(2)),
                               special_made=bool(rng.integers(2)))
                out = score_deal(r, d)
                assert out[0] == out[2] and out[1] == out[3], (contract, d, out)


def test_bid_outcomes_and_surrender_choice():
    bids = bid_ladder(STD, 180)
    assert bids.tolist() == [150, 160, 170, 180]
    made, score = bid_outcomes(np.array([175, 300]), np.array([True, False]), bids, STD)
    assert made.tolist() == [[True, True, True, False], [False] * 4]
    assert score.tolist() == [[175, 175, 175, -360], [-300, -320, -340, -360]]
    # Expected play -200 at bid 150 is worse than going out (-150); -100 is better.
    exp = np.array([[-200.0, -100.0, -400.0, 0.0]])
    assert surrender_choice(exp, bids, STD).tolist() == [[True, False, True, False]]


def test_bid_table_expected_score_hand_checked():
    # Three deals, totals 200 / 170 / 0 (no trick); the soloist's own estimate is exact (M = 1).
    value = np.array([200, 170, 0])
    took = np.array([True, True, False])
    parts = DealParts.of_totals(value, took)
    t = bid_table(STD, parts, bids=np.array([150, 180, 210]))
    assert t["p_make"].tolist() == pytest.approx([2 / 3, 1 / 3, 0.0])
    # bid 150: 200, 170 made; deal 3 goes out (-150 beats -300): (200 + 170 - 150) / 3.
    # bid 180: 200 made; deal 2 goes out (-180 > -360); deal 3 out: (200 - 180 - 180) / 3.
    # bid 210: all go out: -210.
    assert t["expected_score"].tolist() == pytest.approx([220 / 3, -160 / 3, -210])
    assert t["p_surrender"].tolist() == pytest.approx([1 / 3, 2 / 3, 1.0])
    sd = np.std([200, 170, -150], ddof=1) / np.sqrt(3)
    assert t["expected_score_se"].iloc[0] == pytest.approx(sd)
    assert (t["n"] == 3).all()
