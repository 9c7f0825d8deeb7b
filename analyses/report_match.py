"""The report's duplicate-match section: bidding policies measured over whole auctions.

A match takes minutes to hours (1 500 deals, each played up to ten times), so the report reads the shipped
rows of ``binokel study match`` (``data/match/PRESET.parquet``, package ``binokel_sim.matches``) when
their provenance names these rules (by content hash); without them the section names the command that
measures it. The figures: :func:`binokel_sim.analyses.match.match_summary` and
:func:`~binokel_sim.analyses.match.pass_calibration`.

>>> from binokel_sim.rules import load_rules
>>> match_section(load_rules("kreuz-48")).text[0].startswith("No duplicate match is shipped")
True
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from binokel_sim.analyses.report_model import Section
from binokel_sim.game.match import MatchRows
from binokel_sim.rules import Rules

#: The summary columns the report shows (the rows file carries every one).
SHOWN = ("against", "deals", "gain", "gain_se", "gain_vs_others", "gain_vs_others_se", "won_a", "won_b", "failed_a",
         "failed_b", "out_a", "out_b")


def shipped_root() -> Path | None:
    """The folder of the shipped matches (``data/match``), or None if not installed."""
    try:
        return Path(str(resources.files("binokel_sim.matches")))
    except ModuleNotFoundError:
        return None


def rows_of_frame(df: pd.DataFrame, against: list[str]) -> MatchRows:
    """:class:`MatchRows` of a rows table written by ``study match --out`` (``against`` as names)."""
    index = {b: k for k, b in enumerate(against)}
    # Rows written before ``passed_b`` was measured: not measured (NaN), so the calibration says it lacks them.
    cols = {k: df[k].to_numpy() if k in df else np.full(len(df), np.nan) for k in MatchRows._fields if k != "against"}
    return MatchRows(**cols, against=df["against"].map(index).to_numpy(np.int64))


def shipped_match(rules: Rules) -> tuple[MatchRows, dict] | None:
    """(rows, provenance) of the shipped match of ``rules`` (by content hash), or None."""
    from binokel_sim.provenance import rules_hash

    root = shipped_root()
    path = root / f"{rules.name}.parquet" if root is not None else None
    if path is None or not path.is_file():
        return None
    df = pd.read_parquet(path)
    prov = dict(df.attrs.get("provenance", {}))
    if prov.get("rules_sha256") != rules_hash(rules):
        return None
    return rows_of_frame(df, list(prov["against"])), prov


def match_section(rules: Rules) -> Section:
    """The section (see the module docstring)."""
    from binokel_sim.analyses.match import competing_gain, match_chart, match_summary, pass_calibration

    s = Section("match", "Bidding against passing: a duplicate match")
    got = shipped_match(rules)
    if got is None:
        from binokel_sim.evaluation.instant import load_instant
        from binokel_sim.evaluation.pass_value import load_defence

        first = [f"`binokel {c} --rules {rules.name} --write`" for c, m in
                 (("fit instant", load_instant(rules)), ("fit defence", load_defence(rules))) if m is None]
        s.text.append("No duplicate match is shipped for these rules: "
                      + (f"{' and '.join(first)}, then " if first else "")
                      + f"`binokel study match --rules {rules.name} --deals 1500` measures how the bidding policies"
                        " fare over whole auctions.")
        return s
    rows, prov = got
    policy, against = str(prov["policy"]), tuple(prov["against"])
    summary = match_summary(rows, policy, against)
    deals, seed = int(summary["deals"].iloc[0]), int(prov["seed"])
    s.text.append(f"{deals:,} deals (seed {seed}), each played in whole auctions with one seat bidding by "
                  f"'{policy}' (bid up to the last bid where winning beats passing) and the others by another "
                  "policy, then with that policy in every seat, the seat rotated; exchange, going out and "
                  "double-dummy play as `simulate games` plays them. Gains are the seat's points a round, paired on "
                  f"the same cards, their errors clustered by deal (`{prov.get('command', 'binokel study match')}`).")
    for r in summary.itertuples():
        s.text.append(f"Against '{r.against}': {r.gain:+.1f} ± {r.gain_se:.1f} points a round (own minus the "
                      f"others' mean {r.gain_vs_others:+.1f} ± {r.gain_vs_others_se:.1f}); the seat wins "
                      f"{r.won_a:.1%} of the auctions (the other policy {r.won_b:.1%}) and fails {r.failed_a:.1%} of "
                      f"the contracts it wins ({r.failed_b:.1%}).")
    s.tables.append(("The match: policy A in one seat against each other policy", summary[list(SHOWN)]))
    s.figures.append(("match", match_chart(summary, rules.display_name, deals, seed),
                      f"Gain of '{policy}' in one seat over each other policy, points a round, 95 % whiskers"))
    cal = pass_calibration(rows)
    if len(cal):
        worst = float(np.nanmax(np.abs(cal["z"])))
        mean, se, n = competing_gain(rows)
        s.text.append(f"The pass value (what passing is worth, fitted on forced-pass deals) against what every seat "
                      f"scored had it passed at once, '{against[0]}' in the other seats, in {len(cal)} bins of the "
                      f"prediction: the largest gap is {worst:.1f} standard errors. The {n:,} seats that bid and "
                      f"lost the auction scored {mean:+.1f} ± {se:.1f} points against passing at once on the same "
                      "cards (their bids moved the soloist's contract).")
        s.tables.append(("Pass value: predicted against realised", cal))
    return s


__all__ = ["match_section", "rows_of_frame", "shipped_match"]
