"""Card text: canonical and German/English names, round trips, errors."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, strategies as st

from binokel_sim.cards import (CARD_POINTS, CARD_TEXT, RANKS, SUITS, Hand, N_TYPES, card_type, counts_of,
                               format_cards, parse_card, parse_cards, parse_suit)
from binokel_sim.errors import InputError


@pytest.mark.parametrize("text,expected", [
    ("GO", "GO"), ("s10", "S10"), ("E7", "E7"), ("Grün Ober", "GO"), ("gruen ober", "GO"),
    ("Schippe-Ober", "GO"), ("leaves ober", "GO"), ("Schellen Unter", "SU"), ("bells unter", "SU"),
    ("Eichel Ass", "EA"), ("acorns ace", "EA"), ("ace of acorns", "EA"), ("Herz König", "HK"),
    ("Bollen Zehn", "S10"), ("Laub Sieben", "G7"), ("hearts king", "HK"), ("Daus Eichel", "EA"),
    ("Gras Ober", "GO"), ("Gras Daus", "GA"),
])
def test_names_parse_to_canonical(text, expected):
    assert format_cards(parse_cards(text)) == expected


def test_hand_with_commas_and_names():
    assert format_cards(parse_cards("EA, E10,Grün Ober  bells unter")) == "EA E10 GO SU"


@pytest.mark.parametrize("bad", ["XY", "E9", "G11", "Grün", "ober", "EA Herz"])
def test_bad_card_text_names_the_token(bad):
    with pytest.raises(InputError, match=r"unknown (card|rank|suit)|needs a rank") as exc:
        parse_cards(bad)
    # The word at fault is named: 'Herz' (no rank after it), not 'EA'.
    assert repr(bad.split()[-1]) in str(exc.value)


@pytest.mark.parametrize("text,named", [("Grün Kaiser", "'Kaiser'"), ("Ober Kaiser", "'Kaiser'"),
                                        ("EA Herz Kaiser", "'Kaiser'")])
def test_the_unknown_word_is_named(text, named):
    with pytest.raises(InputError) as exc:
        parse_cards(text)
    # The first word quoted is the one at fault.
    assert str(exc.value).split("'")[1] == named.strip("'"), str(exc.value)


@pytest.mark.parametrize("text,suit", [("E", 0), ("green", 1), ("Grün", 1), ("leaves", 1), ("Schippe", 1),
                                       ("hearts", 2), ("Herz", 2), ("bells", 3), ("s", 3), ("none", None)])
def test_one_trump_parser_for_every_command(text, suit):
    from binokel_sim.cards import parse_trump
    from binokel_sim.play.solver import parse_trump as solver_trump

    assert parse_trump(text) == suit and solver_trump(text) == suit
    with pytest.raises(InputError, match="unknown trump 'purple'"):
        parse_trump("purple")


def test_three_copies_rejected():
    with pytest.raises(InputError, match="EA appears 3 times"):
        counts_of(parse_cards("EA EA EA"))


def test_parse_card_and_suit():
    assert parse_card("HA") == 12
    assert [parse_suit(s) for s in ("E", "g", "Herz", "bells")] == [0, 1, 2, 3]
    with pytest.raises(InputError):
        parse_suit("X")
    with pytest.raises(InputError):
        parse_card("EA EK")


def test_card_points_total_240_for_40_cards():
    deck40 = [c for c in range(N_TYPES) if c % 6 != 5]
    assert 2 * sum(int(CARD_POINTS[c]) for c in deck40) == 240


@given(st.lists(st.integers(0, N_TYPES - 1), max_size=30))
def test_round_trip_canonical(cards):
    assert parse_cards(format_cards(cards)) == cards


@given(st.lists(st.integers(0, N_TYPES - 1), max_size=20).filter(
    lambda cs: all(cs.count(c) <= 2 for c in cs)))
def test_hand_round_trip(cards):
    h = Hand.from_cards(cards)
    assert Hand.parse(str(h)) == h
    assert len(h) == len(cards)
    assert h.points == sum(int(CARD_POINTS[c]) for c in cards)
    assert sorted(h.to_list()) == sorted(CARD_TEXT[c] for c in cards)


@pytest.mark.parametrize("copies", [255, 256, 257, 258, 3334])
def test_a_long_hand_is_refused_before_counting(capsys, copies):
    """One byte per card type wrapped at 256: 258 aces read as two. The length is checked first, in any width."""
    from clitools import run_cli

    with pytest.raises(InputError, match=f"^{copies} cards given; the largest deck has 48$"):
        counts_of(parse_cards("EA " * copies))
    code, out, err = run_cli(capsys, "melds", "EA " * copies)
    assert (code, out, err.strip()) == (2, "", f"error: hand: {copies} cards given; the largest deck has 48")
    code, _, err = run_cli(capsys, "melds", "EA " * 256 + "GA")
    assert code == 2 and "257 cards given" in err


def test_copies_counted_past_a_byte():
    """Within the deck's size a card too many is named with its true count; a count vector is never cast with wrap."""
    with pytest.raises(InputError, match="card EA appears 40 times"):
        counts_of(parse_cards("EA " * 40))
    with pytest.raises(InputError, match="300 cards given"):
        counts_of([0] * 300, check=False)
    with pytest.raises(InputError, match="whole numbers 0..255"):
        Hand(np.full(24, 256))
    assert Hand(np.full(24, 2)).counts.sum() == 48


def _doc_tables(path: Path) -> list[list[str]]:
    """The rows of every Markdown table in section 1 of ``path`` (cells stripped)."""
    text = path.read_text(encoding="utf-8")
    sec = text[text.index("## 1. Cards and notation"):text.index("## 2.")]
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in sec.splitlines()
            if line.startswith("|") and not line.startswith("|---")]


def test_every_card_name_the_rules_page_lists_parses_to_its_card():
    """Rules §1 lists the suit and rank names a player may type; each one, beside a name of the other kind,
    reads as the card of its row (the German, English and 'names read' columns; French-suited ones aside)."""
    rows = _doc_tables(Path(__file__).resolve().parents[2] / "docs" / "rules.md")
    checked = 0
    for row in rows:
        letter = row[0].strip("`")
        if letter and letter in SUITS:
            names = [n for cell in (row[1:3] if len(row) > 3 else row[1:2]) for n in cell.split(",")]
            want = card_type(SUITS.index(letter), RANKS.index("O"))
            make = lambda n: f"{n} Ober"  # noqa: E731
        elif letter and letter in RANKS:
            names = [n for cell in (row[1:3] if len(row) > 3 else row[1:2]) for n in cell.split(",")]
            want = card_type(SUITS.index("H"), RANKS.index(letter))
            make = lambda n: f"Herz {n}"  # noqa: E731
        else:
            continue
        for name in names:
            name = name.split("(")[0].strip()  # "ober (over)": the name and its gloss
            if name:
                assert parse_cards(make(name)) == [want], (letter, name)
                checked += 1
    assert checked >= 70  # both tables of names: a renamed heading would leave them unread
