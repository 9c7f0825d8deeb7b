"""The report's data model: budgets (deals per study), sections, the typed results of the sections the
summary reads, the provenance and the report itself.

:mod:`binokel_sim.analyses.report` fills a :class:`Report`;
:mod:`binokel_sim.analyses.report_render` writes it as HTML and Markdown. A section builder returns its
:class:`Section` (what is rendered) inside a small result (:class:`TappResult`, :class:`BidResult`, ...)
whose fields carry the figures :mod:`binokel_sim.analyses.report_summary` repeats, so the summary never
looks a number up by a table's caption.

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


@dataclass(frozen=True)
class Estimate:
    """A figure and its standard error."""

    value: float
    se: float


@dataclass(frozen=True)
class MeldOddsResult:
    """The meld-odds sections (events, then the meld-total distribution), the whole Monte Carlo table and the
    p-values of the events' tests against the exact odds (the events table's, missing ones left out)."""

    sections: list[Section]
    table: pd.DataFrame
    p_values: pd.Series


@dataclass(frozen=True)
class TappResult:
    """The Tapp section and its headline sharpened by the melds-only control variate (None: not sharpened)."""

    section: Section
    sharpened: Estimate | None = None


@dataclass(frozen=True)
class BidResult:
    """The bid-ladder section and its table of the ceiling and safe bid by hand class
    (:func:`binokel_sim.analyses.bid_levels.class_table`)."""

    section: Section
    classes: pd.DataFrame


@dataclass(frozen=True)
class RealPlayResult:
    """The open-cards-against-real-play section; ``totals`` (the soloist's mean total by way of play and the
    paired differences, indexed by ``play``) and ``safe_bids`` (the safe bid by way of play) as the section
    shows them, None where it measured neither."""

    section: Section
    totals: pd.DataFrame | None = None
    safe_bids: pd.DataFrame | None = None


@dataclass(frozen=True)
class Reliability:
    """One advisor's calibration table as the report shows it: ``advisor`` is ``formula`` (the hand-point
    formula) or ``instant`` (the instant tier of ``binokel bid``); ``table`` has ``bin_from``, ``bin_to``,
    ``gap`` and ``realised_se``."""

    advisor: str
    caption: str
    table: pd.DataFrame


@dataclass(frozen=True)
class CalibrationResult:
    """The calibration section and its tables, the formula's first (none: the section is left out)."""

    section: Section
    tables: list[Reliability] = field(default_factory=list)


#: The provenance table's rows: identifier key -> the label the report prints. A report's provenance is a
#: mapping of these keys (in this order where present); :func:`provenance_frame` renders it.
PROVENANCE_LABELS = {
    "version": "binokel-sim", "git_commit": "git commit", "rules": "rules", "rules_source": "rules source",
    "rules_sha256": "rules sha256", "seed": "seed", "budget": "budget", "meld_deals": "meld-odds deals",
    "study_deals": "study deals solved when no corpus holds them",
    "calibration_deals": "calibration deals solved when no corpus holds them",
    "endgame_deals": "endgame deals", "growth_deals": "meld-growth deals", "games": "games",
    "talon_play": "talon play", "endgame_play": "endgame play",
    "exchange_policy": "exchange policy", "play": "play", "play_source": "play sections",
    "play_deals": "play deals", "from_corpus": "from corpus", "corpus": "corpus",
    "corpus_rules_hash": "corpus rules hash", "melds_only_deals": "melds-only deals (Tapp control variate)",
    "run_seconds": "run time (s)", "study_seconds": "time per study (s)", "python": "python", "run_on": "run on",
    "command": "command",
}


def provenance_frame(prov: dict[str, Any]) -> pd.DataFrame:
    """The provenance table: one row per key, its label and its value as text.

    >>> provenance_frame({"seed": 1, "run_seconds": 2.5}).values.tolist()
    [['seed', '1'], ['run time (s)', '2.5']]
    """
    return pd.DataFrame({"item": [PROVENANCE_LABELS[k] for k in prov], "setting": [str(v) for v in prov.values()]})


@dataclass
class Report:
    """A computed report: its sections in order and its provenance (keys of :data:`PROVENANCE_LABELS`)."""

    rules: Rules
    budget: Budget
    seed: int
    sections: list[Section]
    provenance: dict[str, Any]
