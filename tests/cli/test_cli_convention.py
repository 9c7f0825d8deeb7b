"""One CLI convention: the options every command takes, and a help page that lists every command in full."""

from __future__ import annotations

import json

import pytest

from clitools import run_cli, walk_commands

from binokel_sim.cli import commands

RANDOM = {("deal",), ("bid",), ("odds", "melds"), ("odds", "tapp"), ("odds", "bids"), ("compare",),
          ("simulate", "games"), ("report",), ("fit", "formula"), ("calibrate",), ("corpus", "build"),
          ("study", "play-gap"), ("card",), ("fit", "defence"),
          ("study", "match")}
LONG = RANDOM - {("deal",), ("card",)} | {("corpus", "refresh"), ("corpus", "phase2")}
#: Commands that answer on a web page, not with a table: no --json or --out (its JSON API is the page's).
SERVERS = {("serve",)}


def _options(cmd) -> set[str]:
    return {o for p in cmd.params for o in getattr(p, "opts", [])}


def test_every_command_takes_the_common_options():
    paths = set()
    for path, cmd in walk_commands(commands.cli):
        paths.add(path)
        opts = _options(cmd)
        assert ({"--quiet"} if path in SERVERS else {"--json", "--out", "--quiet"}) <= opts, path
        assert not ({"--json", "--out"} & opts and path in SERVERS), path
        assert "--rules" in opts, path
        assert ("--seed" in opts) == (path in RANDOM), path
        assert ({"--workers", "--checkpoint", "--scheduler"} <= opts) == (path in LONG), path
        assert "--chart" not in opts and ("--charts" in opts) == ("--chart-format" in opts), path
    assert paths == RANDOM | {("melds",), ("solve",), ("corpus", "info"), ("corpus", "refresh"), ("corpus", "phase2"),
                                ("corpus", "seal"), ("fit", "instant")} | SERVERS


def test_help_lists_every_command_on_one_line(capsys):
    code, out, _ = run_cli(capsys, "--help")
    listed = out.split("Commands:")[1].splitlines()
    assert code == 0 and "..." not in "\n".join(listed)
    for name in ("bid", "calibrate", "card", "compare", "deal", "fit", "melds", "odds", "report", "simulate", "solve"):
        (line,) = [x for x in listed if x.strip().startswith(name + " ")]
        assert len(line.split(maxsplit=1)[1]) > 20  # a real summary, not cut
    for group in ("odds", "simulate", "fit", "corpus"):
        code, out, _ = run_cli(capsys, group, "--help")
        assert code == 0 and "..." not in out.split("Commands:")[1]


def test_solve_prints_indented_json(capsys):
    code, out, err = run_cli(capsys, "solve", "--hands", "EA E10 / GA G10 / HA H10", "--trump", "E", "--json")
    assert code == 0, err
    assert out.startswith("{\n  ") and '"solo_points": ' in out


@pytest.mark.slow
def test_compare_takes_presets_and_repeated_rules(capsys, tmp_path):
    club = tmp_path / "club.toml"
    club.write_text('inherits = "standard"\nname = "club"\n[melds]\nbinokel = 60\n')
    code, out, err = run_cli(capsys, "compare", "kreuz", "--rules", "standard", "--rules", str(club), "--deals", "200",
                             "--played", "0", "--json", "-q")
    assert code == 0, err
    assert json.loads(out)["provenance"]["rules"] == ["kreuz", "standard", "club"]
