"""Whole two-hand games to the target (docs/rules.md §9, §10), as a seeded chunked job.

Deal ``j`` of game ``g`` is deal ``j`` of stream ``streams.stream("twohand_game", g)``; player
``p`` sits at seat ``(p + j) mod 2`` (seat 0 forehand, seat 1 the dealer): player 0 is
forehand in the first deal and the deal alternates. Each deal is played by
:func:`binokel_sim.twohand.play.play_deal` (heuristic talon phase, exact endgame).

End of a game: with ``game.aus`` a player claims the game the moment his total (the
turned-Seven bonus, his melds and the card points of his tricks so far) reaches the
target; if both would reach it in the endgame, the exact line decides who gets there
first. Without it the game ends after a deal in which a player reached the target: the
higher total wins, a tie plays another deal.

The value of the trump Seven exchange: in the first deal of every game in which a
player exchanged, the deal is played again from the same cards with the exchange
forbidden; the figure is the exchanger's net gain (own minus opponent's deal score).

>>> from binokel_sim.rules import load_rules
>>> rec = simulate_twohand_game(load_rules("two-hand"), seed=1, game=0)
>>> rec["winner"] in (0, 1), rec["deals"] == len(rec["rows"])
(True, True)
"""

from __future__ import annotations

import numpy as np

from binokel_sim import streams
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.rules import Rules
from binokel_sim.stats import proportion
from binokel_sim.twohand.play import DealResult, play_deal
from binokel_sim.twohand.search import TwoSeatSearch

#: Stream id of the two-hand game simulation's deals.
#: Stream id of the paired exchange study's deals.
EXCHANGE_STREAM = streams.stream("twohand_exchange")


def _claim(rules: Rules, res: DealResult, before: list[int], search: TwoSeatSearch) -> int:
    """Seat that claims the game during this deal under ``game.aus``, else -1."""
    target = rules.game.target
    for run in [(0, 0)] + res.running:
        for s in range(2):
            if before[s] + res.turned[s] + run[s] >= target:
                return s
    final = [before[s] + res.scores()[s] for s in range(2)]
    reach = [s for s in range(2) if final[s] >= target]
    if len(reach) < 2:
        return reach[0] if reach else -1
    # Both get there in the endgame: replay its exact line trick by trick.
    pts = [before[s] + res.turned[s] + res.melds[s] + _talon_cards(res, s) for s in range(2)]
    assert res.endgame is not None  # a finished talon deal has its endgame
    e = res.endgame
    for w, p in zip(*search.line(e.hands, e.trump_index, e.leader, e.last_trick, rules.talon.must_head)):
        pts[w] += p
        if pts[w] >= target:
            return w
    return -1  # pragma: no cover - both reach the target, so one of them gets there


def _talon_cards(res: DealResult, s: int) -> int:
    return sum(e[5] for e in res.events if e[0] == "trick" and e[4] == s)


def simulate_twohand_game(rules: Rules, seed: int, game: int, search: TwoSeatSearch | None = None,
                          max_deals: int = 400) -> dict:
    """Play game ``game`` of ``seed``: a dict with winner (player), deals, totals, per-deal rows
    and the paired exchange figure (``exchange_gain``, None when the first deal had no exchange)."""
    search = search or TwoSeatSearch()
    dealer = Dealer(rules, seed, stream=streams.stream("twohand_game", game))
    totals = [0, 0]
    rows: list[dict] = []
    winner = -1
    gain = None
    for j in range(max_deals):
        row = dealer.deal(1, start=j)[0]
        res = play_deal(rules, row, search)
        player = [(s + j) % 2 for s in range(2)]  # player at seat s
        if j == 0 and res.exchanged >= 0:
            alt = play_deal(rules, row, search, seven_exchange=False)
            x = res.exchanged
            gain = (res.scores()[x] - res.scores()[1 - x]) - (alt.scores()[x] - alt.scores()[1 - x])
        before = [totals[player[s]] for s in range(2)]
        claimed = _claim(rules, res, before, search) if rules.game.aus else -1
        sc = res.scores()
        for s in range(2):
            totals[player[s]] += sc[s]
        rows.append({
            "game": game, "deal": j, "forehand": player[0], "claimed_by": player[claimed] if claimed >= 0 else -1,
            "exchanged_by": player[res.exchanged] if res.exchanged >= 0 else -1,
            **{f"{k}_seat{s}": v[s] for k, v in (("melds", res.melds), ("cards", res.cards), ("score", sc))
               for s in range(2)},
            **{f"total_p{p}": totals[p] for p in range(2)},
        })
        if claimed >= 0:
            winner = player[claimed]
            break
        if not rules.game.aus and max(totals) >= rules.game.target and totals[0] != totals[1]:
            winner = int(np.argmax(totals))
            break
    return {"game": game, "deals": len(rows), "winner": winner, "final_p0": totals[0], "final_p1": totals[1],
            "exchange_gain": gain, "rows": rows}


def exchange_value(rules: Rules, deals: int, seed: int, search: TwoSeatSearch | None = None) -> dict:
    """The trump Seven exchange, paired over ``deals`` deals: each deal in which a player
    exchanges is played again with the exchange forbidden. Returns the exchanger's mean net
    gain (own minus opponent's deal score) with its SE and n, and the share of deals with an exchange
    with its 95 % Wilson interval.

    >>> from binokel_sim.rules import load_rules
    >>> sorted(exchange_value(load_rules("two-hand"), 4, 1))
    ['deals', 'exchange_rate', 'exchange_rate_hi', 'exchange_rate_lo', 'gain', 'n', 'se']
    """
    search = search or TwoSeatSearch()
    gains = []
    for row in Dealer(rules, seed, stream=EXCHANGE_STREAM).deal(deals):
        res = play_deal(rules, row, search, seven_exchange=True)
        x = res.exchanged
        if x < 0:
            continue
        alt = play_deal(rules, row, search, seven_exchange=False)
        a, b = res.scores(), alt.scores()
        gains.append((a[x] - a[1 - x]) - (b[x] - b[1 - x]))
    g = np.asarray(gains, dtype=np.float64)
    rate = proportion(int(g.size), int(deals))
    return {"gain": float(g.mean()) if g.size else float("nan"),
            "se": float(g.std(ddof=1) / np.sqrt(g.size)) if g.size > 1 else float("nan"), "n": int(g.size),
            "deals": int(deals), "exchange_rate": rate["p"], "exchange_rate_lo": rate["lo"],
            "exchange_rate_hi": rate["hi"]}
