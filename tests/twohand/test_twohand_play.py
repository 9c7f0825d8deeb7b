"""Two-hand play: exact endgame against the reference minimax, replays, whole games; the
dealer who sits out (docs/rules.md §7, §10)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from binokel_sim.cards import CARD_POINTS, counts_of, deck_types, parse_cards
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.game.cardplay import play_line
from binokel_sim.game.simulate import simulate_game
from binokel_sim.play.solver import Solver
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from binokel_sim.scoring import PlayedDeal, table_scores
from binokel_sim.twohand.endgame import endgame_study
from binokel_sim import streams
from binokel_sim.twohand.games import simulate_twohand_game
from binokel_sim.twohand.play import play_deal, replay_deal
from binokel_sim.twohand.runs import simulate_twohand_games
from binokel_sim.twohand.search import TwoSeatSearch

from clitools import run_json
from solver_reference import legal
from twohand_reference import legal2, minimax2

RULES = load_rules("two-hand")


def _position(rng: random.Random):
    n = rng.choice((1, 2, 3, 4, 5, 6))
    deck = [int(c) for c in deck_types(True)]
    rng.shuffle(deck)
    hands = (tuple(sorted(deck[:n])), tuple(sorted(deck[n:2 * n])))
    trump, leader = rng.randrange(4), rng.randrange(2)
    trick: tuple[int, ...] = ()
    if rng.random() < 0.4:
        c = rng.choice(legal(hands[leader], (), trump))
        h = list(hands[leader])
        h.remove(c)
        hands = (tuple(h), hands[1]) if leader == 0 else (hands[0], tuple(h))
        trick = (c,)
    counts = tuple(np.bincount(np.array(h, dtype=np.int64), minlength=24).astype(np.uint8) for h in hands)
    return counts, hands, trick, leader, trump


@pytest.mark.parametrize("phase", ["head", "follow"])
@pytest.mark.slow
def test_two_seat_search_matches_reference_minimax(phase):
    # Random endgames of 1-6 tricks, 40 % of them after the lead; both heading options.
    rng = random.Random(2015 if phase == "head" else 2016)
    s = TwoSeatSearch()
    values = set()
    for _ in range(300):
        counts, hands, trick, leader, trump = _position(rng)
        for last in (10, 0):
            v = s.value(counts, trump, leader, trick, last, phase == "head")
            assert v == minimax2(hands, trick, leader, trump, phase, last)
            values.add(v)
    assert len(values) > 50


@pytest.mark.slow
def test_two_seat_card_values_match_reference():
    rng = random.Random(77)
    s = TwoSeatSearch()
    for k in range(80):
        counts, hands, trick, leader, trump = _position(rng)
        phase = ("head", "follow")[k % 2]
        p = (leader + len(trick)) % 2
        vals = s.card_values(counts, trump, leader, trick, 10, phase == "head")
        assert sorted(vals) == legal2(hands[p], trick, trump, phase)
        for c, v in vals.items():
            h = list(hands[p])
            h.remove(c)
            nh = (tuple(h), hands[1]) if p == 0 else (hands[0], tuple(h))
            assert v == minimax2(nh, trick + (c,), leader, trump, phase)


def test_two_seat_search_hand_checked():
    # Seat 0 EA E10, seat 1 EK GA, Gras trump, seat 0 leads. EA takes EK (15); E10 is then
    # trumped by GA (21 + 10 last). Leading E10 first: EK must follow (14), GA trumps EA. So 15.
    hands = (counts_of(parse_cards("EA E10")), counts_of(parse_cards("EK GA")))
    s = TwoSeatSearch()
    assert s.value(hands, 1, 0) == 15
    assert s.card_values(hands, 1, 0) == {0: 15, 1: 14}
    assert s.line(hands, 1, 0) == ([0, 1], [15, 31])


def test_full_endgames_agree_with_the_generic_solver():
    # 12-trick endgames are beyond the reference minimax: the two-seat search must agree with the
    # three-seat solver run with two seats (heading), value and exact line.
    ends = [play_deal(RULES, row, endgame="none").endgame for row in Dealer(RULES, seed=3).deal(6)]
    s, vals = TwoSeatSearch(), []
    for pos in ends:
        v = s.value(pos.hands, pos.trump_index, pos.leader)
        assert v == Solver().max_points(pos)
        line = play_line(pos, Solver())
        assert s.line(pos.hands, pos.trump_index, pos.leader) == (list(line.trick_winners), list(line.trick_points))
        vals.append(v)
        assert 0 < v < sum(int(np.dot(h, CARD_POINTS)) for h in pos.hands) + RULES.play.last_trick
    assert len(set(vals)) > 1


def test_two_seat_search_rejects_mismatched_hands():
    from binokel_sim.errors import InputError

    hands = (counts_of(parse_cards("EA E10")), counts_of(parse_cards("EK")))
    with pytest.raises(InputError, match="do not fit"):
        TwoSeatSearch().value(hands, 1, 0)


def _rows(n, seed=5):
    return Dealer(RULES, seed, stream=streams.stream("twohand_game", 0)).deal(n)


def test_deal_invariants():
    for row in _rows(30):
        d = play_deal(RULES, row, endgame="heuristic")
        assert sum(d.cards) == 250 and sum(d.tricks) == 24
        diss = sum(e[2] for e in d.events if e[0] == "diss")
        sevens = sum(1 for c in row[:48] if c == 6 * (row[24] // 6) + 5)
        assert diss == sevens - (row[24] % 6 == 5)  # every trump Seven but a turned one scores its Diss once
        assert d.turned == [0, 10 if row[24] % 6 == 5 else 0]
        assert [e[0] for e in d.events].count("draw") == 24
        exact = play_deal(RULES, row)
        assert sum(exact.cards) == 250 and exact.melds == d.melds  # the endgame never changes the melds


@pytest.mark.parametrize("endgame", ["heuristic", "exact"])
def test_seeded_deals_replay_move_by_move(endgame):
    s = TwoSeatSearch()
    for row in _rows(8, seed=9):
        d = play_deal(RULES, row, s, endgame=endgame)
        again = replay_deal(RULES, row, d.events, s, endgame=endgame)
        assert again.events == d.events and again.scores() == d.scores()


def test_replay_rejects_an_illegal_move():
    from binokel_sim.errors import InputError

    row = _rows(1)[0]
    d = play_deal(RULES, row, endgame="heuristic")
    tricks = [i for i, e in enumerate(d.events) if e[0] == "trick"]
    i = tricks[-1]  # an endgame trick: swap the follow for a card the follower no longer holds
    e = d.events[i]
    bad = list(d.events)
    bad[i] = (e[0], e[1], e[2], e[2], e[4], e[5])
    with pytest.raises(InputError, match="record"):
        replay_deal(RULES, row, bad, endgame="heuristic")


def test_games_are_seeded_and_chunking_free():
    a = simulate_twohand_game(RULES, seed=3, game=1)
    b = simulate_twohand_game(RULES, seed=3, game=1)
    assert a == b and a["winner"] in (0, 1)
    assert max(a["final_p0"], a["final_p1"]) >= RULES.game.target
    r1 = simulate_twohand_games(RULES, games=5, seed=3, scale=Scale(workers=1))
    r2 = simulate_twohand_games(RULES, games=5, seed=3, scale=Scale(workers=2))
    assert r1.summary.equals(r2.summary) and r1.deals.equals(r2.deals)
    fig = r1.summary.set_index("figure")
    assert fig.loc["deals per game", "n"] == 5 and fig.loc["score per deal, forehand", "n"] == len(r1.deals)


def test_simulate_games_cli_two_hand(capsys):
    out = run_json(capsys, "simulate", "games", "--rules", "two-hand", "--games", "2", "--seed", "4", "--quiet")
    figs = {r["figure"]: r for r in out["summary"]}
    assert figs["deals per game"]["n"] == 2
    assert any(f.startswith("trump Seven exchange in the games' first deals") for f in figs)
    assert out["provenance"]["rules"] == "two-hand"


def test_heuristic_endgame_never_beats_exact():
    df = endgame_study(RULES, deals=6, seed=2)
    assert (df["loss_seat0"] >= 0).all() and (df["loss_seat1"] >= 0).all()
    assert (df["heur_vs_exact"] <= df["exact"]).all() and (df["exact_vs_heur"] >= df["exact"]).all()


def test_dealer_bonus_hand_checked():
    d = PlayedDeal(soloist=1, bid=180, contract="trump", trick_points=[40, 170, 40],
                   tricks=[2, 8, 2], melds=[20, 60, 0], discard_points=10)
    # Soloist 10 + 170 + 60 = 240 >= 180; seat 0: 40 + 20; seat 2: 40; the dealer 200.
    out = load_rules("four-dealer-out")  # rounds card points to 10: 40 + 20, 10 + 170 -> 180 + 60, 40
    assert table_scores(out, d).tolist() == [60, 240, 40, 200]
    assert table_scores(load_rules("standard"), d).tolist() == [60, 240, 40]


def test_dealer_sits_out_and_rotates_in_games(tmp_path):
    preset = load_rules("four-dealer-out")
    assert (preset.layout.dealer_sits_out, preset.scoring.dealer_bonus, preset.layout.table_players,
            preset.layout.hand_size) == (True, 200, 4, 15)
    # The same table with the 40-card game, which plays out in seconds.
    f = tmp_path / "r.toml"
    f.write_text('inherits = "standard"\nname = "out-40"\n[layout]\ndealer_sits_out = true\n'
                 '[scoring]\ndealer_bonus = 200\n')
    r = load_rules(str(f))
    rec = simulate_game(r, seed=6, game=0, max_deals=3)
    assert len(rec.totals) == 4
    prev = np.zeros(4, dtype=np.int64)
    for d in rec.records:
        dealer = (d.deal + 3) % 4
        assert d.scores[dealer] == 200 and d.soloist != dealer
        assert (np.array(d.totals) - prev).tolist() == d.scores
        prev = np.array(d.totals)


def test_options_without_claim_and_without_heading(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('inherits = "two-hand"\nname = "no-aus"\n[game]\naus = false\n')
    g = simulate_twohand_game(load_rules(str(f)), seed=3, game=0)
    final = [g["final_p0"], g["final_p1"]]
    assert max(final) >= 1000 and final[g["winner"]] > final[1 - g["winner"]]
    assert all(r["claimed_by"] == -1 for r in g["rows"])
    f.write_text('inherits = "two-hand"\nname = "free"\n[talon]\nmust_head = false\n')
    free = load_rules(str(f))
    row = _rows(1)[0]
    assert sum(play_deal(free, row, endgame="heuristic").cards) == 250
    # The exact endgame honours the option: without heading it searches more answers.
    pos = play_deal(free, row, endgame="none").endgame
    s = TwoSeatSearch()
    free_v = s.value(pos.hands, pos.trump_index, pos.leader, must_head=False)
    assert play_deal(free, row, s).events[-1][2] == free_v
    assert sum(play_deal(free, row, s).cards) == 250


def _first_to_reach(events, before, turned, target):
    """From a deal's record: the seat whose running total first reaches ``target`` in the talon
    phase (turned bonus, melds once it holds a trick, card points of its tricks), else None."""
    melds, cards, tricks, talon_tricks = [0, 0], [0, 0], [0, 0], 0
    for s in range(2):
        if before[s] + turned[s] >= target:
            return s
    for e in events:
        if e[0] == "trick":
            talon_tricks += 1
            if talon_tricks > 12:
                return None
            cards[e[4]] += e[5]
            tricks[e[4]] += 1
        elif e[0] == "meld":
            melds[e[1]] += e[3]
        elif e[0] == "diss":
            melds[e[1]] += 10 * e[2]
        else:
            continue
        for s in range(2):
            if before[s] + turned[s] + cards[s] + (melds[s] if tricks[s] else 0) >= target:
                return s
    return None


def test_claim_goes_to_the_first_player_to_reach_the_target(tmp_path):
    f = tmp_path / "r.toml"
    f.write_text('inherits = "two-hand"\nname = "short"\n[game]\ntarget = 300\n')
    r = load_rules(str(f))
    checked = 0
    for game in range(6):
        g = simulate_twohand_game(r, seed=8, game=game)
        last = g["rows"][-1]
        j = last["deal"]
        row = Dealer(r, 8, stream=streams.stream("twohand_game", game)).deal(1, start=j)[0]
        d = play_deal(r, row)
        players = [(s + j) % 2 for s in range(2)]
        prev = g["rows"][-2] if len(g["rows"]) > 1 else {"total_p0": 0, "total_p1": 0}
        before = [prev[f"total_p{p}"] for p in players]
        first = _first_to_reach(d.events, before, d.turned, 300)
        if first is not None:
            assert g["winner"] == players[first] == last["claimed_by"]
            checked += 1
    assert checked >= 3


def test_summary_rates_carry_wilson_intervals():
    import pandas as pd

    from binokel_sim.twohand.runs import summarise_twohand

    games = pd.DataFrame({"game": [0, 1, 2, 3], "deals": [1, 1, 1, 1], "winner": [0, 0, 1, -1],
                          "final_p0": [1000, 1010, 500, 900], "final_p1": [400, 990, 1000, 900],
                          "exchange_gain": [10.0, None, None, None]})
    deals = pd.DataFrame({"game": [0, 1, 2, 3], "exchanged_by": [0, -1, -1, -1], "total_p0": [1000, 1010, 500, 900],
                          "total_p1": [400, 1000, 1000, 900],
                          **{f"{k}_seat{s}": [1, 2, 3, 4] for k in ("score", "melds", "cards") for s in (0, 1)}})
    fig = summarise_twohand(games, deals, 1000).set_index("figure")
    win = fig.loc["win rate of the first player (forehand in deal 1)"]
    # 2 of 3 finished games: Wilson 95 % by hand, centre 0.5731, half-width 0.3654
    assert (win["value"], win["n"]) == (2 / 3, 3)
    assert win["lo"] == pytest.approx(0.2077, abs=2e-4) and win["hi"] == pytest.approx(0.9385, abs=2e-4)
    ex = fig.loc["deals with a trump Seven exchange"]
    assert (ex["value"], ex["n"]) == (0.25, 4) and 0 < ex["lo"] < 0.25 < ex["hi"] < 1
    assert fig.loc["games where both reached the target in the last deal (claim or higher total decided)",
                   "value"] == 0.25
    assert np.isnan(fig.loc["deals per game", "lo"])  # a mean carries no interval
