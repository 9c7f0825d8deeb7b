"""Fuzzing every option of every command: one line and exit 2, or an answer; never a traceback.

Each call takes one command of the CLI with its required arguments valid, and one of its options
set to a hostile value drawn by its kind: numbers too large, negative, not finite, not numbers;
paths that cannot be written; text that is no card, preset or address. Work that passes the
checks is cut off where it would start its chunks (the pool, a Dask client): what is fuzzed is
what a command checks *before* any work, and that a value it takes never ends in a traceback.
The cases of issue #59 are the explicit examples, each with the line it must give.
"""

from __future__ import annotations

import shlex
import shutil
import string
import sys

import click
import pytest
from hypothesis import HealthCheck, example, given, seed, settings
from hypothesis import strategies as st

import uvicorn

import binokel_sim.dask_link as dask_link
import binokel_sim.runner as runner
from binokel_sim.cli.commands import cli
from binokel_sim.cli.numbers import Bounded
from clitools import one_line_or_answer, run_cli, walk_commands

HAND = "EA EA E10 EK EO EU GA G10 GK HA H10 SA"

#: Each command's required arguments, valid (a corpus folder is a fresh copy of a small one, made per test).
BASE = {
    ("bid",): [HAND], ("melds",): [HAND],
    ("card",): ["EA EA E10 EK EO GA G10 HA H10 SA S10 SK", "--seat", "0", "--soloist", "0", "--trump", "E",
                "--tapp", "EU GK HO SU", "--discards", "EU GK HO SU"],
    ("corpus", "build"): ["--rules", "four-solo", "--deals", "4", "--out", "{tmp}/new"],
    ("corpus", "info"): ["{corpus}"], ("corpus", "refresh"): ["{corpus}"], ("corpus", "seal"): ["{corpus}"],
    ("corpus", "phase2"): ["{corpus}", "--deals", "2"],
    ("solve",): ["--hands", "EA / E10 / EK", "--trump", "none"],
}


class WorkStarted(BaseException):
    """A call got past every check to where its chunks would run: an answer, for this test."""


def _started(*args, **kwargs):
    raise WorkStarted()


def _commands() -> list[tuple[tuple[str, ...], click.Command]]:
    return sorted(walk_commands(cli), key=lambda pc: pc[0])


COMMANDS = _commands()

huge = st.sampled_from(["1" + "0" * 30, str(2**64), "10**100", "9" * 5000, "-" + "9" * 25, "1e400", "-1e400",
                        "99999999999999999999999n", "1e400s", "1e15", "1000001"])
odd_number = st.sampled_from(["nan", "-nan", "inf", "-inf", "Infinity", "", " ", "0", "-1", "-0", "1.5", "0x10",
                              "1_000", "١٢", "5 ", "1e-400", "0.0000001", "True", "--quiet", "1,5"])
junk = st.text(alphabet=string.printable + "äöüß€\u200b\ufeff", max_size=30)
bad_path = st.sampled_from(["/", "/proc/x.csv", "/dev/null/x", ".", "..", "x" * 300, "a/" * 60 + "t.csv", "-",
                            "/etc/passwd/t", "{tmp}/../{tmp}/ok.json", "t.xlsx", "{tmp}/sub/dir/t.json"])


def _value(param: click.Option) -> st.SearchStrategy[str]:
    if isinstance(param.type, Bounded):
        return st.one_of(huge, odd_number, st.integers(-10**20, 10**20).map(str))
    if isinstance(param.type, click.Choice):
        return st.one_of(st.sampled_from(list(param.type.choices)), junk)
    if isinstance(param.type, click.Path) or param.name in ("out", "charts", "checkpoint", "corpus_dir"):
        return st.one_of(bad_path, junk)
    return st.one_of(junk, huge, odd_number, st.sampled_from(["standard", "kreuz-48", "tcp://127.0.0.1:1", "EA EA EA",
                                                              "best", "none", "1s", "5n"]))


@st.composite
def calls(draw) -> list[str]:
    path, cmd = draw(st.sampled_from(COMMANDS))
    options = [p for p in cmd.params if isinstance(p, click.Option) and not p.is_flag and p.name != "help"]
    args = [*path, *BASE.get(path, [])]
    if options:
        opt = draw(st.sampled_from(options))
        args += [max(opt.opts, key=len), draw(_value(opt))]
    return args


def _run(capsys, args: list[str], tmp, corpus) -> tuple[int, str, str]:
    args = [a.replace("{tmp}", str(tmp)).replace("{corpus}", str(corpus)) for a in args]
    try:
        return run_cli(capsys, *args)
    except WorkStarted:
        out, err = capsys.readouterr()
        return 0, out, err


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A scratch folder and a copy of a small shipped corpus; chunk work cut off where it would start."""
    monkeypatch.setattr(runner, "_wait_all", _started)
    monkeypatch.setattr(uvicorn, "run", _started)  # `binokel serve`: its work is serving, until Ctrl-C
    monkeypatch.setattr(dask_link, "connect", _started)
    corpus = tmp_path / "corpus"
    shutil.copytree("data/corpus/four-solo-48", corpus)
    monkeypatch.chdir(tmp_path)
    return tmp_path, corpus


def test_every_numeric_option_is_bounded():
    """One bounded type reads every number a command takes (issue #59, point 4)."""
    loose = [f"{' '.join(path)} {p.opts[0]}" for path, cmd in COMMANDS for p in cmd.params
             if isinstance(p.type, (click.types.IntParamType, click.types.FloatParamType))
             and not isinstance(p.type, Bounded)]
    assert loose == []
    assert all(p.type.hi is not None for _, cmd in COMMANDS for p in cmd.params
               if isinstance(p.type, Bounded) and p.type.whole)


#: The issue's cases: each one line, exit 2, naming the problem, before any work.
CASES = [
    (["melds", "EA " * 258], "hand: 258 cards given; the largest deck has 48"),
    (["melds", "EA " * 256 + "GA"], "hand: 257 cards given"),
    (["melds", "EA " * 3334], "hand: 3334 cards given"),
    (["bid", HAND, "--solve-budget", "99999999999999999999999n", "--samples", "1"], "budget: at most"),
    (["bid", HAND, "--solve-budget", "1e400s", "--samples", "1"], "budget: at most 604800 seconds"),
    (["corpus", "build", "--rules", "four-solo", "--deals", "1" + "0" * 30, "--out", "{tmp}/c"],
     "'--deals': 1000000000000000000000000000000 is out of range: at most 1000000"),
    (["corpus", "build", "--rules", "four-solo", "--deals", "4", "--seed", str(2**64), "--out", "{tmp}/c"],
     "'--seed': 18446744073709551616 is out of range"),
    (["corpus", "build", "--rules", "four-solo", "--deals", "4", "--seed", str(10**100), "--out", "{tmp}/c"],
     "'--seed': a number of 101 characters is out of range"),
    (["corpus", "build", "--rules", "standard-48", "--deals", "4", "--within", str(10**30), "--out", "{tmp}/c"],
     "'--within': 1000000000000000000000000000000 is out of range: at most 10000"),
    (["bid", HAND, "--confidence", "nan"], "'--confidence': 'nan' is not a finite number"),
    (["odds", "melds", "--deals", "inf"], "'--deals': 'inf' is not a finite number"),
    (["study", "play-gap", "--deals", str(10**15)], "in chunks of 4 make more than 1000000 chunks: ask for fewer"),
    (["study", "match", "--rules", "four-solo", "--against", "greedy"], "unknown policy 'greedy'"),
    # Found by the fuzzer: a carriage return in a path split the message (now shown escaped).
    (["fit", "formula", "--corpus", "\r"], "corpus \\r: no such folder"),
    (["corpus", "phase2", "{corpus}", "--deals", "1" + "0" * 30], "'--deals': 1000000000000000000000000000000 is out"),
]


@pytest.mark.parametrize("args, message", CASES, ids=[" ".join(a[:2])[:20] + f"-{i}" for i, (a, _) in
                                                      enumerate(CASES)])
def test_the_reported_cases_are_one_line(capsys, sandbox, args, message):
    tmp, corpus = sandbox
    code, out, err = _run(capsys, args, tmp, corpus)
    assert (code, out) == (2, "") and err.count("\n") == 1 and err.startswith("error: ") and message in err, err
    assert not (tmp / "c").exists()


def test_scheduler_without_dask_names_the_extra(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if the extra were not installed
    code, out, err = run_cli(capsys, "odds", "melds", "--deals", "10", "--scheduler", "tcp://127.0.0.1:1")
    assert (code, out, err) == (2, "", "error: --scheduler needs Dask: pip install 'binokel-sim[distributed]'\n")


#: Calls per seed; two seeds give the issue's 400.
CALLS = 200


@pytest.mark.slow
@pytest.mark.parametrize("fuzz_seed", [1, 2])
def test_fuzzed_options_never_end_in_a_traceback(capsys, sandbox, fuzz_seed):
    tmp, corpus = sandbox
    seen: list[list[str]] = []

    @seed(fuzz_seed)
    @settings(max_examples=CALLS, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck))
    @given(call=calls())
    @example(call=CASES[0][0]).via("issue #59")
    @example(call=CASES[3][0]).via("issue #59")
    def one(call):
        seen.append(call)
        try:
            one_line_or_answer(*_run(capsys, call, tmp, corpus))
        except AssertionError as exc:
            raise AssertionError(f"binokel {shlex.join(call)}: {exc}") from None

    one()
    assert len(seen) >= CALLS  # the examples plus every drawn call ran
