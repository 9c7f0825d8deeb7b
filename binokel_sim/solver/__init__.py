"""Exact double-dummy solver for Binokel trick play (RULES.md §6).

DESIGN-PLACEHOLDER
"""

from .api import Solver, solve, without_trump
from .driver import max_points_batch, max_points_batch_into
from .position import Position, parse_trump

__all__ = ["Solver", "solve", "Position", "parse_trump", "without_trump", "max_points_batch", "max_points_batch_into"]
