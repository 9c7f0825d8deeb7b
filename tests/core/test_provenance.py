"""Every file any command writes carries its provenance: seed, rules + hash, n, version, commit, command."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from binokel_sim.provenance import read_csv_provenance, rules_hash
from binokel_sim.rules import load_rules
from clitools import run_cli

HAND = "EA EA E10 EK EO EU GA G10 HA H10 SA S10"


def _commands(d: Path) -> list[list[str]]:
    """Every command that writes files, at tiny sizes, with every kind of output it has."""
    return [
        ["odds", "melds", "--rules", "kreuz", "--deals", "2000", "--seed", "3", "--no-kept", "--out", f"{d}/m.csv"],
        ["odds", "melds", "--rules", "kreuz", "--deals", "2000", "--seed", "3", "--no-kept", "--out", f"{d}/m.parquet"],
        ["odds", "melds", "--rules", "kreuz", "--deals", "2000", "--seed", "3", "--no-kept", "--out", f"{d}/m.json"],
        ["odds", "tapp", "--rules", "kreuz", "--deals", "40", "--seed", "3", "--melds-only", "--out", f"{d}/t.json",
         "--dist-out", f"{d}/td.csv", "--charts", f"{d}/tcharts"],
        ["odds", "bids", "--rules", "kreuz", "--deals", "4", "--seed", "3", "--min-n", "2", "--out", f"{d}/b.parquet"],
        ["bid", HAND, "--samples", "2", "--seed", "3", "--policy", "melds", "--out", f"{d}/bid.csv"],
        ["compare", "kreuz", "four-solo", "--deals", "2000", "--played", "0", "--seed", "3", "--out", f"{d}/c.csv",
         "--charts", f"{d}/charts"],
        ["simulate", "games", "--rules", "kreuz", "--games", "1", "--max-deals", "2", "--seed", "3",
         "--out", f"{d}/s.csv", "--games-out", f"{d}/g.json", "--deals-out", f"{d}/d.parquet",
         "--charts", f"{d}/gcharts", "--chart-format", "svg"],
        ["melds", HAND, "--out", f"{d}/melds.csv"],
        ["deal", "--rules", "kreuz", "--seed", "3", "--out", f"{d}/deal.json"],
        ["solve", "--hands", "EA E10 / GA G10 / HA H10", "--trump", "E", "--out", f"{d}/solve.parquet"],
    ]


def _provenance(path: Path) -> dict:
    if path.suffix == ".csv":
        return read_csv_provenance(path)
    if path.suffix == ".parquet":
        return pd.read_parquet(path).attrs["provenance"]
    if path.suffix == ".json":
        return json.loads(path.read_text())["provenance"]
    if path.suffix == ".png":
        return json.loads(Image.open(path).text["Description"])
    if path.suffix == ".svg":
        text = path.read_text()
        return json.loads(text.split("<dc:description>")[1].split("</dc:description>")[0]
                          .replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
    raise AssertionError(path)


@pytest.mark.slow
def test_every_written_file_carries_provenance(tmp_path, capsys):
    kreuz = rules_hash(load_rules("kreuz"))
    seen = set()
    for args in _commands(tmp_path):
        before = {p for p in tmp_path.rglob("*") if p.is_file()}
        code, _, err = run_cli(capsys, *args, "--quiet") if args[0] != "bid" else run_cli(capsys, *args)
        assert code == 0, (args, err)
        new = {p for p in tmp_path.rglob("*") if p.is_file()} - before
        assert new, args
        for path in new:
            p = _provenance(path)
            if "--seed" in args:  # melds and solve are not random: no seed to record
                assert p["seed"] == 3, (path, p)
                assert any(k in p for k in ("deals", "games", "samples", "presets", "index")), (path, p)
            assert p["command"].startswith("binokel " + " ".join(args[:1])), p["command"]
            assert p["binokel-sim"] and "git_commit" in p and p["python"]
            if "kreuz" in args and args[0] != "compare":
                assert p["rules"] == "kreuz" and p["rules_sha256"] == kreuz, (path, p)
            seen.add(path.suffix)
    assert seen == {".csv", ".parquet", ".json", ".png", ".svg"}


@pytest.mark.slow
def test_report_tables_and_figures_carry_provenance(tmp_path, capsys):
    code, _, err = run_cli(capsys, "report", "--rules", "four-solo", "--meld-deals", "2000", "--study-deals", "4",
                           "--calibration-deals", "2", "--seed", "4", "--out", str(tmp_path), "--quiet")
    assert code == 0, err
    for path in [*(tmp_path / "tables").glob("*.csv"), *(tmp_path / "figures").glob("*.png")]:
        p = _provenance(path)
        assert p["seed"] == 4 and p["rules"] == "four-solo" and p["study_deals"] == 4, (path, p)
    html = (tmp_path / "report.html").read_text()
    assert "git commit" in html and "rules sha256" in html
