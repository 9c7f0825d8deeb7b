"""The committed example reports open with the answers: a summary of at most one screen whose every number
stands in a table below, claims that match their tables, tables rounded to their error."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from binokel_sim.analyses.report_render import display_frame

ROOT = Path(__file__).resolve().parents[2] / "reports"
EXAMPLES = ["standard", "kreuz", "four-solo"]


def _summary(md: str) -> str:
    return md.split("## Summary", 1)[1].split("\n## ", 1)[0]


def _table(name: str, stem: str) -> pd.DataFrame:
    return pd.read_csv(ROOT / name / "tables" / f"{stem}.csv", comment="#")


@pytest.mark.parametrize("name", EXAMPLES)
def test_summary_fits_a_screen_and_says_what_double_dummy_means(name):
    md = (ROOT / name / "report.md").read_text(encoding="utf-8")
    assert md.index("## Summary") < md.index("## Meld odds")
    s = _summary(md)
    assert len(s.strip().splitlines()) <= 40
    assert "as if all hands lay open" in s and "headline" in s


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_summary_number_stands_in_a_table_below(name):
    s = _summary((ROOT / name / "report.md").read_text(encoding="utf-8"))
    mean, se = map(float, re.search(r"The Tapp is worth ([\d.]+) ± ([\d.]+) points", s).groups())
    tapp = _table(name, "tapp-1").iloc[0]
    assert tapp["feature"] == "all"
    sharp = ROOT / name / "tables" / "tapp-2.csv"
    if sharp.exists():  # the headline is the sharpened figure, and it is sharper than the plain one
        t = _table(name, "tapp-2")
        assert t["se"].iloc[1] < t["se"].iloc[0]
        want, want_se = t["value"].iloc[1], t["se"].iloc[1]
    else:
        want, want_se = tapp["dd_mean"], tapp["dd_se"]
    assert mean == pytest.approx(want, abs=0.05) and se == pytest.approx(want_se, abs=0.05)
    bids = _table(name, "bids-1")
    for cls, safe, ceiling in re.findall(r"(\d+-\d+|\d+\+): safe (\d+|-), ceiling (\d+|-)", s):
        row = bids[(bids["melds"] == cls) & (bids["aces"] == "all")].iloc[0]
        shown = ["-" if pd.isna(row[k]) else str(int(row[k])) for k in ("safe_bid", "ceiling_bid")]
        assert shown == [safe, ceiling]


def test_control_variate_claimed_only_where_it_sharpens():
    md = (ROOT / "standard" / "report.md").read_text(encoding="utf-8")
    assert "smaller standard error" not in md and "cannot sharpen it here" in md


@pytest.mark.parametrize("name", EXAMPLES)
def test_tables_rounded_without_exponents_or_empty_columns(name):
    md = (ROOT / name / "report.md").read_text(encoding="utf-8")
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert not any(re.search(r"\de[-+]\d", line) for line in rows)
    assert "low end" not in md and "[unresolved]" not in md


def test_display_frame_drops_what_carries_nothing_and_rounds_to_the_error():
    df = pd.DataFrame({"value": [116.3127, 0.0000064], "se": [0.6388, 0.0000021], "lo": [115.06, 0.0000012],
                       "dd_mean": [1.0, 2.0], "dd_mean_lo": [1.0, 2.0], "unresolved": [0.0, 0.0], "n": [20000, 5]})
    out = display_frame(df)
    assert list(out.columns) == ["value", "se", "lo", "dd_mean", "n"]
    assert out["value"].tolist() == ["116.31", "0.0000064"] and out["lo"].tolist() == ["115.06", "0.0000012"]
    assert out["se"].tolist() == ["0.64", "0.0000021"]


def test_calibrated_is_said_only_within_two_points():
    # No bin beyond two standard errors is not enough: a model 21 points off on few deals is not calibrated.
    from binokel_sim.analyses.report_model import CalibrationResult, Reliability, Section
    from binokel_sim.analyses.report_summary import _sure_lines

    def lines(gap: float, se: float) -> str:
        t = pd.DataFrame({"bin_from": [0.0, 0.5], "bin_to": [0.5, 1.0], "gap": [0.001, gap],
                          "realised_se": [0.01, se]})
        fit = Reliability("instant", "Instant bid tier: predicted against realised", t)
        return "\n".join(_sure_lines(CalibrationResult(Section("calibration", "Calibration"), [fit])))

    assert "is calibrated: every bin within 2 points" in lines(-0.018, 0.01)
    assert "too few deals to call it calibrated" in lines(0.21, 0.15) and "up to 21 points" in lines(0.21, 0.15)
    assert "**Flagged**" in lines(0.21, 0.02)


def test_the_real_play_bullet_reads_the_sections_results():
    from binokel_sim.analyses.report_model import RealPlayResult, Section
    from binokel_sim.analyses.report_realplay import WORDS
    from binokel_sim.analyses.report_summary import _real_play_lines

    tot = pd.DataFrame({"play": ["single-dummy minus open cards", "single-dummy soloist minus open cards"],
                        "mean": [11.1, -4.7], "se": [0.8, 0.3], "n": [690, 690]})
    safe = pd.DataFrame({"melds": ["all"] * 3, "play": [WORDS[k] for k in ("open", "sd", "sd_solo")],
                         "safe_bid": [180, 190, 180], "p_make_at_open_safe": [0.828, 0.877, 0.815]})
    s = Section("real-play", "Open cards against real play")
    (line,) = _real_play_lines(RealPlayResult(s, tot, safe))
    assert "the same 690 deals" in line
    assert "safe bid of 180 is made 88% of the time with every seat single-dummy and 82% by the blind soloist" in line
    assert "changes by +11.10 ± 0.80 points with every seat single-dummy and by -4.70 ± 0.30 alone" in line
    assert _real_play_lines(RealPlayResult(Section("real-play", "x", text=["Not measured"]))) == []
