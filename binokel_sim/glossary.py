"""Player words for every event, column and figure the tables use; one definition each.

CSV, Parquet and JSON keep the code names (``pair_E``, ``p_make_se``) so scripts can
rely on them; reports and charts show :func:`words` instead, and every report table
header links to the glossary entry (:func:`anchor`) that :func:`entries` writes.

>>> words("pair_E"), words("meld_at_least_100_best"), words("p_make_lo")
('pair in Eichel', 'meld total ≥ 100', 'P(make), 95 % low')
>>> define("pair_E")
'King and Ober of Eichel that are not part of a family in Eichel (a family counts as family, not also as pair).'
"""

from __future__ import annotations

import re

SUIT_NAMES = {"E": "Eichel", "G": "Grün", "H": "Herz", "S": "Schellen"}
RANK_NAMES = {"A": "Aces", "10": "Tens", "K": "Kings", "O": "Obers", "U": "Unters", "7": "Sevens"}

#: Column codes -> (player words, definition).
COLUMNS: dict[str, tuple[str, str]] = {
    "value": ("estimate", "The Monte Carlo estimate: a probability, or a mean in points."),
    "stderr": ("standard error",
               "Standard error of the estimate (cluster-robust over deals where hands share a deal; '-' where "
               "none or all of the hands had it: the 95 % interval then says how far the truth can be)."),
    "se": ("standard error", "Standard error of the estimate beside it ('-' where none or all of the sample had "
                             "it: the 95 % interval then says how far the truth can be)."),
    "lo": ("95 % low", "Lower end of the 95 % interval (Wilson's for a probability: never below 0)."),
    "hi": ("95 % high", "Upper end of the 95 % interval (Wilson's for a probability: never above 1)."),
    "exact": ("exact", "The exact value, by combinatorics."),
    "z": ("z", "(estimate - exact) / standard error; used as the test only where 10 or more hits are expected."),
    "p_value": ("p-value", "Two-sided p-value of estimate against exact: exact binomial test for rare events "
                           "(fewer than 10 hits expected), else from z."),
    "test": ("test", "Which test gave the p-value: exact binomial or z."),
    "n": ("n", "Sample size: hands, deals or games behind the estimate."),
    "event": ("meld", "The meld, or the meld total, whose probability or mean the row gives (each defined in "
                      "this glossary)."),
    "total": ("meld total", "Meld points of a hand at its best trump."),
    "share": ("share", "Fraction of deals."),
    "contract": ("contract", "The game announced after the exchange: a trump suit, Durch or Bettel."),
    "bid": ("bid", "The contract's value in points."),
    "p_make": ("P(make)", "Probability the soloist (with his partner, in a partnership game) reaches the bid "
                          "(double-dummy play)."),
    "p_make_se": ("P(make) standard error", "Standard error of P(make)."),
    "p_make_lo": ("P(make), 95 % low", "Lower end of P(make)'s Wilson interval."),
    "p_make_hi": ("P(make), 95 % high", "Upper end of P(make)'s Wilson interval."),
    "expected_score": ("expected score", "Mean score of the soloist at this bid (failing costs twice the bid)."),
    "expected_score_se": ("expected score standard error", "Standard error of the expected score."),
    "expected_margin": ("expected margin", "Expected score at this bid minus the others' expected mean score."),
    "expected_margin_se": ("expected margin standard error", "Standard error of the expected margin."),
    "gain_vs_pass": ("vs pass", "Expected score (or margin) at this bid minus the hand's pass value."),
    "gain_vs_pass_se": ("vs pass standard error", "Standard error of the gain over passing."),
    "p_surrender": ("P(go out)", "Probability the soloist goes out (surrenders) at this bid."),
    "p_surrender_se": ("P(go out) standard error", "Standard error of P(go out)."),
    "melds": ("meld class", "Meld points of the hand at its best trump, before the Tapp."),
    "aces": ("aces", "Aces in the hand before the Tapp."),
    "mean_total": ("mean total", "Mean total (card points + melds) of the soloist's side (his partner's "
                                     "included in a partnership game) after double-dummy play."),
    "mean_total_se": ("mean total standard error", "Standard error of the mean total."),
    "ceiling_bid": ("ceiling bid", "Highest bid with a positive expected score."),
    "ceiling_expected_score": ("expected score at the ceiling", "Expected score when bidding the ceiling."),
    "ceiling_expected_score_se": ("its standard error", "Standard error of the expected score at the ceiling."),
    "safe_bid": ("safe bid", "Highest bid made at least 80 % of the time."),
    "p_make_at_open_safe": ("P(make) of the open-card safe bid", "How often the safe bid of the same deals played "
                                                                 "with open cards is made under the row's way of "
                                                                 "play."),
    "safe_p_make": ("P(make) at the safe bid", "Share of the class's deals made when bidding its safe bid: at "
                                               "least 0.8 by the safe bid's definition; how far above 0.8 says how "
                                               "much room is left before the next bid step."),
    "safe_p_make_se": ("its standard error", "Standard error of P(make) at the safe bid."),
    "safe_bid_lo": ("safe bid, 95 % low", "Highest bid whose P(make)'s 95 % interval lies wholly at 80 % or "
                                          "above: the safe bid the deals prove."),
    "safe_bid_hi": ("safe bid, 95 % high", "Highest bid whose P(make)'s 95 % interval still reaches 80 %: the "
                                           "deals cannot rule out a safe bid this high."),
    "ceiling_bid_lo": ("ceiling, 95 % low", "Highest bid whose expected score's 95 % interval lies wholly above 0."),
    "ceiling_bid_hi": ("ceiling, 95 % high", "Highest bid whose expected score's 95 % interval still reaches above 0."),
    "p_make_counted_failed": ("P(make), unresolved failed", "P(make) with every unresolved deal counted as failed "
                                                            "(the lower end of the range)."),
    "p_make_counted_made": ("P(make), unresolved made", "P(make) with every unresolved deal counted as made "
                                                        "(the upper end of the range)."),
    "model": ("model", "A candidate hand-point model (features it uses)."),
    "terms": ("terms", "Coefficients the model fits, the intercept included."),
    "r2_test": ("R² out of sample", "1 - residual variance / variance of the totals, on the test deals."),
    "r2_test_lo": ("R², 95 % low", "Lower end of the bootstrap interval of the out-of-sample R²."),
    "r2_test_hi": ("R², 95 % high", "Upper end of the bootstrap interval of the out-of-sample R²."),
    "residual_sd": ("residual sd", "Root mean square error of the model on the test deals."),
    "n_train": ("training deals", "Trump-contract deals the model was fitted on."),
    "n_test": ("test deals", "Trump-contract deals the model was tested on."),
    "feature": ("counted by", "What the hand class counts: meld points, aces, tens or the longest suit."),
    "class": ("class", "The range of the counted feature."),
    "melds_mean": ("Tapp value (melds only)", "Mean over the class's deals of: (melds kept after the best exchange "
                                              "+ card points laid away) minus (melds of the hand as dealt + the "
                                              "Tapp's card points, laid away unseen)."),
    "melds_se": ("standard error", "Standard error of the Tapp value (melds only)."),
    "dd_mean": ("Tapp value (double-dummy)", "Mean over the class's deals of: the soloist's double-dummy total "
                                            "with the best exchange minus his total with the Tapp laid away unseen."),
    "dd_se": ("standard error", "Standard error of the Tapp value (double-dummy)."),
    "dd_mean_lo": ("Tapp value (double-dummy), low end",
                   "The double-dummy Tapp value with every deal the solve budget left unresolved at its lowest value."),
    "dd_mean_hi": ("Tapp value (double-dummy), high end",
                   "The double-dummy Tapp value with every unresolved deal at its highest value."),
    "unresolved": ("unresolved", "Deals whose double-dummy value the solve budget left as a range (counted, "
                                 "never dropped)."),
    "mean_total_hi": ("mean total, high end", "Mean total with every unresolved deal at its highest value (the "
                                              "mean total column counts them at their lowest)."),
    "safe_p_make_hi": ("P(make) at the safe bid, high end", "P(make) at the safe bid counting every unresolved "
                                                            "deal as made (the other column counts them failed)."),
    "safe_p_make_hi_se": ("its standard error", "Standard error of the high end of P(make) at the safe bid."),
    # study match: policy A in one seat against policy B (the other policy in every seat)
    "against": ("against policy", "Policy B: bids in the other seats, and in every seat in the reference play."),
    "gain": ("gain a round", "The seat's score a round with policy A minus with policy B on the same deals, mean "
                             "over the seats."),
    "gain_se": ("gain, standard error", "Standard error of the gain, clustered by deal."),
    "gain_vs_others": ("gain, own minus others", "The gain in own score minus the mean of the other seats'."),
    "gain_vs_others_se": ("own minus others, standard error", "Standard error, clustered by deal."),
    "won_a": ("A wins auction", "Share of the rounds the seat wins the auction bidding by policy A."),
    "won_b": ("B wins auction", "Share of the rounds the seat wins the auction bidding by policy B."),
    "failed_a": ("A fails", "Share of the contracts won by policy A that fail (going out not counted)."),
    "failed_b": ("B fails", "Share of the contracts won by policy B that fail (going out not counted)."),
    "out_a": ("A goes out", "Share of the contracts won by policy A that it gives up after the Tapp."),
    "out_b": ("B goes out", "Share of the contracts won by policy B that it gives up after the Tapp."),
    "mean_bid_a": ("A's mean contract", "Mean winning bid of the seat under policy A."),
    "mean_bid_b": ("B's mean contract", "Mean winning bid of the seat under policy B."),
    "pass_predicted": ("pass value, predicted", "The fitted pass value (expected score when passing) of the bin's "
                                                "hands."),
    "pass_realised": ("score when passing", "What those seats scored had they passed at once (the other seats "
                                            "bidding by the first opposing policy)."),
    "passed_b": ("score passing at once", "The seat's score had it passed at once, the first opposing policy in "
                                          "the other seats (NaN under the others)."),
    "pass_realised_se": ("score when passing, standard error", "Standard error of the realised mean."),
    "predicted": ("predicted P(make)", "The formula's mean P(make) over the deals of the bin."),
    "realised": ("made", "Share of the bin's contracts actually made (double-dummy)."),
    "realised_se": ("made, standard error", "Standard error of the realised make rate."),
    "realised_lo": ("made, 95 % low", "Lower end of the realised make rate's Wilson interval."),
    "realised_hi": ("made, 95 % high", "Upper end of the realised make rate's Wilson interval."),
    "realised_if_made": ("made, unresolved counted made", "The realised make rate with every deal the solve "
                                                          "budget left unresolved counted as made."),
    "gap": ("made - predicted", "Realised minus predicted: near 0 for a calibrated advisor."),
    "further_n": ("further questions", "Real-play calibration: questions of further deals (open cards only) whose "
                                       "predictions fall in the bin."),
    "further_deals": ("further deals", "The distinct further deals behind them (fewer than 30: the bin is left "
                                       "uncorrected)."),
    "beta": ("slope", "How far a single-dummy outcome follows the open-card outcome of the same question in the bin "
                      "(the control's weight)."),
    "gap_controlled": ("made - predicted, luck taken out", "The gap with the held-out deals' luck taken out: less "
                                                            "how much more (or less) often their bids were made with "
                                                            "open cards than the further deals' were."),
    "gap_controlled_se": ("its standard error", "Standard error of the gap with the luck taken out (clustered by "
                                                "deal, the further deals' share included)."),
    "realised_controlled": ("made, luck taken out", "Predicted P(make) plus the gap with the luck taken out."),
    "controlled_lo": ("made, luck taken out, 95 % low", "Lower end of its normal 95 % interval."),
    "controlled_hi": ("made, luck taken out, 95 % high", "Upper end of its normal 95 % interval."),
    "bin_from": ("predicted from", "Lower edge of the bin of predicted P(make)."),
    "bin_to": ("predicted to", "Upper edge of the bin."),
    "figure": ("figure", "The quantity on the row; those with a name of their own (Tapp value, Tapp meld gain, sure "
                         "Durch) have their own entry."),
    "term": ("term", "A term of the hand formula: the starting value, meld points (at the best trump), Aces, Tens, "
                     "the longest suit's cards, cards of the likely trump (the best-meld suit), Aces outside it, card "
                     "points; the typical error is the spread of real totals around the formula (residual sd)."),
    "coefficient": ("coefficient", "Points per unit of the term (the starting value and the typical error: points)."),
    "deals": ("deals", "Distinct deals behind the bin's questions (a deal asked about several bids counts once)."),
    "within_2pp": ("within 2 points", "Whether the realised make rate lies within 2 percentage points of the "
                                      "predicted P(make) (where totals are open: of the range from open totals "
                                      "counted failed to counted made; for the real-play model, the gap with "
                                      "the held-out deals' luck taken out)."),
    "item": ("item", "A provenance item: what produced the report."),
    "setting": ("setting", "The provenance item's value in this run."),
    "declared": ("meld points declared", "Mean meld points the seat has declared by the end of the trick (two-hand "
                                         "talon phase)."),
    "trick": ("trick", "The trick of the talon phase (1 to 12)."),
    "seat": ("seat", "Forehand (leads the first trick) or the dealer."),
    "scope": ("cards counted", "Which cards the row counts: the dealt hand, hand + Tapp, or the hand kept after the "
                               "best discard; two-hand: the dealt 12, or 12 dealt + 12 drawn with or without the "
                               "turned trump card."),
    "dealt": ("the dealt 12", "A player's 12 dealt cards, both seats (n counts hands)."),
    "talon-out-no-turned": ("dealt 12 + drawn 12", "12 dealt and 12 drawn cards of the player who draws first, "
                                                   "keeping everything he draws."),
    "talon-out-with-turned": ("dealt 12 + drawn 11 + the turned card", "12 dealt and 11 drawn cards plus the turned "
                                                                        "trump card."),
    "trump_pair": ("trump pair", "King and Ober of trump (trump: the turned card's suit)."),
    "pair_plain": ("pair in a plain suit", "King and Ober of one suit other than trump."),
    "trump_family": ("trump family", "Ace, Ten, King, Ober and Unter of trump."),
    "grand_binokel": ("grand Binokel", "Grün King, Grün Ober and Schellen Unter."),
    "trump_seven": ("a trump Seven", "The Seven of trump (the Diss: it may be exchanged for the turned card)."),
}

#: Terms of the hand formula -> player words (the "term" column of the report's formula table).
TERMS = {"intercept": "starting value", "melds": "meld points", "aces": "Aces", "tens": "Tens",
         "longest": "longest suit (cards)", "trump_len": "cards of the likely trump", "side_aces": "Aces outside it",
         "points": "card points", "residual sd": "typical error (residual sd)"}

#: Figures (rows of tables, report text) -> definition.
FIGURES: dict[str, str] = {
    "Tapp value (melds only)": "Per deal: (melds kept after the best exchange + card points laid away) minus "
                               "(melds of the hand as dealt + the Tapp's card points, laid away unseen).",
    "Tapp value (double-dummy)": "Per deal: the soloist's double-dummy total with the best exchange minus his "
                                 "total when the Tapp is laid away unseen (a special contract counts its score).",
    "Tapp meld gain": "Mean best meld total kept from hand + Tapp after discarding minus the mean best meld "
                      "total of a hand as dealt; melds only, no card points.",
    "sure Durch": "After the best discard no card of the soloist can be beaten: every trick is his.",
    "double-dummy": "Play as if every hand lay open: each side plays perfectly knowing all the cards (the solver's "
                    "answer). Real players see only their own hand, so real results differ.",
    "Brier score": "Mean squared difference between the predicted P(make) and what happened (1 made, 0 not): 0 is "
                   "perfect; always predicting the overall make rate scores the base-rate figure beside it.",
}


def _event(code: str) -> tuple[str, str] | None:
    m = re.fullmatch(r"(double_)?(family|pair)_([EGHS])", code)
    if m:
        two, kind, suit = m.groups()
        s = SUIT_NAMES[suit]
        if kind == "family":
            return (f"{'two families' if two else 'family'} in {s}",
                    f"{'Both copies of' if two else ''} Ace, Ten, King, Ober and Unter of {s}.".lstrip())
        if two:
            return f"two pairs in {s}", f"Both Kings and both Obers of {s}, neither in a family."
        return (f"pair in {s}", f"King and Ober of {s} that are not part of a family in {s} "
                                "(a family counts as family, not also as pair).")
    m = re.fullmatch(r"(four|eight)_(A|10|K|O|U|7)", code)
    if m:
        n, r = m.groups()
        where = "all" if n == "eight" else "one of each suit"
        return f"{n} {RANK_NAMES[r]}", f"{n.capitalize()} {RANK_NAMES[r]} in one hand ({where})."
    if code in ("binokel", "double_binokel"):
        return (("two Binokels", "Both Grün Obers and both Schellen Unters.") if code.startswith("double")
                else ("Binokel", "Grün (Schippe) Ober and Schellen Unter."))
    m = re.fullmatch(r"dissle_([12])", code)
    if m:
        k = m.group(1)
        return f"{'one' if k == '1' else 'two'} trump seven{'s' if k == '2' else ''}", \
            (f"Holding {'a' if k == '1' else 'both'} seven{'s' if k == '2' else ''} of trump (the Dissle), "
             f"counted with {SUIT_NAMES['E']} as trump (every suit alike).")
    m = re.fullmatch(r"meld_mean_(best|trump_([EGHS]))", code)
    if m:
        at = "at the best trump" if m.group(1) == "best" else f"with {SUIT_NAMES[m.group(2)]} trump"
        return f"mean meld total {at}".replace(" at the best trump", ""), f"Mean meld points of a hand {at}."
    m = re.fullmatch(r"meld_at_least_(\d+)_best", code)
    if m:
        return f"meld total ≥ {m.group(1)}", f"P(meld points at the best trump ≥ {m.group(1)})."
    m = re.fullmatch(r"meld_pmf_(best|trump_([EGHS]))_(\d+)", code)
    if m:
        at = "" if m.group(1) == "best" else f" ({SUIT_NAMES[m.group(2)]} trump)"
        return f"meld total = {m.group(3)}{at}", f"P(meld points = {m.group(3)}{at or ' at the best trump'})."
    return None


def words(code: str) -> str:
    """Player words for a code name (event, column or figure); unknown names come back as they are."""
    if code in COLUMNS:
        return COLUMNS[code][0]
    e = _event(str(code))
    return e[0] if e else str(code)


def define(code: str) -> str:
    """One-line definition of a code name or figure ('' when there is none)."""
    if code in COLUMNS:
        return COLUMNS[code][1]
    if code in FIGURES:
        return FIGURES[code]
    e = _event(str(code))
    return e[1] if e else ""


def anchor(code: str) -> str:
    """The HTML id / Markdown anchor of a glossary entry.

    >>> anchor("p_make_se")
    'g-p_make_se'
    """
    return "g-" + re.sub(r"[^A-Za-z0-9_]+", "-", str(code)).strip("-")


def entries(codes) -> list[tuple[str, str, str]]:
    """(anchor, words, definition) for each distinct code with a definition, in first-seen order."""
    out, seen = [], set()
    for c in codes:
        if c in seen:
            continue
        seen.add(c)
        d = define(c)
        if d:
            out.append((anchor(c), words(c) if c not in FIGURES else c, d))
    return out
