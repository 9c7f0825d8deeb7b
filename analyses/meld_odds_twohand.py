"""Two-hand meld odds as a table: the dealt 12 and the holding when the talon runs out.

The tallies and exact values come from :mod:`binokel_sim.twohand.odds`; this module
puts them beside each other with cluster-robust standard errors, as
:mod:`binokel_sim.analyses.meld_odds` does for the auction layouts.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from binokel_sim.odds.estimate import COLUMNS, cluster_estimate
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.errors import InputError
from binokel_sim.rules import Rules
from binokel_sim.stats import compare_exact, wilson_from_se
from binokel_sim.twohand.odds import CHUNK, ODDS_STREAM, SCOPES, exact_event, tally


def meld_odds_twohand(rules: Rules, deals: int, seed: int, exact: bool = False) -> pd.DataFrame:
    """The two-hand odds table: scope, event, value, stderr, exact, z, n (provenance in ``attrs``)."""
    if rules.layout.kind != "talon" or rules.layout.hand_size != 12:
        raise InputError(f"rules {rules.name!r}: two-hand odds need the two-hand layout (12 cards each)")
    if deals < 2:
        raise InputError(f"--deals: expected at least 2, got {deals}")
    dealer = Dealer(rules, seed, stream=ODDS_STREAM)
    sums: dict[tuple[str, str], list[int]] = {}
    for start in range(0, deals, CHUNK):  # bounded memory; deal i depends only on (seed, i)
        rows = dealer.deal(min(CHUNK, deals - start), start=start).astype(np.int64)
        for key, c in tally(rows):
            acc = sums.setdefault(key, [0, 0])
            acc[0] += int(c.sum())
            acc[1] += int((c * c).sum())
    table = []
    for (scope, event), (s1, s2) in sums.items():
        members = 2 if scope == "dealt" else 1
        drawn, turned = {"dealt": (12, False), SCOPES[1]: (24, False), SCOPES[2]: (23, True)}[scope]
        ex = exact_event(event, drawn, turned) if exact else math.nan
        value, se = cluster_estimate(s1, s2, deals, members)
        z = (value - ex) / se if se > 0 and not math.isnan(ex) else math.nan
        lo, hi = wilson_from_se(value, se, deals * members)  # every two-hand event is a proportion
        p_value, test = compare_exact(value, se, ex, deals * members) if exact else (math.nan, "")
        table.append({"scope": scope, "event": event, "value": value, "stderr": se, "lo": float(lo), "hi": float(hi),
                      "exact": ex, "z": z, "p_value": p_value, "test": test, "n": deals * members})
    df = pd.DataFrame(table, columns=COLUMNS)
    df.attrs.update({"study": "two-hand meld odds", "rules": rules.name, "rules_source": rules.source,
                     "seed": int(seed), "deals": int(deals), "scopes": list(SCOPES), "exact": bool(exact),
                     "stderr": "cluster-robust over deals",
                     "drawing model": "a player keeps everything he draws; seat 0 draws first every time"})
    return df
