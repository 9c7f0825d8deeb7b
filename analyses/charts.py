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

#: Colours in player / rules order, readable in print.
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")


def _figure(ncols: int = 1, width: float = 6.4, height: float = 3.8):
    fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False)
    return fig, list(axes[0])


def bar_chart(df: pd.DataFrame, x: str, y: str, se: str | None, title: str, ylabel: str = "") -> "plt.Figure":
    """Bars of ``df[y]`` by ``df[x]`` with +-1.96 SE whiskers when ``se`` is given."""
    fig, (ax,) = _figure()
    err = 1.96 * df[se].to_numpy(dtype=float) if se else None
    ax.bar(df[x].astype(str), df[y].to_numpy(dtype=float), yerr=err, capsize=3,
           color=[PALETTE[i % len(PALETTE)] for i in range(len(df))])
    ax.set_title(title)
    ax.set_ylabel(ylabel or y)
    ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    return fig


def grouped_bars(df: pd.DataFrame, group: str, series: str, y: str, se: str | None, title: str,
                 ylabel: str = "") -> "plt.Figure":
    """Bars of ``y`` for each ``group`` (x axis), one colour per ``series``, with 95% whiskers."""
    groups = list(dict.fromkeys(df[group]))
    names = list(dict.fromkeys(df[series]))
    fig, (ax,) = _figure(width=max(6.4, 0.5 * len(groups) * len(names)))
    width = 0.8 / max(len(names), 1)
    xs = np.arange(len(groups))
    for i, name in enumerate(names):
        part = df[df[series] == name].set_index(group).reindex(groups)
        err = 1.96 * part[se].to_numpy(dtype=float) if se else None
        ax.bar(xs + i * width, part[y].to_numpy(dtype=float), width, yerr=err, capsize=2, label=str(name),
               color=PALETTE[i % len(PALETTE)])
    ax.set_xticks(xs + width * (len(names) - 1) / 2, groups, rotation=30, ha="right")
    ax.set_title(title)
    ax.set_ylabel(ylabel or y)
    ax.legend(fontsize="small")
    fig.tight_layout()
    return fig


def line_chart(df: pd.DataFrame, x: str, y: str, series: str | None, title: str, xlabel: str = "",
               ylabel: str = "", se: str | None = None, logy: bool = False,
               clip: tuple[float, float] | None = None) -> "plt.Figure":
    """Lines of ``y`` against ``x``, one per ``series`` value, with a 95% band when ``se`` is given
    (cut to ``clip``, e.g. (0, 1) for probabilities)."""
    fig, (ax,) = _figure()
    parts = [(None, df)] if series is None else list(df.groupby(series, sort=False))
    for i, (name, part) in enumerate(parts):
        xv = part[x].to_numpy(dtype=float)
        yv = part[y].to_numpy(dtype=float)
        c = PALETTE[i % len(PALETTE)]
        ax.plot(xv, yv, marker=".", color=c, label=None if name is None else str(name))
        if se:
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


def game_trajectories(games: pd.DataFrame, deals: pd.DataFrame, rules, show: int = 4) -> "plt.Figure":
    """Left: running totals of every player in the first ``show`` games, the target dashed.
    Right: wins per player (all games) with 95% whiskers."""
    n = rules.n_seats
    fig, (ax, bx) = _figure(2)
    for g_i, (_, part) in enumerate(list(deals.groupby("game", sort=True))[:show]):
        for p in range(n):
            ax.plot(part["deal"] + 1, part[f"total_p{p}"], color=PALETTE[p % len(PALETTE)],
                    alpha=0.9 if g_i == 0 else 0.45, label=f"player {p}" if g_i == 0 else None)
    ax.axhline(rules.game.target, color="black", linestyle="--", linewidth=1, label="target")
    ax.set_xlabel("deal")
    ax.set_ylabel("running total")
    ax.set_title(f"Score trajectories ({rules.name}, first {min(show, games['game'].nunique())} games)")
    ax.legend(fontsize="small")
    finished = games[games["winner"] >= 0]
    m = len(finished)
    if rules.layout.partnership:
        who, labels = finished["winner_team"], [f"team {'+'.join(map(str, t))}" for t in rules.layout.teams]
    else:
        who, labels = finished["winner"], [f"player {p}" for p in range(n)]
    k = len(labels)
    rate = np.array([(who == i).mean() if m else 0.0 for i in range(k)])
    se = np.sqrt(rate * (1 - rate) / m) if m else np.zeros(k)
    bx.bar(labels, rate, yerr=1.96 * se, capsize=3, color=[PALETTE[i % len(PALETTE)] for i in range(k)])
    bx.axhline(1 / k, color="black", linestyle=":", linewidth=1)
    bx.set_ylabel("win rate")
    bx.set_title(f"Winners of {m} games (player 0 is forehand in deal 1)")
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
