"""MkDocs hook: the gallery page shows the charts of the example reports committed under reports/.

MkDocs serves only files under docs/, so the hook adds each report's PNG charts and its
self-contained report.html to the site as gallery/<preset>/..., and writes the gallery
page's sections from each report's Markdown (the charts in the report's order, each
captioned with the report's own alt text). Nothing is copied into the repository, so the
gallery follows whatever reports/ holds in the checkout being built.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File, Files

REPORTS = Path(__file__).resolve().parents[2] / "reports"
MARKER = "<!-- gallery -->"
# The reports in the order the gallery shows them (any others follow alphabetically).
FIRST = ["standard", "kreuz", "four-solo", "standard-48", "wuerttemberg", "grupp", "two-hand"]
FIGURE = re.compile(r"!\[([^\]]*)\]\((figures/[^)]+\.png)\)")


def _reports() -> list[Path]:
    found = {p.parent.name: p.parent for p in REPORTS.glob("*/report.md")}
    order = [n for n in FIRST if n in found] + sorted(set(found) - set(FIRST))
    return [found[n] for n in order]


def on_files(files: Files, config) -> Files:
    for folder in _reports():
        for path in [folder / "report.html", *sorted((folder / "figures").glob("*.png"))]:
            if path.is_file():
                uri = f"gallery/{folder.name}/{path.name}"
                files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def _section(folder: Path) -> str:
    text = (folder / "report.md").read_text(encoding="utf-8")
    title = text.splitlines()[0].lstrip("# ").strip()
    lines = [f"## {folder.name}", "", f"{title}: [the whole report](gallery/{folder.name}/report.html) "
             f"(self-contained HTML; made by `binokel report`, see its `provenance` table).", ""]
    for alt, src in FIGURE.findall(text):
        name = Path(src).name
        if (folder / src).is_file():
            lines += [f"![{alt}](gallery/{folder.name}/{name})", "", f"*{alt}.*", ""]
    return "\n".join(lines)


def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri != "gallery.md" or MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, "\n\n".join(_section(f) for f in _reports()))
