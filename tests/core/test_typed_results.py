"""No public function of ``evaluation``, ``analyses`` or ``cli`` hands back its results as a bare ``dict`` (#57).

A dict with fixed keys is a record: it becomes a frozen dataclass or NamedTuple with typed, documented fields, and
a caller reads its fields. The checker looks at every module-level function and method whose name does not start
with ``_`` (a function nested inside another is no public API) and fails where one returns a dict display, a dict
comprehension or ``dict(...)``, or is annotated ``dict``/``dict[...]``/``Dict[...]``. Serialisers (:data:`SERIALISERS`)
return dicts by design, and :data:`ALLOWED` lists the mappings keyed by data, each with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The trees the rule covers (relative to the repository root).
TREES = ("binokel_sim/evaluation", "analyses", "cli")
#: Methods that turn a typed result into JSON-ready data: a dict is their point.
SERIALISERS = frozenset({"to_dict", "to_json", "as_dict", "summary_json", "columns"})
#: ``path:function`` -> why a dict is the right answer there (a mapping keyed by data values, not a record).
ALLOWED = {
    # scope name -> its ExactOdds, holding only the scopes asked for (and "kept" only without calls).
    "analyses/meld_odds.py:exact_for_scopes": "keyed by the scopes asked",
    # The corpus manifest: the JSON document manifest.json holds, shared with binokel_sim.corpus's builder,
    # which edits it in place chunk by chunk; its keys are the file format's, not a result's fields.
    "analyses/sd_corpus.py:build_sd_corpus": "the manifest document as written",
}


def _returns(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Return]:
    """The ``return`` statements of ``fn`` itself (not of functions, lambdas or classes nested in it)."""
    out, todo = [], list(ast.iter_child_nodes(fn))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _is_dict(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.Dict, ast.DictComp)):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict"


def _dict_annotation(ann: ast.expr | None) -> bool:
    if ann is None:
        return False
    if isinstance(ann, ast.Constant) and isinstance(ann.value, str):  # a string annotation
        ann = ast.parse(ann.value, mode="eval").body
    base = ann.value if isinstance(ann, ast.Subscript) else ann
    if isinstance(base, ast.Attribute):  # typing.Dict
        base = ast.Name(base.attr)
    return isinstance(base, ast.Name) and base.id in ("dict", "Dict")


def _public_functions(tree: ast.Module):
    """Module-level functions and methods of module-level classes (nested classes too) not named ``_...``."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and not child.name.startswith("_"):
                yield child
            elif isinstance(child, ast.ClassDef) and not child.name.startswith("_"):
                todo.append(child)


def dict_results(source: str, where: str = "<snippet>") -> list[str]:
    """``where:function`` (line) of each public function of ``source`` that returns a bare dict.

    >>> dict_results("def foo() -> dict:\\n    return {'a': 1}\\n")
    ['<snippet>:foo (line 1)']
    """
    out = []
    for fn in _public_functions(ast.parse(source)):
        if fn.name in SERIALISERS or f"{where}:{fn.name}" in ALLOWED:
            continue
        if _dict_annotation(fn.returns) or any(_is_dict(r.value) for r in _returns(fn)):
            out.append(f"{where}:{fn.name} (line {fn.lineno})")
    return out


def test_no_public_function_returns_a_bare_dict():
    found = []
    for tree in TREES:
        for path in sorted((ROOT / tree).rglob("*.py")):
            found += dict_results(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    assert not found, ("return a frozen dataclass or NamedTuple (a record), or annotate a mapping keyed by data "
                       "and add it to ALLOWED with the reason:\n" + "\n".join(found))


def test_the_allowed_mappings_still_exist():
    # A stale entry would let a new function of that name through unseen.
    for key in ALLOWED:
        path, name = key.split(":")
        tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
        assert any(f.name == name for f in _public_functions(tree)), key


def test_the_checker_catches_a_record_returned_as_a_dict():
    bad = {
        "def foo() -> dict:\n    return {'a': 1}\n": ["foo"],
        "def foo():\n    return dict(a=1)\n": ["foo"],
        "def foo(xs):\n    return {x: 1 for x in xs}\n": ["foo"],
        "from typing import Any\ndef foo() -> dict[str, Any]:\n    return make()\n": ["foo"],
        "def foo() -> 'dict[str, float]':\n    return make()\n": ["foo"],
        "class R:\n    def figures(self) -> dict:\n        return {}\n": ["figures"],
    }
    for src, names in bad.items():
        assert [f.split(":")[1].split(" ")[0] for f in dict_results(src)] == names, src
    good = [
        "def foo() -> Result:\n    return Result(1)\n",
        "class R:\n    def to_dict(self) -> dict:\n        return {'a': 1}\n",
        "def _helper() -> dict:\n    return {}\n",
        "def foo():\n    def row():\n        return {'a': 1}\n    return [row()]\n",  # nested: no public API
        "def foo() -> list[dict[str, int]]:\n    return [{'a': 1}]\n",
    ]
    for src in good:
        assert dict_results(src) == [], src
