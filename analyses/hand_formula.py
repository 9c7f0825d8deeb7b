"""Fit the hand-point formula: the soloist's double-dummy total regressed on countable features.

Training and test deals come from different streams of the seed, so the test error
is out of sample. Writes the coefficients (with seed, rules, policy, n, R^2 and the
command) into ``binokel_sim/evaluation/formula_coefficients.json``::

    binokel fit formula --rules standard --deals 2000 --seed 1 --write

Trump contracts only (a Durch or Bettel is a different game and rare).
"""

from __future__ import annotations

import json
import os
import time

import numpy as np
import pandas as pd

from binokel_sim import streams
from binokel_sim.contracts import is_trump
from binokel_sim.evaluation.dd import DD
from binokel_sim.evaluation.study import STREAM_STUDY, study_deals
from binokel_sim.evaluation.formula import COEFFICIENTS, Formula, formula_dict, r2_bootstrap
from binokel_sim.output import write_json
from binokel_sim.errors import check_count
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Scale

#: Features the formula uses (a subset of hand_features.FEATURES a player can count quickly).
FORMULA_FEATURES = ("melds", "aces", "tens", "trump_len")
#: Test deals: a stream of their own (independent of the training deals).
STREAM_TEST = streams.stream("formula_test")


def _xy(df: pd.DataFrame, features) -> tuple[np.ndarray, np.ndarray]:
    d = df[is_trump(df["code"].to_numpy())]
    x = np.column_stack([np.ones(len(d))] + [d[f].to_numpy(np.float64) for f in features])
    return x, d["value"].to_numpy(np.float64)


def _r2(y: np.ndarray, pred: np.ndarray) -> float:
    return float(1.0 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def fit(rules: Rules, train: pd.DataFrame, test: pd.DataFrame, features=FORMULA_FEATURES,
        provenance: dict | None = None) -> tuple[Formula, dict]:
    """Least squares on ``train``; R^2 and RMSE in and out of sample (R^2 with a 95 % bootstrap
    interval over the test deals); sd = test RMSE."""
    x, y = _xy(train, features)
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    xt, yt = _xy(test, features)
    pred, pred_t = x @ beta, xt @ beta
    stats = {
        "n_train": int(len(y)), "n_test": int(len(yt)), "r2_train": _r2(y, pred), "r2_test": _r2(yt, pred_t),
        "rmse_train": float(np.sqrt(((y - pred) ** 2).mean())),
        "rmse_test": float(np.sqrt(((yt - pred_t) ** 2).mean())),
    }
    stats["r2_test_lo"], stats["r2_test_hi"] = r2_bootstrap(yt, pred_t)
    f = Formula(rules=rules.name, intercept=float(beta[0]), coef={k: float(b) for k, b in zip(features, beta[1:])},
                sd=stats["rmse_test"], provenance={**(provenance or {}), **stats})
    return f, stats


def run(rules: Rules | str | os.PathLike[str], deals: int, seed: int, policy: str = "heuristic",
        scale: Scale | None = None, dd: DD | None = None) -> tuple[Formula, dict, pd.DataFrame, pd.DataFrame]:
    """Simulate ``deals`` training and ``deals // 2`` test deals, then :func:`fit`."""
    rules = as_rules(rules)
    check_count("deals", deals, minimum=2)
    t0 = time.perf_counter()
    train = study_deals(rules, deals, seed, policy, dd=dd, stream=STREAM_STUDY, baseline=False, scale=scale)
    test = study_deals(rules, max(deals // 2, 2), seed, policy, dd=dd, stream=STREAM_TEST, baseline=False,
                       scale=scale)
    prov = {"seed": seed, "rules": rules.name, "policy": policy, "deals_train": deals, "deals_test": max(deals // 2, 2),
            "streams": {"train": list(STREAM_STUDY), "test": list(STREAM_TEST)},
            "command": f"binokel fit formula --rules {rules.name} --deals {deals} "
                       f"--seed {seed} --policy {policy} --write",
            "seconds": round(time.perf_counter() - t0, 1)}
    f, stats = fit(rules, train, test, provenance=prov)
    return f, stats, train, test


def save(f: Formula, path=COEFFICIENTS) -> None:
    """Store ``f`` under its rules name in the coefficients file (other presets kept)."""
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    data[f.rules] = formula_dict(f)
    write_json(data, path)

