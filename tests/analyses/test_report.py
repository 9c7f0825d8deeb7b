"""binokel report: a self-contained HTML report and its Markdown twin, resumable, from tiny budgets."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pandas as pd
import pytest

from binokel_sim.analyses.report import BUDGETS, STUDY_CHUNK, check_budget
from binokel_sim.analyses.report_render import markdown_table
from binokel_sim.errors import InputError
from binokel_sim.rules import load_rules
from clitools import assert_one_line_error, run_cli

ARGS = ["report", "--rules", "kreuz", "--meld-deals", "3000", "--study-deals", "8", "--calibration-deals", "4",
        "--seed", "5", "--quiet"]


def _tables(folder: Path) -> dict[str, pd.DataFrame]:
    return {p.name: pd.read_csv(p, comment="#") for p in sorted((folder / "tables").glob("*.csv"))
            if "provenance" not in p.name}


@pytest.mark.slow
def test_report_cli_writes_html_and_markdown_and_resumes(tmp_path, capsys):
    out, ck = tmp_path / "rep", tmp_path / "ck"
    code, stdout, err = run_cli(capsys, *ARGS, "--out", str(out), "--checkpoint", str(ck))
    assert code == 0, err
    assert "report.html" in stdout
    html = (out / "report.html").read_text()
    md = (out / "report.md").read_text()
    # Self-contained: every image is embedded, nothing is fetched.
    srcs = re.findall(r"src='([^']*)'", html)
    assert len(srcs) == 6 and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "http" not in html.replace("http-equiv", "")
    # The Markdown twin links PNGs written beside it and the same sections.
    figs = re.findall(r"!\[[^\]]*\]\((figures/[^)]+\.png)\)", md)
    assert len(figs) == 6 and all((out / f).is_file() for f in figs)
    summary = md.split("## Summary", 1)[1].split("\n## ", 1)[0]
    assert md.index("## Summary") < md.index("## Meld odds") and len(summary.strip().splitlines()) <= 40
    assert "Double-dummy* means the cards are played as if all hands lay open" in summary
    for title in ("Meld odds", "meld-total distribution", "Tapp's value", "bid ladder", "hand-point formula",
                  "Trump choice", "Durch odds", "Calibration", "Provenance"):
        assert title in md and title in unescape(html)
    # The bid ladder says how going out is decided: kreuz's fitted error model, in its own words.
    from binokel_sim.evaluation.going_out import estimate_error

    assert f"the estimate is weighed with its error: {estimate_error(load_rules('kreuz')).describe()}." in md
    prov = pd.read_csv(out / "tables" / "provenance-1.csv", comment="#").set_index("item")["setting"]
    assert prov["rules"] == "kreuz" and prov["seed"] == "5"
    assert prov["study deals solved when no corpus holds them"] == "8"
    assert prov["meld-odds deals"] == "3000" and float(prov["run time (s)"]) > 0
    tapp = pd.read_csv(out / "tables" / "tapp-1.csv", comment="#")
    assert tapp["n"].sum() == 5 * 8  # all deals, then every deal in one class of each of the four features
    # Kill-and-resume: drop the study's last chunk; the rerun recomputes it to the same tables.
    last = [q for p in ck.iterdir() if p.name.startswith("study-deals-") for q in p.glob("*.ckpt")
            if q.name.endswith(f"-{(8 - 1) // STUDY_CHUNK * STUDY_CHUNK}-8.ckpt")]
    assert len(last) == 1  # the study deals' last chunk (the calibration deals end at 4)
    last[0].unlink()
    code, _, err = run_cli(capsys, *ARGS, "--out", str(tmp_path / "again"), "--checkpoint", str(ck))
    assert code == 0, err
    a, b = _tables(out), _tables(tmp_path / "again")
    assert a.keys() == b.keys() and len(a) == 10
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=False, rtol=1e-12)
    # The play sections on a corpus of the same 8 deals equal the fresh ones, table by table.
    from binokel_sim.corpus.builder import build_corpus

    build_corpus("kreuz", 8, tmp_path / "corpus", seed=5, chunk_size=3)
    code, _, err = run_cli(capsys, *ARGS, "--out", str(tmp_path / "on-corpus"), "--corpus", str(tmp_path / "corpus"))
    assert code == 0, err
    c = _tables(tmp_path / "on-corpus")
    assert c.keys() == a.keys()
    for name in a:
        pd.testing.assert_frame_equal(a[name], c[name], check_exact=False, rtol=1e-12)
    md = (tmp_path / "on-corpus" / "report.md").read_text()
    assert f"8 deals: 8 read from the corpus {tmp_path / 'corpus'} (rules hash" in md
    prov = pd.read_csv(tmp_path / "on-corpus" / "tables" / "provenance-1.csv",
                       comment="#").set_index("item")["setting"]
    assert prov["from corpus"] == "8" and prov["corpus"] == str(tmp_path / "corpus")


def test_budgets_and_errors(tmp_path, capsys):
    assert BUDGETS["quick"].study_deals < BUDGETS["standard"].study_deals < BUDGETS["full"].study_deals
    with pytest.raises(InputError, match="unknown budget"):
        check_budget("huge")
    assert_one_line_error(capsys, "report", "--budget", "huge", contains="huge")
    f = tmp_path / "file"
    f.write_text("x")
    assert_one_line_error(capsys, "report", "--out", str(f), contains="is a file")
    assert_one_line_error(capsys, "report", "--study-deals", "1", contains="--study-deals")


def test_markdown_table_formats_cells():
    df = pd.DataFrame({"a": [1, None], "b": [0.123456, float("nan")], "c": ["x|y", True]})
    assert markdown_table(df).splitlines()[2:] == ["| 1 | 0.1235 | x\\|y |", "| - | - | yes |"]
