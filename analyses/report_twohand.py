"""The report of a talon layout (two-hand Binokel, docs/rules.md §10), in the sections of
:mod:`binokel_sim.analyses.report`:

* **meld odds** -- Monte Carlo beside exact, for the dealt 12 and the holding when the
  talon runs out (:mod:`binokel_sim.twohand.odds`);
* **meld growth** -- meld points declared by the end of each talon-phase trick, heuristic
  play on ``10 x study_deals`` deals;
* **endgame** -- the exact endgame against the heuristic's (:mod:`binokel_sim.twohand.endgame`),
  ``study_deals`` deals;
* **games** -- whole games to the target (:mod:`binokel_sim.twohand.runs`), ``study_deals // 3``
  games (at least 10), and the trump Seven exchange paired over ``study_deals`` deals;
* **provenance**.

>>> games_for(60), games_for(4000)
(20, 1333)
"""

from __future__ import annotations

import platform
import time

import numpy as np
import pandas as pd

from binokel_sim import streams
from binokel_sim.glossary import words
from binokel_sim.palette import event_colour
from binokel_sim.rules import Rules
from binokel_sim.runner import Scale

#: Stream id of the meld-growth deals.
GROWTH_STREAM = streams.stream("twohand_growth")


def event_words(code: str) -> str:
    """Player words for a two-hand meld code: the glossary's (a code it lacks with spaces, never underscores).

    >>> event_words("four_A"), event_words("trump_pair")
    ('four Aces', 'trump pair')
    """
    w = words(code)
    return w if w != code else code.replace("_", " ")


def games_for(study_deals: int) -> int:
    """Whole games the report plays for a budget's study deals."""
    return max(10, study_deals // 3)


def _odds_section(rules: Rules, b, seed: int):
    from binokel_sim.analyses import charts
    from binokel_sim.analyses.report_model import Section
    from binokel_sim.analyses.meld_odds_twohand import meld_odds_twohand

    df = meld_odds_twohand(rules, b.meld_deals, seed, exact=b.exact)
    s = Section("meld-odds", "Meld odds: Monte Carlo beside exact")
    s.text.append(f"{b.meld_deals:,} deals. Trump is the turned card's suit. Scopes: `dealt` (a player's 12 "
                  "cards, both seats, n counts hands); `talon-out-no-turned` (12 dealt + 12 drawn, the player "
                  "who draws first every time); `talon-out-with-turned` (12 dealt, 11 drawn and the turned card). "
                  "Drawing model: a player keeps everything he draws. SEs are cluster-robust over deals.")
    zs = df["z"].dropna()
    if len(zs):
        s.text.append(f"Largest |z| over {len(zs)} rows: {zs.abs().max():.2f}.")
    s.tables.append(("Meld events", df))
    dealt = df[df["scope"] == "dealt"]
    s.figures.append(("meld_odds", charts.odds_dots(dealt["event"].map(event_words), dealt["value"], dealt["lo"],
                                                    dealt["hi"], dealt["exact"] if b.exact else None,
                                                    [event_colour(e) for e in dealt["event"]],
                                                    "Two-hand meld odds of the dealt 12 cards", "chance per hand"),
                      "Meld odds of the dealt 12: Monte Carlo (dots, 95 % Wilson whiskers) and exact (diamonds)"))
    return s


def growth_frame(rules: Rules, deals: int, seed: int) -> pd.DataFrame:
    """Per talon-phase trick 1..12 and seat: mean meld points declared so far, SE, n."""
    from binokel_sim.dealing.dealer import Dealer
    from binokel_sim.twohand.play import play_deal

    rows = Dealer(rules, seed, stream=GROWTH_STREAM).deal(deals)
    m = np.array([play_deal(rules, r, endgame="none").meld_by_trick for r in rows], dtype=np.float64)
    out = []
    for k in range(m.shape[1]):
        for s, who in ((0, "forehand"), (1, "dealer")):
            x = m[:, k, s]
            out.append({"trick": k + 1, "seat": who, "declared": x.mean(), "se": x.std(ddof=1) / np.sqrt(len(x)),
                        "n": len(x)})
    return pd.DataFrame(out)


def growth_chart(g: pd.DataFrame):
    """The meld growth (:func:`growth_frame`) as a line per seat against the trick, 95 % whiskers."""
    from binokel_sim.analyses import charts

    return charts.line_chart(g, "trick", "declared", "seat", "Meld points declared by the end of each trick",
                             "trick of the talon phase", "meld points declared so far", se="se", whiskers=True)


def build_twohand_report(rules: Rules, b, seed: int = 1, scale: Scale | None = None, command: str = ""):
    """The :class:`binokel_sim.analyses.report.Report` of a talon layout (see the module docstring)."""
    from binokel_sim._version import __version__
    from binokel_sim.analyses.report_model import Report, Section, provenance_frame
    from binokel_sim.twohand.endgame import endgame_study, endgame_summary
    from binokel_sim.twohand.games import exchange_value
    from binokel_sim.twohand.runs import simulate_twohand_games

    scale = scale or Scale()
    t0 = time.perf_counter()
    sections = [_odds_section(rules, b, seed)]
    g = growth_frame(rules, 10 * b.study_deals, seed)
    s = Section("meld-growth", "The talon phase's meld growth")
    s.text.append(f"{10 * b.study_deals} deals played by the heuristic talon play: meld points each seat "
                  "has declared by the end of each of the 12 talon-phase tricks (Diss of an exchanged Seven included).")
    s.tables.append(("Meld points declared by trick", g))
    s.figures.append(("meld_growth", growth_chart(g),
                      "Meld growth in the talon phase, forehand and dealer (95 % whiskers)"))
    sections.append(s)
    eg = endgame_study(rules, b.study_deals, seed)
    s = Section("endgame", "Endgame: exact against heuristic")
    s.text.append(f"{b.study_deals} endgames (talon exhausted, 12 tricks, both hands known). Mean exact value for "
                  f"forehand: {eg['exact'].mean():.1f} card points. Loss = points the heuristic's endgame rules give "
                  "away against an opponent who plays exactly.")
    s.tables.append(("Heuristic endgame against exact play (points per endgame)", endgame_summary(eg)))
    sections.append(s)
    games = games_for(b.study_deals)
    res = simulate_twohand_games(rules, games, seed, scale=scale)
    s = Section("games", "Whole games")
    s.text.append(f"{games} games to {rules.game.target} (claim rule {'on' if rules.game.aus else 'off'}); "
                  "heuristic talon phase, exact endgame. The first player is forehand in the first deal; the deal "
                  "alternates.")
    s.tables.append(("Game-level figures", res.summary))
    ex = exchange_value(rules, b.study_deals, seed)
    s.text.append(f"The trump Seven exchange, paired over {ex['deals']} deals of their own (each deal with an exchange "
                  "played again with the exchange forbidden, same cards and play rules): the exchanger's net gain "
                  f"(own minus opponent's deal score) {ex['gain']:.1f} ± {ex['se']:.1f} points (n = {ex['n']}; "
                  f"an exchange in {ex['exchange_rate']:.0%} of deals, 95 % interval "
                  f"{ex['exchange_rate_lo']:.0%}-{ex['exchange_rate_hi']:.0%}).")
    sections.append(s)
    prov = {"version": __version__, "rules": rules.name, "rules_source": rules.source, "seed": seed,
            "budget": b.name, "meld_deals": b.meld_deals, "endgame_deals": b.study_deals,
            "growth_deals": 10 * b.study_deals, "games": games, "talon_play": "heuristic",
            "endgame_play": "exact double-dummy", "run_seconds": round(time.perf_counter() - t0, 1),
            "python": platform.python_version(), "run_on": scale.describe(), "command": command}
    p = Section("provenance", "Provenance")
    p.text.append("Same seed, rules and budget give the same numbers, whatever the worker count.")
    p.tables.append(("Provenance", provenance_frame(prov)))
    sections.append(p)
    return Report(rules, b, seed, sections, prov)
