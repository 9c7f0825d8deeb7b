"""The report's data model: budgets (deals per study), sections and the report itself.

:mod:`binokel_sim.analyses.report` fills a :class:`Report`;
:mod:`binokel_sim.analyses.report_render` writes it as HTML and Markdown.

>>> BUDGETS["quick"].study_deals
60
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from binokel_sim.rules import Rules


@dataclass(frozen=True)
class Budget:
    """Deals per study. ``quick`` is the README's job (minutes on two cores)."""

    name: str
    meld_deals: int
    study_deals: int
    calibration_deals: int
    exact: bool = True
    #: Solver nodes per deal for the play studies (None: exact below 48 cards, the default budget at 48).
    solve_budget: int | None = None


BUDGETS = {
    "quick": Budget("quick", meld_deals=200_000, study_deals=60, calibration_deals=60),
    "standard": Budget("standard", meld_deals=2_000_000, study_deals=400, calibration_deals=400),
    "full": Budget("full", meld_deals=20_000_000, study_deals=4000, calibration_deals=4000),
}

@dataclass
class Section:
    """One part of the report: paragraphs (Markdown), tables and figures, in that order."""

    key: str
    title: str
    text: list[str] = field(default_factory=list)
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    figures: list[tuple[str, Any, str]] = field(default_factory=list)  # (file stem, Figure, caption)


@dataclass
class Report:
    rules: Rules
    budget: Budget
    seed: int
    sections: list[Section]
    provenance: dict[str, Any]
