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
from dataclasses import dataclass
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


#: Columns read against the row's own ``se`` / ``stderr`` when they have no error column of their own.
_VALUE_COLUMNS = ("value", "estimate", "lo", "hi", "exact", "share")


def _error_column(c: str, columns) -> str | None:
    """The standard-error column a column is rounded to, or None.

    >>> _error_column("dd_mean_lo", ["dd_mean", "dd_se", "dd_mean_lo"]), _error_column("lo", ["value", "se", "lo"])
    ('dd_se', 'se')
    """
    if c in ("gap", "predicted") and "realised_se" in columns:  # a calibration bin's error is its make rate's
        return "realised_se"
    base = re.sub(r"_(lo|hi)$", "", c)
    for cand in (f"{c}_se", f"{base}_se", base.replace("_mean", "_se"), re.sub(r"_(lo|hi)$", "_se", c)):
        if cand != c and cand in columns:
            return cand
    if c in _VALUE_COLUMNS or base in _VALUE_COLUMNS:
        return next((e for e in ("se", "stderr") if e in columns), None)
    return None


def rounded(v, se=None) -> str:
    """A number as a player reads it: to the place of its error's second significant digit; without an error,
    three significant digits; never in exponent notation.

    >>> rounded(116.3127, 0.6388), rounded(0.02217, 0.0001864), rounded(6.402e-06), rounded(600000), rounded(0.5)
    ('116.31', '0.02217', '0.0000064', '600000', '0.5')
    """
    if v is None or (isinstance(v, float) and not np.isfinite(v)):
        return "-"
    if isinstance(v, (bool, np.bool_, str)) or isinstance(v, (int, np.integer)):
        return fmt(v)
    f = float(v)
    if f.is_integer() and abs(f) < 1e15 and not (se is not None and np.isfinite(se) and 0 < se < 1):
        return str(int(f))
    if se is not None and np.isfinite(se) and se > 0:
        places = max(0, 1 - int(np.floor(np.log10(se))))
    else:
        places = max(0, 2 - int(np.floor(np.log10(abs(f))))) if f else 0
    text = f"{f:.{min(places, 12)}f}"
    return text.rstrip("0").rstrip(".") if "." in text and se is None else text


def display_frame(df: pd.DataFrame) -> pd.DataFrame:
    """The table as the report shows it: columns that carry nothing left out (all missing; a low or high end,
    or a count counted made, equal to the column it brackets; unresolved counts all 0), every number rounded
    to what its error supports (:func:`rounded`); the CSV keeps every digit."""
    keep = []
    for c in df.columns:
        col = df[c]
        num = pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)
        if num and col.isna().all():
            continue
        base = re.sub(r"_(lo|hi|if_made|made)$", "", str(c))
        if num and base != c and base in df and np.allclose(col, df[base], equal_nan=True):
            continue
        if num and "unresolved" in str(c) and (col.fillna(0) == 0).all():
            continue
        keep.append(c)
    out = df[keep].astype(object).copy()
    for c in keep:
        if not (pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])) or c == "n":
            continue
        err = _error_column(str(c), keep)
        ses = df[err] if err else pd.Series(np.nan, index=df.index)
        if str(c) in ("se", "stderr") or str(c).endswith("_se"):
            out[c] = [rounded(v, v if v and np.isfinite(v) else None) if v else v for v in df[c]]
            continue
        out[c] = [rounded(v, s if np.isfinite(s) and s > 0 else None) for v, s in zip(df[c], ses)]
    return out


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

    shown = _shown(display_frame(df)) if links else df
    head = "| " + " | ".join(head_cell(c) for c in shown.columns) + " |"
    sep = "|" + "|".join("---:" for _ in shown.columns) + "|"
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

    shown = _shown(display_frame(df))
    head = "".join(head_cell(c) for c in shown.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(fmt(v))}</td>" for v in row) + "</tr>"
                   for row in shown.itertuples(index=False))
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
    t = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"<em>\1</em>", t)
    return re.sub(r"\[([^\]]+)\]\((#[\w-]+)\)", r'<a href="\2">\1</a>', t)


def _html_paragraph(para: str) -> str:
    """A paragraph as HTML: a list where every line is a ``- `` item, else one ``<p>``.

    >>> _html_paragraph("- a" + chr(10) + "- *b*")
    '<ul><li>a</li><li><em>b</em></li></ul>'
    """
    lines = para.split("\n")
    if all(line.startswith("- ") for line in lines):
        return "<ul>" + "".join(f"<li>{_md_inline(line[2:])}</li>" for line in lines) + "</ul>"
    return f"<p>{_md_inline(para)}</p>"


def _slug(text: str) -> str:
    """The anchor a Markdown viewer gives a heading (GitHub's rule: drop punctuation, spaces to hyphens)."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _glossary_figures():
    from binokel_sim.glossary import FIGURES

    return list(FIGURES)


@dataclass(frozen=True)
class Rendered:
    """:func:`render`'s main files: the report as HTML and as Markdown."""

    html: Path
    markdown: Path

    def to_dict(self) -> dict[str, str]:
        """The paths as text, as ``report --json`` prints them."""
        return {"html": str(self.html), "markdown": str(self.markdown)}


def render(report, out: str | Path) -> Rendered:
    """Write report.html, report.md, figures/*.png and tables/*.csv under ``out``; returns the main paths.

    E.g. ``render(build_report("standard"), "my-report").html`` is ``my-report/report.html``.
    """
    from binokel_sim.analyses.charts import close

    out = Path(out)
    title = f"Binokel report: {report.rules.display_name}, rules {report.rules.name}"
    sub = (f"{report.rules.description} Budget {report.budget.name}, seed {report.seed}, "
           f"binokel-sim {report.provenance['version']}.")
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
            hp.append(_html_paragraph(para))
        for i, (caption, df) in enumerate(s.tables):
            write_table(df, out / "tables" / f"{s.key}-{i + 1}.csv")
            codes += _codes(display_frame(df))  # the glossary defines only the columns shown
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
    paths = Rendered(html=out / "report.html", markdown=out / "report.md")
    write_text("\n".join(hp) + "\n", paths.html)
    write_text("\n".join(md) + "\n", paths.markdown)
    return paths
