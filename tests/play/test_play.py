"""Legal moves and trick winners (docs/rules.md §6): hand-checked cases and perft counts."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from binokel_sim.cards import counts_of, format_cards, parse_cards
from binokel_sim.play.legal import format_legal, legal_cards, perft, trick_winner_of

PERFT = Path(__file__).parents[1] / "data" / "perft_positions.txt"
H, G, E, NONE = 2, 1, 0, None


def legal(hand: str, trick: str, trump) -> str:
    return format_legal(counts_of(parse_cards(hand)), parse_cards(trick) if trick else [], trump)


@pytest.mark.parametrize(
    "hand, trick, trump, expected",
    [
        ("EA E10 HU GK", "", H, "EA E10 GK HU"),          # any card may be led
        ("EA EU GK", "E10", NONE, "EA"),                  # must beat: the Ace goes onto the ten
        ("EK EU GK", "E10", NONE, "EK EU"),               # cannot beat: any card of the suit
        ("EA EU GK", "E10 HU", H, "EA EU"),               # trump wins a plain trick: any card of the suit
        ("EA EU", "EO EK", NONE, "EA"),                   # beat the winning card, not the led one
        ("HU GK", "EA", H, "HU"),                         # void: must trump
        ("HK HU GK", "EA HO", H, "HK"),                   # must overtrump
        ("HU GK", "EA HO", H, "HU"),                      # cannot overtrump: any trump
        ("GK SO", "EA HO", H, "GK SO"),                   # neither suit nor trump: any card
        ("HA HK", "HO", H, "HA HK"),                      # trump led: beat it
        ("EA EA EU", "E10", NONE, "EA"),                  # identical cards are one move
        ("EA", "EA", NONE, "EA"),                         # a twin is legal even though it cannot win
        ("GK SO", "EA", NONE, "GK SO"),                   # no trump: void means any card
    ],
)
def test_legal_hand_checked(hand, trick, trump, expected):
    assert legal(hand, trick, trump) == expected


@pytest.mark.parametrize(
    "trick, trump, expected",
    [
        ("EA EA", NONE, 0),          # first of two identical cards wins
        ("EK EA EA", NONE, 1),
        ("E10 GA EK", NONE, 0),      # off-suit never wins without trump
        ("E10 GU EA", G, 1),         # any trump beats the led suit
        ("E10 GU GO", G, 2),         # overtrump
        ("E10 GU GU", G, 1),         # twin trump: the first wins
        ("HU HO HK HA", NONE, 3),
    ],
)
def test_trick_winner(trick, trump, expected):
    assert trick_winner_of(parse_cards(trick), trump) == expected


def _perft_rows():
    for line in PERFT.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        hands, trump, leader, trick, depth, count = (x.strip() for x in line.split("|"))
        yield hands, trump, int(leader), trick, int(depth), int(count)


def test_perft_file_has_every_layout():
    rows = list(_perft_rows())
    assert len(rows) >= 9
    seats = {len(r[0].split("/")) for r in rows}
    assert seats == {3, 4}
    assert any("7" in r[0] for r in rows) and any(r[3] != "-" for r in rows)


@pytest.mark.parametrize("row", list(_perft_rows()), ids=lambda r: f"{len(r[0].split('/'))}seats-d{r[4]}")
@pytest.mark.slow
def test_perft(row):
    hands, trump, leader, trick, depth, count = row
    counts = np.stack([counts_of(parse_cards(h)) for h in hands.split("/")])
    played = parse_cards(trick) if trick != "-" else []
    buf = np.array(played + [0] * 4, dtype=np.int64)
    t = -1 if trump == "none" else "EGHS".index(trump)
    to_move = (leader + len(played)) % counts.shape[0]
    assert perft(counts, t, to_move, buf, len(played), depth) == count


def test_perft_small_by_hand():
    # Seat 0 leads EA or GK; after EA, seat 1 must play E10 (follow, cannot beat), seat 2 any E: EK or EU;
    # after GK, seat 1 is void and has no trump rule: E10 or SA, seat 2 must beat: GA. 2 + 2 = 4 sequences.
    counts = np.stack([counts_of(parse_cards(h)) for h in ("EA GK", "E10 SA", "EK EU GA")])
    assert perft(counts, -1, 0, np.zeros(4, np.int64), 0, 3) == 4
    assert format_cards(legal_cards(counts[2], parse_cards("GK SA"), None)) == "GA"
