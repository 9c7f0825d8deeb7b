"""Exact double-dummy solver for Binokel trick play (RULES.md §6).
"""

from .driver import max_points_batch, max_points_batch_into

__all__ = ["max_points_batch", "max_points_batch_into"]
