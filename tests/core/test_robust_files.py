"""Files under stress: checkpoints that are data (bit flips, planted pickles, stale code), atomic outputs
(mode, symlinks, long names, a full disk), rules files that are not rules files, OS failures as one line."""

from __future__ import annotations

import errno
import os
import pickle
import signal

import numpy as np
import pandas as pd
import pytest

import binokel_sim.output as output
import scale_jobs
from binokel_sim.checkpoint import Damaged, decode, encode
from binokel_sim.rules import load_rules
from binokel_sim.runner import Checkpoint, Chunk, Job, Scale
from clitools import assert_one_line_error, run_cli

RULES = load_rules("standard")


def job(fn=scale_jobs.meld_chunk) -> Job:
    return Job("melds-test", fn, n=40, seed=5, rules=RULES, chunk_size=8)


def rerun_counted(ckpt_dir) -> list:
    scale_jobs.CALLS.update(n=0, fail_at=0)
    return job(scale_jobs.counted_chunk).run(Scale(workers=1, checkpoint=ckpt_dir))


def same(a: list, b: list) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a, b))


@pytest.mark.parametrize("where", [0, 25, 60, 200, -1])
def test_a_bit_flip_in_a_checkpoint_is_named_and_recomputed(tmp_path, capsys, where):
    reference = job().run(Scale(workers=1, checkpoint=tmp_path))
    p = Checkpoint(tmp_path, job()).path(Chunk(2, 16, 24))
    data = bytearray(p.read_bytes())
    data[where] ^= 0x04
    p.write_bytes(bytes(data))
    assert same(rerun_counted(tmp_path), reference) and scale_jobs.CALLS["n"] == 1
    assert f"warning: checkpoint {p} is damaged" in capsys.readouterr().err
    assert same(rerun_counted(tmp_path), reference) and scale_jobs.CALLS["n"] == 0  # stored whole again


class _Planted:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch {self.marker}",)


def test_a_planted_pickle_is_never_run(tmp_path, capsys):
    reference = job().run(Scale(workers=1, checkpoint=tmp_path / "ck"))
    marker = tmp_path / "ran"
    p = Checkpoint(tmp_path / "ck", job()).path(Chunk(0, 0, 8))
    p.write_bytes(pickle.dumps(_Planted(marker)))
    assert same(rerun_counted(tmp_path / "ck"), reference) and scale_jobs.CALLS["n"] == 1
    assert not marker.exists()
    assert "is damaged (not a checkpoint file)" in capsys.readouterr().err


def test_a_checkpoint_of_another_chunk_is_not_taken(tmp_path, capsys):
    reference = job().run(Scale(workers=1, checkpoint=tmp_path))
    ck = Checkpoint(tmp_path, job())
    ck.path(Chunk(1, 8, 16)).write_bytes(ck.path(Chunk(0, 0, 8)).read_bytes())
    assert same(rerun_counted(tmp_path), reference) and scale_jobs.CALLS["n"] == 1
    assert "made for another job or chunk" in capsys.readouterr().err


def test_temporary_files_a_killed_run_left_in_a_checkpoint_go(tmp_path):
    job().run(Scale(workers=1, checkpoint=tmp_path))
    folder = Checkpoint(tmp_path, job()).dir
    old, fresh = folder / ".tmp-killed", folder / ".tmp-running"
    for p in (old, fresh):
        p.write_bytes(b"half a chunk")
    os.utime(old, (0, 0))
    job().run(Scale(workers=1, checkpoint=tmp_path))
    assert not old.exists() and fresh.exists()  # another run may be writing that one now


def test_keys_carry_the_solvers_and_the_codes_version(monkeypatch):
    import binokel_sim.versions as versions

    ident, key = job().identity(), job().key()
    assert ident["solver"] == versions.solver_version()
    assert ident["code"] == versions.code_version(scale_jobs.meld_chunk)
    monkeypatch.setattr(versions, "solver_version", lambda: "src-other")
    assert job().key() != key
    monkeypatch.undo()
    monkeypatch.setattr(versions, "code_version", lambda fn: "another-code")
    assert job().key() != key


def test_a_bit_flip_in_a_study_checkpoint_leaves_the_published_numbers(tmp_path, capsys):
    args = ["odds", "tapp", "--deals", "40", "--melds-only", "--seed", "3", "--quiet",
            "--checkpoint", str(tmp_path / "ck")]
    code, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "a.csv"))
    assert code == 0, err
    files = sorted((tmp_path / "ck").rglob("*.ckpt"))
    assert len(files) >= 2
    for i, p in enumerate(files):  # one bit in every chunk file, each somewhere else
        data = bytearray(p.read_bytes())
        data[(i * 7919) % len(data)] ^= 1 << (i % 8)
        p.write_bytes(bytes(data))
    code, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "b.csv"))
    assert code == 0 and all(f"checkpoint {p} is damaged" in err for p in files), err
    a, b = (pd.read_csv(tmp_path / n, comment="#") for n in ("a.csv", "b.csv"))
    pd.testing.assert_frame_equal(a, b)


def test_every_kind_of_chunk_result_round_trips_and_nothing_else_is_stored():
    frame = pd.DataFrame({"deal": [3, 4], "s": ["x", "y"], "arr": [np.arange(3), np.arange(3) + 1],
                          "f": [np.nan, -0.0]})
    value = {"frame": frame, "tally": (np.zeros((2, 3), np.int64), np.ones(2, np.float32)),
             "rows": [{"score": np.int64(-40), "made": np.bool_(True), "contract": "E", "lo": None, "x": 1.5}],
             3: [1, 2**70, float("inf")]}
    back = decode(encode(value, {"job": "k"}), {"job": "k"})
    pd.testing.assert_frame_equal(back["frame"], frame)
    assert all(np.array_equal(a, b) and a.dtype == b.dtype for a, b in zip(back["tally"], value["tally"]))
    assert back["rows"] == value["rows"] and type(back["rows"][0]["score"]) is np.int64 and back[3] == value[3]
    with pytest.raises(Damaged, match="made for another job"):
        decode(encode(value, {"job": "k"}), {"job": "other"})
    for bad in (np.array([object()]), {1, 2}, object(), np.datetime64("2025-01-01")):
        with pytest.raises(TypeError, match="a checkpoint cannot store"):
            encode([bad], {})


# ------------------------------------------------------------------ outputs


def test_overwriting_keeps_the_mode_and_writes_through_a_symlink(tmp_path, capsys):
    real = tmp_path / "real.csv"
    real.write_text("old\n")
    os.chmod(real, 0o600)
    (tmp_path / "link.csv").symlink_to(real)
    code, _, err = run_cli(capsys, "melds", "EA EK", "--out", str(tmp_path / "link.csv"))
    assert code == 0, err
    assert (tmp_path / "link.csv").is_symlink() and "old" not in real.read_text() and "EA" in real.read_text()
    assert oct(real.stat().st_mode & 0o777) == oct(0o600)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "real.csv"]


def test_a_long_legal_name_is_written_and_a_too_long_one_refused_before_work(tmp_path, capsys):
    name = "t" * 240 + ".csv"  # 244 characters: legal, and so is its temporary name
    code, _, err = run_cli(capsys, "melds", "EA", "--out", str(tmp_path / name))
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    assert_one_line_error(capsys, "melds", "EA", "--out", str(tmp_path / ("t" * 300 + ".csv")),
                          contains="is too long (304 bytes; at most 255)")
    assert_one_line_error(capsys, "corpus", "build", "--deals", "1", "--out", str(tmp_path / ("c" * 300)),
                          contains="--out: the name")


@pytest.mark.parametrize("code, reason", [(errno.ENOSPC, "No space left on device"),
                                          (errno.EROFS, "Read-only file system")])
def test_a_failed_write_is_one_line_and_the_old_file_stays(tmp_path, capsys, monkeypatch, code, reason):
    out = tmp_path / "t.json"
    out.write_text("old\n")

    def full(src, dst):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(output.os, "replace", full)
    assert_one_line_error(capsys, "deal", "--out", str(out), contains=f"cannot write '{out}': {reason}")
    assert out.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["t.json"]


def test_writes_in_flight_leave_no_temporary_file_when_the_process_leaves(tmp_path, monkeypatch):
    monkeypatch.setattr(output, "_CLOSED", False)  # restored after the test: this process goes on writing
    with pytest.raises(output.WriteError, match="interrupted"):
        with output.atomic_path(tmp_path / "t.parquet") as tmp:
            tmp.write_bytes(b"PAR1 half written")
            output.remove_pending()  # what the CLI does before os._exit on Ctrl-C or SIGTERM
            assert not tmp.exists()
            with output.atomic_path(tmp_path / "u.csv"):  # an abandoned thread starting a write: refused
                pass
    assert list(tmp_path.iterdir()) == []


def test_an_os_failure_no_command_caught_is_one_line(capsys, monkeypatch):
    import binokel_sim.cli.melds as melds

    def broken(*a, **k):
        raise OSError(errno.EIO, "Input/output error", "/some/file")

    monkeypatch.setattr(melds, "meld_report", broken)
    assert_one_line_error(capsys, "melds", "EA", contains="'/some/file': Input/output error")


def test_the_signal_handlers_are_installed_only_while_the_cli_runs(capsys):
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    run_cli(capsys, "melds", "EA")
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before


# ------------------------------------------------------------------ rules files that are not rules files


def test_rules_files_that_are_not_rules_files(tmp_path, capsys):
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\x00\xff\xfe\x80 not text")
    assert_one_line_error(capsys, "melds", "EA", "--rules", str(binary), contains="is not a text file")
    assert_one_line_error(capsys, "melds", "EA", "--rules", "r" * 300, contains="unknown rules preset")
    assert_one_line_error(capsys, "melds", "EA", "--rules", str(tmp_path / ("r" * 300 + ".toml")),
                          contains="File name too long")
    # inherits names a file that is not .toml: refused unread, the same words whether it exists or not.
    lines = []
    for target in ("/etc/shadow", "/etc/passwd", "/nonexistent/shadow"):
        p = tmp_path / "x.toml"
        p.write_text(f'inherits = "{target}"\nname = "x"\n')
        lines.append(assert_one_line_error(capsys, "melds", "EA", "--rules", str(p)).replace(target, "T"))
    assert lines == ["error: inherits: only .toml files are read, got 'T'"] * 3


def test_values_of_an_inherited_file_are_not_echoed(tmp_path, capsys):
    (tmp_path / "secret.toml").write_text('inherits = "standard"\nname = "s"\n[bidding]\nmin_bid = "hunter2"\n')
    (tmp_path / "mine.toml").write_text('inherits = "secret.toml"\nname = "mine"\n')
    line = assert_one_line_error(capsys, "melds", "EA", "--rules", str(tmp_path / "mine.toml"),
                                 contains="bidding.min_bid: expected an integer")
    assert "hunter2" not in line and "inherited" in line
    (tmp_path / "mine.toml").write_text('inherits = "secret.toml"\nname = "mine"\n[bidding]\nmin_bid = "own"\n')
    assert_one_line_error(capsys, "melds", "EA", "--rules", str(tmp_path / "mine.toml"), contains="got 'own'")
