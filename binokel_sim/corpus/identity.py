"""The rows confirm a corpus's identity: a manifest edited and re-sealed still cannot pass a wrong seed or policy.

The manifest's digest (:func:`.manifest.identity_digest`) binds its fields to its chunks, but anyone can
recompute it. So the reader, the builder and ``corpus refresh`` also check the rows against the manifest:

* its ``rules_hash`` is the hash of its own ``rules_data`` (:func:`rules_of_data`);
* the first deal of each chunk, dealt again from the manifest's seed, stream and rules with the builder's
  dealing code (:func:`binokel_sim.studies.deals.deal_hands`), is the deal the row holds (``hand0`` ..,
  ``tapp``); a single-dummy corpus holds no hands, so every row's ``melds`` (the soloist's own melds) is
  compared instead;
* every row's ``policy`` column is the manifest's policy.

Dealing is a fast kernel (tens of microseconds a chunk), so every read checks every chunk it reads: on
``data/corpus/standard`` (200 chunks) the check costs 30-50 ms, plus about 0.18 s once a process to load the
cached dealing kernel (measured: ``binokel corpus info data/corpus/standard`` 1.27 s without the checks, 1.45 s
with them, medians of 7 on the shared 2-core machine).

>>> import tempfile
>>> from binokel_sim.corpus.builder import build_corpus
>>> from binokel_sim.corpus.reader import load_corpus
>>> d = tempfile.mkdtemp()
>>> m = build_corpus("four-solo", 2, d, seed=7, chunk_size=1)
>>> c = load_corpus(d)
>>> check_rows(d, m, rules_of_data(m, d), m["chunks"], c.df)   # the rows confirm the manifest
>>> try:
...     check_rows(d, {**m, "seed": 8}, rules_of_data(m, d), m["chunks"], c.df)
... except InputError as e:
...     print(str(e).split(": ", 1)[1].split(";")[0])
the manifest's seed 8 does not match its rows (deal 0 in chunk-00000.parquet was dealt from another seed or stream)
"""

from __future__ import annotations

import os
from typing import Any, Iterable

import numpy as np
import pandas as pd

from binokel_sim.errors import InputError, shown
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.evaluation.deals import deal_counts
from binokel_sim.evaluation.features import FEATURES, features_batch
from binokel_sim.provenance import KEY_DIGITS, rules_hash
from binokel_sim.rules import Rules, rules_from_data

#: What a refusal adds: the two ways a manifest and its rows part.
EDITED = "the manifest was edited or the folder mixes corpora"


def rules_of_data(m: dict[str, Any], folder: str | os.PathLike) -> Rules:
    """The rule set the manifest records (``rules_data``), once its content hash is the manifest's ``rules_hash``."""
    try:
        data = m["rules_data"]
        rules = rules_from_data(data, f"{os.fspath(folder)}/manifest.json", frozenset(data))
    except InputError as exc:
        raise InputError(f"corpus {os.fspath(folder)}: the manifest's rules_data is not a rule set ({exc})") from None
    got = rules_hash(rules, digits=KEY_DIGITS)
    if got != m["rules_hash"]:
        raise InputError(f"corpus {os.fspath(folder)}: the manifest's rules_hash {shown(m['rules_hash'], 30)} is not "
                         f"the hash of its rules_data ({got}); {EDITED}")
    return rules


def identity_columns(m: dict[str, Any], rules: Rules) -> list[str]:
    """The row columns :func:`check_rows` reads: the deal, and the hands and policy (or a single-dummy row's melds)."""
    if m.get("play", "open") == "single-dummy":
        return ["deal", "melds"]
    return ["deal", *(f"hand{s}" for s in range(rules.n_seats)), "tapp", "policy"]


def _count_strings(counts: np.ndarray) -> list[str]:
    return ["".join(map(str, r)) for r in counts.tolist()]


class _Deals:
    """The manifest's deals as the builder deals them (:func:`binokel_sim.studies.deals.deal_hands`: a
    :class:`Dealer` on the seed and stream, then :func:`deal_counts`), one dealer for every chunk."""

    def __init__(self, m: dict[str, Any], rules: Rules):
        self.rules, self.dealer = rules, Dealer(rules, int(m["seed"]), stream=tuple(m["stream"]))

    def hands(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """(hands uint8[n, seats, 24], tapp uint8[n, 24]) of deals ``start .. stop - 1``."""
        return deal_counts(self.dealer.deal(stop - start, start=start), self.rules)


def _hands_problem(m: dict[str, Any], rules: Rules, entries: list[dict[str, Any]], rows: pd.DataFrame) -> str | None:
    """Why a chunk's first row is not the manifest's deal (hands, Tapp), or a row's policy not its policy, or None."""
    deals, deal = _Deals(m, rules), rows["deal"].to_numpy()
    cols = identity_columns(m, rules)[1:-1]
    for e in entries:
        start = int(e["start"])
        hands, tapp = deals.hands(start, start + 1)
        want = [_count_strings(hands[:, s])[0] for s in range(rules.n_seats)] + _count_strings(tapp)
        at = int(np.searchsorted(deal, start))  # the rows are in deal order
        if [str(rows[c].iat[at]) for c in cols] != want:
            return (f"the manifest's seed {shown(m['seed'], 30)} does not match its rows (deal {start} in "
                    f"{e['file']} was dealt from another seed or stream)")
    other = rows["policy"].to_numpy() != m["policy"]
    if other.any():
        i = int(np.argmax(other))
        return (f"the manifest's policy {shown(m['policy'], 30)} does not match its rows (deal {deal[i]} was chosen "
                f"by policy {shown(rows['policy'].iat[i], 30)})")
    return None


def _melds_problem(m: dict[str, Any], rules: Rules, entries: list[dict[str, Any]], rows: pd.DataFrame) -> str | None:
    """Why single-dummy rows are not the manifest's deals (every row's soloist melds), or None."""
    deals, deal = _Deals(m, rules), rows["deal"].to_numpy()
    for e in entries:
        start, stop = int(e["start"]), int(e["stop"])
        hands, _ = deals.hands(start, stop)
        mine = np.ascontiguousarray(hands[np.arange(stop - start), np.arange(start, stop) % rules.n_seats])
        feats = np.empty((stop - start, len(FEATURES)), dtype=np.int64)
        features_batch(mine, rules.meld_array(), feats)
        lo, hi = np.searchsorted(deal, [start, stop])
        if not np.array_equal(feats[:, FEATURES.index("melds")], rows["melds"].to_numpy()[lo:hi]):
            return (f"the manifest's seed {shown(m['seed'], 30)} does not match its rows (deals {start}..{stop - 1} "
                    f"in {e['file']} were dealt from another seed or stream)")
    return None


def check_rows(folder: str | os.PathLike, m: dict[str, Any], rules: Rules, entries: Iterable[dict[str, Any]],
               rows: pd.DataFrame) -> None:
    """:class:`InputError` unless the chunks ``entries`` confirm the manifest ``m`` built with ``rules``
    (:func:`rules_of_data`); ``rows``: their rows in deal order, at least the :func:`identity_columns`."""
    entries = list(entries)
    missing = [c for c in identity_columns(m, rules) if c not in rows.columns]
    if entries and missing:
        raise InputError(f"corpus {os.fspath(folder)}: its rows have no column {missing[0]!r}, so they cannot "
                         "confirm the manifest (not corpus chunks)")
    if entries:
        sd = m.get("play", "open") == "single-dummy"
        problem = (_melds_problem if sd else _hands_problem)(m, rules, entries, rows)
        if problem:
            raise InputError(f"corpus {os.fspath(folder)}: {problem}; {EDITED}")
