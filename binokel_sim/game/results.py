"""What a run of simulated games returns: per-game and per-deal rows, the summary, provenance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd


@dataclass
class GameResults:
    """Games (one row each), their deals (one row each), the summary figures and the provenance."""

    games: pd.DataFrame
    deals: pd.DataFrame
    summary: pd.DataFrame
    provenance: dict[str, Any]
