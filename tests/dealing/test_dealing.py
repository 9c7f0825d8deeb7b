"""Dealer: layouts, determinism across chunkings, predealt cards, uniformity (chi-square)."""

import numpy as np
import pytest

from binokel_sim.cards import N_TYPES, deck_types, parse_cards
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.errors import InputError
from binokel_sim.rules import load_rules
from binokel_sim.runner import chunk_ranges, run_chunks
from stats import chi2_upper_quantile

PRESETS = ["standard", "standard-48", "four-solo", "four-solo-48", "kreuz", "kreuz-48"]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_deal_is_a_permutation_of_the_deck(preset):
    r = load_rules(preset)
    deals = Dealer(r, seed=5).deal(200)
    assert deals.shape == (200, r.layout.deck_size)
    deck = np.sort(deck_types(r.layout.sevens))
    assert (np.sort(deals, axis=1) == deck).all()


def test_same_deals_for_any_chunking_and_workers():
    d = Dealer(load_rules(), seed=11)
    whole = d.deal(1000)
    for size, workers in [(1, 1), (7, 2), (333, 2), (1000, 1)]:
        parts = run_chunks(lambda c: d.deal(c.size, start=c.start), chunk_ranges(1000, size), workers=workers)
        assert (np.concatenate(parts) == whole).all()


def test_seeds_differ_and_repeat():
    r = load_rules()
    a, b = Dealer(r, seed=1).deal(50), Dealer(r, seed=2).deal(50)
    assert not (a == b).all()
    assert (Dealer(r, seed=1).deal(50) == a).all()
    assert not (Dealer(r, seed=1, stream=(3,)).deal(50) == a).all()


def cell_counts(rules, deals):
    """Counts of each card type in each group (seats, Tapp)."""
    groups = seat_slices(rules)
    out = np.zeros((len(groups), N_TYPES), dtype=np.int64)
    for g, sl in enumerate(groups):
        out[g] = np.bincount(deals[:, sl].ravel(), minlength=N_TYPES)
    return out


def chi2(rules, deals):
    obs = cell_counts(rules, deals)
    present = obs.sum(axis=0) > 0
    obs = obs[:, present]
    n = deals.shape[0]
    sizes = np.array([sl.stop - sl.start for sl in seat_slices(rules)])
    exp = n * 2 * sizes[:, None] / rules.layout.deck_size * np.ones(obs.shape[1])
    df = (obs.shape[0] - 1) * (obs.shape[1] - 1)
    return float(((obs - exp) ** 2 / exp).sum()), df


@pytest.mark.parametrize("preset", ["standard", "standard-48", "kreuz"])
def test_card_to_seat_counts_are_uniform(preset):
    r = load_rules(preset)
    stat, df = chi2(r, Dealer(r, seed=2024).deal(40_000))
    # 0.9999 quantile: the fixed seed either passes or reveals a real bias.
    assert stat < chi2_upper_quantile(df, 3.719), (stat, df)


def test_chi_square_detects_a_biased_deal():
    r = load_rules()
    deals = Dealer(r, seed=1).deal(40_000)
    # Bias: swap seat 0's first card with the Tapp's first whenever that Tapp card is an Ace.
    biased = deals.copy()
    ace = biased[:, 36] % 6 == 0
    biased[ace, 0], biased[ace, 36] = deals[ace, 36], deals[ace, 0]
    stat, df = chi2(r, biased)
    assert stat > chi2_upper_quantile(df, 3.719)


def test_predealt_cards_are_kept_and_rest_uniform():
    r = load_rules()
    hand = parse_cards("EA EA E10 EK EO EU GO SU HA HA SA GA")
    d = Dealer(r, seed=3, predealt={0: hand, "tapp": parse_cards("G10 G10")})
    deals = d.deal(20_000)
    assert (np.sort(deals[:, :12], axis=1) == np.sort(hand)).all()
    assert (np.sort(deals[:, 36:38], axis=1) == sorted(parse_cards("G10 G10"))).all()
    # Remaining cards: seats 1, 2 and the two free Tapp slots share the 26 unseen cards uniformly.
    free = np.concatenate([deals[:, 12:36].ravel(), deals[:, 38:40].ravel()])
    counts = np.bincount(free, minlength=N_TYPES)
    assert counts[0] == 0 and counts[1 * 6 + 1] == 0  # both EA and both G10 are placed
    hk = 2 * 6 + 2
    frac_in_seat1 = np.count_nonzero(deals[:, 12:24] == hk) / (2 * 20_000)
    assert abs(frac_in_seat1 - 12 / 26) < 4 * np.sqrt((12 / 26) * (14 / 26) / 40_000)


@pytest.mark.parametrize("predealt,message", [
    ({0: "EA EA EA"}, "EA given 3 times"),
    ({0: "EA", 1: "EA", 2: "EA"}, "EA given 3 times"),
    ({5: "EA"}, "unknown seat 5"),
    ({"tapp": "EA EK EO EU GA"}, "Tapp: 5 cards, but it holds 4"),
    ({0: "E7"}, "E7 is not in the 40-card deck"),
])
def test_bad_predealt(predealt, message):
    with pytest.raises(InputError, match=message):
        Dealer(load_rules(), seed=0, predealt=predealt)
