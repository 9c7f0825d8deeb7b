"""The heuristic player of two-hand Binokel (docs/rules.md §10): deterministic, so a seeded deal fixes the play.

Rules (``held`` = hand + own melds on the table, a count vector):

* **Meld**: after winning a trick while the talon lasts, first exchange a held trump
  Seven for the turned card when the option allows and the turned card is not a
  Seven; then declare the declaration that gains most (always, when there is one).
* **Lead** (talon open): the card with the smallest *keep key* -- plain before trump,
  then cards not in a meld prospect before those that are, then fewest card points,
  then lowest rank. A card is in a meld prospect when some combination of the meld
  table contains it and the player holds another card type of that combination.
* **Follow** (talon open): win the trick with the cheapest winning card (smallest keep
  key, a card of the led suit before a trump) when the led card is an Ace or a Ten,
  or when winning lets him declare a meld worth at least ``MELD_WIN`` points; else
  throw the card with the smallest keep key.
* **Endgame** (talon exhausted, only to measure it against the exact play): lead a
  plain Ace if held, else the smallest keep key; follow with the cheapest legal
  winning card when the trick holds 10 or more card points or the winner costs no more
  than the led card, else the cheapest legal card.

No randomness: a deal and the rules fix the play. Ties go to the lower card type.

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.cards import parse_cards, counts_of, format_card
>>> from binokel_sim.melds.twohand import meld_table, MeldState
>>> p = Heuristic(meld_table(load_rules("two-hand"))[0])
>>> held = list(counts_of(parse_cards("EK EO G7 HA")))
>>> format_card(p.lead(held, 0))                                  # plain Seven first
'G7'
>>> format_card(p.follow(held, parse_cards("H10")[0], 0, MeldState(), True, 0xFFFFFF))   # a Ten led: win it
'HA'
"""

from __future__ import annotations

from binokel_sim.cards import CARD_POINTS, RANK_A
from binokel_sim.play.legal import beats

#: A follower wins a trick it need not win when that lets it declare at least this many points.
MELD_WIN = 40
_PTS = [int(x) for x in CARD_POINTS]


class Heuristic:
    """Decisions for one trump: ``combos`` are that trump's combinations (:func:`.melds.meld_table`)."""

    def __init__(self, combos) -> None:
        self.combos = combos
        self.trump = -1
        self._members = [[c for c in combos if any(t == card for t, _ in c.need)] for card in range(24)]

    def key(self, held, card: int, trump: int) -> tuple:
        prospect = any(any(held[t] and t != card for t, _ in c.need) for c in self._members[card])
        return (card // 6 == trump, prospect, _PTS[card], -(card % 6), card)

    def lead(self, held, trump: int) -> int:
        return min((c for c in range(24) if held[c]), key=lambda c: self.key(held, c, trump))

    def follow(self, held, led: int, trump: int, state, talon_open: bool, legal: int) -> int:
        cards = [c for c in range(24) if held[c] and (legal >> c) & 1]
        winners = [c for c in cards if beats(c, led, trump)]
        if talon_open:
            want = _PTS[led] >= 10 or self._meld_after_win(held, state) >= MELD_WIN
        else:
            want = _PTS[led] >= 10 or bool(winners and min(_PTS[c] for c in winners) <= _PTS[led])
        if winners and want:
            return min(winners, key=lambda c: (c // 6 != led // 6,) + self.key(held, c, trump))
        if talon_open:
            return min(cards, key=lambda c: self.key(held, c, trump))
        return min(cards, key=lambda c: (_PTS[c], c // 6 == trump, -(c % 6), c))

    def endgame_lead(self, held, trump: int) -> int:
        aces = [c for c in range(24) if held[c] and c % 6 == RANK_A and c // 6 != trump]
        return aces[0] if aces else self.lead(held, trump)

    def _meld_after_win(self, held, state) -> int:
        d = state.best(held, self.combos)
        return d.gain if d is not None else 0
