"""``binokel bid``: what should this hand bid? P(make) and expected score per bid, ceiling and safe bid."""

from __future__ import annotations

import click

from binokel_sim.evaluation.hand import EvalSettings, HandEvaluation, evaluate_hand
from binokel_sim.exchange.candidates import POLICIES
from binokel_sim.dealing.hand_input import read_hand
from binokel_sim.output import write_table

from .common import echo_json, json_option, out_option, quiet_option, rules_option, seed_option
from .scale_options import scale_options


def _fmt(mean_se: tuple[float, float], digits: int = 1) -> str:
    return f"{mean_se[0]:.{digits}f} ± {mean_se[1]:.{digits}f}"


def render(ev: HandEvaluation, rows: int = 40, quick: dict | None = None) -> str:
    """The readable report: provenance, the bid table, then the summary figures."""
    lines = [
        f"hand    {ev.hand}   (seat {ev.seat}, rules {ev.rules.name})",
        f"policy  {ev.settings.policy}, n = {ev.n} deals, seed {ev.seed}, {ev.seconds:.1f} s",
        "",
        f"{'bid':>5} {'P(make) [95% interval]':>24} {'E[score]':>17} {'P(go out)':>10}",
    ]
    shown = ev.bids.head(rows)
    for r in shown.itertuples():
        lines.append(f"{r.bid:>5} {r.p_make:>8.3f} [{r.p_make_lo:.3f}, {r.p_make_hi:.3f}] {r.expected_score:>9.1f}"
                     f" ± {r.expected_score_se:5.1f}"
                     f" {r.p_surrender:>10.3f}")
    if len(ev.bids) > rows:
        lines.append(f"  ... {len(ev.bids) - rows} more rows (--json or --out for all)")
    pct = round(ev.confidence * 100)
    lines += [
        "",
        f"ceiling bid (highest with E[score] > 0): {ev.ceiling_bid if ev.ceiling_bid is not None else 'none: pass'}",
        f"safe bid (P(make) >= {pct}%):             {ev.safe_bid if ev.safe_bid is not None else 'none'}",
        f"Tapp value:  {_fmt(ev.tapp_value)}   (total {_fmt(ev.total_with_tapp)} with it,"
        f" {_fmt(ev.total_tapp_unseen)} laid away unseen, {ev.baseline_contract})",
        "contracts:   " + ", ".join(f"{r.contract} {r.share:.1%}" for r in ev.contracts.itertuples() if r.share > 0),
        "P(makeable Durch): {mean:.3f} [{lo:.3f}, {hi:.3f}] (n = {n})".format(**ev.p_durch_interval()),
    ]
    if quick and not quick["usable"]:
        lines.append(quick["why"])
    elif quick:
        lines.append(f"hand formula (quick, n = {quick['n_train']} fit deals): total ~ {quick['total']:.0f}"
                     f" ± {quick['sd']:.0f}, ceiling {quick['ceiling_bid']}, safe {quick['safe_bid']}")
    return "\n".join(lines)


@click.command("bid", short_help="What should this hand bid? P(make), E[score] per bid.")
@click.argument("hand")
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="The hand's seat (0 = forehand); decides who leads the first trick.")
@rules_option
@click.option("--samples", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Random deals of the unseen cards.")
@seed_option
@click.option("--confidence", type=float, default=0.8, show_default=True, help="P(make) the safe bid needs (0..1).")
@click.option("--policy", type=click.Choice(POLICIES), default="sampled", show_default=True,
              help="Exchange policy: melds, heuristic, or sampled (double-dummy on inner deals).")
@click.option("--inner", type=click.IntRange(min=1), default=EvalSettings.inner, show_default=True,
              help="sampled: inner deals per candidate exchange.")
@click.option("--top-k", type=click.IntRange(min=1), default=EvalSettings.top_k, show_default=True,
              help="sampled: trump candidates played out per deal.")
@out_option("Write the bid table to FILE.csv, .parquet or .json.")
@json_option
@quiet_option
@scale_options
def bid_cmd(hand, seat, rules, samples, seed, confidence, policy, inner, top_k, out, as_json, quiet, scale) -> None:
    """Evaluate HAND before the auction: P(make) and expected score for every bid.

    \b
    Example:
      binokel bid "EA EA E10 EK EO EU GA G10 HA H10 SA S10" --samples 1000
    """
    from binokel_sim.errors import InputError

    if not 0.0 < confidence < 1.0:
        raise InputError(f"--confidence: must be between 0 and 1 (exclusive), got {confidence}")
    h = read_hand(hand, rules, size=rules.layout.hand_size)
    if seat >= rules.n_seats:
        raise InputError(f"--seat: expected 0..{rules.n_seats - 1} for preset {rules.name!r}, got {seat}")
    st = EvalSettings(policy=policy, inner=inner, top_k=top_k)
    ev = evaluate_hand(h.cards, rules, seat=seat, samples=samples, seed=seed, policy=policy, confidence=confidence,
                       settings=st, scale=scale)
    if out is not None:
        write_table(ev.bids, out)
    from binokel_sim.evaluation.formula import formula_advice

    quick = formula_advice(h.counts, rules, confidence)
    if as_json:
        echo_json({**ev.to_dict(), "formula": quick})
    else:
        click.echo(render(ev, quick=quick))
