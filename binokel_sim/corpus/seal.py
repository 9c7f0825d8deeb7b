"""``binokel corpus seal``: give a corpus written before corpora carried an identity digest its digest.

The reader refuses a manifest without ``identity_sha256`` (:func:`.manifest.check_identity_digest`). Sealing
checks what a reader checks, on every chunk -- the file whole (SHA-256, rows, deals in order) and its rows
the manifest's deals and policy (:mod:`.identity`) -- and only then writes the digest, under the folder's
write lock. A manifest that carries a digest is checked, never re-sealed: a digest that does not match is
refused (sealing is no way round the check).

>>> import json, tempfile
>>> from pathlib import Path
>>> from binokel_sim.corpus.builder import build_corpus
>>> d = Path(tempfile.mkdtemp())
>>> _ = build_corpus("four-solo", 2, d, seed=3, chunk_size=1)
>>> m = json.loads((d / "manifest.json").read_text())
>>> _ = m.pop("identity_sha256"); (d / "manifest.json").write_text(json.dumps(m)) > 0
True
>>> seal_corpus(d)["sealed"], seal_corpus(d)["sealed"]
(True, False)
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from binokel_sim.rules import Rules, load_rules

from .lock import corpus_writer
from .manifest import IDENTITY_DIGEST, check_identity_digest, check_rules, read_manifest, write_manifest
from .reader import check_chunks


def seal_corpus(folder: str | os.PathLike, rules: Rules | str | None = None) -> dict[str, Any]:
    """Check corpus ``folder`` in full and add its identity digest if it has none (with ``rules``: the corpus
    must have been built with them). Returns ``corpus``, ``deals``, ``chunks`` and ``sealed`` (whether the
    digest was written now)."""
    folder = Path(folder)
    _checked(folder, rules)  # a damaged or edited manifest: one line, before the lock
    with corpus_writer(folder, "`binokel corpus seal`", create=False):
        m = _checked(folder, rules)
        check_chunks(folder, m, sorted(m["chunks"], key=lambda c: c["index"]))
        sealed = IDENTITY_DIGEST not in m
        if sealed:
            write_manifest(m, folder)
    return {"corpus": os.fspath(folder), "deals": m["deals"], "chunks": len(m["chunks"]), "sealed": sealed}


def _checked(folder: Path, rules: Rules | str | None) -> dict[str, Any]:
    """The manifest, its digest checked where it has one, its rules checked against ``rules`` if given."""
    m = read_manifest(folder, sealed=False)
    if IDENTITY_DIGEST in m:
        check_identity_digest(m, folder)
    if rules is not None:
        check_rules(m, load_rules(rules), folder)
    return m
