"""The auction (docs/rules.md §3) between players who each bid up to a ceiling.

Forehand (seat 0) opens at ``min_bid``; bids rise by ``bid_step``. The
holder of the bid and the next seat alternate: the challenger must bid higher
(if its ceiling allows) and the holder must answer higher again,
until one passes. The survivor then meets the next seat, and so on. The last
bidder is the soloist and the bid is the contract.

Jumps (``bidding.jump_step`` > 0): a bid may also raise the last by any multiple of
``jump_step`` (:func:`legal_raise`). The simulated bidders jump one ``jump_step`` at a
time while their ceiling has room for it and then go on by single ``bid_step`` raises
(:func:`raise_of`): fast while far from their limit, careful near it, so the winner
may pay up to a jump above the loser's ceiling. With ``jump_step = bid_step`` (the
dabb app, where any multiple of 10 may be bid) this is the plain one-step auction, as
the app's own AI bids it. Forehand's opening bid is
obliged (``bidding.forehand_must_open``): if nobody else bids, forehand plays at the
minimum. Where forehand may pass, the first seat whose ceiling reaches the minimum
opens there and the later seats challenge it; if every seat passes there is no
soloist (seat -1) and the deal is thrown in.

>>> from binokel_sim.rules import load_rules
>>> r = load_rules("standard")
>>> auction([150, 230, 200], r)    # middlehand outbids forehand at 160, rearhand bids up to 190
(1, 200)
>>> auction([0, 0, 0], r)          # all pass: forehand plays its opening bid
(0, 150)
>>> auction([300, 300, 0], r)      # equal ceilings: whoever must raise past 300 passes
(1, 300)
>>> import dataclasses
>>> free = dataclasses.replace(r, bidding=dataclasses.replace(r.bidding, forehand_must_open=False))
>>> auction([0, 0, 170], free), auction([0, 0, 0], free)   # forehand passes; all pass: thrown in
((2, 150), (-1, 0))
>>> jumps = dataclasses.replace(r, bidding=dataclasses.replace(r.bidding, jump_step=50))
>>> auction([300, 200, 0], r), auction([300, 200, 0], jumps)   # 150, 200 (jump), 250 (jump); 260 is past 200
((0, 210), (0, 250))
"""

from __future__ import annotations

from typing import Sequence

from binokel_sim.errors import InputError
from binokel_sim.rules import Rules


def auction(ceilings: Sequence[int], rules: Rules) -> tuple[int, int]:
    """(soloist seat, contract) when seat ``s`` bids up to ``ceilings[s]`` and no higher; (-1, 0) when
    every seat passes (only where forehand need not open)."""
    if len(ceilings) != rules.n_seats:
        raise InputError(f"auction: expected {rules.n_seats} ceilings, got {len(ceilings)}")
    holder, bid = 0, rules.bidding.min_bid
    if not rules.bidding.forehand_must_open:
        # Each seat in turn passes or opens at the minimum; the first to open holds the bid.
        openers = [s for s in range(rules.n_seats) if ceilings[s] >= bid]
        if not openers:
            return -1, 0
        holder = openers[0]
    for challenger in range(holder + 1, rules.n_seats):
        # The challenger speaks first; then they alternate, each raising the other's bid.
        speaker, other = challenger, holder
        while up := raise_of(bid, ceilings[speaker], rules):
            bid += up
            speaker, other = other, speaker
        # ``speaker`` could not raise: ``other`` made the last bid.
        holder = other
    return holder, bid


def legal_raise(bid: int, new: int, rules: Rules) -> bool:
    """Whether ``new`` may follow the bid ``bid``: one ``bid_step`` higher, or with ``bidding.jump_step``
    any multiple of it higher (docs/rules.md §3).

    >>> from binokel_sim.rules import load_rules
    >>> legal_raise(150, 160, load_rules("standard")), legal_raise(150, 200, load_rules("standard"))
    (True, False)
    >>> legal_raise(150, 200, load_rules("dabb")), legal_raise(150, 205, load_rules("dabb"))
    (True, False)
    """
    up, jump = int(new) - int(bid), rules.bidding.jump_step
    return up == rules.bidding.bid_step or (jump > 0 and up > 0 and up % jump == 0)


def raise_of(bid: int, ceiling: int, rules: Rules) -> int:
    """How much a simulated bidder with ``ceiling`` raises the bid ``bid``: one ``jump_step`` while the
    ceiling has room for it, else one ``bid_step`` if it has room for that; 0: it passes.

    >>> from binokel_sim.rules import load_rules
    >>> raise_of(150, 300, load_rules("standard")), raise_of(290, 300, load_rules("standard")), raise_of(300, 300, load_rules("standard"))
    (10, 10, 0)
    """
    for up in (rules.bidding.jump_step, rules.bidding.bid_step):
        if up and bid + up <= ceiling:
            return up
    return 0


def floor_to_step(value: float, rules: Rules) -> int:
    """The highest legal bid (min_bid + k x bid_step) not above ``value``; below the minimum: 0.

    >>> from binokel_sim.rules import load_rules
    >>> floor_to_step(237.5, load_rules("standard")), floor_to_step(149, load_rules("standard"))
    (230, 0)
    """
    lo, step = rules.bidding.min_bid, rules.bidding.bid_step
    if value < lo:
        return 0
    return int(lo + (int(value) - lo) // step * step)
