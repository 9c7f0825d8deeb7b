"""Single-dummy play: perfect-information Monte Carlo over sampled worlds (docs/single-dummy.md).

At each decision the seat draws ``worlds`` deals of the cards it has not seen (:mod:`binokel_sim.play.worlds`),
values every legal card in every world with the double-dummy solver, and plays the card with the best mean
(the most points for the soloist's side on its side, the fewest on the other). The solver is asked only
what that choice needs (:func:`decide`): every (card, world) value is an interval, narrowed by one
zero-window test at a time on the card still in contention, until the leading card's lower mean is within
``tolerance`` points of every other card's upper mean. Below one point of tolerance a single world is
decided exactly (values are whole points), so with the true world alone the player is double-dummy
optimal; :class:`OpenCards` is exactly that player.

>>> from binokel_sim.cards import counts_of, parse_cards
>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.play.knowledge import PlayState
>>> r = load_rules("standard")
>>> h = [counts_of(parse_cards(t)) for t in ("EA EK", "E10 EU", "EO GA")]
>>> st = PlayState.start(r, h, pile=counts_of([]), tapp=None, trump=-1, soloist=0, ending=True)
>>> OpenCards(r).choose(st)                  # EK first: the Ace then takes E10 or EO (34 points)
2
>>> SingleDummy(r, worlds=20, seed=1, deal=0).choose(st) in (0, 2)
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

import numpy as np

from binokel_sim.cards import CARD_POINTS
from binokel_sim.play.knowledge import Knowledge, PlayState
from binokel_sim.play.legal import trick_winner
from binokel_sim.play.solver import Position, Solver
from binokel_sim.play.worlds import Worlds, sample, world_key
from binokel_sim.rules import Rules

__all__ = ["DealSolver", "Decision", "OpenCards", "SingleDummy", "decide", "options"]


class DealSolver(Solver):
    """A :class:`Solver` whose table serves every world of a deal: entries are facts about a state keyed on
    every seat's cards, so they hold in any world; the base class starts a new generation whenever a
    position holds a card the previous ones did not, which the defenders' worlds (each with its own
    discards) would do at every switch. The caller calls :meth:`reset` once per deal, so a deal's play
    depends on nothing before it."""

    def _same_deal(self, pos: Position) -> None:
        return None


@dataclass(frozen=True)
class Decision:
    """A choice: the ``card`` played, each legal card's mean interval over the worlds (``lo``, ``hi``),
    the zero-window tests asked and their search nodes; ``cut``: the node budget ended it first."""

    card: int
    cards: tuple[int, ...]
    lo: tuple[float, ...]
    hi: tuple[float, ...]
    tests: int
    nodes: int
    cut: bool = False


def _bonus(rules: Rules, k: Knowledge) -> tuple[int, ...]:
    """What the solver credits a side seat on its first trick: its declared melds (where they count as the
    seat's trick bonus, :attr:`binokel_sim.rules.Scoring.melds_as_bonus`)."""
    need = rules.scoring.melds_as_bonus
    return tuple(k.melds[s] if need and s in k.side else 0 for s in range(k.seats))


def world_position(rules: Rules, k: Knowledge, hands: np.ndarray) -> Position:
    """The solver's position for the seat to move in ``k`` if the world were ``hands`` (every seat's cards now,
    uint8[seats, 24]): the one place a view of the table and a guessed world become a double-dummy question."""
    return Position(tuple(np.asarray(hands, dtype=np.uint8)), None if k.trump < 0 else k.trump, k.leader, k.soloist,
                    k.side, k.trick, k.last_trick, _bonus(rules, k), k.won, k.rule)


def options(k: Knowledge, hands: np.ndarray, bonus: tuple[int, ...], cards: Sequence[int]
            ) -> list[tuple[int, Position | None]]:
    """For each card of the seat to move, in the world ``hands`` (uint8[seats, 24], cards now): the side's
    points the card itself settles (a trick it completes) and the position after it (None: the deal is over).
    The card's value = those points + the position's double-dummy value."""
    seats, p = k.seats, k.to_move
    trump = None if k.trump < 0 else k.trump
    out: list[tuple[int, Position | None]] = []
    for c in cards:
        h = np.array(hands, dtype=np.uint8)
        h[p, c] -= 1
        trick = k.trick + (int(c),)
        if len(trick) < seats:
            out.append((0, Position(tuple(h), trump, k.leader, k.soloist, k.side, trick, k.last_trick, bonus, k.won,
                                    k.rule)))
            continue
        ws = (k.leader + int(trick_winner(np.array(trick, dtype=np.int64), seats, k.trump))) % seats
        left = int(h[0].sum())
        gain = 0
        if ws in k.side:
            gain = int(CARD_POINTS[list(trick)].sum()) + (k.last_trick if left == 0 else 0)
            gain += bonus[ws] if ws not in k.won else 0
        won = tuple(sorted(set(k.won) | {ws}))
        out.append((gain, Position(tuple(h), trump, ws, k.soloist, k.side, (), k.last_trick, bonus, won, k.rule)
                    if left else None))
    return out


def twins(k: Knowledge, hands: np.ndarray, cards: Sequence[int]) -> list[tuple[int, int, int]]:
    """Pairs ``(i, j, d)`` of the cards ``cards[i]``, ``cards[j]`` that are equivalent in the world ``hands``: one
    suit, no other seat holding a card ranked between them or equal to either, the trick's winning card not
    between -- every trick then goes the same way after either, so their values differ by at most their
    points difference ``d`` (the solver's own rule, docs/solver.md "Equivalent cards")."""
    others = 0
    for q in range(k.seats):
        if q != k.to_move:
            others |= sum(1 << c for c in range(24) if hands[q][c])
    win = -1
    if k.trick:
        win = k.trick[int(trick_winner(np.array(k.trick, dtype=np.int64), len(k.trick), k.trump))]
    out = []
    for i, a in enumerate(cards):
        for j in range(i + 1, len(cards)):
            b = cards[j]
            lo, hi = min(a, b), max(a, b)
            span = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
            if a // 6 == b // 6 and not others & span and not lo < win <= hi:
                out.append((i, j, abs(int(CARD_POINTS[a]) - int(CARD_POINTS[b]))))
    return out


def _upper(pos: Position) -> int:
    """A quick bound on a position's value: every point still to be won, the unearned bonuses included."""
    pts = int(sum(int(h.astype(np.int64) @ CARD_POINTS) for h in pos.hands)) + int(CARD_POINTS[list(pos.trick)].sum())
    return pts + pos.last_trick + sum(pos.bonus[s] for s in pos.side if s not in pos.won)


def decide(solver: Solver, opts: Sequence[Sequence[tuple[int, Position | None]]], cards: Sequence[int],
           maximize: bool, tolerance: float = 0.5, budget_nodes: int | None = None,
           pairs: Sequence[Sequence[tuple[int, int, int]]] | None = None,
           on_test: Callable[[int], None] | None = None) -> Decision:
    """The card with the best mean value over the worlds, proven to within ``tolerance`` points of the mean.

    ``opts[w][i]``: card ``cards[i]`` in world ``w`` (:func:`options`). Each (card, world) value starts as
    ``[gain, gain + every point left]``; while the leading card (best lower sum) is not proven within
    ``tolerance`` of the best rival (best upper sum), one zero-window test narrows one of the two in one
    world (below). ``pairs[w]``: the cards equivalent in world ``w`` (:func:`twins`), which bound each other.
    ``budget_nodes``: stop once the tests have searched that many nodes and play the leader
    (``Decision.cut``): a choice no longer proven. ``on_test``: called with each test's nodes (progress).

    >>> d = decide(Solver(), [[(0, Position.parse("EK / E10 EU / EO GA", None, 0, 0, trick=["EA"])),
    ...                        (0, Position.parse("EA / E10 EU / EO GA", None, 0, 0, trick=["EK"]))]], [0, 2], True)
    >>> d.card, d.lo, d.hi         # EK proven better than EA, neither value pinned down
    (2, (0.0, 34.0), (16.0, 51.0))
    """
    nw, nc = len(opts), len(cards)
    lo = np.zeros((nc, nw), dtype=np.int64)
    hi = np.zeros((nc, nw), dtype=np.int64)
    for w in range(nw):
        for i in range(nc):
            g, pos = opts[w][i]
            lo[i, w], hi[i, w] = g, g + (_upper(pos) if pos is not None else 0)
    tests = nodes = 0
    slack = nw * tolerance
    cut = False
    while nc > 1:
        s_lo, s_hi = (lo.sum(axis=1), hi.sum(axis=1)) if maximize else (-hi.sum(axis=1), -lo.sum(axis=1))
        best = int(np.lexsort((np.arange(nc), -s_hi, -s_lo))[0])
        rest = [i for i in range(nc) if i != best]
        rival = max(rest, key=lambda i: (s_hi[i], -i))
        if s_lo[best] >= s_hi[rival] - slack:
            break
        if budget_nodes is not None and nodes >= budget_nodes:
            cut = True  # the leader stays: its proven lower mean is the best (midpoints of the rivals' wide
            break       # intervals chose cards 5-20 points worse on first leads)
        # The world where the rival could most exceed the leader (and something is left to learn), the wider
        # of the two cards there, tested in the middle of where their intervals overlap: halving what keeps
        # the two apart. (Tests at the middle of one card's own interval, or biased toward the cheap side --
        # failing tests cost less than proofs -- asked 10-80 % more nodes on the first leads of six deals.)
        sb_lo, sr_hi = (lo[best], hi[rival]) if maximize else (-hi[best], -lo[rival])
        open_ = (hi[best] > lo[best]) | (hi[rival] > lo[rival])
        w = int(np.argmax(np.where(open_, sr_hi - sb_lo, np.iinfo(np.int64).min)))
        k = best if hi[best, w] - lo[best, w] >= hi[rival, w] - lo[rival, w] else rival
        mid = (max(int(lo[best, w]), int(lo[rival, w])) + min(int(hi[best, w]), int(hi[rival, w])) + 1) // 2
        t = min(max(mid, int(lo[k, w]) + 1), int(hi[k, w]))
        g, pos = opts[w][k]
        assert pos is not None  # a finished deal's value is exact
        t -= g
        r = solver.at_least(pos, t)
        tests += 1
        nodes += r.nodes
        if on_test is not None:
            on_test(r.nodes)
        lo[k, w] = max(lo[k, w], g + r.lo)
        hi[k, w] = min(hi[k, w], g + r.hi)
        for i, j, d in pairs[w] if pairs is not None else ():
            if k in (i, j):
                # An equivalent card's value lies within its points difference of this one's.
                o = j if k == i else i
                lo[o, w], hi[o, w] = max(lo[o, w], lo[k, w] - d), min(hi[o, w], hi[k, w] + d)
                lo[k, w], hi[k, w] = max(lo[k, w], lo[o, w] - d), min(hi[k, w], hi[o, w] + d)
    best = best if nc > 1 else 0
    return Decision(int(cards[best]), tuple(int(c) for c in cards), tuple(lo.mean(axis=1).tolist()),
                    tuple(hi.mean(axis=1).tolist()), tests, nodes, cut)


class OpenCards:
    """The double-dummy player: sees every card and plays a card of the best double-dummy value."""

    def __init__(self, rules: Rules, solver: Solver | None = None):
        self.rules = rules
        self.solver = solver or DealSolver()
        self.last: Decision | None = None

    def choose(self, state: PlayState) -> int:
        k = state.view(state.to_move)
        cards = k.legal()
        opts = [options(k, state.current(), _bonus(self.rules, k), cards)]
        self.last = decide(self.solver, opts, cards, k.to_move in k.side, tolerance=0.0)
        return self.last.card


class SingleDummy:
    """The perfect-information Monte Carlo player: ``worlds`` worlds per decision from the posterior of what
    its seat knows; it reads nothing else. A seat's worlds carry over to its next decision where they stay
    consistent with the cards played since (an exact filter of the posterior: each kept world is still a
    draw from it, and the table's entries for it serve again); the others are drawn afresh from counter
    (cards played so far) of deal ``deal``'s key under ``seed``. ``keep=False``: every world afresh.
    ``budget``: a decision may search this many times the nodes of one exact solve of its first world's
    position (that solve included), then plays its leader; None: every choice proven to ``tolerance``."""

    def __init__(self, rules: Rules, worlds: int = 20, seed: int = 1, deal: int = 0, tolerance: float = 0.5,
                 solver: Solver | None = None, budget: float | None = None, keep: bool = True):
        if worlds < 1:
            raise ValueError(f"worlds: must be at least 1, got {worlds}")
        self.rules, self.worlds, self.tolerance, self.budget, self.keep = rules, worlds, tolerance, budget, keep
        self.key = world_key(seed, deal)
        self.solver = solver or DealSolver()
        self.last: Decision | None = None
        self._kept: dict[int, tuple[np.ndarray, Worlds]] = {}  # seat -> (the cards played then, its worlds)

    def choose(self, state: PlayState) -> int:
        k = state.view(state.to_move)
        cards = k.legal()
        if len(cards) == 1:
            return cards[0]
        return self.decide_in(k, self.draw(k).hands).card

    def draw(self, k: Knowledge) -> Worlds:
        """The worlds of seat ``k.seat``'s decision now (every seat's cards and the discards)."""
        hands = np.zeros((0, k.seats, 24), dtype=np.uint8)
        piles = np.zeros((0, 24), dtype=np.uint8)
        if self.keep and k.seat in self._kept:
            then, old = self._kept[k.seat]
            # Each seat's cards since, out of its hand; a world survives if it held them and nothing the trick
            # rules have since ruled out (its melds, the Tapp and the hand sizes were consistent already).
            now = old.hands.astype(np.int16) - (k.played.astype(np.int16) - then)[None]
            bad = np.array([sum(1 << c for c in range(24) if k.forbidden[s] >> c & 1) for s in range(k.seats)])
            held = ((now > 0) * (1 << np.arange(24))[None, None]).sum(axis=2)
            ok = (now >= 0).all(axis=(1, 2)) & ((held & bad[None]) == 0).all(axis=1)
            hands, piles = now[ok].astype(np.uint8), old.pile[ok]
        fresh = self.worlds - len(hands)
        if fresh:
            new = sample(k, fresh, self.key)
            hands, piles = np.concatenate([hands, new.hands]), np.concatenate([piles, new.pile])
        worlds = Worlds(hands, piles, len(hands))
        self._kept[k.seat] = (k.played.astype(np.int16), worlds)
        return worlds

    def decide_in(self, k: Knowledge, worlds: Sequence[np.ndarray] | np.ndarray,
                  on_test: Callable[[int], None] | None = None) -> Decision:
        """The decision of seat ``k.seat`` in the given worlds (every seat's cards now, uint8[seats, 24] each)
        instead of sampled ones -- with the true world alone, a double-dummy optimal card. ``on_test``: as
        :func:`decide`."""
        cards = k.legal()
        bonus = _bonus(self.rules, k)
        opts = [options(k, np.asarray(h), bonus, cards) for h in worlds]
        pairs = [twins(k, np.asarray(h), cards) for h in worlds]
        budget = yardstick = None
        if self.budget is not None:
            # The budget in units of this position's difficulty: one exact solve of the first world.
            self.solver.max_points(world_position(self.rules, k, worlds[0]))
            yardstick = self.solver.nodes
            budget = max(1, int(self.budget * yardstick) - yardstick)
        d = decide(self.solver, opts, cards, k.to_move in k.side, self.tolerance, budget, pairs, on_test)
        self.last = d if yardstick is None else replace(d, nodes=d.nodes + yardstick)
        return self.last
