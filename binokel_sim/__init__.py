"""binokel-sim: an analysis toolkit for the card game Binokel.

The public API: every name below loads on first use (PEP 562), so ``import binokel_sim``
and the CLI's start-up stay cheap. Each function that takes ``rules`` accepts a
:class:`Rules`, a preset name or a path to a TOML file; bad input raises
:class:`InputError` (one line naming the problem). Counts: ``deals`` counts dealt
deals, ``samples`` the random deals of the unseen cards around one hand, ``games``
whole games. Parallelism is one ``scale=Scale(workers=..., checkpoint=..., scheduler=...)``
argument; no setting of it changes a number.

A notebook session -- deal, melds, odds as a DataFrame, solve, bid:

>>> from binokel_sim import *
>>> deal = Dealer("four-solo", seed=12).deal_object(0); hand = deal.hands[0]
>>> melds(hand, "four-solo")["total"]
40
>>> meld_odds("four-solo", deals=20_000, exact=True, scopes=("hand",)).query("event == 'binokel'")[["value", "stderr", "exact"]].round(3).values.tolist()
[[0.152, 0.001, 0.152]]
>>> solve(build_position("four-solo", deal, trump="E"))["solo_points"]
98
>>> evaluate_hand(hand, "four-solo", samples=6, policy="heuristic").ceiling_bid
180
>>> evaluate_hand(hand, "four-solo").tier   # without samples: the instant tier, in well under a second
'instant'

The engine's parts are subpackages: ``dealing``, ``melds``, ``odds``, ``play`` (legal
moves, ``solver``), ``exchange``, ``evaluation``, ``game``; ``binokel_sim.cli`` and
``binokel_sim.analyses`` are mapped from the top-level ``cli/`` and ``analyses/``
folders, and ``binokel_sim.presets`` from ``data/rules/``.
"""

from __future__ import annotations

import importlib
from typing import Any

from binokel_sim._version import __version__ as __version__

#: Public name -> (module, attribute); ``None`` as attribute: the module itself.
_EXPORTS: dict[str, tuple[str, str | None]] = {
    "load_rules": ("binokel_sim.rules", "load_rules"),
    "as_rules": ("binokel_sim.rules", "as_rules"),
    "Rules": ("binokel_sim.rules", "Rules"),
    "Hand": ("binokel_sim.cards", "Hand"),
    "read_hand": ("binokel_sim.dealing.hand_input", "read_hand"),
    "Deal": ("binokel_sim.dealing.dealer", "Deal"),
    "Dealer": ("binokel_sim.dealing.dealer", "Dealer"),
    # The subpackage binokel_sim.melds is callable: binokel_sim.melds.report.melds.
    "melds": ("binokel_sim.melds", None),
    "meld_report": ("binokel_sim.melds.report", "meld_report"),
    "meld_odds": ("binokel_sim.analyses.meld_odds", "meld_odds"),
    "meld_odds_table": ("binokel_sim.analyses.meld_odds", "meld_odds_table"),
    "exact_odds": ("binokel_sim.odds.exact", "exact_odds"),
    "Position": ("binokel_sim.play.solver", "Position"),
    "Solver": ("binokel_sim.play.solver", "Solver"),
    "solve": ("binokel_sim.play.solver", "solve"),
    # The solver's queries as typed records: Solver().query(pos, Grid(step=10)).
    **{q: ("binokel_sim.play.solver", q) for q in ("Exact", "AtLeast", "Thresholds", "Grid", "Bounds", "Within")},
    "build_position": ("binokel_sim.play.setup", "build_position"),
    "table_view": ("binokel_sim.play.advice", "table_view"),
    "advise_card": ("binokel_sim.play.advice", "advise"),
    "choose_exchange": ("binokel_sim.evaluation.exchange_choice", "choose_exchange"),
    "evaluate_hand": ("binokel_sim.evaluation.hand", "evaluate_hand"),
    "EvalSettings": ("binokel_sim.evaluation.deals", "EvalSettings"),
    "pass_value": ("binokel_sim.game.defence", "pass_value"),
    "PassValue": ("binokel_sim.evaluation.pass_value", "PassValue"),
    "versus_pass": ("binokel_sim.evaluation.pass_value", "versus_pass"),
    "VersusPass": ("binokel_sim.evaluation.pass_value", "VersusPass"),
    "weigh_ladder": ("binokel_sim.game.defence", "weigh_ladder"),
    "instant_bid": ("binokel_sim.game.bid_answer", "instant_bid"),
    "checked_bid": ("binokel_sim.game.bid_answer", "checked_bid"),
    "hand_tapp_odds": ("binokel_sim.odds.hand_tapp", "hand_tapp_odds"),
    "create_app": ("binokel_sim.web.app", "create_app"),
    "study_deals": ("binokel_sim.studies.deals", "study_deals"),
    "simulate_games": ("binokel_sim.simulation", "simulate_games"),
    "compare": ("binokel_sim.analyses.compare", "compare"),
    "build_report": ("binokel_sim.analyses.report", "build_report"),
    "budget_with": ("binokel_sim.analyses.report", "budget_with"),
    "write_report": ("binokel_sim.analyses.report_render", "render"),
    "Scale": ("binokel_sim.runner", "Scale"),
    "InputError": ("binokel_sim.errors", "InputError"),
    "Contract": ("binokel_sim.contracts", "Contract"),
}

__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'binokel_sim' has no attribute {name!r}")
    module, attr = _EXPORTS[name]
    mod = importlib.import_module(module)
    value = mod if attr is None else getattr(mod, attr)
    if attr is not None:
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
