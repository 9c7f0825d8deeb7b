"""One deal of two-hand Binokel (docs/rules.md §10): talon phase by the heuristic, endgame exact.

A dealt row (:class:`binokel_sim.dealing.dealer.Dealer` under a talon layout) is seat 0's
12 cards (forehand, who leads first), seat 1's 12 (the dealer), then the talon: ``row[24]``
is the turned card (trump suit; drawn last), ``row[25:]`` the face-down talon in drawing order.

Talon phase, 12 tricks: any card may be played; the trick winner takes the cards, may
exchange a trump Seven for the turned card (``talon.seven_exchange``) and declare one meld
(:mod:`.melds`), then draws first and the loser draws. Diss (``melds.dissle`` per trump
Seven): scored when a Seven is exchanged, else when played -- a Seven still held when the
talon runs out is scored then, since its holder must play it. The turned Seven scores
``talon.turned_seven`` for the dealer and no Diss. Endgame, 12 tricks, every card known to
both: follow or trump (:mod:`.legal`); played exactly by the two-seat search (:mod:`.search`), or by the
heuristic (``endgame="heuristic"``, for measurement). Melds count only with a trick (the exact
endgame yields points, not tricks: a player is taken to win an endgame trick when he wins
points there -- only the Diss of a player without a talon-phase trick can depend on it).

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.dealing.dealer import Dealer
>>> r = load_rules("two-hand")
>>> d = play_deal(r, Dealer(r, seed=1).deal(1)[0])
>>> sum(d.cards) == 250, len(d.events) > 24
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from binokel_sim.cards import CARD_POINTS, RANK_7, card_type
from binokel_sim.errors import InputError
from binokel_sim.play.legal import beats
from binokel_sim.play.solver import Position
from binokel_sim.rules import Rules
from binokel_sim.scoring import round_points
from binokel_sim.twohand.heuristic import Heuristic
from binokel_sim.twohand.legal import legal_twohand
from binokel_sim.melds.twohand import MeldState, meld_table
from binokel_sim.twohand.search import TwoSeatSearch

_PTS = [int(x) for x in CARD_POINTS]
TRICKS = 12


@dataclass
class DealResult:
    """Per seat (0 forehand, 1 dealer): meld points (Diss included), card points (last trick
    included, rounded where the rules say), tricks, and the dealer's turned-Seven bonus;
    ``events`` is the move record; ``endgame`` the position when the talon ran out."""

    melds: list[int]
    cards: list[int]
    tricks: list[int]
    turned: list[int]
    events: list[tuple] = field(default_factory=list)
    endgame: Position | None = None
    #: Seat that exchanged the trump Seven, -1 for none.
    exchanged: int = -1
    #: Both seats' running deal points (melds with a trick + card points) after every change in
    #: the talon phase, the Diss of Sevens still held at its end included (for the claim rule).
    running: list[tuple[int, int]] = field(default_factory=list)
    #: Melds declared (points) per seat in the talon phase, by trick: the meld growth.
    meld_by_trick: list[list[int]] = field(default_factory=list)

    def scores(self) -> list[int]:
        """Deal score of each seat: melds (with a trick) + card points + turned-Seven bonus."""
        return [(self.melds[s] if self.tricks[s] else 0) + self.cards[s] + self.turned[s] for s in range(2)]


def check_row(rules: Rules, row) -> np.ndarray:
    """A dealt row as int64, validated against the talon layout (one-line InputError)."""
    lay = rules.layout
    if lay.kind != "talon":
        raise InputError(f"layout {lay.name!r} is not a talon layout (two-hand only)")
    row = np.asarray(row, dtype=np.int64)
    if row.shape != (lay.deck_size,) or lay.hand_size != TRICKS:
        raise InputError(f"two-hand deal: expected 2 x {TRICKS} cards + talon {lay.tapp_size}, got hand size "
                         f"{lay.hand_size} and {row.size} cards")
    return row


def play_deal(rules: Rules, row, search: TwoSeatSearch | None = None, endgame: str = "exact",
              seven_exchange: bool | None = None) -> DealResult:
    """Play one dealt row; ``seven_exchange`` overrides the rules' option (for the paired study)."""
    row = check_row(rules, row)
    if endgame not in ("exact", "heuristic", "none"):
        raise InputError(f"endgame: expected exact, heuristic or none, got {endgame!r}")
    st = _Talon(rules, row, rules.talon.seven_exchange if seven_exchange is None else seven_exchange)
    return _finish(rules, st, search, endgame)


def replay_deal(rules: Rules, row, events: list[tuple], search: TwoSeatSearch | None = None,
                endgame: str = "exact") -> DealResult:
    """Play ``row`` again taking every decision (card, exchange, meld) from a recorded ``events``
    list, checking each for legality; the rules produce everything else (winners, draws, points).
    A move the rules forbid raises :class:`InputError` naming it.

    >>> from binokel_sim.rules import load_rules
    >>> from binokel_sim.dealing.dealer import Dealer
    >>> r = load_rules("two-hand"); row = Dealer(r, seed=2).deal(1)[0]
    >>> d = play_deal(r, row, endgame="heuristic")
    >>> replay_deal(r, row, d.events, endgame="heuristic").events == d.events
    True
    """
    row = check_row(rules, row)
    st = _Replay(rules, row, rules.talon.seven_exchange, events)
    return _finish(rules, st, search, endgame)


def _finish(rules: Rules, st: "_Talon", search: TwoSeatSearch | None, endgame: str) -> DealResult:
    st.run()
    res = st.result
    pos = st.endgame_position()
    res.endgame = pos
    if endgame == "exact":
        v = (search or TwoSeatSearch()).value(pos.hands, pos.trump_index, pos.leader, (), rules.play.last_trick,
                                              rules.talon.must_head)
        rest = int(sum(int(np.dot(h, CARD_POINTS)) for h in pos.hands)) + rules.play.last_trick
        gained = [v, rest - v]
        for s in range(2):
            st.cards[s] += gained[s]
            st.tricks[s] += 1 if gained[s] > 0 else 0
        res.events.append(("endgame", pos.leader, gained[0], gained[1]))
    elif endgame == "heuristic":
        heuristic_endgame(st)
    res.melds = list(st.melds)
    res.tricks = list(st.tricks)
    res.cards = [int(round_points(c, rules)) for c in st.cards]
    return res


def heuristic_endgame(st: "_Talon") -> None:
    """Play the 12 endgame tricks of ``st`` by the heuristic's endgame rules, recording each trick."""
    for _ in range(TRICKS):
        st.trick(talon_open=False)


class _Talon:
    """The state of a deal in play: holdings (hand + table), meld states, points."""

    def __init__(self, rules: Rules, row: np.ndarray, exchange: bool) -> None:
        self.rules = rules
        self.exchange = exchange
        self.held = [[0] * 24 for _ in range(2)]
        for s in range(2):
            for c in row[s * TRICKS:(s + 1) * TRICKS]:
                self.held[s][int(c)] += 1
        self.turn = int(row[2 * TRICKS])
        self.stock = [int(c) for c in row[2 * TRICKS + 1:]]
        self.trump = self.turn // 6
        self.seven = card_type(self.trump, RANK_7)
        combos = meld_table(rules)[self.trump]
        self.combos = combos
        self.player = Heuristic(combos)
        self.state = [MeldState(), MeldState()]
        self.melds = [0, 0]
        self.cards = [0, 0]
        self.tricks = [0, 0]
        # Trump Sevens whose Diss is still to score, per seat (the turned one never scores Diss).
        self.unscored = [self.held[s][self.seven] for s in range(2)]
        turned = [0, rules.talon.turned_seven if self.turn == self.seven else 0]
        self.result = DealResult([0, 0], [0, 0], [0, 0], turned)
        self.leader = 0
        self.drawn = 0

    def run(self) -> None:
        for _ in range(TRICKS):
            self.trick(talon_open=True)
        for s in range(2):  # Sevens still held are played in the endgame: their Diss is certain.
            self._diss(s, self.unscored[s])

    def _diss(self, s: int, n: int) -> None:
        if n:
            self.unscored[s] -= n
            self.melds[s] += n * self.rules.melds.dissle
            self.result.events.append(("diss", s, n))
            self._run()

    def _run(self) -> None:
        a, b = ((self.melds[s] if self.tricks[s] else 0) + self.cards[s] for s in range(2))
        self.result.running.append((a, b))

    def _play(self, s: int, c: int) -> None:
        self.held[s][c] -= 1
        self.state[s].played(c, self.held[s][c])
        if c == self.seven and self.unscored[s]:  # an unscored Seven is played first
            self._diss(s, 1)

    def choose(self, a: int, talon_open: bool) -> tuple[int, int]:
        """The lead of seat ``a`` and the follow of the other seat."""
        b = 1 - a
        p = self.player
        lead = p.lead(self.held[a], self.trump) if talon_open else p.endgame_lead(self.held[a], self.trump)
        legal = self.legal(b, lead, talon_open)
        return lead, p.follow(self.held[b], lead, self.trump, self.state[b], talon_open, legal)

    def legal(self, s: int, lead: int, talon_open: bool) -> int:
        mask = sum(1 << c for c in range(24) if self.held[s][c])
        return int(legal_twohand(mask, lead, lead, self.trump, talon_open, self.rules.talon.must_head))

    def wants_exchange(self, w: int) -> bool:
        return True

    def choose_meld(self, w: int):
        return self.state[w].best(self.held[w], self.combos)

    def trick(self, talon_open: bool) -> None:
        a = self.leader
        b = 1 - a
        lead, follow = self.choose(a, talon_open)
        self._play(a, lead)
        self._play(b, follow)
        w = b if beats(follow, lead, self.trump) else a
        last = not talon_open and sum(self.held[a]) == 0
        pts = _PTS[lead] + _PTS[follow] + (self.rules.play.last_trick if last else 0)
        self.cards[w] += pts
        self.tricks[w] += 1
        self.leader = w
        self.result.events.append(("trick", a, lead, follow, w, pts))
        if talon_open:
            self._run()
            self._after_trick(w)

    def _after_trick(self, w: int) -> None:
        held = self.held[w]
        if self.exchange and held[self.seven] and self.turn != self.seven and self.unscored[w] \
                and self.wants_exchange(w):
            held[self.seven] -= 1
            held[self.turn] += 1
            self.turn = self.seven
            self.result.exchanged = w
            self.result.events.append(("exchange", w))
            self._diss(w, 1)
        d = self.choose_meld(w)
        if d is not None:
            self.melds[w] += self.state[w].declare(d)
            self.result.events.append(("meld", w, d.combo.name, d.gain))
            self._run()
        self.result.meld_by_trick.append(list(self.melds))
        for s in (w, 1 - w):
            from_stock = self.drawn < len(self.stock)
            c = self.stock[self.drawn] if from_stock else self.turn
            self.drawn += 1
            self.held[s][c] += 1
            if c == self.seven and from_stock:  # the turned card's Diss went to the dealer or the exchanger
                self.unscored[s] += 1
            self.result.events.append(("draw", s, c))

    def endgame_position(self) -> Position:
        hands = tuple(np.array(h, dtype=np.uint8) for h in self.held)
        pos = Position(hands, self.trump, self.leader, 0, (0,), (), self.rules.play.last_trick, (0, 0), ())
        pos._validate()
        return pos


class _Replay(_Talon):
    """A deal whose decisions come from a record (see :func:`replay_deal`)."""

    def __init__(self, rules: Rules, row: np.ndarray, exchange: bool, events: list[tuple]) -> None:
        super().__init__(rules, row, exchange)
        self.script = [e for e in events if e[0] in ("trick", "exchange", "meld")]
        self.k = 0

    def _next(self, kind: str):
        e = self.script[self.k] if self.k < len(self.script) else None
        if e is None or e[0] != kind:
            return None
        self.k += 1
        return e

    def choose(self, a: int, talon_open: bool) -> tuple[int, int]:
        e = self._next("trick")
        if e is None or e[1] != a:
            raise InputError(f"record: expected a trick led by seat {a} at move {self.k}")
        lead, follow = int(e[2]), int(e[3])
        if not self.held[a][lead] or not (self.legal(1 - a, lead, talon_open) >> follow) & 1:
            raise InputError(f"record: move {self.k} ({lead}, {follow}) is not legal here")
        return lead, follow

    def wants_exchange(self, w: int) -> bool:
        return self._next("exchange") is not None

    def choose_meld(self, w: int):
        e = self._next("meld")
        if e is None:
            return None
        for d in self.state[w].options(self.held[w], self.combos):
            if d.combo.name == e[2] and d.gain == e[3]:
                return d
        raise InputError(f"record: seat {w} cannot declare {e[2]} for {e[3]} at move {self.k}")
