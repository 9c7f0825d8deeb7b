"""The world sampler (binokel_sim.play.worlds): every world it draws is consistent, and on small endings every
consistent world comes with its right frequency -- exact enumeration of the deals of the physical cards
against 20 000 draws, a chi-square test at a fixed seed."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from binokel_sim.play.knowledge import PlayState, trumps_of
from binokel_sim.play.playout import RuleBased
from binokel_sim.play.worlds import consistent, count, sample, world_key
from binokel_sim.rules import Discard

from play_helpers import study_state
from stats import chi2_upper_quantile


def _holders(k):
    seats = [s for s in range(k.seats) if s != k.seat]
    return seats, k.pile is None


def _distributions(pool, caps):
    """Every way to put ``pool`` (copies per type) into holders of sizes ``caps``, as count matrices."""
    hn = len(caps)
    out = []

    def rec(c, left, cur):
        if c == 24:
            if not any(left):
                out.append(cur.copy())
            return
        u = int(pool[c])
        for split in itertools.product(range(u + 1), repeat=hn):
            if sum(split) == u and all(x <= y for x, y in zip(split, left)):
                cur[:, c] = split
                rec(c + 1, [y - x for x, y in zip(split, left)], cur)
        cur[:, c] = 0

    rec(0, list(caps), np.zeros((hn, 24), dtype=np.int64))
    return out


def _labelled(k, seats, pile_hidden, hands, pile):
    """Deals of the labelled copies behind one world: each unseen copy (and each copy a holder played) goes to a
    holder; a seat that saw the Tapp turned up but not the discards knows its copies went to the soloist or the
    pile. Counted by brute force over the labellings."""
    holders = seats + (["pile"] if pile_hidden else [])
    tapp_rule = k.tapp is not None and pile_hidden and k.seat != k.soloist
    where = [holders.index(k.soloist)] + ([len(holders) - 1] if pile_hidden else []) if tapp_rule else []
    w = 1
    for c in range(24):
        x = [int(hands[s][c]) + int(k.played[s][c]) for s in seats] + ([int(pile[c])] if pile_hidden else [])
        t = int(k.tapp[c]) if tapp_rule else 0
        ways = 0
        for m in itertools.product(range(len(holders)), repeat=sum(x)):
            if [m.count(h) for h in range(len(holders))] == x and all(m[j] in where for j in range(t)):
                ways += 1
        w *= ways
    return w


def _exact(k):
    """{world key: probability} over the consistent worlds of ``k``, by enumeration."""
    seats, hidden = _holders(k)
    caps = [k.held[s] for s in seats] + ([k.pile_size] if hidden else [])
    # Every copy the seat has not seen in a hand or on the table, the announced trumps of the pile among them:
    # the enumeration places them freely and consistent() keeps the worlds that put them in the pile.
    pool = k.unseen() + (k.pile_trumps if hidden and k.pile_trumps is not None else 0)
    weights = {}
    for d in _distributions(pool, caps):
        hands = np.zeros((k.seats, 24), dtype=np.int64)
        hands[k.seat] = k.hand
        for i, s in enumerate(seats):
            hands[s] = d[i]
        pile = d[-1] if hidden else np.asarray(k.pile, dtype=np.int64)
        if consistent(k, hands, pile):
            weights[_key(hands, pile)] = _labelled(k, seats, hidden, hands, pile)
    total = sum(weights.values())
    return {key: w / total for key, w in weights.items()}, total


def _key(hands, pile):
    return np.concatenate([np.asarray(hands, dtype=np.int64).ravel(), np.asarray(pile, dtype=np.int64)]).tobytes()


def _ending(preset, deal, cards):
    r, state, _ = study_state(preset, deal)
    p = RuleBased()
    while len(state.cards) < cards:
        state = state.play(p.choose(state))
    return state


#: (preset, deal, cards played, seat): small endings with the Tapp rule, the melds and the trick rules at work.
ENDINGS = [("standard", 5, 24, 0), ("standard", 7, 24, 0), ("standard", 1, 28, 2), ("kreuz", 1, 28, 3),
           ("dabb", 39, 28, 1)]  # dabb deal 39: the soloist (seat 0) laid away a trump, announced


@pytest.mark.parametrize("preset,deal,cards,seat", ENDINGS)
@pytest.mark.slow
def test_every_consistent_world_drawn_at_its_frequency(preset, deal, cards, seat):
    state = _ending(preset, deal, cards)
    k = state.view(seat)
    probs, _ = _exact(k)
    assert 2 <= len(probs) <= 3000
    n = 20_000
    w = sample(k, n, world_key(11, deal))
    seen: dict[bytes, int] = {}
    for i in range(n):
        key = _key(w.hands[i], w.pile[i])
        assert key in probs, "a drawn world the enumeration says is inconsistent"
        seen[key] = seen.get(key, 0) + 1
    # Chi-square over the worlds expected at least 5 times; the rest pooled into one cell.
    chi2, cells, rest_o, rest_e = 0.0, 0, 0, 0.0
    for key, p in probs.items():
        e, o = n * p, seen.get(key, 0)
        if e >= 5:
            chi2 += (o - e) ** 2 / e
            cells += 1
        else:
            rest_o, rest_e = rest_o + o, rest_e + e
    if rest_e >= 5:
        chi2 += (rest_o - rest_e) ** 2 / rest_e
        cells += 1
    if cells >= 2:
        assert chi2 < chi2_upper_quantile(cells - 1, 3.09), (chi2, cells)  # p = 0.001
    assert w.draws >= n


@pytest.mark.slow
def test_the_count_is_the_weighted_number_of_consistent_deals():
    # Without melds declared every constraint is in the dynamic programme: its count is the enumeration's.
    r, state, _ = study_state("standard", 3)
    st = PlayState.start(r, state.hands, state.pile, state.tapp, state.trump, state.soloist, melds=False)
    p = RuleBased()
    while len(st.cards) < 26:
        st = st.play(p.choose(st))
    for seat in range(3):
        k = st.view(seat)
        _, total = _exact(k)
        assert count(k) == total


@pytest.mark.parametrize("preset,deal", [("standard", 2), ("four-solo", 1), ("kreuz", 0)])
def test_sampled_worlds_are_consistent_and_seeded(preset, deal):
    r, state, _ = study_state(preset, deal)
    p = RuleBased()
    for stop in (0, 5, 13):
        while len(state.cards) < stop:
            state = state.play(p.choose(state))
        for seat in range(state.seats):
            k = state.view(seat)
            w = sample(k, 40, world_key(5, deal))
            assert all(consistent(k, w.hands[i], w.pile[i]) for i in range(40))
            again = sample(k, 40, world_key(5, deal))
            assert (again.hands == w.hands).all() and (again.pile == w.pile).all()
            other = sample(k, 40, world_key(5, deal), index=k.decision + 1000)
            assert not (other.hands == w.hands).all()


def test_a_laid_away_trump_is_known_to_the_defenders_and_never_sampled_into_their_hands():
    # dabb announces the trumps of the lay-away (discard.trumps_shown); deal 39's soloist laid one away.
    r, state, _ = study_state("dabb", 39)
    assert r.discard.trumps_shown and state.soloist == 0
    announced = trumps_of(state.pile, state.trump)
    assert int(announced.sum()) == 1
    for seat in (1, 2):
        k = state.view(seat)
        assert k.pile is None and (k.pile_trumps == announced).all()
        assert int(k.unseen().sum()) == sum(k.held[s] for s in range(3) if s != seat) + k.pile_size - 1
        w = sample(k, 400, world_key(3, 39))
        assert all(consistent(k, w.hands[i], w.pile[i]) for i in range(400))
        assert all((trumps_of(w.pile[i], state.trump) == announced).all() for i in range(400))
        others = [s for s in range(3) if s != seat]
        # The announced copy is in the pile: the other hands hold the trump copies the seat has not seen, less it.
        c = int(np.flatnonzero(announced)[0])
        assert int(w.hands[:, others, c].sum(axis=1).max()) <= int(k.unseen()[c])
    # The soloist knows its whole pile; without the option a defender knows no trump of it.
    assert state.view(0).pile_trumps is None
    hidden = PlayState.start(dataclasses.replace(r, discard=Discard(trumps_shown=False)), state.hands, state.pile,
                             state.tapp, state.trump, state.soloist)
    k = hidden.view(1)
    assert k.pile_trumps is None
    w = sample(k, 400, world_key(3, 39))
    assert {int(trumps_of(w.pile[i], state.trump).sum()) for i in range(400)} != {1}
