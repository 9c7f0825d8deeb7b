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

from binokel_sim.palette import SERIES as PALETTE, player_style  # noqa: E402
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


def line_chart(df: pd.DataFrame, x: str, y: str, series: str | None, title: str, xlabel: str = "",
               ylabel: str = "", se: str | None = None, logy: bool = False,
               clip: tuple[float, float] | None = None, interval: tuple[str, str] | None = None) -> "plt.Figure":
    """Lines of ``y`` against ``x``, one per ``series`` value, with a 95% band: the ``interval``
    columns (lo, hi) when given, else +-1.96 ``se`` cut to ``clip`` (e.g. (0, 1) for probabilities)."""
    fig, (ax,) = _figure()
    parts = [(None, df)] if series is None else list(df.groupby(series, sort=False))
    for i, (name, part) in enumerate(parts):
        xv = part[x].to_numpy(dtype=float)
        yv = part[y].to_numpy(dtype=float)
        c = PALETTE[i % len(PALETTE)]
        ax.plot(xv, yv, marker=".", color=c, label=None if name is None else str(name))
        if interval is not None:
            ax.fill_between(xv, part[interval[0]].to_numpy(dtype=float), part[interval[1]].to_numpy(dtype=float),
                            color=c, alpha=0.2)
        elif se:
            s = 1.96 * part[se].to_numpy(dtype=float)
            lo, hi = yv - s, yv + s
            if clip is not None:
                lo, hi = np.clip(lo, *clip), np.clip(hi, *clip)
            ax.fill_between(xv, lo, hi, color=c, alpha=0.2)
    if logy:
        ax.set_yscale("log")
    ax.set_title(title)
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or y)
    if series is not None:
        ax.legend(fontsize="small")
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
    ax.set_title(f"Scores through game {first[0][0] if first else 0} ({rules.name})")
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
