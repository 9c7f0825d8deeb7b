"""Content hashes of the code that produces numbers: the solver's, and the whole package's.

A stored result (a corpus chunk, a checkpoint) records them, so a result made by other code
is recognised: :func:`solver_version` hashes the solver and the legal-move code (exact values
do not depend on it, bounded ones may), :func:`code_version` every module of the package and
the module of a job's chunk function (any change of the study code gives another hash).

>>> solver_version().startswith("src-"), len(code_version(solver_version))
(True, 16)
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path
from typing import Callable

#: The package's folder: the files are hashed where they lie, without importing them.
_ROOT = Path(__file__).resolve().parent


@functools.cache
def _files_hash(files: tuple[str, ...], root: str) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update(str(Path(f).relative_to(root) if f.startswith(root) else Path(f).name).encode())
        h.update(Path(f).read_bytes())
    return h.hexdigest()


def solver_version() -> str:
    """Content hash of the solver's and the legal-move code."""
    root = _ROOT / "play" / "solver"
    files = sorted(str(p) for p in root.glob("*.py")) + [str(_ROOT / "play" / "legal.py")]
    return "src-" + _files_hash(tuple(files), str(root))[:12]


@functools.cache
def _package_files() -> tuple[str, tuple[str, ...]]:
    return str(_ROOT), tuple(sorted(str(p) for p in _ROOT.rglob("*.py")))


def code_version(fn: Callable) -> str:
    """Content hash of every module of the package, and of ``fn``'s module where it lives elsewhere."""
    root, files = _package_files()
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    own = getattr(module, "__file__", None)
    if own and str(Path(own)) not in files and Path(own).is_file():
        files = (*files, str(Path(own)))
    return _files_hash(files, root)[:16]
