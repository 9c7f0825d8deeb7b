"""Meld scoring: docs/rules.md §5 worked examples, hand-checked values for every table,
the numba kernel against the plain-Python explain(), and the exact best kept hand."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from binokel_sim.cards import Hand, cards_of, counts_of
from binokel_sim.melds.explain import explain, explain_total
from binokel_sim.melds.scorer import best_kept, best_trump, meld_total, totals_by_trump
from binokel_sim.rules import load_rules, preset_names

E, G, H, S = range(4)
TABLES = {"standard": "standard", "german": "wuerttemberg", "doubled": "doubled", "grupp": "grupp"}


def total(text, trump, preset="standard"):
    r = load_rules(preset)
    value = int(meld_total(Hand.parse(text).counts, trump, r.meld_array()))
    assert value == explain_total(Hand.parse(text), trump, r)
    return value


@pytest.mark.parametrize("text,trump,expected", [
    ("GK GO EO HO SO SU", E, 120),  # leaf pair 20 + four Obers 60 + binokel 40
    ("GK GO EO HO SO SU", G, 140),
    ("EA E10 EK EK EO EO EU", G, 120),  # family + separate pair
    ("EA E10 EK EK EO EO EU", E, 190),
    ("EK GK HK SK EO GO HO SO", E, 240),  # roundhouse
    ("EK GK HK SK EO GO HO SO", S, 240),
    ("EK GK HK SK EO GO HO SO EA E10 EU", E, 350),
    ("EK GK HK SK EO GO HO SO EA E10 EU", G, 320),
    ("E10 G10 H10 S10", E, 0),  # four tens score nothing
])
def test_rules_md_worked_examples(text, trump, expected):
    assert total(text, trump) == expected


DOUBLE_FAMILY = "EA E10 EK EO EU EA E10 EK EO EU"


@pytest.mark.parametrize("table,plain,trump", [
    ("standard", 1000, 1500), ("german", 1000, 1500), ("doubled", 200, 300), ("grupp", 1500, 1500)])
def test_double_family(table, plain, trump):
    assert total(DOUBLE_FAMILY, G, TABLES[table]) == plain
    assert total(DOUBLE_FAMILY, E, TABLES[table]) == trump


@pytest.mark.parametrize("rank,values", [
    ("A", {"standard": 1000, "german": 1000, "doubled": 200, "grupp": 1000}),
    ("K", {"standard": 1000, "german": 800, "doubled": 160, "grupp": 1000}),
    ("O", {"standard": 1000, "german": 600, "doubled": 120, "grupp": 1000}),
    ("U", {"standard": 1000, "german": 400, "doubled": 80, "grupp": 1000}),
])
def test_eight_of_a_kind_per_table(rank, values):
    hand = " ".join(f"{s}{rank} {s}{rank}" for s in "EGHS")
    for table, v in values.items():
        assert total(hand, H, TABLES[table]) == v


@pytest.mark.parametrize("rank,value", [("A", 100), ("K", 80), ("O", 60), ("U", 40)])
def test_four_of_a_kind(rank, value):
    assert total(" ".join(f"{s}{rank}" for s in "EGHS"), E) == value


def test_double_pair_and_trump_double_pair():
    assert total("HK HK HO HO", E) == 40
    assert total("HK HK HO HO", H) == 80


def test_double_binokel_in_every_table():
    for preset in TABLES.values():
        assert total("GO GO SU SU", E, preset) == 300
        assert total("GO SU", E, preset) == 40


def test_dissle_counts_each_trump_seven():
    assert total("E7 HK HO", E, "standard-48") == 10 + 20
    assert total("E7 E7 HK HO", E, "standard-48") == 20 + 20
    assert total("E7 E7 HK HO", H, "standard-48") == 40


def test_eight_tens_and_eight_sevens_options(tmp_path):
    tens = "E10 E10 G10 G10 H10 H10 S10 S10"
    assert total(tens, E) == 0
    p = tmp_path / "tens.toml"
    p.write_text('inherits = "standard"\nname = "tens"\n[melds]\neight_tens = 1000\n')
    assert total(tens, E, str(p)) == 1000
    sevens = "E7 E7 G7 G7 H7 H7 S7 S7"
    assert total(sevens, E, "standard-48") == 20  # only the Dissle
    assert total(sevens, E, "grupp") == 1000 + 20


#: Presets scored by the numba kernel (a talon layout -- two-hand -- has its own scorer, binokel_sim.melds.twohand).
BID_PRESETS = sorted(p for p in preset_names() if load_rules(p).layout.kind == "bid")


def test_explain_names():
    r = load_rules()
    names = [(m.name, m.suit, m.points) for m in explain(Hand.parse(DOUBLE_FAMILY + " GO GO SU SU HK HO"), H, r)]
    assert names == [("double family", "E", 1000), ("trump pair", "H", 40), ("double binokel", None, 300)]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(BID_PRESETS), st.lists(st.integers(0, 2), min_size=24, max_size=24),
       st.integers(-1, 3))
def test_kernel_agrees_with_explain(preset, counts, trump):
    r = load_rules(preset)
    c = np.array(counts, dtype=np.uint8)
    if not r.layout.sevens:
        c[5::6] = 0
    assert int(meld_total(c, trump, r.meld_array())) == explain_total(Hand(c), trump, r)
    tot = np.empty(4, dtype=np.int64)
    totals_by_trump(c, r.meld_array(), tot)
    assert list(tot) == [explain_total(Hand(c), t, r) for t in range(4)]
    value, t = best_trump(c, r.meld_array())
    assert value == tot.max() and tot[t] == value


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BID_PRESETS), st.lists(st.integers(0, 2), min_size=24, max_size=24),
       st.integers(0, 23), st.integers(0, 3))
def test_adding_a_card_never_lowers_melds(preset, counts, card, trump):
    t = load_rules(preset).meld_array()
    c = np.array(counts, dtype=np.uint8)
    c[card] = min(c[card], 1)
    more = c.copy()
    more[card] += 1
    assert meld_total(more, trump, t) >= meld_total(c, trump, t)


def brute_best_kept(counts, keep, table):
    cards = cards_of(counts)
    best = -1
    for kept in itertools.combinations(range(len(cards)), keep):
        k = counts_of([cards[i] for i in kept], check=False)
        best = max(best, max(int(meld_total(k, t, table)) for t in range(4)))
    return best


# A meld-rich pool (no tens, few Aces) forces the exact search beyond the free discards.
MELDY = [c for c in range(24) if c % 6 in (0, 2, 3, 4)]


@pytest.mark.parametrize("preset,size,keep", [("standard", 16, 12), ("grupp", 18, 15), ("four-solo", 13, 9)])
def test_best_kept_matches_brute_force(preset, size, keep):
    r = load_rules(preset)
    t = r.meld_array()
    rng = np.random.default_rng(42)
    pool = np.repeat(np.array(MELDY + ([c for c in range(24) if c % 6 == 1][:2]), dtype=np.int64), 2)
    for _ in range(12):
        hand = counts_of(rng.choice(pool, size=size, replace=False), check=False)
        value, trump = best_kept(hand, keep, t)
        assert value == brute_best_kept(hand, keep, t)
        assert value <= best_trump(hand, t)[0]
