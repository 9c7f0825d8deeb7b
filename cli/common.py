"""Shared pieces of the Click commands: the convention's options, JSON and table output, progress.

Every command takes ``--rules``, ``--json``, ``--out``, ``--quiet`` (and ``--seed`` where
it draws random deals); charts go to ``--charts DIR`` in ``--chart-format png|svg``.
Each output option is checked (:func:`binokel_sim.output.check_output`) when the command
line is parsed, so a bad path fails before any work.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click
from .numbers import Whole

from binokel_sim.output import check_output
from binokel_sim.rules import Rules, load_rules


def rules_option(fn: Callable) -> Callable:
    """``--rules PRESET|FILE.toml`` (default ``standard``), parsed into a :class:`Rules`."""

    def convert(ctx: click.Context, param: click.Parameter, value: str) -> Rules:
        return load_rules(value)

    return click.option(
        "--rules", "rules", default="standard", show_default=True, callback=convert,
        help="Rules preset name, or path to a TOML file that may inherit from a preset.",
    )(fn)


def seed_option(fn: Callable | None = None, default: int = 1) -> Callable:
    def deco(f: Callable) -> Callable:
        return click.option("--seed", type=Whole(0), default=default, show_default=True,
                            help="Random seed; the same seed gives the same numbers.")(f)

    return deco(fn) if fn is not None else deco


#: The widest line a command prints for a player (a report's prose wraps to it; tables are laid out within it).
WIDTH = 100


def wrapped(text: str, width: int = WIDTH) -> str:
    """``text`` with every line longer than ``width`` wrapped at spaces (continuations indented by four more
    than the line, a comment's continuations kept comments), table rows and short lines as they are.

    >>> print(wrapped("going out decided by " + "the model's own estimate " * 3, width=40))
    going out decided by the model's own
        estimate the model's own estimate
        the model's own estimate
    >>> print(wrapped("# a comment that runs on and on", width=20))
    # a comment that
    #     runs on and on
    """
    import textwrap

    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        # A continuation keeps the line's own indent (and a comment's '#'), four more spaces in.
        lead = line[:len(line) - len(line.lstrip("# " if line.startswith("#") else " "))]
        out += textwrap.wrap(line, width, subsequent_indent=(lead.rstrip() + " " if lead.strip() else lead) + "    ",
                             break_long_words=False, break_on_hyphens=False)
    return "\n".join(out)


#: Columns whose values are code names (events, figures, terms): shown in player words too.
_CODE_VALUED = ("event", "figure", "term")


def echo_table(df, float_format: str = "{:.4g}", width: int = WIDTH) -> None:
    """Print ``df`` for a player: headers and code-valued cells in player words
    (:func:`binokel_sim.glossary.words`; files written with ``--out`` keep the code names).

    >>> import pandas as pd
    >>> echo_table(pd.DataFrame({"event": ["pair_E"], "value": [0.2351834], "stderr": [0.0014]}))
              meld  estimate  standard error
    pair in Eichel    0.2352          0.0014
    """
    import pandas as pd

    from binokel_sim.glossary import words

    shown = df.copy()
    for col in _CODE_VALUED:
        if col in shown.columns and not pd.api.types.is_numeric_dtype(shown[col]):
            shown[col] = shown[col].astype(str).map(words)
    shown.columns = [words(str(c)) for c in shown.columns]
    with pd.option_context("display.max_rows", None, "display.max_colwidth", 60,
                           "display.float_format", float_format.format):
        click.echo("\n\n".join(b.to_string(index=False, na_rep="") for b in column_blocks(shown, width)))


def column_blocks(df, width: int = WIDTH) -> list:
    """``df`` cut into tables of whole columns, each printed within ``width`` columns and each led by the
    first column (the row's name: a meld, a figure, a bid), so a wide table reads as blocks one under the
    other, never a row without its name.

    >>> import pandas as pd
    >>> d = pd.DataFrame({"figure": ["a", "b"], **{f"preset {i}": [0.5, 0.25] for i in range(12)}})
    >>> [list(b.columns)[:2] for b in column_blocks(d, 60)]
    [['figure', 'preset 0'], ['figure', 'preset 5'], ['figure', 'preset 10']]
    """
    import pandas as pd

    k = df.shape[1]
    # The row's name: the leading columns of text (a scope and a meld, a figure), at least the first.
    lead = 1
    while lead < k - 1 and not pd.api.types.is_numeric_dtype(df.iloc[:, lead]):
        lead += 1
    if k <= lead:
        return [df]
    # Each column's printed width (its widest cell or header, plus the space before it); by position, as two
    # columns may share a header in player words.
    wide = [1 + max(len(str(df.columns[j])), *(len(line) for line in
                                                df.iloc[:, [j]].to_string(index=False).split("\n")[1:]))
            for j in range(k)]
    blocks, cur = [], list(range(lead))
    for j in range(lead, k):
        if len(cur) > lead and sum(wide[i] for i in cur) + wide[j] > width:
            blocks.append(df.iloc[:, cur])
            cur = list(range(lead))
        cur.append(j)
    blocks.append(df.iloc[:, cur])
    return blocks


def json_option(fn: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(fn)


def quiet_option(fn: Callable) -> Callable:
    return click.option("--quiet", "-q", is_flag=True, help="No progress bar.")(fn)


def output_option(*names: str, kind: str = "table", help: str) -> Callable[[Callable], Callable]:
    """An output path option (default ``--out``) of ``kind`` (see :func:`check_output`), checked at parse time."""
    names = names or ("--out",)

    def check(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
        check_output(value, names[0], kind)
        return value

    # click.Path adds no checks of its own: check_output's messages are the one style.
    return click.option(*names, type=click.Path(), default=None, callback=check, help=help)


def out_option(help: str = "Write the table to FILE.csv, .parquet or .json.") -> Callable[[Callable], Callable]:
    return output_option("--out", kind="table", help=help)


def charts_options(fn: Callable) -> Callable:
    """``--charts DIR`` and ``--chart-format png|svg``: the one way every command writes charts."""
    fn = click.option("--chart-format", type=click.Choice(["png", "svg"]), default="png", show_default=True,
                      help="Format of the charts in --charts.")(fn)
    return output_option("--charts", kind="folder", help="Write the charts into this folder.")(fn)


def show_progress(quiet: bool) -> bool:
    """Progress goes to stderr only when it is a terminal and --quiet is not given."""
    return not quiet and sys.stderr.isatty()


def echo_json(obj: Any) -> None:
    """Print ``obj`` as strict JSON (a NaN or infinity as null: what every JSON reader accepts)."""
    from binokel_sim.output import _json_default, finite

    click.echo(json.dumps(finite(obj), indent=2, default=_json_default, allow_nan=False))
