"""The answers the web page and its JSON API give: the Python API's, in strict JSON (no NaN).

Each function takes a preset *name* (a page never names a file on the server: :func:`preset`) and card
text, validates them as the CLI does (:class:`~binokel_sim.errors.InputError`, one line) and returns a
JSON-ready dict.

>>> melds_answer("standard", "EA EA E10 EK EO EU GA G10 HA H10 SA S10")["best"]["total"]
250
>>> try:
...     preset("../../etc/passwd")
... except InputError as e:
...     print(str(e).split(" (")[0])
rules: unknown preset '../../etc/passwd'
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from binokel_sim.cards import CARD_TEXT, DECK_COUNTS, RANKS, SUIT_NAMES_DE, SUITS, Hand, format_cards
from binokel_sim.dealing.hand_input import read_hand
from binokel_sim.errors import InputError
from binokel_sim.game.bid_answer import instant_bid
from binokel_sim.output import finite
from binokel_sim.rules import Rules, load_rules
from binokel_sim.rules_files import preset_names


def preset(name: str) -> Rules:
    """The rules of preset ``name``; a path or an unknown name is refused in one line."""
    names = preset_names()
    if name not in names:
        raise InputError(f"rules: unknown preset {name!r} (known: {', '.join(names)})")
    return _rules(name)


@cache
def _rules(name: str) -> Rules:
    return load_rules(name)


def presets_answer() -> list[dict[str, Any]]:
    """Every preset with what a page needs to deal cards: the deck's card types and copies, hand and Tapp
    size, seats, and whether there is an auction (the bid, Tapp and table pages need one)."""
    out = []
    for name in preset_names():
        r = _rules(name)
        deck = DECK_COUNTS[r.layout.sevens]
        out.append({"name": name, "description": r.description, "hand_size": r.layout.hand_size,
                    "tapp_size": r.layout.tapp_size, "seats": r.n_seats, "auction": r.layout.kind == "bid",
                    "min_bid": r.bidding.min_bid, "bid_step": r.bidding.bid_step,
                    "suits": [{"letter": s, "name": SUIT_NAMES_DE[i]} for i, s in enumerate(SUITS)],
                    "cards": [{"card": CARD_TEXT[t], "suit": CARD_TEXT[t][0], "rank": CARD_TEXT[t][1:],
                               "copies": int(deck[t])} for t in range(len(CARD_TEXT)) if deck[t] > 0],
                    "ranks": [k for k in RANKS if k != "7" or r.layout.sevens]})
    return out


def _hand(rules: Rules, hand: str) -> Hand:
    return read_hand(hand, rules, size=rules.layout.hand_size)


def cards_answer(rules: str, cards: str, what: str = "cards", size: int | None = None, ordered: bool = False
                 ) -> dict[str, Any]:
    """Typed card text read as the engine reads it: the cards in deck order (``ordered``: as given, e.g. the
    cards played), or the engine's one line naming the problem (``what``: the words it starts with).

    >>> cards_answer("standard", "Grün Ober, SU, ace of acorns", ordered=True)["cards"]
    ['GO', 'SU', 'EA']
    """
    from binokel_sim.cards import to_cards

    r = preset(rules)
    h = read_hand(cards, r, size=size, what=what)
    return {"rules": r.name, "cards": [CARD_TEXT[c] for c in to_cards(cards)] if ordered else h.to_list()}


def melds_answer(rules: str, hand: str) -> dict[str, Any]:
    """The hand's melds at its best trump (``best``) and at each trump (``by_trump``), each meld explained."""
    from binokel_sim.melds.report import meld_report

    r = preset(rules)
    h = _hand(r, hand)
    return {"rules": r.name, "hand": " ".join(h.to_list()), "best": meld_report(h, "best", r),
            "by_trump": {s: meld_report(h, s, r) for s in SUITS}}


def bid_answer(rules: str, hand: str, seat: int = 0, confidence: float = 0.8, objective: str = "own"
               ) -> dict[str, Any]:
    """The instant tier's ladder weighed against passing (``binokel bid --json``)."""
    from binokel_sim.evaluation.pass_value import check_objective

    r = preset(rules)
    check_objective(objective)
    return finite(instant_bid(hand, r, seat, confidence, objective).to_json())


def tapp_answer(rules: str, hand: str, seat: int = 0, tapp: str | None = None) -> dict[str, Any]:
    """What the Tapp is worth to this hand (its drawn Tapps through the exchange, from the instant tier),
    the exact meld odds of hand + Tapp, and with ``tapp`` (the cards turned up) the best discard and trump."""
    from binokel_sim.evaluation.exchange_choice import choose_exchange
    from binokel_sim.evaluation.instant import load_instant
    from binokel_sim.odds.hand_tapp import hand_tapp_odds

    r = preset(rules)
    r.require_auction("the Tapp page")
    h = _hand(r, hand)
    if not 0 <= seat < r.n_seats:
        raise InputError(f"seat: expected 0..{r.n_seats - 1} for preset {r.name!r}, got {seat}")
    model = load_instant(r)
    value = (model.advise(h.cards, r, seat).tapp_value.to_json() if model is not None else
             {"missing": f"no instant bid model fitted for rules {r.name!r}"})
    out: dict[str, Any] = {"rules": r.name, "hand": " ".join(h.to_list()), "seat": seat, "value": value,
                           "odds": hand_tapp_odds(h.cards, r).to_dict(), "exchange": None}
    if tapp:
        t = read_hand(tapp, r, size=r.layout.tapp_size, what="Tapp")
        ch = choose_exchange(h.cards, t.cards, r, policy="heuristic", seat=seat)  # checks hand + Tapp together
        c = ch.candidate
        out["exchange"] = {"tapp": " ".join(t.to_list()), "announce": ch.announce(), "contract": c.contract,
                           "trump": SUITS[c.trump] if c.trump >= 0 else None,
                           "discard": format_cards(c.discard), "kept": format_cards(c.kept), "kept_melds": c.melds,
                           "estimate": ch.estimate, "policy": "heuristic"}
    return finite(out)


def card_answer(rules: str, hand: str, seat: int, soloist: int, trump: str, played: str = "",
                tapp: str | None = None, melds: str | None = None, discards: str | None = None,
                leader: int | None = None, worlds: int = 20, seed: int = 1) -> dict[str, Any]:
    """``binokel card --json``: the single-dummy player's card for what the table showed."""
    from binokel_sim.play.advice import advise, card_json, table_view

    r = preset(rules)
    r.require_auction("card advice")
    view = table_view(r, hand, seat, soloist, trump, played, tapp or None, melds or None, discards or None, leader)
    a = advise(r, view, worlds, seed, False)
    return finite(card_json(r, view, a, soloist, False))


def compare_answer(names: list[str], deals: int = 20_000) -> dict[str, Any]:
    """The ``compare`` figures of presets side by side (meld odds on ``deals`` seeded deals, the played
    figures from the shipped corpora): ``rows`` of rules, figure, value, SE, interval, n; ``table`` as
    ``binokel compare`` prints it (a row per figure, a cell per preset)."""
    for n in names:
        preset(n)
    return _compare(tuple(names), deals)


@lru_cache(maxsize=16)
def _compare(names: tuple[str, ...], deals: int) -> dict[str, Any]:
    """Seeded, so the same presets give the same figures: kept for the server's life (a few seconds each)."""
    # analyses/ is mapped into the package by the install, out of mypy's reach (it checks binokel_sim/ only).
    from binokel_sim.analyses.compare import compare, wide  # type: ignore[import-not-found]

    df = compare([_rules(n) for n in names], deals=deals)
    # ``table``: the cells of `binokel compare`'s own table (value [95 % interval] n=N), one row per figure.
    return finite({"provenance": df.attrs.get("provenance", {}), "rows": df.to_dict(orient="records"),
                   "table": wide(df).to_dict(orient="records")})
