"""Write a :class:`~binokel_sim.analyses.report.Report` as self-contained HTML and a Markdown twin.

``OUT/report.html`` embeds every chart as a base64 PNG (one file to mail around);
``OUT/report.md`` shows the same text and tables and links the PNGs written to
``OUT/figures/``; every table is also written to ``OUT/tables/`` as CSV. All files are
written atomically.

>>> import pandas as pd
>>> print(markdown_table(pd.DataFrame({"a": [1, 2], "p": [0.5, 0.25]})))
| a | p |
|---:|---:|
| 1 | 0.5 |
| 2 | 0.25 |
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

import numpy as np
import pandas as pd

from binokel_sim.output import write_figure, write_table, write_text

_CSS = """
body{font-family:system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #444}h2{margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:1em 0;font-size:.88em}th,td{border:1px solid #ccc;padding:.25em .6em}
td{text-align:right}th{background:#f2f2f2}figure{margin:1em 0}figcaption{font-size:.9em;color:#555}
img{max-width:100%}nav a{margin-right:1em}.caption{font-weight:600;margin-bottom:.2em}
.scroll{overflow-x:auto;max-width:100%}th a{color:inherit;text-decoration:none;border-bottom:1px dotted #888}
dt{font-weight:600;margin-top:.4em}dd{margin-left:1.5em}
"""
#: Columns whose cells are code names shown in player words in the report (the CSV keeps the codes).
_WORD_COLUMNS = ("event", "figure", "scope")


def fmt(v) -> str:
    """A cell as text: integers plain, floats to 4 significant digits, missing as '-'."""
    if v is None or (isinstance(v, float) and not np.isfinite(v)):
        return "-"
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return str(int(f)) if f.is_integer() and abs(f) < 1e15 else f"{f:.4g}"
    return str(v)


def _shown(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with code-name cells (events) in player words, and a standard error of 0 (none or all of the
    sample had it: the 95 % interval beside it says how far the truth can be) shown as '-', never '± 0'.

    >>> _shown(pd.DataFrame({"value": [0.0, 0.5], "se": [0.0, 0.1]}))["se"].tolist()
    [nan, 0.1]
    """
    from binokel_sim.glossary import words

    out = df.copy()
    for c in _WORD_COLUMNS:
        if c in out:
            out[c] = out[c].map(lambda v: words(v) if isinstance(v, str) else v)
    for c in out.columns:
        if str(c) in ("se", "stderr") or str(c).endswith("_se"):
            out[c] = out[c].mask(out[c] == 0)
    return out


def _codes(df: pd.DataFrame) -> list[str]:
    """Every code name a table shows: its columns and its event / figure cells."""
    codes = [str(c) for c in df.columns]
    for c in _WORD_COLUMNS:
        if c in df:
            codes += [v for v in df[c] if isinstance(v, str)]
    return codes


def markdown_table(df: pd.DataFrame, links: bool = False) -> str:
    """A Markdown table; with ``links`` the headers are player words linked to the glossary."""
    from binokel_sim.glossary import anchor, define, words

    def head_cell(c) -> str:
        return f"[{words(str(c))}](#{anchor(str(c))})" if links and define(str(c)) else str(c)

    shown = _shown(df) if links else df
    head = "| " + " | ".join(head_cell(c) for c in df.columns) + " |"
    sep = "|" + "|".join("---:" for _ in df.columns) + "|"
    rows = ["| " + " | ".join(fmt(v).replace("|", "\\|") for v in row) + " |" for row in shown.itertuples(index=False)]
    return "\n".join([head, sep, *rows])


def html_table(df: pd.DataFrame) -> str:
    """An HTML table in a horizontally scrolling box; headers in player words linked to the glossary."""
    from binokel_sim.glossary import anchor, define, words

    def head_cell(c) -> str:
        w = html.escape(words(str(c)))
        if not define(str(c)):
            return f"<th>{w}</th>"
        return f"<th><a href='#{anchor(str(c))}' title='{html.escape(define(str(c)))}'>{w}</a></th>"

    head = "".join(head_cell(c) for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(fmt(v))}</td>" for v in row) + "</tr>"
                   for row in _shown(df).itertuples(index=False))
    return f"<div class='scroll'><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"


def glossary_html(codes) -> str:
    from binokel_sim.glossary import entries

    items = "".join(f"<dt id='{a}'>{html.escape(w)}</dt><dd>{html.escape(d)}</dd>" for a, w, d in entries(codes))
    return f"<h2 id='glossary'>Glossary</h2><dl>{items}</dl>"


def glossary_markdown(codes) -> list[str]:
    from binokel_sim.glossary import entries

    out = ["## Glossary", ""]
    for a, w, d in entries(codes):
        out += [f'<a id="{a}"></a>**{w}**: {d}', ""]
    return out


def _md_inline(text: str) -> str:
    """The little Markdown the report's paragraphs use (code, bold, links), as HTML (escaped).

    >>> _md_inline("**Tapp value** `x < 1` [glossary](#g-melds)")
    '<strong>Tapp value</strong> <code>x &lt; 1</code> <a href="#g-melds">glossary</a>'
    """
    t = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))
    t = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", t)
    return re.sub(r"\[([^\]]+)\]\((#[\w-]+)\)", r'<a href="\2">\1</a>', t)


def _slug(text: str) -> str:
    """The anchor a Markdown viewer gives a heading (GitHub's rule: drop punctuation, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _glossary_figures():
    from binokel_sim.glossary import FIGURES

    return list(FIGURES)


def render(report, out: str | Path) -> dict[str, Path]:
    """Write report.html, report.md, figures/*.png and tables/*.csv under ``out``; returns the main paths."""
    from binokel_sim.analyses.charts import close

    out = Path(out)
    title = f"Binokel report: {report.rules.name}"
    sub = (f"{report.rules.description} Budget {report.budget.name}, seed {report.seed}, "
           f"binokel-sim {report.provenance['binokel-sim']}.")
    md = [f"# {title}", "", sub, ""]
    toc = " ".join([f'<a href="#{s.key}">{html.escape(s.title)}</a>' for s in report.sections]
                   + ['<a href="#glossary">Glossary</a>'])
    hp = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
          f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1><p>{html.escape(sub)}</p><nav>{toc}</nav>"]
    md.append(" · ".join([f"[{s.title}](#{_slug(s.title)})" for s in report.sections] + ["[Glossary](#glossary)"]))
    md.append("")
    codes: list[str] = []
    for s in report.sections:
        md += [f"## {s.title}", ""]
        hp.append(f"<h2 id='{s.key}'>{html.escape(s.title)}</h2>")
        for para in s.text:
            md += [para, ""]
            hp.append(f"<p>{_md_inline(para)}</p>")
        for i, (caption, df) in enumerate(s.tables):
            write_table(df, out / "tables" / f"{s.key}-{i + 1}.csv")
            codes += _codes(df)
            md += [f"**{caption}** ([CSV](tables/{s.key}-{i + 1}.csv))", "", markdown_table(df, links=True), ""]
            hp.append(f"<div class='caption'>{html.escape(caption)}</div>{html_table(df)}")
        for stem, fig, caption in s.figures:
            png = out / "figures" / f"{stem}.png"
            write_figure(fig, png, dpi=110)
            data = base64.b64encode(png.read_bytes()).decode("ascii")
            close(fig)
            md += [f"![{caption}](figures/{stem}.png)", "", f"*{caption}*", ""]
            hp.append(f"<figure><img alt='{html.escape(caption)}' src='data:image/png;base64,{data}'>"
                      f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    codes += [f for f in _glossary_figures() if any(f in p for s in report.sections for p in s.text)]
    md += glossary_markdown(codes)
    hp.append(glossary_html(codes))
    hp.append("</body></html>")
    paths = {"html": out / "report.html", "markdown": out / "report.md"}
    write_text("\n".join(hp) + "\n", paths["html"])
    write_text("\n".join(md) + "\n", paths["markdown"])
    return paths
