"""The instant tier's drawn ladder: the Tapp drawn, the exchange made, only the play modelled.

A hand's total splits into what the Tapp brings (melds and cards: most of the spread between two
deals of one hand) and what the play takes. The first is cheap to compute exactly: draw the Tapp
``n`` times from the cards the soloist does not see, let the ``heuristic`` exchange pick discard and
trump, and read its own estimate of the total (melds kept plus the play weights' card points). Only
the second is modelled: the corpus's ``total - estimate`` residuals (the same exchange on the
training deals), pooled by the estimate, each pool reduced to :data:`QUANTILES` training rows at evenly
spaced ranks (so a row keeps its "took a trick" beside its residual). A hand's ladder is the checked
tier's ladder with the double-dummy solve replaced by those residual rows: ``n * QUANTILES`` pseudo-deals,
the same going-out rule and error model.

On 600 held-out ``standard`` deals the heuristic estimate explains R² 0.90 of the double-dummy total
(residual SD 33 points) where the hand's seven countable features explain 0.27; the drawn ladder's
Brier score is 0.1388 against the line's 0.1421 on the same questions.

>>> from binokel_sim.rules import load_rules
>>> from binokel_sim.dealing.hand_input import as_counts
>>> r = load_rules("standard")
>>> h = as_counts("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "hand", 12, r)
>>> t = draw_tapps(h, r, 3)
>>> t.shape, t.sum(axis=1).tolist(), bool((t + h <= 2).all())
((3, 24), [4, 4, 4], True)
>>> bool((draw_tapps(h, r, 3) == t).all())   # keyed by the hand: the same draws in every run
True
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from binokel_sim.cards import N_TYPES, DECK_COUNTS
from binokel_sim.contracts import BETTEL_CODE, DURCH_CODE, is_trump
from binokel_sim.exchange.policy import build_candidates, choose
from binokel_sim.evaluation.instant_advice import Ladder, TappValue
from binokel_sim.evaluation.parts import DealParts
from binokel_sim.rng import counts_key
from binokel_sim.rules import Rules
from binokel_sim.scoring import special_score
from binokel_sim.stats import wilson

#: Tapp draws per hand (0.05 s of exchanges on this machine).
DRAWS = 200
#: Tapp draws per hand where calling is allowed: each draw also weighs every callable card with every
#: way of laying away (about 10x the work of a draw without calling; 100 draws 0.26 s). Fewer draws make
#: a hand's ladder noisier, which shows as calibration gaps at the extreme deciles: on ``calling``'s 2 050
#: held-out deals the largest gap is 2.3 points with 50 draws, 1.7 with 100.
CALLING_DRAWS = 100
#: Residual rows kept per pool (evenly spaced ranks of the pool's residuals).
QUANTILES = 40
#: Salt of the draws' key (:func:`binokel_sim.rng.counts_key` of the hand).
DRAW_SALT = 0x7A99


def draws_for(rules: Rules) -> int:
    """Tapp draws per hand of the drawn ladder under ``rules``."""
    return CALLING_DRAWS if rules.calling.allowed else DRAWS


def draw_tapps(counts: np.ndarray, rules: Rules, n: int) -> np.ndarray:
    """``n`` Tapps (uint8[n, 24]) drawn from the cards outside the hand ``counts``, keyed by the hand."""
    h = np.ascontiguousarray(counts, dtype=np.uint8)
    deck = DECK_COUNTS[rules.layout.sevens]
    unseen = np.repeat(np.arange(N_TYPES), deck - h)
    k0, k1 = counts_key(h, DRAW_SALT)
    rng = np.random.default_rng([int(k0), int(k1)])
    pick = np.argsort(rng.random((n, unseen.size)), axis=1)[:, :rules.layout.tapp_size]
    out = np.zeros((n, N_TYPES), dtype=np.uint8)
    np.add.at(out, (np.repeat(np.arange(n), pick.shape[1]), unseen[pick].ravel()), 1)
    return out


def exchange_estimates(rules: Rules, hands: np.ndarray, tapps: np.ndarray, seat: int
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(estimate, contract code, special made) per view of the ``heuristic`` exchange.

    A Durch or Bettel the exchange picks counts as made when its cheap stage finds no loser (the drawn
    ladder has no solver to ask).
    """
    cs = build_candidates(rules, np.ascontiguousarray(hands, dtype=np.uint8), tapps, "heuristic", per_trump=1,
                          best_only=True)
    ch = choose(rules, seat, cs, "heuristic")
    rows = np.arange(hands.shape[0])
    code = cs.code[rows, ch.index]
    made = ~is_trump(code) & (cs.measure[rows, ch.index] == 0)
    return ch.subjective[:, 0].astype(np.int64), code, made


class DrawnExchanges(NamedTuple):
    """A hand's drawn Tapps (uint8[n, 24]) and, per draw, the ``heuristic`` exchange's estimate, contract code
    and whether its Durch/Bettel is made: what :func:`drawn_parts` and :func:`hand_tapp_value` both read."""

    tapps: np.ndarray
    estimate: np.ndarray
    code: np.ndarray
    made: np.ndarray


def draw_exchanges(rules: Rules, counts: np.ndarray, seat: int, draws: int = DRAWS) -> DrawnExchanges:
    """The ``draws`` Tapps of a hand (keyed by the hand) and the exchange made with each, computed once for
    the ladder and the Tapp value of one answer."""
    h = np.ascontiguousarray(counts, dtype=np.uint8)
    tapps = draw_tapps(h, rules, draws)
    return DrawnExchanges(tapps, *exchange_estimates(rules, np.repeat(h[None], draws, 0), tapps, seat))


def residual_rows(estimate: np.ndarray, value: np.ndarray, took: np.ndarray, pools: int
                  ) -> tuple[list[float], np.ndarray]:
    """(pool edges on the estimate, rows [pool, value - estimate, took]) of the training deals:
    :data:`QUANTILES` rows per pool at evenly spaced ranks of its residuals.

    >>> e = np.arange(100); edges, rows = residual_rows(e, e + np.arange(100) % 7, np.ones(100, bool), 2)
    >>> edges, rows.shape, sorted(set(rows[:, 0].tolist()))
    ([49.5], (80, 3), [0, 1])
    """
    edges = np.quantile(estimate, np.arange(1, pools) / pools)
    which = np.searchsorted(edges, estimate)
    d = value - estimate
    out = []
    for k in range(pools):
        sel = np.flatnonzero(which == k)
        order = sel[np.argsort(d[sel], kind="stable")]
        at = order[((np.arange(QUANTILES) + 0.5) * order.size / QUANTILES).astype(np.int64)]
        out.append(np.column_stack([np.full(at.size, k), np.rint(d[at]), took[at]]))
    return [float(e) for e in edges], np.concatenate(out).astype(np.int64)


def drawn_parts(rules: Rules, counts: np.ndarray, seat: int, edges, rows: np.ndarray, shift: float,
                draws: int = DRAWS, drawn: DrawnExchanges | None = None) -> DealParts:
    """The pseudo-deals of a hand (the arrays :func:`~binokel_sim.evaluation.ladder.bid_table` takes):
    each drawn Tapp's estimate plus every residual row of its pool, moved by the seat's ``shift``
    (``drawn``: the hand's :func:`draw_exchanges`, computed here where not given)."""
    _, est, code, made = drawn or draw_exchanges(rules, counts, seat, draws)
    pool = np.searchsorted(np.asarray(edges), est)
    by_pool = [rows[rows[:, 0] == k] for k in range(len(edges) + 1)]
    q = by_pool[0].shape[0]
    res = np.stack([by_pool[k] for k in pool])            # [draws, q, 3]
    value = np.rint(est[:, None] + shift + res[:, :, 1]).astype(np.int64).ravel()
    code_r = np.repeat(code, q)
    made_r = np.repeat(made, q)
    special = ~is_trump(code_r)
    result = value.copy()
    for kind, c in (("durch", DURCH_CODE), ("bettel", BETTEL_CODE)):
        sel = code_r == c
        result[sel] = np.where(made_r[sel], special_score(rules, kind, True), special_score(rules, kind, False))
    n = value.size
    return DealParts(value=np.where(special, made_r.astype(np.int64), value), took=res[:, :, 2].ravel() > 0,
                     code=code_r, special_made=made_r & special, result=result,
                     subjective=np.repeat(est, q)[:, None], subjective_took=np.ones((n, 1), bool),
                     base_result=result, durch=np.zeros(n, bool))


def hand_tapp_value(rules: Rules, counts: np.ndarray, seat: int, edges, rows: np.ndarray, shift: float,
                    draws: int = DRAWS, drawn: DrawnExchanges | None = None) -> TappValue:
    """What the Tapp is worth to this hand: per drawn Tapp (the same draws as :func:`drawn_parts`), the
    model's expected total after the exchange minus its expected total keeping the hand and laying the Tapp
    away unseen (the hand's best trump, the Tapp's card points as discards), each the exchange's estimate
    plus the mean residual of its pool; mean, SE and sd over the draws (``n``: the draws). A Durch or Bettel
    the exchange picks counts its score. The residual model's own error is not in the SE. ``drawn``: as
    :func:`drawn_parts`.

    >>> from binokel_sim.rules import load_rules
    >>> from binokel_sim.evaluation.instant import load_instant
    >>> from binokel_sim.dealing.hand_input import as_counts
    >>> r = load_rules("standard"); m = load_instant(r)
    >>> h = as_counts("EA EA EK EO EU GA G10 HA HK SA SO SU", "hand", 12, r)
    >>> tv = hand_tapp_value(r, h, 0, m.draw_edges, np.asarray(m.draw_rows), m.draw_shift[0], m.draws)
    >>> tv.n, 0 < tv.se < 10
    (200, True)
    """
    from binokel_sim.cards import CARD_POINTS
    from binokel_sim.exchange.candidates import PLAY_WEIGHTS, fixed_discard_values

    h = np.ascontiguousarray(counts, dtype=np.uint8)
    tapps, est, code, made = drawn or draw_exchanges(rules, h, seat, draws)
    table, vals = rules.meld_array(), np.empty(4, dtype=np.float64)
    base = np.empty(draws, dtype=np.int64)
    for i in range(draws):
        fixed_discard_values(h, np.int64(tapps[i].astype(np.int64) @ CARD_POINTS), table, PLAY_WEIGHTS, np.int64(1),
                             vals)
        base[i] = int(round(vals.max()))
    edges = np.asarray(edges, dtype=np.float64)
    mean_res = np.array([rows[rows[:, 0] == k, 1].mean() for k in range(len(edges) + 1)])
    expect = lambda e: e + shift + mean_res[np.searchsorted(edges, e)]  # noqa: E731
    special = np.where(code == DURCH_CODE, np.where(made, special_score(rules, "durch", True),
                                                      special_score(rules, "durch", False)),
                       np.where(made, special_score(rules, "bettel", True), special_score(rules, "bettel", False)))
    with_tapp = np.where(is_trump(code), expect(est), special)
    d = with_tapp - expect(base)
    sd = float(d.std(ddof=1))
    return TappValue(float(d.mean()), float(sd / np.sqrt(draws)), sd, int(draws), "this hand's drawn Tapps")


def rescale(cols: Ladder, draws: int) -> Ladder:
    """The ladder of :func:`drawn_parts` with ``n`` and the standard errors of ``draws`` deals (the
    pseudo-deals of one draw share its Tapp: the Tapp draws are the independent ones)."""
    n = int(cols["n"][0])
    f = np.sqrt(n / draws)
    lo, hi = wilson(np.rint(cols["p_make"] * draws), draws)
    return cols.with_columns(n=np.full(len(cols), draws), **{c: cols[c] * f for c in
                                                             ("p_make_se", "expected_score_se", "p_surrender_se")},
                             p_make_lo=lo, p_make_hi=hi)
