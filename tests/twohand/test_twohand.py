"""Two-hand Binokel rules data, melds, legal moves and odds (docs/rules.md §10)."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from binokel_sim.cards import counts_of, format_cards, parse_cards
from binokel_sim.errors import InputError
from binokel_sim.play.legal import counts_mask, mask_cards
from binokel_sim.rules import load_rules
from binokel_sim.twohand.legal import legal_twohand, perft_twohand
from binokel_sim.melds.twohand import MeldState, meld_table, static_score
from binokel_sim.analyses.meld_odds_twohand import meld_odds_twohand
from binokel_sim.twohand.odds import exact_event

from clitools import assert_one_line_error
from twohand_reference import legal2, perft2

PERFT = Path(__file__).parents[1] / "data" / "twohand_perft.txt"
RULES = load_rules("two-hand")
TABLE = meld_table(RULES)


def test_two_hand_preset_is_the_source_table():
    r = RULES
    assert (r.layout.kind, r.layout.players, r.layout.hand_size, r.layout.tapp_size, r.layout.deck_size) == \
        ("talon", 2, 12, 24, 48)
    m = r.melds
    assert (m.pair, m.trump_pair, m.trump_family, m.binokel, m.grand_binokel, m.double_binokel, m.dissle) == \
        (20, 40, 250, 40, 80, 300, 10)
    assert m.four == {"A": 100, "K": 80, "O": 60, "U": 40} and m.eight == {"A": 1000, "K": 800, "O": 600, "U": 400}
    assert (m.family, m.double_family, m.double_pair) == (0, 0, 0)
    assert (r.talon.seven_exchange, r.talon.must_head, r.talon.turned_seven, r.game.target, r.game.aus) == \
        (True, True, 10, 1000, True)


@pytest.mark.parametrize("cards, trump, points", [
    ("EA E10 EK EO EU", 0, 250),              # trump family alone: its K and O are no pair too
    ("EA E10 EK EO EU", 1, 20),               # not trump: just a plain pair (no plain family in the table)
    ("EA E10 EK EO EU EK EO", 0, 290),        # family + a second, separate trump pair
    ("EA E10 EK EO EU EO", 0, 250),           # a second Ober alone: the family's King pairs with no other Ober
    ("EK EO EO", 1, 20),                      # a King never pairs with two Obers
    ("EK EK EO", 1, 20),                      # nor an Ober with two Kings
    ("EK EK EO EO", 1, 40),                   # two pairs of one suit
    ("GK GO EO HO SO SU", 0, 160),            # leaf pair 20 + four Obers 60 + grand binokel 80
    ("GK GO EO HO SO SU", 1, 180),            # trump pair 40 + four Obers 60 + grand binokel 80
    ("GO SU", 2, 40),                         # binokel
    ("GO GO SU SU", 2, 300),                  # double binokel
    ("EK GK HK SK EK GK HK SK", 3, 800),      # eight Kings (not 2 x 80)
    ("EA GA HA SA", 3, 100),
    ("E10 G10 H10 S10 E10 G10 H10 S10", 0, 0),  # tens never score
])
def test_static_meld_scores_hand_checked(cards, trump, points):
    assert static_score(parse_cards(cards), trump, TABLE) == points


def _declare(st, cards, trump=0):
    d = st.best(list(counts_of(parse_cards(cards))), TABLE[trump])
    return None if d is None else (d.combo.name, st.declare(d))


def test_declarations_add_to_melds_and_keep_the_exclusions():
    st = MeldState()
    assert _declare(st, "EK EO") == ("trump pair E", 40)
    assert _declare(st, "EK EO") is None  # the same King and Ober cannot pair again
    assert _declare(st, "EA E10 EK EO EU") == ("trump family E", 210)  # added to: 250 in all
    assert _declare(st, "EA E10 EK EO EU") is None
    st2 = MeldState()
    assert _declare(st2, "EA GA HA SA") == ("four A", 100)
    assert _declare(st2, "EA GA HA SA EA GA HA SA") == ("eight A", 900)
    st3 = MeldState()
    assert _declare(st3, "GO SU") == ("binokel", 40)
    assert _declare(st3, "GO GO SU SU") == ("double binokel", 260)


def test_a_played_meld_card_does_not_free_its_partner():
    st = MeldState()
    held = list(counts_of(parse_cards("HK HO")))
    st.declare(st.best(held, TABLE[0]))
    held[parse_cards("HK")[0]] -= 1
    st.played(parse_cards("HK")[0], 0)
    held[parse_cards("HK")[0]] += 1  # the other King drawn later: the Ober already paired
    assert st.best(held, TABLE[0]) is None


def _legal(hand, led, trump, open_, head):
    m = counts_mask(counts_of(parse_cards(hand)))
    c = parse_cards(led)[0]
    return format_cards(mask_cards(legal_twohand(m, c, c, trump, open_, head)))


def test_legal_moves_per_phase():
    # Talon open: any card, even with the led suit in hand.
    assert _legal("EA EU HU G7", "EK", 2, True, True) == "EA EU G7 HU"
    # Exhausted: follow suit (and head it with the option), else trump, else anything.
    assert _legal("EA EU HU G7", "EK", 2, False, True) == "EA"
    assert _legal("EA EU HU G7", "EK", 2, False, False) == "EA EU"
    assert _legal("HA HU G7", "EK", 2, False, False) == "HA HU"
    assert _legal("HA HU G7", "SK", 0, False, True) == "G7 HA HU"


def _perft_rows():
    for line in PERFT.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            hands, trump, leader, phase, depth, count = (x.strip() for x in line.split("|"))
            yield hands, "EGHS".index(trump), int(leader), phase, int(depth), int(count)


def test_perft_file_covers_every_phase():
    assert {r[3] for r in _perft_rows()} == {"open", "head", "follow"}


@pytest.mark.parametrize("row", list(_perft_rows()), ids=lambda r: f"{r[3]}-d{r[4]}")
@pytest.mark.slow
def test_perft_counts(row):
    hands, trump, leader, phase, depth, count = row
    hs = [parse_cards(h) for h in hands.split("/")]
    counts = np.stack([counts_of(h) for h in hs])
    assert perft_twohand(counts, trump, leader, depth, phase == "open", phase == "head") == count
    assert perft2(tuple(tuple(sorted(h)) for h in hs), (), leader, trump, phase, depth) == count


def test_reference_legal_agrees_on_random_hands():
    rng = np.random.default_rng(4)
    for _ in range(400):
        deck = rng.permutation(np.repeat(np.arange(24), 2))
        hand, led, trump = sorted(int(c) for c in deck[:6]), int(deck[6]), int(rng.integers(4))
        for phase in ("open", "head", "follow"):
            m = counts_mask(counts_of(hand))
            got = mask_cards(legal_twohand(m, led, led, trump, phase == "open", phase == "head"))
            assert got == legal2(tuple(hand), (led,), trump, phase)


def test_exact_odds_hand_checked():
    # A trump Seven among 12 of the 47 unseen cards: the turned card is a Seven with probability 1/6.
    p = (1 / 6) * (12 / 47) + (5 / 6) * (1 - math.comb(45, 12) / math.comb(47, 12))
    assert exact_event("trump_seven", 12, False) == pytest.approx(p, rel=1e-12)
    # Four Aces in 24 cards, no turned card held: average over whether the turned card is an Ace.
    def four(single):  # inclusion-exclusion over the suits missing an Ace; `single`: suits with one Ace left
        pools = [1] * single + [2] * (4 - single)
        miss = sum((-1) ** len(m) * math.comb(47 - sum(pools[i] for i in m), 24)
                   for r in range(5) for m in itertools.combinations(range(4), r))
        return miss / math.comb(47, 24)
    assert exact_event("four_A", 24, False) == pytest.approx((1 / 6) * four(1) + (5 / 6) * four(0), rel=1e-12)


def test_monte_carlo_odds_agree_with_exact():
    df = meld_odds_twohand(RULES, 40_000, seed=3, exact=True)
    assert len(df) == 45 and set(df["scope"]) == {"dealt", "talon-out-no-turned", "talon-out-with-turned"}
    ok = df[df["stderr"] > 0]
    assert (ok["z"].abs() < 4.5).all(), ok.loc[ok["z"].abs().idxmax()].to_dict()
    assert df.attrs["seed"] == 3 and df.attrs["deals"] == 40_000


@pytest.mark.parametrize("toml, key", [
    ('inherits = "two-hand"\nname = "x"\n[layout]\nhand_size = 15\n', "layout: 2 x 15 cards"),
    ('inherits = "two-hand"\nname = "x"\n[melds]\ndouble_family = 1000\n', "melds.double_family"),
    ('inherits = "standard"\nname = "x"\n[melds]\ngrand_binokel = 80\n', "melds.grand_binokel"),
    ('inherits = "standard"\nname = "x"\n[scoring]\ndealer_bonus = 200\n', "scoring.dealer_bonus"),
    ('inherits = "standard"\nname = "x"\n[talon]\nmust_head = false\n', "talon:"),
    ('inherits = "four-dealer-out"\nname = "x"\n[layout]\nplayers = 4\nhand_size = 11\ntapp_size = 4\n',
     "layout.dealer_sits_out"),
])
def test_bad_rules_one_line_exit_2(tmp_path, capsys, toml, key):
    f = tmp_path / "r.toml"
    f.write_text(toml)
    with pytest.raises(InputError, match=key.replace(".", r"\.")):
        load_rules(str(f))
    assert_one_line_error(capsys, "odds", "melds", "--rules", str(f), "--deals", "10", contains=key)
    assert_one_line_error(capsys, "simulate", "games", "--rules", str(f), "--games", "1", contains=key)


def test_compare_takes_two_hand_and_names_what_does_not_apply():
    from binokel_sim.analyses.compare import compare

    df = compare([RULES], deals=400, played=2, seed=1)
    rows = df.set_index("figure")
    assert rows.loc["binokel in hand", "n"] == 800 and 0.1 < rows.loc["binokel in hand", "value"] < 0.3
    na = df.attrs["not_applicable"]["two-hand"]
    assert "Tapp meld value" in na and "sure Durch with the Tapp (seat 0)" in na
    assert rows.loc["Tapp meld value", "n"] == 0 and "soloist score per deal" not in rows.index


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=24, max_size=24), st.integers(0, 23), st.integers(0, 3))
def test_adding_a_card_never_lowers_two_hand_melds(counts, card, trump):
    counts[card] = min(counts[card], 1)
    cards = [c for c in range(24) for _ in range(counts[c])]
    assert static_score(cards + [card], trump, TABLE) >= static_score(cards, trump, TABLE)


def test_melds_command_scores_the_two_hand_table(capsys):
    from clitools import run_json

    out = run_json(capsys, "melds", "GK GO EO HO SO SU", "--rules", "two-hand")
    assert out["best_trump"] == "G" and out["total"] == 180
    assert [m["name"] for m in out["melds"]] == ["trump pair", "four Obers", "grand binokel"]


@pytest.mark.parametrize("args", [("odds", "tapp", "--deals", "10"), ("odds", "bids", "--deals", "10"),
                                  ("bid", "EA,EA,E10,E10,EK,EK,EO,EO,EU,EU,HA,HA")])
def test_auction_studies_refuse_two_hand(capsys, args):
    assert_one_line_error(capsys, *args, "--rules", "two-hand", contains="no auction or Tapp")
