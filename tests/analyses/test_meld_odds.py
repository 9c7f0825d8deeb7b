"""Monte Carlo meld odds: the fused dealer and scorer against the plain references, the
tallies' estimates and cluster-robust errors against a per-deal computation, Monte Carlo
against the exact values, and the same numbers for any worker count or chunking."""

import math

import numpy as np
import pandas as pd
import pytest

from binokel_sim.runner import Scale
from binokel_sim.analyses.meld_odds import cluster_estimate, meld_odds_table
from binokel_sim.cards import counts_of
from binokel_sim.dealing.dealer import Dealer, seat_slices
from binokel_sim.odds.exact import event_probabilities
from binokel_sim.melds.events import LEVELS, levels_for
from binokel_sim.melds.scorer import (best_kept, best_kept_at, binokel_level, kind_level, suit_structure,
                               totals_by_trump)
from binokel_sim.melds.patterns import patterns_of, score_patterns, score_tables, unpack_levels
from binokel_sim import streams
from binokel_sim.odds.monte_carlo import deal_patterns, deal_setup, kept_totals, run_meld_tally
from binokel_sim.rules import load_rules

STANDARD = load_rules("standard")


def reference_levels(c):
    out = []
    for lv in LEVELS:
        if lv.kind in ("family", "pair"):
            out.append(int(suit_structure(c, lv.index)[lv.kind == "pair"]))
        elif lv.kind == "kind":
            out.append(int(kind_level(c, lv.index)))
        elif lv.kind == "binokel":
            out.append(int(binokel_level(c)))
        else:
            out.append(int(c[lv.index * 6 + 5]))
    return out


@pytest.mark.parametrize("preset", ["standard", "grupp", "kreuz", "wuerttemberg"])
def test_fused_deal_and_score_match_dealer_and_melds(preset):
    rules = load_rules(preset)
    ds, st = deal_setup(rules, 11), score_tables(rules)
    rows = Dealer(rules, seed=11, stream=streams.stream("meld_odds")).deal(150)
    buf = np.empty(ds.free.shape[0], dtype=np.int8)
    pat = np.zeros((rules.layout.players + 1, 4), dtype=np.int64)
    tot, ref, table = np.zeros(5, dtype=np.int64), np.zeros(4, dtype=np.int64), rules.meld_array()
    for i, row in enumerate(rows):
        deal_patterns(ds.key[0], ds.key[1], i, ds.free, ds.ends, ds.limits, ds.magic, buf, pat)
        for owner, sl in enumerate(seat_slices(rules)):
            c = counts_of(row[sl], check=False)
            assert (pat[owner] == patterns_of(c)).all()
            ge1, eq2 = score_patterns(pat[owner], *st.arrays(), tot)
            totals_by_trump(c, table, ref)
            assert list(tot * st.unit) == [*ref, ref.max()]
            assert [a + b for a, b in unpack_levels(ge1, eq2)] == reference_levels(c)


def test_kept_totals_match_best_kept():
    rules = load_rules("standard-48")
    st = score_tables(rules)
    dealer = Dealer(rules, seed=3)
    keep, table = rules.layout.hand_size, rules.meld_array()
    need, tot = np.zeros(24, dtype=np.int64), np.zeros(5, dtype=np.int64)
    for i in range(200):
        d = dealer.deal_object(i)
        c = (d.hands[0] + d.tapp).counts
        score_patterns(patterns_of(c), *st.arrays(), tot)
        kept_totals(c, keep, st.table, need, tot)
        assert [int(v) * st.unit for v in tot[:4]] == [int(best_kept_at(c, keep, t, table)) for t in range(4)]
        assert tot[4] * st.unit == best_kept(c, keep, table)[0]


def test_estimates_and_cluster_errors_match_a_per_deal_computation():
    """Rows recomputed from per-deal counts c (members with the event / summed totals)."""
    deals = 400
    df = meld_odds_table(STANDARD, deals, seed=9, scale=Scale(workers=1)).set_index(["scope", "event"])
    dealer = Dealer(STANDARD, seed=9, stream=streams.stream("meld_odds"))
    sl = seat_slices(STANDARD)
    table, tot = STANDARD.meld_array(), np.zeros(4, dtype=np.int64)
    per_deal = {k: [] for k in ("binokel", "pair_G", "best", "trump_S", "ge150", "pmf120", "tapp_best", "kept_best")}
    for row in dealer.deal(deals):
        hands = [counts_of(row[s], check=False) for s in sl[:-1]]
        scored = []
        for c in hands:
            totals_by_trump(c, table, tot)
            scored.append((tot.copy(), reference_levels(c)))
        per_deal["binokel"].append(sum(lv[12] >= 1 for _, lv in scored))
        per_deal["pair_G"].append(sum(lv[5] >= 1 for _, lv in scored))
        per_deal["best"].append(sum(int(t.max()) for t, _ in scored))
        per_deal["trump_S"].append(sum(int(t[3]) for t, _ in scored))
        per_deal["ge150"].append(sum(int(t.max()) >= 150 for t, _ in scored))
        per_deal["pmf120"].append(sum(int(t.max()) == 120 for t, _ in scored))
        both = hands[0] + counts_of(row[sl[-1]], check=False)
        totals_by_trump(both, table, tot)
        per_deal["tapp_best"].append(int(tot.max()))
        per_deal["kept_best"].append(int(best_kept(both, 12, table)[0]))
    checks = [(("hand", "binokel"), "binokel", 3), (("hand", "pair_G"), "pair_G", 3),
              (("hand", "meld_mean_best"), "best", 3), (("hand", "meld_mean_trump_S"), "trump_S", 3),
              (("hand", "meld_at_least_150_best"), "ge150", 3), (("hand", "meld_pmf_best_120"), "pmf120", 3),
              (("hand+tapp", "meld_mean_best"), "tapp_best", 1), (("kept", "meld_mean_best"), "kept_best", 1)]
    for key, name, members in checks:
        c = np.array(per_deal[name], dtype=np.float64)
        mean = c.mean() / members
        se = c.std(ddof=1) / math.sqrt(deals) / members
        assert df.loc[key, "value"] == pytest.approx(mean, rel=1e-12), key
        assert df.loc[key, "stderr"] == pytest.approx(se, rel=1e-9), key
        assert df.loc[key, "n"] == deals * members


def test_cluster_estimate_by_hand():
    # c = 0, 1, 2, 3 over four deals of three members: mean 1.5 / 3, var(c) = 5/3.
    value, se = cluster_estimate(6, 14, 4, 3)
    assert value == 0.5 and se == pytest.approx(math.sqrt(5 / 3 / 4) / 3)
    assert math.isnan(cluster_estimate(1, 1, 1, 1)[1])


def assert_near_exact(df):
    """Every row within 4 standard errors of its exact value.

    A row with no observations (or nothing but) has stderr 0; then the exact probability
    must make that plausible: expected count off by at most 4 binomial standard errors.
    """
    rows = df[df["exact"].notna()]
    assert len(rows) > 0
    for r in rows.itertuples():
        if r.stderr > 0:
            assert abs(r.z) <= 4, (r.scope, r.event, r.value, r.exact, r.z)
        else:
            p = r.exact if r.value == 0 else 1 - r.exact
            assert p * r.n <= 4 * math.sqrt(max(p * r.n, 1e-12)) + 1, (r.scope, r.event, r.value, r.exact)


def test_monte_carlo_agrees_with_exact_for_every_row():
    df = meld_odds_table(STANDARD, 60_000, seed=2, exact=True, scale=Scale(workers=2), scopes=("hand", "hand+tapp"))
    events = {e for lv in LEVELS[:13] for e in lv.events}
    assert events <= set(df.event)
    assert {"meld_mean_best", "meld_at_least_1000_best", "meld_pmf_trump_E_0"} <= set(df.event)
    assert_near_exact(df)


def test_monte_carlo_events_with_sevens_agree_with_exact():
    rules = load_rules("wuerttemberg")
    df = meld_odds_table(rules, 40_000, seed=4, scale=Scale(workers=2), scopes=("hand", "hand+tapp"))
    lay = rules.layout
    sizes = {"hand": lay.hand_size, "hand+tapp": lay.hand_size + lay.tapp_size}
    exact = {s: event_probabilities(rules, n) for s, n in sizes.items()}
    events = df[df.event.isin(exact["hand"])].copy()
    assert {"dissle_1", "dissle_2"} <= set(events.event)
    assert len(events) == 2 * 2 * len(levels_for(rules))
    events["exact"] = [float(exact[s][e]) for s, e in zip(events.scope, events.event)]
    events["z"] = (events.value - events.exact) / events.stderr.where(events.stderr > 0)
    assert_near_exact(events)


def test_same_numbers_for_any_worker_count_and_chunking():
    rules = load_rules("standard-48")
    a = run_meld_tally(rules, 9_000, seed=5, scale=Scale(workers=1), chunk_size=9_000)
    b = run_meld_tally(rules, 9_000, seed=5, scale=Scale(workers=2), chunk_size=1_234)
    for x, y in zip(a.arrays(), b.arrays()):
        assert np.array_equal(x, y)
    assert a.hist[2].sum() == 9_000 * 5  # the kept scope ran
    c = run_meld_tally(rules, 9_000, seed=6, scale=Scale(workers=2), chunk_size=1_234)
    assert not np.array_equal(a.hist, c.hist)


def test_table_shape_rows_and_provenance():
    df = meld_odds_table(load_rules("four-solo"), 3_000, seed=1, scale=Scale(workers=1))
    assert list(df.columns) == ["scope", "event", "value", "stderr", "lo", "hi", "exact", "z", "p_value", "test", "n"]
    assert list(dict.fromkeys(df.scope)) == ["hand", "hand+tapp", "kept"]
    assert df.attrs["rules"] == "four-solo" and df.attrs["seed"] == 1 and df.attrs["deals"] == 3_000
    hand = df[df.scope == "hand"]
    assert (hand.n == 12_000).all() and "dissle_1" not in set(df.event)
    assert not (df[df.scope == "kept"].event.str.startswith(("family", "binokel"))).any()
    for scope in ("hand", "kept"):
        pmf = df[(df.scope == scope) & df.event.str.startswith("meld_pmf_best_")]
        assert pmf.value.sum() == pytest.approx(1.0)
    assert df.exact.isna().all() and df.z.isna().all()


def test_bad_arguments_raise():
    with pytest.raises(ValueError, match="deals must be positive"):
        run_meld_tally(STANDARD, 0, seed=1)
    with pytest.raises(ValueError, match="unknown scope"):
        run_meld_tally(STANDARD, 10, seed=1, scopes=("hands",))


def test_table_frame_types():
    df = meld_odds_table(STANDARD, 500, seed=1, scale=Scale(workers=1), scopes=("hand",))
    assert isinstance(df, pd.DataFrame) and df.n.dtype == np.int64
    assert set(df.scope) == {"hand"}
