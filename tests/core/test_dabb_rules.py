"""The dabb app's house rules as rules options (docs/rules.md §3, §4.3, §6, §7, §9): every key hand-checked,
with and without it, and the presets ``dabb``, ``dabb-four`` and ``dabb-two``."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from binokel_sim.cards import counts_of, parse_cards
from binokel_sim.errors import InputError
from binokel_sim.game.auction import auction, legal_raise, raise_of
from binokel_sim.game.ending import _running_totals, _winner
from binokel_sim.game.simulate import play_deal, simulate_game
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.game.cardplay import play_line
from binokel_sim.melds.scorer import meld_total
from binokel_sim.play.dd import solve_rows
from binokel_sim.play.knowledge import PlayState, revealed
from binokel_sim.play.legal import BEAT_LED, PARTNER_FREES, format_legal, mask_cards, play_rule, trick_mates
from binokel_sim.play.setup import build_position
from binokel_sim.play.solver import Position, Solver
from binokel_sim.rules import load_rules
from binokel_sim.scoring import PlayedDeal, score_deal, surrender_credit, team_total, unit_total
from clitools import assert_one_line_error, run_cli

DABB, FOUR, KREUZ, STD = (load_rules(n) for n in ("dabb", "dabb-four", "kreuz", "standard"))
H = 2  # hearts trump


def rules_file(tmp_path, inherits: str, body: str) -> str:
    p = tmp_path / "house.toml"
    p.write_text(f'inherits = "{inherits}"\nname = "house"\n{body}')
    return str(p)


def cards(text: str) -> list[int]:
    return parse_cards(text)


# --- the presets: the app's values ------------------------------------------------------------------------------

def test_presets_carry_the_apps_values():
    assert (DABB.layout.players, DABB.layout.hand_size, DABB.layout.tapp_size, DABB.layout.sevens) == (3, 12, 4, False)
    assert (FOUR.layout.players, FOUR.layout.hand_size, FOUR.layout.teams) == (4, 9, ((0, 2), (1, 3)))
    assert (DABB.bidding.min_bid, DABB.bidding.bid_step, DABB.bidding.jump_step) == (150, 10, 10)
    assert (DABB.surrender.credit, DABB.surrender.penalty_factor, DABB.scoring.failure_factor) == (40, 1, 2)
    assert DABB.scoring.round_to_10 and DABB.play.beat_led_when_trumped and not DABB.play.partner_frees
    assert (DABB.game.target, DABB.game.decided_by, DABB.durch.allowed, DABB.bettel.allowed) == (1000, "highest",
                                                                                             False, False)
    m = DABB.melds
    assert (m.double_family, m.trump_double_family, m.eight, m.dissle) == (200, 300, {"A": 200, "K": 160, "O": 120,
                                                                                       "U": 80}, 0)
    assert FOUR.play.partner_frees and FOUR.scoring.round_per_team and FOUR.scoring.team_trick_keeps_melds
    assert FOUR.surrender.credit_per_team and (play_rule(DABB), play_rule(FOUR)) == (BEAT_LED, BEAT_LED | PARTNER_FREES)


# --- play.partner_frees ------------------------------------------------------------------------------------------

# Seat 0 leads EK, seat 1 adds EO; seat 2 is to play: at dabb-four and kreuz seat 0 is its partner.
PARTNER_HOLDS = [
    # (seat 2's hand, trick, legal without the key, legal with it)
    ("EA EU HU", "EK EO", "EA", "EA EU"),      # follow suit, but no duty to beat the partner's King
    ("GA HU", "EK EO", "HU", "GA HU"),         # void: no duty to trump the partner's trick
]


@pytest.mark.parametrize("hand,trick,plain,freed", PARTNER_HOLDS)
def test_partner_frees_from_beating_and_trumping(hand, trick, plain, freed):
    mates = trick_mates(FOUR.layout.partners(0), leader=0, seats=4, n=2)
    assert mates == 0b01  # the lead (seat 0) is seat 2's partner's card, seat 1's is not
    h = counts_of(cards(hand))
    assert format_legal(h, cards(trick), H, play_rule(KREUZ), mates) == plain
    assert format_legal(h, cards(trick), H, PARTNER_FREES, mates) == freed


def test_partner_frees_only_when_the_partner_holds_the_trick():
    # Seat 1 (an opponent of seat 2) takes the trick with EK over the lead EO: seat 2 must beat it as usual.
    mates = trick_mates((0, 2), leader=0, seats=4, n=2)
    h = counts_of(cards("EA EU HU"))
    assert format_legal(h, cards("EO EK"), H, PARTNER_FREES, mates) == "EA"


def test_the_solver_and_the_knowledge_play_the_partner_rule():
    # dabb-four: the solver's moves at the position, and what the table learns from the low card.
    now = "GA / GK / EA EU / E10 G10"  # seats 0 and 1 have played EK and EO
    pos = build_position(FOUR, now, trump="H", leader=0, solo=0, trick="EK EO")
    assert sorted(Solver().card_values(pos)) == cards("EA EU")
    assert sorted(Solver().card_values(build_position(KREUZ, now, "H", 0, 0, trick="EK EO"))) == cards("EA")
    hands = "EK GA / EO GK / EA EU / E10 G10"
    h = [counts_of(cards(t)) for t in hands.split("/")]
    st = PlayState.start(FOUR, h, counts_of([]), None, H, soloist=0, ending=True)
    st = st.play(cards("EK")[0]).play(cards("EO")[0]).play(cards("EU")[0])  # legal: the partner holds
    assert st.view(3).forbidden[2] == 0  # so the Unter tells nothing about seat 2's Ace
    kreuz = PlayState.start(KREUZ, h, counts_of([]), None, H, soloist=0, ending=True)
    with pytest.raises(ValueError, match="may not play"):
        kreuz.play(cards("EK")[0]).play(cards("EO")[0]).play(cards("EU")[0])


# --- play.beat_led_when_trumped ----------------------------------------------------------------------------------

def test_beat_the_led_suit_when_trumped():
    # Seat 0 leads EK, seat 1 trumps with HU; seat 2 follows: dabb must beat the King, standard need not.
    h = counts_of(cards("EA EU GA"))
    assert format_legal(h, cards("EK HU"), H) == "EA EU"
    assert format_legal(h, cards("EK HU"), H, play_rule(DABB)) == "EA"
    assert format_legal(h, cards("EA HU"), H, play_rule(DABB)) == "EA EU"  # nothing beats the led Ace
    # Following low then shows the lack of A and 10 of leaves -- under dabb's rule only.
    eu, ek, hu = cards("EU EK HU")
    assert mask_cards(revealed(eu, ek, hu, H, BEAT_LED)) == cards("EA E10") and revealed(eu, ek, hu, H) == 0


# --- scoring.round_per_team and scoring.team_trick_keeps_melds ---------------------------------------------------

# dabb-four, soloist seat 0 (team 0+2) bids 150. Card points: seat 0 59 in tricks + 5 laid away, seat 1 57,
# seat 2 43, seat 3 86 (240 + the last trick's 10). Melds: 100, 20, 40, 60; seat 2 takes no trick.
DEAL = PlayedDeal(soloist=0, bid=150, contract="trump", trick_points=[59, 57, 43, 86], tricks=[4, 2, 0, 3],
                  melds=[100, 20, 40, 60], discard_points=5)


@pytest.mark.parametrize("per_team,keeps,expected", [
    # team 0+2: 64 + 43 = 107 -> 110 once, or 60 + 40 = 100 each; melds 100 + 40 (a team trick) or 100 alone.
    # team 1+3: 57 + 86 = 143 -> 140 once, or 60 + 90 = 150 each; both took a trick: melds 20 + 60 = 80.
    (True, True, [250, 220, 250, 220]),     # 110 + 140, 140 + 80: the app's numbers
    (False, True, [240, 230, 240, 230]),    # 100 + 140, 150 + 80
    (True, False, [210, 220, 210, 220]),    # 110 + 100, 140 + 80
    (False, False, [200, 230, 200, 230]),   # 100 + 100, 150 + 80: each player rounds and needs his own trick
])
def test_team_rounding_and_team_trick_keeping_melds(tmp_path, per_team, keeps, expected):
    body = f"[scoring]\nround_per_team = {str(per_team).lower()}\nteam_trick_keeps_melds = {str(keeps).lower()}\n"
    r = load_rules(rules_file(tmp_path, "dabb-four", body))
    assert score_deal(r, DEAL).tolist() == expected


def test_a_team_without_a_trick_forfeits_its_melds():
    # Team 1+3 takes no trick: its 20 + 60 in melds are lost; its 0 card points round to 0.
    d = PlayedDeal(soloist=0, bid=150, contract="trump", trick_points=[200, 0, 45, 0], tricks=[7, 0, 2, 0],
                   melds=[100, 20, 40, 60], discard_points=5)
    assert score_deal(FOUR, d).tolist() == [250 + 140, 0, 250 + 140, 0]
    assert unit_total(FOUR, (1, 3), [0, 0, 0, 0], [0, 20, 0, 60], [True, False, False, False]) == 0


def test_running_totals_keep_melds_with_the_teams_trick():
    # Seat 0 takes the first trick (20 points): its partner seat 2's melds (40) count from then on.
    line = SimpleNamespace(trick_winners=(0, 1), trick_points=(20, 30))
    team = _running_totals(FOUR, line, [100, 20, 40, 60], sol=0, discard_points=5)
    own = _running_totals(KREUZ, line, [100, 20, 40, 60], sol=0, discard_points=5)
    assert team[0][1].tolist() == [125, 0, 40, 0] and own[0][1].tolist() == [125, 0, 0, 0]
    assert team[1][1].tolist() == [125, 50, 40, 60] and own[1][1].tolist() == [125, 50, 0, 0]


# --- surrender.credit_per_team -----------------------------------------------------------------------------------

def test_going_out_credits_the_defending_team_once(tmp_path):
    # Seat 1 goes out at 170: team 1+3 -170. Team 0+2 (melds 80 and 0) gets its melds plus the credit 40 once.
    d = PlayedDeal(soloist=1, bid=170, contract="surrender", trick_points=[0] * 4, tricks=[0] * 4,
                   melds=[80, 40, 0, 20])
    assert surrender_credit(FOUR, 170) == 40
    assert score_deal(FOUR, d).tolist() == [120, -170, 120, -170]
    each = load_rules(rules_file(tmp_path, "dabb-four", "[surrender]\ncredit_per_team = false\n"))
    assert score_deal(each, d).tolist() == [160, -170, 160, -170]  # (40 + 80) + (40 + 0)


# --- bidding.jump_step -------------------------------------------------------------------------------------------

def test_jump_bids(tmp_path):
    assert legal_raise(150, 200, DABB) and not legal_raise(150, 200, STD) and legal_raise(150, 160, STD)
    assert not legal_raise(150, 195, DABB) and not legal_raise(150, 150, DABB)
    fifty = load_rules(rules_file(tmp_path, "standard", "[bidding]\njump_step = 50\n"))
    assert legal_raise(150, 250, fifty) and legal_raise(150, 160, fifty) and not legal_raise(150, 170, fifty)
    assert [raise_of(b, 300, fifty) for b in (150, 250, 290, 300)] == [50, 50, 10, 0]
    # Seat 1 (ceiling 200) jumps to 200, forehand (300) to 250, seat 1 cannot go on: forehand at 250 (210 without).
    assert auction([300, 200, 0], fifty) == (0, 250) and auction([300, 200, 0], STD) == (0, 210)
    # jump_step = bid_step (the app): the plain one-step auction, as the app's AI bids.
    assert auction([300, 200, 230], DABB) == auction([300, 200, 230], STD) == (0, 230)


def test_a_jump_step_off_the_bid_grid_is_one_line(tmp_path, capsys):
    path = rules_file(tmp_path, "standard", "[bidding]\njump_step = 15\n")
    with pytest.raises(InputError, match=r"^bidding.jump_step: must be 0 or a multiple of bidding.bid_step \(10\), "
                                         "got 15$"):
        load_rules(path)
    line = assert_one_line_error(capsys, "melds", "EA", "--rules", path, contains="bidding.jump_step")
    assert line == "error: bidding.jump_step: must be 0 or a multiple of bidding.bid_step (10), got 15"
    ok = rules_file(tmp_path, "standard", "[bidding]\njump_step = 50\n")
    code, out, err = run_cli(capsys, "melds", "EA", "--rules", ok)
    assert code == 0, err


# --- the partnership keys need partners; two-hand keys ------------------------------------------------------------

@pytest.mark.parametrize("key", ["play.partner_frees", "scoring.round_per_team", "scoring.team_trick_keeps_melds",
                                 "surrender.credit_per_team"])
def test_team_keys_without_teams_are_one_line(tmp_path, capsys, key):
    section, name = key.split(".")
    path = rules_file(tmp_path, "standard", f"[{section}]\n{name} = true\n")
    line = assert_one_line_error(capsys, "melds", "EA", "--rules", path)
    assert line == f"error: {key}: layout 'three' has no fixed partners (layout.teams)"
    assert load_rules(rules_file(tmp_path, "kreuz", f"[{section}]\n{name} = true\n")).name == "house"


@pytest.mark.parametrize("body,key", [
    ("[play]\nbeat_led_when_trumped = true\n", "play.beat_led_when_trumped"),
    ("[game]\ndecided_by = \"highest\"\n", "game.decided_by"),
    ("[bidding]\njump_step = 10\n", "bidding.jump_step"),
])
def test_two_hand_refuses_the_auction_and_follower_keys(tmp_path, body, key):
    with pytest.raises(InputError, match=f"^{key}: layout 'two-hand'"):
        load_rules(rules_file(tmp_path, "two-hand", body))


def test_a_bid_layout_of_two_seats_must_fill_the_deck(tmp_path):
    body = '[layout]\nname = "two"\nplayers = 2\nhand_size = 12\ntapp_size = 4\n'
    with pytest.raises(InputError, match=r"^layout: 2 x 12 cards \+ Tapp 4 != 40-card deck$"):
        load_rules(rules_file(tmp_path, "standard", body))
    # Two seats: nobody plays between the lead and the follower, so "beaten when trumped" cannot apply.
    with pytest.raises(InputError, match="^play.beat_led_when_trumped: layout 'dabb-two' has two seats"):
        load_rules(rules_file(tmp_path, "dabb-two", "[play]\nbeat_led_when_trumped = true\n"))


# --- dabb-two: the app's two-player game ---------------------------------------------------------------------------

TWO = load_rules("dabb-two")


def test_dabb_two_deals_18_each_and_a_dabb_of_4():
    assert (TWO.layout.players, TWO.layout.hand_size, TWO.layout.tapp_size, TWO.layout.kind) == (2, 18, 4, "bid")
    o = Dealer(TWO, 1).deal_object(0)
    sizes = [int(h.counts.sum()) for h in o.hands]
    assert sizes == [18, 18] and int(o.tapp.counts.sum()) == 4
    # Both hands and the Dabb are the 40-card deck: every card twice, no sevens.
    total = o.hands[0].counts.astype(int) + o.hands[1].counts + o.tapp.counts
    assert total.tolist() == [2, 2, 2, 2, 2, 0] * 4
    assert str(o.tapp) == "G10 GO HA SU"


def test_dabb_two_auction_of_two():
    # Forehand must open at 150; the two raise by 10 in turn until one would pass his ceiling.
    assert auction([300, 200], TWO) == (0, 210)   # middlehand stops at 200, forehand holds at 210
    assert auction([170, 250], TWO) == (1, 180)   # 150, 160, 170, 180: forehand cannot go to 190
    assert auction([0, 0], TWO) == (0, 150) and auction([0, 160], TWO) == (1, 160)


def test_dabb_two_scored_by_hand():
    # Card points are rounded per player (137 -> 140, 113 -> 110), melds added, a missed bid costs twice it.
    made = PlayedDeal(soloist=0, bid=200, contract="trump", trick_points=[137, 113], tricks=[10, 8], melds=[120, 60])
    assert score_deal(TWO, made).tolist() == [140 + 120, 110 + 60]
    missed = PlayedDeal(soloist=0, bid=300, contract="trump", trick_points=[137, 113], tricks=[10, 8],
                        melds=[120, 60])
    assert score_deal(TWO, missed).tolist() == [-600, 170]
    # No trick, no melds: the defender who took none scores 0.
    sweep = PlayedDeal(soloist=0, bid=150, contract="trump", trick_points=[250, 0], tricks=[18, 0], melds=[100, 90])
    assert score_deal(TWO, sweep).tolist() == [350, 0]
    # Going out: the soloist loses the bid once, the defender gets his melds plus the credit of 40.
    out = PlayedDeal(soloist=1, bid=170, contract="surrender", trick_points=[0, 0], tricks=[0, 0], melds=[80, 40])
    assert score_deal(TWO, out).tolist() == [80 + 40, -170]


def test_a_dabb_two_deal_and_game_play_through():
    row = Dealer(TWO, 5).deal(1, start=0)[0]
    o = play_deal(TWO, row, Solver())
    assert len(o.scores) == 2
    rec = simulate_game(TWO, seed=3, game=0, max_deals=2)
    assert rec.deals == 2 and all(d.contract in ("trump", "surrender") for d in rec.records)


# --- game.decided_by ---------------------------------------------------------------------------------------------

def test_decided_by_highest_with_ties():
    # Target 1000. Players 1 and 2 tie on 1100: not the soloist (0) -> the lower player number, 1; soloist 2 -> 2.
    tie = np.array([1000, 1100, 1100])
    assert _winner(DABB, tie, 0) == 1 and _winner(DABB, tie, 2) == 2 and _winner(DABB, tie, -1) == 1
    # The highest wins even where the soloist also reached the target ...
    assert _winner(DABB, np.array([1200, 1050, 900]), 1) == 0
    # ... where the standard rule gives it to the soloist, and plays on after a tie on top.
    std = load_rules("wuerttemberg")  # target 1000, decided_by "soloist"
    assert _winner(std, np.array([1200, 1050, 900]), 1) == 1 and _winner(std, np.array([900, 1100, 1100]), 0) == -1
    assert _winner(DABB, np.array([990, 900, 0]), 0) == -1
    # Teams (partners carry the team's total): a tie between the teams goes to the soloist's, else team 0+2.
    teams = np.array([1050, 1050, 1050, 1050])
    assert _winner(FOUR, teams, 3) == 3 and _winner(FOUR, teams, -1) == 0


# --- the double-dummy values count a team as the scorer does ------------------------------------------------------

def test_double_dummy_value_is_the_scored_team_total_of_its_line():
    # dabb-four deal 0 of seed 9, soloist seat 0 keeps its dealt hand (nothing laid away), hearts trump: the
    # studies' value (the team's card points rounded once, both partners' melds with a team trick) is what the
    # scorer gives the double-dummy line.
    row = Dealer(FOUR, 9).deal(1, start=0)[0]
    hands = np.stack([counts_of(row[s], check=False) for s in seat_slices(FOUR)[:4]])
    value, took = solve_rows(FOUR, 0, hands[0][None], np.array([H]), np.array([0]), hands[None])
    melds = [int(meld_total(hands[s], H, FOUR.meld_array())) for s in range(4)]
    line = play_line(Position(tuple(hands), H, 0, 0, (0, 2), (), 10, (0,) * 4, (), play_rule(FOUR)))
    deal = PlayedDeal(0, 150, "trump", list(line.seat_points), list(line.seat_tricks), melds, 0)
    # Seat 0 (melds 60) takes no trick, its partner three tricks worth 62: 62 -> 60, + 60 + 20 = 140.
    assert (melds[0], melds[2], line.seat_tricks[0], line.seat_tricks[2], line.seat_points[2]) == (60, 20, 0, 3, 62)
    assert bool(took[0]) and int(value[0]) == team_total(FOUR, deal, (0, 2)) == 140


# --- the simulator plays the presets -----------------------------------------------------------------------------

@pytest.mark.slow
def test_a_dabb_four_deal_and_a_dabb_game_play_through():
    row = Dealer(FOUR, 5).deal(1, start=0)[0]
    o = play_deal(FOUR, row, Solver())
    assert o.scores[0] == o.scores[2] and o.scores[1] == o.scores[3]  # partners carry their team's score
    rec = simulate_game(DABB, seed=3, game=0, max_deals=2)
    assert rec.deals == 2 and all(d.contract in ("trump", "surrender") for d in rec.records)


def test_the_search_counts_nodes_at_eighteen_tricks_left():
    # dabb-two hands hold 18 cards. The search writes its per-depth node counters through a pointer (no
    # bounds check): before they reached 18 tricks left it wrote past its array and corrupted the heap.
    from binokel_sim.cards import cards_of
    from binokel_sim.play.solver.slots import DEPTH, S_NODES

    o = Dealer(TWO, 5).deal_object(0)
    pos = Position.parse([cards_of(o.hands[0].counts), cards_of(o.hands[1].counts)], 0, 0, 0)
    s = Solver()
    assert s.max_points(pos) == 136
    by_depth = s._stats[DEPTH:DEPTH + 19]
    assert by_depth[18] >= 1 and int(by_depth.sum()) == int(s._stats[S_NODES]) == s.nodes
