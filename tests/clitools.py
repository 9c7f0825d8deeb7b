"""Run the ``binokel`` entry point in-process and capture exit status, stdout and stderr."""

import json

import pytest

from binokel_sim.cli.main import main


def run_cli(capsys, *args):
    """(exit status, stdout, stderr) of ``binokel ARGS``."""
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def run_json(capsys, *args):
    code, out, err = run_cli(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


def assert_one_line_error(capsys, *args, contains=""):
    code, out, err = run_cli(capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    assert contains in lines[0], lines[0]
    return lines[0]


def walk_commands(group, prefix=()):
    """(command path, Click command) of every leaf command under ``group``."""
    for name, cmd in group.commands.items():
        if hasattr(cmd, "commands"):
            yield from walk_commands(cmd, prefix + (name,))
        else:
            yield prefix + (name,), cmd


def one_line_or_answer(code: int, out: str, err: str) -> None:
    """The contract: exit 0 (an answer), or exit 2 with exactly one ``error:`` line; never a traceback."""
    assert "Traceback" not in err and "Traceback" not in out, err
    if code == 0:
        return
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (code, err)
