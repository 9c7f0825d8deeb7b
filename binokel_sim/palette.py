"""One palette for every chart: the suits in the colours of the cards, players and series apart.

German-suited cards print Eichel (acorns) brown, Grün (leaves) green, Herz (hearts) red
and Schellen (bells) gold; a chart that shows a suit uses that suit's colour, whatever
else is on it. Players, rule sets and other series take :data:`SERIES` in order (none
of them a suit colour, so a suit never looks like a player), and partners at
Kreuzbinokel share a hue but not a line style (:func:`player_style`).

>>> suit_colour("G"), suit_colour("Herz")
('#2e7d32', '#c62828')
>>> contract_colour("durch")
'#455a64'
>>> event_colour("family_H") == suit_colour("H"), event_colour("four_A") == NEUTRAL
(True, True)
"""

from __future__ import annotations

import re

from binokel_sim.errors import InputError

#: Suit letter -> colour as on the cards.
SUIT_COLOURS = {"E": "#8d5524", "G": "#2e7d32", "H": "#c62828", "S": "#e6a100"}
#: The special contracts: slate for Durch, violet for Bettel, grey for going out.
SPECIAL_COLOURS = {"durch": "#455a64", "bettel": "#7b1fa2", "surrender": "#9e9e9e"}
#: Players, rule sets, scopes: blue, black, teal, violet, pink, olive, grey, navy -- no suit colours.
SERIES = ("#1565c0", "#212121", "#00897b", "#6a1b9a", "#d81b60", "#827717", "#757575", "#283593")
#: Things of no suit drawn beside suits (four Aces, Binokel, meld totals): a neutral grey.
NEUTRAL = "#616161"

_SUIT_WORDS = {"e": "E", "eichel": "E", "acorns": "E", "g": "G", "grün": "G", "grun": "G", "gruen": "G",
               "leaves": "G", "schippe": "G", "h": "H", "herz": "H", "hearts": "H", "s": "S", "schellen": "S",
               "bells": "S"}


def suit_colour(suit: str) -> str:
    """The card colour of a suit given by letter or name (German or English)."""
    key = _SUIT_WORDS.get(str(suit).strip().lower())
    if key is None:
        raise InputError(f"no suit colour for {suit!r}")
    return SUIT_COLOURS[key]


def contract_colour(contract: str) -> str:
    """Colour of a contract as the tables name it: a suit (``E``, ``trump E``, ``Herz``) or a special."""
    c = str(contract).strip().lower()
    if c in SPECIAL_COLOURS:
        return SPECIAL_COLOURS[c]
    last = c.split()[-1] if c else c
    if last in _SUIT_WORDS:
        return suit_colour(last)
    return SERIES[-1]


def event_colour(code: str) -> str:
    """Colour of a meld event by its code name: its suit's colour (``family_E``, ``double_pair_S``,
    ``meld_mean_trump_G``), else :data:`NEUTRAL` (four of a kind, Binokel, meld totals, trump-relative events)."""
    m = re.fullmatch(r"(?:double_)?(?:family|pair)_([EGHS])|meld_(?:mean|pmf)_trump_([EGHS])(?:_\d+)?", str(code))
    return SUIT_COLOURS[m.group(1) or m.group(2)] if m else NEUTRAL


def series_colour(i: int) -> str:
    """The ``i``-th series colour (players, rule sets), cycling."""
    return SERIES[i % len(SERIES)]


def player_style(player: int, teams: tuple[tuple[int, ...], ...] | None = None) -> dict:
    """Matplotlib line keywords for a player: partners share their team's colour and differ
    in line style and marker, so neither hides the other.

    >>> player_style(2, ((0, 2), (1, 3)))["color"] == player_style(0, ((0, 2), (1, 3)))["color"]
    True
    """
    if teams:
        for t, team in enumerate(teams):
            if player in team:
                k = team.index(player)
                return {"color": series_colour(t), "linestyle": ("-", "--")[k % 2], "marker": ("o", "s")[k % 2],
                        "markersize": 3}
    return {"color": series_colour(player), "linestyle": "-", "marker": "o", "markersize": 3}
