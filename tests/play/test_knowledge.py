"""What each seat knows (binokel_sim.play.knowledge): the trick rules' inferences are exact, the cards laid
open are the declared melds' cards, and the truth always fits every seat's knowledge."""

from __future__ import annotations

import numpy as np
import pytest

from binokel_sim.cards import CARD_POINTS, Hand, counts_of, parse_cards
from binokel_sim.melds.explain import explain
from binokel_sim.melds.scorer import meld_total
from binokel_sim.play.knowledge import PlayState, revealed, shown_counts
from binokel_sim.play.legal import legal_mask
from binokel_sim.play.playout import RuleBased
from binokel_sim.play.worlds import consistent
from binokel_sim.rules import load_rules

from play_helpers import study_state


def test_revealed_is_exactly_what_the_legal_rules_imply():
    # For every hand holding the card, under every play-rules word (beat the led suit when trumped, partner
    # frees) and either holder of the trick: the card was legal iff the hand holds none of the revealed types.
    rng = np.random.default_rng(3)
    checked = {rule: 0 for rule in range(4)}
    for _ in range(8000):
        trump = int(rng.integers(-1, 4))
        top, card = (int(x) for x in rng.integers(0, 24, 2))
        # The winner is the led suit's highest card, or a trump when a trump took a plain-suit trick.
        trumped = 0 <= trump != top // 6 and rng.random() < 0.5
        win = trump * 6 + int(rng.integers(0, 6)) if trumped else top
        rule, mate = int(rng.integers(0, 4)), bool(rng.integers(0, 2))
        hand = int(rng.integers(0, 1 << 24)) | (1 << card)
        legal = (legal_mask(hand, top, win, trump, rule, mate) >> card) & 1
        assert bool(legal) == (hand & revealed(card, top, win, trump, rule, mate) == 0), (hand, top, win, card, trump,
                                                                                          rule, mate)
        checked[rule] += 1
    assert min(checked.values()) > 1500
    assert revealed(5, -1, -1, 0) == 0  # a lead reveals nothing


@pytest.mark.parametrize("preset", ["standard", "grupp", "doubled"])
def test_shown_cards_are_the_declared_melds_cards(preset):
    r = load_rules(preset)
    rng = np.random.default_rng(7)
    deck = [c for c in range(24) for _ in range(2) if r.layout.sevens or c % 6 != 5]
    kinds = {"seq": ("family", "pair"), "kind": ("four", "eight"), "bin": ("binokel",), "dissle": ("Dissle",)}
    for _ in range(300):
        hand = Hand(counts_of(list(rng.choice(deck, size=r.layout.hand_size, replace=False))))
        trump = int(rng.integers(0, 4))
        want = np.zeros(24, dtype=np.int64)
        for words in kinds.values():
            per = np.zeros(24, dtype=np.int64)
            for m in explain(hand, trump, r):
                if m.points and any(w in m.name for w in words):
                    per += counts_of(parse_cards(" ".join(m.cards)), check=False)
            want = np.maximum(want, per)
        got = shown_counts(hand.counts, trump, r.meld_array())
        assert (got == want).all(), (str(hand), trump)
        # The cards shown score what the hand scores: the declaration tells the points.
        assert meld_total(got, trump, r.meld_array()) == meld_total(hand.counts, trump, r.meld_array())


@pytest.mark.slow
def test_view_shows_own_hand_tapp_melds_and_the_soloist_its_discards():
    r, state, _ = study_state("standard", 0)
    s = state.soloist
    for seat in range(3):
        v = state.view(seat)
        assert (v.hand == state.hands[seat]).all() and v.to_move == 0 and v.decision == 0
        assert (v.pile is not None) == (seat == s) and v.pile_size == r.layout.tapp_size
        assert v.tapp is not None and v.shown is not None
        assert v.melds == tuple(int(meld_total(state.hands[x], state.trump, r.meld_array())) for x in range(3))
        assert v.unseen().sum() == 40 - 12 - (4 if seat == s else 0)
    assert not v.hand.flags.writeable and not v.played.flags.writeable


def test_durch_from_the_hand_shows_no_tapp_and_nobody_melds():
    r = load_rules("grupp")
    h = [counts_of(parse_cards(t)) for t in ("EA E10", "EK EO", "GA G10")]
    st = PlayState.start(r, h, pile=counts_of(parse_cards("HA")), tapp=None, trump=-1, soloist=0, melds=False,
                         ending=True)
    v = st.view(0)
    assert v.tapp is None and v.shown is None and v.pile is None and v.melds == (0, 0, 0)
    assert v.unseen().sum() == 5  # the soloist has not seen the Tapp it laid away


@pytest.mark.parametrize("preset,deal", [("standard", 1), ("standard", 5), ("kreuz", 2)])
def test_the_truth_fits_every_seat_at_every_card(preset, deal):
    r, state, _ = study_state(preset, deal)
    players = RuleBased()
    while not state.done:
        truth = state.current()
        for seat in range(state.seats):
            assert consistent(state.view(seat), truth, state.pile), (seat, state.cards)
        state = state.play(players.choose(state))
    rec = state.record()
    assert sum(rec.points) == 240 + 10 - int(state.pile.astype(np.int64) @ CARD_POINTS)


def test_a_seat_that_does_not_follow_is_void_and_without_trump():
    r = load_rules("standard")
    h = [counts_of(parse_cards(t)) for t in ("EA GK", "E10 HA", "HU SU")]
    st = PlayState.start(r, h, pile=counts_of([]), tapp=None, trump=1, soloist=0, ending=True)
    st = st.play(0).play(1)          # EA led, E10 follows (cannot beat the Ace)
    st = st.play(parse_cards("SU")[0])   # seat 2 is void in E and plays no trump: void in E and in G
    f = st.view(0).forbidden[2]
    assert all((f >> c) & 1 for c in range(0, 12)) and not any((f >> c) & 1 for c in range(12, 24))
    assert st.view(1).forbidden[1] == 0
    with pytest.raises(ValueError):
        st.play(parse_cards("HA")[0])  # seat 0 (it took the trick with the Ace) leads, and holds no HA
