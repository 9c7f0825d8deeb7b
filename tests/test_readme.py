"""The README's Python API example runs as written (as a doctest)."""

import doctest
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def api_block() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Python API", 1)[1]
    return re.search(r"```pycon\n(.*?)```", section, re.S).group(1)


def test_readme_api_example_runs():
    block = api_block()
    assert block.count(">>> ") == 6  # the import and five lines: deal, melds, odds, solve, bid
    test = doctest.DocTestParser().get_doctest(block, {}, "README Python API", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted == 6 and result.failed == 0
