"""Messages a player can act on, and charts in the cards' colours."""

from __future__ import annotations

import matplotlib.colors as mc
import pandas as pd
import pytest

from binokel_sim.analyses.charts import bar_chart
from binokel_sim.palette import SUIT_COLOURS, contract_colour
from clitools import assert_one_line_error, run_json


@pytest.mark.parametrize("args,contains", [
    (["deal", "--index", "99999999999999999999"], "'--index'"),
    (["odds", "melds", "--deals", "99999999999999999999999"], "'--deals'"),
    (["simulate", "games", "--games", "10000000000000000000000"], "'--games'"),
    (["melds", "Grün Kaiser"], "unknown rank 'Kaiser'"),
    (["melds", "EA", "--trump", "purple"], "unknown trump 'purple'"),
])
def test_one_line_errors_name_the_problem(capsys, args, contains):
    assert_one_line_error(capsys, *args, contains=contains)


def test_trump_names_and_none_in_melds(capsys):
    assert run_json(capsys, "melds", "GK GO EA", "--trump", "green")["trump"] == "G"
    rep = run_json(capsys, "melds", "GK GO EA", "--trump", "none")
    assert rep["trump"] == "none" and rep["total"] == 20  # a plain pair, no trump pair


def test_suits_drawn_in_the_cards_colours():
    t = pd.DataFrame({"contract": list("EGHS"), "share": 0.25, "lo": 0.2, "hi": 0.3})
    fig = bar_chart(t, "contract", "share", None, "t", interval=("lo", "hi"),
                    colors=[contract_colour(c) for c in t["contract"]])
    got = [mc.to_hex(p.get_facecolor()) for p in fig.axes[0].patches]
    assert got == [SUIT_COLOURS[s] for s in "EGHS"]
    r, g, b = (mc.to_rgb(SUIT_COLOURS[s]) for s in "HGE")
    assert r[0] > r[1] and g[1] > g[0] and g[1] > g[2]  # Herz red, Grün green
