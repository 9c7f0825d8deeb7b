"""``binokel study play-gap`` (analyses/play_gap.py): the same rows whatever the chunking and the worker count,
the summaries' arithmetic, and one-line refusals before any work."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from clitools import assert_one_line_error, run_json

from binokel_sim.analyses import play_gap as pg
from binokel_sim.rules import load_rules
from binokel_sim.runner import Scale

#: Kreuzbinokel (9 tricks, partners) and a small budget per decision keep the plays quick; the rows stay
#: seeded (nodes are counted, not timed).
FAST = pg.GapSettings(worlds=2, budget=2.0)


@pytest.fixture(scope="module")
def rows():
    return pg.play_gap("kreuz", 3, seed=1, settings=FAST, scale=Scale(workers=1), chunk_size=1)


@pytest.mark.slow
def test_rows_do_not_depend_on_chunks_or_workers(rows):
    again = pg.play_gap("kreuz", 3, seed=1, settings=FAST, scale=Scale(workers=2), chunk_size=2)
    pd.testing.assert_frame_equal(rows, again)
    assert rows["deal"].tolist() == [0, 1, 2] and rows["soloist"].tolist() == [0, 1, 2]
    assert rows["played"].all() and (rows["sd_tests"] > 0).all()
    # The open-card totals are the double-dummy studies' values for the same deals.
    from binokel_sim.studies.deals import study_deals

    dd = study_deals("kreuz", 3, seed=1, baseline=False)
    assert rows["open"].tolist() == dd["value"].tolist()


def test_summaries_pair_the_modes(rows):
    r = load_rules("kreuz")
    t = pg.totals(rows).set_index("figure")
    assert t.loc["sd - open", "mean"] == pytest.approx((rows["sd"] - rows["open"]).mean())
    assert (t["n"] == 3).all()
    m = pg.make_table(r, rows)
    assert m["bid"].iloc[0] == 150 and m["p_make_open"].iloc[0] == pytest.approx(np.mean(rows["open"] >= 150))
    f = pg.fail_share(r, rows)
    assert set(f["mode"]) == {"sd", "sd_solo"} and (f["share"].between(0, 1)).all()
    c = pg.by_class(rows)
    assert set(c["feature"]) == {"melds", "tapp"} and c.groupby("feature")["n"].sum().tolist() == [3, 3]


def test_specials_are_kept_at_their_open_result():
    d = pd.DataFrame({"played": [True, False], "open": [200, 1000], "open_took": [True, True],
                      "sd": [190.0, np.nan], "sd_took": [True, False], "sd_solo": [180.0, np.nan],
                      "sd_solo_took": [True, False], "melds": [40, 0], "melds_tapp_value": [20.0, 0.0]})
    assert pg.totals(d)["n"].tolist() == [1] * 6
    assert pg.fail_share(load_rules("standard"), d)["share"].tolist() == [1.0, 1.0]


def test_the_command_prints_the_figures(capsys, tmp_path):
    out = tmp_path / "gap.csv"
    j = run_json(capsys, "study", "play-gap", "--rules", "kreuz", "--deals", "2", "--worlds", "2",
                 "--decision-budget", "2", "--workers", "1", "--out", str(out), "-q")
    assert j["deals"] == 2 and {x["figure"] for x in j["totals"]} >= {"open", "sd", "sd_solo", "sd - open"}
    assert len(pd.read_csv(out, comment="#")) == 2 and j["p_make"][0]["bid"] == 150


@pytest.mark.parametrize("args,contains", [
    (["--rules", "two-hand"], "no auction"),
    (["--rules", "standard-48"], "40-card presets only"),
    (["--worlds", "0"], "--worlds"),
    (["--no-such-option"], "no-such-option"),
])
def test_bad_input_is_one_line_before_work(capsys, monkeypatch, args, contains):
    monkeypatch.setattr(pg, "play_gap", lambda *a, **k: pytest.fail("work started"))
    assert_one_line_error(capsys, "study", "play-gap", *args, contains=contains)


def test_settings_are_checked():
    for bad in (pg.GapSettings(worlds=0), pg.GapSettings(tolerance=-1), pg.GapSettings(budget=0)):
        with pytest.raises(ValueError):
            bad.check()
