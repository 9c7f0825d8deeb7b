"""``binokel solve``: JSON output, batch mode, one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from binokel_sim.cli.main import main


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["solve", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_solve_json(capsys):
    code, out, err = run(capsys, "--hands", "EA EK / E10 EU / EO GA", "--trump", "none", "--leader", "0",
                         "--solo", "0", "--target", "34", "--cards", "--json")
    assert code == 0 and err == ""
    r = json.loads(out)
    assert (r["solo_points"], r["reaches_target"], r["card_values"]) == (34, True, {"EA": 16, "EK": 34})
    assert r["nodes"] > 0 and r["seconds"] >= 0


def test_solve_trick_durch_and_text(capsys):
    code, out, _ = run(capsys, "--hands", "EK / E10 GU / EU GO", "--trick", "EA", "--solo", "0", "--durch", "--json")
    assert code == 0 and json.loads(out)["durch"] is True
    code, out, _ = run(capsys, "--hands", "EU GU / EA GA / E10 G10", "--solo", "0", "--bettel")
    assert code == 0 and "bettel:" in out and "yes" in out.split("bettel:")[1].splitlines()[0]


def test_kreuz_defaults_to_partners(capsys):
    hands = "EA E10 / GA G10 / EK EU / GK GU"
    _, out, _ = run(capsys, "--hands", hands, "--trump", "none", "--rules", "kreuz", "--json")
    _, out2, _ = run(capsys, "--hands", hands, "--trump", "none", "--rules", "kreuz", "--teams", "0,2", "--json")
    _, out3, _ = run(capsys, "--hands", hands, "--trump", "none", "--rules", "four-solo", "--json")
    assert json.loads(out)["solo_points"] == json.loads(out2)["solo_points"] == 64
    assert json.loads(out3)["solo_points"] == 64


def test_batch(tmp_path, capsys):
    lines = [
        {"hands": [["EA", "EK"], ["E10", "EU"], ["EO", "GA"]], "trump": None, "leader": 0, "solo": 0},
        {"hands": [["EA", "EK"], ["E10", "EU"], ["EO", "GA"]], "trump": "H", "leader": 0, "solo": 1, "target": 20},
        {"hands": [["GU"], ["EA", "EU"], ["EK", "GK"]], "trump": None, "leader": 0, "solo": 1, "trick": ["E10"]},
    ]
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    code, out, _ = run(capsys, "--batch", str(f), "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and [r["solo_points"] for r in rows] == [34, rows[1]["solo_points"], 43]
    assert rows[1]["reaches_target"] == (rows[1]["solo_points"] >= 20)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--hands", "EA EK / E10 / EO GA", "--trump", "none"], "seat 1"),
        (["--hands", "EA EA / EA EU / EO GA", "--trump", "none"], "EA appears 3 times"),
        (["--hands", "GK / EU / EO GA", "--trump", "none", "--trick", "EA G10"], "may not play G10"),
        (["--hands", "EA EK / E10 EU / EO GA", "--trump", "none", "--solo", "4"], "out of range"),
        (["--hands", "EA EK / E10 EU / EO GA"], "missing trump"),
        (["--hands", "EA EK / E10 EU / EO GA / SA SK", "--trump", "H"], "preset 'standard'"),
        (["--hands", "EA E7 / E10 EU / EO GA", "--trump", "H"], "40-card deck"),
        (["--hands", "EA EK / E10 EU / EO GA", "--trump", "H", "--durch"], "without trumps"),
        (["--batch", "/nonexistent/x.jsonl"], "cannot read"),
    ],
)
def test_errors_one_line_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_batch_bad_line(tmp_path, capsys):
    f = tmp_path / "p.jsonl"
    f.write_text('{"hands": [["EA"], ["E10"], ["EK"]], "trump": null, "leader": 0, "solo": 0}\n{"hands": 3}\n')
    code, out, err = run(capsys, "--batch", str(f), "--json")
    assert code == 2 and len(out.splitlines()) == 1 and "line 2" in err and err.count("\n") == 1


HANDS = "EA EK / E10 EU / EO GA"


def test_query_options(capsys):
    code, out, _ = run(capsys, "--hands", HANDS, "--trump", "none", "--grid", "10", "--json")
    r = json.loads(out)
    assert code == 0 and r["lo"] <= 34 <= r["hi"] and r["hi"] - r["lo"] <= 9 and r["exact"] == (r["lo"] == r["hi"])
    code, out, _ = run(capsys, "--hands", HANDS, "--trump", "none", "--query", "at_least", "--target", "35", "--json")
    r = json.loads(out)
    assert code == 0 and r["reaches_target"] is False and r["hi"] >= 34 >= r["lo"] and "solo_points" not in r
    code, out, _ = run(capsys, "--hands", HANDS, "--trump", "none", "--budget", "1n", "--json")
    r = json.loads(out)
    assert code == 0 and r["lo"] <= 34 <= r["hi"] and r["nodes"] <= 2
    code, out, _ = run(capsys, "--hands", HANDS, "--trump", "none", "--budget", "10s")
    assert code == 0 and out.startswith("solo side points: 34\n")
    code, out, _ = run(capsys, "--hands", HANDS, "--trump", "none", "--json")
    r = json.loads(out)
    assert (r["solo_points"], r["lo"], r["hi"], r["exact"]) == (34, 34, 34, True)
    code, out, _ = run(capsys, "--hands", HANDS, "--trump", "none", "--targets", "20,34,35,60")
    assert code == 0 and "reaches:          20 yes, 34 yes, 35 no, 60 no" in out


@pytest.mark.parametrize("args, message", [
    (["--grid", "0"], "'--grid': 0 is out of range: at least 1"),
    (["--grid", "1e400"], "'--grid': '1e400' is not a finite number"),
    (["--target", "99999999999999999999"], "'--target': 99999999999999999999 is out of range: at most 10000"),
    (["--grid", "10", "--lo", "50", "--hi", "40"], "--lo: 50 is above hi 40"),
    (["--budget", "0s"], "budget: must be positive"),
    (["--budget", "soon"], "budget: expected seconds"),
    (["--query", "at_least"], "--target: the at_least query needs a target"),
    (["--grid", "10", "--budget", "5s"], "--budget: not a field of the grid query"),
    (["--targets", "100,x"], "--targets: expected integers separated by commas"),
    (["--query", "thresholds"], "--targets: the thresholds query needs a list of integers"),
    (["--targets", "30", "--budget", "5s"], "--budget: not a field of the thresholds query"),
])
def test_query_option_errors(capsys, args, message):
    code, out, err = run(capsys, "--hands", HANDS, "--trump", "none", *args)
    assert code == 2 and out == "" and err.startswith("error: ") and message in err and err.count("\n") == 1


def test_batch_queries_and_bad_line_keeps_results(tmp_path):
    pos = {"hands": [["EA", "EK"], ["E10", "EU"], ["EO", "GA"]], "trump": None, "leader": 0, "solo": 0}
    lines = [dict(pos, query="grid", step=10, lo=0, hi=100), dict(pos, query="at_least", target=30),
             dict(pos, query="bounds", budget_nodes=1), dict(pos, query="exact"),
             dict(pos, query="thresholds", targets=[10, 34, 35]), dict(pos, query="grid", step=-5), dict(pos)]
    f = tmp_path / "p.jsonl"
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    # a real process: its output is a pipe, so the results before the bad line must be flushed
    proc = subprocess.run([sys.executable, "-c", "from binokel_sim.cli.main import main; main()", "solve", "--batch", str(f),
                           "--json"],
                          capture_output=True, text=True, timeout=600)
    rows = [json.loads(x) for x in proc.stdout.splitlines()]
    assert proc.returncode == 2 and len(rows) == 5
    assert proc.stderr.count("\n") == 1 and "line 6: step: must be positive" in proc.stderr
    assert rows[4]["reaches"] == {"10": True, "34": True, "35": False} and rows[4]["lo"] >= 34 > rows[4]["hi"] - 1
    assert rows[0]["lo"] <= 34 <= rows[0]["hi"] < rows[0]["lo"] + 10
    assert rows[1]["reaches_target"] is True and rows[1]["lo"] >= 30
    assert rows[2]["lo"] <= 34 <= rows[2]["hi"] and rows[3]["solo_points"] == 34 and rows[3]["exact"] is True


@pytest.mark.parametrize("bad, message", [
    ({"query": "median"}, "line 1: query: unknown query 'median'"),
    ({"query": "at_least"}, "line 1: target: the at_least query needs a target"),
    ({"query": "bounds", "budget_seconds": 0}, "line 1: budget_seconds: must be above 0 and at most 604800 (a week), got 0"),
    ({"query": "bounds", "budget_nodes": 10**30}, "line 1: budget_nodes: out of range (at most 10^15 in size)"),
    ({"query": "bounds", "budget_nodes": -3}, "line 1: budget_nodes: must be positive"),
    ({"query": "grid", "lo": 9, "hi": 1}, "line 1: lo: 9 is above hi 1"),
    ({"query": "thresholds", "targets": []}, "line 1: targets: the thresholds query needs at least one target"),
    ({"query": "thresholds", "targets": [10, 1.5]}, "line 1: targets: expected an integer, got 1.5"),
    ({"query": "thresholds", "targets": [10], "step": 5}, "line 1: step: not a field of the thresholds query"),
])
def test_batch_bad_query_fields(tmp_path, capsys, bad, message):
    f = tmp_path / "p.jsonl"
    f.write_text(json.dumps({"hands": [["EA"], ["E10"], ["EK"]], "trump": None, **bad}) + "\n")
    code, out, err = run(capsys, "--batch", str(f), "--json")
    assert code == 2 and out == "" and message in err and err.count("\n") == 1
