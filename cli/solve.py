"""``binokel solve``: double-dummy values of a position, one or a batch.

    binokel solve --hands "EA E10 EK / GA GK GO / HA HK HO" --trump H --leader 0 --solo 0 --json
    binokel solve --batch positions.jsonl --json
    binokel solve --hands ... --trump H --grid 10 --lo 100 --hi 200   # only the 10-point interval
    binokel solve --hands ... --trump H --budget 5s                    # an interval within 5 seconds
    binokel solve --hands ... --trump H --targets 100,120              # at least 100? at least 120?
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click
import pandas as pd

from binokel_sim.errors import InputError
from binokel_sim.output import write_table
from binokel_sim.play.setup import build_position
from binokel_sim.play.solver import Solver, solve as solve_position
from binokel_sim.rules import Rules
from binokel_sim.play.solver.queries import parse_budget
from binokel_sim.play.solver.query_types import QUERIES, parse_query

from .common import echo_json, json_option, out_option, quiet_option, rules_option
from .numbers import MAX_POINTS, Whole

#: A point total, target or grid bound.
POINTS = Whole(-MAX_POINTS, MAX_POINTS)


def _text(result: dict[str, Any]) -> str:
    if "solo_points" in result:
        lines = [f"solo side points: {result['solo_points']}"]
    else:
        lines = [f"solo side points: {result['lo']}..{result['hi']} (not exact)"]
    if "reaches_target" in result:
        lines.append(f"reaches target:   {'yes' if result['reaches_target'] else 'no'}")
    if "reaches" in result:
        words = {True: "yes", False: "no", None: "open (budget spent)"}
        lines.append("reaches:          " + ", ".join(f"{t} {words[v]}" for t, v in result["reaches"].items()))
    if "card_values" in result:
        lines.append("card values:      " + "  ".join(f"{c} {v}" for c, v in result["card_values"].items()))
    for k in ("durch", "bettel"):
        if k in result:
            lines.append(f"{k}:{' ' * (16 - len(k))}{'yes' if result[k] else 'no'}")
    lines.append(f"nodes {result['nodes']}, {result['seconds']:.3f} s")
    return "\n".join(lines)


_BATCH_KEYS = {"hands", "trump", "leader", "solo", "teams", "trick", "target", "cards", "durch", "bettel",
               "need_trick", "query", "step", "lo", "hi", "budget_nodes", "budget_seconds", "targets"}


def _ints(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _strs(x: Any) -> bool:
    return isinstance(x, str) or (isinstance(x, list) and all(isinstance(c, str) for c in x))


#: What each position key of a batch line may hold (JSON types; the query's keys: parse_query), checked before use.
_BATCH_TYPES: dict[str, Callable[[Any], bool]] = {
    "hands": lambda v: isinstance(v, str) or (isinstance(v, list) and all(map(_strs, v))),
    "trump": lambda v: isinstance(v, str) or _ints(v),
    "teams": lambda v: isinstance(v, str) or (isinstance(v, list) and all(
        _ints(x) or (isinstance(x, list) and all(map(_ints, x))) for x in v)),
    "trick": _strs, **{k: _ints for k in ("leader", "solo", "target")},
    **{k: (lambda v: isinstance(v, bool)) for k in ("cards", "durch", "bettel", "need_trick")},
}


def _check_batch_types(obj: dict[str, Any]) -> None:
    for k, v in obj.items():
        if v is not None and k in _BATCH_TYPES and not _BATCH_TYPES[k](v):
            raise InputError(f"{k}: a value of the wrong type ({type(v).__name__})")


_QUERY_KEYS = ("query", "step", "lo", "hi", "budget_nodes", "budget_seconds", "targets")
_OPTIONS = {"query": "--query", "target": "--target", "step": "--grid", "lo": "--lo", "hi": "--hi",
            "budget_nodes": "--budget", "budget_seconds": "--budget", "targets": "--targets"}


def _targets(text: str | None) -> list[int] | None:
    """``"150,160,170"`` -> [150, 160, 170]."""
    if text is None:
        return None
    try:
        return [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise InputError(f"--targets: expected integers separated by commas, got {text!r}") from None


def _batch(path: str, rules: Rules, as_json: bool) -> list[dict[str, Any]]:
    """Solve every line of ``path``, printing each result as it comes (JSON lines with ``as_json``)."""
    solver = Solver()
    results = []
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read batch file {path}: {exc.strerror}") from None
    with fh:
        for no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path} line {no}: not JSON ({exc.msg})") from None
            try:
                if not isinstance(obj, dict):
                    raise InputError("expected a JSON object")
                unknown = sorted(set(obj) - _BATCH_KEYS)
                if unknown:
                    raise InputError(f"unknown key {unknown[0]!r}")
                if obj.get("hands") is None:
                    raise InputError("missing key 'hands'")
                _check_batch_types(obj)
                special = bool(obj.get("durch") or obj.get("bettel"))
                # In JSON, null is "no trump"; a missing key is an error unless Durch/Bettel.
                trump = obj.get("trump", "none" if special else None)
                pos = build_position(rules, obj["hands"], "none" if "trump" in obj and trump is None else trump,
                                     obj.get("leader"), obj.get("solo"), obj.get("teams"), obj.get("trick"),
                                     bool(obj.get("durch")), bool(obj.get("bettel")))
                target = obj.get("target")
                if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
                    raise InputError(f"target: expected an integer, got {target!r}")
                result = solve_position(pos, target=target, cards=bool(obj.get("cards")), durch=bool(obj.get("durch")),
                                        bettel=bool(obj.get("bettel")), need_trick=bool(obj.get("need_trick")),
                                        solver=solver, **{k: obj.get(k) for k in _QUERY_KEYS})
            except InputError as exc:
                sys.stdout.flush()  # the results of the lines before stay written
                raise InputError(f"{path} line {no}: {exc}") from None
            click.echo(json.dumps(result) if as_json else _text(result))
            results.append(result)
    return results


@click.command("solve", short_help="Exact double-dummy value of a position.")
@click.option("--hands", help='Hands in seat order separated by "/", e.g. "EA E10 ... / GK ... / ...".')
@click.option("--trump", help="Trump suit letter (E, G, H, S) or none.")
@click.option("--leader", type=Whole(0, 7), default=None,
              help="Seat leading the current trick (default: from the rules).")
@click.option("--solo", type=Whole(0, 7), default=None, help="The soloist's seat (default 0).")
@click.option("--teams", default=None, help="Seats of the soloist's side, e.g. 0,2 (default: from the rules).")
@click.option("--trick", default="", help="Cards already played to the current trick, the leader's first.")
@click.option("--target", type=POINTS, default=None,
              help="Also ask: can the soloist's side reach T points?")
@click.option("--need-trick", is_flag=True, help="With --target: the side must also win a trick.")
@click.option("--cards", is_flag=True, help="Also give the value of every legal card of the player to move.")
@click.option("--durch", is_flag=True, help="Also ask: can the soloist win every trick (no trump)?")
@click.option("--bettel", is_flag=True, help="Also ask: can the soloist avoid every trick (no trump)?")
@click.option("--batch", type=str, default=None, help="Solve every JSON line of this file (see the docs).")
@click.option("--query", type=click.Choice(QUERIES), default=None,
              help="What to ask (default: exact; grid with --grid, bounds with --budget; at_least needs --target).")
@click.option("--grid", "step", type=Whole(1, MAX_POINTS), default=None,
              help="Only the STEP-point interval holding the value.")
@click.option("--lo", type=POINTS, default=None,
              help="With --grid: lowest grid point (default 0).")
@click.option("--hi", type=POINTS, default=None,
              help="With --grid: grid points above HI are not searched.")
@click.option("--budget", default=None, help="An interval within a budget: seconds (5s) or nodes (200000n).")
@click.option("--targets", "targets_text", default=None,
              help="Decide 'at least T points?' for each T, e.g. 150,160,170 (the thresholds query).")
@rules_option
@json_option
@out_option("Write one row per position solved to FILE.csv, .parquet or .json.")
@quiet_option
def solve_cmd(hands, trump, leader, solo, teams, trick, target, need_trick, cards, durch, bettel, batch, query,
              step, lo, hi, budget, targets_text, rules, as_json, out, quiet) -> None:
    """Exact double-dummy play: points the soloist's side can guarantee, and more.

    With --batch and --json, one JSON object per line (in the order of the file).

    Two-hand (--rules two-hand): an endgame after the talon is exhausted -- two hands of
    equal size (at most 12), the trump suit, --leader, --trick (at most the lead), --solo
    (whose points), --target and --cards; exact only.
    """
    if rules.layout.kind == "talon":
        from binokel_sim.twohand.views import solve_endgame

        extra = [name for name, given in (("--durch", durch), ("--bettel", bettel), ("--teams", teams is not None),
                                          ("--batch", batch is not None), ("--need-trick", need_trick),
                                          ("--query", query is not None), ("--grid", step is not None),
                                          ("--lo", lo is not None), ("--hi", hi is not None),
                                          ("--budget", budget is not None),
                                          ("--targets", targets_text is not None)) if given]
        if extra:
            raise InputError(f"{extra[0]}: not for two-hand; it offers the exact endgame value with --hands, --trump, "
                             "--leader, --trick, --solo, --target and --cards")
        if hands is None:
            raise InputError("missing --hands (two-hand: the two endgame hands separated by '/')")
        result = solve_endgame(rules, hands, trump, leader, solo, trick, target, cards)
        if out is not None:
            write_table(pd.DataFrame([result]), out)
        if as_json:
            echo_json(result)
        else:
            click.echo(f"points: seat 0 (forehand) {result['points'][0]}, seat 1 (dealer) {result['points'][1]}")
            click.echo(_text(result))
        return
    if batch is not None:
        if hands is not None:
            raise InputError("give either --hands or --batch, not both")
        results = _batch(batch, rules, as_json)
        if out is not None:
            write_table(pd.DataFrame(results), out)
        return
    if hands is None:
        raise InputError("missing --hands (or --batch FILE)")
    if durch and bettel:
        raise InputError("give --durch or --bettel, not both")
    budget_nodes, budget_seconds = parse_budget(budget) if budget is not None else (None, None)
    targets = _targets(targets_text)
    if query is None:
        query = ("thresholds" if targets is not None else "grid" if step is not None or lo is not None or hi is not None
                 else "bounds" if budget else "exact")
    try:
        parse_query(query, target=target, step=step, lo=lo, hi=hi, budget_nodes=budget_nodes,
                    budget_seconds=budget_seconds, targets=targets)
    except InputError as exc:  # name the option the user typed, not the library's field
        field, _, rest = str(exc).partition(": ")
        raise InputError(f"{_OPTIONS.get(field, field)}: {rest}") from None
    pos = build_position(rules, hands, trump, leader, solo, teams, trick, durch, bettel)
    result = solve_position(pos, target=target, cards=cards, durch=durch, bettel=bettel, need_trick=need_trick,
                            query=query, step=step, lo=lo, hi=hi, budget_nodes=budget_nodes,
                            budget_seconds=budget_seconds, targets=targets)
    if out is not None:
        write_table(pd.DataFrame([result]), out)
    if as_json:
        echo_json(result)
    else:
        click.echo(_text(result))
