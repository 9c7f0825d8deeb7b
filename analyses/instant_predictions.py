"""The instant tier's P(make) of many held-out hands: read from the store or computed in kept chunks.

:func:`predict` runs ``model.p_make`` in chunks of :data:`PREDICT_CHUNK` hands under a
:class:`~binokel_sim.runner.Scale`; with a checkpoint each chunk is kept under the questions and the model's
identity, so a report or ``binokel calibrate`` stopped while it computes resumes where it stopped.
:func:`held_out_predictions` reads the stored answers first (:mod:`binokel_sim.evaluation.instant_store`).

>>> import pandas as pd
>>> soloist_hands(pd.DataFrame({"soloist": [1], "hand0": ["0" * 24], "hand1": ["1" * 12 + "0" * 12]}))[0].sum()
np.uint64(12)
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from binokel_sim.rules import Rules
from binokel_sim.runner import Scale


def soloist_hands(rows: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(uint8[n, 24] count vectors, seats) of each corpus row's soloist."""
    seat = rows["soloist"].to_numpy()
    # Each row's soloist hand, from its 24-digit count string.
    text = "".join(rows[f"hand{s}"].iat[i] for i, s in enumerate(seat))
    return (np.frombuffer(text.encode("ascii"), dtype=np.uint8) - ord("0")).reshape(len(rows), -1), seat


def held_out_predictions(rules: Rules, model, rows: pd.DataFrame, ladder: np.ndarray, stored: bool = True,
                         progress: bool = False, scale: Scale | None = None) -> np.ndarray:
    """The instant tier's P(make)[row, bid] of ``rows``' soloist hands over ``ladder``: read from the store
    (:mod:`binokel_sim.evaluation.instant_store`) where ``stored`` and it holds these questions, else computed
    by :func:`predict` (under ``scale``: its workers and checkpoint)."""
    from binokel_sim.evaluation.instant_store import load_predictions

    hands, seat = soloist_hands(rows)
    p = load_predictions(model, hands, seat, ladder) if stored else None
    return predict(rules, model, hands, seat, ladder, progress, scale) if p is None else p


#: Hands per chunk of :func:`predict` (the drawn ladder: 0.1-0.5 s a hand).
PREDICT_CHUNK = 50


def predict(rules: Rules, model, hands: np.ndarray, seat: np.ndarray, ladder: np.ndarray,
            progress: bool = False, scale: Scale | None = None) -> np.ndarray:
    """``model.p_make`` of many hands (uint8[n, 24] at ``seat``) over ``ladder``, in chunks of
    :data:`PREDICT_CHUNK` on local threads (the drawn ladder's kernels release the GIL).

    With ``scale.checkpoint`` each finished chunk is kept there, under the questions' key (the store's:
    rules hash, play, hands, seats, ladder) and the model's identity
    (:func:`~binokel_sim.evaluation.model_agreement.identity`, its floats to 9 digits, never their bits), so
    an interrupted report or calibration resumes; e.g. ``predict(rules, m, hands, seat, ladder,
    scale=Scale(checkpoint="ck"))``.
    """
    from binokel_sim.evaluation.instant_store import store_key
    from binokel_sim.evaluation.model_agreement import identity
    from binokel_sim.provenance import rules_hash
    from binokel_sim.runner import chunk_ranges, run_local_chunks

    scale = scale or Scale()
    if progress and not scale.progress:
        scale = dataclasses.replace(scale, progress=True)
    key = {"questions": store_key(rules_hash(rules), model.play, hands, seat, ladder),
           "model": identity(model).to_dict()}
    parts = run_local_chunks(lambda c: model.p_make(rules, hands[c.start:c.stop], seat[c.start:c.stop], ladder),
                             chunk_ranges(len(hands), PREDICT_CHUNK), scale, desc="instant tier",
                             what="the instant tier's predictions", key=key)
    return np.concatenate(parts) if parts else np.empty((0, len(ladder)))
