"""Hand-checked solver positions, the Python API, the batch kernel and bad positions."""

from __future__ import annotations

import numpy as np
import pytest

from binokel_sim.cards import counts_of, parse_cards
from binokel_sim.errors import InputError
from binokel_sim.play.solver import Position, Solver, max_points_batch, solve

from solver_reference import minimax


def pos(hands, trump=None, leader=0, solo=0, teams=None, trick=(), **kw):
    return Position.parse(hands, trump, leader, solo, teams, trick.split() if isinstance(trick, str) else trick, **kw)


def test_must_beat_forces_the_ace_onto_the_ten():
    # Seat 0 led E10; seat 1 holds EA EU and must beat: only EA. It takes 10+11+4, then leads EU
    # against GU and GK and takes 2+2+4 + 10 for the last trick: 25 + 18 = 43.
    p = pos("GU / EA EU / EK GK", solo=1, trick="E10")
    s = Solver()
    assert s.card_values(p) == {parse_cards("EA")[0]: 43}
    assert s.max_points(p) == 43


def test_must_trump():
    # Seat 1 is void in G and must trump with HU (not discard EA): 11+2+10 (G10 forced), then EA wins
    # 11+2+4+10. Total 50 for the soloist in seat 1.
    p = pos("EK / HU EA / G10 EU", trump="H", solo=1, trick="GA")
    assert solve(p, cards=True)["card_values"] == {"HU": 50}
    assert solve(p)["solo_points"] == 50


def test_overtrump_and_no_overtrump():
    # 48 cards: GA led, HO trumped; seat 2 void in G must overtrump with HK, or, unable, play any trump.
    s = Solver()
    p = pos("EU / E7 / HK HU", trump="H", solo=2, trick="GA HO")
    assert list(s.card_values(p)) == parse_cards("HK")
    # HK wins 11+3+4, then seat 2 leads HU: 2+2+0 and the last trick 10: 18 + 14 = 32.
    assert s.max_points(p) == 32
    p = pos("EU / E7 / HU E10", trump="H", solo=2, trick="GA HO")
    assert list(s.card_values(p)) == parse_cards("HU")
    # HO holds the first trick; seat 1 leads E7, seat 2 must beat with E10 and takes 0+10+2 + 10 = 22.
    assert s.max_points(p) == 22


def test_identical_cards_first_played_wins():
    # EA led and EA followed: the first Ace holds. Seat 0 takes 11+11+4 and the last trick 4+3+2+10.
    p = pos("GK / GO / EK GU", trick="EA EA")
    assert Solver().max_points(p) == 45
    assert Solver().max_points(pos("GK / GO / EK GU", solo=1, trick="EA EA")) == 0


def test_last_trick_bonus():
    # EU led, EO must beat, EK must beat: seat 2 takes 2+3+4, plus 10 for the last trick.
    hands = "EU / EO / EK"
    assert Solver().max_points(pos(hands, solo=2)) == 19
    assert Solver().max_points(pos(hands, solo=2, last_trick=0)) == 9
    assert Solver().max_points(pos(hands, solo=0)) == 0


def test_durch_fails_only_by_wrong_lead_order():
    # EA first wins both tricks; EK first lets seat 1 beat it with E10.
    p = pos("EA EK / E10 GU / EU GO", solo=0)
    s = Solver()
    assert s.durch(p)
    assert s.durch(pos("EK / E10 GU / EU GO", solo=0, trick="EA"))
    assert not s.durch(pos("EA / E10 GU / EU GO", solo=0, trick="EK"))
    r = solve(p, durch=True)
    assert r["durch"] is True and r["solo_points"] == 11 + 10 + 2 + 4 + 3 + 2 + 10


def test_bettel():
    # The soloist holds only low cards under the opponents' cards: no trick can be forced on him.
    assert Solver().bettel(pos("EU GU / EA GA / E10 G10", solo=0))
    # The soloist leads and holds only S, which nobody else can follow: his lead wins.
    assert not Solver().bettel(pos("SA SU / EA GA / E10 G10", solo=0))
    # With GU to lead instead, GA takes it and the soloist discards SA on EA.
    assert Solver().bettel(pos("SA GU / EA GA / E10 G10", solo=0))


def test_kreuz_team_and_reuse_across_trumps():
    hands = "EA E10 / GA G10 / EK EU / GK GU"
    s = Solver()
    # Partners 0 and 2 (kreuz) hold all E; 1 and 3 all G.
    with_team = s.max_points(pos(hands, solo=0, teams=[0, 2]))
    alone = s.max_points(pos(hands, solo=0))
    cards = tuple(tuple(parse_cards(h)) for h in hands.split("/"))
    assert with_team == minimax(cards, (), 0, None, {0, 2}) and alone == minimax(cards, (), 0, None, {0})
    # Same Solver, other trumps: the table is shared, results equal a fresh solver's.
    for t in "EGHS":
        assert s.max_points(pos(hands, trump=t, solo=0, teams=[[0, 2], [1, 3]])) == \
            Solver().max_points(pos(hands, trump=t, solo=0, teams=[0, 2]))


def test_threshold_need_trick():
    p = pos("EU GU / EA GA / E10 G10", solo=0)
    s = Solver()
    assert s.max_points(p) == 0
    assert s.reaches(p, 0) and not s.reaches(p, 0, need_trick=True) and not s.reaches(p, 1)


def test_solve_result_keys():
    p = pos("EA EK / E10 EU / EO GA")
    r = solve(p, target=34, cards=True)
    assert r["solo_points"] == 34 and r["reaches_target"] is True
    assert r["card_values"] == {"EA": 16, "EK": 34}
    assert isinstance(r["nodes"], int) and r["nodes"] > 0 and r["seconds"] >= 0
    assert (r["lo"], r["hi"], r["exact"]) == (34, 34, True)
    assert list(r) == ["solo_points", "lo", "hi", "exact", "nodes", "seconds", "reaches_target", "card_values"]


def test_batch_meld_bonus_needs_own_trick():
    # Seat 0 (solo) cannot win a trick here, so its 100 meld bonus never counts; seat 1's would.
    hands = ["EU GU", "EA GA", "E10 G10"]
    counts = np.stack([counts_of(parse_cards(h)) for h in hands])[None]
    one = dict(trump=np.array([-1], np.int8), leader=np.array([0], np.int8))
    assert max_points_batch(counts, one["trump"], one["leader"], np.array([1], np.uint8),
                            np.array([[100, 0, 0]], np.int32), 10)[0] == 0
    # Seat 1 as the soloist wins both tricks: 2+11+10 + 2+11+10 + 10 + its 100.
    assert max_points_batch(counts, one["trump"], one["leader"], np.array([2], np.uint8),
                            np.array([[0, 100, 0]], np.int32), 10)[0] == 156


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hands="EA EK / E10 / EO GA"), "seat 1"),                                   # sizes
        (dict(hands="EA EK / E10 EU / EO GA", trick=["EA"]), "seat 0"),                  # trick vs sizes
        (dict(hands="EA EA / EA EU / EO GA"), "EA appears 3 times"),                     # copies
        (dict(hands="EA / E10 EU / EO EA", trick=["EA"], trump="H"), "EA appears 3 times"),  # via the trick
        (dict(hands="GK / EU / EO GA", trick=["EA", "G10"]), "may not play G10"),      # illegal trick card
        (dict(hands="EA EK / E10 EU / EO GA", solo=3), "solo: seat 3 out of range"),     # seats
        (dict(hands="EA EK / E10 EU / EO GA", leader=-1), "leader"),
        (dict(hands="EA EK", solo=0), "2, 3 or 4 hands"),
        (dict(hands="EA EK / E10 EU / EO GA", teams=[1, 2]), "must include the soloist"),
        (dict(hands="EA EK / E10 EU / EO XX"), "unknown card"),
        (dict(hands="EA EK / E10 EU / EO GA", trump="Q"), "unknown trump"),
    ],
)
def test_bad_positions(kwargs, message):
    kw = dict(trump=None, leader=0, solo=0) | kwargs
    with pytest.raises(InputError, match=message):
        Position.parse(kw.pop("hands"), **kw)


def test_accepted_positions():
    p = Position.parse("EK / EU GA / EO GA", None, 0, 0, trick=["EA"])
    assert (p.to_move, p.tricks_left, p.trick_state()) == (1, 2, (0, 0, 0, 11))
    p = Position.parse("EA EK / EU GK / EO", "G", 2, 1, teams=[[0, 2], [1]], trick=["S10"])
    assert p.side == (1,) and p.to_move == 0


def test_table_is_sized_by_the_deal_length():
    p = pos("EA EK / E10 EU / EO GA")
    auto = Solver()
    assert auto.max_points(p) == 34
    assert auto.tt.shape == (1 << 22, 2)  # up to 12 tricks: 2**22 rows of 16 bytes
    assert auto.tt.ctypes.data % 64 == 0 and auto.qt.ctypes.data % 64 == 0  # buckets on cache lines
    assert auto.qt.shape[0] == 1 << 20
    fixed = Solver(table_bits=12)
    assert fixed.max_points(p) == 34
    assert fixed.tt.shape[0] == 1 << 12
