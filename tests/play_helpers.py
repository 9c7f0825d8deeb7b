"""Deals in play for the single-dummy tests: the double-dummy studies' deal, exchange and trump."""

from __future__ import annotations

import numpy as np

from binokel_sim.evaluation.deals import EvalSettings, play_deals
from binokel_sim.studies.deals import deal_frame
from binokel_sim.play.knowledge import PlayState
from binokel_sim.rules import load_rules
from binokel_sim.runner import Chunk


def study_state(preset: str, deal: int, seed: int = 1):
    """(rules, the deal at its first trick, {open-card total, took, discard points, contract code}) of study deal
    ``deal``; a deal whose heuristic contract is a Durch or Bettel is not wanted here (asserted)."""
    r = load_rules(preset)
    _, hands, tapp = deal_frame(r, seed, Chunk(0, deal, deal + 1))
    s = deal % r.n_seats
    out = play_deals(r, s, hands, tapp, seed, EvalSettings(policy="heuristic"), np.array([deal]), baseline=False,
                     durch_check=False)
    code = int(out.code[0])
    assert code < 4, "a trump contract"
    kept = out.kept[0]
    h = hands[0].copy()
    h[s] = kept
    state = PlayState.start(r, h, hands[0, s] + tapp[0] - kept, tapp[0], code, s)
    return r, state, {"open": int(out.value[0]), "took": bool(out.took[0]),
                      "discard_points": int(out.discard_points[0]), "code": code}
