"""``binokel deal`` and ``binokel solve`` with --rules two-hand (docs/rules.md §10)."""

from __future__ import annotations

import pytest

from binokel_sim.dealing.dealer import Dealer
from binokel_sim.rules import load_rules
from binokel_sim.twohand.play import play_deal
from binokel_sim.twohand.search import TwoSeatSearch

from clitools import assert_one_line_error, run_json


def test_deal_shows_both_hands_the_turned_card_and_the_talon(capsys):
    out = run_json(capsys, "deal", "--rules", "two-hand", "--seed", "3", "--index", "2")
    row = Dealer(load_rules("two-hand"), seed=3).deal(1, start=2)[0]
    from binokel_sim.cards import CARD_TEXT

    assert [sorted(s["cards"]) for s in out["seats"]] == [sorted(CARD_TEXT[int(c)] for c in row[:12]),
                                                          sorted(CARD_TEXT[int(c)] for c in row[12:24])]
    assert out["turned"] == CARD_TEXT[int(row[24])] and out["trump"] == out["turned"][0]
    assert out["talon"] == [CARD_TEXT[int(c)] for c in row[25:]] and len(out["talon"]) == 23
    assert all(s["trump"] == out["trump"] for s in out["seats"])


@pytest.mark.slow
def test_solve_two_hand_endgame_hand_checked(capsys):
    # EA takes EK (15); GA trumps E10 in the last trick (21 + 10): 15 / 31.
    out = run_json(capsys, "solve", "--rules", "two-hand", "--hands", "EA E10 / EK GA", "--trump", "G",
                   "--cards")
    assert (out["points"], out["solo_points"], out["card_values"]) == ([15, 31], 15, {"EA": 15, "E10": 14})
    out = run_json(capsys, "solve", "--rules", "two-hand", "--hands", "EA E10 / EK GA", "--trump", "G",
                   "--solo", "1", "--target", "31")
    assert (out["solo_points"], out["reaches_target"]) == (31, True)
    out = run_json(capsys, "solve", "--rules", "two-hand", "--hands", "E10 / EK GA", "--trump", "G",
                   "--trick", "EA", "--cards")
    assert out["points"] == [15, 31] and out["card_values"] == {"EK": 15}  # must follow: EK only


def test_solve_two_hand_matches_the_deal_endgame(capsys):
    from binokel_sim.cards import CARD_TEXT

    rules = load_rules("two-hand")
    pos = play_deal(rules, Dealer(rules, seed=4).deal(1)[0], endgame="none").endgame
    text = " / ".join(" ".join(CARD_TEXT[c] for c in range(24) for _ in range(int(h[c]))) for h in pos.hands)
    out = run_json(capsys, "solve", "--rules", "two-hand", "--hands", text, "--trump", "EGHS"[pos.trump_index],
                   "--leader", str(pos.leader))
    assert out["points"][0] == TwoSeatSearch().value(pos.hands, pos.trump_index, pos.leader)
    assert sum(out["points"]) == sum(int(h[c]) * (11, 10, 4, 3, 2, 0)[c % 6] for h in pos.hands for c in range(24)) + 10


@pytest.mark.parametrize("args, contains", [
    (("--hands", "EA E10 / EK GA", "--trump", "G", "--grid", "10"), "--grid: not for two-hand"),
    (("--hands", "EA E10 / EK GA", "--trump", "G", "--durch"), "--durch: not for two-hand"),
    (("--hands", "EA E10 / EK GA / GO", "--trump", "G"), "3 hands given"),
    (("--hands", "EA E10 / EK GA", "--trump", "none"), "always played with a trump"),
    (("--hands", "EA E10 / EK GA"), "missing --trump"),
    (("--hands", "EA EA / EA GA", "--trump", "G"), "card EA given 3 times"),
    (("--hands", "EA E10 / EK GA", "--trump", "G", "--trick", "EK GA"), "at most the lead"),
    (("--hands", "EA E10 / EK GA", "--trump", "G", "--leader", "2"), "--leader: two-hand seats"),
])
def test_solve_two_hand_bad_input_one_line(capsys, args, contains):
    assert_one_line_error(capsys, "solve", "--rules", "two-hand", *args, contains=contains)
