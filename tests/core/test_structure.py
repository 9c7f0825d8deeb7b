"""The package's shape: no import cycle anywhere (built from each module's AST), no module over 400 lines."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import warnings
from pathlib import Path

import binokel_sim

#: A module past this many lines is named in a warning: split it where it holds two ideas.
WARN_LINES = 450
#: A module past this many lines fails: a giant module.
MAX_LINES = 700


def modules() -> dict[str, Path]:
    """Every module of the installed package (cli and analyses included) and its source file."""
    out = {"binokel_sim": Path(binokel_sim.__file__)}
    # An editable install maps cli/ and analyses/ from elsewhere: walk their own paths too.
    todo = [("binokel_sim", binokel_sim.__path__)] + [
        (p, importlib.import_module(p).__path__) for p in ("binokel_sim.cli", "binokel_sim.analyses")]
    for prefix, path in todo:
        out[prefix] = Path(importlib.util.find_spec(prefix).origin)
        for info in pkgutil.walk_packages(path, prefix + "."):
            spec = importlib.util.find_spec(info.name)
            if spec is not None and spec.origin and spec.origin.endswith(".py"):
                out[info.name] = Path(spec.origin)
    return out


def imports_with_lines(name: str, path: Path, known: set[str], packages: bool = False) -> set[tuple[str, int]]:
    """(package module, line) for each import in ``name``'s source, at module level or inside functions;
    ``from pkg import sub`` names sub, and pkg too where ``packages`` (Python runs pkg first: the cycle
    question) or where it imports a name that is no submodule."""
    is_pkg = path.name == "__init__.py"
    found: set[tuple[str, int]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update((a.name, node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = {f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in known}
            found.update((s, node.lineno) for s in subs)
            if packages or len(subs) < len(node.names):
                found.add((mod, node.lineno))
    out = set()
    for mod, line in found:
        while mod and mod not in known:  # ``import a.b.c`` of a name inside a module
            mod = mod.rpartition(".")[0]
        if mod and mod != name:
            out.add((mod, line))
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """Package modules that ``name`` imports anywhere in its source, the packages it imports from included."""
    return {m for m, _ in imports_with_lines(name, path, known, packages=True)}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    colour: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        colour[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if colour.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in colour:
                cyc = visit(m)
                if cyc:
                    return cyc
        stack.pop()
        colour[n] = 2
        return None

    for n in sorted(graph):
        if n not in colour:
            cyc = visit(n)
            if cyc:
                return cyc
    return None


def test_walk_sees_every_part():
    mods = modules()
    for name in ("binokel_sim.cli.main", "binokel_sim.cli.commands", "binokel_sim.analyses.report",
                 "binokel_sim.play.solver.search", "binokel_sim.contracts", "binokel_sim.streams"):
        assert name in mods
    assert len(mods) > 60


def test_no_import_cycle():
    mods = modules()
    graph = {n: imports_of(n, p, set(mods)) for n, p in mods.items()}
    assert "binokel_sim.cli.bid" in graph["binokel_sim.cli.commands"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_cycle_finder_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_command_modules_do_not_import_main():
    mods = modules()
    for name, path in mods.items():
        if name.startswith("binokel_sim.cli.") and name not in ("binokel_sim.cli.main",):
            assert "binokel_sim.cli.main" not in imports_of(name, path, set(mods)), name


def test_no_giant_module():
    """Modules are split by idea, not by a line count: past :data:`WARN_LINES` a module is named in a warning
    (a hint to look for two ideas in it); past :data:`MAX_LINES` it is a giant and fails."""
    root = Path(__file__).resolve().parents[2]
    files = [p for d in ("binokel_sim", "cli", "analyses", "tests", "benchmarks") for p in (root / d).rglob("*.py")]
    assert len(files) > 100
    sizes = {str(p.relative_to(root)): len(p.read_text(encoding="utf-8").splitlines()) for p in files}
    long = {name: n for name, n in sizes.items() if n > WARN_LINES}
    if long:
        warnings.warn(f"modules past {WARN_LINES} lines (two ideas in one?): {long}", stacklevel=1)
    giant = {name: n for name, n in long.items() if n > MAX_LINES}
    assert not giant, giant


def test_committed_outputs_name_no_machine_folder():
    # Reports, manifests and docs are read on other machines: a corpus is named as data/corpus/NAME (shipped),
    # never by the folder it was built in (a report table once carried /work/main/data/corpus/standard).
    import re
    import subprocess

    root = Path(__file__).resolve().parents[2]
    files = subprocess.run(["git", "ls-files", "reports", "data", "docs", "README.md"], cwd=root, check=True,
                           capture_output=True, text=True).stdout.split()
    absolute = re.compile(r"(?<![\w.])/(?:work|home|Users|root|srv|mnt)/")
    bad = [f for f in files if f.endswith((".md", ".csv", ".json", ".html", ".toml"))
           and absolute.search((root / f).read_text(encoding="utf-8", errors="replace"))]
    assert len(files) > 100 and not bad, bad
