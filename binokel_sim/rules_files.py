"""Reading rules files: a preset by name or a ``.toml`` path, ``inherits`` resolved, every failure one line.

A source with a path separator or the ``.toml`` suffix is a path, and only ``.toml`` files
are read: ``inherits = "/etc/shadow"`` is refused without a look at the file (so the error
says nothing about whether it exists). Anything else is a preset name. A file that is
missing, unreadable, too large, not text or not TOML is an :class:`InputError` naming it;
long names are shortened in messages. :func:`resolve` also returns the keys the first
file sets itself, so errors echo only those values, never an inherited file's.

>>> data, origin, own = resolve("four-solo")
>>> origin, data["layout"]["players"], data["bidding"]["min_bid"], sorted(own)[:3]
('preset:four-solo', 4, 150, ['description', 'inherits', 'layout.hand_size'])
>>> resolve("/etc/shadow")
Traceback (most recent call last):
...
binokel_sim.errors.InputError: rules file '/etc/shadow': only .toml files are read
"""

from __future__ import annotations

import os
import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from binokel_sim.errors import InputError, shown

#: A rules file larger than this is refused before it is read (the presets are about 4 KB).
MAX_BYTES = 1 << 20
_PRESET_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def preset_names() -> list[str]:
    """Names of the presets shipped in ``data/rules``."""
    return sorted(p.name[:-5] for p in resources.files("binokel_sim.presets").iterdir() if p.name.endswith(".toml"))


def is_path(source: str) -> bool:
    """A source naming a file (separator or ``.toml`` suffix) rather than a preset."""
    return source.endswith(".toml") or "/" in source or "\\" in source


def _read_file(source: str) -> str:
    name = f"rules file {shown(source)}"
    if not source.endswith(".toml"):
        raise InputError(f"{name}: only .toml files are read")
    if "\0" in source:
        raise InputError(f"{name}: not a valid path")
    path = Path(source)
    try:
        if not path.is_file():
            raise InputError(f"{name} not found")
        if path.stat().st_size > MAX_BYTES:
            raise InputError(f"{name} is larger than {MAX_BYTES >> 20} MiB: not a rules file")
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{name}: cannot read it ({exc.strerror or type(exc).__name__})") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{name} is not a text file (UTF-8 TOML expected)") from None


def read_toml(source: str) -> tuple[dict[str, Any], str]:
    """The TOML data of one source (no inheritance) and its origin (``preset:NAME`` or the path)."""
    if is_path(source):
        text, origin = _read_file(source), source
    else:
        res = resources.files("binokel_sim.presets").joinpath(f"{source}.toml") if _PRESET_NAME.match(source) else None
        if res is None or not res.is_file():
            raise InputError(f"unknown rules preset {shown(source)} (choose from {', '.join(preset_names())} "
                             "or give a .toml path)")
        text, origin = res.read_text(encoding="utf-8"), f"preset:{source}"
    try:
        return tomllib.loads(text), origin
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"broken TOML in {shown(origin)}: {str(exc).splitlines()[0]}") from None
    except (ValueError, RecursionError) as exc:  # a number of thousands of digits, arrays nested too deep
        what = "a number too long" if isinstance(exc, ValueError) else "nesting too deep"
        raise InputError(f"broken TOML in {shown(origin)}: {what}") from None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _keys(data: dict[str, Any]) -> set[str]:
    """The dotted keys a file sets: ``name``, ``layout.players``, ``melds.four`` (tables one level deep)."""
    return {f"{k}.{s}" if isinstance(v, dict) else k for k, v in data.items()
            for s in (v if isinstance(v, dict) else [None])}


#: How many files an ``inherits`` chain may pass through: presets need two; a longer chain is a mistake.
MAX_CHAIN = 32


def _same_file(source: str) -> str:
    """What a source names, whatever its spelling: ``a.toml``, ``./a.toml`` and ``../p/a.toml`` from ``p``
    are one file (its real path; a preset by name)."""
    if not is_path(source):
        return f"preset:{source}"
    try:
        return os.path.realpath(source)
    except (OSError, ValueError):  # a name the OS refuses: reading it gives the one-line message
        return source


def _chain(source: str, seen: tuple[str, ...]) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """(merged data, origin, the source's own data); ``seen``: the sources that inherit this one."""
    if _same_file(source) in {_same_file(s) for s in seen}:
        raise InputError(f"rules inherit in a circle: {' -> '.join(shown(s, 40) for s in (*seen, source))}")
    if len(seen) >= MAX_CHAIN:
        raise InputError(f"rules inherit through more than {MAX_CHAIN} files, starting at {shown(seen[0], 40)}")
    data, origin = read_toml(source)
    parent = data.get("inherits")
    if parent is None:
        return data, origin, data
    where = "inherits" if not seen else f"inherits in {shown(origin)}"
    if not isinstance(parent, str) or not (is_path(parent) or _PRESET_NAME.match(parent)):
        raise InputError(f"{where}: expected a preset name or a path to a .toml file")
    if is_path(parent) and not parent.endswith(".toml"):
        raise InputError(f"{where}: only .toml files are read, got {shown(parent)}")
    if not Path(parent).is_absolute() and is_path(parent) and not origin.startswith("preset:"):
        parent = str(Path(origin).parent / parent)
    base, _, _ = _chain(parent, (*seen, source))
    return _merge(base, {k: v for k, v in data.items() if k != "inherits"}), origin, data


def resolve(source: str) -> tuple[dict[str, Any], str, frozenset[str]]:
    """(merged data, origin, the keys the first file sets itself) of a rules source and what it inherits."""
    merged, origin, data = _chain(source, ())
    return merged, origin, frozenset(_keys(data))
