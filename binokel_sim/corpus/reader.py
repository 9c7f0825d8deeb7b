"""Read and validate a corpus; find the shipped one matching a rule set (its figures: :mod:`.summary`).

:func:`load_corpus` checks the manifest (its identity digest), the rules' content hash and every chunk
(its file whole: readable Parquet with the recorded rows and SHA-256, and its deals the
manifest's range, each once in order; its first deal the manifest's seed deals, its rows of the
manifest's policy: :mod:`.identity`). A bad chunk
is a one-line :class:`InputError` naming it -- or, with ``skip_bad=True``, left out
(listed in ``Corpus.bad``) so the other chunks stay usable; ``binokel corpus build``
recomputes it. The rows are the study's rows (:func:`binokel_sim.studies.deals.study_deals`)
plus the corpus columns, so a study reads them as they are.

>>> import tempfile
>>> from binokel_sim.corpus.builder import build_corpus
>>> d = tempfile.mkdtemp()
>>> _ = build_corpus("four-solo", 3, d, seed=2, chunk_size=2)
>>> c = load_corpus(d, "four-solo")
>>> c.n, c.df["deal"].tolist()
(3, [0, 1, 2])
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim.errors import InputError
from binokel_sim.rules import Rules, load_rules

from binokel_sim.provenance import KEY_DIGITS, rules_hash

from .identity import check_rows, identity_columns, rules_of_data
from .manifest import check_rules, check_solves, file_sha256, read_manifest, rebuild_command

@dataclass
class Corpus:
    """A loaded corpus: its folder, manifest, rows (sorted by deal) and the chunks left out."""

    path: Path
    manifest: dict[str, Any]
    df: pd.DataFrame
    bad: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.df)

    def provenance(self) -> dict[str, Any]:
        """What a study built on this corpus says about its data."""
        m = self.manifest
        return {"corpus": os.fspath(self.path), "n": self.n, "rules_hash": m["rules_hash"], "seed": m["seed"],
                "policy": m["policy"], "solver_version": m.get("solver_version")}


def _read_chunk(folder: Path, entry: dict[str, Any], m: dict[str, Any]) -> pd.DataFrame:
    p = folder / entry["file"]

    def bad(why: str) -> InputError:  # the rebuild command is spelled out only for a chunk that fails
        return InputError(f"corpus {folder}: chunk {entry['file']} is {why} (`{rebuild_command(folder, m)}` "
                          "recomputes it)")

    if not p.is_file():
        raise bad("missing")
    if file_sha256(p) != entry["sha256"]:
        raise bad("truncated or corrupt")
    try:
        df = pd.read_parquet(p)
    except Exception:  # pyarrow raises several types for a damaged file
        raise bad("unreadable Parquet") from None
    if len(df) != int(entry["rows"]):
        raise InputError(f"corpus {folder}: chunk {entry['file']} is {len(df)} rows, the manifest says "
                         f"{entry['rows']}")
    # Whatever its checksum says: deals start .. stop - 1, each once and in order (two writers, a bug).
    start, stop = int(entry["start"]), int(entry["stop"])
    if "deal" not in df.columns or not np.array_equal(df["deal"].to_numpy(), np.arange(start, stop)):
        raise bad(f"not deals {start}..{stop - 1} once each (deals repeat or skip)")
    return df


def whole_rows(folder: Path, entry: dict[str, Any], columns: list[str]) -> pd.DataFrame | None:
    """The ``columns`` (``deal`` among them) of a chunk that passes :func:`_read_chunk`'s checks, else None."""
    p = folder / entry["file"]
    if not p.is_file() or file_sha256(p) != entry["sha256"]:
        return None
    try:
        df = pd.read_parquet(p, columns=columns)
    except Exception:  # pyarrow raises several types for a damaged file (or one without these columns)
        return None
    whole = np.array_equal(df["deal"].to_numpy(), np.arange(int(entry["start"]), int(entry["stop"])))
    return df if whole else None


def confirmed_chunks(folder: Path, m: dict[str, Any]) -> list[dict[str, Any]]:
    """The chunk entries whose file is whole (:func:`whole_rows`), once their rows confirm the manifest
    (:func:`.identity.check_rows`: a one-line :class:`InputError` if not); a writer recomputes the others."""
    rules = rules_of_data(m, folder)
    cols = identity_columns(m, rules)
    held = [(c, whole_rows(folder, c, cols)) for c in sorted(m["chunks"], key=lambda c: c["index"])]
    whole = [(c, rows) for c, rows in held if rows is not None]
    check_rows(folder, m, rules, [c for c, _ in whole], _concat([rows for _, rows in whole], cols))
    return [c for c, _ in whole]


def check_chunks(folder: Path, m: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """Each chunk of ``entries`` (in index order) whole (:func:`_read_chunk`: a bad one is one line naming it) and its
    rows the manifest's (:func:`.identity.check_rows`): what a writer checks before any work."""
    rules = rules_of_data(m, folder)
    cols = identity_columns(m, rules)
    check_rows(folder, m, rules, entries, _concat([_read_chunk(folder, e, m)[cols] for e in entries], cols))


def _concat(frames: list[pd.DataFrame], columns: list[str]) -> pd.DataFrame:
    """Chunks' rows as one frame (no chunk: no rows, the same columns)."""
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=columns)


def load_corpus(folder: str | os.PathLike, rules: Rules | str | None = None, *, skip_bad: bool = False,
                below: int | None = None) -> Corpus:
    """The corpus in ``folder``; with ``rules``, it must have been built with those rules (content hash).

    ``below``: read only the chunks holding deals below it (the rows may go past it).
    """
    folder = Path(folder)
    m = read_manifest(folder)
    check_solves(m, folder)
    if rules is not None:
        check_rules(m, load_rules(rules), folder)
    frames, read, bad = [], [], []
    for entry in sorted(m["chunks"], key=lambda c: c["index"]):
        if below is not None and int(entry["start"]) >= below:
            continue
        try:
            frames.append(_read_chunk(folder, entry, m))
            read.append(entry)
        except InputError:
            if not skip_bad:
                raise
            bad.append(entry["file"])
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame({"deal": np.zeros(0, np.int64)})
    df = df.sort_values("deal", ignore_index=True)
    check_rows(folder, m, rules_of_data(m, folder), read, df)  # the rows confirm the manifest's identity
    return Corpus(folder, m, df, bad)


def shipped_root() -> Path | None:
    """The folder of the shipped corpora (``data/corpus``), or None if not installed."""
    try:
        return Path(str(resources.files("binokel_sim.corpora")))
    except ModuleNotFoundError:
        return None


def shipped_label(path: str | os.PathLike[str]) -> str:
    """``data/corpus/NAME (shipped)`` for a shipped corpus, else the path as given: no machine's folder in a
    file that is committed or shared."""
    root = shipped_root()
    full = os.path.abspath(path)
    if root is not None and os.path.dirname(full) == os.path.abspath(root):
        return f"data/corpus/{os.path.basename(full)} (shipped)"
    return os.fspath(path)


def find_corpus(rules: Rules | str, seed: int | None = None, policy: str | None = None) -> Path | None:
    """A shipped corpus built with ``rules`` (by content hash; and ``seed`` / ``policy`` if given), else None."""
    root = shipped_root()
    if root is None or not root.is_dir():
        return None
    want = rules_hash(load_rules(rules), digits=KEY_DIGITS)
    for sub in sorted(p for p in root.iterdir() if (p / "manifest.json").is_file()):
        try:
            m = read_manifest(sub)
        except InputError:
            continue
        if m.get("play", "open") != "open":  # a single-dummy corpus holds other rows (its own reader)
            continue
        if m["rules_hash"] == want and seed in (None, m["seed"]) and policy in (None, m["policy"]) and m["deals"]:
            return sub
    return None


def load_rules_of(c: Corpus) -> Rules:
    """The corpus's rules: its recorded source if that still has the same content hash."""
    m = c.manifest
    for src in (m.get("rules_source"), m.get("rules")):
        if not isinstance(src, str):
            continue
        try:
            r = load_rules(src)
        except (InputError, TypeError):
            continue
        if rules_hash(r, digits=KEY_DIGITS) == m["rules_hash"]:
            return r
    raise InputError(f"corpus {c.path}: its rules {m.get('rules')!r} (hash {m['rules_hash']}) cannot be loaded; "
                     "pass them with --rules")
