"""The corpus manifest: what a corpus folder holds and what produced it.

``manifest.json`` beside the chunk files records the rules' content hash (the
resolved rules data, not the preset name: a user TOML called ``standard`` with
another meld table gets another hash), the package and solver versions, seed,
exchange policy, chunk size, every finished chunk (range, rows, SHA-256, nodes,
CPU seconds) and the build history (exact commands). It is rewritten atomically
after every chunk, so a killed build leaves a manifest that lists exactly the
chunk files that are whole.

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.provenance import KEY_DIGITS, rules_hash
>>> h = rules_hash(load_rules("standard"), digits=KEY_DIGITS)
>>> len(h), h == rules_hash(load_rules("kreuz"), digits=KEY_DIGITS)
(16, False)
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from binokel_sim.errors import InputError, shown
from binokel_sim.provenance import KEY_DIGITS, rules_hash
from binokel_sim.rules import Rules
from binokel_sim.versions import solver_version  # noqa: F401  (the builder's and the readers' name for it)

MANIFEST = "manifest.json"
#: Bump when the row layout changes: a reader refuses other formats.
CORPUS_FORMAT = 1


def file_sha256(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def chunk_name(index: int) -> str:
    return f"chunk-{index:05d}.parquet"


def read_manifest(folder: str | os.PathLike) -> dict[str, Any]:
    """The manifest of corpus ``folder``; a one-line :class:`InputError` if missing or unreadable."""
    p = Path(folder) / MANIFEST
    try:
        if not Path(folder).is_dir():
            raise InputError(f"corpus {os.fspath(folder)}: no such folder")
        if not p.is_file():
            raise InputError(f"corpus {os.fspath(folder)}: missing {MANIFEST} (not a corpus folder)")
    except InputError:
        raise
    except (OSError, ValueError) as exc:  # a name too long, a NUL character
        why = exc.strerror if isinstance(exc, OSError) else "not a valid path"
        raise InputError(f"corpus {shown(os.fspath(folder), 100)}: {why}") from None
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as exc:
        raise InputError(f"corpus {os.fspath(folder)}: {MANIFEST} is unreadable ({type(exc).__name__})") from None
    if not isinstance(m, dict) or m.get("format") != CORPUS_FORMAT or not isinstance(m.get("chunks"), list):
        raise InputError(f"corpus {os.fspath(folder)}: {MANIFEST} is not a corpus manifest of format {CORPUS_FORMAT}")
    problem = shape_problem(m)
    if problem:
        raise InputError(f"corpus {os.fspath(folder)}: {MANIFEST} is damaged ({problem}); build the corpus "
                         "again into a new folder")
    return m


def _is_int(v: Any, lo: int = 0) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= lo


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0


#: Top-level fields a reader relies on: (name, check, required).
_FIELDS = (
    ("rules", lambda v: isinstance(v, str), True), ("rules_hash", lambda v: isinstance(v, str), True),
    ("seed", _is_int, True), ("policy", lambda v: isinstance(v, str), True),
    ("chunk_size", lambda v: _is_int(v, 1), True), ("deals", _is_int, True), ("cpu_seconds", _is_number, True),
    ("nodes", _is_int, False), ("unresolved_fraction", _is_number, False),
    ("durch_check", lambda v: isinstance(v, bool), False),
    ("solve_budget", lambda v: v is None or _is_int(v, 1), False),
    ("solve_within", lambda v: v is None or _is_int(v, 1), False),
    ("builds", lambda v: isinstance(v, list) and all(isinstance(b, dict) for b in v), False),
    ("revisions", lambda v: isinstance(v, list) and all(isinstance(b, dict) for b in v), False),
)


def shape_problem(m: dict[str, Any]) -> str | None:
    """What is wrong with a manifest's shape (a missing or mistyped field, a chunk whose range does not fit its
    index, chunks that overlap), or None. Chunk ``k`` holds deals ``k * chunk_size`` on, one row each.

    >>> shape_problem({"rules": "r", "rules_hash": "h", "seed": 1, "policy": "p", "chunk_size": 0, "deals": 0,
    ...                "cpu_seconds": 0, "chunks": []})
    'chunk_size: expected an integer >= 1'
    """
    for name, ok, required in _FIELDS:
        if (name in m or required) and not ok(m.get(name)):
            return f"{name}: expected " + ("an integer >= 1" if name == "chunk_size" else "another value")
    size, seen, held = m["chunk_size"], set(), 0
    for i, c in enumerate(m["chunks"]):
        if not isinstance(c, dict):
            return f"chunks[{i}]: expected an entry"
        k = c.get("index")
        if not isinstance(k, int) or not _is_int(k) or k in seen or c.get("file") != chunk_name(k):
            return f"chunks[{i}]: index and file do not match"
        seen.add(k)
        start, stop, rows = c.get("start"), c.get("stop"), c.get("rows")
        if not (_is_int(start) and _is_int(stop) and _is_int(rows) and start == k * size < stop <= start + size
                and rows == stop - start):
            return f"chunks[{i}]: deals {shown(start, 20)}..{shown(stop, 20)}, {shown(rows, 20)} rows: not chunk {k}"
        sha = c.get("sha256")
        if not (isinstance(sha, str) and len(sha) == 64 and all(ch in "0123456789abcdef" for ch in sha)):
            return f"chunks[{i}]: sha256 is not a SHA-256"
        if not (_is_int(c.get("nodes")) and _is_number(c.get("cpu_seconds")) and _is_int(c.get("unresolved"))):
            return f"chunks[{i}]: nodes, cpu_seconds or unresolved is missing"
        held += rows
    if held != m["deals"]:
        return f"deals: {m['deals']}, but the chunks hold {held}"
    return None


def check_rules(manifest: dict[str, Any], rules: Rules, folder: str | os.PathLike) -> None:
    """:class:`InputError` unless the corpus was built with ``rules`` (by content hash)."""
    want = rules_hash(rules, digits=KEY_DIGITS)
    if manifest.get("rules_hash") != want:
        raise InputError(
            f"corpus {os.fspath(folder)} holds rules {manifest.get('rules')!r} (hash {manifest.get('rules_hash')}), "
            f"not {rules.name!r} (hash {want})")


def check_solves(manifest: dict[str, Any], folder: str | os.PathLike) -> None:
    """InputError unless the corpus holds double-dummy solves (a single-dummy corpus holds played deals)."""
    if manifest.get("play", "open") != "open":
        raise InputError(f"corpus {folder} holds {manifest['play']} play, not double-dummy solves: read it with "
                         "`binokel corpus info` or `binokel study play-gap --corpus`")


def held_deals(manifest: dict[str, Any]) -> int:
    """Deals the manifest's chunks hold."""
    return sum(int(c["stop"]) - int(c["start"]) for c in manifest["chunks"])
