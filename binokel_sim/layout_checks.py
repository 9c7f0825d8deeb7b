"""Checks of a rules set beyond types: keys that only one kind of layout reads (docs/rules.md
§2, §7, §10: setting one under the other kind is an error naming the key, never a silent
no-op) and a meld table that never falls when a card is added (§5).

>>> from binokel_sim.rules import load_rules
>>> check_kind(load_rules("two-hand")) is None
True
"""

from __future__ import annotations

from binokel_sim.errors import InputError

#: Meld keys the two-hand table does not have (each must be 0 there).
TALON_LACKS = ("family", "double_family", "trump_double_family", "double_pair", "trump_double_pair",
               "eight_tens", "eight_sevens")


def check_kind(r) -> None:
    """Keys that only one kind of layout reads must not be set under the other."""
    lay = r.layout
    if r.scoring.dealer_bonus and not lay.dealer_sits_out:
        raise InputError(f"scoring.dealer_bonus: set to {r.scoring.dealer_bonus}, but in layout {lay.name!r} "
                         f"the dealer does not sit out (layout.dealer_sits_out)")
    if lay.kind == "talon":
        if not lay.sevens:
            raise InputError("layout.sevens: the talon game is played with 48 cards")
        if lay.teams or lay.dealer_sits_out:
            raise InputError(f"layout.{'teams' if lay.teams else 'dealer_sits_out'}: not available at a talon layout")
        for k in TALON_LACKS:
            if getattr(r.melds, k):
                raise InputError(f"melds.{k}: layout {lay.name!r} (two-hand) has no such meld; set it to 0")
    else:
        if r.melds.grand_binokel:
            raise InputError(f"melds.grand_binokel: layout {lay.name!r} has no such meld (two-hand only)")
        if lay.dealer_sits_out and lay.players != 3:
            raise InputError("layout.dealer_sits_out: the dealer sits out only at a table of 3 active players")


def check_monotone(m) -> None:
    """A card added to a hand must never lower its melds: the exchange optimiser relies on it.

    Adding a card can turn a pair into part of a family, so the family must be worth at
    least what it absorbs; a double must be worth at least its single.
    """
    for pre in ("", "trump_"):
        fam, dfam = getattr(m, pre + "family"), getattr(m, pre + "double_family")
        pair, dpair = getattr(m, pre + "pair"), getattr(m, pre + "double_pair")
        if fam < pair or fam + pair < dpair or dfam < fam + pair or dpair < pair:
            raise InputError(
                f"melds.{pre}family/{pre}double_family/{pre}pair/{pre}double_pair: table not monotone "
                f"(need family >= pair, family + pair >= double pair, double family >= family + pair)"
            )
    for r in m.four:
        if m.eight[r] < m.four[r]:
            raise InputError(f"melds.eight.{r}: must be at least melds.four.{r}")
    if m.double_binokel < m.binokel:
        raise InputError("melds.double_binokel: must be at least melds.binokel")
