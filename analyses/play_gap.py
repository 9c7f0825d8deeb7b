"""Open cards against single-dummy play: what the double-dummy figures overstate (issue #37).

Deal ``i`` is the double-dummy studies' deal (stream ``study``, soloist ``i mod players``, the
``heuristic`` exchange and trump of :func:`binokel_sim.evaluation.deals.play_deals`), played three ways
on that one exchange:

* ``open``: every seat sees every card -- the double-dummy total every other study reports;
* ``sd``: every seat plays single-dummy (:class:`binokel_sim.play.single_dummy.SingleDummy`, ``worlds``
  sampled deals per decision, seeded by (seed, deal, decision));
* ``sd_solo``: the soloist's side single-dummy, the defenders with open cards.

A total is the soloist's side's, counted as the double-dummy studies count it (discards + tricks,
melds with a trick). A Durch or Bettel contract is kept with its open-card result and not played
single-dummy (``played`` False). Rows depend only on (rules, seed, deal, worlds), never on the chunking
or the worker count. The summaries: the totals and their paired differences ± SE, P(make) per bid under
each, the gap by meld class and by Tapp class, and the share of deals where the single-dummy soloist
fails a bid its open-card total makes (the highest such bid).

>>> import pandas as pd
>>> from binokel_sim.rules import load_rules
>>> d = pd.DataFrame({"played": [True, True], "open": [200, 160], "open_took": [True, True],
...                   "sd": [180, 160], "sd_took": [True, True], "sd_solo": [190, 150], "sd_solo_took": [True, True]})
>>> totals(d)[["figure", "mean", "se", "n"]].values.tolist()[3]
['sd - open', -10.0, 10.0, 2]
>>> fail_share(load_rules("standard"), d)[["mode", "share", "n"]].values.tolist()
[['sd', 0.5, 2], ['sd_solo', 1.0, 2]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from binokel_sim.contracts import CONTRACT_NAMES, is_trump
from binokel_sim.errors import InputError
from binokel_sim.play.dd import BUDGET_MIN_CARDS
from binokel_sim.evaluation.deals import EvalSettings, play_deals
from binokel_sim.studies.deals import deal_frame
from binokel_sim.play.knowledge import PlayState
from binokel_sim.play.playout import play_out, side_total
from binokel_sim.play.single_dummy import DealSolver, OpenCards, SingleDummy
from binokel_sim.rules import Rules, as_rules
from binokel_sim.runner import Chunk, Job, Scale

from .tapp_value import CLASSES, hand_class

#: The three ways a deal is played, and the figures' names for them.
MODES = ("open", "sd", "sd_solo")
#: Tapp classes: the Tapp's meld gain (melds-only Tapp value), right-closed bins.
TAPP_CLASSES = ([-np.inf, 0, 50, 100, np.inf], ["<=0", "1-50", "51-100", "101+"])


@dataclass(frozen=True)
class GapSettings:
    """How the study plays: ``worlds`` per decision, the decision ``tolerance`` (points of the mean), an optional
    ``budget`` per decision in exact solves of its first world (None: every choice proven), the exchange
    ``policy``."""

    worlds: int = 20
    tolerance: float = 0.5
    budget: float | None = None
    policy: str = "heuristic"

    def check(self) -> "GapSettings":
        if isinstance(self.worlds, bool) or not isinstance(self.worlds, int) or self.worlds < 1:
            raise InputError(f"worlds: must be at least 1, got {self.worlds!r}")
        if not 0 <= self.tolerance:
            raise InputError(f"tolerance: must not be negative, got {self.tolerance}")
        if self.budget is not None and not self.budget > 0:
            raise InputError(f"budget: must be positive, got {self.budget}")
        return self


def check_rules(rules: Rules) -> Rules:
    """The presets the study plays: an auction (a soloist and a Tapp) and fewer than 48 cards."""
    rules.require_auction("study play-gap")
    if rules.layout.deck_size >= BUDGET_MIN_CARDS:
        raise InputError(f"study play-gap: rules {rules.name!r} deal {rules.layout.deck_size} cards; single-dummy "
                         "decisions at 15 tricks take hours, so the study plays 40-card presets only")
    return rules


def _play(rules: Rules, state: PlayState, seed: int, deal: int, gs: GapSettings, solo_only: bool) -> dict:
    solver = DealSolver()  # a fresh table per deal and mode: rows depend on nothing else
    sd = SingleDummy(rules, gs.worlds, seed, deal, gs.tolerance, solver, gs.budget)
    opened = OpenCards(rules, solver)
    players = [sd if (not solo_only or s in state.side) else opened for s in range(state.seats)]
    tests = nodes = cut = 0

    class _Count:  # totals of the single-dummy decisions
        def choose(self, st: PlayState) -> int:
            nonlocal tests, nodes, cut
            p = players[st.to_move]
            p.last = None
            card = p.choose(st)
            if p is sd and sd.last is not None:
                tests, nodes, cut = tests + sd.last.tests, nodes + sd.last.nodes, cut + int(sd.last.cut)
            return card

    end = play_out(state, [_Count()] * state.seats)
    return {"state": end, "tests": tests, "nodes": nodes, "cut": cut}


def gap_chunk(job: Job, chunk: Chunk) -> pd.DataFrame:
    """One chunk of :func:`play_gap` (a :class:`~binokel_sim.runner.Job` chunk function, top level so it pickles)."""
    rules, seed = job.rules, job.seed
    gs: GapSettings = job.params.check()
    df, hands, tapp = deal_frame(rules, seed, chunk)
    idx, seats = df["deal"].to_numpy(), df["soloist"].to_numpy()
    n = chunk.size
    kept = np.zeros((n, 24), dtype=np.uint8)
    cols = {k: np.zeros(n, dtype=np.int64) for k in ("code", "value", "discard_points")}
    took = np.zeros(n, dtype=bool)
    for s in range(rules.n_seats):
        sel = np.nonzero(seats == s)[0]
        if sel.size:
            parts = play_deals(rules, s, hands[sel], tapp[sel], seed, EvalSettings(policy=gs.policy).check(),
                               idx[sel], baseline=False, durch_check=False)
            kept[sel] = parts.kept
            took[sel] = parts.took
            for k in cols:
                cols[k][sel] = getattr(parts, k)
    out = df[["deal", "soloist", "melds", "melds_tapp_value"]].copy()
    out["contract"] = [CONTRACT_NAMES[c] for c in cols["code"]]
    out["discard_points"] = cols["discard_points"]
    out["open"], out["open_took"] = cols["value"], took
    out["played"] = is_trump(cols["code"])
    extra: dict[str, list] = {f"{m}{x}": [] for m in MODES[1:] for x in ("", "_took", "_tests", "_nodes", "_cut")}
    for j in range(n):
        if not out["played"].iat[j]:
            for m in MODES[1:]:
                for x, v in (("", np.nan), ("_took", False), ("_tests", 0), ("_nodes", 0), ("_cut", 0)):
                    extra[m + x].append(v)
            continue
        s = int(seats[j])
        h = hands[j].copy()
        h[s] = kept[j]
        state = PlayState.start(rules, h, hands[j, s] + tapp[j] - kept[j], tapp[j], int(cols["code"][j]), s)
        for m, solo_only in (("sd", False), ("sd_solo", True)):
            r = _play(rules, state, seed, int(idx[j]), gs, solo_only)
            total, t = side_total(rules, r["state"], int(cols["discard_points"][j]))
            for x, v in (("", total), ("_took", t), ("_tests", r["tests"]), ("_nodes", r["nodes"]), ("_cut", r["cut"])):
                extra[m + x].append(v)
    for name, values in extra.items():
        out[name] = values
    return out


def play_gap(rules: Rules | str, deals: int, seed: int = 1, settings: GapSettings | None = None,
             scale: Scale | None = None, chunk_size: int = 4) -> pd.DataFrame:
    """Deals ``0 .. deals - 1`` played three ways, one row each (see the module docstring). ``scale``: workers,
    progress, checkpoint, scheduler (:class:`~binokel_sim.runner.Scale`); the chunks run as a :class:`Job`."""
    rules = check_rules(as_rules(rules))
    gs = (settings or GapSettings()).check()
    job = Job("play-gap", gap_chunk, n=deals, seed=seed, rules=rules, chunk_size=chunk_size,
              params=gs)
    return pd.concat(job.run(scale, desc="deals"), ignore_index=True)


def _mean(x: np.ndarray) -> tuple[float, float]:
    x = np.asarray(x, dtype=np.float64)
    se = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")
    return (float(x.mean()) if len(x) else float("nan")), se


def totals(df: pd.DataFrame) -> pd.DataFrame:
    """The soloist's mean total under each mode and the paired differences, each with SE and n (played deals)."""
    g = df[df["played"]]
    rows = []
    for name, x in [(m, g[m]) for m in MODES] + [("sd - open", g["sd"] - g["open"]),
                                                  ("sd_solo - open", g["sd_solo"] - g["open"]),
                                                  ("sd - sd_solo", g["sd"] - g["sd_solo"])]:
        mean, se = _mean(x.to_numpy())
        rows.append({"figure": name, "mean": mean, "se": se, "n": len(g)})
    return pd.DataFrame(rows)


def _made(g: pd.DataFrame, mode: str, bid: np.ndarray | int) -> np.ndarray:
    return g[f"{mode}_took"].to_numpy(bool) & (g[mode].to_numpy(np.float64) >= bid)


def make_table(rules: Rules, df: pd.DataFrame, rows: int = 30) -> pd.DataFrame:
    """P(make) per bid (a trick and total >= bid) under each mode, with SE and n, from the minimum bid up to the
    highest bid some played deal makes with open cards (at most ``rows`` bids)."""
    g = df[df["played"]]
    b0, step = rules.bidding.min_bid, rules.bidding.bid_step
    top = max(int(g["open"].max()) if len(g) else b0, b0)
    out = []
    for bid in range(b0, min(top, b0 + (rows - 1) * step) + 1, step):
        row: dict = {"bid": bid, "n": len(g)}
        for m in MODES:
            p, se = _mean(_made(g, m, bid).astype(np.float64))
            row[f"p_make_{m}"], row[f"se_{m}"] = p, se
        out.append(row)
    return pd.DataFrame(out)


def fail_share(rules: Rules, df: pd.DataFrame) -> pd.DataFrame:
    """Share (± SE) of the played deals whose open-card total makes a bid where the single-dummy play fails the
    highest bid the open-card total makes; n counts the deals making the minimum bid with open cards."""
    g = df[df["played"]]
    b0, step = rules.bidding.min_bid, rules.bidding.bid_step
    g = g[_made(g, "open", b0)]
    top = b0 + (g["open"].to_numpy(np.int64) - b0) // step * step
    out = []
    for m in MODES[1:]:
        share, se = _mean((~_made(g, m, top)).astype(np.float64))
        out.append({"mode": m, "share": share, "se": se, "n": len(g)})
    return pd.DataFrame(out)


def by_class(df: pd.DataFrame) -> pd.DataFrame:
    """The mean gaps (sd - open, sd_solo - open) ± SE by meld class (the hand's melds before the Tapp) and by
    Tapp class (the Tapp's meld gain); one row per class."""
    g = df[df["played"]].copy()
    groups = {"melds": hand_class(g, "melds"),
              "tapp": pd.cut(g["melds_tapp_value"], bins=TAPP_CLASSES[0], labels=TAPP_CLASSES[1]).astype(str)}
    rows = []
    for feature, cls in groups.items():
        for label in TAPP_CLASSES[1] if feature == "tapp" else CLASSES["melds"][1]:
            h = g[cls == label]
            if not len(h):
                continue
            row: dict = {"feature": feature, "class": label, "n": len(h)}
            for m in MODES[1:]:
                row[f"gap_{m}"], row[f"se_{m}"] = _mean((h[m] - h["open"]).to_numpy())
            rows.append(row)
    return pd.DataFrame(rows)

