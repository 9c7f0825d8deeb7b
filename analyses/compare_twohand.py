"""The figures of :mod:`binokel_sim.analyses.compare` that apply to a talon layout (two-hand).

Two-hand has no auction, Tapp or Durch, so only the meld rates of a dealt hand that
mean the same thing carry over (the dealt 12 of :mod:`binokel_sim.twohand.odds`); every
other figure is a row with value NaN and ``n`` 0, and its name is listed in
``not_applicable`` (the CLI prints them).

>>> from binokel_sim.rules import load_rules
>>> events = {"four_A": "four Aces in hand", "four_U": "four Unters in hand", "family_E": "family (one suit) in hand"}
>>> rows, na = twohand_rows(load_rules("two-hand"), deals=200, seed=1, meld_events=events)
>>> [r["figure"] for r in rows if r["n"]][:2], "Tapp meld value" in na
(['four Aces in hand', 'four Unters in hand'], True)
"""

from __future__ import annotations

import math
from typing import Any

from binokel_sim.rules import Rules

#: compare's figure -> the two-hand event (scope ``dealt``) that means the same.
APPLIES = {"four Aces in hand": "four_A", "four Unters in hand": "four_U", "binokel in hand": "binokel",
           "double binokel in hand": "double_binokel"}


def twohand_rows(rules: Rules, deals: int, seed: int,
                meld_events: dict[str, str]) -> tuple[list[dict[str, Any]], list[str]]:
    """(rows of the long compare table, names of the figures that do not apply).

    ``meld_events``: the compare table's meld figures (event code -> player words).
    """
    from binokel_sim.analyses.meld_odds_twohand import meld_odds_twohand

    df = meld_odds_twohand(rules, max(deals, 2), seed)
    dealt = df[df["scope"] == "dealt"].set_index("event")
    rows, na = [], []
    for figure in meld_events.values():
        if figure in APPLIES:
            r = dealt.loc[APPLIES[figure]]
            rows.append({"rules": rules.name, "study": "melds", "figure": figure, "value": float(r["value"]),
                         "se": float(r["stderr"]), "n": int(r["n"])})
        else:
            na.append(figure)
    na += ["mean best melds, hand", "mean best melds kept, hand + Tapp", "Tapp meld value",
           "sure Durch with the Tapp (seat 0)", "every play figure (no auction: see simulate games)"]
    rows += [{"rules": rules.name, "study": "n/a", "figure": f, "value": math.nan, "se": math.nan, "n": 0}
             for f in na[:-1]]
    return rows, na
