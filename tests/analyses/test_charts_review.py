"""The report charts a player reads at a glance: suit colours, whiskers inside [0, 1], player words,
whole markers on the frame of the calibration chart, one band per panel in the 48-card bid ladder."""

from __future__ import annotations

import dataclasses

import matplotlib.colors as mc
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection, PathCollection, PolyCollection

from binokel_sim.analyses import charts
from binokel_sim.analyses.calibration import chart as calibration_chart
from binokel_sim.analyses.report import CHART_EVENTS, budget_with, meld_sections
from binokel_sim.analyses.report_twohand import _odds_section, event_words, growth_chart, growth_frame
from binokel_sim.glossary import words
from binokel_sim.palette import NEUTRAL, SUIT_COLOURS, event_colour
from binokel_sim.rules import as_rules
from binokel_sim.runner import Scale

#: The report's HTML column is 960 px wide; its PNGs are written at 110 dpi.
HTML_PX, DPI = 960, 110


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    charts.plt.close("all")


def _hex(colours) -> list[str]:
    return [mc.to_hex(c) for c in colours]


def _dots(fig):
    """(estimate dots, exact diamonds, whiskers) of an :func:`charts.odds_dots` figure."""
    ax = fig.axes[0]
    paths = [c for c in ax.collections if isinstance(c, PathCollection)]
    exact = [c for c in paths if len(c.get_facecolors()) and set(_hex(c.get_facecolors())) == {"#ffffff"}]
    dots = [c for c in paths if c not in exact]
    (whiskers,) = [c for c in ax.collections if isinstance(c, LineCollection)]
    return dots, exact, whiskers


def _suit_of(code: str) -> str | None:
    return code[-1] if code.split("_")[0] in ("family", "pair", "double") else None


def test_meld_odds_in_the_suits_colours_through_the_report():
    b = dataclasses.replace(budget_with("quick", meld_deals=500), exact=False)
    s1, _ = meld_sections(as_rules("standard"), b, 1, Scale()).sections
    name, fig, caption = s1.figures[0]
    assert name == "meld_odds" and "suit's colour" in caption
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    codes = ["family_E", "family_G", "family_H", "family_S", "pair_E", "pair_G", "pair_H", "pair_S"]
    assert [words(c) for c in codes] == labels[:8]
    (dots,), exact, whiskers = _dots(fig)
    assert not exact  # no exact values in this budget, so no diamonds
    got = _hex(dots.get_facecolors())
    assert got[:8] == [SUIT_COLOURS[c[-1]] for c in codes]
    assert set(got[8:]) == {NEUTRAL}  # four of a kind, Binokel, meld totals: no suit
    assert fig.get_size_inches()[0] * DPI <= HTML_PX  # shown at full size, not shrunk


def test_odds_dots_monte_carlo_and_exact_told_apart_in_the_suit_colour():
    codes = list(CHART_EVENTS)
    n = len(codes)
    p = np.linspace(0.01, 0.3, n)
    fig = charts.odds_dots([words(c) for c in codes], p, p * 0.98, p * 1.02, p * 1.01,
                           [event_colour(c) for c in codes], "t", "chance per hand")
    (dots,), (exact,), whiskers = _dots(fig)
    want = [SUIT_COLOURS[s] if (s := _suit_of(c)) else NEUTRAL for c in codes]
    assert _hex(dots.get_facecolors()) == want
    assert _hex(exact.get_edgecolors()) == want  # same colour, hollow diamond instead of a filled dot
    assert exact.get_paths()[0] != dots.get_paths()[0]
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("Monte Carlo" in t for t in legend) and "exact" in legend
    assert any("Eichel" in t and "Schellen" in t for t in legend) and "no suit" in legend
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels and not any("_" in t for t in labels)


def test_odds_dots_log_axis_spans_the_data_and_zero_estimates_stay_on_it():
    p = np.array([0.0, 5e-6, 0.003, 0.5])
    lo = np.array([0.0, 1.4e-6, 0.0028, 0.49])
    hi = np.array([9.6e-6, 1.8e-5, 0.0032, 0.51])
    fig = charts.odds_dots(list("abcd"), p, lo, hi, np.array([1.3e-6, 1.3e-6, 0.003, 0.5]))
    ax = fig.axes[0]
    assert ax.get_xscale() == "log"
    x0, x1 = ax.get_xlim()
    assert 0 < x0 <= 1.3e-6 and 0.51 <= x1 <= 1.0
    _, _, whiskers = _dots(fig)
    for seg in whiskers.get_segments():
        assert x0 <= seg[:, 0].min() and seg[:, 0].max() <= 1.0
    assert "none seen" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_two_hand_meld_odds_in_words_with_wilson_whiskers_inside_0_1():
    b = budget_with("quick", meld_deals=3000)
    s = _odds_section(as_rules("two-hand"), b, 1)
    df = s.tables[0][1]
    (name, fig, _), = s.figures
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    dealt = df[df["scope"] == "dealt"]
    assert labels == [event_words(c) for c in dealt["event"]]
    assert not any("_" in t for t in labels)
    _, (exact,), whiskers = _dots(fig)
    segs = whiskers.get_segments()
    assert len(segs) == len(dealt)
    for seg in segs:
        assert 0.0 <= seg[:, 0].min() and seg[:, 0].max() <= 1.0
    # The whiskers are the table's Wilson intervals (an estimate of 0 starts at the axis's left end).
    ends = np.array([seg[:, 0].max() for seg in segs])
    np.testing.assert_allclose(ends, dealt["hi"].to_numpy())
    assert fig.get_size_inches()[0] * DPI <= HTML_PX


def test_two_hand_meld_growth_has_a_trick_axis_flat_ticks_and_fits_the_page():
    g = growth_frame(as_rules("two-hand"), 20, 1)
    fig = growth_chart(g)
    ax = fig.axes[0]
    assert "trick" in ax.get_xlabel() and ax.get_ylabel()
    assert [t.get_rotation() for t in ax.get_xticklabels()] == [0.0] * len(ax.get_xticklabels())
    assert list(ax.get_xticks()) == list(range(1, 13))
    assert fig.get_size_inches()[0] * DPI <= HTML_PX
    assert {t.get_text() for t in ax.get_legend().get_texts()} == {"forehand", "dealer"}


def _ladder(ranged: bool) -> pd.DataFrame:
    rows = []
    for k, name in enumerate(("meld points 0-50 (n = 10)", "meld points 60-110 (n = 10)")):
        bids = np.arange(150, 260, 10)
        p = np.clip(0.9 - 0.08 * np.arange(len(bids)) - 0.2 * k, 0, 1)
        t = pd.DataFrame({"bid": bids, "p_make": p, "p_make_lo": np.clip(p - 0.1, 0, 1), "melds": name})
        t["p_make_made"] = np.clip(p + (0.3 if ranged else 0.0), 0, 1)
        t["p_make_hi"] = np.clip(t["p_make_made"] + 0.1, 0, 1)
        rows.append(t)
    return pd.concat(rows, ignore_index=True)


def test_ranged_bid_ladder_one_panel_per_class_band_in_the_line_colour():
    df = _ladder(True)
    fig = charts.line_chart(df, "bid", "p_make", "melds", "P(make) by bid and meld class", ylabel="P(make)",
                            clip=(0.0, 1.0), interval=("p_make_lo", "p_make_hi"), y2="p_make_made", panels=True,
                            legend=("open deals counted failed", "open deals counted made", "95 % range"))
    assert len(fig.axes) == 2
    for ax, name in zip(fig.axes, dict.fromkeys(df["melds"])):
        assert ax.get_title() == name
        (band,) = [c for c in ax.collections if isinstance(c, PolyCollection)]
        line = ax.get_lines()[0]
        assert _hex(band.get_facecolors())[0] == mc.to_hex(line.get_color())
        assert ax.get_ylim()[0] <= 0 and ax.get_ylim()[1] >= 1
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["open deals counted failed", "open deals counted made", "95 % range"]


def test_bid_ladder_of_a_48_card_corpus_titled_by_meld_class():
    from binokel_sim.analyses.report_play import bid_section, play_study

    rules = as_rules("standard-48")
    study, src = play_study(rules, budget_with("quick", study_deals=8), 1, Scale())
    (name, fig, caption), = bid_section(rules, study, src).section.figures
    title = fig._suptitle.get_text() if fig._suptitle else fig.axes[0].get_title()
    assert "meld class" in title and "hand class" not in title
    if len(fig.axes) > 1:  # deals left unresolved: one panel per class
        assert all("meld points" in ax.get_title() for ax in fig.axes)
    assert fig.get_size_inches()[0] * DPI <= HTML_PX


def _calibration(pred, real, made=None) -> pd.DataFrame:
    pred, real = np.asarray(pred, float), np.asarray(real, float)
    t = pd.DataFrame({"predicted": pred, "realised": real, "realised_lo": np.clip(real - 0.02, 0, 1),
                      "realised_hi": np.clip(real + 0.02, 0, 1), "n": 100.0})
    if made is not None:
        t["realised_if_made"] = made
    return t


def test_calibration_markers_on_0_and_1_drawn_whole_axes_kept_at_0_1():
    t = _calibration([0.02, 0.5, 0.97], [0.0, 0.5, 1.0], made=[0.0, 0.6, 1.0])
    fig = calibration_chart(t, "t")
    (ax,) = fig.axes  # three bins: nothing crowds the low corner, no zoom panel
    assert ax.get_xlim() == (0.0, 1.0) and ax.get_ylim() == (0.0, 1.0)
    points = [ln for ln in ax.get_lines() if ln.get_marker() == "o"]
    assert len(points) == 2  # filled (counted failed) and hollow (counted made)
    assert all(not ln.get_clip_on() for ln in points)
    assert all(not c.get_clip_on() for c in ax.collections)  # the whiskers
    hollow = [ln for ln in points if ln.get_markerfacecolor() == "none"]
    assert len(hollow) == 1


def test_calibration_without_open_totals_draws_no_hollow_markers():
    t = _calibration([0.2, 0.5, 0.8], [0.25, 0.5, 0.75], made=[0.25, 0.5, 0.75])
    fig = calibration_chart(t, "t")
    points = [ln for ln in fig.axes[0].get_lines() if ln.get_marker() == "o"]
    assert len(points) == 1
    assert "open totals" not in " ".join(t.get_text() for t in fig.legends[0].get_texts())


def test_the_real_play_calibration_shows_the_controlled_rate_and_the_held_out_one():
    # The filled markers with whiskers: the rate with the held-out deals' luck taken out (its own interval); the
    # hollow grey ones: the held-out deals alone, for comparison.
    t = _calibration([0.2, 0.5, 0.8], [0.15, 0.46, 0.74])
    t["realised_controlled"], t["controlled_lo"], t["controlled_hi"] = [0.21, 0.49, 0.8], [0.2, 0.48, 0.79], \
        [0.22, 0.5, 0.81]
    fig = calibration_chart(t, "t")
    (ax,) = fig.axes
    filled, hollow = ([ln for ln in ax.get_lines() if ln.get_marker() == "o" and (ln.get_markerfacecolor() == "none")
                       == h] for h in (False, True))
    assert filled[0].get_ydata().tolist() == [0.21, 0.49, 0.8] and hollow[0].get_ydata().tolist() == [0.15, 0.46, 0.74]
    whiskers = ax.collections[0].get_segments()
    assert [round(float(w[1][1] - w[0][1]), 3) for w in whiskers] == [0.02, 0.02, 0.02]  # the controlled interval
    legend = [x.get_text() for x in fig.legends[0].get_texts()]
    assert legend == ["perfect calibration", "realised, the held-out deals' luck taken out, 95 %",
                      "the held-out deals alone"]
    fig.canvas.draw()
    assert fig.legends[0].get_window_extent().x1 <= fig.bbox.x1  # the legend inside the picture, whole


@pytest.mark.parametrize("low", [[0.0005, 0.004, 0.0096, 0.022, 0.049], [0.0015, 0.0054, 0.0126, 0.024, 0.056]])
def test_calibration_low_corner_magnified_beside_the_chart(low):
    pred = low + [0.1, 0.15, 0.23, 0.37, 0.69]
    fig = calibration_chart(_calibration(pred, pred, made=np.array(pred) + 0.01), "t")
    main, zoom = fig.axes
    x0, x1 = zoom.get_xlim()
    assert x0 < 0 < max(low) < x1 <= 0.08  # every crowded bin inside the zoom, whole
    assert main.get_xlim() == (0.0, 1.0) and main.get_ylim() == (0.0, 1.0)
    fig.canvas.draw()
    assert not main.get_window_extent().overlaps(zoom.get_window_extent())  # the zoom hides no bin
    zoom_points = [ln for ln in zoom.get_lines() if ln.get_marker() == "o"]
    assert len(zoom_points) == 2 and all(ln.get_clip_on() for ln in zoom_points)  # clipped to its window
    assert all(not ln.get_clip_on() for ln in main.get_lines() if ln.get_marker() == "o")
    assert fig.get_size_inches()[0] * DPI <= HTML_PX
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["perfect calibration", "realised, open totals counted failed", "open totals counted made"]


def test_every_two_hand_meld_has_glossary_words():
    from binokel_sim.twohand.odds import EVENTS

    assert [c for c in EVENTS if words(c) == c] == []
