"""``binokel bid``: what should this hand bid? P(make) and expected score per bid, ceiling and safe bid."""

from __future__ import annotations

import click
import numpy as np

from binokel_sim.evaluation import EXACT_EVERY
from binokel_sim.evaluation.ladder import SEMANTICS
from binokel_sim.evaluation.pass_value import OBJECTIVES
from binokel_sim.exchange.candidates import POLICIES
from binokel_sim.game.bid_answer import checked_bid, instant_bid, with_gain
from binokel_sim.output import write_table

from .common import echo_json, json_option, out_option, quiet_option, rules_option, seed_option, wrapped
from .scale_options import scale_options
from .study_options import solve_budget_option
from .numbers import Real, Whole


#: Where a player finds the words of the report explained.
GLOSSARY_LINE = ("words: P(make), ceiling, safe bid, vs pass and the three Tapp figures are explained in the"
                 " manual's glossary (docs/glossary.md)")


def _fmt(mean_se: tuple[float, float], digits: int = 1) -> str:
    """``mean ± se``; ``(n too small)`` where no error can be estimated (a single sample).

    >>> _fmt((12.34, 1.5)), _fmt((12.34, float("nan")))
    ('12.3 ± 1.5', '12.3 (n too small for an error)')
    """
    if not np.isfinite(mean_se[1]):
        return f"{mean_se[0]:.{digits}f} (n too small for an error)"
    return f"{mean_se[0]:.{digits}f} ± {mean_se[1]:.{digits}f}"


def columns_line(rules, objective: str = "own") -> str:
    """What each column of the bid table counts, in the rules' own factors (``objective``: what "vs pass"
    compares)."""
    ff = rules.scoring.failure_factor
    out = (f", -{rules.surrender.penalty_factor} x bid when he goes out" if rules.surrender.allowed else "")
    vs = ("vs pass = E[score] minus what passing is worth to him (his score as a defender, with its error)"
          if objective == "own" else
          "E[margin] = E[score] minus the other seats' expected mean score; vs pass = E[margin] minus what passing"
          " is worth to him in the same measure (with its error)")
    return (f"columns: P(make) = share of deals he plays and makes the bid [95% interval]; E[score] = the soloist's"
            f" own score at that bid: his total when made, -{ff} x bid when failed{out}; a Durch/Bettel its own"
            f" score (± its standard error); {vs}: bid up to the last bid of the run from the minimum where it is"
            " positive.")


def shown_rows(bids: list[dict], keep: tuple, rows: int = 40, around: int = 3) -> list[dict | int]:
    """The rows of the table to print: all when they fit in ``rows``; else the first and last row and every
    row from ``around`` rows below the lowest bid in ``keep`` (the safe bid, the ceiling, "bid up to") to
    ``around`` rows above the highest, so no row between the deciding bids is hidden; an int (how many rows)
    stands for each gap.

    >>> b = [{"bid": 150 + 10 * i} for i in range(60)]
    >>> [r if isinstance(r, int) else r["bid"] for r in shown_rows(b, (400, 430), rows=10, around=1)]
    [150, 23, 390, 400, 410, 420, 430, 440, 29, 740]
    """
    if len(bids) <= rows:
        return list(bids)
    at = [i for i, r in enumerate(bids) if r["bid"] in {k for k in keep if k is not None}]
    want = {0, len(bids) - 1}
    if at:
        want |= set(range(max(0, min(at) - around), min(len(bids), max(at) + around + 1)))
    out: list[dict | int] = []
    last = -1
    for i in sorted(want):
        if i > last + 1:
            out.append(i - last - 1)
        out.append(bids[i])
        last = i
    return out


def render(ev, rows: int = 40, vs=None, no_pass: str | None = None) -> str:
    """The readable report: provenance, the bid table, then the summary figures; ``vs``: the ladder weighed
    against passing (:class:`~binokel_sim.evaluation.pass_value.VersusPass`), ``no_pass`` why there is none."""
    stop = ""
    if ev.se_target is not None:
        stop = (f" (stopped early: P(make) at the safe bid known to +-{ev.se_target:g})" if ev.n < ev.samples_requested
                else f" (all {ev.samples_requested}: +-{ev.se_target:g} not reached)")
    lines = [
        f"hand    {ev.hand}   (seat {ev.seat}, rules {ev.rules.name})",
        f"policy  {ev.settings.policy}, n = {ev.n} deals{stop}, seed {ev.seed}, {ev.seconds:.1f} s",
        *_method_lines(ev),
        f"going out after the Tapp decided by {ev.surrender_basis}",
        SEMANTICS + " (a surrender counts as not made)",
        columns_line(ev.rules, vs.objective if vs else "own"),
        "",
        *_table_lines(with_gain(ev.bids.to_dict(orient="records"), vs), rows,
                      (ev.ceiling_bid, ev.safe_bid, vs.bid_up_to if vs else None)),
    ]
    lines += [
        "",
        *versus_lines(vs, no_pass),
        *_decision_lines(ev.ceiling_bid, ev.safe_bid, ev.order_note, ev.confidence),
        f"Tapp value:  {_fmt(ev.tapp_value)}   (total {_fmt(ev.total_with_tapp)} with it,"
        f" {_fmt(ev.total_tapp_unseen)} laid away unseen, {ev.baseline_contract})",
        "contracts:   " + ", ".join(f"{r.contract} {r.share:.1%}" for r in ev.contracts.itertuples() if r.share > 0),
        "P(makeable Durch): {mean:.3f} [{lo:.3f}, {hi:.3f}] (n = {n})".format(**ev.p_durch_interval()._asdict()),
        GLOSSARY_LINE,
    ]
    return "\n".join(lines)


def _method_lines(ev) -> list[str]:
    if not ev.deciding_bids:
        return [f"every deal solved exactly ({ev.n_exact})"]
    last = ev.deciding_bids[-1][2:]
    open_ = ([f"{ev.unresolved:.1%} of the deals not resolved within the solve budget: counted as not made where"
              " open, so P(make) and the totals are lower bounds"] if ev.unresolved else [])
    return open_ + [
        f"{ev.n_exact} deals solved exactly (every {ev.settings.exact_every}th, also with the Tapp laid away);"
        f" the others only at bids {', '.join(map(str, last))} (the safe bid and the ceiling, each with the"
        " next bid), the ladder corrected by the exact deals (difference estimator, its error in ±)"]


def versus_lines(vs, no_pass: str | None) -> list[str]:
    """The advice against passing: the pass value and "bid up to X" (or why it is missing)."""
    if vs is None:
        return [f"passing: {no_pass}"] if no_pass else []
    return [vs.passing.line(), vs.line()]


def _decision_lines(ceiling: int | None, safe: int | None, note: str | None, confidence: float) -> list[str]:
    return [f"ceiling bid (highest with E[score] > 0): {ceiling if ceiling is not None else 'none: pass'}",
            f"safe bid (P(make) >= {round(confidence * 100)}%):             {safe if safe is not None else 'none'}",
            *([f"note: {note}"] if note else [])]


def _table_lines(bids: list[dict], rows: int, keep: tuple = ()) -> list[str]:
    """The bid table, at most :data:`~binokel_sim.cli.common.WIDTH` columns wide with every column there is
    (the margin objective's E[margin], vs pass, the ladder at a budgeted corpus's proven bounds)."""
    bounds = bool(bids) and "p_make_lower" in bids[0]
    gain = bool(bids) and "gain_vs_pass" in bids[0]
    margin = gain and "expected_margin" in bids[0]   # the margin objective: what "vs pass" compares
    lines = [f"{'bid':>5} {'P(make) [95% int.]':>19} {'E[score] ± se':>15} {'go out':>6}"
             + (f" {'E[margin]':>9}" if margin else "") + (f" {'vs pass':>8}" if gain else "")
             + (f"  {'P(make) at bounds':<17}{'E[score] at bounds'}" if bounds else "")]
    for r in shown_rows(bids, keep, rows):
        if isinstance(r, int):
            lines.append(f"  ... {r} rows (--json or --out for all)")
            continue
        se = r["expected_score_se"]
        err = f"± {se:5.1f}" if np.isfinite(se) else "(n < 2)"
        lines.append(f"{r['bid']:>5} {r['p_make']:.3f} [{r['p_make_lo']:.3f},{r['p_make_hi']:.3f}]"
                     f" {r['expected_score']:>7.1f} {err:>7} {r['p_surrender']:>6.3f}"
                     + (f" {r['expected_margin']:>9.1f}" if margin else "")
                     + (f" {r['gain_vs_pass']:>+8.1f}" if gain else "")
                     + (f"  {r['p_make_lower']:.3f} .. {r['p_make_upper']:.3f}   "
                        f"{r['expected_score_lower']:7.1f} .. {r['expected_score_upper']:.1f}" if bounds else ""))
    return lines


def render_instant(a, hand: str, seat: int, rules, confidence: float, rows: int = 40, vs=None,
                   no_pass: str | None = None, table: list[dict] | None = None) -> str:
    """The instant tier's report of ``a`` (:class:`~binokel_sim.evaluation.instant_advice.InstantAdvice`): the same
    table and semantics as the checked tier (``vs``, ``no_pass``: as :func:`render`; ``table``: the ladder's rows
    with the gain over passing where already joined)."""
    p = a.provenance
    real = a.play == "single-dummy"
    lines = [f"hand    {hand}   (seat {seat}, rules {rules.name})",
             *([f"play: single-dummy at every seat (each seat sees its own hand, the Tapp and the declared melds; "
                f"{p.get('worlds')} sampled deals a decision), the totals of the single-dummy corpus {p.get('corpus')}"]
               if real else []),
             f"instant model: {a.basis} (seed {p.get('seed')}, policy {p.get('policy')}),"
             f" fitted total {a.total:.0f}" + ("" if real else "; check with --samples N"),
             f"going out after the Tapp decided by {a.surrender_decided_by}",
             SEMANTICS + " (a surrender counts as not made)", columns_line(rules, vs.objective if vs else "own"),
             *_open_lines(a.bounds), "",
             *_table_lines(table if table is not None else with_gain(a.ladder.records(), vs), rows,
                           (a.ceiling_bid, a.safe_bid, vs.bid_up_to if vs else None)), ""]
    lines += [*versus_lines(vs, no_pass),
              *_decision_lines(a.ceiling_bid, a.safe_bid, a.order_note, confidence),
              *_bounds_lines(a.bounds),
              tapp_line(a.tapp_value, real), GLOSSARY_LINE]
    return "\n".join(lines)


def tapp_line(tv, real: bool = False) -> str:
    """The Tapp's value for the hand (:class:`~binokel_sim.evaluation.instant_advice.TappValue`): its own drawn
    Tapps with the corpus's hands like it as a reference, or (a model without draws) the line of hands like
    it, labelled as such."""
    cards = " (open cards)" if real else ""
    if tv.reference is not None:
        r = tv.reference
        return (f"Tapp value{cards} for this hand: {tv.mean:.1f} ± {tv.se:.1f} ({tv.n} Tapps drawn for it"
                f" through the exchange; one Tapp's spread sd {tv.sd:.1f}); hands like it in the corpus:"
                f" {r.mean:.1f} ± {r.se:.1f} (n = {r.n})")
    return (f"Tapp value{cards} of hands like this (the corpus's line, not this hand's own Tapps):"
            f" {tv.mean:.1f} ± {tv.se:.1f} (n = {tv.n}; one deal's spread sd {tv.sd:.1f})")


def _bounds_lines(b) -> list[str]:
    """Ceiling and safe bid at the proven bounds (``b``: :class:`~binokel_sim.evaluation.instant_advice.ProvenBounds`
    of a model fitted on a budgeted corpus; None elsewhere)."""
    if b is None:
        return []
    show = lambda x: "none" if x is None else str(x)  # noqa: E731
    return [f"at the proven bounds: ceiling {show(b.ceiling_bid_lower)} .. {show(b.ceiling_bid_upper)},"
            f" safe {show(b.safe_bid_lower)} .. {show(b.safe_bid_upper)}"]


def _open_lines(b) -> list[str]:
    """What a model fitted on a budgeted corpus stands on (none for exact corpora)."""
    if b is None:
        return []
    return [f"{b.open_share:.1%} of the corpus totals are open (the solver proved a range, not the exact total,"
            " within its budget): the main columns place each inside its range as the fitted model expects;"
            " 'at bounds' puts every open total at the low .. the high end of its range (what the corpus proves)"]


def _why_no_sd_model(rules) -> str | None:
    """Where the library found no single-dummy model: what the single-dummy corpus of a 40-card preset lacks
    (its build command), else None (the library's own line stands: 48 cards, or a corpus with no model fitted)."""
    from binokel_sim.analyses.sd_instant import missing
    from binokel_sim.play.dd import BUDGET_MIN_CARDS

    if rules.layout.deck_size >= BUDGET_MIN_CARDS:  # the study plays no 48-card preset: nothing to build
        return None
    why = missing(rules)
    return f"--play single-dummy: {why}" if why else None


@click.command("bid", short_help="What should this hand bid? P(make), E[score] per bid.")
@click.argument("hand")
@click.option("--seat", type=Whole(0), default=0, show_default=True,
              help="The hand's seat (0 = forehand); decides who leads the first trick.")
@rules_option
@click.option("--samples", type=Whole(1), default=None,
              help="Checked tier: random deals of the unseen cards, played double-dummy. Without it: the instant"
                   " tier (a model fitted on the shipped corpus).")
@seed_option
@click.option("--confidence", type=Real(), default=0.8, show_default=True, help="P(make) the safe bid needs (0..1).")
@click.option("--se", type=Real(), default=None,
              help="Stop early once P(make) at the safe bid is known to +-SE (e.g. 0.02); deterministic per seed.")
@click.option("--policy", type=click.Choice(POLICIES), default="heuristic", show_default=True,
              help="Checked tier's exchange policy: heuristic (seconds), melds, or sampled (double-dummy on inner"
                   " deals: minutes to hours).")
@click.option("--inner", type=Whole(1), default=4, show_default=True,
              help="sampled: inner deals per candidate exchange.")
@click.option("--top-k", type=Whole(1), default=3, show_default=True,
              help="sampled: trump candidates played out per deal.")
@click.option("--exact-every", type=Whole(1), default=EXACT_EVERY, show_default=True,
              help="Checked tier: every Nth sample is solved exactly (with the Tapp laid away, for the Tapp value);"
                   " the others only at the deciding bids, corrected by the exact ones. 1: all exactly (slow).")
@click.option("--play", type=click.Choice(["double-dummy", "single-dummy"]), default="double-dummy",
              show_default=True, help="How the cards are played: open cards, or each seat seeing only its own hand "
                                      "(the instant tier fitted on the single-dummy corpus).")
@click.option("--objective", type=click.Choice(list(OBJECTIVES)), default="own", show_default=True,
              help="What 'bid up to' weighs against passing: own (the seat's score) or margin (its score minus the"
                   " mean of the other seats', for a game to a target).")
@solve_budget_option
@out_option("Write the bid table to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
@scale_options
def bid_cmd(hand, seat, rules, samples, seed, confidence, se, policy, inner, top_k, exact_every, objective,
            solve_budget, play, out, as_json, quiet, scale) -> None:
    """Evaluate HAND before the auction: P(make) and expected score for every bid.

    \b
    Examples:
      binokel bid "EA EA E10 EK EO EU GA G10 HA H10 SA S10"
      binokel bid "EA EA E10 EK EO EU GA G10 HA H10 SA S10" --samples 1000 --policy heuristic --se 0.02
    """
    from binokel_sim.errors import InputError, MissingModel

    # The library checks the hand, the seat, the confidence and --se (its messages name the options).
    if scale.checkpoint or scale.scheduler:
        raise InputError("binokel bid runs on local threads only: --checkpoint and --scheduler do not apply")
    if play == "single-dummy" and samples is not None:
        raise InputError("--play single-dummy: the checked tier (--samples) plays open cards only")
    if se is not None and samples is None:
        raise InputError("--se: stops the checked tier early; give --samples N with it")
    if samples is None:
        try:
            ans = instant_bid(hand, rules, seat, confidence, objective, play)
        except MissingModel:
            why = _why_no_sd_model(rules) if play == "single-dummy" else None
            if why is None:
                raise
            raise InputError(why) from None
        if out is not None:
            import pandas as pd

            write_table(pd.DataFrame(ans.rows), out)
        if as_json:
            echo_json(ans.to_json())
        else:
            click.echo(wrapped(render_instant(ans.advice, ans.hand, seat, rules, confidence, vs=ans.versus,
                                              no_pass=ans.no_pass, table=ans.rows)))
        return
    from binokel_sim.evaluation.hand import EvalSettings

    st = EvalSettings(policy=policy, inner=inner, top_k=top_k, exact_every=exact_every, solve_budget=solve_budget)
    ans = checked_bid(hand, rules, seat, samples, seed, confidence, objective, st, se, scale)
    if out is not None:
        import pandas as pd

        write_table(pd.DataFrame(ans.rows), out)
    if as_json:
        echo_json(ans.to_json())
        return
    side = ans.instant_side
    click.echo(wrapped(render(ans.evaluation, vs=ans.versus)))
    click.echo(wrapped("instant tier: no model fitted for these rules" if side is None else
                       f"instant tier ({side['basis']}): ceiling {side['ceiling_bid']}, safe {side['safe_bid']};"
                       f" {side['line']}"))
