"""The tiers compared: an exact test at the deciding bids, one line, a reason where the data give one."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from binokel_sim.evaluation import tiers
from binokel_sim.evaluation.tiers import compare_tiers, instant_evaluation
from binokel_sim.rules import load_rules

STD = load_rules("standard")
BIDS = np.arange(150, 400, 10)


def ladder(p: np.ndarray, n: int) -> dict:
    return {"bid": BIDS, "p_make": p, "p_make_se": np.sqrt(p * (1 - p) / n)}


def checked(p: np.ndarray, n: int, safe: int, ceiling: int):
    cols = ladder(p, n)
    at = lambda b: {k: np.interp(b, BIDS, v) if k != "bid" else b for k, v in cols.items()}  # noqa: E731
    return SimpleNamespace(rules=STD, n=n, safe_bid=safe, ceiling_bid=ceiling, ladder_at=at)


def instant(p: np.ndarray, safe: int, ceiling: int, n: int = 2000, total: float = 300.0):
    return SimpleNamespace(rules=STD, bids=pd.DataFrame({"bid": BIDS, "p_make": p}), safe_bid=safe,
                           ceiling_bid=ceiling, n=n, total=total)


def falling(mid: float) -> np.ndarray:
    return 1 / (1 + np.exp((BIDS - mid) / 25))


def test_same_ladder_agrees_and_a_certain_make_is_no_difference():
    p = falling(280)
    p[:5] = 1.0  # P(make) 1.000 with no spread at the low bids, as the checked tier prints it
    c = compare_tiers(checked(p, 1000, 220, 280), instant(p, 220, 280))
    assert c.agree and c.line().startswith("tiers agree: every P(make) at 150..290")
    assert c.bids == tuple(range(150, 300, 10))


def test_a_gap_between_the_deciding_bids_is_a_difference():
    # the same at the deciding bids 220 and 280, 30 points apart at 250 (1 000 samples see it)
    p = falling(280)
    q = p.copy()
    q[BIDS == 250] -= 0.30
    c = compare_tiers(checked(p, 1000, 220, 280), instant(q, 220, 280))
    assert not c.agree and c.differ_at == (250,) and "P(make) at 250" in c.line()


def test_a_shifted_ladder_differs_at_the_deciding_bids_with_its_p_value():
    c = compare_tiers(checked(falling(320), 1000, 260, 320), instant(falling(260), 200, 260))
    assert not c.agree and set(c.differ_at) & {260, 320} and c.p_value < 0.05
    line = c.line()
    assert line.startswith("tiers differ: P(make) at") and "n = 1000" in line and "\n" not in line


def test_small_gaps_within_the_margin_or_the_noise_agree():
    # 3 points apart at every bid: a model is not exact to the point; 400 samples could not tell anyway.
    c = compare_tiers(checked(falling(280), 400, 220, 280), instant(np.clip(falling(280) - 0.03, 0, 1), 220, 280))
    assert c.agree


def test_ceilings_far_apart_differ_whatever_the_p_values():
    c = compare_tiers(checked(falling(280), 20, 220, 320), instant(falling(280), 220, 280))
    assert not c.agree and "ceiling instant 280, checked 320" in c.line()


def test_reasons_the_data_give(monkeypatch):
    model = SimpleNamespace(line_range=(150.0, 500.0))
    monkeypatch.setattr("binokel_sim.evaluation.instant.load_instant", lambda rules: model)
    edge = instant(falling(300), 220, 300, n=150, total=560.0)
    why = tiers.instant_reason(edge)
    assert "edge of the instant tier's data" in why and "above 99 %" in why and "only 150 deals" in why
    assert tiers.instant_reason(instant(falling(300), 220, 300)) is None
    # The drawn ladder's n is its Tapp draws of this very hand: 200 draws are not "a pool of 200 deals".
    monkeypatch.setattr("binokel_sim.evaluation.instant.load_instant", lambda rules: SimpleNamespace(drawn=True))
    assert tiers.instant_reason(instant(falling(300), 220, 300, n=200)) is None
    monkeypatch.setattr("binokel_sim.evaluation.instant.load_instant", lambda rules: SimpleNamespace(drawn=False))
    assert "only 200 deals" in tiers.instant_reason(instant(falling(300), 220, 300, n=200))


def test_instant_evaluation_answers_fast_with_the_ladder():
    ev = instant_evaluation("EA EA E10 EK EO EU GA G10 HA H10 SA S10", STD)
    assert ev.tier == "instant" and ev.seconds < 1.5 and ev.n >= 100
    assert (np.diff(ev.bids["p_make"].to_numpy()) <= 1e-12).all()
    from dataclasses import replace

    from binokel_sim.errors import InputError

    other = replace(STD, bidding=replace(STD.bidding, min_bid=170))  # rules no model was fitted for
    with pytest.raises(InputError, match="no instant bid model"):
        instant_evaluation("EA EA E10 EK EO EU GA G10 HA H10 SA S10", other)


def test_the_48_card_advice_carries_its_proven_bounds_as_attributes():
    """A model fitted on a budgeted corpus: the ceiling and safe bid at the low and the high end of every open
    total, typed fields (not only keys of the JSON); an exact corpus's model has none."""
    import binokel_sim

    ev = binokel_sim.evaluate_hand("EA EA E10 EK EO EU GA G10 HA H10 SA S10 S7 H7 G7", "wuerttemberg")
    b = ev.bounds
    assert b is not None and 0 < b.open_share <= 1
    assert (b.ceiling_bid_lower or 0) <= (ev.ceiling_bid or 0) <= (b.ceiling_bid_upper or 0)
    assert (b.safe_bid_lower or 0) <= (ev.safe_bid or 0) <= (b.safe_bid_upper or 0)
    assert ev.to_dict()["ceiling_bid_upper"] == b.ceiling_bid_upper
    assert binokel_sim.evaluate_hand("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "standard").bounds is None
