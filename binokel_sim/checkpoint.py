"""Checkpoint files: a chunk's result stored as data (never code), with a checksum, read back only if whole.

A chunk result is a tree of plain values: ``None``, bools, ints, floats, strings, lists,
tuples, dicts, numpy scalars and arrays (not of objects) and DataFrames. :func:`encode`
writes it as one file::

    binokel-checkpoint
    <SHA-256 of everything below>
    {"format": ..., "job": ..., "chunk": [...], "tree": ..., "blobs": [sizes]}
    <blobs: each array in numpy's .npy format, each DataFrame as Parquet>

The JSON header's ``tree`` holds the values, containers and numpy scalars tagged by type,
arrays and frames as blob numbers. Reading checks the checksum before anything is parsed,
and arrays load with ``allow_pickle=False``: a damaged or planted file is refused (named on
stderr and recomputed), never run. Any other type raises :class:`TypeError` when stored.

>>> import numpy as np
>>> data = encode({"a": (1, 2.5, None), "b": [np.int8(3), np.arange(3)]}, {"job": "demo"})
>>> decode(data, {"job": "demo"})
{'a': (1, 2.5, None), 'b': [np.int8(3), array([0, 1, 2])]}
>>> decode(data[:-1] + b"!", {"job": "demo"})
Traceback (most recent call last):
...
binokel_sim.checkpoint.Damaged: checksum mismatch
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

from binokel_sim.errors import InputError

MAGIC = b"binokel-checkpoint\n"
#: numpy scalar kinds a checkpoint stores (bool, ints, floats, strings): never objects.
_SCALAR_KINDS = "biufU"


class Damaged(ValueError):
    """A checkpoint file that is not whole, not ours, or not for this chunk."""


def _enc(v: Any, blobs: list[bytes]) -> Any:
    import numpy as np
    import pandas as pd

    if isinstance(v, np.generic):  # before the Python types: np.float64 and np.str_ subclass float and str
        if v.dtype.kind not in _SCALAR_KINDS:
            raise TypeError(f"a checkpoint cannot store a {type(v).__name__}")
        return {"S": [v.dtype.str, v.item()]}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, np.ndarray) and v.dtype.kind in _SCALAR_KINDS:
        buf = io.BytesIO()
        np.save(buf, v, allow_pickle=False)
        blobs.append(buf.getvalue())
        return {"A": len(blobs) - 1}
    if isinstance(v, pd.DataFrame):
        buf = io.BytesIO()
        v.to_parquet(buf)
        blobs.append(buf.getvalue())
        return {"F": len(blobs) - 1}
    if isinstance(v, (list, tuple)):
        return {"L" if isinstance(v, list) else "T": [_enc(x, blobs) for x in v]}
    if isinstance(v, dict):
        return {"D": [[_enc(k, blobs), _enc(x, blobs)] for k, x in v.items()]}
    raise TypeError(f"a checkpoint cannot store a {type(v).__name__}")


def _dec(t: Any, blobs: list[bytes]) -> Any:
    import numpy as np
    import pandas as pd

    if t is None or isinstance(t, (bool, int, float, str)):
        return t
    if not isinstance(t, dict) or len(t) != 1:
        raise Damaged("unexpected value in the header")
    (tag, x), = t.items()
    if tag == "L":
        return [_dec(v, blobs) for v in x]
    if tag == "T":
        return tuple(_dec(v, blobs) for v in x)
    if tag == "D":
        return {_dec(k, blobs): _dec(v, blobs) for k, v in x}
    if tag == "S":
        dtype = np.dtype(x[0])
        if dtype.kind not in _SCALAR_KINDS:
            raise Damaged(f"scalar of type {dtype}")
        return dtype.type(x[1])
    if tag == "A":
        return np.load(io.BytesIO(blobs[x]), allow_pickle=False)
    if tag == "F":
        return pd.read_parquet(io.BytesIO(blobs[x]))
    raise Damaged(f"unknown tag {tag!r}")


def encode(value: Any, identity: dict[str, Any]) -> bytes:
    """The bytes of a checkpoint file holding ``value``; ``identity`` (JSON-ready) must match when read."""
    blobs: list[bytes] = []
    head = {**identity, "tree": _enc(value, blobs), "blobs": [len(b) for b in blobs]}
    body = json.dumps(head, sort_keys=True, separators=(",", ":")).encode() + b"\n" + b"".join(blobs)
    return MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body


def decode(data: bytes, identity: dict[str, Any]) -> Any:
    """The value stored by :func:`encode`; :class:`Damaged` if the file is not whole or not for ``identity``."""
    if not data.startswith(MAGIC):
        raise Damaged("not a checkpoint file")
    digest, _, body = data[len(MAGIC):].partition(b"\n")
    if hashlib.sha256(body).hexdigest().encode() != digest:
        raise Damaged("checksum mismatch")
    text, _, rest = body.partition(b"\n")
    try:
        head = json.loads(text)
        if any(head.get(k) != v for k, v in identity.items()):
            raise Damaged("made for another job or chunk")
        sizes = [int(n) for n in head["blobs"]]
        if sum(sizes) != len(rest) or min(sizes, default=0) < 0:
            raise Damaged("blob sizes do not add up")
        blobs, at = [], 0
        for n in sizes:
            blobs.append(rest[at:at + n])
            at += n
        return _dec(head["tree"], blobs)
    except Damaged:
        raise
    except Exception as exc:  # a well-formed checksum over content that does not parse: planted or a bug
        raise Damaged(f"unreadable content ({type(exc).__name__})") from None


class Checkpoint:
    """A folder of finished chunk results of a :class:`~binokel_sim.runner.Job`:
    ``DIR/<job>-<key>/<index>-<start>-<stop>.ckpt`` (see the module).

    Each file is written atomically (temporary name, then rename), so a killed run leaves only
    whole chunks behind; a damaged one is named on stderr and recomputed.
    """

    SUFFIX = ".ckpt"

    def __init__(self, root: str | os.PathLike, job: Any):
        self.root = Path(root)
        if self.root.exists() and not self.root.is_dir():
            raise InputError(f"--checkpoint: {os.fspath(root)} is not a folder")
        self.dir = self.root / f"{job.name}-{job.key()}"
        self.job = job

    def path(self, chunk: Any) -> Path:
        return self.dir / f"{chunk.index:06d}-{chunk.start}-{chunk.stop}{self.SUFFIX}"

    def identity(self, chunk: Any) -> dict[str, Any]:
        return {"job": self.job.key(), "chunk": [chunk.index, chunk.start, chunk.stop]}

    def prepare(self) -> None:
        from binokel_sim.output import write_json

        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"--checkpoint: cannot create {self.dir}: {exc.strerror}") from None
        manifest = self.dir / "job.json"
        if not manifest.exists():
            write_json(self.job.identity(), manifest)
        self._remove_leftovers()

    def _remove_leftovers(self, age: float = 600.0) -> None:
        """Temporary files a killed run left (SIGKILL, power loss): a chunk file is written in milliseconds,
        so one older than ``age`` seconds belongs to no run still going (another may share the folder)."""
        import time

        from binokel_sim.output import is_temporary

        for p in self.dir.iterdir():
            try:
                if is_temporary(p.name) and time.time() - p.stat().st_mtime > age:
                    p.unlink()
            except OSError:
                pass

    def load(self, chunk: Any) -> tuple[bool, Any]:
        """(True, result) for a whole stored chunk; (False, None) when missing or damaged (then named on stderr)."""
        p = self.path(chunk)
        if not p.is_file():
            return False, None
        try:
            return True, decode(p.read_bytes(), self.identity(chunk))
        except (OSError, Damaged) as exc:
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            print(f"warning: checkpoint {p} is damaged ({why}); computing the chunk again", file=sys.stderr)
            return False, None

    def save(self, chunk: Any, result: Any) -> None:
        from binokel_sim.output import atomic_path

        data = encode(result, self.identity(chunk))
        with atomic_path(self.path(chunk)) as tmp:
            tmp.write_bytes(data)

    def finished(self) -> list[int]:
        """Indices of the chunks stored so far."""
        return sorted(c.index for c in self.job.chunks() if self.path(c).is_file())
