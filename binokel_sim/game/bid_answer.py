"""One answer to "what should this hand bid?", as ``binokel bid --json`` prints it and the web page reads it.

:func:`instant_bid` is the instant tier's ladder weighed against passing; :func:`checked_bid` the checked
tier's (``samples`` random deals played double-dummy). Both return a :class:`BidAnswer`: the ladder's rows
(the gain over passing joined where there is a pass value), the verdicts, and :meth:`BidAnswer.to_json`
-- the one JSON form of the CLI and the web API, so the two never drift apart.

>>> a = instant_bid("EA EA E10 EK EO EU GA G10 HA H10 SA S10", "standard")
>>> a.tier, a.to_json()["ceiling_bid"] == a.advice.ceiling_bid, "gain_vs_pass" in a.rows[0]
('instant', True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from binokel_sim.cards import format_cards
from binokel_sim.dealing.hand_input import read_hand
from binokel_sim.errors import InputError, MissingModel, check_share
from binokel_sim.evaluation.instant_advice import InstantAdvice
from binokel_sim.evaluation.ladder import SEMANTICS
from binokel_sim.rules import Rules, as_rules


@dataclass(frozen=True)
class BidAnswer:
    """A bid ladder weighed against passing.

    ``tier``: instant or checked; ``advice``: the instant tier's
    :class:`~binokel_sim.evaluation.instant_advice.InstantAdvice` or None; ``evaluation``: the checked tier's
    :class:`~binokel_sim.evaluation.hand.HandEvaluation` or None; ``rows``: the ladder's rows with
    ``gain_vs_pass`` where ``versus`` (a :class:`~binokel_sim.evaluation.pass_value.VersusPass`) is known,
    else ``no_pass`` says why not; ``instant_side``: beside a checked answer, the instant tier's verdict on it.
    """

    tier: str
    hand: str
    seat: int
    rules: Rules
    confidence: float
    rows: list[dict[str, Any]]
    versus: Any
    no_pass: str | None
    advice: InstantAdvice | None = None
    evaluation: Any = None
    instant_side: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON form (``binokel bid --json``)."""
        vs = self.versus.to_dict() if self.versus else {"missing": self.no_pass}
        if self.tier == "checked":
            return {"tier": "checked", **self.evaluation.to_dict(), "versus_pass": vs, "instant": self.instant_side}
        return {"tier": "instant", "hand": self.hand, "seat": self.seat, "rules": self.rules.name,
                "confidence": self.confidence, "semantics": SEMANTICS,
                **(self.advice.summary_json() if self.advice is not None else {}), "versus_pass": vs,
                "bids": self.rows}


def with_gain(bids: list[dict], vs) -> list[dict]:
    """The ladder's rows with the gain of winning at each bid over passing (``gain_vs_pass``, its SE)."""
    if vs is None:
        return bids
    at = {int(b): i for i, b in enumerate(vs.bids)}
    out = []
    for r in bids:
        i = at[int(r["bid"])]
        # For the margin objective the ladder's own minus the others' mean rides along (what the gain compares).
        margin = {} if vs.objective == "own" else {"expected_margin": float(vs.expected_score[i]),
                                                   "expected_margin_se": float(vs.expected_score_se[i])}
        out.append({**r, **margin, "gain_vs_pass": float(vs.gain[i]), "gain_vs_pass_se": float(vs.gain_se[i])})
    return out


def versus(rules: Rules, cards, seat: int, cols, samples: int | None = None, seed: int = 1, scale=None,
           objective: str = "own", total: float | None = None):
    """(the ladder weighed against passing, None) or (None, why not): the fitted pass value, or with
    ``samples`` the hand's own forced-pass deals; ``objective``: own or margin. A pass value asked for
    (``samples`` or the margin objective) is never dropped in silence: its error is raised."""
    from binokel_sim.game.defence import weigh_ladder

    try:
        return weigh_ladder(cards, cols, rules, seat, total, objective, samples, seed, scale), None
    except InputError as e:
        if samples is not None or objective != "own":
            raise
        return None, str(e)


def instant_bid(hand, rules: Rules | str = "standard", seat: int = 0, confidence: float = 0.8,
                objective: str = "own", play: str = "double-dummy") -> BidAnswer:
    """The instant tier's answer for ``hand`` (card text) at ``seat``: the model's ladder, ceiling, safe bid
    and Tapp value, weighed against passing (``objective``); ``play``: double-dummy or single-dummy (the
    model fitted on the single-dummy corpus; refused in one line where there is none)."""
    from binokel_sim.evaluation.instant import load_instant

    rules = as_rules(rules)
    check_bid_question(rules, seat, confidence)
    h = read_hand(hand, rules, size=rules.layout.hand_size)
    model = load_instant(rules, play=play)
    if model is None:  # never fall back to open cards, nor to a default
        raise MissingModel(_missing_model(rules, play))
    advice = model.advise(h.cards, rules, seat, confidence)
    vs, no_pass = versus(rules, h.cards, seat, advice.ladder.columns(), objective=objective, total=advice.total)
    return BidAnswer("instant", format_cards(h.cards), seat, rules, confidence, with_gain(advice.ladder.records(), vs),
                     vs, no_pass, advice=advice)


def _missing_model(rules: Rules, play: str) -> str:
    if play == "single-dummy":
        from binokel_sim.play.dd import BUDGET_MIN_CARDS

        if rules.layout.deck_size >= BUDGET_MIN_CARDS:  # the decks where the single-dummy study does not play
            return (f"--play single-dummy: rules {rules.name!r} deal {rules.layout.deck_size} cards, and the"
                    " single-dummy model is fitted on 40-card presets only (a single-dummy decision at 15 tricks"
                    " takes hours); leave out --play for the open-card answer")
        return (f"--play single-dummy: no single-dummy model fitted for rules {rules.name!r} (binokel fit instant"
                f" --play single-dummy --write --rules {rules.name} --corpus DIR, on a corpus built with"
                f" `binokel study play-gap --rules {rules.name} --deals 2000 --worlds 20 --corpus DIR`)")
    return f"no instant bid model fitted for rules {rules.name!r}: give --samples N (or run binokel fit instant)"


def check_bid_question(rules: Rules, seat: int, confidence: float) -> None:
    """The checks every bid question passes first: an auction, a seat of the rules, a confidence in (0, 1)."""
    rules.require_auction("bid evaluation")
    check_share("confidence", confidence)
    if not 0 <= seat < rules.n_seats:
        raise InputError(f"seat: expected 0..{rules.n_seats - 1} for preset {rules.name!r}, got {seat}")


def checked_bid(hand, rules: Rules | str = "standard", seat: int = 0, samples: int = 200, seed: int = 1,
                confidence: float = 0.8, objective: str = "own", settings=None, se: float | None = None,
                scale=None, progress: Callable[[int, int], None] | None = None) -> BidAnswer:
    """The checked tier's answer: ``samples`` random deals of the unseen cards played double-dummy
    (``settings``: :class:`~binokel_sim.evaluation.deals.EvalSettings`), weighed against the hand's own
    forced-pass deals, with the instant tier's verdict beside it where a model is fitted.
    ``progress(done, total)`` after each block of samples."""
    from binokel_sim.evaluation.hand import HandEvaluation, evaluate_hand
    from binokel_sim.evaluation.instant import load_instant
    from binokel_sim.evaluation.tiers import compare_tiers, instant_evaluation
    from binokel_sim.game.defence import CHECKED_PASS_DEALS

    rules = as_rules(rules)
    check_bid_question(rules, seat, confidence)
    h = read_hand(hand, rules, size=rules.layout.hand_size)
    ev = evaluate_hand(h.cards, rules, seat=seat, samples=samples, seed=seed, confidence=confidence,
                       settings=settings, scale=scale, se=se, progress=progress, tier="checked")
    assert isinstance(ev, HandEvaluation)
    # The pass value from the checked tier's own kind of deals: as many as it used, at most CHECKED_PASS_DEALS.
    vs, _ = versus(rules, h.cards, seat, ev.bids, max(2, min(ev.n, CHECKED_PASS_DEALS)), seed, scale, objective,
                   ev.total_with_tapp[0])
    side = None
    if load_instant(rules) is not None:
        inst = instant_evaluation(h.cards, rules, seat, confidence)
        verdict = compare_tiers(ev, inst)
        side = {"ceiling_bid": inst.ceiling_bid, "safe_bid": inst.safe_bid, "n": inst.n,
                "basis": inst.advice.basis, "agree": verdict.agree,
                "differ_at": list(verdict.differ_at), "line": verdict.line()}
    return BidAnswer("checked", ev.hand, seat, rules, confidence, with_gain(ev.bids.to_dict(orient="records"), vs),
                     vs, None, evaluation=ev, instant_side=side)

