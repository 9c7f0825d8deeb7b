"""``binokel odds melds``: printed table, written files in every format, one-line errors."""

import json

import pandas as pd
import pytest

from clitools import assert_one_line_error, run_cli


def test_prints_table_with_provenance_and_writes_csv(capsys, tmp_path):
    out = tmp_path / "odds.csv"
    code, text, err = run_cli(capsys, "odds", "melds", "--deals", "3000", "--seed", "4", "--exact", "--no-kept",
                              "--out", str(out))
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    lines = text.splitlines()
    assert lines[0].startswith("# meld odds: rules=standard deals=3000 seed=4 scopes=hand,hand+tapp exact=yes")
    # the terminal shows player words; the file keeps the code names
    # 100 columns at most: the table comes in two blocks of columns, the second after every row of the first,
    # each led by the row's name (what cards, which meld)
    assert lines[1].split() == ["cards", "counted", "meld", "estimate", "standard", "error", "95", "%", "low", "95",
                                "%", "high"]
    assert ["cards", "counted", "meld", "exact", "z", "p-value", "test", "n"] in [line.split() for line in lines]
    assert max(len(line) for line in lines[1:-1]) <= 100
    assert any(line.split()[:3] == ["hand", "two", "Binokels"] for line in lines)
    assert not any("meld total =" in line for line in lines[2:-1])  # the pmf rows stay hidden
    assert lines[-1].startswith("# ") and "meld_pmf_" in lines[-1] and str(out) in lines[-1]
    df = pd.read_csv(out, comment="#")
    assert list(df.columns) == ["scope", "event", "value", "stderr", "lo", "hi", "exact", "z", "p_value", "test", "n"]
    assert set(df.scope) == {"hand", "hand+tapp"}
    row = df[(df.scope == "hand") & (df.event == "binokel")].iloc[0]
    assert row.n == 9000 and row.exact == pytest.approx(0.2548090600722, rel=1e-9)
    assert df.event.str.startswith("meld_pmf_trump_G_").any()


def test_json_is_a_list_of_rows_and_parquet_round_trips(capsys, tmp_path):
    js, pq = tmp_path / "o.json", tmp_path / "o.parquet"
    for path in (js, pq):
        code, _, err = run_cli(capsys, "odds", "melds", "--rules", "standard-48", "--deals", "2000", "--out", str(path),
                               "--quiet")
        assert code == 0, err
    doc = json.loads(js.read_text())
    rows = doc["rows"]
    assert doc["provenance"]["rules"] == "standard-48" and doc["provenance"]["deals"] == 2000
    assert isinstance(rows, list)
    assert set(rows[0]) == {"scope", "event", "value", "stderr", "lo", "hi", "exact", "z", "p_value", "test", "n"}
    assert rows[0]["exact"] is None
    assert {r["event"] for r in rows} >= {"dissle_1", "dissle_2", "meld_mean_trump_E"}
    df = pd.read_parquet(pq)
    assert df[["scope", "event"]].values.tolist() == [[r["scope"], r["event"]] for r in rows]
    assert df["value"].tolist() == pytest.approx([r["value"] for r in rows], rel=1e-12)


def test_pmf_flag_prints_every_row(capsys):
    code, text, _ = run_cli(capsys, "odds", "melds", "--deals", "500", "--no-kept", "--pmf")
    assert code == 0 and "meld total = 0 " in text


@pytest.mark.parametrize("args,contains", [
    (["--deals", "0"], "--deals"),
    (["--out", "odds.xlsx"], "cannot write a table"),
    (["--rules", "nope"], "unknown rules preset"),
    (["--seed", "-1"], "--seed"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, monkeypatch, args, contains):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(capsys, "odds", "melds", *args, contains=contains)
    assert not (tmp_path / "odds.xlsx").exists()


def test_meld_values_too_fine_for_a_histogram_are_one_line_errors(capsys, tmp_path):
    from dataclasses import replace

    from binokel_sim.errors import InputError
    from binokel_sim.odds.monte_carlo import run_meld_tally
    from binokel_sim.rules import load_rules

    rules = tmp_path / "fine.toml"
    rules.write_text('inherits = "standard"\nname = "fine"\n[melds]\ndouble_family = 10000003\n'
                     'trump_double_family = 20000003\n')
    # Such values are past the rules' ranges (refused at load); a Rules built in code meets the histogram guard.
    assert_one_line_error(capsys, "odds", "melds", "--rules", str(rules), "--deals", "10",
                          contains="rules: melds.double_family must be 0..3000")
    s = load_rules("standard")
    fine = replace(s, melds=replace(s.melds, double_family=10000003, trump_double_family=20000003))
    with pytest.raises(InputError, match="histogram bins"):
        run_meld_tally(fine, 10, seed=1)
