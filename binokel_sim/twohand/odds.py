"""Two-hand meld odds (docs/rules.md §10): Monte Carlo beside exact combinatorics.

Trump is the suit of the turned card. Events (trump-relative): ``trump_pair``,
``pair_plain`` (a King and Ober of one plain suit), ``trump_family``, ``four_{A,K,O,U}``,
``eight_{A,K,O,U}``, ``binokel``, ``grand_binokel``, ``double_binokel``, ``trump_seven``
(a Diss). Each is "holds the cards of that combination".

Scopes (the drawing model: a player keeps everything he draws, never plays or melds it away):

* ``dealt``: a player's 12 dealt cards (both seats; n counts hands);
* ``talon-out-no-turned``: the 12 dealt plus 12 drawn from the face-down talon --
  the player who wins every talon-phase trick, so draws first and never gets the turned card;
* ``talon-out-with-turned``: the 12 dealt, 11 from the talon and the turned card --
  his opponent, who draws last.

Exact values condition on the turned card (each of the 24 types 1/24): the
holding is a uniform subset of the 47 other cards (plus the turned card where it is
held), so each event is a sum over the counts of the few card types it involves of
products of binomials (hypergeometric). Monte Carlo: seeded deals of the two-hand
dealer, seat 0's draws are talon cards 1, 3, ..., 23, seat 1's the rest and the turned
card. The standard error is cluster-robust over deals (the two hands of a deal are dependent).

>>> from binokel_sim.rules import load_rules
>>> round(exact_event("binokel", 12, False), 6), round(exact_event("trump_family", 24, False), 6)
(0.185708, 0.170424)
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from binokel_sim import streams
from binokel_sim.cards import RANK_10, RANK_7, RANK_A, RANK_K, RANK_O, RANK_U, card_type
from binokel_sim.melds.twohand import GK, GO, SU

SCOPES = ("dealt", "talon-out-no-turned", "talon-out-with-turned")
_R = {"A": RANK_A, "K": RANK_K, "O": RANK_O, "U": RANK_U}
#: Deals per batch of the Monte Carlo.
CHUNK = 100_000
#: Stream id of the two-hand odds deals.
ODDS_STREAM = streams.stream("twohand_odds")


def _events(trump: int) -> dict[str, list[tuple[tuple[int, int], ...]]]:
    """Event -> alternatives, each a tuple of (card type, copies needed); the event holds if any does."""
    ev: dict[str, list[tuple[tuple[int, int], ...]]] = {
        "trump_pair": [((card_type(trump, RANK_K), 1), (card_type(trump, RANK_O), 1))],
        "pair_plain": [((card_type(s, RANK_K), 1), (card_type(s, RANK_O), 1)) for s in range(4) if s != trump],
        "trump_family": [tuple((card_type(trump, r), 1) for r in (RANK_A, RANK_10, RANK_K, RANK_O, RANK_U))],
    }
    for n, word in ((1, "four"), (2, "eight")):
        for r, rank in _R.items():
            ev[f"{word}_{r}"] = [tuple((card_type(s, rank), n) for s in range(4))]
    ev["binokel"] = [((GO, 1), (SU, 1))]
    ev["grand_binokel"] = [((GK, 1), (GO, 1), (SU, 1))]
    ev["double_binokel"] = [((GO, 2), (SU, 2))]
    ev["trump_seven"] = [((card_type(trump, RANK_7), 1),)]
    return ev


EVENTS = tuple(_events(0))


def exact_event(event: str, drawn: int, with_turned: bool) -> float:
    """Exact probability of ``event`` for a holding of ``drawn`` cards from the 47 not turned
    (plus the turned card when ``with_turned``); trump = the turned card's suit."""
    total = 0.0
    for turned in range(24):  # each turned card 1/24; the binokel cards break the suits' symmetry
        alts = _events(turned // 6)[event]
        types = sorted({t for alt in alts for t, _ in alt})
        pool = [2 - (t == turned) for t in types]
        rest = 47 - sum(pool)
        p = 0.0
        for ks in itertools.product(*(range(n + 1) for n in pool)):
            k = sum(ks)
            if k > drawn:
                continue
            have = {t: kt + (with_turned and t == turned) for t, kt in zip(types, ks)}
            if any(all(have[t] >= need for t, need in alt) for alt in alts):
                p += math.prod(math.comb(n, kt) for n, kt in zip(pool, ks)) * math.comb(rest, drawn - k)
        total += p / math.comb(47, drawn) / 24
    return total


def _holdings(rows: np.ndarray) -> list[np.ndarray]:
    """Per scope, int8[deals, 2, 24] counts of each seat's holding (see the module docstring)."""
    n = rows.shape[0]
    talon = rows[:, 25:]
    parts = {
        "dealt": (rows[:, :12], rows[:, 12:24]),
        "no": (np.concatenate([rows[:, :12], talon[:, 0::2]], 1), np.concatenate([rows[:, 12:24], talon[:, 1::2]], 1)),
    }
    out = []
    for a, b in (parts["dealt"], parts["no"]):
        c = np.zeros((n, 2, 24), dtype=np.int8)
        for s, part in enumerate((a, b)):
            np.add.at(c[:, s], (np.arange(n)[:, None], part), 1)
        out.append(c)
    # Seat 1 in the talon-out scope holds the turned card; seat 0 does not.
    np.add.at(out[1][:, 1], (np.arange(n), rows[:, 24]), 1)
    return out


def tally(rows: np.ndarray):
    """(scope, event) -> per-deal count of members holding the event (int64[deals])."""
    dealt, out_ = _holdings(rows)
    trump = rows[:, 24] // 6
    for scope in SCOPES:
        src = dealt if scope == "dealt" else out_
        for event in EVENTS:
            hit = np.zeros((rows.shape[0], 2), dtype=bool)
            for t in range(4):
                sel = trump == t
                for alt in _events(t)[event]:
                    h = np.ones((int(sel.sum()), 2), dtype=bool)
                    for ct, need in alt:
                        h &= src[sel, :, ct] >= need
                    hit[sel] |= h
            c = hit.sum(1) if scope == "dealt" else hit[:, 0 if scope == SCOPES[1] else 1]
            yield (scope, event), c.astype(np.int64)

