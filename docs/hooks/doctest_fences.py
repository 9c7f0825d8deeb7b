"""Griffe extension for the API pages: docstrings written for pytest and Sphinx render as Markdown.

The docstrings keep plain doctest examples (``>>>`` lines and their output, run by
pytest's ``--doctest-modules``). Markdown would read ``>>>`` as nested quotes and
``x["a"]["b"]`` as a reference link, so each run of doctest lines (from a ``>>>`` line to
the next blank line) is wrapped in a ``pycon`` fence before rendering. Sphinx roles such
as ``:func:`name``` become plain code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe


ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|exc|obj):`~?\.?([^`]+)`")


def fence_doctests(text: str) -> str:
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if not inside and stripped.startswith(">>>"):
            # An example indented under a section keeps its indentation inside the fence.
            indent = line[: len(line) - len(line.lstrip())]
            out += [f"{indent}```pycon", line]
            inside = True
        elif inside and not stripped:
            out += [f"{indent}```", line]
            inside = False
        else:
            out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


def _convert(obj: griffe.Object) -> None:
    if obj.docstring is None:
        return
    text = ROLE.sub(r"`\1`", obj.docstring.value)
    if ">>>" in text and "```" not in text:
        text = fence_doctests(text)
    obj.docstring.value = text


class DoctestFences(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        _convert(obj)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        # The package itself is not among the objects on_object sees.
        _convert(pkg)
