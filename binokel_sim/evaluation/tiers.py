"""The two tiers of a hand's bid advice side by side: the instant answer as an object, and one line
saying whether the checked tier agrees.

:class:`InstantEvaluation` is what :func:`binokel_sim.evaluation.hand.evaluate_hand` returns by
default: the ladder of the model fitted on the shipped corpus
(:mod:`binokel_sim.evaluation.instant`), in well under a second, with the fields of a checked
:class:`~binokel_sim.evaluation.hand.HandEvaluation` that it has (``bids``, ``ceiling_bid``,
``safe_bid``, ``tapp_value``, ``n``).

:func:`compare_tiers` tests the instant tier's P(make) at *every bid* from the minimum to one step
above the highest of both tiers' safe bids and ceilings against the checked tier's samples: an
exact binomial test of the checked count against the band of :data:`MARGIN` around the instant
prediction at each bid, Bonferroni-corrected over the bids, so a P(make) of 1.000 with no spread
is not a difference by itself. The tiers agree only when no bid differs. Where they differ, the line
says why when the data say it: a hand beyond the instant tier's training hands (its fitted
total outside the central 98 % of theirs), or a pool of few training deals.

>>> c = TierComparison(agree=True, bids=(290, 300, 310), p_instant=(0.85, 0.52, 0.3), p_checked=(0.83, 0.55, 0.3),
...                    n=400, ceilings=(300, 310), safes=(290, 290))
>>> print(c.line().replace("; ", ";" + chr(10)))
tiers agree: every P(make) at 290..310 within 0.05 and the checked sampling error (n = 400;
largest gap 0.03 at 300: instant 0.52, checked 0.55);
ceiling instant 300, checked 310
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from binokel_sim.evaluation.instant_advice import InstantAdvice, ProvenBounds
from binokel_sim.rules import Rules

#: Family-wise level of the tier test (Bonferroni over the deciding bids).
ALPHA = 0.05
#: Ceilings further apart than this many points are called different whatever the test says.
CEILING_GAP = 20
#: P(make)s closer than this count as agreeing: the test asks whether the checked samples rule out every
#: P(make) within this margin of the instant one (a model's answer is not exact to the last point).
MARGIN = 0.05
#: A residual pool with fewer training deals than this is named as a reason.
FEW_DEALS = 300


@dataclass
class InstantEvaluation:
    """The instant tier's answer for one hand (see the module docstring)."""

    hand: str
    seat: int
    rules: Rules
    confidence: float
    #: Training deals the hand's ladder draws on (its residual pool).
    n: int
    bids: Any
    ceiling_bid: int | None
    safe_bid: int | None
    order_note: str | None
    #: (mean, standard error) of the Tapp value of hands like this one.
    tapp_value: tuple[float, float]
    #: The model's fitted double-dummy total of the hand.
    total: float
    seconds: float
    #: The model's whole answer (:class:`~binokel_sim.evaluation.instant_advice.InstantAdvice`): basis,
    #: provenance, the bounds of a budgeted corpus's model.
    advice: InstantAdvice = field(repr=False)
    tier: str = "instant"
    #: The ladder weighed against passing (:class:`~binokel_sim.evaluation.pass_value.VersusPass`; None where no
    #: pass-value model is fitted for the rules).
    versus_pass: Any = None

    @property
    def bounds(self) -> ProvenBounds | None:
        """Ceiling and safe bid at the proven bounds, for a model fitted on a budgeted corpus (48 cards); None
        where every training total was exact."""
        return self.advice.bounds

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the same keys as ``binokel bid --json`` without ``--samples``."""
        from binokel_sim.evaluation.ladder import SEMANTICS

        vs = self.versus_pass.to_dict() if self.versus_pass is not None else None
        return {"tier": "instant", "hand": self.hand, "seat": self.seat, "rules": self.rules.name,
                "confidence": self.confidence, "semantics": SEMANTICS, **self.advice.summary_json(),
                "versus_pass": vs,
                "bids": self.bids.to_dict(orient="records")}


def instant_evaluation(hand, rules: Rules, seat: int = 0, confidence: float = 0.8) -> InstantEvaluation:
    """The instant tier's :class:`InstantEvaluation` of ``hand``; an :class:`InputError` where no model
    was fitted for ``rules``."""
    from binokel_sim.dealing.hand_input import as_counts

    return instant_of_counts(as_counts(hand, "hand", rules.layout.hand_size, rules), rules, seat, confidence)


def instant_of_counts(counts: np.ndarray, rules: Rules, seat: int = 0, confidence: float = 0.8) -> InstantEvaluation:
    """:func:`instant_evaluation` of a validated hand (``counts``: uint8[24])."""
    from binokel_sim.cards import cards_of, format_cards
    from binokel_sim.errors import InputError
    from binokel_sim.evaluation.instant import load_instant

    t0 = time.perf_counter()
    model = load_instant(rules)
    if model is None:
        raise InputError(f"no instant bid model fitted for rules {rules.name!r}: ask the checked tier (samples=N)")
    from binokel_sim.evaluation.pass_value import load_defence, versus_pass

    a = model.advise(cards_of(counts), rules, seat, confidence)
    bids = a.ladder.frame()
    d = load_defence(rules)
    vs = versus_pass(bids, d.value(counts, rules, seat)) if d is not None else None
    return InstantEvaluation(hand=format_cards(cards_of(counts)), seat=seat, rules=rules, confidence=confidence,
                             n=a.n, bids=bids, ceiling_bid=a.ceiling_bid, safe_bid=a.safe_bid,
                             order_note=a.order_note, tapp_value=(a.tapp_value.mean, a.tapp_value.se),
                             total=float(a.total), seconds=time.perf_counter() - t0, advice=a, versus_pass=vs)


@dataclass(frozen=True)
class TierComparison:
    """The outcome of :func:`compare_tiers`: per deciding bid both P(make)s, and the verdict."""

    agree: bool
    bids: tuple[int, ...]
    p_instant: tuple[float, ...]
    p_checked: tuple[float, ...]
    n: int
    ceilings: tuple[int | None, int | None]
    safes: tuple[int | None, int | None]
    #: The bids where the test rejects the instant P(make), and the smallest adjusted p-value.
    differ_at: tuple[int, ...] = ()
    p_value: float = 1.0
    reason: str | None = None

    def line(self) -> str:
        """One line: agree, or differ at which bids (and why, when known)."""
        fmt = lambda xs: ", ".join(f"{x:.2f}" for x in xs)  # noqa: E731
        ceil = f"ceiling instant {_bid(self.ceilings[0])}, checked {_bid(self.ceilings[1])}"
        if self.agree:
            gap = np.abs(np.subtract(self.p_instant, self.p_checked))
            i = int(np.argmax(gap))
            return (f"tiers agree: every P(make) at {self.bids[0]}..{self.bids[-1]} within {MARGIN:g} and the checked"
                    f" sampling error (n = {self.n}; largest gap {gap[i]:.2f} at {self.bids[i]}: instant"
                    f" {self.p_instant[i]:.2f}, checked {self.p_checked[i]:.2f}); {ceil}")
        at = [i for i, b in enumerate(self.bids) if b in self.differ_at][:4]
        what = (f"P(make) at {', '.join(str(self.bids[i]) for i in at)}: instant {fmt(self.p_instant[i] for i in at)},"
                f" checked {fmt(self.p_checked[i] for i in at)} (n = {self.n}, adjusted p = {self.p_value:.2g})"
                if at else "P(make) within the sampling error")
        return f"tiers differ: {what}; {ceil}" + (f"; likely reason: {self.reason}" if self.reason else "")


def _bid(b: int | None) -> str:
    return "none" if b is None else str(b)


def compare_tiers(checked, instant: InstantEvaluation, rules: Rules | None = None) -> TierComparison:
    """Test the instant tier's P(make) against the checked tier's samples at every bid up to one step above
    the deciding bids (both tiers' safe bids and ceilings).

    ``checked``: a :class:`~binokel_sim.evaluation.hand.HandEvaluation`. Each bid's checked count
    (P(make) x its effective n) is tested against the instant prediction with the exact binomial
    test; the tiers *differ* where an adjusted p-value is below :data:`ALPHA`, or where the
    ceilings are more than :data:`CEILING_GAP` points apart.
    """
    from binokel_sim.stats import binomial_test

    rules = checked.rules
    deciding = [b for b in (instant.safe_bid, instant.ceiling_bid, checked.safe_bid, checked.ceiling_bid)
                if b is not None]
    top = max(deciding, default=rules.bidding.min_bid) + rules.bidding.bid_step
    bids = tuple(int(b) for b in np.asarray(instant.bids["bid"]) if rules.bidding.min_bid <= b <= top) or (
        int(rules.bidding.min_bid),)
    p_i = _p_at(instant.bids, bids)
    cols = checked.ladder_at(np.asarray(bids))
    p_c = np.asarray(cols["p_make"], dtype=np.float64)
    n = int(checked.n)
    adj = []
    for pi, pc, se in zip(p_i, p_c, np.asarray(cols["p_make_se"], dtype=np.float64)):
        # The effective n of a corrected estimate (its error above the plain binomial one), else the samples.
        eff = n if not (se > 0 and 0 < pc < 1) else min(n, max(2, int(round(pc * (1 - pc) / se ** 2))))
        ref = float(np.clip(pc, pi - MARGIN, pi + MARGIN).clip(0.0, 1.0))  # the band's end nearest the sample
        p = 1.0 if abs(pc - pi) <= MARGIN else binomial_test(int(round(pc * eff)), eff, ref)
        adj.append(min(1.0, p * len(bids)))
    differ = tuple(b for b, a in zip(bids, adj) if a < ALPHA)
    ci, cc = instant.ceiling_bid, checked.ceiling_bid
    gap = ceiling_gap(checked.rules, ci, cc) > CEILING_GAP
    agree = not differ and not gap
    return TierComparison(agree=agree, bids=bids, p_instant=tuple(float(x) for x in p_i),
                          p_checked=tuple(float(x) for x in p_c), n=n, ceilings=(ci, cc),
                          safes=(instant.safe_bid, checked.safe_bid), differ_at=differ, p_value=float(min(adj)),
                          reason=None if agree else instant_reason(instant))


def ceiling_gap(rules: Rules, a: int | None, b: int | None) -> int:
    """Points between two ceilings, a pass (None) counting as one bid step below the minimum bid.

    >>> from binokel_sim.rules import load_rules
    >>> ceiling_gap(load_rules("standard"), 150, None), ceiling_gap(load_rules("standard"), 300, 270)
    (10, 30)
    """
    below = rules.bidding.min_bid - rules.bidding.bid_step
    return abs((below if a is None else a) - (below if b is None else b))


def _p_at(bids_frame, bids) -> np.ndarray:
    """The instant ladder's P(make) at ``bids`` (0 above its top, 1 below its bottom: the ladder's own ends)."""
    b = np.asarray(bids_frame["bid"], dtype=np.int64)
    p = np.asarray(bids_frame["p_make"], dtype=np.float64)
    out = np.interp(np.asarray(bids, dtype=np.float64), b, p, left=float(p[0]), right=0.0)
    return out


def instant_reason(instant: InstantEvaluation) -> str | None:
    """Why the instant tier may miss this hand, when its data say so (None: nothing known)."""
    from binokel_sim.evaluation.instant import load_instant

    model = load_instant(instant.rules)
    reasons = []
    q = getattr(model, "line_range", None) if model is not None else None
    if q:
        lo, hi = q
        if instant.total < lo or instant.total > hi:
            side = "above" if instant.total > hi else "below"
            reasons.append(f"the hand lies at the edge of the instant tier's data (fitted total {instant.total:.0f},"
                           f" {side} 99 % of its training hands)")
    # The drawn ladder's n counts Tapp draws of this very hand, not a pool of similar deals.
    if instant.n < FEW_DEALS and not getattr(model, "drawn", False):
        reasons.append(f"the instant tier's pool for hands like this holds only {instant.n} deals")
    return "; ".join(reasons) or None
