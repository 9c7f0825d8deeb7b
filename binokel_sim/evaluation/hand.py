"""Hand evaluation before the auction: "what should this hand bid?"

For one seat's hand, the unseen cards (the other hands and the Tapp) are dealt
uniformly at random ``samples`` times. On each deal the soloist takes the Tapp, the
exchange policy (:mod:`binokel_sim.exchange.policy`) picks discard and contract, the
play is solved double-dummy and the deal is scored (:mod:`binokel_sim.scoring`).
For every bid from the minimum up: P(make) and the expected score -- the soloist goes
out after seeing the Tapp whenever his own estimate says that is better. Also the
ceiling bid (highest with positive expected score), the safe bid (P(make) >=
confidence), the Tapp's value (paired: same deal, Tapp laid away unseen), the
contracts chosen and the chance of a makeable Durch. Every figure carries n and a
standard error; deal ``i`` depends only on (seed, i), so workers and chunking never
change a number.

>>> from binokel_sim.rules import load_rules
>>> ev = evaluate_hand("EA EA E10 EK EO EU GA G10 HA H10 SA S10", load_rules("standard"), samples=20,
...                    seed=3, policy="melds", dd=DD(points=lambda c, *a: np.full(len(c), 120, np.int32),
...                                                 specials=lambda: lambda *a: False))
>>> ev.n, ev.ceiling_bid is not None, bool((np.diff(ev.bids["p_make"]) <= 0).all())
(20, True, True)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

import numpy as np
import pandas as pd

from binokel_sim.cards import cards_of, format_cards
from binokel_sim.contracts import CONTRACT_NAMES
from binokel_sim.errors import InputError, check_count
from binokel_sim.evaluation import checked
from binokel_sim.evaluation.deals import EvalSettings, baseline_choices, resolve_settings
from binokel_sim.play.dd import BUDGET_MIN_CARDS, DD
from binokel_sim.evaluation.going_out import basis as going_out_basis
from binokel_sim.evaluation.ladder import SEMANTICS, SURRENDER_BASIS, ladder_columns
from binokel_sim.evaluation.instant_advice import Ladder
from binokel_sim.evaluation.parts import CheckedRows, DealParts
from binokel_sim.dealing.hand_input import as_counts
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Interrupted, Scale, _Progress
from binokel_sim.evaluation.hand_runs import Reported, run_exact, run_thresholds


if TYPE_CHECKING:
    from binokel_sim.evaluation.tiers import InstantEvaluation


class EvaluationInterrupted(Interrupted):
    """Ctrl-C during a hand evaluation: nothing is kept (it takes no checkpoint), so the message says so.

    >>> str(EvaluationInterrupted(200, 1000))[:56]
    'interrupted after 200 of 1000 samples: a hand evaluation'
    """

    def __init__(self, done: int, total: int):
        Exception.__init__(self, f"interrupted after {done} of {total} samples: a hand evaluation keeps nothing"
                                 " (it is not resumable); ask fewer --samples, or stop early with --se")
        self.done, self.total, self.checkpoint = done, total, None


class Share(NamedTuple):
    """A share of the samples (e.g. of a makeable Durch) with its standard error, 95 % Wilson interval and n.

    >>> Share(0.25, 0.1, 0.1, 0.5, 20)._asdict()["hi"]
    0.5
    """

    mean: float
    se: float
    lo: float
    hi: float
    n: int


@dataclass
class HandEvaluation:
    """Everything ``binokel bid`` reports for one hand (see :func:`evaluate_hand`)."""

    hand: str
    seat: int
    rules: Rules
    seed: int
    settings: EvalSettings
    confidence: float
    n: int
    bids: pd.DataFrame
    ceiling_bid: int | None
    safe_bid: int | None
    tapp_value: tuple[float, float]
    total_with_tapp: tuple[float, float]
    total_tapp_unseen: tuple[float, float]
    baseline_contract: str
    contracts: pd.DataFrame
    p_durch: tuple[float, float]
    seconds: float
    #: The samples (:class:`~binokel_sim.evaluation.parts.DealParts`; the threshold path's
    #: :class:`~binokel_sim.evaluation.parts.CheckedRows`, whose rows hold proven bounds: read them through
    #: :meth:`ladder_at`).
    parts: DealParts | None = field(default=None, repr=False)
    #: None when safe <= ceiling; else why not (:func:`binokel_sim.evaluation.ladder.order_note`).
    order_note: str | None = None
    #: Samples asked for, and the early-stopping target (None: all samples were drawn).
    samples_requested: int = 0
    se_target: float | None = None
    #: Exactly solved samples (all of them when ``settings.exact_every == 1``).
    n_exact: int | None = None
    #: Share of deals a solve budget left open (48 cards): counted as not made where undecided, so the
    #: P(make) and the totals are lower bounds then.
    unresolved: float = 0.0
    #: Threshold path: per block of samples ``[start, stop, bid, bid, ...]``, the bids every sample was decided at.
    deciding_bids: list[list[int]] = field(default_factory=list)
    tier: str = "checked"

    @property
    def surrender_basis(self) -> str:
        """What decides going out after the Tapp is seen (never the deal's own double-dummy result)."""
        if self.settings.policy == "sampled":
            return SURRENDER_BASIS["sampled"]
        return f"{SURRENDER_BASIS[self.settings.policy]} ({going_out_basis(self.rules)})"

    def ladder_at(self, bids) -> Ladder:
        """The :class:`~binokel_sim.evaluation.instant_advice.Ladder` (P(make), E[score], ... with errors) at any
        ``bids``, e.g. one a calibration asks.

        The threshold path's rows hold proven bounds, not values: never average ``parts`` directly.
        """
        if self.parts is None:
            raise ValueError("ladder_at: this evaluation keeps no samples")
        if isinstance(self.parts, CheckedRows):
            return checked.ladder(self.rules, self.parts, np.asarray(bids))
        return ladder_columns(self.rules, self.parts, np.asarray(bids))

    def p_durch_interval(self) -> Share:
        """P(makeable Durch) with its n, standard error and 95 % Wilson interval."""
        from binokel_sim.stats import proportion

        d = proportion(round(self.p_durch[0] * self.n), self.n)
        return Share(d["p"], d["se"], d["lo"], d["hi"], self.n)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report: all figures with n and standard errors, and the provenance."""
        mse = lambda t: {"mean": t[0], "se": t[1], "n": self.n}  # noqa: E731
        return {
            "hand": self.hand, "seat": self.seat, "rules": self.rules.name, "rules_source": self.rules.source,
            "seed": self.seed, "samples": self.n, "samples_requested": self.samples_requested,
            "samples_exact": self.n_exact, "deciding_bids": self.deciding_bids, "unresolved": self.unresolved,
            "se_target": self.se_target, "policy": self.settings.policy,
            "settings": {k: getattr(self.settings, k) for k in self.settings.__dataclass_fields__},
            "confidence": self.confidence, "semantics": SEMANTICS, "surrender_decided_by": self.surrender_basis,
            "ceiling_bid": self.ceiling_bid, "safe_bid": self.safe_bid, "order_note": self.order_note,
            "bids": self.bids.to_dict(orient="records"),
            "tapp_value": mse(self.tapp_value), "total_with_tapp": mse(self.total_with_tapp),
            "total_tapp_unseen": mse(self.total_tapp_unseen), "baseline_contract": self.baseline_contract,
            "contracts": self.contracts.to_dict(orient="records"),
            "p_durch_makeable": self.p_durch_interval()._asdict(),
            "seconds": round(self.seconds, 3),
        }


#: The tiers :func:`evaluate_hand` answers with.
TIERS = ("instant", "checked")
#: Samples of the checked tier when none are given.
CHECKED_SAMPLES = 1000
#: The checked tier's exchange policy when none is given (as ``binokel bid``'s): it answers in seconds.
DEFAULT_POLICY = "heuristic"


def evaluate_hand(hand, rules: Rules | str | os.PathLike[str] = "standard", *, seat: int = 0,
                  samples: int | None = None, tier: str | None = None, seed: int = 1, policy: str | None = None,
                  confidence: float = 0.8, settings: EvalSettings | None = None, scale: Scale | None = None,
                  predealt: dict | None = None, dd: DD | None = None, se: float | None = None,
                  progress: Callable[[int, int], None] | None = None) -> "HandEvaluation | InstantEvaluation":
    """What should ``hand`` (card text or types) bid at ``seat``? The instant tier by default, the checked
    tier with ``samples=N`` or ``tier="checked"`` -- as ``binokel bid`` without and with ``--samples``.

    *Instant* (:class:`binokel_sim.evaluation.tiers.InstantEvaluation`): the ladder of the model
    fitted on the shipped corpus, in well under a second; the checked tier's options are refused.

    *Checked* (:class:`HandEvaluation`): ``samples`` (default :data:`CHECKED_SAMPLES`) random deals
    of the unseen cards, played double-dummy. ``settings`` decides the exchange policy (``policy``
    is a shorthand, default :data:`DEFAULT_POLICY`; both and different: an error). ``predealt``
    fixes other seats' hands or the Tapp (``{1: "...", "tapp": "..."}``), e.g. to check the
    evaluation of one known deal. ``dd`` replaces the double-dummy back end (see
    :class:`binokel_sim.play.dd.DD`). ``scale``: worker threads and progress bar; a
    checkpoint or a scheduler is refused in one line (the chunks close over this hand's arrays).
    ``progress(done, total)`` is called after each block of samples. ``se``: stop once P(make)
    at the safe bid is known to +-``se`` (checked every ``STOP_EVERY`` samples, at least
    100 samples; :func:`binokel_sim.evaluation.ladder.safe_bid_se`).

    >>> evaluate_hand("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "standard").tier
    'instant'
    """
    rules = as_rules(rules)
    rules.require_auction("bid evaluation")
    if tier is not None and tier not in TIERS:
        raise InputError(f"tier: expected one of {', '.join(TIERS)}, got {tier!r}")
    if not 0 <= seat < rules.n_seats:
        raise InputError(f"seat: expected 0..{rules.n_seats - 1} for preset {rules.name!r}, got {seat}")
    if not 0.0 < confidence < 1.0:
        raise InputError(f"confidence: must be between 0 and 1 (exclusive), got {confidence}")
    counts = as_counts(hand, "hand", rules.layout.hand_size, rules)
    if (tier or ("checked" if samples is not None else "instant")) == "instant":
        given = [k for k, v in (("samples", samples), ("policy", policy), ("settings", settings), ("scale", scale),
                                ("predealt", predealt), ("dd", dd), ("se", se), ("progress", progress))
                 if v is not None]
        if given:
            raise InputError(f"{', '.join(given)}: only the checked tier takes them (samples=N or tier='checked')")
        from binokel_sim.evaluation.tiers import instant_of_counts

        return instant_of_counts(counts, rules, seat, confidence)
    samples = CHECKED_SAMPLES if samples is None else samples
    st = resolve_settings(settings, policy if policy is not None or settings is not None else DEFAULT_POLICY)
    check_count("samples", samples)
    if se is not None and not se > 0:
        raise InputError(f"se: must be positive, got {se}")
    scale = scale or Scale()
    if scale.checkpoint or scale.scheduler:
        raise InputError("a hand evaluation runs on local threads only: a checkpoint or a scheduler does not apply")
    if st.exact_every == 1 and dd is None and rules.layout.deck_size >= BUDGET_MIN_CARDS:
        raise InputError(f"exact-every: 1 would solve every {rules.layout.deck_size}-card deal exactly (up to an hour"
                         " each); use 2 or more (those samples are solved within --solve-budget)")
    t0 = time.perf_counter()
    # The no-Tapp contract depends on the hand alone: chosen once, on base_inner deals.
    base = baseline_choices(rules, counts[None], seat, seed, st, np.zeros(1, np.int64), st.base_inner, dd)
    run = run_thresholds if st.exact_every > 1 else run_exact
    # Few samples: more of them solved exactly (the same path, so a budget's open deals are still counted).
    st = replace(st, exact_every=checked.exact_every_for(samples, st.exact_every)) if st.exact_every > 1 else st
    bar: Any = _Progress(scale.progress, samples, "bid")
    if progress is not None:
        bar = Reported(bar, progress, samples)
    try:
        parts, s, bids_asked = run(rules, counts, seat, seed, st, base, predealt, dd, samples, confidence, se,
                                   scale.workers, bar)
    except Interrupted:
        raise EvaluationInterrupted(bar.done, samples) from None
    finally:
        bar.close()
    return HandEvaluation(
        hand=format_cards(cards_of(counts)), seat=seat, rules=rules,
        seed=seed, settings=st, confidence=confidence, n=parts.n, bids=s.bids, ceiling_bid=s.ceiling_bid,
        safe_bid=s.safe_bid, tapp_value=s.tapp_value, total_with_tapp=s.total_with_tapp,
        total_tapp_unseen=s.total_tapp_unseen, baseline_contract=CONTRACT_NAMES[int(base[0][0])],
        contracts=s.contracts, p_durch=s.p_durch, seconds=time.perf_counter() - t0, parts=parts,
        order_note=s.order_note, samples_requested=samples, se_target=se, n_exact=s.n_exact,
        unresolved=s.unresolved, deciding_bids=bids_asked,
    )
