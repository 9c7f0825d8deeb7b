"""The corpus manifest: what a corpus folder holds and what produced it.

``manifest.json`` beside the chunk files records the rules' content hash (the
resolved rules data, not the preset name: a user TOML called ``standard`` with
another meld table gets another hash), the package and solver versions, seed,
exchange policy, chunk size, every finished chunk (range, rows, SHA-256, nodes,
CPU seconds) and the build history (exact commands). It is rewritten atomically
after every chunk, so a killed build leaves a manifest that lists exactly the
chunk files that are whole.

Its identity (:data:`IDENTITY_FIELDS`: seed, rules, stream, policy, chunk size, budget, ...) is
bound to its chunks by ``identity_sha256`` (:func:`identity_digest`, written by
:func:`write_manifest`); :func:`read_manifest` refuses a manifest whose digest does not match,
naming the field edited. The rows confirm what a digest alone cannot (one recomputed after an
edit): :mod:`.identity`.

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
from binokel_sim.output import write_json
from binokel_sim.provenance import KEY_DIGITS, rules_hash
from binokel_sim.rules import Rules
from binokel_sim.versions import solver_version  # noqa: F401  (the builder's and the readers' name for it)

MANIFEST = "manifest.json"
#: Bump when the row layout changes: a reader refuses other formats.
CORPUS_FORMAT = 1
#: The fields that say what a corpus is (not how much it holds or what it cost): the digest binds them to the chunks.
IDENTITY_FIELDS = ("format", "rules", "rules_hash", "rules_data", "seed", "stream", "policy", "chunk_size", "play",
                   "durch_check", "solve_budget", "solve_within", "worlds", "tolerance")
IDENTITY_DIGEST = "identity_sha256"
#: Each identity field's own short digest: only to name the field edited in a refusal (the check is the whole digest).
FIELD_DIGESTS = "identity_fields"


def file_sha256(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def chunk_name(index: int) -> str:
    return f"chunk-{index:05d}.parquet"


def _sha(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(o: Any) -> Any:
    if hasattr(o, "item"):  # a numpy scalar: its Python value, as the manifest's JSON writes it
        return o.item()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def identity_digest(m: dict[str, Any]) -> str:
    """SHA-256 of the identity fields ``m`` holds and its chunks' (file, SHA-256) in index order.

    >>> m = {"seed": 7, "policy": "heuristic", "chunks": [{"index": 0, "file": "chunk-00000.parquet", "sha256": "a"}]}
    >>> identity_digest(m) == identity_digest({**m, "seed": 8}), identity_digest(m) == identity_digest(dict(m))
    (False, True)
    """
    fields = {k: m[k] for k in IDENTITY_FIELDS if k in m}
    chunks = [[c["file"], c["sha256"]] for c in sorted(m["chunks"], key=lambda c: c["index"])]
    return _sha({"identity": fields, "chunks": chunks})


def seal(m: dict[str, Any]) -> dict[str, Any]:
    """``m`` with its identity digest (and each field's) brought up to date; see :func:`identity_problem`."""
    m[FIELD_DIGESTS] = {k: _sha(m[k])[:16] for k in IDENTITY_FIELDS if k in m}
    m[IDENTITY_DIGEST] = identity_digest(m)
    return m


def write_manifest(m: dict[str, Any], folder: str | os.PathLike) -> None:
    """Seal ``m`` (:func:`seal`) and write it atomically as ``folder``'s manifest: every writer's one way."""
    write_json(seal(m), Path(folder) / MANIFEST)


def identity_problem(m: dict[str, Any]) -> str | None:
    """Why the manifest's identity does not match its digest (naming the field edited), or None.

    >>> m = seal({"seed": 7, "policy": "heuristic", "chunks": []})
    >>> identity_problem(m) is None, identity_problem({**m, "seed": 8})
    (True, "the manifest's seed 8 is not the one its chunks were written with")
    """
    if m.get(IDENTITY_DIGEST) == identity_digest(m):
        return None
    given = m.get(FIELD_DIGESTS)
    per: dict[str, Any] = given if isinstance(given, dict) else {}
    for k in IDENTITY_FIELDS:
        if per.get(k) != (_sha(m[k])[:16] if k in m else None):
            what = "(removed)" if k not in m else "" if k == "rules_data" else shown(m[k], 40)
            return f"the manifest's {k} {what}".rstrip() + " is not the one its chunks were written with"
    return f"the manifest's chunk list or its {IDENTITY_DIGEST} was edited"


def read_manifest(folder: str | os.PathLike, *, sealed: bool = True) -> dict[str, Any]:
    """The manifest of corpus ``folder``; a one-line :class:`InputError` if missing, unreadable, damaged or (with
    ``sealed``) without a matching identity digest. ``sealed=False``: only for ``binokel corpus seal``, which
    adds the digest to a manifest written before it existed."""
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
    if sealed:
        check_identity_digest(m, folder)
    return m


def check_identity_digest(m: dict[str, Any], folder: str | os.PathLike) -> None:
    """:class:`InputError` unless ``m`` carries an identity digest that matches it (:func:`identity_problem`)."""
    if IDENTITY_DIGEST not in m:
        raise InputError(f"corpus {os.fspath(folder)}: {MANIFEST} has no {IDENTITY_DIGEST} (written before "
                         f"corpora carried one); run `binokel corpus seal {os.fspath(folder)}` to check its rows "
                         "and add it")
    problem = identity_problem(m)
    if problem:
        raise InputError(f"corpus {os.fspath(folder)}: {problem} ({IDENTITY_DIGEST} does not match); the manifest "
                         "was edited or the folder mixes corpora")


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
    # What the rows are checked against (.identity): the rule set itself and the seed's stream.
    ("rules_data", lambda v: isinstance(v, dict), True),
    ("stream", lambda v: isinstance(v, list) and all(_is_int(x) for x in v), True),
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


def rebuild_command(folder: str | os.PathLike, manifest: dict[str, Any]) -> str:
    """The command that recomputes every chunk ``manifest`` lists in ``folder`` (a missing or damaged one
    included): the build of all its deals with the settings it was built with.

    >>> rebuild_command("c", {"rules_source": "preset:kreuz", "chunks": [{"start": 0, "stop": 40}], "seed": 7,
    ...                       "policy": "heuristic", "chunk_size": 20})
    'binokel corpus build --rules kreuz --deals 40 --out c --seed 7 --policy heuristic --chunk-size 20'
    """
    import shlex

    src = str(manifest.get("rules_source") or manifest.get("rules") or "standard")
    rules = src.removeprefix("preset:")
    deals = max((int(c["stop"]) for c in manifest.get("chunks", [])), default=0)
    common = ["--rules", rules, "--deals", str(deals)]
    if manifest.get("play") == "single-dummy":
        words = ["binokel", "study", "play-gap", *common, "--worlds", str(manifest.get("worlds")),
                 "--tolerance", str(manifest.get("tolerance")), "--seed", str(manifest.get("seed")),
                 "--chunk-size", str(manifest.get("chunk_size")), "--corpus", os.fspath(folder)]
    else:
        words = ["binokel", "corpus", "build", *common, "--out", os.fspath(folder), "--seed", str(manifest.get("seed")),
                 "--policy", str(manifest.get("policy")), "--chunk-size", str(manifest.get("chunk_size"))]
        if manifest.get("solve_budget") is not None:
            words += ["--solve-budget", f"{manifest['solve_budget']}n"]
        if manifest.get("solve_within") is not None:
            words += ["--within", str(manifest["solve_within"])]
    return " ".join(shlex.quote(w) for w in words)
