"""The instant tier's answer for one hand, typed: :class:`InstantAdvice` (what
:meth:`~binokel_sim.evaluation.instant.InstantModel.advise` returns), its bid :class:`Ladder`, its
:class:`TappValue` and, for a model fitted on a budgeted corpus, the :class:`ProvenBounds`. The checked
tier's ladders are :class:`Ladder` objects too (:func:`~binokel_sim.evaluation.ladder.ladder_columns`,
:func:`binokel_sim.evaluation.checked.ladder`).

The CLI's ``bid`` table, ``binokel bid --json``, the web API and
:class:`~binokel_sim.evaluation.tiers.InstantEvaluation` all read these fields; :meth:`InstantAdvice.to_json`
is its one JSON form.

>>> t = TappValue(mean=41.5, se=1.2, sd=17.0, n=200, basis="this hand's drawn Tapps")
>>> t.to_json()
{'mean': 41.5, 'se': 1.2, 'sd': 17.0, 'n': 200, 'basis': "this hand's drawn Tapps"}
>>> import numpy as np
>>> lad = Ladder.of({"bid": np.array([150, 160]), "p_make": np.array([0.9, 0.4])})
>>> len(lad), lad.records(), lad["p_make"].tolist()
(2, [{'bid': 150, 'p_make': 0.9}, {'bid': 160, 'p_make': 0.4}], [0.9, 0.4])
>>> lad.with_columns(n=np.array([7, 7])).names
('bid', 'p_make', 'n')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

#: The columns of a ladder a model fitted on a budgeted corpus adds: the ladder at the proven bounds.
BOUND_COLUMNS = ("p_make_lower", "expected_score_lower", "p_make_upper", "expected_score_upper")


@dataclass(frozen=True)
class Ladder:
    """A bid ladder as columns, one value per bid, in a fixed order (that of
    :func:`~binokel_sim.evaluation.ladder.ladder_columns`: ``bid``, ``n``, ``p_make`` with its SE and 95 %
    interval, ``expected_score`` with its SE, ``p_surrender`` with its SE, ``p_made_dd``; then the
    :data:`BOUND_COLUMNS` where the model stands on proven intervals; the checked tier's threshold path
    adds ``n_exact``).

    :meth:`column` (or ``ladder[name]``) reads one by name; :meth:`records` and :meth:`frame` give rows;
    :attr:`at_bounds` says whether the bound columns are there."""

    names: tuple[str, ...]
    values: tuple[np.ndarray, ...] = field(repr=False)

    @classmethod
    def of(cls, columns: Mapping[str, Any]) -> "Ladder":
        """The ladder of a column mapping (e.g. :func:`~binokel_sim.evaluation.ladder.ladder_columns`'s)."""
        values = tuple(np.asarray(v) for v in columns.values())
        if len({len(v) for v in values}) > 1:
            raise ValueError("ladder: every column needs one value per bid")
        return cls(tuple(columns), values)

    def __len__(self) -> int:
        return len(self.values[0]) if self.values else 0

    def __getitem__(self, name: str) -> np.ndarray:
        return self.column(name)

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def with_columns(self, **columns: Any) -> "Ladder":
        """This ladder with ``columns`` (one value per bid) replaced where it has them, else added at the end."""
        return Ladder.of({**self.columns(), **columns})

    def column(self, name: str) -> np.ndarray:
        """One column by name (``bid``, ``p_make``, ...)."""
        try:
            return self.values[self.names.index(name)]
        except ValueError:
            raise KeyError(f"ladder: no column {name!r} (it has {', '.join(self.names)})") from None

    @property
    def bid(self) -> np.ndarray:
        return self.column("bid")

    @property
    def p_make(self) -> np.ndarray:
        return self.column("p_make")

    @property
    def expected_score(self) -> np.ndarray:
        return self.column("expected_score")

    @property
    def at_bounds(self) -> bool:
        """Whether the ladder carries the columns at the proven bounds (a budgeted corpus's model)."""
        return all(c in self.names for c in BOUND_COLUMNS)

    def columns(self) -> dict[str, np.ndarray]:
        """The columns by name, in order (what the ladder functions and a DataFrame take)."""
        return dict(zip(self.names, self.values))

    def records(self) -> list[dict[str, Any]]:
        """One dict per bid with plain Python numbers (JSON-ready)."""
        return [dict(zip(self.names, (v.item() for v in row))) for row in zip(*self.values)]

    def frame(self):
        """The ladder as a pandas DataFrame (one row per bid)."""
        import pandas as pd

        return pd.DataFrame(self.columns())


@dataclass(frozen=True)
class TappValue:
    """What the Tapp is worth: mean ± standard error over ``n`` Tapps (or deals), the spread ``sd`` of one;
    ``basis`` says what it stands on; ``reference``: beside a hand's own figure, the figure of hands like it
    in the corpus."""

    mean: float
    se: float
    sd: float
    n: int
    basis: str | None = None
    reference: "TappValue | None" = None

    def to_json(self) -> dict[str, Any]:
        """Its JSON form (``tapp_value`` of ``binokel bid --json``)."""
        out: dict[str, Any] = {"mean": self.mean, "se": self.se, "sd": self.sd, "n": self.n}
        if self.basis is not None:
            out["basis"] = self.basis
        if self.reference is not None:
            out["reference"] = self.reference.to_json()
        return out


@dataclass(frozen=True)
class ProvenBounds:
    """Ceiling and safe bid with every open total of a budgeted corpus at its proven lower and at its upper
    bound (the range the corpus itself proves), and the share of its totals that are open."""

    ceiling_bid_lower: int | None
    safe_bid_lower: int | None
    ceiling_bid_upper: int | None
    safe_bid_upper: int | None
    open_share: float

    def to_json(self) -> dict[str, Any]:
        return {"ceiling_bid_lower": self.ceiling_bid_lower, "safe_bid_lower": self.safe_bid_lower,
                "ceiling_bid_upper": self.ceiling_bid_upper, "safe_bid_upper": self.safe_bid_upper,
                "open_share": self.open_share}


@dataclass(frozen=True)
class InstantAdvice:
    """The instant tier's answer for one hand: the model's fitted ``total``, the ``ladder``, the ceiling
    (highest bid with E[score] > 0) and safe bid (P(make) >= the confidence asked), the Tapp's value, what
    the ladder stands on (``n`` deals or Tapp draws, ``basis`` in words) and the model's ``provenance``.
    ``bounds``: only for a model fitted on a budgeted corpus (:class:`ProvenBounds`)."""

    total: float
    n: int
    basis: str
    ladder: Ladder
    ceiling_bid: int | None
    safe_bid: int | None
    order_note: str | None
    tapp_value: TappValue
    surrender_decided_by: str
    provenance: dict[str, Any] = field(repr=False)
    bounds: ProvenBounds | None = None

    @property
    def play(self) -> str:
        """How the totals the model was fitted on were played: ``double-dummy`` or ``single-dummy``."""
        return str(self.provenance.get("play", "double-dummy"))

    @property
    def decided_deals(self) -> int | None:
        """Of a two-phase corpus's model: its phase-2 deals (decided at every bid) in the fit; else None."""
        n = self.provenance.get("phase2_train")
        return int(n) if n else None

    def summary_json(self) -> dict[str, Any]:
        """Every field but the ladder, JSON-ready (the head of ``binokel bid --json``)."""
        return {"total": self.total, "n": self.n, "basis": self.basis, "ceiling_bid": self.ceiling_bid,
                "safe_bid": self.safe_bid, "order_note": self.order_note, "tapp_value": self.tapp_value.to_json(),
                "surrender_decided_by": self.surrender_decided_by,
                **(self.bounds.to_json() if self.bounds is not None else {}), "provenance": self.provenance}

    def to_json(self) -> dict[str, Any]:
        """The whole answer, JSON-ready: :meth:`summary_json` and the ladder's rows as ``bids``."""
        return {**self.summary_json(), "bids": self.ladder.records()}
