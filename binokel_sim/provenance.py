"""What produced an output file: seed, rules and their hash, n, version, git commit, command line.

:func:`collect` gathers it from three places, later ones winning:

1. the run: package version, git commit of the source tree (when it is a checkout),
   Python version and the command line the CLI recorded (:func:`set_command`);
2. the running Click command, if any: its parsed options -- ``--rules`` as name, source
   and SHA-256 of the rules' canonical JSON, ``--seed``, and the size options
   (``--deals``, ``--games``, ``--samples``, ...) as they were given;
3. the table's own ``df.attrs`` (a study's seed, rules, deals, ...).

:mod:`binokel_sim.output` writes it into every file: Parquet ``attrs`` (key
``provenance``), a ``provenance`` object beside the rows in JSON, a first line
``# provenance: {...}`` in CSV (read with ``pd.read_csv(path, comment="#")``), and a
text chunk in PNG / SVG / PDF charts.

>>> from binokel_sim.rules import load_rules
>>> p = collect({"seed": 3}, rules=load_rules("kreuz"))
>>> p["seed"], p["rules"], len(p["rules_sha256"]), "binokel-sim" in p
(3, 'kreuz', 64, True)
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import shlex
import subprocess
from pathlib import Path
from typing import Any, Mapping

from binokel_sim._version import __version__

_COMMAND: list[str] = []


def set_command(argv: list[str]) -> None:
    """Record the command line of this run (the CLI's entry point calls it)."""
    _COMMAND[:] = [str(a) for a in argv]


#: Options added after corpora were first built, with the value that plays as before they
#: existed: a key at that value is left out of the hash, so a new option does not orphan
#: every corpus; set to anything else it changes the hash.
NEUTRAL = {("layout", "kind"): "bid", ("layout", "dealer_sits_out"): False, ("melds", "grand_binokel"): 0,
           ("bidding", "forehand_must_open"): True, ("bidding", "jump_step"): 0,
           ("surrender", "credit_per_team"): False, ("play", "partner_frees"): False,
           ("play", "beat_led_when_trumped"): False, ("scoring", "round_per_team"): False,
           ("scoring", "team_trick_keeps_melds"): False, ("game", "decided_by"): "soloist",
           ("discard", "trumps_shown"): False}


#: The digits of :func:`rules_hash` that key a corpus manifest and a fitted model.
KEY_DIGITS = 16


def rules_hash(rules: Any, *, digits: int = 64) -> str:
    """SHA-256 of the rules' canonical JSON: equal hashes, equal rules (whatever the file or preset name).

    ``digits``: its first this many hex digits (:data:`KEY_DIGITS` in corpus manifests and model files).
    Name and description are left out.

    Options at their :data:`NEUTRAL` value, and the ``talon`` section of a layout without
    a talon, are left out too (the engine never reads them there).
    """
    d = rules.to_dict()
    d.pop("name", None)
    d.pop("description", None)
    if d.get("layout", {}).get("kind", "bid") != "talon":
        d.pop("talon", None)
    if not d.get("calling", {}).get("allowed", False):
        d.pop("calling", None)  # its other keys are read only when calling is allowed
    for (section, key), value in NEUTRAL.items():
        if d.get(section, {}).get(key, value) == value:
            d.get(section, {}).pop(key, None)
            if d.get(section) == {}:
                d.pop(section)  # a section of neutral options only (``discard``): as if it did not exist
    text = json.dumps(d, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:digits]


@functools.lru_cache(maxsize=1)
def git_commit() -> str | None:
    """The commit of the source tree this package runs from (+ ``-dirty`` when changed), or None."""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("-dirty" if dirty else "") if head else None


def _plain(v: Any) -> Any:
    """A JSON-ready form of an option value (Rules -> name; paths, tuples, numpy scalars handled)."""
    if hasattr(v, "to_dict") and hasattr(v, "name"):
        return v.name
    if hasattr(v, "item") and not isinstance(v, (list, tuple, dict)):
        try:
            return v.item()
        except (TypeError, ValueError):
            pass
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return str(v)


def _click_params() -> dict[str, Any]:
    """The running Click command's options (none outside the CLI)."""
    try:
        import click
    except ImportError:  # pragma: no cover - click is a dependency
        return {}
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return {}
    out: dict[str, Any] = {"subcommand": ctx.command_path}
    for k, v in ctx.params.items():
        if k == "rules" and hasattr(v, "to_dict"):
            out.update(_rules_fields(v))
        elif k not in ("as_json", "quiet", "scale"):
            out[k] = _plain(v)
    return out


def _rules_fields(rules: Any) -> dict[str, Any]:
    return {"rules": rules.name, "rules_source": getattr(rules, "source", None), "rules_sha256": rules_hash(rules)}


def collect(attrs: Mapping[str, Any] | None = None, rules: Any = None) -> dict[str, Any]:
    """The provenance of an output (see the module docstring); ``attrs``: the table's ``df.attrs``."""
    p: dict[str, Any] = {"binokel-sim": __version__, "git_commit": git_commit(),
                         "python": platform.python_version(),
                         "command": shlex.join(_COMMAND) if _COMMAND else None}
    p.update(_click_params())
    if rules is not None:
        p.update(_rules_fields(rules))
    for k, v in (attrs or {}).items():
        if k != "provenance":
            p[str(k)] = _plain(v)
    p.update({str(k): _plain(v) for k, v in dict((attrs or {}).get("provenance", {})).items()})
    return p


def csv_header(p: Mapping[str, Any]) -> str:
    """The first line of a CSV file: ``# provenance: {json}``.

    >>> csv_header({"seed": 1})
    '# provenance: {"seed": 1}\\n'
    """
    return "# provenance: " + json.dumps(p, ensure_ascii=False) + "\n"


def read_csv_provenance(path: str | Path) -> dict[str, Any]:
    """The provenance in a CSV's first line ({} when it has none)."""
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    return json.loads(first[len("# provenance: "):]) if first.startswith("# provenance: ") else {}
