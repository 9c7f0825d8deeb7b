"""A corpus folder under stress: two writers, stale locks, flipped bits, a full disk, SIGTERM.

Nothing lost, nothing wrong: one writer is refused in one line, the rows always equal a lone build's."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest

import binokel_sim.corpus.builder as builder
from binokel_sim.corpus.builder import build_corpus
from binokel_sim.corpus.lock import LOCK_NAME, FolderLock
from binokel_sim.corpus.manifest import file_sha256, write_manifest
from binokel_sim.corpus.reader import load_corpus
from binokel_sim.errors import InputError
from binokel_sim.runner import Scale
from clitools import assert_one_line_error, run_cli

PRESET, SEED, N = "four-solo", 4, 6
CLI = [sys.executable, "-c", "from binokel_sim.cli.main import main; main()"]


@pytest.fixture(scope="module")
def lone(tmp_path_factory):
    """N deals built alone, in chunks of 2: the reference every other build must equal."""
    d = tmp_path_factory.mktemp("lone")
    build_corpus(PRESET, N, d, seed=SEED, chunk_size=2, scale=Scale(workers=1))
    return d


def rows(folder) -> pd.DataFrame:
    return load_corpus(folder, PRESET).df.drop(columns=["seconds"])


def leftovers(folder) -> list[str]:
    """Temporary files and the lock file: none may stay after a writer ends."""
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") or ".part" in p.name)


@pytest.mark.slow
def test_two_concurrent_builds_one_is_refused_the_other_equals_a_lone_build(lone, tmp_path, capsys, monkeypatch):
    real, started, go_on = builder.corpus_rows, threading.Event(), threading.Event()

    def held(*args, **kw):  # the first build holds its lock until the second has been refused
        started.set()
        assert go_on.wait(120)
        return real(*args, **kw)

    monkeypatch.setattr(builder, "corpus_rows", held)
    out, errors = tmp_path / "c", []

    def first():
        try:
            build_corpus(PRESET, N, out, seed=SEED, chunk_size=2, scale=Scale(workers=1))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    t = threading.Thread(target=first)
    t.start()
    try:
        assert started.wait(120)
        with pytest.raises(InputError, match=f"corpus {out} is being written by another process"):
            build_corpus(PRESET, N + 2, out, seed=SEED, scale=Scale(workers=1))
        line = assert_one_line_error(capsys, "corpus", "build", "--rules", PRESET, "--deals", str(N), "--out", str(out),
                                     "--seed", str(SEED), "--chunk-size", "2", contains="is being written by")
        assert f"pid {os.getpid()}" in line and "one writer at a time" in line
        assert_one_line_error(capsys, "corpus", "refresh", str(out), contains="is being written by")
    finally:
        go_on.set()
        t.join()
    assert not errors, errors
    pd.testing.assert_frame_equal(rows(out), rows(lone))
    assert leftovers(out) == []


def test_a_writer_in_another_process_is_named(lone, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(lone, d)
    with FolderLock(d, "test"):
        proc = subprocess.run(CLI + ["corpus", "build", "--rules", PRESET, "--deals", str(N + 1), "--out", str(d),
                                     "--seed", str(SEED), "--quiet"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(f"error: corpus {d} is being written by another process (pid {os.getpid()}")


def test_stale_locks_are_taken_over(lone, tmp_path, capsys):
    d = tmp_path / "c"
    shutil.copytree(lone, d)
    # A writer killed with SIGKILL: its lock file stays, its OS lock went with it.
    script = (f"import time\nfrom binokel_sim.corpus.lock import FolderLock\nFolderLock({str(d)!r}, 'x').acquire()\n"
              "print('held', flush=True)\ntime.sleep(600)")
    holder = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    with pytest.raises(InputError, match=f"pid {holder.pid}"):
        FolderLock(d, "y").acquire()
    holder.kill()
    holder.wait()
    assert json.loads((d / LOCK_NAME).read_text())["pid"] == holder.pid
    code, _, err = run_cli(capsys, "corpus", "build", "--rules", PRESET, "--deals", str(N), "--out", str(d),
                           "--seed", str(SEED), "--quiet")
    assert code == 0 and f"taking over the lock of another process (pid {holder.pid}" in err, err
    assert leftovers(d) == []


def test_a_chunk_whose_deals_repeat_is_refused_whatever_its_checksum_and_rebuilt(lone, tmp_path, capsys):
    d = tmp_path / "c"
    shutil.copytree(lone, d)
    # What two writers made of chunk 1: deals 2, 2 -- with a checksum that matches the manifest.
    df = pd.read_parquet(d / "chunk-00001.parquet")
    df["deal"] = [2, 2]
    df.to_parquet(d / "chunk-00001.parquet", index=False)
    m = json.loads((d / "manifest.json").read_text())
    m["chunks"][1]["sha256"] = file_sha256(d / "chunk-00001.parquet")
    write_manifest(m, d)
    assert_one_line_error(capsys, "corpus", "info", str(d), contains="chunk-00001.parquet is not deals 2..3 once each")
    build_corpus(PRESET, N, d, seed=SEED)
    pd.testing.assert_frame_equal(rows(d), rows(lone))


def test_a_missing_chunk_names_the_command_that_recomputes_it(lone, tmp_path, capsys, monkeypatch):
    """The message's command, run as given, makes the corpus whole again; a smaller target is refused, not a no-op."""
    import shlex

    monkeypatch.chdir(tmp_path)
    shutil.copytree(lone, tmp_path / "c")
    (tmp_path / "c" / "chunk-00001.parquet").unlink()
    line = assert_one_line_error(capsys, "corpus", "info", "c", contains="chunk-00001.parquet is missing")
    command = line.split("(`")[1].split("` recomputes it)")[0]
    assert command == (f"binokel corpus build --rules {PRESET} --deals {N} --out c --seed {SEED} --policy heuristic "
                       "--chunk-size 2")
    assert_one_line_error(capsys, "corpus", "build", "--rules", PRESET, "--deals", "2", "--out", "c", "--seed",
                          str(SEED), contains=f"--deals 2 is smaller than the {N} deals corpus c already lists")
    code, _, err = run_cli(capsys, *shlex.split(command)[1:], "--quiet")
    assert code == 0, err
    pd.testing.assert_frame_equal(rows(tmp_path / "c"), rows(lone))


@pytest.mark.parametrize("edit, contains", [
    (lambda m: m.pop("seed"), "seed: expected"),
    (lambda m: m.update(chunks=[1]), "chunks[0]: expected an entry"),
    (lambda m: m.update(chunk_size=0), "chunk_size: expected an integer >= 1"),
    (lambda m: m["chunks"][0].pop("sha256"), "sha256 is not a SHA-256"),
    (lambda m: m["chunks"][0].update(file="../../manifest.json"), "index and file do not match"),
    (lambda m: m["chunks"][1].update(stop=5, rows=3), "not chunk 1"),
    (lambda m: m.update(deals=35), "deals: 35, but the chunks hold 6"),
])
def test_a_manifest_of_the_wrong_shape_is_one_line(lone, tmp_path, capsys, edit, contains):
    d = tmp_path / "c"
    shutil.copytree(lone, d)
    m = json.loads((d / "manifest.json").read_text())
    edit(m)
    (d / "manifest.json").write_text(json.dumps(m))
    for args in (["corpus", "info", str(d)], ["corpus", "refresh", str(d)],
                 ["corpus", "build", "--rules", PRESET, "--deals", str(N), "--out", str(d), "--seed", str(SEED)]):
        line = assert_one_line_error(capsys, *args, contains="manifest.json is damaged")
        assert contains in line, line


@pytest.mark.parametrize("bit", [0, 999, -1])
@pytest.mark.slow
def test_a_bit_flip_in_a_chunk_is_named_and_rebuilt(lone, tmp_path, capsys, bit):
    d = tmp_path / "c"
    shutil.copytree(lone, d)
    p = d / "chunk-00002.parquet"
    data = bytearray(p.read_bytes())
    data[bit] ^= 0x10
    p.write_bytes(bytes(data))
    assert_one_line_error(capsys, "corpus", "info", str(d), contains="chunk-00002.parquet is truncated or corrupt")
    build_corpus(PRESET, N, d, seed=SEED)
    pd.testing.assert_frame_equal(rows(d), rows(lone))


@pytest.mark.parametrize("code, reason", [(errno.ENOSPC, "No space left on device"),
                                          (errno.EROFS, "Read-only file system")])
@pytest.mark.slow
def test_a_full_disk_mid_build_is_one_line_and_keeps_the_finished_chunks(lone, tmp_path, capsys, monkeypatch, code,
                                                                          reason):
    out = tmp_path / "c"
    real, calls = pd.DataFrame.to_parquet, []

    def second_chunk_fails(self, path, *a, **kw):
        calls.append(path)
        if len(calls) == 2:  # the second chunk file: the disk is full now
            with open(path, "wb") as f:
                f.write(b"PAR1 half a chunk")
            raise OSError(code, os.strerror(code))
        return real(self, path, *a, **kw)

    monkeypatch.setattr(pd.DataFrame, "to_parquet", second_chunk_fails)
    line = assert_one_line_error(capsys, "corpus", "build", "--rules", PRESET, "--deals", str(N), "--out", str(out),
                                 "--seed", str(SEED), "--chunk-size", "2", "--workers", "1", "--quiet",
                                 contains=f"cannot write '{out / 'chunk-00001.parquet'}': {reason}")
    assert f"corpus {out} keeps every finished chunk" in line
    assert leftovers(out) == []
    kept = load_corpus(out, PRESET)
    assert kept.n == 2 and kept.df["deal"].tolist() == [0, 1]
    monkeypatch.setattr(pd.DataFrame, "to_parquet", real)
    build_corpus(PRESET, N, out, seed=SEED)  # room again: the rerun finishes the job
    pd.testing.assert_frame_equal(rows(out), rows(lone))


@pytest.mark.slow
def test_sigterm_stops_a_build_like_ctrl_c(lone, tmp_path):
    out = tmp_path / "c"
    args = ["corpus", "build", "--rules", PRESET, "--deals", str(N), "--out", str(out), "--seed", str(SEED),
            "--chunk-size", "1", "--workers", "1", "--quiet"]
    proc = subprocess.Popen(CLI + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t0 = time.monotonic()
    while not list(out.glob("chunk-*.parquet")):
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() - t0 < 300, "no chunk finished in time"
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read()
    assert proc.returncode == 128 + signal.SIGTERM, err
    held = json.loads((out / "manifest.json").read_text())["deals"]
    assert err.strip().splitlines()[-1].startswith(f"interrupted: corpus {out} keeps {held} of {N} deals"), err
    assert "Traceback" not in err and leftovers(out) == []
    build_corpus(PRESET, N, out, seed=SEED)
    pd.testing.assert_frame_equal(rows(out), rows(lone))
