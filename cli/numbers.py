"""The one type of every numeric option: whole or real, finite, within stated bounds.

Counts, seeds, seats, point targets and budgets are read by :class:`Bounded`, so a number out of
range, not finite or not a number at all is one line before any work, never an ``OverflowError``
from numpy deep inside or a run that grows without end. Whole numbers may be written
``1000000``, ``1_000_000`` or ``1e6``.

>>> Bounded(1, 100).convert("1e2", None, None)
100
>>> Bounded(0.0, 1.0, whole=False).convert("nan", None, None)
Traceback (most recent call last):
...
click.exceptions.BadParameter: 'nan' is not a finite number
"""

from __future__ import annotations

import math
import re

import click

#: Largest value a count or seed takes: far beyond any sensible run, far below int64 overflow.
MAX_INT = 10**15
#: Deals a corpus may be asked to hold: every deal is a solved row (seconds each), planned up front.
MAX_CORPUS_DEALS = 10**6
#: Points any total, target or step can span (a round's points stay far below).
MAX_POINTS = 10_000

_WHOLE = re.compile(r"[+-]?[0-9][0-9_]*")
_REAL = re.compile(r"[+-]?(?:[0-9][0-9_]*\.?[0-9_]*|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?")


class Bounded(click.ParamType):
    """A number in ``[lo, hi]`` (``lo_open``: above ``lo``); ``whole``: an integer.

    >>> Bounded(1).convert("10**30", None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: '10**30' is not a whole number
    >>> Bounded(1).convert("1" + "0" * 30, None, None)
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: 1000000000000000000000000000000 is out of range: at most 1000000000000000
    """

    def __init__(self, lo: float | None = None, hi: float | None = None, *, whole: bool = True,
                 lo_open: bool = False):
        self.lo, self.whole, self.lo_open = lo, whole, lo_open
        self.hi = hi if hi is not None else (MAX_INT if whole else None)
        self.name = "integer" if whole else "float"

    def __repr__(self) -> str:
        return f"Bounded({self.lo}, {self.hi}, whole={self.whole})"

    def _number(self, value: object, param, ctx) -> float | int:
        if isinstance(value, bool):
            self.fail(f"{value!r} is not a number", param, ctx)
        if isinstance(value, (int, float)):
            x: float | int = value
        else:
            text = str(value).strip()
            if len(text) > 40:
                self.fail(f"a number of {len(text)} characters is out of range", param, ctx)
            if not _REAL.fullmatch(text):
                if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
                    self.fail(f"{text!r} is not a finite number", param, ctx)
                self.fail(f"{text!r} is not a {'whole ' if self.whole else ''}number", param, ctx)
            x = int(text.replace("_", ""), 10) if _WHOLE.fullmatch(text) else float(text.replace("_", ""))
        if isinstance(x, float) and not math.isfinite(x):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        if self.whole and isinstance(x, float):
            if x != int(x):
                self.fail(f"{value!r} is not a whole number", param, ctx)
            x = int(x)
        return x

    def convert(self, value, param, ctx):
        if value is None:
            return None
        x = self._number(value, param, ctx)
        if self.lo is not None and (x <= self.lo if self.lo_open else x < self.lo):
            self.fail(f"{x} is out of range: {'above' if self.lo_open else 'at least'} {self.lo}", param, ctx)
        if self.hi is not None and x > self.hi:
            self.fail(f"{x} is out of range: at most {self.hi}", param, ctx)
        return x if self.whole else float(x)


def Whole(lo: int | None = None, hi: int | None = None) -> Bounded:
    """A whole-number option in ``[lo, hi]`` (``hi`` default :data:`MAX_INT`)."""
    return Bounded(lo, hi)


def Real(lo: float | None = None, hi: float | None = None, lo_open: bool = False) -> Bounded:
    """A finite real option in ``[lo, hi]`` (``lo_open``: strictly above ``lo``)."""
    return Bounded(lo, hi, whole=False, lo_open=lo_open)


def bound_numbers(cmd: click.Command) -> click.Command:
    """Read every numeric option of ``cmd`` (and of a plain group's commands) with :class:`Bounded`: a
    click ``int``/``float`` or range left by a command becomes one with the default bounds."""
    for p in cmd.params:
        t = p.type
        if isinstance(t, click.IntRange):
            p.type = Bounded(t.min, t.max if t.max is not None else MAX_INT)
        elif isinstance(t, click.FloatRange):
            p.type = Bounded(t.min, t.max, whole=False, lo_open=t.min_open)
        elif t is click.INT:
            p.type = Bounded(-MAX_INT, MAX_INT)
        elif t is click.FLOAT:
            p.type = Bounded(None, None, whole=False)
    commands = getattr(cmd, "commands", None)
    if isinstance(commands, dict) and type(commands) is dict:  # a lazy group bounds each command as it loads it
        for sub in commands.values():
            bound_numbers(sub)
    return cmd
