"""The per-deal arrays a bid ladder is computed from: :class:`DealParts`.

:func:`~binokel_sim.evaluation.ladder.outcomes`, :func:`~binokel_sim.evaluation.ladder.ladder_columns` and
:func:`~binokel_sim.evaluation.ladder.bid_table` take them; the checked tier's samples
(:func:`~binokel_sim.evaluation.deals.PlayedDeals.parts`), a corpus's or a study's rows
(:func:`~binokel_sim.studies.deals.parts_of`) and the instant tier's pseudo-deals
(:meth:`~binokel_sim.evaluation.instant.InstantModel.parts`) all give them. The checked tier's threshold rows
add their own columns (:class:`~binokel_sim.evaluation.checked.CheckedRows`).

>>> p = DealParts.of_totals(np.array([200, 170, 0]), np.array([True, True, False]))
>>> p.n, p.select(p.took).value.tolist(), DealParts.concat([p, p]).n
(3, [200, 170], 6)
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple, Sequence, TypeVar

import numpy as np

P = TypeVar("P", bound="DealParts")


@dataclass(frozen=True, eq=False)
class DealParts:
    """Per deal (``n`` of them, one row each), what the soloist chose and what it scored.

    Frozen: the fields stay the same arrays (the checked tier refines its rows' values in place, into them).
    """

    #: int64[n]: the soloist's side's total (a lower bound where a solve budget ran out); a Durch or
    #: Bettel: 1 made, 0 not.
    value: np.ndarray
    #: bool[n]: the side took a trick.
    took: np.ndarray
    #: int64[n]: the contract chosen (0..3 trump, 4 Durch, 5 Bettel).
    code: np.ndarray
    #: bool[n]: a Durch or Bettel made.
    special_made: np.ndarray
    #: int64[n]: the deal's result for the Tapp's worth: a trump contract's total, a special's score.
    result: np.ndarray
    #: int[n, k]: the soloist's own estimate of the total, per inner deal (k of them): decides going out.
    subjective: np.ndarray
    #: bool[n, k]: ... and of taking a trick.
    subjective_took: np.ndarray
    #: int64[n]: the no-Tapp baseline's result (the Tapp laid away unseen); None where not played.
    base_result: np.ndarray | None = None
    #: bool[n]: a makeable Durch; None where not checked.
    durch: np.ndarray | None = None
    #: int64[n]: the proven upper bound of ``value`` (a solve budget's open interval); None: ``value`` is exact.
    value_hi: np.ndarray | None = None

    @property
    def n(self) -> int:
        """The number of deals."""
        return int(self.code.shape[0])

    @property
    def hi(self) -> np.ndarray:
        """``value_hi``, or ``value`` where every total is exact."""
        return self.value if self.value_hi is None else self.value_hi

    def need(self, name: str) -> np.ndarray:
        """The optional column ``name`` (``base_result``, ``durch``, ``value_hi``); a ValueError where absent."""
        got = getattr(self, name)
        if got is None:
            raise ValueError(f"deal parts: no {name!r} column (these deals were not played or checked for it)")
        return got

    def select(self: P, rows) -> P:
        """The deals ``rows`` (a bool mask or indices), every column alike."""
        cols: dict[str, Any] = {f.name: _take(getattr(self, f.name), rows) for f in fields(self)}
        return replace(self, **cols)

    def replace(self: P, **columns: Any) -> P:
        """These deals with ``columns`` replaced (:func:`dataclasses.replace`)."""
        return replace(self, **columns)

    @classmethod
    def concat(cls: type[P], parts: Sequence[P]) -> P:
        """The deals of ``parts`` one after the other (a column absent from any of them: absent)."""
        cols = {f.name: [getattr(p, f.name) for p in parts] for f in fields(parts[0])}
        joined: dict[str, Any] = {k: None if any(x is None for x in v) else np.concatenate(v) for k, v in cols.items()}
        return cls(**joined)

    @classmethod
    def of_totals(cls, value: np.ndarray, took: np.ndarray, estimate: np.ndarray | None = None) -> "DealParts":
        """Trump deals with these totals (int[n]) and tricks (bool[n]), and one inner deal of the soloist's
        estimate each: ``estimate`` (int[n]) with a trick, or where None the deal's own total and trick.
        The hand-checked ladders of the tests and docs."""
        value = np.asarray(value, dtype=np.int64)
        n = value.size
        est = value if estimate is None else np.asarray(estimate, dtype=np.int64)
        took = np.asarray(took, dtype=bool)
        return cls(value=value, took=took, code=np.zeros(n, np.int64), special_made=np.zeros(n, bool), result=value,
                   subjective=est[:, None], subjective_took=np.ones((n, 1), bool) if estimate is not None
                   else took[:, None])


def _take(x: np.ndarray | None, rows) -> np.ndarray | None:
    return None if x is None else x[rows]


class Queries(NamedTuple):
    """What a threshold row was asked (to ask it more later), per row (n of them): the deal's cards
    (uint8[n, seats, 24]), its trump (int8[n]; -1: nothing asked), the seats' meld bonus (int32[n, seats]),
    the points outside the play and the discards' (int64[n] each)."""

    counts: np.ndarray
    trump: np.ndarray
    bonus: np.ndarray
    outside: np.ndarray
    disc: np.ndarray


@dataclass(frozen=True, eq=False, kw_only=True)
class CheckedRows(DealParts):
    """The checked tier's samples (:mod:`binokel_sim.evaluation.checked`): :class:`DealParts` with
    ``value_hi`` always given (a threshold row's ``value`` .. ``value_hi`` is the interval its answers prove),
    plus the columns below, per row (n of them).

    >>> q = Queries(np.zeros((1, 3, 24), np.uint8), np.full(1, -1, np.int8), np.zeros((1, 3), np.int32),
    ...             np.zeros(1, np.int64), np.zeros(1, np.int64))
    >>> r = CheckedRows.of(DealParts.of_totals(np.array([200]), np.array([True])), q, np.array([200]),
    ...                    index=np.array([0]), exact=np.array([True]), tapp_points=np.array([21]))
    >>> r.n, r.select(r.exact).hi.tolist(), r.queries.trump.tolist()
    (1, [200], [-1])
    """

    #: int64[n]: the sample's number (deal ``index`` of the hand's evaluation).
    index: np.ndarray
    #: bool[n]: solved exactly, with its no-Tapp baseline (else decided at the deciding bids only).
    exact: np.ndarray
    #: int64[n]: the Tapp's card points (they go to the discards when it is laid away unseen).
    tapp_points: np.ndarray
    #: The :class:`Queries` columns, one by one (a row's questions travel with it through merges).
    q_counts: np.ndarray
    q_trump: np.ndarray
    q_bonus: np.ndarray
    q_outside: np.ndarray
    q_disc: np.ndarray
    #: int64[n]: the cell of the row's block's deciding bids its total is proven to lie in (lowest, highest;
    #: :func:`binokel_sim.evaluation.checked.cells`); derived by :func:`binokel_sim.evaluation.checked.merge`.
    cell_lo: np.ndarray
    cell_hi: np.ndarray
    #: bool[n]: a trump row a solve budget left undecided at some deciding bid (derived by ``merge`` too).
    open: np.ndarray

    def __post_init__(self) -> None:
        if self.value_hi is None:
            raise ValueError("checked rows: value_hi is required (value itself where exact)")

    @classmethod
    def of(cls, deals: DealParts, queries: Queries, value_hi: np.ndarray, *, index: np.ndarray, exact: np.ndarray,
           tapp_points: np.ndarray) -> "CheckedRows":
        """Rows of ``deals`` with their upper bounds, questions and numbers (cells not derived yet: empty)."""
        n = deals.n
        cols = {f.name: getattr(deals, f.name) for f in fields(DealParts) if f.name != "value_hi"}
        return cls(**cols, value_hi=value_hi, index=index, exact=exact, tapp_points=tapp_points,
                   q_counts=queries.counts, q_trump=queries.trump, q_bonus=queries.bonus, q_outside=queries.outside,
                   q_disc=queries.disc, cell_lo=np.zeros(n, np.int64), cell_hi=np.zeros(n, np.int64),
                   open=np.zeros(n, bool))

    @property
    def queries(self) -> Queries:
        """The rows' questions as one record."""
        return Queries(self.q_counts, self.q_trump, self.q_bonus, self.q_outside, self.q_disc)
