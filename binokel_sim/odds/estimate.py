"""Estimates of a meld-odds table: its columns and the cluster-robust mean and error.

The hands of one deal are dependent (they share one deck), so an event's rate is
estimated per deal: the count over a deal's members is the unit, and the standard
error is that of the per-deal mean, divided by the members per deal.
"""

from __future__ import annotations

import math

#: Columns of every meld-odds table (auction and talon layouts).
COLUMNS = ["scope", "event", "value", "stderr", "lo", "hi", "exact", "z", "p_value", "test", "n"]


def cluster_estimate(s1: int, s2: int, deals: int, members: int) -> tuple[float, float]:
    """(mean per member, standard error) from integer per-deal sums ``s1 = sum c``, ``s2 = sum c**2``.

    The variance numerator ``deals * s2 - s1**2`` is formed in exact integers (no cancellation).

    >>> cluster_estimate(3, 3, 4, 1)   # 3 of 4 deals, one member each
    (0.75, 0.25)
    """
    mean = s1 / deals / members
    if deals < 2:
        return mean, math.nan
    var = (deals * s2 - s1 * s1) / (deals * (deals - 1))
    return mean, math.sqrt(max(var, 0.0) / deals) / members
