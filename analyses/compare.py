"""Side-by-side comparison of rule sets: what changes between presets, with standard errors.

For each rule set, three seeded studies:

* **melds** (``deals`` deals, :func:`binokel_sim.analyses.meld_odds.meld_odds_table`):
  meld rates of a dealt hand, the mean best meld total of a hand and of the best 12
  (hand size) kept from hand + Tapp; their difference is the Tapp meld gain (melds only, no card
  points; see :data:`binokel_sim.glossary.FIGURES`);
* **Durch** (``deals`` deals): how often seat 0, with the Tapp, holds a sure Durch by the
  exchange optimiser's cheap measure (no card of its can be beaten);
* **corpus** (the shipped corpus of the same rules, :mod:`binokel_sim.analyses.compare_corpus`):
  double-dummy totals, make rates at typical bids, the Tapp value and makeable Durch of thousands
  of solved deals, the soloist any hand;
* **play** (``played`` deals, none by default, :func:`binokel_sim.game.simulate.play_deal`): the simulated
  auction, exchange, surrender and double-dummy play -- the soloist's mean score per
  deal, the contract, the makeable bid (the highest bid the soloist's double-dummy
  total covers), make rates at typical bids, surrender and Durch rates. At 48 cards each deal
  is solved within ``solve_budget`` nodes (:func:`binokel_sim.game.simulate.play_budget`): a deal
  the budget leaves open is kept; the unresolved fraction, the make rates as ranges (open deals
  counted as failed / as made) and the makeable bid's bias bound (the mean width of its range)
  are added.

The result is a long table (``rules``, ``study``, ``figure``, ``value``, ``se``, ``lo``, ``hi``, ``n``:
every figure with its 95 % interval, Wilson for a proportion, ``± 1.96 SE`` for a mean) and
:func:`wide` pivots it to one column per rule set, every cell ``value [lo, hi] n=N``.

>>> from binokel_sim.rules import load_rules
>>> df = compare([load_rules("standard")], deals=400, played=0, seed=1)
>>> row = df[df.figure == "binokel in hand"].iloc[0]
>>> int(row.n), bool(0.2 < row.value < 0.32)
(1200, True)
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pandas as pd

from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.errors import InputError
from binokel_sim import streams
from binokel_sim.contracts import DURCH_CODE
from binokel_sim.exchange.candidates import special_batch
from binokel_sim.game.simulate import play_budget, play_deal
from binokel_sim.game.auction import floor_to_step
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Chunk, Job, Scale, run_jobs
from binokel_sim.scoring import SURRENDER, TRUMP
from binokel_sim.stats import Z95, wilson_from_se
from binokel_sim.play.solver import Solver

#: Bids at which the make rate is reported.
TYPICAL_BIDS = (150, 200, 250, 300)
COLUMNS = ["rules", "study", "figure", "value", "se", "n"]
#: Meld-odds events shown (event -> figure name), scope ``hand``.
MELD_EVENTS = {
    "family_E": "family (one suit) in hand", "pair_E": "pair (one suit) in hand", "four_A": "four Aces in hand",
    "four_U": "four Unters in hand", "binokel": "binokel in hand", "double_binokel": "double binokel in hand",
    "meld_at_least_100_best": "melds >= 100 in hand", "meld_at_least_200_best": "melds >= 200 in hand",
}


def durch_chunk(job: Job, chunk: Chunk) -> np.ndarray:
    """Per deal of the chunk: 1 when seat 0's hand + Tapp allows a sure Durch (cheap measure 0)."""
    rules = job.rules
    rows = Dealer(rules, job.seed, stream=streams.stream("compare_durch")).deal(chunk.size, start=chunk.start)
    sl = seat_slices(rules)
    pools = np.zeros((chunk.size, 24), dtype=np.uint8)
    for i, row in enumerate(rows):
        for c in row[sl[0]]:
            pools[i, c] += 1
        for c in row[sl[-1]]:
            pools[i, c] += 1
    disc = np.zeros((chunk.size, 24), dtype=np.uint8)
    measure = np.empty(chunk.size, dtype=np.int64)
    special_batch(pools, np.int64(rules.layout.tapp_size), np.int64(DURCH_CODE), disc, measure)
    return (measure == 0).astype(np.int8)


def play_chunk(job: Job, chunk: Chunk) -> list[dict[str, Any]]:
    """Per deal of the chunk: the simulated deal's soloist score, bid, contract, total."""
    rules = job.rules
    rows = Dealer(rules, job.seed, stream=streams.stream("compare_play")).deal(chunk.size, start=chunk.start)
    solver = Solver()
    out = []
    for row in rows:
        o = play_deal(rules, row, solver, job.params.get("solve_budget"))
        out.append({"score": int(o.scores[o.soloist_seat]), "bid": o.bid, "contract": o.contract,
                    "total": o.total, "took": o.took, "made": o.made, "total_lo": o.total_lo,
                    "total_hi": o.total_hi, "exact": o.exact})
    return out


def _mean(rules: str, study: str, figure: str, x: np.ndarray) -> dict[str, Any]:
    x = np.asarray(x, dtype=np.float64)
    n = int(x.size)
    value = float(x.mean()) if n else float("nan")
    se = float(x.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return {"rules": rules, "study": study, "figure": figure, "value": value, "se": se, "n": n}


def meld_rows(rules: Rules, deals: int, seed: int, scale: Scale) -> list[dict[str, Any]]:
    """The melds study of one rule set (see the module docstring)."""
    from binokel_sim.analyses.meld_odds import meld_odds_table

    df = meld_odds_table(rules, deals, seed, scale=scale, scopes=("hand", "kept"))
    get = {(r.scope, r.event): r for r in df.itertuples()}
    rows = []
    for event, name in MELD_EVENTS.items():
        r = get[("hand", event)]
        rows.append({"rules": rules.name, "study": "melds", "figure": name, "value": r.value, "se": r.stderr, "n": r.n})
    h, k = get[("hand", "meld_mean_best")], get[("kept", "meld_mean_best")]
    rows.append({"rules": rules.name, "study": "melds", "figure": "mean best melds, hand", "value": h.value,
                 "se": h.stderr, "n": h.n})
    rows.append({"rules": rules.name, "study": "melds", "figure": "mean best melds kept, hand + Tapp",
                 "value": k.value, "se": k.stderr, "n": k.n})
    # Different samples (all seats' hands vs seat 0 with the Tapp): the errors add in quadrature.
    rows.append({"rules": rules.name, "study": "melds", "figure": "Tapp meld gain", "value": k.value - h.value,
                 "se": float(np.hypot(h.stderr, k.stderr)), "n": k.n})
    return rows


def play_rows(rules: Rules, parts: list[list[dict[str, Any]]], budgeted: bool = False) -> list[dict[str, Any]]:
    """Figures of the play study from its chunk results (``budgeted``: with the budget figures)."""
    d = pd.DataFrame([r for p in parts for r in p], columns=["score", "bid", "contract", "total", "took", "made",
                                                             "total_lo", "total_hi", "exact"])
    name, rows = rules.name, []
    rows.append(_mean(name, "play", "soloist score per deal", d["score"].to_numpy()))
    rows.append(_mean(name, "play", "contract bid", d["bid"].to_numpy()))
    # The deal's double-dummy figures count surrendered deals too (played out for them): going out is
    # the soloist's choice, not a property of the deal.
    played = d[d["contract"].isin([TRUMP, SURRENDER])]
    makeable = np.array([floor_to_step(t, rules) if took else 0 for t, took in zip(played["total"], played["took"])])
    rows.append(_mean(name, "play", "makeable bid (double dummy)", makeable))
    for b in TYPICAL_BIDS:
        rows.append(_mean(name, "play", f"make rate at {b}",
                          (played["took"].to_numpy(dtype=bool) & (played["total"].to_numpy() >= b))))
    rows.append(_mean(name, "play", "contract made", d[d["contract"] != SURRENDER]["made"].to_numpy()))
    rows.append(_mean(name, "play", "surrender rate", (d["contract"] == SURRENDER).to_numpy()))
    rows.append(_mean(name, "play", "Durch played", (d["contract"] == "durch").to_numpy()))
    if budgeted:
        rows.extend(budget_rows(rules, d, played))
    return rows


def budget_rows(rules: Rules, d: pd.DataFrame, played: pd.DataFrame) -> list[dict[str, Any]]:
    """The figures a solve budget adds (see the module docstring): ``played`` are the trump contracts of ``d``
    (surrendered ones played out)."""
    name = rules.name
    rows = [_mean(name, "play", "unresolved deals (solve budget)", ~d["exact"].to_numpy(bool))]
    took = played["took"].to_numpy(bool)
    lo, hi = played["total_lo"].to_numpy(), played["total_hi"].to_numpy()
    for b in TYPICAL_BIDS:
        rows.append(_mean(name, "play", f"make rate at {b}, unresolved as failed", took & (lo >= b)))
        rows.append(_mean(name, "play", f"make rate at {b}, unresolved as made", hi >= b))
    # The makeable bid of an open deal lies between those of its total's bounds: their mean gap bounds the bias.
    gap = np.array([floor_to_step(h, rules) - (floor_to_step(v, rules) if t else 0) for v, h, t in zip(lo, hi, took)])
    rows.append({"rules": name, "study": "play", "figure": "makeable bid: bias bound (mean range width)",
                 "value": float(gap.mean()) if gap.size else float("nan"), "se": float("nan"), "n": int(gap.size)})
    return rows


def compare(rule_sets: Sequence[Rules | str | os.PathLike[str]], deals: int = 20_000, played: int = 0, seed: int = 1,
            scale: Scale | None = None, solve_budget: int | None = None) -> pd.DataFrame:
    """The long comparison table of ``rule_sets`` (presets, TOML paths or Rules; see the module docstring).

    ``solve_budget``: search nodes per played deal (None: exact below 48 cards, the studies' default at 48).
    """
    if not rule_sets or isinstance(rule_sets, (str, Rules)):
        raise InputError("compare: name at least one rules preset (a list of them)")
    rule_sets = [as_rules(r) for r in rule_sets]
    names = [r.name for r in rule_sets]
    if len(set(names)) != len(names):
        raise InputError(f"compare: rules named twice ({', '.join(names)})")
    if deals < 1 or played < 0:
        raise InputError("compare: --deals must be positive and --played not negative")
    scale = scale or Scale()
    t0 = time.perf_counter()
    per_rules: list[list[dict[str, Any]]] = []
    not_applicable: dict[str, list[str]] = {}
    for rules in rule_sets:
        if rules.layout.kind == "talon":  # two-hand: the figures that apply (analyses.compare_twohand)
            from binokel_sim.analyses.compare_twohand import twohand_rows

            rows, not_applicable[rules.name] = twohand_rows(rules, deals, seed, MELD_EVENTS)
            per_rules.append(rows)
            continue
        rows = meld_rows(rules, deals, seed, scale)
        sure = Job("compare-durch", durch_chunk, n=deals, seed=seed, rules=rules, chunk_size=2000).run(
            scale, desc=f"{rules.name} Durch")
        rows.append(_mean(rules.name, "durch", "sure Durch with the Tapp (seat 0)",
                          np.concatenate(sure) if sure else np.array([])))
        from binokel_sim.analyses.compare_corpus import corpus_rows

        solved = corpus_rows(rules)
        if not solved:
            not_applicable.setdefault(rules.name, []).append(
                "double-dummy figures: no shipped corpus with these rules (--played N simulates deals)")
        per_rules.append(rows + solved)
    if played:
        # Every rule set's played deals in one pool, one deal per chunk, the longest deals
        # (most tricks) first: a 48-card deal can take minutes, and no worker should idle
        # while another finishes one rule set's last deal.
        budgets = [play_budget(rules, solve_budget) for rules in rule_sets]
        # The budget joins the params only where there is one: exact jobs keep their checkpoints.
        jobs = [Job("compare-play", play_chunk, n=played if rules.layout.kind == "bid" else 0, seed=seed,
                    rules=rules, chunk_size=1, params={} if b is None else {"solve_budget": b})
                for rules, b in zip(rule_sets, budgets)]
        order = sorted(range(len(jobs)), key=lambda i: -rule_sets[i].layout.hand_size)
        parts = run_jobs([jobs[i] for i in order], scale, desc="played deals")
        for i, part in zip(order, parts, strict=True):
            if rule_sets[i].layout.kind == "bid":
                per_rules[i].extend(play_rows(rule_sets[i], part, budgets[i] is not None))
    rows = [r for block in per_rules for r in block]
    df = pd.DataFrame(rows, columns=[*COLUMNS, "lo", "hi", "n2"])
    # Every figure gets its 95 % interval: a proportion Wilson's (effective n from the SE), a mean +-1.96 SE.
    # A row that brings its own interval (a safe bid: the bids its sampling error cannot tell apart) keeps it.
    rate = df["figure"].map(is_rate).to_numpy(bool)
    lo, hi = wilson_from_se(df["value"], df["se"], df["n"])
    se = df["se"].to_numpy(np.float64)
    given = df[["lo", "hi"]].to_numpy(np.float64)
    # A safe bid, or a two-phase figure (its interval from both phases' variance): the row's own interval.
    own = df["figure"].map(is_bid).to_numpy(bool) | np.isfinite(given).all(axis=1)
    df = df.drop(columns=["lo", "hi"])
    df.insert(5, "lo", np.where(own, given[:, 0], np.where(rate, lo, df["value"] - Z95 * se)))
    df.insert(6, "hi", np.where(own, given[:, 1], np.where(rate, hi, df["value"] + Z95 * se)))
    from binokel_sim._version import __version__

    df.attrs.update({"study": "compare", "rules": names, "seed": seed, "deals": deals, "played": played,
                     "not_applicable": not_applicable, "solve_budget": solve_budget,
                     "version": __version__, "seconds": round(time.perf_counter() - t0, 3)})
    return df


def wide(df: pd.DataFrame, with_se: bool = True) -> pd.DataFrame:
    """One row per figure, one column per rule set: ``value [lo, hi] n=N`` text (:func:`cell`) when
    ``with_se``, else the bare values."""
    order = list(dict.fromkeys(df["figure"]))
    names = list(dict.fromkeys(df["rules"]))
    if with_se:
        n2s = df["n2"] if "n2" in df else pd.Series(np.nan, index=df.index)
        texts = [cell(v, lo, hi, n, is_rate(f), 0 if is_bid(f) else None, n2) for v, lo, hi, n, f, n2 in
                 zip(df["value"], df.get("lo", np.nan), df.get("hi", np.nan), df["n"], df["figure"], n2s)]
        out = df.assign(cell=texts).pivot(index="figure", columns="rules", values="cell").fillna("-")
    else:
        out = df.pivot(index="figure", columns="rules", values="value")
    return out.reindex(index=order, columns=names).reset_index()


def is_rate(figure: str) -> bool:
    """Whether a figure of the table is a proportion (the rest are means in points).

    >>> is_rate("make rate at 200"), is_rate("Tapp meld gain"), is_rate("double-dummy total, any hand (corpus)")
    (True, False, False)
    """
    return re.search(r"mean|Tapp meld gain|Tapp value|score|bid|total", figure) is None


def is_bid(figure: str) -> bool:
    """Whether a figure of the table is a bid (a safe bid or a ceiling: whole points, its interval given).

    >>> is_bid("safe bid, meld points 0-50 (corpus)"), is_bid("contract bid")
    (True, False)
    """
    return re.match(r"(safe|ceiling) bid", figure) is not None


def cell(value: float, lo: float, hi: float, n: int, rate: bool, digits: int | None = None,
         n2: float = float("nan")) -> str:
    """One interval format for every figure: ``value [lo, hi] n=N``, a proportion to three decimals, a
    mean in points to one; a figure of one deal has no interval; a two-phase figure names both phases'
    deals (``n1=N n2=M``).

    >>> cell(0.875, 0.5046, 0.9796, 8, True), cell(72.81, 71.8, 73.8, 15000, False), cell(3.0, np.nan, np.nan, 1, False)
    ('0.875 [0.505, 0.980] n=8', '72.8 [71.8, 73.8] n=15000', '3.0 n=1')
    >>> cell(75.0, 70.2, 79.8, 1000, False, n2=200)
    '75.0 [70.2, 79.8] n1=1000 n2=200'
    """
    if not np.isfinite(value):
        return "-"
    d = digits if digits is not None else 3 if rate else 1
    size = f"n1={int(n)} n2={int(n2)}" if np.isfinite(n2) else f"n={int(n)}"
    if np.isfinite(lo) and np.isfinite(hi):
        return f"{value:.{d}f} [{lo:.{d}f}, {hi:.{d}f}] {size}"
    return f"{value:.{d}f} {size}"


#: The charts of :func:`compare_charts`: file stem -> title.
#: Chart titles; the rates chart is titled by what it shows (:func:`rates_title`).
CHART_TITLES = {"meld_rates": "Meld rates of a dealt hand", "mean_melds": "Mean melds and the Tapp meld gain",
                "scores": "Soloist: score per deal, contract and makeable bid"}


def rates_title(figures: pd.Series) -> str:
    """A title naming only what the rates chart shows (with --played 0: the sure-Durch rate alone)."""
    shown = [label for key, label in (("make rate", "make rates at typical bids"), ("surrender", "surrender rate"),
                                      ("Durch played", "Durch played"), ("sure Durch", "sure Durch with the Tapp"))
             if figures.str.contains(key).any()]
    text = ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]
    return text[0].upper() + text[1:]


def compare_charts(df: pd.DataFrame, folder: str | os.PathLike[str], fmt: str = "png") -> list[Path]:
    """One chart per study into ``folder``: meld rates, mean melds and the Tapp meld gain, play figures, rates."""
    from binokel_sim.analyses.charts import close, grouped_bars
    from binokel_sim.glossary import words
    from binokel_sim.output import write_figure
    from binokel_sim.stats import wilson_from_se

    folder = Path(folder)
    groups = {
        "meld_rates": (df["study"] == "melds") & ~df["figure"].str.contains("mean|Tapp"),
        "mean_melds": df["figure"].str.contains("mean best|Tapp meld gain"),
        "scores": df["figure"].isin(["soloist score per deal", "contract bid", "makeable bid (double dummy)"]),
        "make_rates": df["figure"].str.startswith("make rate") | df["figure"].isin(
            ["surrender rate", "Durch played", "sure Durch with the Tapp (seat 0)"]),
    }
    paths = []
    for name, mask in groups.items():
        part = df[mask]
        if part.empty:
            continue
        title = CHART_TITLES.get(name) or rates_title(part["figure"])
        part = part.assign(figure=part["figure"].map(words))
        if name in ("make_rates", "meld_rates"):  # proportions: Wilson whiskers, never below 0
            lo, hi = wilson_from_se(part["value"], part["se"], part["n"])
            fig = grouped_bars(part.assign(lo=lo, hi=hi), "figure", "rules", "value", None, title, "rate",
                               interval=("lo", "hi"))
        else:
            fig = grouped_bars(part, "figure", "rules", "value", "se", title)
        path = folder / f"{name}.{fmt}"
        write_figure(fig, path)
        close(fig)
        paths.append(path)
    return paths
