"""The melds and deal commands end to end, and their one-line errors."""

import subprocess
import sys

import pytest

from clitools import assert_one_line_error, run_cli, run_json


def test_melds_json_at_fixed_trump(capsys):
    rep = run_json(capsys, "melds", "EA E10 EK EO EU GO SU", "--trump", "G")
    assert rep["cards"] == ["EA", "E10", "EK", "EO", "EU", "GO", "SU"]
    assert rep["trump"] == "G" and rep["total"] == 140
    assert [(m["name"], m["points"]) for m in rep["melds"]] == [("family", 100), ("binokel", 40)]
    assert "totals_by_trump" not in rep


def test_melds_json_best_trump(capsys):
    rep = run_json(capsys, "melds", "Grün König, Grün Ober, EO HO SO, bells unter")
    assert rep["best_trump"] == "G" and rep["total"] == 140
    assert rep["totals_by_trump"] == {"E": 120, "G": 140, "H": 120, "S": 120}


def test_melds_table_output(capsys):
    code, out, _ = run_cli(capsys, "melds", "GO GO SU SU", "--trump", "E")
    assert code == 0 and "double binokel" in out and "300" in out


def test_melds_dissle_in_48_card_preset(capsys):
    rep = run_json(capsys, "melds", "E7 E7 HK HO", "--trump", "E", "--rules", "standard-48")
    assert rep["total"] == 40 and ("Dissle", 20) in [(m["name"], m["points"]) for m in rep["melds"]]


def test_deal_is_seeded_and_complete(capsys):
    a = run_json(capsys, "deal", "--seed", "9")
    b = run_json(capsys, "deal", "--seed", "9")
    assert a == b
    cards = sorted(c for s in a["seats"] for c in s["cards"]) + a["tapp"]
    assert len(cards) == 40 and len(a["seats"]) == 3 and len(a["tapp"]) == 4
    four = run_json(capsys, "deal", "--rules", "kreuz-48", "--seed", "9", "--index", "3")
    assert len(four["seats"]) == 4 and all(len(s["cards"]) == 11 for s in four["seats"])


@pytest.mark.parametrize("args,contains", [
    (("melds", "EA EX"), "unknown card 'EX'"),
    (("melds", "EA EA EA"), "EA appears 3 times"),
    (("melds", "E7"), "E7 is not in the 40-card deck"),
    (("melds", "EA", "--trump", "Q"), "unknown trump 'Q'"),
    (("melds", "EA", "--rules", "nope"), "unknown rules preset 'nope'"),
    (("melds", "EA", "--rules", "/no/such.toml"), "not found"),
    (("deal", "--seed", "-1"), "seed"),
    (("deal", "--bogus"), "No such option"),
])
def test_bad_input_one_line_exit_2(capsys, args, contains):
    assert_one_line_error(capsys, *args, contains=contains)


def test_broken_toml_via_cli(capsys, tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("name = \n")
    assert_one_line_error(capsys, "melds", "EA", "--rules", str(p), contains="broken TOML")


def test_console_script_exit_status():
    proc = subprocess.run([sys.executable, "-m", "binokel_sim.cli.main", "melds", "EA EA EA"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""
