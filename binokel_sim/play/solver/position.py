"""A validated solver position: hands, trump, leader, soloist's side, the trick so far.

Every check raises :class:`InputError` with one line naming the problem.

>>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
>>> pos.seats, pos.to_move, pos.tricks_left, pos.side
(3, 0, 2, (0,))
>>> Position.parse("EA / E10 / EO", trump=None, leader=0, solo=0, trick=["EU"])
Traceback (most recent call last):
...
binokel_sim.errors.InputError: seat 0 played to the trick, so it should hold 0 card(s), not 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from binokel_sim.cards import CARD_POINTS, CARD_TEXT, COPIES, N_TYPES, format_cards, to_cards
from binokel_sim.cards import parse_trump as parse_trump_text
from binokel_sim.errors import InputError
from binokel_sim.play.legal import PARTNER_FREES, legal_in_trick, trick_mates, trick_top, trick_winner


def _seat(value: object, what: str, seats: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputError(f"{what}: expected a seat number 0..{seats - 1}, got {value!r}")
    if not 0 <= int(value) < seats:
        raise InputError(f"{what}: seat {value} out of range 0..{seats - 1}")
    return int(value)


def parse_trump(value: str | int | None) -> int | None:
    """``None``/``"none"``/``"-"`` for no trump, else a suit letter or name (or index 0..3)."""
    if value is None:
        return None
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if not -1 <= int(value) < 4:
            raise InputError(f"trump: suit index {value} out of range 0..3")
        return None if int(value) < 0 else int(value)
    if not isinstance(value, str):
        raise InputError(f"trump: expected a suit letter or none, got {value!r}")
    if value.strip() == "":
        return None
    return parse_trump_text(value)


@dataclass(frozen=True)
class Position:
    """Hands (count vectors, seat order), trump (suit index or None), the leader of
    the current trick, the soloist, the seats on the soloist's side, the cards
    already played to the current trick (leader's first), the last-trick bonus,
    meld bonuses per seat (scored once that seat wins a trick), seats that
    already won a trick earlier in the deal and the play-rules word
    (:func:`binokel_sim.play.legal.play_rule`; under ``PARTNER_FREES`` the side and
    the other seats are the two teams). Build with :meth:`parse`."""

    hands: tuple[np.ndarray, ...]
    trump: int | None
    leader: int
    solo: int
    side: tuple[int, ...]
    trick: tuple[int, ...] = ()
    last_trick: int = 10
    bonus: tuple[int, ...] = ()
    won: tuple[int, ...] = ()
    rule: int = 0

    @classmethod
    def parse(cls, hands: str | Sequence, trump: str | int | None, leader: int, solo: int,
              teams: Sequence[int] | Sequence[Sequence[int]] | None = None, trick: str | Sequence = (),
              last_trick: int = 10, bonus: Sequence[int] | None = None, won: Sequence[int] = (),
              rule: int = 0) -> "Position":
        """Build and validate a position from text (``"EA E10 / GK ... / ..."``) or lists of cards.

        ``teams``: the seats of the soloist's side (``[0, 2]``), or both teams
        (``[[0, 2], [1, 3]]``); default the soloist alone. ``rule``: the play-rules word
        (:func:`binokel_sim.play.legal.play_rule`); the trick so far must be legal under it.
        """
        if isinstance(hands, str):
            parts = hands.split("/")
        else:
            parts = list(hands)
        if len(parts) not in (2, 3, 4):
            raise InputError(f"expected 2, 3 or 4 hands separated by '/', got {len(parts)}")
        seats = len(parts)
        cards = [to_cards(h) for h in parts]
        counts = tuple(np.bincount(np.array(c, dtype=np.int64), minlength=N_TYPES).astype(np.uint8) for c in cards)
        t = parse_trump(trump)
        leader = _seat(leader, "leader", seats)
        solo = _seat(solo, "solo", seats)
        side = cls._side(teams, solo, seats)
        played = to_cards(trick)
        if len(played) >= seats:
            raise InputError(f"the trick lists {len(played)} cards; a trick in progress has at most {seats - 1}")
        if isinstance(last_trick, bool) or not isinstance(last_trick, (int, np.integer)) or last_trick < 0:
            raise InputError(f"last_trick: expected a non-negative integer, got {last_trick!r}")
        b = tuple(int(x) for x in (bonus if bonus is not None else [0] * seats))
        if len(b) != seats or any(x < 0 or x > 9000 for x in b):
            raise InputError(f"bonus: expected {seats} meld values in 0..9000, got {list(b)}")
        w = tuple(sorted({_seat(s, "won", seats) for s in won}))
        pos = cls(counts, t, leader, solo, side, tuple(played), int(last_trick), b, w, int(rule))
        pos._validate()
        return pos

    @staticmethod
    def _side(teams, solo: int, seats: int) -> tuple[int, ...]:
        if teams is None or (not isinstance(teams, str) and len(teams) == 0):
            return (solo,)
        if isinstance(teams, str):
            try:
                teams = [int(x) for x in teams.replace(" ", "").split(",") if x]
            except ValueError:
                raise InputError(f"teams: expected seat numbers like 0,2, got {teams!r}") from None
        teams = list(teams)
        if teams and all(isinstance(t, (list, tuple)) for t in teams):
            mine = [t for t in teams if solo in t]
            if len(mine) != 1:
                raise InputError(f"teams: the soloist (seat {solo}) must be in exactly one team")
            teams = list(mine[0])
        side = sorted({_seat(s, "teams", seats) for s in teams})
        if solo not in side:
            raise InputError(f"teams: the soloist's side {side} must include the soloist (seat {solo})")
        if len(side) >= seats:
            raise InputError("teams: the soloist's side cannot hold every seat")
        return tuple(side)

    def _validate(self) -> None:
        seats, k = self.seats, len(self.trick)
        if self.rule & PARTNER_FREES and 2 * len(self.side) != seats:
            raise InputError(f"teams: partners free each other only between two teams of {seats // 2}; "
                             f"the soloist's side is {list(self.side)}")
        total = sum(h.astype(np.int64) for h in self.hands) + np.bincount(
            np.array(self.trick, dtype=np.int64), minlength=N_TYPES)
        if (total > COPIES).any():
            c = int(np.argmax(total > COPIES))
            raise InputError(f"card {CARD_TEXT[c]} appears {int(total[c])} times (at most twice)")
        n = self.tricks_left
        if n < 1:
            raise InputError("no cards left to play")
        for i in range(seats):
            s = (self.leader + i) % seats
            want = n - 1 if i < k else n
            have = int(self.hands[s].sum())
            if have != want:
                why = "played to the trick" if i < k else ("is to play" if i == k else "has not played to the trick")
                raise InputError(f"seat {s} {why}, so it should hold {want} card(s), not {have}")
        for i, c in enumerate(self.trick):
            s = (self.leader + i) % seats
            before = self.hands[s].copy()
            before[c] += 1
            arr = np.array(list(self.trick) + [0], dtype=np.int64)
            mates = trick_mates(self.side, self.leader, seats, i)
            if not (legal_in_trick(before, arr, i, -1 if self.trump is None else self.trump, self.rule, mates) >> c) & 1:
                raise InputError(
                    f"seat {s} may not play {CARD_TEXT[c]} after {format_cards(self.trick[:i])} (docs/rules.md §6)")

    @property
    def seats(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % self.seats

    @property
    def tricks_left(self) -> int:
        """Tricks still to finish, the current one included."""
        return int(self.hands[self.to_move].sum())

    @property
    def side_mask(self) -> int:
        return sum(1 << s for s in self.side)

    @property
    def trump_index(self) -> int:
        return -1 if self.trump is None else self.trump

    def counts(self) -> np.ndarray:
        """Hands as ``uint8[seats, 24]``."""
        return np.stack(self.hands).astype(np.uint8)

    def trick_state(self) -> tuple[int, int, int, int]:
        """(the led suit's highest card, winning card, winning seat, card points) of the current trick;
        -1s when empty."""
        if not self.trick:
            return -1, -1, -1, 0
        arr = np.array(self.trick, dtype=np.int64)
        w = int(trick_winner(arr, len(self.trick), self.trump_index))
        pts = int(sum(int(CARD_POINTS[c]) for c in self.trick))
        return int(trick_top(arr, len(self.trick))), self.trick[w], (self.leader + w) % self.seats, pts

    def mates(self) -> int:
        """The ``mates`` mask of :func:`binokel_sim.play.legal.legal_in_trick` for the seat to move."""
        return trick_mates(self.side, self.leader, self.seats, len(self.trick))

    def __str__(self) -> str:
        hands = " / ".join(format_cards(c for c in range(N_TYPES) for _ in range(int(h[c]))) for h in self.hands)
        trick = f", trick {format_cards(self.trick)}" if self.trick else ""
        return f"Position({hands}; trump {'none' if self.trump is None else 'EGHS'[self.trump]}, leader {self.leader}, side {list(self.side)}{trick})"
