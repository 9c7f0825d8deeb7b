"""The rule-based play kernel: card for card the Python ``RuleBased`` player, hand-checked endings, and the
rule-based games mode (``play="rule-based"``) wired through the games."""

from __future__ import annotations

import numpy as np
import pytest

from binokel_sim.cards import counts_of, format_cards, parse_cards
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.play.knowledge import PlayState
from binokel_sim.play.playout import RuleBased, play_out
from binokel_sim.play.rule_kernel import rule_play
from binokel_sim.rules import load_rules

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
    return rule_play(state.hands, state.trump, state.first_leader, state.side, state.rule, state.last_trick,
                     state.deck, state.pile, state.soloist if state.tapp is not None else -1)


@pytest.mark.parametrize("preset", PRESETS)
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
