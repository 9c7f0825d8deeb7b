"""Exact odds of the kept scope: brute force over every small hand, the independent
no-discard DP at full size, the structure representative against real hands, and the
Monte Carlo against the exact values."""

import itertools
from fractions import Fraction
from math import comb, prod

import numpy as np
import pytest

from binokel_sim.runner import Scale
from binokel_sim.analyses.meld_odds import meld_odds_table
from binokel_sim.errors import InputError
from binokel_sim.odds.exact_kept import (class_of, has_structure, kept_counts, kept_distributions, kept_setup,
                                    representative, tracks_sevens)
from binokel_sim.odds.exact import at_least, mean_of, total_distribution
from binokel_sim.jit import kernel
from binokel_sim.melds.events import QUANTITIES, meld_unit
from binokel_sim.melds.scorer import best_kept_at, needed_counts
from binokel_sim.rules import load_rules

STANDARD = load_rules("standard")


@pytest.fixture(scope="module")
def custom(tmp_path_factory):
    """48 cards with eight tens and eight sevens scoring, Obers in no kind meld, Dissle on."""
    path = tmp_path_factory.mktemp("rules") / "custom.toml"
    path.write_text('inherits = "standard-48"\nname = "custom"\n[melds]\neight_tens = 1000\neight_sevens = 500\n'
                    'four = { A = 100, K = 80, O = 0, U = 40 }\neight = { A = 1000, K = 1000, O = 0, U = 1000 }\n')
    return load_rules(str(path))


def rules_named(name, custom):
    return custom if name == "custom" else load_rules(name)


# ------------------------------------------------------------------ brute force


@kernel
def brute_kept(pats, sizes, weights, starts, cards, keep, table, out):
    """Every count vector of ``cards`` cards as four suit patterns (sorted by size): best kept totals by weight."""
    hand = np.zeros(24, dtype=np.uint8)
    ranks = pats.shape[1]
    top = starts.shape[0] - 2
    for a in range(starts[min(cards, top) + 1]):
        ra = cards - sizes[a]
        for b in range(starts[min(ra, top) + 1]):
            rb = ra - sizes[b]
            for c in range(starts[min(rb, top) + 1]):
                rc = rb - sizes[c]
                if rc > top:
                    continue
                for d in range(starts[rc], starts[rc + 1]):
                    w = weights[a] * weights[b] * weights[c] * weights[d]
                    for r in range(ranks):
                        hand[r] = pats[a, r]
                        hand[6 + r] = pats[b, r]
                        hand[12 + r] = pats[c, r]
                        hand[18 + r] = pats[d, r]
                    best = np.int64(-1)
                    for t in range(4):
                        v = best_kept_at(hand, keep, t, table)
                        out[t, v] += w
                        best = max(best, v)
                    out[4, best] += w


def brute_force(rules, cards, keep):
    """The kept pmfs by scoring every hand with the per-hand ``best_kept_at``."""
    ranks = 6 if rules.layout.sevens else 5
    pats = sorted(itertools.product(range(3), repeat=ranks), key=sum)
    sizes = np.array([sum(p) for p in pats], dtype=np.int64)
    weights = np.array([prod(comb(2, x) for x in p) for p in pats], dtype=np.int64)
    starts = np.searchsorted(sizes, np.arange(2 * ranks + 2)).astype(np.int64)
    table = rules.meld_array()
    out = np.zeros((5, int(table.sum()) + 1), dtype=np.int64)
    brute_kept(np.array(pats, dtype=np.int64), sizes, weights, starts, cards, keep, table, out)
    total = comb(rules.layout.deck_size, cards)
    assert (out.sum(axis=1) == total).all()
    return {q: {int(v): Fraction(int(out[j, v]), total) for v in np.nonzero(out[j])[0]}
            for j, q in enumerate(QUANTITIES)}


@pytest.mark.parametrize("preset,cards,keep", [
    ("standard", 8, 6),
    ("four-solo", 8, 5),  # a 4-player-like ratio: 4 of 9+4 go, here 3 of 8
    ("doubled", 7, 4),
    ("grupp", 7, 5),  # 48 cards, Dissle, eight sevens
    ("custom", 7, 5),  # eight tens as a threshold axis, O without one
])
@pytest.mark.slow
def test_equals_brute_force_over_every_hand(preset, cards, keep, custom):
    rules = rules_named(preset, custom)
    exact = kept_distributions(rules, cards, keep, workers=1)
    ref = brute_force(rules, cards, keep)
    assert exact == ref
    # Discarding matters here: the kept best is below the full hand's best somewhere.
    assert mean_of(exact["best"]) < mean_of(total_distribution(rules, cards, "best"))


# ------------------------------------------------------------------ full size


@pytest.mark.parametrize("preset", ["standard", "grupp"])
@pytest.mark.slow
def test_keeping_every_card_equals_the_independent_dp(preset):
    """keep = cards: no discard, so every pmf is the plain meld-total pmf of exact_odds (a separate method)."""
    rules = load_rules(preset)
    cards = rules.layout.hand_size + rules.layout.tapp_size
    exact = kept_distributions(rules, cards, cards)
    assert all(exact[q] == total_distribution(rules, cards, q) for q in QUANTITIES)


@pytest.mark.parametrize("preset", ["standard", "four-solo-48"])
@pytest.mark.slow
def test_full_size_pmfs_are_distributions(preset):
    rules = load_rules(preset)
    lay = rules.layout
    cards = lay.hand_size + lay.tapp_size
    pmfs = kept_distributions(rules)  # kept_counts asserts that the counts add up to comb(deck, cards)
    unit = meld_unit(rules.melds)
    full = {q: total_distribution(rules, cards, q) for q in ("trump_E", "best")}
    for pmf in pmfs.values():
        assert sum(pmf.values()) == 1 and all(p > 0 for p in pmf.values())
        assert all(v % unit == 0 for v in pmf)
    assert pmfs["trump_E"] == pmfs["trump_H"]  # E and H are interchangeable
    for v in (100, 200, 300, 1000):
        assert at_least(pmfs["best"], v) >= at_least(pmfs["trump_G"], v)
        assert at_least(pmfs["best"], v) <= at_least(full["best"], v)  # discarding never gains
    assert mean_of(pmfs["trump_E"]) < mean_of(full["trump_E"])


# ------------------------------------------------------------------ structures


def structure(rules, ks, hand):
    """(levels, classes) of a count vector, as the kernels index them."""
    c = hand.reshape(4, 6)
    levels = [int(c[:, r].min()) for r in ks.dim_rank[:-1]] + [int(min(hand[9], hand[22]))]
    classes = [class_of(tuple(c[s]), tracks_sevens(rules)) for s in range(4)]
    return np.array(levels, dtype=np.int64), np.array(classes, dtype=np.int64)


@pytest.mark.parametrize("preset", ["standard", "grupp", "wuerttemberg", "four-solo-48", "custom"])
def test_representative_scores_like_every_hand_of_its_structure(preset, custom):
    rules = rules_named(preset, custom)
    lay, table = rules.layout, rules.meld_array()
    ranks = 6 if lay.sevens else 5
    deck = np.array([s * 6 + r for s in range(4) for r in range(ranks) for _ in range(2)])
    rng = np.random.default_rng(3)
    ks = kept_setup(rules, lay.hand_size + lay.tapp_size)
    need, again, rep_need = (np.zeros(24, dtype=np.int64) for _ in range(3))
    for _ in range(300):
        hand = np.bincount(rng.choice(deck, lay.hand_size + lay.tapp_size, replace=False),
                           minlength=24).astype(np.uint8)
        levels, classes = structure(rules, ks, hand)
        rep = np.zeros(24, dtype=np.uint8)
        representative(levels, ks.dim_rank, classes, ks.cls_f, ks.cls_p, ks.cls_d, rep)
        assert has_structure(rep, levels, ks.dim_rank, classes, ks.cls_f, ks.cls_p)
        assert (rep <= hand).all()
        for t in range(4):
            needed_counts(hand, t, table, need)
            needed_counts(need.astype(np.uint8), t, table, again)
            needed_counts(rep, t, table, rep_need)
            assert (again == need).all() and (rep_need == need).all()  # idempotent; same needed cards
            assert best_kept_at(rep, lay.hand_size, t, table) == best_kept_at(hand, lay.hand_size, t, table)


def test_bad_arguments_raise(tmp_path):
    with pytest.raises(ValueError, match="keep <= cards"):
        kept_counts(STANDARD, 10, 12)
    with pytest.raises(ValueError, match="keep <= cards"):
        kept_counts(STANDARD, 41, 12)
    # Meld values past the rules' ranges (a Rules built in code, not loaded): the guard still answers.
    fine = too_fine_rules()
    with pytest.raises(InputError, match="too fine for the exact kept odds"):
        kept_counts(fine)


# ------------------------------------------------------------------ Monte Carlo


def test_monte_carlo_agrees_with_exact_kept_rows():
    df = meld_odds_table(STANDARD, 300_000, seed=9, exact=True, scale=Scale(workers=2), scopes=("kept",))
    kept = df[df.scope == "kept"]
    assert kept.exact.notna().all() and df.attrs["kept_exact"].startswith("combinatorics")
    mean = kept[kept.event == "meld_mean_best"].iloc[0]
    assert mean.exact == pytest.approx(156.2601, abs=1e-4)
    assert abs(mean.z) < 3, (mean.value, mean.exact, mean.z)
    for r in kept[kept.stderr > 0].itertuples():
        assert abs(r.z) <= 4.5, (r.event, r.value, r.exact, r.z)
    pmf = kept[kept.event.str.startswith("meld_pmf_best_")]
    assert pmf.exact.sum() == pytest.approx(1.0, abs=1e-12)


def too_fine_rules():
    """``standard`` with double families of 10 000 003 and 20 000 003 points (past the TOML ranges)."""
    from dataclasses import replace

    s = load_rules("standard")
    return replace(s, melds=replace(s.melds, double_family=10000003, trump_double_family=20000003))
