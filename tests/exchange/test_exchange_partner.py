"""The partner's share of the soloist's estimate at partnership layouts (binokel_sim.exchange.partner)."""

import numpy as np
import pytest

from binokel_sim.cards import Hand, cards_of, counts_of, deck_types, parse_cards
from binokel_sim.exchange.partner import PARTNER_DRAWS, partner_allowance
from binokel_sim.exchange.policy import build_candidates, choose
from binokel_sim.melds.explain import explain_total
from binokel_sim.rules import load_rules
from test_exchange import deals, py_play_estimate

POOL = counts_of(parse_cards("EA EA E10 EK EO EU HA H10 SA GA G10 GK GO"))  # 9 cards + a Tapp of 4


def reference_allowance(rules, pool, trump, draws, seed):
    """Mean and sd of the partner's melds (the explain-based scorer) + play estimate (plain Python)
    over ``draws`` uniform partner hands of the unseen cards (numpy's generator, not the kernel's stream)."""
    unseen = np.bincount(deck_types(rules.layout.sevens), minlength=24) - pool
    cards = cards_of(unseen.astype(np.uint8))
    rng = np.random.default_rng(seed)
    vals = np.empty(draws)
    for j in range(draws):
        pick = rng.choice(len(cards), rules.layout.hand_size, replace=False)
        hand = counts_of([cards[i] for i in pick])
        vals[j] = explain_total(Hand(hand), trump, rules) + py_play_estimate(hand, trump)
    return vals.mean(), vals.std(ddof=1)


@pytest.mark.parametrize("preset,trump", [("kreuz", 0), ("kreuz", 2), ("kreuz-48", 1)])
def test_allowance_agrees_with_an_independent_reference(preset, trump):
    r = load_rules(preset)
    got = partner_allowance(r, POOL[None], np.array([trump]))[0]
    mean, sd = reference_allowance(r, POOL, trump, 4000, seed=5)
    # The kernel's mean of 128 draws against the reference's of 4000: within 4 combined standard errors.
    se = sd * np.sqrt(1 / PARTNER_DRAWS + 1 / 4000)
    assert abs(got - mean) < 4 * se, (got, mean, se)
    assert 20 < mean < 150


def test_allowance_is_a_function_of_the_view_alone():
    r = load_rules("kreuz")
    _, views = deals("kreuz", 6, seed=3)
    pools = np.stack([h + t for h, t in views])
    trumps = np.array([0, 1, 2, 3, 0, 1])
    batch = partner_allowance(r, pools, trumps)
    alone = [partner_allowance(r, pools[i:i + 1], trumps[i:i + 1])[0] for i in range(6)]
    assert batch.tolist() == alone
    assert len(set(batch.tolist())) == 6  # different views, different draws


def test_no_partner_no_allowance():
    for preset in ("standard", "four-solo", "standard-48"):
        assert partner_allowance(load_rules(preset), POOL[None], np.array([0])).tolist() == [0.0]


def test_kreuz_estimate_is_four_solo_estimate_plus_the_allowance():
    # kreuz and four-solo deal alike (9 + 4, 40 cards); only layout.teams differs.
    solo, kreuz = load_rules("four-solo"), load_rules("kreuz")
    _, views = deals("kreuz", 12, seed=8)
    h = np.stack([v[0] for v in views])
    t = np.stack([v[1] for v in views])
    cs_s, cs_k = build_candidates(solo, h, t, "heuristic"), build_candidates(kreuz, h, t, "heuristic")
    ch_s, ch_k = choose(solo, 0, cs_s, "heuristic"), choose(kreuz, 0, cs_k, "heuristic")
    assert ch_s.index.tolist() == ch_k.index.tolist()  # the choice itself is the own-hand value's
    code = cs_k.code[np.arange(12), ch_k.index]
    trump = code < 4
    share = np.rint(partner_allowance(kreuz, cs_k.pool[trump], code[trump])).astype(int)
    assert (ch_k.subjective[trump, 0] - ch_s.subjective[trump, 0]).tolist() == share.tolist()
    assert (share > 0).all()
