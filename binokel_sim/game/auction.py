"""The auction (docs/rules.md §3) between players who each bid up to a ceiling.

Forehand (seat 0) opens at ``min_bid``; bids rise by ``bid_step``, no jumps. The
holder of the bid and the next seat alternate: the challenger must bid one step
higher (if its ceiling allows) and the holder must answer one step higher again,
until one passes. The survivor then meets the next seat, and so on. The last
bidder is the soloist and the bid is the contract. Forehand's opening bid is
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
    step = rules.bidding.bid_step
    holder, bid = 0, rules.bidding.min_bid
    if not rules.bidding.forehand_must_open:
        # Each seat in turn passes or opens at the minimum; the first to open holds the bid.
        openers = [s for s in range(rules.n_seats) if ceilings[s] >= bid]
        if not openers:
            return -1, 0
        holder = openers[0]
    for challenger in range(holder + 1, rules.n_seats):
        # The challenger speaks first; then they alternate, each one step higher.
        speaker, other = challenger, holder
        while bid + step <= ceilings[speaker]:
            bid += step
            speaker, other = other, speaker
        # ``speaker`` could not raise: ``other`` made the last bid.
        holder = other
    return holder, bid


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
