"""Calibration of ``binokel bid``'s tiers on held-out corpus deals: the split, the scores, the command."""

import numpy as np
import pandas as pd
import pytest

from binokel_sim.analyses.calibration import brier, checked_calibration, instant_calibration, reliability
from binokel_sim.corpus.reader import find_corpus, load_corpus
from binokel_sim.evaluation.instant import TRAIN_BELOW, held_out, load_instant
from binokel_sim.evaluation.model_agreement import differences
from binokel_sim.evaluation.ladder import bid_table
from binokel_sim.studies.deals import parts_of
from binokel_sim.rules import load_rules
from clitools import run_json
from test_evaluation_cli import toy_dd  # noqa: F401  (fixture)


def test_instant_model_key_is_the_corpus_rules_hash():
    from binokel_sim.provenance import KEY_DIGITS, rules_hash

    for preset in ("standard", "kreuz", "four-solo", "standard-48", "doubled", "four-dealer-out"):
        rules = load_rules(preset)
        m = load_instant(rules)
        assert m is None or m.rules_hash == rules_hash(rules, digits=KEY_DIGITS)
    assert load_instant(load_rules("standard")).rules_hash == rules_hash(load_rules("standard"), digits=KEY_DIGITS)


def test_reliability_clusters_questions_of_one_deal():
    # Deal 0 answers both of its questions alike: clustered, the bin holds one independent outcome's worth.
    pred, made = np.array([0.5, 0.5, 0.5, 0.5]), np.array([1, 1, 0, 0])
    t = reliability(pred, made, np.array([0, 0, 1, 1]), bins=1)
    assert t["n"].tolist() == [4.0] and t["deals"].tolist() == [2.0] and t["realised"].tolist() == [0.5]
    assert t["realised_se"].iloc[0] == pytest.approx(np.sqrt(2 * 1.0**2) / 4)  # (+1, -1 summed per deal) / n
    iid = reliability(pred, made, np.arange(4), bins=1)["realised_se"].iloc[0]
    assert iid == pytest.approx(0.25)  # sqrt(p(1-p)/n)
    b = brier(np.array([0.2, 0.9]), np.array([0, 1]), np.arange(2))
    assert b.brier == pytest.approx((0.04 + 0.01) / 2) and b.base_rate_brier == pytest.approx(0.25)


@pytest.mark.slow
def test_instant_calibration_on_held_out_deals_matches_the_bid_command():
    rules = load_rules("standard")
    df = load_corpus(find_corpus(rules), rules).df
    gone = df[held_out(df["deal"].to_numpy(), 3)]
    assert (gone["deal"] >= TRAIN_BELOW).all() and (gone["deal"] % 2 == 1).all()
    prov = load_instant(rules).provenance
    # The committed model was fitted on exactly the deals not held out (of the corpus it saw): never on these.
    assert prov["n_tapp"] == int((~held_out(np.arange(prov["n"]), 3)).sum()) and "held-out" in prov["deals"]
    run = instant_calibration(rules, questions="one", bins=5)
    t = run.table
    assert run.brier.n == run.brier.deals == len(gone) and t["n"].sum() == len(gone)
    assert t.attrs["n"] == len(gone)  # the written table's provenance says so too
    # The reference: the instant tier's own table for each deal's hand at its asked bid, and the deal's
    # realised outcome as a one-deal ladder.
    m = load_instant(rules)
    ladder = np.arange(150, 460, 10)
    pred, made = [], []
    for _, r in gone.head(6).iterrows():
        b = int(ladder[r["deal"] % len(ladder)])
        hand = [c for c, k in enumerate(r[f"hand{r['soloist']}"]) for _ in range(int(k))]
        bids = m.advise(hand, rules, int(r["soloist"])).ladder.frame()
        pred.append(float(bids.loc[bids["bid"] == b, "p_make"].sum()))  # no row: above every residual, 0
        made.append(float(bid_table(rules, parts_of(r.to_frame().T.infer_objects()), np.array([b]))["p_make"][0]))
    assert 0 < sum(made) < 6 and len(set(pred)) == 6  # the six questions are not all alike
    # The same six questions through the calibration code path.
    from binokel_sim.analyses.calibration import _instant_pred, made_outcomes

    rows = gone.head(6).reset_index(drop=True)
    bids = ladder[rows["deal"].to_numpy() % len(ladder)]
    assert _instant_pred(rules, m, rows, np.arange(6), bids) == pytest.approx(pred)
    assert made_outcomes(rules, rows, np.arange(6), bids).astype(float).tolist() == made


@pytest.mark.slow
def test_calibrate_command_both_tiers(capsys, toy_dd):  # noqa: F811
    rep = run_json(capsys, "calibrate", "-q")
    assert rep["tier"] == "instant" and rep["questions"] == "ladder" and rep["n"] == 31 * rep["deals"]
    assert rep["bids"] == [150, 450] and run_json(capsys, "calibrate", "--span", "300", "-q")["n"] == rep["n"]
    assert 0 < rep["brier"] < rep["base_rate_brier"] and sum(r["n"] for r in rep["table"]) == rep["n"]
    rep = run_json(capsys, "calibrate", "--tier", "checked", "--held-out", "3", "--samples", "4", "--seed", "5", "-q")
    assert rep["tier"] == "checked" and rep["n"] == 3 and rep["samples"] == 4 and rep["seed"] == 5
    assert rep["held_out"].startswith("the first 3 of") and rep["instant"]["n"] == 3
    t = checked_calibration("standard", deals=3, samples=4, seed=5)  # the toy back end: same numbers again
    assert t.brier.brier == pytest.approx(rep["brier"]) and t.instant.n == 3


@pytest.mark.parametrize("seats", [3, 4])
def test_held_out_deals_take_every_soloist_seat_half_the_time(seats):
    d = np.arange(TRAIN_BELOW, TRAIN_BELOW + 40 * seats)
    h = held_out(d, seats)
    assert [h[d % seats == s].mean() for s in range(seats)] == [0.5] * seats
    assert not held_out(np.arange(TRAIN_BELOW), seats).any()


def test_the_four_solo_model_never_saw_its_held_out_deals():
    prov = load_instant(load_rules("four-solo")).provenance
    assert prov["n_tapp"] == int((~held_out(np.arange(prov["n"]), 4)).sum()) and "each soloist seat" in prov["deals"]


@pytest.mark.parametrize("name", ["four-solo", "kreuz", "doubled"])
def test_residual_pools_split_the_training_deals_by_the_line_value(name):
    from binokel_sim.evaluation.instant import RESIDUAL_POOLS

    m = load_instant(load_rules(name))
    sizes = [len(m.residuals_at(e - 1e-6)) for e in m.pool_edges] + [len(m.residuals_at(1e9))]
    n = len(m.residuals)
    # Equal pools, up to ties of the line value (the features are counts, so lines repeat).
    assert len(sizes) == RESIDUAL_POOLS and sum(sizes) == n
    assert all(abs(k - n / RESIDUAL_POOLS) < n / 500 for k in sizes)
    # A hand's ladder rests on its own pool: n is that pool's size, not every training deal.
    strong = "EA EA E10 EK EO EU GA G10 HA H10 SA S10".split()[: load_rules(name).layout.hand_size]
    a = m.advise(" ".join(strong), load_rules(name))
    assert a.n == sizes[-1] < len(m.residuals)


BUDGETED = ["standard-48", "four-solo-48", "kreuz-48", "wuerttemberg", "grupp", "four-dealer-out"]


@pytest.mark.parametrize("name", BUDGETED)
def test_budgeted_models_draw_open_totals_inside_their_proven_intervals(name):
    from binokel_sim.corpus.phases import instant_split
    from binokel_sim.studies.deals import row_bounds
    from binokel_sim.evaluation.instant import fit_instant

    rules = load_rules(name)
    m = load_instant(rules)
    assert m is not None and m.budgeted and m.rules_hash == rules_hash_of(rules)
    r = np.asarray(m.residuals)
    # Columns: drawn total, own estimate, took, lower bound, upper bound (all less the line).
    assert (r[:, 3] <= r[:, 0]).all() and (r[:, 0] <= r[:, 4]).all()
    c = load_corpus(find_corpus(rules), rules)
    phase2 = m.provenance.get("phase2_deals")  # a two-phase corpus: its decided deals in the fit
    train = instant_split(c, rules.n_seats, phase2).train
    if phase2 is None:
        assert train.equals(c.df[~held_out(c.df["deal"].to_numpy(), rules.n_seats)])
    else:
        assert m.provenance["phase2_train"] == (train["deal"] < phase2).sum() > 0
    lo, hi = row_bounds(train, "value")
    assert m.open_share == pytest.approx(float((lo < hi).mean())) and m.open_share > 0.5
    # Same corpus and seed: the same model (the draws are seeded).
    again = fit_instant(train, rules, seed=int(m.provenance["seed"]))
    assert differences(again, m) == []


@pytest.mark.parametrize("name", BUDGETED)
def test_budgeted_ladder_lies_between_its_proven_bounds(name):
    rules = load_rules(name)
    m = load_instant(rules)
    cards = "EA EA E10 EK EO EU GA G10 HA H10 SA S10 SK SO SU".split()[: rules.layout.hand_size]
    a = m.advise(" ".join(cards), rules)
    assert a.ladder.at_bounds and a.bounds is not None
    b = a.ladder.columns()
    # Per training deal lower <= drawn <= upper total, and the going-out decision does not depend on
    # the total: P(make) and E[score] are ordered bid by bid.
    assert (b["p_make_lower"] <= b["p_make"] + 1e-12).all() and (b["p_make"] <= b["p_make_upper"] + 1e-12).all()
    assert (b["expected_score_lower"] <= b["expected_score"] + 1e-9).all()
    assert (b["expected_score"] <= b["expected_score_upper"] + 1e-9).all()
    assert 0 < a.bounds.open_share <= 1
    for key in ("safe_bid", "ceiling_bid"):
        lo, mid, hi = (getattr(a.bounds, f"{key}_lower"), getattr(a, key), getattr(a.bounds, f"{key}_upper"))
        assert (lo or 0) <= (mid or 0) <= (hi or 0)


def test_budgeted_calibration_brackets_the_realised_rate():
    rules = load_rules("kreuz-48")
    run = instant_calibration(rules, questions="one", bins=4)
    t = run.table
    assert run.open_share > 0.3 and t.attrs["open_share"] == run.open_share
    assert (t["realised"] <= t["realised_if_made"]).all()
    inside = (t["realised"] - 0.02 <= t["predicted"]) & (t["predicted"] <= t["realised_if_made"] + 0.02)
    assert (t["within_2pp"] == inside).all()


def rules_hash_of(rules):
    from binokel_sim.provenance import KEY_DIGITS, rules_hash

    return rules_hash(rules, digits=KEY_DIGITS)


def test_every_preset_with_an_auction_has_an_instant_model():
    from binokel_sim.rules import preset_names

    bid = [load_rules(p) for p in preset_names() if load_rules(p).layout.kind == "bid"]
    assert len(bid) == 14
    missing = [r.name for r in bid if load_instant(r) is None]
    assert missing == []


@pytest.mark.slow
def test_stored_held_out_predictions_are_the_shipped_models_own():
    # calibrate reads the drawn ladder's held-out predictions from a stored file: a sample of them,
    # recomputed here through the exchange, must be the same numbers (a changed exchange fails here).
    from binokel_sim.analyses.calibration import held_out_rows, soloist_hands
    from binokel_sim.evaluation.instant_store import load_predictions
    from binokel_sim.scoring import bid_ladder

    rules = load_rules("standard")
    m = load_instant(rules)
    assert m.drawn
    rows, _ = held_out_rows(rules)
    ladder = bid_ladder(rules, rules.bidding.min_bid + 300)
    hands, seat = soloist_hands(rows)
    # The shipped model answers with the drawn ladder: n is the number of Tapp draws, not a pool's deals.
    from binokel_sim.evaluation.instant_draws import DRAWS

    assert m.advise("EA EA E10 EK EO EU GA G10 HA H10 SA S10", rules).n == DRAWS
    stored = load_predictions(m, hands, seat, ladder)
    assert stored is not None and stored.shape == (len(rows), len(ladder)) == (9750, 31)
    pick = np.random.default_rng(34).choice(len(rows), 6, replace=False)
    assert stored[pick] == pytest.approx(m.p_make(rules, hands[pick], seat[pick], ladder), abs=1e-12)
    # Other questions (one hand changed, another ladder) are not answered from the store.
    other = hands.copy()
    other[0] = hands[1]
    assert load_predictions(m, other, seat, ladder) is None
    assert load_predictions(m, hands, seat, ladder[:-1]) is None


def test_prediction_store_round_trip_and_refusal(tmp_path):
    from binokel_sim.evaluation.instant_store import load_predictions, save_predictions

    m = load_instant(load_rules("kreuz"))
    hands = np.zeros((3, 24), np.uint8)
    seats, ladder = np.array([0, 1, 2]), np.array([150, 160])
    p = np.array([[0.5, 0.25], [1.0, 0.0], [0.125, 0.0]])
    path = save_predictions(m, hands, seats, ladder, p, folder=tmp_path)
    assert path.parent == tmp_path and (load_predictions(m, hands, seats, ladder, folder=tmp_path) == p).all()
    assert load_predictions(m, hands, seats[::-1], ladder, folder=tmp_path) is None
    # Keyed by the questions, answered for the same model: a refit that differs in the last bits (another CPU)
    # reads them, another model does not.
    from dataclasses import replace

    bits = replace(m, intercept=m.intercept * (1 + 1e-14), coef=[c * (1 - 1e-14) for c in m.coef])
    assert bits != m and (load_predictions(bits, hands, seats, ladder, folder=tmp_path) == p).all()
    assert load_predictions(replace(m, intercept=m.intercept + 0.01), hands, seats, ladder, folder=tmp_path) is None
    # A file holding code is refused, not run.
    np.save(tmp_path / "x.npy", np.array([object()], dtype=object), allow_pickle=True)
    (tmp_path / "x.npy").replace(path)
    from binokel_sim.errors import InputError

    with pytest.raises(InputError, match="unreadable"):
        load_predictions(m, hands, seats, ladder, folder=tmp_path)


def test_the_span_sets_the_bids_asked():
    from binokel_sim.analyses.calibration import asked_questions

    rows = pd.DataFrame({"deal": np.arange(501, 511, 2)})
    idx, bids = asked_questions(load_rules("dabb-two"), rows, "ladder", 600)
    assert bids.min() == 150 and bids.max() == 750 and len(idx) == 5 * 61
    _, one = asked_questions(load_rules("calling"), rows, "one", 300)
    assert one.min() >= 300 and one.max() <= 600
