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

from binokel_sim.stats import proportion, wilson, wilson_from_se

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


def _point(lo: np.ndarray, hi: np.ndarray) -> dict[str, float]:
    """Mean of the intervals' midpoints ± its SE, and ``residual``: how far the open intervals can move
    that mean at most (half their mean width)."""
    lo, hi = np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)
    return {**_mse((lo + hi) / 2), "residual": float((hi - lo).mean() / 2) if lo.size else 0.0}


def is_narrow(df, step: int) -> bool:
    """Whether every total of the corpus rows is known to fewer than ``step`` points (the ``within``
    query's promise): its figures are then point estimates, the open intervals a residual."""
    return bool(((df["points_hi"] - df["points_lo"]) < step).all()
                and ((df["base_points_hi"] - df["base_points_lo"]) < step).all())


def headline(c: Corpus, bids: tuple[int, ...] | None = None) -> dict[str, Any]:
    """n, mean soloist total (trump contracts), make rates per bid, Tapp value (paired), Durch rate, cost.

    ``mode``: ``exact`` (every total solved), ``point`` (every total known to less than a bid step, as
    the ``within`` query proves: each figure is the mean of the intervals' midpoints ± SE, with
    ``residual``, the most the open intervals can move it) or ``range`` (wider intervals: the total and
    the Tapp value get ``*_hi``, the upper bounds' mean, each make rate ``counted_made``, open deals
    counted as made, where ``p_make`` counts them failed). The Durch rate is None where not checked."""
    from binokel_sim.evaluation.ladder import bid_table
    from binokel_sim.studies.deals import add_bounds, bounds_of, parts_of, point_intervals, upper_parts

    df = c.df
    if not len(df):
        return {"n": 0}
    rules = load_rules_of(c)
    trump = df["code"].to_numpy() < 4
    b = np.asarray(bids or HEADLINE_BIDS, dtype=np.int64)
    # The study's interval columns (corpus rows hold the lower bounds in value / result / base_result).
    g = add_bounds(df.copy(), point_intervals(df))
    t = bid_table(rules, parts_of(g), b)
    exact = df["points_exact"].to_numpy(bool) & df["base_points_exact"].to_numpy(bool)
    make = [_make_row(r) for r in t.itertuples()]
    mode = "exact" if exact.all() else "point" if is_narrow(df, rules.bidding.bid_step) else "range"
    out: dict[str, Any] = {
        "n": len(df),
        "mode": mode,
        "soloist_total": _mse(df["points_lo"].to_numpy()[trump]),
        "melds_kept": _mse(df["melds_kept"].to_numpy()[trump]),
        "make": make,
        "tapp_value": _mse(bounds_of(g, "tapp_value")[0]),
        "unresolved_fraction": float(1 - exact.mean()),
        "exact_share": float((df["points_exact"].to_numpy(bool).sum() + df["base_points_exact"].to_numpy(bool).sum())
                             / (2 * len(df))),
        "durch_makeable": (proportion(int(df["durch_makeable"].to_numpy(bool).sum()), len(df))
                           if c.manifest.get("durch_check", True) else None),
        "cpu_seconds_per_deal": _mse(df["seconds"].to_numpy()),
        "nodes_per_deal": _mse(df["nodes"].to_numpy()),
    }
    if mode == "exact":
        return out
    upper = [_make_row(r) for r in bid_table(rules, upper_parts(g), b).itertuples()]
    if mode == "point":
        out["soloist_total"] = _point(df["points_lo"].to_numpy()[trump], df["points_hi"].to_numpy()[trump])
        out["tapp_value"] = _point(*bounds_of(g, "tapp_value"))
        for row, up in zip(make, upper):
            # Open deals counted half made: the midpoint of the two counts, which they move by at most half
            # their gap; a bid-aligned grid decides every bid, so the gap is only deals whose trick is open.
            n, k = row["n"], (row["p_make"] + up["p_make"]) / 2 * row["n"]
            row.update(p_make=k / n, residual=(up["p_make"] - row["p_make"]) / 2,
                       se=float(np.sqrt(k * (n - k) / n) / n), **dict(zip(("lo", "hi"), wilson(round(k), n))))
        return out
    from .phases import TWO_PHASE_BIDS, load_phases, phase2_command, two_phase_figures

    ph = load_phases(c)
    if ph is not None:  # phase 2 turns the bounds into point figures
        return {**out, **_two_phase(two_phase_figures(ph.rows(), rules, bids or TWO_PHASE_BIDS), ph)}
    out["phase2_command"] = phase2_command(c.path)
    out["soloist_total_hi"] = _mse(df["points_hi"].to_numpy()[trump])
    out["tapp_value_hi"] = _mse(bounds_of(g, "tapp_value")[1])
    for row, up in zip(make, upper):
        row["counted_made"] = up
    return out


def _estimate(e) -> dict[str, Any]:
    """A two-phase estimate as the headline's ``mean`` / ``se`` / ``n`` figure, with both phases' sizes."""
    return {"mean": e.estimate, "se": e.se, "n": e.n1, "n1": e.n1, "n2": e.n2, "residual": e.residual,
            "phase2_share": e.phase2_share}


def _two_phase(f, ph) -> dict[str, Any]:
    """The headline keys of a two-phase corpus (:mod:`.phases`): point figures, make rates at every bid."""
    make = []
    for b in f.bids:
        p, s = b.p_make, b.expected_score
        # Wilson's interval at the effective n p(1-p)/se^2 (phase 1's n where that is undefined: no open deal).
        lo, hi = (float(v) for v in wilson_from_se(p.estimate, p.se, p.n1))
        make.append({"bid": b.bid, "p_make": p.estimate, "se": p.se, "n": p.n1, "n1": p.n1, "n2": p.n2, "lo": lo,
                     "hi": hi, "open_share": p.open_share, "expected_score": s.estimate, "expected_score_se": s.se})
    m2 = ph.phase2.manifest
    return {"mode": "two-phase", "n2": f.n2, "soloist_total": _estimate(f.soloist_total),
            "tapp_value": _estimate(f.tapp_value), "make": make,
            "phase2": {"folder": str(ph.phase2.path), "within": m2.get("solve_within"), "deals": f.n2,
                       "solver_version": m2.get("solver_version"), "cpu_seconds": m2.get("cpu_seconds"),
                       "cpu_seconds_per_deal": _mse(ph.phase2.df["seconds"].to_numpy())}}


def _shown(d: dict[str, Any]) -> bool:
    """Whether a residual is worth printing: at least a fifth of the figure's SE (else it is noise beside it)."""
    return bool(d["residual"] > 0 and not d["residual"] < 0.2 * d["se"])


def _rate(r: dict[str, Any]) -> str:
    """A proportion with its 95 % Wilson interval (never a bare ± 0) and n."""
    return f"{r['p']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}] (n {r['n']})"


def _two_phase_lines(h: dict[str, Any], c: Corpus) -> list[str]:
    """``corpus info``'s make rates of a two-phase corpus, and what its phase 2 is."""
    from binokel_sim.twophase import REFERENCE

    p2 = h["phase2"]
    cost = p2["cpu_seconds_per_deal"]["mean"]
    out = [f"  phase 2: deals 0..{h['n2'] - 1} solved within {p2['within']} points ({p2['folder']}, solver "
           f"{p2['solver_version']}, {cost:.1f} CPU s per deal)",
           f"  figures: phase 1's bounds on {h['n']} deals joined with phase 2's totals ({REFERENCE})",
           f"  P(make) and E[score] by bid, melds kept counted (n1 {h['n']}, n2 {h['n2']}; open: the share of "
           "deals phase 1 left open at the bid):"]
    for r in h["make"]:
        out.append(f"    bid {r['bid']}: P(make) {r['p_make']:.3f} ± {r['se']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}], "
                   f"E[score] {r['expected_score']:.1f} ± {r['expected_score_se']:.1f}, open {r['open_share']:.1%}")
    if c.bad:
        out.append(f"  left out (corrupt): {', '.join(c.bad)}")
    return out


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

    def ranged(key: str) -> str:  # a mean; with narrow open intervals their residual; wide ones: bounds' means
        d = h[key]
        if "n2" in d:  # two phases: the point figure, its phases' sizes and how they share its variance
            text = (f"{d['mean']:.1f} ± {d['se']:.1f} (n1 {d['n1']}, n2 {d['n2']}; phase 2 carries "
                    f"{d['phase2_share']:.0%} of the variance)")
            # Phase 2's totals are intervals under a bid step wide: at worst (every one at the same end) they
            # move the figure by half their mean width.
            return text + (f"; phase 2's open intervals could move it by ± {d['residual']:.1f} at most"
                           if _shown(d) else "")
        if "residual" in d:
            return pm(d) + (f", open deals move it by at most ± {d['residual']:.1f}" if _shown(d) else "")
        if f"{key}_hi" not in h:
            return pm(d)
        hi = h[f"{key}_hi"]
        return (f"{d['mean']:.1f} .. {hi['mean']:.1f} (lower and upper bounds, ± {d['se']:.1f} / "
                f"{hi['se']:.1f}; n {d['n']})")

    durch = ("not checked (solved within a budget)" if h["durch_makeable"] is None
             else _rate(h["durch_makeable"]))
    lines += [f"  deals {h['n']}", f"  soloist total, trump contracts: {ranged('soloist_total')}",
              f"  melds kept, trump contracts:    {pm(h['melds_kept'])}",
              f"  Tapp value (paired):            {ranged('tapp_value')}",
              f"  Durch makeable:                 {durch}",
              f"  unresolved fraction:            {h['unresolved_fraction']:.4f} (totals exact: "
              f"{h['exact_share']:.1%}; every total known to a bid step)" if h["mode"] == "point" else
              f"  unresolved fraction:            {h['unresolved_fraction']:.4f}",
              f"  CPU s per deal:                 {pm(h['cpu_seconds_per_deal'], '{:.3f}')}"
              f" = {3600 / h['cpu_seconds_per_deal']['mean']:.0f} deals per core-hour"]
    if h["mode"] == "two-phase":
        return "\n".join(lines + _two_phase_lines(h, c))
    if h["mode"] == "range":
        lines.append(f"  bounds only: `{h['phase2_command']}` adds phase 2 (deals solved within a bid step), "
                     "which turns them into point figures ± SE")
    lines.append("  P(make), melds kept counted" + (" (open deals counted as failed .. as made):"
                                                    if "counted_made" in h["make"][0] else
                                                    " (open deals counted half made):"
                                                    if any(r.get("residual") for r in h["make"]) else ":"))
    for r in h["make"]:
        line = f"    bid {r['bid']}: {_rate({**r, 'p': r['p_make']})}"
        if "residual" in r and _shown({"residual": r["residual"], "se": r["se"]}):
            line += f", open deals move it by at most ± {r['residual']:.3f}"
        if "counted_made" in r:
            up = r["counted_made"]
            line += f" .. {_rate({**up, 'p': up['p_make']})}"
        lines.append(line)
    if c.bad:
        lines.append(f"  left out (corrupt): {', '.join(c.bad)}")
    return "\n".join(lines)
