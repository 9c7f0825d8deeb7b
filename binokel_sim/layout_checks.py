"""Checks of a rules set beyond types: keys that only one kind of layout reads (docs/rules.md
§2, §7, §10: setting one under the other kind is an error naming the key, never a silent
no-op; likewise the options of fixed partnerships without ``layout.teams``), a jump step
on the bid step's grid (§3), and a meld table that never falls when a card is added (§5).

>>> from binokel_sim.rules import load_rules
>>> check_kind(load_rules("two-hand")) is None
True
"""

from __future__ import annotations

from binokel_sim.errors import InputError

#: Every numeric key's range (docs/rules.md §12), checked at load: generous for real play, and small
#: enough that no kernel overflows. The solver keeps its values (card points 240, the last trick, the
#: melds of up to two partners once they take a trick) in 16 bits under 30 000: at these maxima a hand
#: of 15 cards melds at most 12 000 and one of 11 (the partners at a table of four) 9 000, so a
#: side's value stays below 19 300. ``min_bid`` stops where the checked tier's first bids end (600).
RANGES: dict[str, tuple[int, int]] = {
    "layout.players": (2, 4), "layout.hand_size": (1, 24), "layout.tapp_size": (1, 47),
    "bidding.min_bid": (1, 600), "bidding.bid_step": (1, 1000), "bidding.jump_step": (0, 1000),
    "surrender.penalty_factor": (0, 10), "surrender.credit": (0, 10_000),
    **{f"melds.{k}": (0, 1000) for k in ("family", "trump_family", "pair", "trump_pair", "double_pair",
                                          "trump_double_pair", "four", "binokel", "dissle", "grand_binokel")},
    **{f"melds.{k}": (0, 3000) for k in ("double_family", "trump_double_family", "eight", "double_binokel",
                                          "eight_tens", "eight_sevens")},
    "play.last_trick": (0, 1000),
    "scoring.failure_factor": (0, 10), "scoring.dealer_bonus": (0, 10_000),
    "durch.value": (0, 10_000), "durch.open_value": (0, 10_000), "durch.open_hand_value": (0, 10_000),
    "durch.failure_factor": (0, 10), "durch.opponent_credit": (0, 10_000),
    "bettel.value": (0, 10_000), "bettel.failure_factor": (0, 10),
    "game.target": (1, 100_000),
    "talon.turned_seven": (0, 1000),
}

#: Meld keys the two-hand table does not have (each must be 0 there).
TALON_LACKS = ("family", "double_family", "trump_double_family", "double_pair", "trump_double_pair",
               "eight_tens", "eight_sevens")

#: Options that only fixed partnerships read (``layout.teams``): true without teams is an error.
TEAM_KEYS = ("play.partner_frees", "scoring.round_per_team", "scoring.team_trick_keeps_melds",
             "surrender.credit_per_team")


def _value(r, key: str):
    section, name = key.split(".")
    return getattr(getattr(r, section), name)


def check_kind(r) -> None:
    """Keys that only one kind of layout reads must not be set under the other.

    >>> import dataclasses
    >>> from binokel_sim.rules import load_rules
    >>> k = load_rules("standard")
    >>> check_kind(dataclasses.replace(k, play=dataclasses.replace(k.play, partner_frees=True)))
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: play.partner_frees: layout 'three' has no fixed partners (layout.teams)
    """
    lay = r.layout
    if r.scoring.dealer_bonus and not lay.dealer_sits_out:
        raise InputError(f"scoring.dealer_bonus: set to {r.scoring.dealer_bonus}, but in layout {lay.name!r} "
                         f"the dealer does not sit out (layout.dealer_sits_out)")
    for key in TEAM_KEYS:
        if _value(r, key) and not lay.teams:
            # Only fixed partnerships read these: set elsewhere they would be a silent no-op.
            raise InputError(f"{key}: layout {lay.name!r} has no fixed partners (layout.teams)")
    step, jump = r.bidding.bid_step, r.bidding.jump_step
    if jump % step:
        raise InputError(f"bidding.jump_step: must be 0 or a multiple of bidding.bid_step ({step}), got {jump}")
    if lay.players == 2 and r.play.beat_led_when_trumped:
        raise InputError(f"play.beat_led_when_trumped: layout {lay.name!r} has two seats, so no card follows "
                         "a trumped trick; set it to false")
    if lay.kind == "talon":
        if not lay.sevens:
            raise InputError("layout.sevens: the talon game is played with 48 cards")
        if lay.teams or lay.dealer_sits_out:
            raise InputError(f"layout.{'teams' if lay.teams else 'dealer_sits_out'}: not available at a talon layout")
        if not r.bidding.forehand_must_open or jump:
            key = "jump_step" if jump else "forehand_must_open"
            raise InputError(f"bidding.{key}: layout {lay.name!r} has no auction"
                             ' (layout.kind = "bid" only)')
        if r.game.decided_by != "soloist":
            raise InputError(f"game.decided_by: layout {lay.name!r} has no soloist; two-hand ties play on "
                             "(set \"soloist\")")
        for k in TALON_LACKS:
            if getattr(r.melds, k):
                raise InputError(f"melds.{k}: layout {lay.name!r} (two-hand) has no such meld; set it to 0")
    else:
        if r.melds.grand_binokel:
            raise InputError(f"melds.grand_binokel: layout {lay.name!r} has no such meld (two-hand only)")
        if r.calling.allowed and lay.teams:
            # The card would be called "from an opponent"; at fixed partnerships the holder may be the partner.
            raise InputError(f"calling.allowed: not available with fixed partners (layout {lay.name!r}, layout.teams)")
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


def check_rules(r) -> None:
    """Every check of a loaded rules set beyond its types: the layout adds up, the kind's keys, the teams,
    the meld table (each failure an :class:`InputError` naming the key)."""
    lay = r.layout
    talon = lay.kind == "talon"
    if lay.players not in ((2,) if talon else (2, 3, 4)):
        allowed = "2 at a talon layout" if talon else "2, 3 or 4"
        raise InputError(f"layout.players: expected {allowed}, got {lay.players}")
    if lay.players * lay.hand_size + lay.tapp_size != lay.deck_size:
        raise InputError(
            f"layout: {lay.players} x {lay.hand_size} cards + {'talon' if talon else 'Tapp'} {lay.tapp_size}"
            f" != {lay.deck_size}-card deck"
        )
    check_kind(r)
    if lay.teams:
        seats = sorted(s for t in lay.teams for s in t)
        if seats != list(range(lay.players)) or len(lay.teams) != 2:
            raise InputError(f"layout.teams: expected two teams covering seats 0..{lay.players - 1}")
    if not talon:
        check_monotone(r.melds)
