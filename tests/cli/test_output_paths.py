"""Every command that writes files checks its output paths before any work: one line, exit 2.

The command bodies are replaced by a function that fails the test, so a bad path must be
rejected while the command line is parsed, before anything is computed.
"""

from __future__ import annotations

import pytest
from clitools import assert_one_line_error, walk_commands

from binokel_sim.cli import commands

#: (command words, output options of that command: (option, kind)).
WRITERS = [
    (["melds", "EA"], [("--out", "table")]),
    (["deal"], [("--out", "table")]),
    (["solve", "--hands", "EA / GA / HA", "--trump", "E"], [("--out", "table")]),
    (["card", "EA", "--seat", "0", "--soloist", "0", "--trump", "E"], [("--out", "table")]),
    (["bid", "EA"], [("--out", "table"), ("--checkpoint", "folder")]),
    (["odds", "melds", "--deals", "10000000"], [("--out", "table"), ("--checkpoint", "folder")]),
    (["odds", "tapp", "--deals", "1000000"], [("--out", "table"), ("--dist-out", "table"), ("--charts", "folder")]),
    (["odds", "bids", "--deals", "1000000"], [("--out", "table")]),
    (["compare", "standard"], [("--out", "table"), ("--charts", "folder")]),
    (["simulate", "games", "--games", "1000"], [("--out", "table"), ("--games-out", "table"),
                                                ("--deals-out", "table"), ("--charts", "folder")]),
    (["report"], [("--out", "folder"), ("--checkpoint", "folder")]),
    (["fit", "formula"], [("--out", "table")]),
    (["fit", "defence", "--deals", "100000"], [("--out", "table"), ("--checkpoint", "folder")]),
    (["calibrate"], [("--out", "table"), ("--charts", "folder")]),
    (["corpus", "build", "--deals", "100000"], [("--out", "folder")]),
    (["corpus", "info", "data/corpus/standard"], [("--out", "table")]),
    (["corpus", "refresh", "data/corpus/standard"], [("--out", "table"), ("--checkpoint", "folder")]),
    (["corpus", "seal", "data/corpus/standard"], [("--out", "table")]),
    (["corpus", "phase2", "data/corpus/wuerttemberg", "--deals", "10"], [("--out", "table")]),
    (["fit", "instant"], [("--out", "table")]),
    (["study", "play-gap"], [("--out", "table"), ("--checkpoint", "folder")]),
    (["study", "match", "--rules", "four-solo"], [("--out", "table"), ("--charts", "folder"),
                                                  ("--checkpoint", "folder")]),
]


@pytest.fixture
def no_work(monkeypatch):
    """Every command body fails the test if it runs."""
    for _, cmd in walk_commands(commands.cli):
        monkeypatch.setattr(cmd, "callback", lambda *a, **k: pytest.fail("the command started work"))


def test_every_writing_command_is_listed():
    writers = {tuple(words[:2]) if words[0] in commands.cli.commands and hasattr(commands.cli.commands[words[0]],
                                                                                      "commands") else (words[0],)
               for words, _ in WRITERS}
    found = set()
    for path, cmd in walk_commands(commands.cli):
        outs = {p.name for p in cmd.params if p.name in ("out", "charts", "dist_out", "games_out", "deals_out")}
        if outs:
            found.add(path)
    assert found == writers and len(found) == 22


@pytest.mark.parametrize("words,outputs", WRITERS, ids=[" ".join(w[:2]) for w, _ in WRITERS])
def test_bad_output_paths_fail_before_work(words, outputs, tmp_path, capsys, no_work):
    a_file = tmp_path / "file.csv"
    a_file.write_text("x\n")
    a_folder = tmp_path / "folder.csv"
    a_folder.mkdir()
    for option, kind in outputs:
        if kind == "table":
            assert_one_line_error(capsys, *words, option, str(a_file / "x.csv"), contains="is a file")
            assert_one_line_error(capsys, *words, option, str(tmp_path / "x.xlsx"), contains="x.xlsx")
            assert_one_line_error(capsys, *words, option, str(a_folder), contains="folder.csv")
        else:
            assert_one_line_error(capsys, *words, option, str(a_file), contains="file.csv")
            assert_one_line_error(capsys, *words, option, str(a_file / "sub"), contains="file.csv")


def test_report_default_folder_checked(tmp_path, capsys, monkeypatch):
    # Without --out the report goes to my-report/<rules>: a file there is refused before any study runs.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my-report").write_text("")
    monkeypatch.setattr("binokel_sim.analyses.report.build_report", lambda *a, **k: pytest.fail("work started"))
    assert_one_line_error(capsys, "report", contains="my-report")


def test_odds_melds_bad_out_fails_as_a_subprocess(tmp_path):
    import subprocess
    import sys

    (tmp_path / "file.csv").write_text("")
    proc = subprocess.run([sys.executable, "-m", "binokel_sim.cli.main", "odds", "melds", "--deals", "10000000",
                           "--out", str(tmp_path / "file.csv" / "x.csv")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: --out:") and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
