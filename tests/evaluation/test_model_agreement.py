"""One fitted model up to the machine's rounding: model_agreement against hand-made differences."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from binokel_sim.evaluation.instant import load_instant
from binokel_sim.evaluation.model_agreement import ROUNDED_SHARE, RTOL, differences, same_model
from binokel_sim.rules import load_rules


@pytest.fixture(scope="module")
def model():
    return load_instant(load_rules("standard"), play="single-dummy")


def _scaled(values, f):
    return np.asarray(values, dtype=np.float64) * f


def test_last_bit_differences_are_the_same_model(model):
    # What another BLAS kernel gave for the shipped real-play model's intercept, and 1e-13 on every float.
    bits = replace(model, intercept=130.89734923247934, coef=list(_scaled(model.coef, 1 + 1e-13)),
                   tapp_cov=_scaled(model.tapp_cov, 1 - 1e-13).tolist(),
                   draw_edges=list(_scaled(model.draw_edges, 1 + 1e-13)))
    assert bits != model and differences(bits, model) == [] and same_model(model, bits)


def test_a_moved_coefficient_is_another_model_and_named(model):
    c = list(model.coef)
    c[2] += 10 * RTOL * max(abs(x) for x in model.coef)  # ten times the tolerance, on the array's own scale
    (line,) = differences(model, replace(model, coef=c))
    assert line.startswith("coef: ") and "beyond a relative 1e-09" in line
    assert not same_model(model, replace(model, coef=c))


def test_rounded_residuals_may_tip_by_one_point_in_a_few_rows_only(model):
    rows = [list(r) for r in model.residuals]
    entries = len(rows) * len(rows[0])
    allowed = int(ROUNDED_SHARE * entries)  # 1 250 training rows of 3: 3 entries may tip
    tipped = [list(r) for r in rows]
    for i in range(allowed):  # as many as the share allows, each one point (a total at a half point)
        tipped[i][0] += 1
    assert allowed == 3 and differences(model, replace(model, residuals=tipped)) == []
    tipped[allowed][0] -= 1  # one more
    assert differences(model, replace(model, residuals=tipped)) == [
        f"residuals: {allowed + 1} of {entries} entries differ, by up to 1"]
    two = [list(r) for r in rows]
    two[0][0] += 2  # two points is no rounding
    want = [f"residuals: 1 of {entries} entries differ, by up to 2"]
    assert differences(model, replace(model, residuals=two)) == want


def test_rules_hash_and_draws_are_exact_and_none_is_no_model(model):
    assert differences(model, replace(model, rules_hash="0" * 16))[0].startswith("rules_hash: ")
    want = [f"draws: {model.draws} against {model.draws + 1}"]
    assert differences(model, replace(model, draws=model.draws + 1)) == want
    assert not same_model(None, model) and not same_model(model, None)
    assert differences(model, replace(model, seat=model.seat[:2])) == ["seat: 3 numbers against 2"]
