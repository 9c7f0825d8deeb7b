"""Stored predictions of the instant tier on the held-out corpus deals.

The drawn ladder (:mod:`binokel_sim.evaluation.instant_draws`) costs 0.1-0.5 s a hand, so scoring it on
every held-out deal of a corpus (``binokel calibrate``, the report's calibration section, the
calibration tests) would take half an hour at ``standard``. ``binokel fit instant --write`` therefore
stores the model's P(make) ladder of each held-out hand beside the model, and calibration reads it back
when it asks exactly those questions of exactly that model.

A stored file is keyed by the questions it answers -- the rules hash, the play, the ladder of bids and
every held-out hand with its seat -- and holds the stored entry of the model that answered them. It is
read back for a model that is the same model (:func:`~binokel_sim.evaluation.model_agreement.same_model`):
equal up to the rounding of the CPU that fitted it, never by the float bits of a fit, which differ between
machines and BLAS kernels. Any refit on other deals, any other corpus or ladder, is another model or
another question, and the predictions are computed afresh. What the store cannot see is a change of the
exchange code the drawn ladder runs through; the tests recompute a sample of stored rows and compare them,
so such a change fails there until the model is refitted (``binokel fit instant --write`` rewrites the file).

The files are NumPy ``.npz`` archives read with ``allow_pickle=False`` (data, never code).

>>> import numpy as np
>>> k = store_key("d96dcbd3b1a474d2", "double-dummy", np.zeros((2, 24), np.uint8), np.array([0, 1]),
...               np.array([150, 160]))
>>> len(k), k == store_key("d96dcbd3b1a474d2", "double-dummy", np.zeros((2, 24), np.uint8), np.array([1, 0]),
...                        np.array([150, 160]))
(64, False)
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from binokel_sim.errors import InputError

#: The folder of the stored predictions, one file per rules hash (beside the model file).
STORE_DIR = Path(__file__).with_name("instant_heldout")


def store_key(rules_hash: str, play: str, hands: np.ndarray, seats: np.ndarray, ladder: np.ndarray) -> str:
    """The hash naming the questions: ``hands`` (uint8[n, 24]) at ``seats`` over ``ladder``, of a model of
    ``rules_hash`` fitted on ``play``'s totals."""
    h = hashlib.sha256(f"{rules_hash}|{play}|".encode())
    for a, t in ((hands, np.uint8), (seats, np.int64), (ladder, np.int64)):
        h.update(np.ascontiguousarray(a, dtype=t).tobytes())
        h.update(b"|")
    return h.hexdigest()


def _entry(model) -> dict[str, Any]:
    from dataclasses import asdict

    d = asdict(model)
    d.pop("provenance", None)  # words, not numbers: a reworded provenance predicts the same
    return d


def _key(model, hands: np.ndarray, seats: np.ndarray, ladder: np.ndarray) -> str:
    return store_key(model.rules_hash, model.play, hands, seats, ladder)


def _path(model, folder: Path | None) -> Path:
    # One file per rules and play: the real-play model's questions (its held-out and fresh deals) beside the
    # open-card model's.
    play = "" if model.play == "double-dummy" else f"-{model.play}"
    return (folder or STORE_DIR) / f"{model.rules_hash}{play}.npz"


def load_predictions(model, hands: np.ndarray, seats: np.ndarray, ladder: np.ndarray,
                     folder: Path | None = None) -> np.ndarray | None:
    """The stored P(make)[n, len(ladder)] of these questions, or None where none is stored under their key
    or the stored answers are another model's."""
    from binokel_sim.evaluation.instant import InstantModel
    from binokel_sim.evaluation.model_agreement import same_model

    p = _path(model, folder)
    if not p.is_file():
        return None
    try:
        with np.load(p, allow_pickle=False) as z:
            if str(z["key"]) != _key(model, hands, seats, ladder):
                return None
            answered_by = InstantModel(**json.loads(str(z["model"])))
            p_make = np.asarray(z["p_make"], dtype=np.float64)
    except (ValueError, OSError, KeyError, TypeError, zipfile.BadZipFile) as exc:
        raise InputError(f"stored predictions {p} unreadable ({type(exc).__name__}):"
                         " binokel fit instant --write rewrites them") from None
    return p_make if same_model(answered_by, model) else None


def save_predictions(model, hands: np.ndarray, seats: np.ndarray, ladder: np.ndarray, p_make: np.ndarray,
                     folder: Path | None = None) -> Path:
    """Store ``p_make`` under the questions' key with the model that answered them (atomically, replacing
    the rules' earlier file)."""
    from binokel_sim.output import atomic_path

    buf = io.BytesIO()
    np.savez_compressed(buf, key=np.array(_key(model, hands, seats, ladder)),
                        model=np.array(json.dumps(_entry(model), sort_keys=True)),
                        p_make=np.asarray(p_make, dtype=np.float64))
    target = _path(model, folder)
    with atomic_path(target) as tmp:
        tmp.write_bytes(buf.getvalue())
    return target
