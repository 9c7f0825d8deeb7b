"""Synthetic study rows for the formula and calibration tests (no double-dummy play needed)."""

import numpy as np
import pandas as pd

from binokel_sim.evaluation.features import FEATURES


def synthetic_deals(n: int, seed: int, noise: float) -> pd.DataFrame:
    """Rows whose total is exactly 60 + melds + 12 aces + 6 tens + 9 trump cards + N(0, noise)."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({
        "melds": rng.choice(np.arange(0, 400, 10), n), "aces": rng.integers(0, 7, n), "tens": rng.integers(0, 7, n),
        "longest": rng.integers(3, 8, n), "trump_len": rng.integers(2, 8, n), "side_aces": 0, "points": 0,
    })
    base = 60 + df["melds"] + 12 * df["aces"] + 6 * df["tens"] + 9 * df["trump_len"]
    total = base + rng.normal(0, noise, n) if noise else base
    df["value"] = np.round(total).astype(np.int64) if noise else total.astype(np.int64)
    df["took"] = True
    df["code"] = 0
    df["special_made"] = False
    assert list(df.columns[:7]) == list(FEATURES)
    return df
