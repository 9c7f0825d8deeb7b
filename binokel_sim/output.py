"""Writers for tables, JSON and charts: one writer per format behind one entry point, all atomic.

A file is written to a temporary name in the same folder and renamed into place,
so an interrupted run never leaves a half-written output. Every table and chart carries
its provenance (:mod:`binokel_sim.provenance`): a ``# provenance: {...}`` first line in
CSV, ``attrs["provenance"]`` in Parquet, a ``provenance`` object beside ``rows`` in JSON,
a ``Description`` text in PNG and SVG (``Subject`` in PDF).

>>> import pandas as pd, tempfile, os
>>> p = os.path.join(tempfile.mkdtemp(), "t.csv")
>>> write_table(pd.DataFrame({"a": [1]}), p, provenance={"seed": 1})
>>> open(p).read().strip()
'# provenance: {"seed": 1}\\na\\n1'
>>> pd.read_csv(p, comment="#").a.tolist()
[1]
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import threading
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from binokel_sim.errors import InputError, WriteError, shown

if TYPE_CHECKING:  # the writers only call the frame's methods: no pandas import for commands that write none
    import pandas as pd


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _read_umask()
#: Prefix of the temporary files beside an output: short, so a legal long name never makes a too long one.
TMP_PREFIX = ".tmp-"
#: Temporary files being written now, removed by :func:`remove_pending` when the process leaves at once.
_PENDING: set[str] = set()
_PENDING_LOCK = threading.Lock()
_CLOSED = False


def _p(path: str | os.PathLike) -> str:
    """A path in a one-line message: quoted, a very long one cut short."""
    return shown(os.fspath(path), 240)


def os_reason(exc: OSError) -> str:
    """The one-line reason of an OS failure: ``No space left on device``, ``Read-only file system``.

    >>> import errno
    >>> os_reason(OSError(errno.ENOSPC, "No space left on device"))
    'No space left on device'
    """
    if exc.errno:
        return os.strerror(exc.errno)
    text = str(exc).strip().splitlines()
    return (text[0][:120] if text else "") or type(exc).__name__


def _write_error(path: str | os.PathLike, exc: OSError) -> WriteError:
    return WriteError(f"cannot write {_p(path)}: {os_reason(exc)}")


def remove_pending() -> None:
    """Delete the temporary files of writes still in flight and refuse new ones: for a process about to end
    with ``os._exit`` (Ctrl-C, SIGTERM), whose abandoned worker threads would otherwise leave them behind."""
    global _CLOSED
    with _PENDING_LOCK:
        _CLOSED = True
        for tmp in list(_PENDING):
            with suppress(OSError):
                os.unlink(tmp)
        _PENDING.clear()


#: The temporary names of earlier versions: ``.NAME.XXXXXXXX.part.SUFFIX``.
_OLD_TMP = re.compile(r"\..+\.[a-z0-9_]{8}\.part(\.\w+)?")


def is_temporary(name: str) -> bool:
    """A temporary file an interrupted write left (also under the older ``.NAME.XXXXXXXX.part.SUFFIX`` names).

    >>> is_temporary(".tmp-k2j4x9q1"), is_temporary(".chunk-00001.parquet.ab12cd34.part.parquet"), is_temporary(".lock")
    (True, True, False)
    """
    return name.startswith(TMP_PREFIX) or _OLD_TMP.fullmatch(name) is not None


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only if the block succeeds.

    An existing file keeps its mode, and a symbolic link keeps pointing where it did: the file it
    points to gets the new content. An OS failure (disk full, read-only file system) is a one-line
    :class:`~binokel_sim.errors.WriteError`, and no temporary file is left behind.
    """
    target = Path(path)
    try:
        real = Path(os.path.realpath(target)) if target.is_symlink() else target
        real.parent.mkdir(parents=True, exist_ok=True)
        mode = stat.S_IMODE(os.stat(real).st_mode) if real.is_file() else 0o666 & ~_UMASK
        fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX, dir=real.parent)
    except OSError as exc:
        raise _write_error(path, exc) from None
    os.close(fd)
    with _PENDING_LOCK:
        if _CLOSED:  # the process is leaving: an abandoned thread must not start a file now
            os.unlink(tmp)
            raise WriteError(f"cannot write {_p(path)}: the run was interrupted")
        _PENDING.add(tmp)
    try:
        yield Path(tmp)
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except OSError as exc:
        raise _write_error(path, exc) from None
    finally:
        with _PENDING_LOCK:
            _PENDING.discard(tmp)
        with suppress(OSError):
            os.unlink(tmp)


def write_text(text: str, path: str | os.PathLike) -> None:
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


@lru_cache(maxsize=16)
def _parsed_json(path: str, mtime_ns: int, size: int) -> Any:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def read_json_cached(path: str | os.PathLike) -> Any:
    """The parsed JSON of a file read on every answer (the fitted models' files): parsed once per version of
    the file (keyed by its modification time and size, so a refit is read afresh). Shared: never mutate it.

    >>> import tempfile; p = Path(tempfile.mkdtemp()) / "m.json"; p.write_text('{"a": 1}')
    8
    >>> read_json_cached(p) is read_json_cached(p), read_json_cached(p)["a"]
    (True, 1)
    """
    st = os.stat(path)
    return _parsed_json(os.fspath(path), st.st_mtime_ns, st.st_size)


def write_json(obj: Any, path: str | os.PathLike) -> None:
    write_text(json.dumps(obj, indent=2, default=_json_default) + "\n", path)


def finite(obj: Any) -> Any:
    """``obj`` with every NaN or infinite float as None (strict JSON has no NaN), numpy scalars as numbers.

    >>> import numpy as np
    >>> finite({"a": [1.0, float("nan")], "b": np.int64(3)})
    {'a': [1.0, None], 'b': 3}
    """
    import numpy as np

    if isinstance(obj, dict):
        return {str(k): finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return finite(obj.tolist())
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, float) and not np.isfinite(obj):
        return None
    return obj


def _json_default(o: Any) -> Any:
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


class TableWriter:
    """Base of the table writers: ``write(df, tmp_path)`` for one file format."""

    suffixes: tuple[str, ...] = ()

    def write(self, df: pd.DataFrame, path: Path, provenance: dict) -> None:  # pragma: no cover - interface
        raise NotImplementedError


class CsvWriter(TableWriter):
    suffixes = (".csv",)

    def write(self, df: pd.DataFrame, path: Path, provenance: dict) -> None:
        from binokel_sim.provenance import csv_header

        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(csv_header(provenance))
            df.to_csv(f, index=False)


class ParquetWriter(TableWriter):
    suffixes = (".parquet", ".pq")

    def write(self, df: pd.DataFrame, path: Path, provenance: dict) -> None:
        out = df.copy(deep=False)
        out.attrs = {**json.loads(json.dumps(df.attrs, default=str)), "provenance": provenance}
        out.to_parquet(path, index=False)


class JsonWriter(TableWriter):
    suffixes = (".json",)

    def write(self, df: pd.DataFrame, path: Path, provenance: dict) -> None:
        # {"provenance": {...}, "rows": [row objects]}; NaN becomes null.
        records = json.loads(df.to_json(orient="records", double_precision=15))
        path.write_text(json.dumps({"provenance": provenance, "rows": records}, indent=1) + "\n", encoding="utf-8")


TABLE_WRITERS: tuple[TableWriter, ...] = (CsvWriter(), ParquetWriter(), JsonWriter())
TABLE_SUFFIXES = tuple(s for w in TABLE_WRITERS for s in w.suffixes)
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")


def table_writer(path: str | os.PathLike) -> TableWriter:
    """The writer for ``path``'s extension; :class:`InputError` for an unknown one."""
    suffix = Path(path).suffix.lower()
    for w in TABLE_WRITERS:
        if suffix in w.suffixes:
            return w
    raise InputError(f"cannot write a table to {_p(path)}: use one of {', '.join(TABLE_SUFFIXES)}")


def write_table(df: pd.DataFrame, path: str | os.PathLike, provenance: dict | None = None) -> None:
    """Write ``df`` as CSV, Parquet or JSON by the extension of ``path``, atomically, with its
    provenance (default: :func:`binokel_sim.provenance.collect` of ``df.attrs`` and the running command)."""
    from binokel_sim.provenance import collect

    writer = table_writer(path)
    prov = collect(df.attrs) if provenance is None else provenance
    with atomic_path(path) as tmp:
        writer.write(df, tmp, prov)


def check_figure_path(path: str | os.PathLike) -> None:
    if Path(path).suffix.lower() not in FIGURE_SUFFIXES:
        raise InputError(f"cannot write a chart to {_p(path)}: use one of {', '.join(FIGURE_SUFFIXES)}")


def _existing_ancestor(target: Path) -> Path:
    parent = target.parent
    while not parent.exists():
        if parent == parent.parent:
            break
        parent = parent.parent
    return parent


def _check_names(target: Path, option: str) -> None:
    """Every part of ``target`` (and the whole) must be short enough for the file system, checked before work."""
    text = os.fspath(target)
    if "\0" in text:
        raise InputError(f"{option}: not a valid path {shown(text)}")
    try:
        name_max = os.pathconf(_existing_ancestor(target), "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        name_max = 255
    for part in target.parts:
        size = len(os.fsencode(part))
        if size > name_max:
            raise InputError(f"{option}: the name {shown(part)} is too long ({size} bytes; at most {name_max})")
    if len(os.fsencode(os.path.abspath(text))) >= 4096:
        raise InputError(f"{option}: the path {shown(text)} is too long")


def _check_place(target: Path, option: str, folder: bool = False) -> None:
    """The first existing ancestor of ``target`` must be a writable folder (so the rest can be created);
    ``folder``: ``target`` is a folder to be made (its own name is not yet there)."""
    _check_names(target, option)
    parent = target if folder and target.is_dir() else _existing_ancestor(target)
    if not parent.is_dir():
        raise InputError(f"{option}: cannot write {_p(target)}: {_p(parent)} is a file, not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"{option}: cannot write {_p(target)}: folder {_p(parent)} is not writable")
    # Permission bits do not tell everything (root, /proc, a read-only mount): a file is made there and removed.
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".binokel-probe-")
    except OSError as e:
        raise InputError(f"{option}: cannot write {_p(target)}: {os_reason(e)}") from None
    os.close(fd)
    os.unlink(probe)


def check_output(path: str | os.PathLike | None, option: str = "--out", kind: str = "table") -> None:
    """Check, before any long work, that an output can be written at ``path`` (None: nothing to check).

    ``kind``: ``table`` (CSV, Parquet, JSON by extension), ``json`` (a JSON file), ``figure``
    (PNG, SVG, PDF) or ``folder`` (created if missing). The target must not be a folder
    (a file kind) or a file (a folder), and no ancestor may be a file. :class:`InputError`
    names the option and the problem.

    >>> check_output("some/new/dir/t.csv")
    >>> check_output("t.xlsx")
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: --out: cannot write a table to 't.xlsx': use one of .csv, .parquet, .pq, .json
    """
    if path is None:
        return
    target = Path(path)
    if os.fspath(path).strip() == "":
        raise InputError(f"{option}: expected a path")
    _check_names(target, option)
    if kind == "folder":
        if target.exists() and not target.is_dir():
            raise InputError(f"{option}: cannot write {_p(path)}: it is a file, not a folder")
        _check_place(target, option, folder=True)
        return
    suffixes = {"table": TABLE_SUFFIXES, "json": (".json",), "figure": FIGURE_SUFFIXES}[kind]
    if target.suffix.lower() not in suffixes:
        what = {"table": "a table", "json": "JSON", "figure": "a chart"}[kind]
        raise InputError(f"{option}: cannot write {what} to {_p(path)}: use one of {', '.join(suffixes)}")
    if target.is_dir():
        raise InputError(f"{option}: cannot write {_p(path)}: it is a folder; give a file name")
    _check_place(target, option)


def write_figure(fig: Any, path: str | os.PathLike, provenance: dict | None = None, **savefig: Any) -> None:
    """Save a matplotlib figure (PNG, SVG or PDF by extension), atomically, its provenance as metadata."""
    from binokel_sim.provenance import collect

    check_figure_path(path)
    fmt = Path(path).suffix.lower().lstrip(".")
    text = json.dumps(collect() if provenance is None else provenance, ensure_ascii=False)
    meta = {"Subject": text} if fmt == "pdf" else {"Description": text}
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=fmt, metadata=meta, **savefig)

