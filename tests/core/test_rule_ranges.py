"""Rules with bounds: every numeric key has a range checked at load, and at the maxima no kernel overflows."""

from __future__ import annotations

import typing
from dataclasses import fields

import numpy as np
import pytest
from numba import njit

from binokel_sim.cards import counts_of, parse_cards
from binokel_sim.errors import InputError
from binokel_sim.rules import _SECTIONS, RANGES, MELD_RANKS, Talon, load_rules
from clitools import assert_one_line_error, run_cli, run_json

#: Keys that need a layout of their own (set at their maximum in the matching test only).
LAYOUT_ONLY = {"layout.players", "layout.hand_size", "layout.tapp_size", "melds.grand_binokel",
               "scoring.dealer_bonus", "talon.turned_seven"}


def numeric_keys() -> set[str]:
    out = set()
    for name, cls in {**_SECTIONS, "talon": Talon}.items():
        hints = typing.get_type_hints(cls)
        out |= {f"{name}.{f.name}" for f in fields(cls) if hints[f.name] in (int, dict[str, int])}
    return out


def toml_value(key: str, value: int | bool) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if key in ("melds.four", "melds.eight"):
        return "{ " + ", ".join(f"{r} = {value}" for r in MELD_RANKS) + " }"
    return str(value)


def rules_text(inherits: str, values: dict[str, int | bool]) -> str:
    """A rules file inheriting ``inherits`` with ``values`` set (sections in any order)."""
    sections: dict[str, list[str]] = {}
    for key, v in values.items():
        sec, name = key.split(".")
        sections.setdefault(sec, []).append(f"{name} = {toml_value(key, v)}")
    body = "".join(f"[{sec}]\n" + "\n".join(lines) + "\n" for sec, lines in sections.items())
    return f'inherits = "{inherits}"\nname = "at-the-bounds"\n{body}'


def maxima(*extra: str) -> dict[str, int]:
    return {k: hi for k, (lo, hi) in RANGES.items() if k not in LAYOUT_ONLY or k in extra}


def write(tmp_path, text: str, name: str = "max.toml") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_every_numeric_key_has_one_range():
    assert set(RANGES) == numeric_keys()
    assert all(0 <= lo < hi for lo, hi in RANGES.values())


@pytest.mark.parametrize("base,extra", [("standard-48", ()), ("standard", ()), ("kreuz-48", ()),
                                        ("four-dealer-out", ("scoring.dealer_bonus",))])
def test_every_maximum_is_accepted(tmp_path, base, extra):
    r = load_rules(write(tmp_path, rules_text(base, maxima(*extra))))
    assert r.play.last_trick == 1000 and r.melds.eight == {k: 3000 for k in MELD_RANKS}
    assert r.bidding.min_bid == 600 and r.game.target == RANGES["game.target"][1]


def test_the_talon_maxima_are_accepted(tmp_path):
    values = {"melds.grand_binokel": 1000, "talon.turned_seven": 1000, "play.last_trick": 1000,
              "melds.trump_family": 1000, "melds.pair": 1000, "melds.trump_pair": 1000, "melds.binokel": 1000,
              "melds.double_binokel": 3000, "melds.four": 1000, "melds.eight": 3000, "melds.dissle": 1000}
    r = load_rules(write(tmp_path, rules_text("two-hand", values)))
    assert r.melds.grand_binokel == 1000 and r.talon.turned_seven == 1000


@pytest.mark.parametrize("key", sorted(RANGES))
def test_one_past_either_end_is_one_line_naming_the_key_and_its_range(tmp_path, capsys, key):
    lo, hi = RANGES[key]
    shown = f"{key}.A" if key in ("melds.four", "melds.eight") else key
    base = "two-hand" if key in ("melds.grand_binokel", "talon.turned_seven") else "standard"
    for bad in (hi + 1, lo - 1, 9223372036854775807):
        path = write(tmp_path, rules_text(base, {key: bad}))
        with pytest.raises(InputError) as exc:
            load_rules(path)
        assert str(exc.value) == f"rules: {shown} must be {lo}..{hi}, got {bad}"
    assert_one_line_error(capsys, "melds", "EA", "--rules", path, contains=f"rules: {shown} must be {lo}..{hi}")


def test_the_issue_example(tmp_path, capsys):
    path = write(tmp_path, 'inherits = "standard"\nname = "x"\n[play]\nlast_trick = 9223372036854775807\n')
    line = assert_one_line_error(capsys, "solve", "--hands", "EA / EK / EO", "--trump", "E", "--rules", path)
    assert line == "error: --rules: play.last_trick must be 0..1000, got 9223372036854775807"


def test_melds_at_the_maxima(tmp_path, capsys):
    path = write(tmp_path, rules_text("standard-48", maxima()))
    # Leaf double family in trumps, both leaf Obers and bell Unters, both trump Sevens.
    hand = "GA GA G10 G10 GK GK GO GO GU GU SU SU G7 G7 EA"
    rep = run_json(capsys, "melds", hand, "--trump", "G", "--rules", path)
    assert rep["total"] == 3000 + 3000 + 2 * 1000 == sum(m["points"] for m in rep["melds"])


@njit(cache=False)
def _best_total(h, ptab, cnt, kindpts, binpts, sevens):
    """The largest meld total (table units) of any hand of ``h`` cards: a walk over the four suits' patterns
    keeping, per cards used, the of-a-kind flags held in every suit so far and the leaf Obers (for Binokel)."""
    neg = -(1 << 60)
    best = neg
    for t in range(4):
        cur = np.full((h + 1, 4096, 3), neg, dtype=np.int64)
        cur[0, 4095, 0] = 0
        for s in range(4):
            nxt = np.full((h + 1, 4096, 3), neg, dtype=np.int64)
            for x in range(729):
                if not sevens and x >= 243:  # a Seven held (the top base-3 digit)
                    continue
                v = ptab[x, 0] + (ptab[x, 1] if s == t else 0)
                for used in range(h + 1 - cnt[x]):
                    for f in range(4096):
                        for o in range(3):
                            b = cur[used, f, o]
                            if b == neg:
                                continue
                            o2 = ptab[x, 3] if s == 1 else min(o, ptab[x, 4]) if s == 3 else o
                            if b + v > nxt[used + cnt[x], f & ptab[x, 2], o2]:
                                nxt[used + cnt[x], f & ptab[x, 2], o2] = b + v
            cur = nxt
        for f in range(4096):
            for o in range(3):
                if cur[h, f, o] != neg:
                    best = max(best, cur[h, f, o] + kindpts[f] + binpts[o])
    return best


@pytest.mark.slow
def test_no_hand_melds_enough_to_overflow_the_solver(tmp_path):
    """At the maxima, the largest meld total of a hand (15 cards at three, 11 at four with a partner) keeps a
    side's solver value (card points, last trick, both partners' melds) well inside the table's 16-bit bounds."""
    from binokel_sim.melds.patterns import N_PATTERNS, score_tables
    from binokel_sim.play.solver.table import INF

    r = load_rules(write(tmp_path, rules_text("standard-48", maxima())))
    st = score_tables(r)
    cnt = np.array([sum((x // 3**k) % 3 for k in range(6)) for x in range(N_PATTERNS)], dtype=np.int64)
    most = {h: int(_best_total(h, st.ptab, cnt, st.kindpts, st.binpts, True)) * st.unit for h in (11, 15)}
    assert most == {11: 9000, 15: 12000}
    assert 240 + RANGES["play.last_trick"][1] + max(most[15], 2 * most[11]) + RANGES["bidding.bid_step"][1] < INF


def test_solver_values_at_the_maxima():
    """A side of two partners, each with the largest meld total of 11 cards (9 000), the last trick at 1 000:
    the exact value stays exact (16-bit table bounds under 30 000)."""
    from binokel_sim.play.solver import max_points_batch

    hands = ["EA GU", "EU GO", "HA GA", "EO HU"]  # no trump: seat 0 wins with EA, seat 2 with GA
    counts = np.stack([counts_of(parse_cards(h)) for h in hands])[None]
    args = (counts, np.array([-1], np.int8), np.array([0], np.int8), np.array([0b0101], np.uint8))
    plain = int(max_points_batch(*args, np.zeros((1, 4), np.int32), 0)[0])
    bonus = np.array([[9000, 0, 9000, 0]], np.int32)
    assert plain == 45  # every card point: the side takes both tricks
    assert int(max_points_batch(*args, bonus, 1000)[0]) == 45 + 1000 + 2 * 9000


def test_bid_at_the_maxima(tmp_path, capsys):
    # Partners (two meld bonuses in the solver) at every maximum; 40 cards keep the solves quick.
    # No Durch: it would be worth more than any trump game here, and the trump games are the test.
    path = write(tmp_path, rules_text("kreuz", {**maxima(), "durch.allowed": False}))
    hand = "EA E10 EK EO EU GK GO SU SU"
    code, out, err = run_cli(capsys, "bid", hand, "--rules", path, "--samples", "2", "--policy", "melds", "--json")
    assert code == 0, err
    import json

    rep = json.loads(out)
    bids = [b["bid"] for b in rep["bids"]]
    assert bids == sorted(bids) and bids[0] == 600
    assert all(0 <= b["p_make"] <= 1 for b in rep["bids"])
