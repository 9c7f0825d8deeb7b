"""The rule-based play kernel: card for card the Python ``RuleBased`` player, hand-checked endings, and the
rule-based games mode (``play="rule-based"``) wired through the games."""

from __future__ import annotations

import numpy as np
import pytest

import pandas as pd

from binokel_sim.cards import counts_of, format_cards, parse_cards
from binokel_sim.contracts import DURCH_CODE
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.exchange.calling import apply_calls
from binokel_sim.exchange.policy import build_candidates, candidate_at, choose
from binokel_sim.game.auction import auction
from binokel_sim.game.simulate import ceiling, play_deal
from binokel_sim.simulation import simulate_games
from binokel_sim.play.dd import first_leader
from binokel_sim.play.knowledge import PlayState, trumps_of
from binokel_sim.play.legal import trick_winner_of
from binokel_sim.play.playout import RuleBased, play_out, side_total
from binokel_sim.play.rule_kernel import rule_play
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale
from clitools import assert_one_line_error, run_json

#: Three-seat (40 and 48 cards, with and without beat_led_when_trumped), two-seat and four-seat (solo,
#: partnership, partner_frees) presets.
PRESETS = ["standard", "dabb", "dabb-two", "four-solo", "kreuz", "dabb-four", "standard-48"]
DEALS = 60


def _random_state(rules, row: np.ndarray, rng: np.random.Generator, kind: int) -> PlayState:
    """A deal at its first trick: a random soloist; ``kind`` 0, 1: a random trump, 2: no trump (a Durch), 3: a
    Durch from the hand (the Tapp laid away unseen); else the soloist's discard drawn at random from its hand
    and the Tapp."""
    n, sl = rules.n_seats, seat_slices(rules)
    hands = [counts_of(row[s], check=False) for s in sl[:n]]
    tapp = counts_of(row[sl[n]], check=False)
    sol = int(rng.integers(n))
    trump = int(rng.integers(4)) if kind < 2 else -1
    if kind == 3:
        pile, seen = tapp, None
    else:
        pool = [c for c in range(24) for _ in range(int(hands[sol][c] + tapp[c]))]
        disc = rng.choice(len(pool), size=rules.layout.tapp_size, replace=False)
        pile = counts_of([pool[i] for i in disc])
        hands[sol] = (hands[sol] + tapp - pile).astype(np.uint8)
        seen = tapp
    return PlayState.start(rules, hands, pile, seen, trump, sol, leader=rules.play.first_leader(sol, trump < 0))


def _kernel(state: PlayState):
    # The trumps of the pile the other seats know where the rules announce them (dabb), as PlayState.view.
    shown = trumps_of(state.pile, state.trump) if state.trumps_shown and state.trump >= 0 else None
    return rule_play(state.hands, state.trump, state.first_leader, state.side, state.rule, state.last_trick,
                     state.deck, state.pile, state.soloist if state.tapp is not None else -1,
                     shown if state.tapp is not None else None)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.slow
def test_kernel_plays_the_python_players_cards(preset):
    rules = load_rules(preset)
    rng = np.random.default_rng(PRESETS.index(preset))
    for i, row in enumerate(Dealer(rules, seed=11).deal(DEALS)):
        state = _random_state(rules, row, rng, i % 4)
        end = play_out(state, [RuleBased()] * state.seats)
        got = _kernel(state)
        assert got.cards == end.cards
        rec = end.record()
        points = [0] * state.seats
        for w, p in zip(got.trick_winners, got.trick_points):
            points[w] += p
        assert tuple(points) == rec.points and sorted(set(got.trick_winners)) == list(rec.won)


def _hands(*texts: str) -> np.ndarray:
    return np.stack([counts_of(parse_cards(t)) for t in texts])


def test_hand_checked_trump_ending():
    # Trump H; seat 0 (the soloist) knows it discarded G10. It leads HA (sure, trump, most points), then H10
    # (sure: HA is gone); seat 1, void in H with nothing able to beat H10, throws the cheapest (EA before GA:
    # 11 points each, the lower type); seat 2 plays last and cannot beat: its cheapest, GU. GK is not sure (GA
    # is out): led last, GA takes it.
    hands, pile = _hands("HA H10 GK", "HK EA GA", "HO E10 GU"), counts_of(parse_cards("G10"))
    r = rule_play(hands, trump=2, leader=0, side=(0,), rule=0, last_trick=10, deck=hands.sum(axis=0) + pile,
                  pile=pile, pile_seat=0)
    assert format_cards(r.cards) == "HA HK HO H10 EA GU GK GA E10"
    assert r.trick_winners == (0, 0, 1) and r.trick_points == (18, 23, 35)
    st = PlayState.start(load_rules("standard"), hands, pile, pile, trump=2, soloist=0, ending=True)
    assert play_out(st, [RuleBased()] * 3).cards == r.cards


def test_hand_checked_no_trump_pile_knowledge():
    # No trump. Knowing GA lies in its discards, seat 0 holds the sure G10 and leads it; not knowing (a Durch
    # from the hand: the Tapp laid away unseen), no card is sure and it leads the cheapest card of its longest
    # plain suit, the tie going to E: EK.
    hands, pile = _hands("G10 EK", "EA GU", "E10 GO"), counts_of(parse_cards("GA"))
    deck = hands.sum(axis=0) + pile
    known = rule_play(hands, -1, 0, (0,), 0, 10, deck, pile, pile_seat=0)
    unknown = rule_play(hands, -1, 0, (0,), 0, 10, deck, pile, pile_seat=-1)
    assert format_cards(known.cards) == "G10 GU GO EK EA E10" and known.trick_winners == (0, 1)
    assert format_cards(unknown.cards) == "EK EA E10 GU GO G10" and unknown.trick_winners == (1, 0)
    r = load_rules("standard")
    for res, tapp in ((known, pile), (unknown, None)):
        st = PlayState.start(r, hands, pile, tapp, trump=-1, soloist=0, ending=True)
        assert play_out(st, [RuleBased()] * 3).cards == res.cards


def _played_out(rules, row: np.ndarray):
    """The deal as ``play_deal`` sets it up (auction, the heuristic exchange, any call), played out by the Python
    player at every seat: (contract, soloist, bid, the side's total, whether it took a trick, the soloist's tricks)."""
    n, sl = rules.n_seats, seat_slices(rules)
    hands = [counts_of(row[s], check=False) for s in sl[:n]]
    tapp = counts_of(row[sl[n]], check=False)
    sol, bid = auction([ceiling(h, rules) for h in hands], rules)
    cs = build_candidates(rules, hands[sol][None], tapp[None], "heuristic", per_trump=1)
    best = candidate_at(rules, cs, 0, int(choose(rules, sol, cs, "heuristic").index[0]))
    play_hands = list(apply_calls(np.stack(hands)[None], sol, np.array([best.call]), np.array([best.give]))[0])
    play_hands[sol] = counts_of(best.kept)
    from_hand = best.contract == "durch" and not rules.durch.uses_tapp
    code = best.trump if best.contract == "trump" else DURCH_CODE  # Durch and Bettel: the soloist leads
    st = PlayState.start(rules, play_hands, counts_of(best.discard), None if from_hand else tapp, best.trump, sol,
                         leader=first_leader(rules, sol, code), melds=best.contract == "trump")
    end = play_out(st, [RuleBased()] * n)
    total, took = side_total(rules, end, best.discard_points)
    return best.contract, sol, bid, total, took, sum(1 for w in _trick_winners(end) if w == sol)


def _trick_winners(state: PlayState) -> list[int]:
    """Each trick's winning seat of a finished ``state``."""
    out, lead = [], state.first_leader
    for t in range(state.tricks):
        trick = state.cards[t * state.seats:(t + 1) * state.seats]
        lead = (lead + trick_winner_of(trick, None if state.trump < 0 else state.trump)) % state.seats
        out.append(lead)
    return out


@pytest.mark.parametrize("preset,seed", [("standard", 2), ("calling", 3), ("kreuz", 4), ("dabb-two", 5)])
def test_play_deal_plays_the_rule_based_line(preset, seed):
    # The same deal set up by hand and played by the Python player: play_deal's totals are that line's (its
    # knowledge, leader, calls and discards wired as the playout's), exact, with the line's made decision.
    rules = load_rules(preset)
    compared = 0
    for row in Dealer(rules, seed=seed).deal(8):
        o = play_deal(rules, row, None, play="rule-based")
        if o.soloist_seat < 0:
            continue
        contract, sol, bid, total, took, _ = _played_out(rules, row)
        assert (o.soloist_seat, o.bid) == (sol, bid)
        assert o.contract == contract or (o.contract, contract) == ("surrender", "trump")
        assert (o.total, o.took) == (total, took)
        made = took and total >= bid
        assert o.exact and o.total_lo == o.total_hi == total and o.made_dd == (made,) * 3
        if o.contract == "trump":
            assert o.made == made
        compared += 1
    assert compared >= 6


def test_durch_is_made_as_the_rule_based_line_plays_it():
    # Deal 292 of seed 5 at standard: the exchange's sure Durch; made when the soloist takes every trick of the
    # Python player's line.
    rules = load_rules("standard")
    row = Dealer(rules, seed=5).deal(1, start=292)[0]
    o = play_deal(rules, row, None, play="rule-based")
    contract, sol, _, _, _, own = _played_out(rules, row)
    assert o.contract == contract == "durch" and o.made == (own == rules.layout.hand_size) and o.exact
    assert o.scores[sol] == (rules.durch.value if o.made else -rules.durch.failure_factor * rules.durch.value)


def test_rule_based_games_same_for_any_worker_count():
    a = simulate_games("dabb-two", games=6, seed=3, scale=Scale(workers=1), play="rule-based")
    b = simulate_games("dabb-two", games=6, seed=3, scale=Scale(workers=2), play="rule-based")
    for x, y in ((a.games, b.games), (a.deals, b.deals), (a.summary, b.summary)):
        pd.testing.assert_frame_equal(x, y)
    assert a.provenance["play"] == "rule-based" and a.provenance["solve_budget_nodes"] is None
    assert a.deals["exact"].all() and len(a.deals) > 6
    assert "rule-based make rate (trump contracts, surrendered ones played out)" in set(a.summary["figure"])
    # At 48 cards too no budget: no search.
    c = simulate_games("standard-48", games=1, seed=3, scale=Scale(workers=1), max_deals=2, play="rule-based")
    assert c.provenance["solve_budget_nodes"] is None and "unresolved deals" not in set(c.summary["figure"])


def test_play_option_on_the_command_line(capsys):
    got = run_json(capsys, "simulate", "games", "--rules", "dabb-two", "--games", "2", "--play", "rule-based", "-q")
    assert got["provenance"]["play"] == "rule-based" and got["provenance"]["games"] == 2
    assert_one_line_error(capsys, "simulate", "games", "--play", "open-cards", contains="--play")
    assert_one_line_error(capsys, "simulate", "games", "--play", "rule-based", "--solve-budget", "1000n",
                          contains="--solve-budget")
    assert_one_line_error(capsys, "simulate", "games", "--rules", "two-hand", "--play", "rule-based",
                          contains="--play")
