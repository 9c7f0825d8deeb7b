"""Matplotlib charts of the simulation, comparison and report tables (Agg backend, no display).

Every function takes DataFrames as the analyses return them and returns a Figure;
:func:`binokel_sim.output.write_figure` saves it as PNG or SVG.

>>> import pandas as pd
>>> fig = bar_chart(pd.DataFrame({"rules": ["a", "b"], "value": [1.0, 2.0], "se": [0.1, 0.2]}),
...                 "rules", "value", "se", "Example")
>>> len(fig.axes)
1
"""

from __future__ import annotations

from typing import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from matplotlib.legend_handler import HandlerTuple  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullFormatter  # noqa: E402

from binokel_sim.palette import NEUTRAL, SERIES as PALETTE, SUIT_COLOURS, player_style  # noqa: E402
from binokel_sim.stats import wilson  # noqa: E402


def _figure(ncols: int = 1, width: float = 6.4, height: float = 3.8):
    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False)
    return fig, list(axes[0])


def _yerr(df: pd.DataFrame, y: str, se: str | None, interval: tuple[str, str] | None):
    """Whisker lengths: from the interval columns (lo, hi) when given, else +-1.96 SE."""
    yv = df[y].to_numpy(dtype=float)
    if interval is not None:
        lo, hi = (df[c].to_numpy(dtype=float) for c in interval)
        return np.vstack([np.clip(yv - lo, 0, None), np.clip(hi - yv, 0, None)])
    return 1.96 * df[se].to_numpy(dtype=float) if se else None


def bar_chart(df: pd.DataFrame, x: str, y: str, se: str | None, title: str, ylabel: str = "",
              interval: tuple[str, str] | None = None, colors: Sequence[str] | None = None,
              xlabels: Sequence[str] | None = None) -> "plt.Figure":
    """Bars of ``df[y]`` by ``df[x]`` with 95 % whiskers: the ``interval`` columns (lo, hi) when given
    (a proportion's Wilson interval: never outside [0, 1]), else +-1.96 SE."""
    fig, (ax,) = _figure()
    err = _yerr(df, y, se, interval)
    ax.bar(list(xlabels) if xlabels is not None else df[x].astype(str), df[y].to_numpy(dtype=float), yerr=err,
           capsize=3, color=list(colors) if colors is not None else [PALETTE[i % len(PALETTE)] for i in range(len(df))])
    ax.set_title(title)
    ax.set_ylabel(ylabel or y)
    ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    return fig


def grouped_bars(df: pd.DataFrame, group: str, series: str, y: str, se: str | None, title: str,
                 ylabel: str = "", interval: tuple[str, str] | None = None,
                 colors: Sequence[str] | None = None, logy: bool = False) -> "plt.Figure":
    """Bars of ``y`` for each ``group`` (x axis), one colour per ``series``, with 95% whiskers
    (the ``interval`` columns when given, else +-1.96 SE)."""
    groups = list(dict.fromkeys(df[group]))
    names = list(dict.fromkeys(df[series]))
    fig, (ax,) = _figure(width=max(6.4, 0.5 * len(groups) * len(names)))
    width = 0.8 / max(len(names), 1)
    xs = np.arange(len(groups))
    for i, name in enumerate(names):
        part = df[df[series] == name].set_index(group).reindex(groups)
        err = _yerr(part, y, se, interval)
        ax.bar(xs + i * width, part[y].to_numpy(dtype=float), width, yerr=err, capsize=2, label=str(name),
               color=(colors or PALETTE)[i % len(colors or PALETTE)])
    ax.set_xticks(xs + width * (len(names) - 1) / 2, groups, rotation=40, ha="right")
    if logy:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_ylabel(ylabel or y)
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def percent(v: float, _pos: object = None) -> str:
    """A probability as a percentage, as many decimals as it needs.

    >>> percent(0.5), percent(0.02), percent(0.00001)
    ('50 %', '2 %', '0.001 %')
    """
    pct = 100 * float(v)
    if pct <= 0:
        return "0 %"
    return f"{pct:.{max(0, -int(np.floor(np.log10(pct))))}f} %" if pct < 1 else f"{pct:.0f} %"


def _log_ticks(ax, low: float, high: float) -> None:
    """Percent ticks on a log x axis: 1-2-5 steps over up to three decades, else decades only."""
    steps = (1, 2, 5) if high / low < 2000 else (1,)
    ticks = [m * 10.0 ** e for e in range(-9, 1) for m in steps if low <= m * 10.0 ** e <= high]
    ax.set_xticks(ticks)
    ax.xaxis.set_major_formatter(FuncFormatter(percent))
    ax.xaxis.set_minor_formatter(NullFormatter())


def odds_dots(labels: Sequence[str], p, lo, hi, exact=None, colors: Sequence[str] | None = None,
              title: str = "", xlabel: str = "chance", log: bool | None = None) -> "plt.Figure":
    """Probabilities of events, one row each from the top: the Monte Carlo estimate ``p`` a filled dot with
    its 95 % whisker ``lo`` .. ``hi`` (Wilson's: never outside [0, 1]), the ``exact`` value a hollow diamond
    just below it, both in the event's colour (a suit's meld in the suit's colour:
    :func:`binokel_sim.palette.event_colour`; else grey). ``log``: a log axis in percent (default: when
    every value is positive or nearly, and they span more than a factor 20); an estimate of 0 on a log axis
    is a left-pointing triangle at the axis's left end.
    """
    p, lo, hi = (np.asarray(v, dtype=float) for v in (p, lo, hi))
    ex = None if exact is None else np.asarray(exact, dtype=float)
    n = len(p)
    cols = list(colors) if colors is not None else [NEUTRAL] * n
    known = np.concatenate([p, hi] + ([ex] if ex is not None else []))
    positive = known[known > 0]
    if log is None:
        log = bool(len(positive)) and positive.max() / positive.min() > 20 and (ex is None or bool((ex > 0).all()))
    fig, ax = plt.subplots(figsize=(8.6, 1.5 + 0.36 * n))
    rows = np.arange(n, dtype=float)
    floor = 0.0
    if log:
        nice = np.array([m * 10.0 ** e for e in range(-9, 1) for m in (1, 2, 5)])
        floor = float(nice[nice <= positive.min() / 1.3].max())
        top = float(min(1.0, nice[nice >= positive.max() * 1.3].min()))
        ax.set_xscale("log")
        ax.set_xlim(floor, top)
        _log_ticks(ax, floor, top)
    else:
        ax.set_xlim(0, min(1.0, 1.1 * float(known.max())) or 1.0)
        ax.xaxis.set_major_formatter(FuncFormatter(percent))
    zero = p <= floor
    ax.hlines(rows - 0.16, np.maximum(lo, floor), hi, colors=cols, linewidth=2.2)
    ax.scatter(p[~zero], rows[~zero] - 0.16, s=42, c=[c for c, z in zip(cols, zero) if not z], marker="o",
               zorder=3)
    if zero.any():
        ax.scatter(np.full(int(zero.sum()), floor), rows[zero] - 0.16, s=60, marker="<", zorder=3,
                   c=[c for c, z in zip(cols, zero) if z], clip_on=False)
    if ex is not None:
        ax.scatter(ex, rows + 0.16, s=36, marker="D", facecolors="white", edgecolors=cols, linewidths=1.4, zorder=3)
    ax.set_yticks(rows, list(labels), fontsize=11)
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="x", labelsize=10)
    ax.grid(axis="x", alpha=0.35)
    for r in rows[1:]:
        ax.axhline(r - 0.5, color="#e0e0e0", linewidth=0.6)
    ax.set_xlabel(xlabel + (" (log scale)" if log else ""), fontsize=11)
    ax.set_title(title, fontsize=12)
    grey = "#757575"
    handles: list = [Line2D([], [], color=grey, marker="o", linewidth=2.2),
                     Line2D([], [], color=grey, marker="D", mfc="white", linestyle="none")]
    texts = ["Monte Carlo, 95 % interval", "exact"][: 2 if ex is not None else 1]
    handles = handles[: len(texts)]
    if zero.any():
        handles.append(Line2D([], [], color=grey, marker="<", linestyle="none"))
        texts.append("none seen")
    suits = [c for c in SUIT_COLOURS.values() if c in cols]
    if suits:
        handles.append(tuple(Line2D([], [], color=c, marker="s", linestyle="none") for c in suits))
        texts.append("Eichel Grün Herz Schellen" if len(suits) == 4 else "suit")
        if NEUTRAL in cols:
            handles.append(Line2D([], [], color=NEUTRAL, marker="s", linestyle="none"))
            texts.append("no suit")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.legend(handles, texts, loc="lower center", ncol=len(texts), fontsize=10, frameon=False,
               handler_map={tuple: HandlerTuple(ndivide=None)})
    return fig


def _band(part: pd.DataFrame, y: str, se: str | None, interval: tuple[str, str] | None,
          clip: tuple[float, float] | None) -> tuple[np.ndarray | None, np.ndarray | None]:
    """A series' 95 % band (lo, hi): its ``interval`` columns, else +-1.96 ``se`` cut to ``clip``; none without."""
    if interval is not None:
        return part[interval[0]].to_numpy(dtype=float), part[interval[1]].to_numpy(dtype=float)
    if not se:
        return None, None
    yv = part[y].to_numpy(dtype=float)
    s = 1.96 * part[se].to_numpy(dtype=float)
    if clip is None:
        return yv - s, yv + s
    return np.clip(yv - s, *clip), np.clip(yv + s, *clip)


def _banded_line(ax, xv: np.ndarray, yv: np.ndarray, y2v: np.ndarray | None, lo: np.ndarray | None,
                 hi: np.ndarray | None, colour: str, label: str | None, alpha: float):
    """One series: the line, the dashed second column, the band outlined with dots; returns its legend handle."""
    (line,) = ax.plot(xv, yv, marker=".", color=colour, label=label)
    if y2v is not None:
        ax.plot(xv, y2v, color=colour, linestyle="--", linewidth=1.2)
    if lo is None:
        return line
    ax.fill_between(xv, lo, hi, color=colour, alpha=alpha, linewidth=0)
    for edge in (lo, hi):
        ax.plot(xv, edge, color=colour, linewidth=0.7, linestyle=":")
    return line, Patch(facecolor=colour, alpha=0.3, edgecolor=colour)


def _style_axes(axes: list, xs: np.ndarray, xlabel: str, logy: bool, clip: tuple[float, float] | None) -> None:
    """Shared axis settings: log scale, the clip range padded, whole-number ticks for counts, grid."""
    for ax in axes:
        if logy:
            ax.set_yscale("log")
        if clip is not None:
            pad = 0.03 * (clip[1] - clip[0])
            ax.set_ylim(clip[0] - pad, clip[1] + pad)
        if np.allclose(xs, np.round(xs)):  # counts (tricks, bids): whole-number ticks, every one if few
            if len(xs) <= 15:
                ax.set_xticks(xs)
            else:
                ax.xaxis.get_major_locator().set_params(integer=True)
        ax.set_xlabel(xlabel)
        ax.grid(alpha=0.3)


def _panel_legend(fig, title: str, dashed: bool, words: tuple[str, str, str] | None) -> None:
    """Title and a grey legend below the panels saying what the line, the dashed line and the band mean."""
    fig.suptitle(title)
    explain = [Line2D([], [], color=NEUTRAL, marker="."), Line2D([], [], color=NEUTRAL, linestyle="--"),
               Patch(facecolor=NEUTRAL, alpha=0.3, edgecolor=NEUTRAL)]
    shown = [(h, w) for h, w in zip(explain, words or ("line", "dashed line", "95 % band"))
             if dashed or h is not explain[1]]
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.legend([h for h, _ in shown], [w for _, w in shown], loc="lower center", ncol=len(shown),
               fontsize="small", frameon=False)


def line_chart(df: pd.DataFrame, x: str, y: str, series: str | None, title: str, xlabel: str = "",
               ylabel: str = "", se: str | None = None, logy: bool = False,
               clip: tuple[float, float] | None = None, interval: tuple[str, str] | None = None,
               y2: str | None = None, panels: bool = False, whiskers: bool = False,
               legend: tuple[str, str, str] | None = None) -> "plt.Figure":
    """Lines of ``y`` against ``x``, one per ``series`` value, each with a 95 % band in its own colour, outlined
    so that overlapping bands stay apart: the ``interval`` columns (lo, hi) when given, else +-1.96 ``se`` cut to
    ``clip`` (e.g. (0, 1) for probabilities; the y axis then spans ``clip``).

    ``y2``: a second column drawn dashed in the line's colour (e.g. the other end of a range); ``panels``: one
    small panel per series, side by side on one y axis (for bands too wide to overlay); ``whiskers``: 95 %
    error bars, a little apart, instead of bands (few points); ``legend``: what the line, the dashed line
    and the band mean, said in the legend.
    """
    parts = [(None, df)] if series is None else list(df.groupby(series, sort=False))
    k = len(parts) if panels and series is not None else 1
    fig, grid = plt.subplots(1, k, figsize=(8.6 if k > 1 else 6.4, 3.9 if k > 1 else 3.8), sharey=True,
                             squeeze=False)
    axes = list(grid[0])
    xs = np.unique(df[x].to_numpy(dtype=float))
    step = float(np.diff(xs).min()) if len(xs) > 1 else 1.0
    handles = []
    for i, (name, part) in enumerate(parts):
        ax = axes[i if k > 1 else 0]
        xv, yv = part[x].to_numpy(dtype=float), part[y].to_numpy(dtype=float)
        c = PALETTE[i % len(PALETTE)]
        lo, hi = _band(part, y, se, interval, clip)
        label = None if name is None else str(name)
        if whiskers and lo is not None:
            dodge = (i - (len(parts) - 1) / 2) * 0.12 * step if k == 1 else 0.0
            ax.errorbar(xv + dodge, yv, yerr=np.vstack([yv - lo, hi - yv]), fmt="-o", ms=4, capsize=2.5,
                        color=c, label=label)
            continue
        y2v = None if y2 is None else part[y2].to_numpy(dtype=float)
        handles.append(_banded_line(ax, xv, yv, y2v, lo, hi, c, label, 0.22 if k > 1 else 0.15))
        if k > 1:
            ax.set_title(label or "", fontsize=10)
    _style_axes(axes, xs, xlabel or x, logy, clip)
    axes[0].set_ylabel(ylabel or y)
    if k > 1:
        _panel_legend(fig, title, y2 is not None, legend)
        return fig
    ax = axes[0]
    ax.set_title(title)
    if series is not None:
        if whiskers:
            ax.legend(fontsize="small")
        else:
            ax.legend(handles, [str(n) for n, _ in parts], fontsize="small",
                      handler_map={tuple: HandlerTuple(ndivide=1)})
    fig.tight_layout()
    return fig


def game_trajectories(games: pd.DataFrame, deals: pd.DataFrame, rules) -> "plt.Figure":
    """Left: running totals in the first game, one line per player (per team where partners share a
    score), the target dotted; deals numbered as in the deals table, from 0.
    Right: wins per player or team (all games) with 95 % Wilson whiskers."""
    n = rules.n_seats
    teams = rules.layout.teams if rules.layout.partnership else None
    fig, (ax, bx) = _figure(2)
    first = list(deals.groupby("game", sort=True))[:1]
    for _, part in first:
        # Partners carry one score (their lines would lie on top of each other): one line per team.
        for p, label in ([(t[0], f"players {' + '.join(map(str, t))}") for t in teams] if teams
                         else [(p, f"player {p}") for p in range(n)]):
            ax.plot(part["deal"], part[f"total_p{p}"], label=label, **player_style(p, teams))
    ax.axhline(rules.game.target, color="black", linestyle=":", linewidth=1, label="target")
    ax.set_xlabel("deal (numbered from 0, as in the deals table)")
    ax.set_ylabel("running total")
    ax.set_title(f"Scores through game {first[0][0] if first else 0}, {rules.display_name}")
    ax.legend(fontsize="small")
    finished = games[games["winner"] >= 0]
    m = len(finished)
    if teams:
        who, labels = finished["winner_team"], [f"players {' + '.join(map(str, t))}" for t in teams]
        colors = [player_style(t[0], teams)["color"] for t in teams]
    else:
        who, labels = finished["winner"], [f"player {p}" for p in range(n)]
        colors = [player_style(p)["color"] for p in range(n)]
    k = len(labels)
    wins = np.array([int((who == i).sum()) for i in range(k)])
    rate = wins / m if m else np.zeros(k)
    lo, hi = wilson(wins, m) if m else (np.zeros(k), np.zeros(k))
    bx.bar(labels, rate, yerr=np.vstack([rate - lo, hi - rate]), capsize=3, color=colors)
    bx.axhline(1 / k, color="black", linestyle=":", linewidth=1)
    bx.set_ylim(0, 1)
    bx.set_ylabel("win rate (95 % Wilson interval)")
    bx.set_title(f"Winners of {m} games (player 0 is forehand in deal 0)")
    ax.xaxis.get_major_locator().set_params(integer=True)
    fig.tight_layout()
    return fig


def histogram(values: Sequence[float] | np.ndarray, weights: Sequence[float] | None, title: str, xlabel: str,
              ylabel: str = "probability", logy: bool = False, overlay: tuple[np.ndarray, np.ndarray] | None = None,
              labels: tuple[str, str] = ("Monte Carlo", "exact")) -> "plt.Figure":
    """A step histogram of a distribution given as values and weights (a pmf), optionally
    beside a second pmf ``overlay`` = (values, probabilities)."""
    fig, (ax,) = _figure()
    ax.bar(np.asarray(values, dtype=float), np.asarray(weights, dtype=float), width=8, alpha=0.6, label=labels[0],
           color=PALETTE[0])
    if overlay is not None:
        ax.plot(np.asarray(overlay[0], dtype=float), np.asarray(overlay[1], dtype=float), "k.", markersize=4,
                label=labels[1])
        ax.legend(fontsize="small")
    if logy:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.tight_layout()
    return fig


def close(fig) -> None:
    """Release a figure's memory (reports draw many)."""
    plt.close(fig)
