"""What the scoring allows: the range every figure of a bid ladder must lie in.

A deal's soloist total is at most every meld a hand can hold plus every card point and the
last trick; a trump contract not made costs ``failure_factor x bid`` (going out
``penalty_factor x bid``); a Durch or Bettel scores its own value, won or lost, whatever
the bid. So at bid ``b``:

* P(make), P(go out) lie in [0, 1];
* E[score] lies in ``[min(-L x b, worst special), highest]`` with ``L`` the larger factor
  (:func:`score_range`), and a mean total in ``[lowest, highest]`` (:func:`total_range`);
* the Tapp value (total with the Tapp minus without) in ``[lowest - highest, highest - lowest]``.

The estimators of :mod:`binokel_sim.evaluation.checked` clip into the tighter range each
sample's proven interval gives (:func:`row_outcome_bounds`); these global ranges are what
the property tests check every printed figure against.

>>> from binokel_sim.rules import load_rules
>>> r = load_rules("standard")
>>> lo, hi = score_range(r, [150, 400]); lo.tolist(), bool((hi > 1000).all())
([-1000, -1000], True)
>>> total_range(r)[0]
-1000
"""

from __future__ import annotations

import numpy as np

from binokel_sim.cards import CARD_POINTS, DECK_COUNTS
from binokel_sim.rules import Rules
from binokel_sim.evaluation.parts import DealParts


def _specials(rules: Rules) -> list[int]:
    """Every score a Durch or Bettel of a bid evaluation can give under ``rules`` (won or lost; the
    evaluation plays them announced after the exchange, never open)."""
    from binokel_sim.scoring import special_score

    kinds = [k for k, on in (("durch", rules.durch.allowed), ("bettel", rules.bettel.allowed)) if on]
    return [special_score(rules, k, made) for k in kinds for made in (True, False)]


#: Highest totals by rules hash (the meld tables take a fraction of a second to build).
_HIGHEST: dict[str, int] = {}


def _highest_total(rules: Rules) -> int:
    from binokel_sim.melds.patterns import score_tables
    from binokel_sim.provenance import rules_hash

    key = rules_hash(rules)
    if key not in _HIGHEST:
        _HIGHEST[key] = _build_highest(rules, score_tables(rules))
    return _HIGHEST[key]


def _build_highest(rules: Rules, t) -> int:
    deck = DECK_COUNTS[rules.layout.sevens]
    # +10: card points rounded up to the next ten where the rules round.
    return int(t.max_total * t.unit + deck @ CARD_POINTS + rules.play.last_trick + 10)


def total_range(rules: Rules) -> tuple[int, int]:
    """(lowest, highest) result of one deal for the soloist: a trump total, or a special's score."""
    sp = _specials(rules)
    return min([0, *sp]), max([_highest_total(rules), *sp])


def loss_per_bid(rules: Rules) -> int:
    """The most a deal not made costs per bid point: ``max(failure_factor, penalty_factor)``."""
    pen = rules.surrender.penalty_factor if rules.surrender.allowed else 0
    return max(int(rules.scoring.failure_factor), int(pen))


def score_range(rules: Rules, bids) -> tuple[np.ndarray, np.ndarray]:
    """(lowest, highest) score of one deal at each of ``bids`` (int64 arrays)."""
    b = np.asarray(bids, dtype=np.int64)
    sp = _specials(rules)
    low = -loss_per_bid(rules) * b
    if sp:
        low = np.minimum(low, min(sp))
    return low, np.full(b.shape, total_range(rules)[1], dtype=np.int64)


def row_outcome_bounds(rules: Rules, parts: DealParts, bids) -> tuple[tuple, tuple]:
    """Per row and bid, the lowest and the highest (made, score, went out, made double-dummy) the
    row's proven interval of totals allows (``value`` .. ``value_hi``; a trick unproven where the
    upper bound is positive): two tuples of arrays [n, len(bids)] as
    :func:`binokel_sim.evaluation.ladder.outcomes` gives. Each outcome rises with the total, so its
    ends are the outcomes at the interval's ends; a row solved exactly has both equal to its own."""
    from binokel_sim.contracts import is_trump
    from binokel_sim.evaluation.ladder import outcomes

    hi_value = parts.hi
    trump = is_trump(parts.code)
    upper = parts.replace(value=np.where(trump, hi_value, parts.value),
                          took=np.where(trump, parts.took | (hi_value > 0), parts.took),
                          result=np.where(trump, hi_value, parts.result))
    return outcomes(rules, parts, bids), outcomes(rules, upper, bids)
