"""The corpus manifest: what a corpus folder holds and what produced it.

``manifest.json`` beside the chunk files records the rules' content hash (the
resolved rules data, not the preset name: a user TOML called ``standard`` with
another meld table gets another hash), the package and solver versions, seed,
exchange policy, chunk size, every finished chunk (range, rows, SHA-256, nodes,
CPU seconds) and the build history (exact commands). It is rewritten atomically
after every chunk, so a killed build leaves a manifest that lists exactly the
chunk files that are whole.

>>> from binokel_sim.rules import load_rules
>>> h = rules_hash(load_rules("standard"))
>>> len(h), h == rules_hash(load_rules("standard")), h == rules_hash(load_rules("kreuz"))
(16, True, False)
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from binokel_sim.errors import InputError
from binokel_sim.provenance import rules_hash as provenance_hash
from binokel_sim.rules import Rules
from binokel_sim.versions import solver_version  # noqa: F401  (the builder's and the readers' name for it)

MANIFEST = "manifest.json"
#: Bump when the row layout changes: a reader refuses other formats.
CORPUS_FORMAT = 1


def rules_hash(rules: Rules) -> str:
    """The rules' content hash (:func:`binokel_sim.provenance.rules_hash`), 16 hex digits."""
    return provenance_hash(rules)[:16]


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
    if not Path(folder).is_dir():
        raise InputError(f"corpus {os.fspath(folder)}: no such folder")
    if not p.is_file():
        raise InputError(f"corpus {os.fspath(folder)}: missing {MANIFEST} (not a corpus folder)")
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"corpus {os.fspath(folder)}: {MANIFEST} is unreadable ({type(exc).__name__})") from None
    if not isinstance(m, dict) or m.get("format") != CORPUS_FORMAT or not isinstance(m.get("chunks"), list):
        raise InputError(f"corpus {os.fspath(folder)}: {MANIFEST} is not a corpus manifest of format {CORPUS_FORMAT}")
    return m


def check_rules(manifest: dict[str, Any], rules: Rules, folder: str | os.PathLike) -> None:
    """:class:`InputError` unless the corpus was built with ``rules`` (by content hash)."""
    want = rules_hash(rules)
    if manifest.get("rules_hash") != want:
        raise InputError(
            f"corpus {os.fspath(folder)} holds rules {manifest.get('rules')!r} (hash {manifest.get('rules_hash')}), "
            f"not {rules.name!r} (hash {want})")


def held_deals(manifest: dict[str, Any]) -> int:
    """Deals the manifest's chunks hold."""
    return sum(int(c["stop"]) - int(c["start"]) for c in manifest["chunks"])
