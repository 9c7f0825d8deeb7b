"""The meld-odds study: Monte Carlo estimates beside exact values, as one pandas table.

One row per (scope, event); columns ``scope``, ``event``, ``value``, ``stderr``, ``lo``, ``hi``,
``exact``, ``z``, ``p_value``, ``test``, ``n``:

* scopes: ``hand`` (every seat's dealt hand; ``n`` counts hands = seats x deals),
  ``hand+tapp`` (seat 0's hand and the Tapp: the soloist before discarding) and ``kept``
  (the best meld total keeping ``hand_size`` cards of hand + Tapp; its ``trump_X`` rows
  keep the best cards for that trump);
* events: ``family_E`` .. ``dissle_2`` (probabilities; see :mod:`binokel_sim.melds.events`;
  Dissle rows only with sevens; no event rows for ``kept``, whose kept cards depend on the
  trump), ``meld_mean_best`` / ``meld_mean_trump_{E,G,H,S}`` (means of the meld total),
  ``meld_at_least_{v}_best`` for v in 100 150 200 250 300 400 500 1000, and the pmf
  ``meld_pmf_best_{v}`` / ``meld_pmf_trump_{X}_{v}`` for every total v seen in the sample
  or possible by the exact distribution;
* ``stderr``: cluster-robust over deals (the hands of one deal are dependent): from the
  per-deal count c of members with the event (or their summed total),
  ``sqrt(var(c) / deals) / members``;
* ``exact``: when asked, from :mod:`binokel_sim.odds.exact` (``hand``, ``hand+tapp``) and
  :mod:`binokel_sim.odds.exact_kept` (``kept``: counts of hands by meld structure, each structure
  scored once with the Monte Carlo's best-discard search); ``z = (value - exact) / stderr``
  (NaN where either is missing or the standard error is 0);
* ``lo`` / ``hi``: the 95 % Wilson interval of a probability (effective n from the
  cluster-robust SE; NaN for means); ``p_value`` / ``test``: the two-sided test of MC
  against exact -- ``exact binomial`` where fewer than 10 hits are expected or seen
  (a z from the observed SE is wrong there: 1-2 hits give huge |z|), else ``z``.

Provenance (rules, seed, deals, scopes, meld unit) is in ``df.attrs``.

>>> df = meld_odds_table("standard", deals=2000, seed=1, scopes=("hand",))
>>> row = df[(df.scope == "hand") & (df.event == "binokel")].iloc[0]
>>> int(row.n), bool(0.2 < row.value < 0.3)
(6000, True)
"""

from __future__ import annotations

import math
import os
from typing import Iterable

import numpy as np
import pandas as pd

from binokel_sim.odds.estimate import COLUMNS, cluster_estimate
from binokel_sim.odds.exact_kept import kept_exact_odds
from binokel_sim.odds.exact import ExactOdds, at_least, exact_odds, mean_of
from binokel_sim.melds.events import BEST, LADDER, LEVELS, QUANTITIES, levels_for
from binokel_sim.odds.monte_carlo import HAND, HAND_TAPP, KEPT, SCOPES, MeldTally, run_meld_tally
from binokel_sim.errors import InputError, check_count
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Scale
from binokel_sim.stats import compare_exact, wilson_from_se

_SCOPE_INDEX = {"hand": HAND, "hand+tapp": HAND_TAPP, "kept": KEPT}


def _row(scope: str, event: str, s1: int, s2: int, deals: int, members: int, exact: float, scale: int = 1) -> dict:
    value, se = cluster_estimate(int(s1), int(s2), deals, members)
    value, se = value * scale, se * scale
    n = deals * members
    z = (value - exact) / se if se > 0 and not math.isnan(exact) else math.nan
    lo = hi = p_value = math.nan
    test = ""
    if not event.startswith("meld_mean_"):  # a proportion: Wilson interval, exact test where rare
        lo, hi = wilson_from_se(value, se, n)
        p_value, test = compare_exact(value, se, exact, n)
    return {"scope": scope, "event": event, "value": value, "stderr": se, "lo": lo, "hi": hi, "exact": exact,
            "z": z, "p_value": p_value, "test": test, "n": n}


def _event_rows(rules: Rules, t: MeldTally, scope: str, ex: ExactOdds | None) -> Iterable[dict]:
    si = _SCOPE_INDEX[scope]
    m = t.members[si]
    a = np.arange(t.evt.shape[-1], dtype=np.int64)  # member counts 0..seats
    for q in levels_for(rules):
        table = t.evt[si, q]  # deals by [members >= 1, members == 2]
        by_ge1, by_eq2 = table.sum(axis=1), table.sum(axis=0)
        for name, by in zip(LEVELS[q].events, (by_ge1, by_eq2)):
            exact = float(ex.events[name]) if ex else math.nan
            yield _row(scope, name, by @ a, by @ (a * a), t.deals, m, exact)


def _total_rows(t: MeldTally, scope: str, ex: ExactOdds | None) -> Iterable[dict]:
    si = _SCOPE_INDEX[scope]
    m, u = t.members[si], t.unit
    for j, q in enumerate(QUANTITIES):
        exact = float(mean_of(ex.pmfs[q])) if ex else math.nan
        yield _row(scope, f"meld_mean_{q}", t.sums[si, j], t.sqs[si, j], t.deals, m, exact, scale=u)
    # c = members with best >= v: sum c**2 = sum c + 2 * pairs whose smaller total is >= v.
    tail = np.append(np.cumsum(t.hist[si, BEST][::-1])[::-1], 0)
    pair_tail = np.append(np.cumsum(t.pmin[si][::-1])[::-1], 0)
    for v in LADDER:
        i = min(-(-v // u), len(tail) - 1)
        exact = float(at_least(ex.pmfs["best"], v)) if ex else math.nan
        yield _row(scope, f"meld_at_least_{v}_best", tail[i], tail[i] + 2 * pair_tail[i], t.deals, m, exact)
    for j, q in enumerate(QUANTITIES):
        hist, same = t.hist[si, j], t.same[si, j]
        pmf = ex.pmfs[q] if ex else {}
        # The exact support is in points, always a multiple of the unit.
        for v in sorted({int(i) * u for i in np.nonzero(hist)[0]} | set(pmf)):
            i = v // u
            exact = float(pmf.get(v, 0)) if ex else math.nan
            yield _row(scope, f"meld_pmf_{q}_{v}", hist[i], hist[i] + 2 * same[i], t.deals, m, exact)


def exact_for_scopes(rules: Rules, scopes: Iterable[str], workers: int | None = None) -> dict[str, ExactOdds]:
    """Exact odds of every scope (``hand``: hand_size cards; ``hand+tapp``: + Tapp; ``kept``: totals only)."""
    lay = rules.layout
    cards = {"hand": lay.hand_size, "hand+tapp": lay.hand_size + lay.tapp_size}
    out = {s: exact_odds(rules, cards[s]) for s in scopes if s in cards}
    if "kept" in scopes and not rules.calling.allowed:  # the exact kept counts know no call (Monte Carlo only)
        out["kept"] = kept_exact_odds(rules, workers=workers)
    return out


def meld_odds_table(rules: Rules | str | os.PathLike[str], deals: int, seed: int = 1, exact: bool = False,
                    scopes: tuple[str, ...] = SCOPES, chunk_size: int | None = None,
                    scale: Scale | None = None) -> pd.DataFrame:
    """The meld-odds table (see the module docstring) of ``deals`` deals under ``seed``.

    ``exact`` fills the ``exact`` and ``z`` columns; the numbers do not depend on
    ``chunk_size`` or ``scale`` (a :class:`binokel_sim.runner.Scale`: workers, checkpoint,
    Dask; the exact part, seconds long, uses its workers only).
    A talon layout (two-hand) has its own scopes and events: :mod:`binokel_sim.twohand.odds`.
    """
    rules = as_rules(rules)
    if rules.layout.kind == "talon":
        from binokel_sim.analyses.meld_odds_twohand import meld_odds_twohand

        return meld_odds_twohand(rules, deals, seed, exact=exact)
    check_count("deals", deals)
    check_count("seed", seed, minimum=0)
    if not scopes or set(scopes) - set(SCOPES):
        raise InputError(f"scopes: choose from {', '.join(SCOPES)}, got {', '.join(scopes) or 'none'}")
    t = run_meld_tally(rules, deals, seed, scopes=scopes, chunk_size=chunk_size, scale=scale)
    exacts = exact_for_scopes(rules, t.scopes, workers=scale.workers if scale else None) if exact else {}
    rows: list[dict] = []
    for scope in t.scopes:
        ex = exacts.get(scope)
        if scope != "kept":
            rows.extend(_event_rows(rules, t, scope, ex))
        rows.extend(_total_rows(t, scope, ex))
    df = pd.DataFrame(rows, columns=COLUMNS)
    df["n"] = df["n"].astype("int64")
    df.attrs.update({
        "study": "meld odds", "rules": rules.name, "rules_source": rules.source, "seed": int(seed),
        "deals": int(deals), "scopes": list(t.scopes), "exact": bool(exact), "meld_unit": int(t.unit),
        "stderr": "cluster-robust over deals",
        "kept_exact": "combinatorics over meld structures (binokel_sim.odds.exact_kept)",
    })
    return df


def provenance_line(df: pd.DataFrame) -> str:
    """One header line naming what produced ``df``."""
    a = df.attrs
    return (f"# meld odds: rules={a['rules']} deals={a['deals']} seed={a['seed']} scopes={','.join(a['scopes'])} "
            f"exact={'yes' if a['exact'] else 'no'} (n counts hands; stderr cluster-robust over deals)")


def meld_odds(rules: Rules | str | os.PathLike[str] = "standard", deals: int = 100_000, seed: int = 1, *,
              exact: bool = False, scopes: tuple[str, ...] = SCOPES, scale: Scale | None = None) -> pd.DataFrame:
    """Meld odds of ``rules`` as a DataFrame: :func:`meld_odds_table` with keyword defaults (the public API).

    >>> df = meld_odds("standard", deals=2000, exact=True, scopes=("hand",))
    >>> row = df.set_index("event").loc["binokel"]
    >>> round(float(row.exact), 4), bool(abs(row.z) < 4)
    (0.2548, True)
    """
    return meld_odds_table(rules, deals, seed, exact=exact, scopes=scopes, scale=scale)
