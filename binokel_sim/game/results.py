"""What a run of simulated games returns: per-game and per-deal rows, the summary, provenance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim.stats import proportion


@dataclass
class GameResults:
    """Games (one row each), their deals (one row each), the summary figures and the provenance."""

    games: pd.DataFrame
    deals: pd.DataFrame
    summary: pd.DataFrame
    provenance: dict[str, Any]


def mean_row(figure: str, x: np.ndarray) -> dict[str, Any]:
    """A mean: its n and standard error (no interval: a mean has no natural range)."""
    x = np.asarray(x, dtype=np.float64)
    n = int(x.size)
    mean = float(x.mean()) if n else float("nan")
    se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return {"figure": figure, "value": mean, "se": se, "lo": float("nan"), "hi": float("nan"), "n": n}


def rate_row(figure: str, x: np.ndarray) -> dict[str, Any]:
    """A proportion: its n, standard error and 95 % Wilson interval."""
    x = np.asarray(x, dtype=bool)
    p = proportion(int(x.sum()), int(x.size))
    return {"figure": figure, "value": p["p"], "se": p["se"], "lo": p["lo"], "hi": p["hi"], "n": p["n"]}
