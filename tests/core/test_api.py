"""The public API: the names of ``from binokel_sim import *``, lazy loading, rules given three ways."""

import subprocess
import sys

import pytest

import binokel_sim
from binokel_sim import InputError

NAMES = {"load_rules", "Rules", "Hand", "Deal", "Dealer", "melds", "meld_odds", "exact_odds", "Position", "Solver",
         "solve", "choose_exchange", "evaluate_hand", "simulate_games", "compare", "build_report", "InputError",
         "Contract", "Scale", "as_rules", "build_position"}


def test_star_import_gives_the_api():
    ns: dict = {}
    exec("from binokel_sim import *", ns)
    assert NAMES <= set(ns) and set(binokel_sim.__all__) <= set(ns)
    assert ns["Contract"].DURCH == 4 and ns["load_rules"]("kreuz").name == "kreuz"
    with pytest.raises(AttributeError):
        binokel_sim.no_such_name  # noqa: B018


def test_import_is_lazy():
    code = "import sys, binokel_sim; print(sorted(m for m in ('numba', 'pandas', 'numpy') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_rules_as_name_path_or_object(tmp_path):
    from binokel_sim import as_rules, exact_odds, load_rules
    from binokel_sim.presets import __path__ as presets

    path = tmp_path / "club.toml"
    path.write_text('inherits = "standard"\nname = "club"\n[bidding]\nmin_bid = 200\n')
    assert as_rules(path).bidding.min_bid == 200 and as_rules(str(path)).name == "club"
    assert as_rules(load_rules("kreuz")).name == "kreuz"
    assert exact_odds("standard").events == exact_odds(as_rules(f"{presets[0]}/standard.toml")).events
    with pytest.raises(InputError, match="rules: expected"):
        as_rules(42)


def test_melds_facade_is_the_callable_subpackage():
    from binokel_sim import melds

    rep = melds("EA E10 EK EO EU GO SU")
    assert rep["total"] == 190 and rep["trump"] == "E"
    assert melds("GK GO EO HO SO SU", trump="G")["total"] == 140
    with pytest.raises(InputError):
        melds("EA EA EA")


@pytest.mark.slow
def test_meld_odds_table_takes_a_preset_name():
    from binokel_sim import meld_odds

    df = meld_odds("standard", deals=500, scopes=("hand",))
    assert df.attrs["rules"] == "standard" and df.attrs["deals"] == 500
    with pytest.raises(InputError, match="deals"):
        meld_odds("standard", deals=0)
    with pytest.raises(InputError, match="scopes"):
        meld_odds("standard", deals=10, scopes=("nope",))


def test_scale_not_silently_ignored_with_a_replaced_back_end(tmp_path):
    import numpy as np

    from binokel_sim import Scale, study_deals
    from binokel_sim.play.dd import DD

    toy = DD(points=lambda c, *a: np.full(len(c), 100, np.int32), specials=lambda: lambda *a: False)
    a = study_deals("standard", 6, seed=1, policy="melds", dd=toy, scale=Scale(workers=1))
    b = study_deals("standard", 6, seed=1, policy="melds", dd=toy, scale=Scale(workers=2), chunk_size=2)
    assert a.equals(b)
    with pytest.raises(InputError, match="local threads only"):
        study_deals("standard", 6, seed=1, policy="melds", dd=toy, scale=Scale(checkpoint=tmp_path))
