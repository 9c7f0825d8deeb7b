"""The README runs as written: its two commands match CI, every tour example runs and prints what it shows.

Each ``console`` block of the tour holds ``$ binokel ...`` commands, each followed by the
lines it prints (an excerpt: a line ``...`` skips output, ``...`` inside a line matches
anything). The commands run in-process in a temporary folder (so ``--out`` paths land
there); every shown line must match a line of the real output. The Python block runs as
a doctest.
"""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from clitools import run_cli

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")
INSTALL = ("python3 -m venv .venv && .venv/bin/pip install -e . && "
           ".venv/bin/binokel report --budget quick --out my-report")
TESTS = "python3 -m venv .venv && .venv/bin/pip install -e '.[test,distributed]' && .venv/bin/pytest"


def section(title: str) -> str:
    return TEXT.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def tour_examples() -> list[tuple[str, list[str]]]:
    """(command, shown output lines) of every ``$ binokel`` line in the tour's console blocks."""
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", section("A five-minute tour"), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            else:
                examples[-1][1].append(line.rstrip())
    return examples


def as_pattern(shown: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in shown.split("...")))


def test_readme_is_short_and_its_two_commands_match_ci():
    assert len(README.read_bytes()) <= 12 * 1024
    blocks = re.findall(r"```bash\n(.*?)\n```", section("Two commands on a fresh machine"), re.S)
    assert blocks == [INSTALL, TESTS]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # CI runs the README's test command with the lint extra added (and lints, type-checks, builds the docs first).
    assert "python3 -m venv .venv" in ci and "\n.venv/bin/pytest" in ci
    assert ".venv/bin/pip install --quiet -e '.[test,distributed,lint]'" in ci


def test_readme_links_point_at_files():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", TEXT)
    assert links
    for link in links:
        assert (ROOT / link).exists(), link


def test_readme_tour_has_the_five_steps():
    commands = [cmd.split()[1] for cmd, _ in tour_examples()]
    assert commands == ["melds", "bid", "odds", "compare", "report"]


@pytest.mark.parametrize("command,shown", tour_examples(), ids=[cmd.split()[1] for cmd, _ in tour_examples()])
@pytest.mark.slow
def test_readme_tour_example_runs(command, shown, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)
    assert argv[0] == "binokel"
    code, out, err = run_cli(capsys, *argv[1:])
    assert code == 0, err
    lines = [line.rstrip() for line in out.splitlines()]
    for want in shown:
        if want.strip() == "...":
            continue
        pattern = as_pattern(want)
        assert any(pattern.fullmatch(line) for line in lines), f"{want!r} not in the output of {command}:\n{out}"
    if argv[1] == "odds":
        # The prose after the block quotes the overall row: double-dummy value ± SE, and melds only.
        header = next(i for i, line in enumerate(lines) if line.split()[:1] == ["n"])
        row = [float(v) for v in lines[header + 1].split()]
        assert row[0] == 2000
        assert f"The Tapp adds **{row[3]:.0f} ± {row[4]:.0f}** points" in TEXT
        assert f"{row[1]:.0f} by melds alone" in TEXT
    if argv[1] == "report":
        out_dir = tmp_path / argv[argv.index("--out") + 1]
        assert (out_dir / "report.html").stat().st_size > 10_000
        assert len(list((out_dir / "figures").glob("*.png"))) >= 6


def test_readme_api_example_runs():
    block = re.search(r"```pycon\n(.*?)```", section("A five-minute tour"), re.S).group(1)
    assert block.count(">>> ") == 6  # the import and five lines: deal, melds, odds, solve, bid
    test = doctest.DocTestParser().get_doctest(block, {}, "README Python API", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted == 6 and result.failed == 0


@pytest.mark.slow
def test_readme_real_table_figures_are_the_shipped_studys():
    # The README quotes the shipped single-dummy study: every figure of its paragraph is recomputed here.
    from binokel_sim.analyses.play_gap import fail_share, make_table, totals
    from binokel_sim.analyses.report_realplay import WORDS, safe_bids
    from binokel_sim.analyses.sd_corpus import SHIPPED, load_sd_corpus
    from binokel_sim.analyses.sd_instant import paired_rows
    from binokel_sim.rules import load_rules

    r = load_rules("standard")
    text = " ".join(section("Where the numbers come from").split())
    _, rows = load_sd_corpus(SHIPPED)
    t = totals(rows).set_index("figure")
    both, alone = t.loc["sd - open"], t.loc["sd_solo - open"]
    lo, hi = both["mean"] - 1.96 * both["se"], both["mean"] + 1.96 * both["se"]
    assert f"plays {len(rows):,} of those deals".replace(",", " ") in text
    assert f"**{both['mean']:+.1f} ± {both['se']:.1f}** points more than with open cards (95 % interval " \
           f"{lo:+.1f} to {hi:+.1f})" in text
    assert f"his total changes by **{alone['mean']:+.1f} ± {alone['se']:.1f}**" in text
    p = make_table(r, rows).set_index("bid").loc[200]
    assert f"P(make) at 200: {p['p_make_open']:.3f} with open cards, {p['p_make_sd']:.3f} every seat " \
           f"single-dummy, {p['p_make_sd_solo']:.3f} the blind soloist" in text
    f = fail_share(r, rows).set_index("mode")
    assert f"on {100 * f.loc['sd', 'share']:.1f} ± {100 * f.loc['sd', 'se']:.1f} % of the deals " \
           f"({100 * f.loc['sd_solo', 'share']:.1f} ± {100 * f.loc['sd_solo', 'se']:.1f} % against seeing" in text
    paired = paired_rows(r)
    a = safe_bids(r, paired.dd, paired.sd).query("melds == 'all'").set_index("play")
    assert f"the open-card safe bid of {a.loc[WORDS['open'], 'safe_bid']:.0f} is made " \
           f"{100 * a.loc[WORDS['sd'], 'p_make_at_open_safe']:.1f} % of the time single-dummy, " \
           f"{100 * a.loc[WORDS['sd_solo'], 'p_make_at_open_safe']:.1f} % by the blind soloist" in text
