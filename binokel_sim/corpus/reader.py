"""Read and validate a corpus; find the shipped one matching a rule set; headline figures.

:func:`load_corpus` checks the manifest, the rules' content hash and every chunk
(its file whole: readable Parquet with the recorded rows and SHA-256). A bad chunk
is a one-line :class:`InputError` naming it -- or, with ``skip_bad=True``, left out
(listed in ``Corpus.bad``) so the other chunks stay usable; ``binokel corpus build``
recomputes it. The rows are the study's rows (:func:`binokel_sim.evaluation.study.study_deals`)
plus the corpus columns, so a study reads them as they are.

>>> import tempfile
>>> from binokel_sim.corpus.builder import build_corpus
>>> d = tempfile.mkdtemp()
>>> _ = build_corpus("four-solo", 3, d, seed=2, chunk_size=2)
>>> c = load_corpus(d, "four-solo")
>>> c.n, c.df["deal"].tolist(), headline(c)["tapp_value"]["n"]
(3, [0, 1, 2], 3)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binokel_sim.stats import proportion, wilson
from binokel_sim.errors import InputError
from binokel_sim.rules import Rules, load_rules

from .manifest import check_rules, file_sha256, read_manifest, rules_hash

#: Bids whose make rates ``corpus info`` shows.
HEADLINE_BIDS = (150, 200, 250, 300)


@dataclass
class Corpus:
    """A loaded corpus: its folder, manifest, rows (sorted by deal) and the chunks left out."""

    path: Path
    manifest: dict[str, Any]
    df: pd.DataFrame
    bad: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.df)

    def provenance(self) -> dict[str, Any]:
        """What a study built on this corpus says about its data."""
        m = self.manifest
        return {"corpus": os.fspath(self.path), "n": self.n, "rules_hash": m["rules_hash"], "seed": m["seed"],
                "policy": m["policy"], "solver_version": m.get("solver_version")}


def _read_chunk(folder: Path, entry: dict[str, Any]) -> pd.DataFrame:
    p = folder / entry["file"]
    bad = f"corpus {folder}: chunk {entry['file']} is "
    if not p.is_file():
        raise InputError(bad + "missing (run `binokel corpus build` on the folder to recompute it)")
    if file_sha256(p) != entry["sha256"]:
        raise InputError(bad + "truncated or corrupt (run `binokel corpus build` on the folder to recompute it)")
    try:
        df = pd.read_parquet(p)
    except Exception:  # pyarrow raises several types for a damaged file
        raise InputError(bad + "unreadable Parquet (run `binokel corpus build` on the folder to recompute it)"
                         ) from None
    if len(df) != int(entry["rows"]):
        raise InputError(bad + f"{len(df)} rows, the manifest says {entry['rows']}")
    return df


def load_corpus(folder: str | os.PathLike, rules: Rules | str | None = None, *, skip_bad: bool = False,
                below: int | None = None) -> Corpus:
    """The corpus in ``folder``; with ``rules``, it must have been built with those rules (content hash).

    ``below``: read only the chunks holding deals below it (the rows may go past it).
    """
    folder = Path(folder)
    m = read_manifest(folder)
    if rules is not None:
        check_rules(m, load_rules(rules), folder)
    frames, bad = [], []
    for entry in sorted(m["chunks"], key=lambda c: c["index"]):
        if below is not None and int(entry["start"]) >= below:
            continue
        try:
            frames.append(_read_chunk(folder, entry))
        except InputError:
            if not skip_bad:
                raise
            bad.append(entry["file"])
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame({"deal": np.zeros(0, np.int64)})
    return Corpus(folder, m, df.sort_values("deal", ignore_index=True), bad)


def shipped_root() -> Path | None:
    """The folder of the shipped corpora (``data/corpus``), or None if not installed."""
    try:
        return Path(str(resources.files("binokel_sim.corpora")))
    except ModuleNotFoundError:
        return None


def shipped_label(path: str | os.PathLike[str]) -> str:
    """``data/corpus/NAME (shipped)`` for a shipped corpus, else the path as given: no machine's folder in a
    file that is committed or shared."""
    root = shipped_root()
    full = os.path.abspath(path)
    if root is not None and os.path.dirname(full) == os.path.abspath(root):
        return f"data/corpus/{os.path.basename(full)} (shipped)"
    return os.fspath(path)


def find_corpus(rules: Rules | str, seed: int | None = None, policy: str | None = None) -> Path | None:
    """A shipped corpus built with ``rules`` (by content hash; and ``seed`` / ``policy`` if given), else None."""
    root = shipped_root()
    if root is None or not root.is_dir():
        return None
    want = rules_hash(load_rules(rules))
    for sub in sorted(p for p in root.iterdir() if (p / "manifest.json").is_file()):
        try:
            m = read_manifest(sub)
        except InputError:
            continue
        if m["rules_hash"] == want and seed in (None, m["seed"]) and policy in (None, m["policy"]) and m["deals"]:
            return sub
    return None


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


def load_rules_of(c: Corpus) -> Rules:
    """The corpus's rules: its recorded source if that still has the same content hash."""
    m = c.manifest
    for src in (m.get("rules_source"), m.get("rules")):
        if not isinstance(src, str):
            continue
        try:
            r = load_rules(src)
        except (InputError, TypeError):
            continue
        if rules_hash(r) == m["rules_hash"]:
            return r
    raise InputError(f"corpus {c.path}: its rules {m.get('rules')!r} (hash {m['rules_hash']}) cannot be loaded; "
                     "pass them with --rules")


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
