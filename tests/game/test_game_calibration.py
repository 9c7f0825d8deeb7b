"""The game simulation's auction: every seat is soloist equally often, and the P(make) it predicts
for its contracts agrees with the realised make rate (double-dummy play, surrendered deals played out)
within 4 SE; the soloist goes out by the bid ladder's rule on his estimate after the Tapp."""

from __future__ import annotations

import math

import numpy as np
import pytest

from binokel_sim.cards import counts_of
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.game.auction import auction
from binokel_sim import streams
from binokel_sim.evaluation.going_out import goes_out
from binokel_sim.game.simulate import ceiling, play_deal
from binokel_sim.play.solver import Solver
from binokel_sim.rules import load_rules

#: The layouts with a usable committed hand formula (3 x 12, one against three, partners opposite), and the
#: house-rule presets (the dabb apps' three-, four- and two-player games, calling, doubled deck).
LAYOUTS = ("standard", "four-solo", "kreuz")
HOUSE = ("dabb", "dabb-four", "dabb-two", "calling", "doubled")
#: Every 48-card layout (15 cards at three, 11 at four; four-dealer-out: three play, the dealer sits out).
#: The auction alone decides the soloist, so the share test costs well under a second each.
LAYOUTS_48 = ("standard-48", "wuerttemberg", "grupp", "four-dealer-out")
#: One against three and partners with 11 cards: their formulas are fitted on budgeted corpora
#: (interval-censored). Without them the fallback ceilings (melds + the exchange's own-hand play
#: estimate) rarely reached 160 and forehand's obliged 150 stood in 67 % of deals.
UNEVEN_48 = ("four-solo-48", "kreuz-48")


@pytest.mark.parametrize("name", LAYOUTS + HOUSE + LAYOUTS_48 + UNEVEN_48)
@pytest.mark.slow
def test_each_seat_is_soloist_equally_often(name):
    rules = load_rules(name)
    n, sl = rules.n_seats, seat_slices(rules)
    rows = Dealer(rules, 11, stream=streams.stream("game", 0)).deal(1200, start=0)
    seats = np.array([auction([ceiling(counts_of(r[s], check=False), rules) for s in sl[:n]], rules)[0] for r in rows])
    share = np.bincount(seats, minlength=n) / len(seats)
    se = math.sqrt((1 / n) * (1 - 1 / n) / len(seats))
    assert (np.abs(share - 1 / n) <= 4 * se).all(), share


@pytest.mark.parametrize("name,deals", [("standard", 16), ("four-solo", 40), ("kreuz", 40)])
@pytest.mark.slow
def test_predicted_p_make_agrees_with_the_realised_make_rate(name, deals):
    rules = load_rules(name)
    rows = Dealer(rules, 5, stream=streams.stream("game", 1)).deal(deals, start=0)
    solver = Solver()
    pred, made, out, est, bid = [], [], [], [], []
    for r in rows:
        o = play_deal(rules, r, solver)
        if o.contract in ("trump", "surrender"):  # a surrendered deal counts as played out
            pred.append(o.predicted)
            made.append(o.made_dd[0])
            out.append(o.contract == "surrender")
            est.append(o.estimate)
            bid.append(o.bid)
    # Going out follows the bid ladder's rule on his estimate after the Tapp, and happens (here 2-7 times).
    rule = [goes_out(np.array([[e]]), np.ones((1, 1), bool), np.array([b]), rules)[0, 0] for e, b in zip(est, bid)]
    assert out == rule and 2 <= sum(out) < len(out) // 2, (sum(out), len(out))
    pred, made = np.array(pred), np.array(made, dtype=float)
    assert len(pred) >= deals // 2 and np.isfinite(pred).all() and ((pred > 0) & (pred < 1)).all()
    se = math.sqrt((pred * (1 - pred)).sum()) / len(pred)
    assert abs(made.mean() - pred.mean()) <= 4 * se, (made.mean(), pred.mean(), se)


@pytest.mark.parametrize("name,deals", [("four-solo-48", 16), ("kreuz-48", 16)])
@pytest.mark.slow
def test_predicted_p_make_lies_in_the_realised_range_at_48_cards(name, deals):
    """Within 5 M nodes most 48-card deals stay open: the realised make rate is a range (open deals
    counted as failed .. as made), and the formula's prediction must fall inside it, within 4 SE."""
    rules = load_rules(name)
    rows = Dealer(rules, 5, stream=streams.stream("game", 1)).deal(deals, start=0)
    solver = Solver()
    pred, lo, hi = [], [], []
    for r in rows:
        o = play_deal(rules, r, solver, budget_nodes=5_000_000)
        if o.contract in ("trump", "surrender"):
            pred.append(o.predicted)
            lo.append(o.made_dd[1])
            hi.append(o.made_dd[2])
    pred, lo, hi = np.array(pred), np.array(lo, dtype=float), np.array(hi, dtype=float)
    assert len(pred) >= deals // 2 and np.isfinite(pred).all() and ((pred > 0) & (pred < 1)).all()
    assert (lo <= hi).all() and hi.mean() > lo.mean()  # some deals are open: the range is real
    se = math.sqrt((pred * (1 - pred)).sum()) / len(pred)
    assert lo.mean() - 4 * se <= pred.mean() <= hi.mean() + 4 * se, (lo.mean(), pred.mean(), hi.mean(), se)
