"""Melds: the scorer (numba), meld events and patterns, two-hand melds, the readable explanation of a hand's melds.

The package is also callable: ``binokel_sim.melds(hand, rules, trump)`` is
:func:`binokel_sim.melds.report.melds`, so ``from binokel_sim import melds`` gives the
public function's behaviour although a subpackage of that name exists.

>>> import binokel_sim
>>> binokel_sim.melds("GK GO EO HO SO SU", trump="G")["total"]
140
"""

import sys
import types
from typing import Any


class _CallableMelds(types.ModuleType):
    def __call__(self, hand: Any, rules: Any = "standard", trump: str = "best") -> dict[str, Any]:
        from binokel_sim.melds.report import melds

        return melds(hand, rules, trump)


sys.modules[__name__].__class__ = _CallableMelds
