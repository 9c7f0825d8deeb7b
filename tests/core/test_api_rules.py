"""Every public function that takes rules takes a preset name: the whole of ``binokel_sim.__all__`` walked
with ``"standard"`` for each rules argument; ``evaluate_hand`` answers with the instant tier by default."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import binokel_sim
from binokel_sim import InputError
from binokel_sim.play.dd import DD

HAND = "EA EA E10 EK EO EU GA G10 HA H10 SA S10"
TAPP = "GK GO HK HO"
TOY = DD(points=lambda c, *a: np.full(len(c), 200, np.int32), specials=lambda: lambda *a: False)

#: Per public name with a rules argument: a cheap call with the preset name ``"standard"`` and what it
#: must return. A call that would run for minutes stops at its first check after the rules are read
#: (a bad count), which raises InputError, never AttributeError on the string.
CALLS = {
    "load_rules": lambda f: f("standard").name == "standard",
    "as_rules": lambda f: f("standard").name == "standard",
    "read_hand": lambda f: str(f(HAND, "standard")) == HAND,
    "Deal": lambda f: len(f("standard", binokel_sim.Dealer("standard", seed=1).deal(1)[0]).hands) == 3,
    "Dealer": lambda f: f("standard", seed=1).deal_object(0).rules.name == "standard",
    "melds": lambda f: f(HAND, "standard")["total"] > 0,
    "meld_report": lambda f: f(binokel_sim.read_hand(HAND, "standard"), "best", "standard")["total"] > 0,
    "meld_odds": lambda f: len(f("standard", deals=200, scopes=("hand",))) > 0,
    "meld_odds_table": lambda f: len(f("standard", 200, scopes=("hand",))) > 0,
    "exact_odds": lambda f: f("standard") is not None,
    "build_position": lambda f: f("standard", binokel_sim.Dealer("standard", seed=1).deal_object(0), trump="E")
    is not None,
    "table_view": lambda f: f("standard", "EA EA E10 EK EO GA G10 HA H10 SA S10 SK", 0, 0, "E", tapp="EU GK HO SU",
                              discards="EU GK HO SU").to_move == 0,
    "advise_card": lambda f: _refuses(f, "standard", binokel_sim.table_view(
        "standard", "EA EA E10 EK EO GA G10 HA H10 SA S10 SK", 0, 0, "E", tapp="EU GK HO SU",
        discards="EU GK HO SU"), worlds=0),
    "choose_exchange": lambda f: f(HAND, TAPP, "standard", policy="melds") is not None,
    "evaluate_hand": lambda f: f(HAND, "standard").tier == "instant",
    "pass_value": lambda f: f(HAND, "standard", samples=2).n == 2,
    "weigh_ladder": lambda f: _refuses(f, HAND, {}, "standard", objective="score"),
    "instant_bid": lambda f: f(HAND, "standard").advice.ceiling_bid is not None,
    "checked_bid": lambda f: _refuses(f, HAND, "standard", samples=0),
    "hand_tapp_odds": lambda f: f(HAND, "standard").ways == 20475,
    "create_app": lambda f: f("standard").title == "binokel-sim" and _refuses(f, "no-such-preset"),
    "study_deals": lambda f: len(f("standard", 3, policy="melds", dd=TOY)) == 3,
    "simulate_games": lambda f: f("standard", 0) is not None,
    "compare": lambda f: _refuses(f, ["standard"], deals=0),
    "build_report": lambda f: _refuses(f, "standard", budget="no-such-budget"),
}


def _refuses(f, *args, **kwargs) -> bool:
    with pytest.raises(InputError):
        f(*args, **kwargs)
    return True


def _takes_rules(obj) -> bool:
    try:
        sig = inspect.signature(obj if not inspect.ismodule(obj) else type(obj).__call__)
    except (TypeError, ValueError):
        return False
    return any(p in sig.parameters for p in ("rules", "rule_sets", "source"))


@pytest.mark.slow
def test_every_public_function_with_rules_takes_a_preset_name():
    takes = {n for n in binokel_sim.__all__ if _takes_rules(getattr(binokel_sim, n)) and n != "Rules"}
    assert takes <= set(CALLS), f"add a call for {sorted(takes - set(CALLS))}"
    for name in sorted(takes):
        assert CALLS[name](getattr(binokel_sim, name)), name


def test_evaluate_hand_instant_by_default_checked_on_request():
    ev = binokel_sim.evaluate_hand(HAND, "standard")
    assert ev.tier == "instant" and ev.n >= 100 and ev.ceiling_bid is not None
    assert np.isfinite(ev.tapp_value).all() and set(ev.to_dict()) >= {"tier", "bids", "ceiling_bid", "safe_bid"}
    with pytest.raises(InputError, match="only the checked tier"):
        binokel_sim.evaluate_hand(HAND, "standard", policy="melds")
    with pytest.raises(InputError, match="tier: expected"):
        binokel_sim.evaluate_hand(HAND, "standard", tier="fast")
    seen: list = []
    ev = binokel_sim.evaluate_hand(HAND, "standard", samples=12, dd=TOY, progress=lambda d, t: seen.append((d, t)))
    assert ev.tier == "checked" and ev.n == 12 and ev.settings.policy == "heuristic"
    assert seen[-1] == (12, 12)
