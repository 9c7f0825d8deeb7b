"""A corpus's headline figures (``binokel corpus info``): totals, make rates per bid, the Tapp value, cost.

>>> import tempfile
>>> from binokel_sim.corpus.builder import build_corpus
>>> from binokel_sim.corpus.reader import load_corpus
>>> d = tempfile.mkdtemp()
>>> _ = build_corpus("four-solo", 3, d, seed=2, chunk_size=2)
>>> headline(load_corpus(d, "four-solo"))["tapp_value"]["n"]
3
"""

from __future__ import annotations

from typing import Any

import numpy as np

from binokel_sim.stats import proportion, wilson

from .reader import Corpus, load_rules_of

#: Bids whose make rates ``corpus info`` shows.
HEADLINE_BIDS = (150, 200, 250, 300)


def _mse(x: np.ndarray) -> dict[str, float]:
    x = np.asarray(x, dtype=np.float64)
    se = float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else float("nan")
    return {"mean": float(x.mean()) if x.size else float("nan"), "se": se, "n": int(x.size)}


def _make_row(r) -> dict[str, Any]:
    n = int(r.n)
    return {"bid": int(r.bid), "p_make": float(r.p_make), "se": float(r.p_make_se), "n": n,
            **dict(zip(("lo", "hi"), wilson(round(float(r.p_make) * n), n)))}


def headline(c: Corpus, bids: tuple[int, ...] = HEADLINE_BIDS) -> dict[str, Any]:
    """n, mean soloist total (trump contracts), make rates per bid, Tapp value (paired), Durch rate, cost.

    In a corpus solved within a budget the open deals make every figure a range: the total and the
    Tapp value get ``*_hi`` (the upper bounds' mean), each make rate ``counted_made`` (open deals
    counted as made; ``p_make`` counts them failed), and the Durch rate is None (not checked)."""
    from binokel_sim.evaluation.hand import bid_table
    from binokel_sim.evaluation.study import add_bounds, bounds_of, parts_of, point_intervals, upper_parts

    df = c.df
    if not len(df):
        return {"n": 0}
    rules = load_rules_of(c)
    trump = df["code"].to_numpy() < 4
    b = np.asarray(bids, dtype=np.int64)
    # The study's interval columns (corpus rows hold the lower bounds in value / result / base_result).
    g = add_bounds(df.copy(), point_intervals(df))
    t = bid_table(rules, parts_of(g), b)
    exact = df["points_exact"].to_numpy(bool) & df["base_points_exact"].to_numpy(bool)
    make = [_make_row(r) for r in t.itertuples()]
    out: dict[str, Any] = {
        "n": len(df),
        "soloist_total": _mse(df["points_lo"].to_numpy()[trump]),
        "melds_kept": _mse(df["melds_kept"].to_numpy()[trump]),
        "make": make,
        "tapp_value": _mse(bounds_of(g, "tapp_value")[0]),
        "unresolved_fraction": float(1 - exact.mean()),
        "durch_makeable": (proportion(int(df["durch_makeable"].to_numpy(bool).sum()), len(df))
                           if c.manifest.get("durch_check", True) else None),
        "cpu_seconds_per_deal": _mse(df["seconds"].to_numpy()),
        "nodes_per_deal": _mse(df["nodes"].to_numpy()),
    }
    if not exact.all():
        out["soloist_total_hi"] = _mse(df["points_hi"].to_numpy()[trump])
        out["tapp_value_hi"] = _mse(bounds_of(g, "tapp_value")[1])
        for row, r in zip(make, bid_table(rules, upper_parts(g), b).itertuples()):
            row["counted_made"] = _make_row(r)
    return out


def _rate(r: dict[str, Any]) -> str:
    """A proportion with its 95 % Wilson interval (never a bare ± 0) and n."""
    return f"{r['p']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}] (n {r['n']})"


def render_info(c: Corpus, h: dict[str, Any]) -> str:
    """``corpus info`` as text."""
    m = c.manifest
    lines = [f"corpus {c.path}", f"  rules {m['rules']} (hash {m['rules_hash']}), seed {m['seed']}, "
             f"policy {m['policy']}, chunk size {m['chunk_size']}, {len(m['chunks'])} chunks",
             f"  package {m.get('package_version')}, solver {m.get('solver_version')}, "
             f"build CPU {m['cpu_seconds']:.0f} s"]
    for b in m.get("builds", [])[-3:]:
        lines.append(f"  build {b.get('started')}: {b.get('command')}")
    for r in m.get("revisions", []):  # columns re-derived in place after a policy change (solved columns kept)
        what = r.get("note") or (f"{r.get('command')}: {r.get('rows')} rows, {r.get('changed')} re-solved, "
                                 f"{r.get('estimates_changed')} new estimates")
        lines.append(f"  revised {r.get('date') or r.get('started')}: {r.get('what')}: {what}")
    if not h.get("n"):
        return "\n".join(lines + ["  no deals yet"])
    pm = lambda d, f="{:.1f}": f"{f.format(d['mean'])} ± {f.format(d['se'])} (n {d['n']})"  # noqa: E731

    def ranged(key: str) -> str:  # a mean, or lower .. upper bounds' means where deals are open
        if f"{key}_hi" not in h:
            return pm(h[key])
        lo, hi = h[key], h[f"{key}_hi"]
        return (f"{lo['mean']:.1f} .. {hi['mean']:.1f} (lower and upper bounds, ± {lo['se']:.1f} / "
                f"{hi['se']:.1f}; n {lo['n']})")

    durch = ("not checked (solved within a budget)" if h["durch_makeable"] is None
             else _rate(h["durch_makeable"]))
    lines += [f"  deals {h['n']}", f"  soloist total, trump contracts: {ranged('soloist_total')}",
              f"  melds kept, trump contracts:    {pm(h['melds_kept'])}",
              f"  Tapp value (paired):            {ranged('tapp_value')}",
              f"  Durch makeable:                 {durch}",
              f"  unresolved fraction:            {h['unresolved_fraction']:.4f}",
              f"  CPU s per deal:                 {pm(h['cpu_seconds_per_deal'], '{:.3f}')}"
              f" = {3600 / h['cpu_seconds_per_deal']['mean']:.0f} deals per core-hour",
              "  P(make), melds kept counted" + (" (open deals counted as failed .. as made):"
                                                 if "counted_made" in h["make"][0] else ":")]
    for r in h["make"]:
        line = f"    bid {r['bid']}: {_rate({**r, 'p': r['p_make']})}"
        if "counted_made" in r:
            up = r["counted_made"]
            line += f" .. {_rate({**up, 'p': up['p_make']})}"
        lines.append(line)
    if c.bad:
        lines.append(f"  left out (corrupt): {', '.join(c.bad)}")
    return "\n".join(lines)
