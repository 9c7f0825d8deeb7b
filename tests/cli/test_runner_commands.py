"""The long commands take --workers/--checkpoint/--scheduler; a resumed run equals an uninterrupted one."""

from __future__ import annotations

import pandas as pd
import pytest

from clitools import assert_one_line_error, run_cli


def _chunks(ck):
    return sorted(p for d in ck.iterdir() if d.is_dir() for p in d.glob("*.ckpt"))


@pytest.mark.parametrize("args", [
    ["odds", "melds", "--deals", "120000", "--no-kept", "--seed", "3"],
    ["odds", "tapp", "--deals", "60", "--melds-only", "--seed", "3"],
])
def test_command_resumes_from_its_checkpoint(args, tmp_path, capsys):
    code, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "plain.csv"), "--workers", "1", "--quiet")
    assert code == 0, err
    ck = tmp_path / "ck"
    code, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "a.csv"), "--checkpoint", str(ck), "--quiet")
    assert code == 0, err
    chunks = _chunks(ck)
    assert len(chunks) >= 2
    chunks[-1].unlink()  # as if killed before the last chunk was stored
    code, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "b.csv"), "--checkpoint", str(ck), "--quiet")
    assert code == 0, err
    plain = pd.read_csv(tmp_path / "plain.csv", comment="#")
    pd.testing.assert_frame_equal(plain, pd.read_csv(tmp_path / "a.csv", comment="#"))
    pd.testing.assert_frame_equal(plain, pd.read_csv(tmp_path / "b.csv", comment="#"))
    assert len(_chunks(ck)) == len(chunks)


@pytest.mark.parametrize("command", [["odds", "melds"], ["odds", "tapp"], ["odds", "bids"], ["compare"],
                                     ["simulate", "games"], ["report"]])
def test_scale_options_are_checked(command, tmp_path, capsys):
    assert_one_line_error(capsys, *command, "--scheduler", "nowhere:1", contains="--scheduler")
    assert_one_line_error(capsys, *command, "--workers", "0", contains="--workers")
    f = tmp_path / "f"
    f.write_text("")
    assert_one_line_error(capsys, *command, "--checkpoint", str(f), contains="--checkpoint")
