"""What a calibration run answers: its reliability table with the figures a reader quotes (issue #57).

:func:`.calibration.calibrate`, :func:`.calibration.instant_calibration`,
:func:`.calibration.checked_calibration` and :func:`.sd_calibration.sd_calibration` return a
:class:`Calibration`; the report and the ``calibrate`` command read its fields. The table's ``attrs``
still carry the same figures as provenance, for the files :func:`binokel_sim.output.write_table` writes.

>>> b = brier(np.array([0.5, 0.5]), np.array([0, 1]), np.arange(2)); b.brier, b.n
(0.25, 2)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Brier:
    """The Brier score ± its standard error (clustered by deal) of ``n`` questions on ``deals`` deals, and the
    base rate's Brier (always predicting the realised share) as the reference."""

    brier: float
    brier_se: float
    base_rate_brier: float
    n: int
    deals: int

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


def brier(pred: np.ndarray, made: np.ndarray, deal: np.ndarray) -> Brier:
    """:class:`Brier` of predictions ``pred`` against outcomes ``made``, questions grouped by ``deal``.

    >>> brier(np.array([0.5, 0.5]), np.array([0, 1]), np.arange(2)).brier
    0.25
    """
    y = made.astype(np.float64)
    e = (pred - y) ** 2
    _, inv = np.unique(deal, return_inverse=True)
    se = float(np.sqrt((np.bincount(inv, weights=e - e.mean()) ** 2).sum()) / e.size)
    return Brier(brier=float(e.mean()), brier_se=se, base_rate_brier=float(((y.mean() - y) ** 2).mean()),
                 n=int(e.size), deals=int(inv.max() + 1))


@dataclass(frozen=True, eq=False)  # eq=False: a DataFrame field has no plain ==
class Calibration:
    """A tier's predicted P(make) against what happened: the reliability ``table`` (a row per bin) and
    ``max_abs_gap``, its largest |realised - predicted|; for the corpus tiers the :class:`Brier` score, the
    held-out deals in words (``held_out``), ``questions`` asked per deal (one or ladder) and the ``model``'s
    provenance. ``open_share``: the share of held-out totals a node budget left open (None: all solved);
    ``further`` and ``max_abs_gap_controlled``: the control of ``--play single-dummy``; ``instant``: the
    instant tier's Brier on the checked tier's questions."""

    table: pd.DataFrame
    tier: str
    max_abs_gap: float
    brier: Brier | None = None
    held_out: str = ""
    questions: str = ""
    play: str = "double-dummy"
    model: dict[str, Any] = field(default_factory=dict)
    open_share: float | None = None
    further: str = ""
    max_abs_gap_controlled: float | None = None
    instant: Brier | None = None


def max_abs_gap(table: pd.DataFrame, column: str = "gap") -> float:
    """The largest |gap| of a reliability table (NaN when it has no rows)."""
    return float(table[column].abs().max()) if len(table) else float("nan")


__all__ = ["Brier", "Calibration", "brier", "max_abs_gap"]
