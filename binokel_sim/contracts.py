"""What the soloist announces: a trump suit, or one of the specials Durch and Bettel.

The kernels and the tables store a contract as its int code (0..3 the trump suit in
``E G H S`` order, 4 Durch, 5 Bettel: docs/rules.md §8); :class:`Contract` names
those codes, and :func:`is_trump` tests scalars and arrays alike.

>>> Contract.H.is_trump, Contract.DURCH.is_trump, Contract(5).label
(True, False, 'bettel')
>>> import numpy as np
>>> is_trump(np.array([0, 3, 4, 5])).tolist()
[True, True, False, False]
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np


class Contract(IntEnum):
    """A contract's code: the trump suits (same index as :data:`binokel_sim.cards.SUITS`), then the specials."""

    E = 0
    G = 1
    H = 2
    S = 3
    DURCH = 4
    BETTEL = 5

    @property
    def is_trump(self) -> bool:
        """A trump contract (a suit), not a Durch or Bettel."""
        return self <= Contract.S

    @property
    def label(self) -> str:
        """The name the tables print: the suit letter, or ``durch`` / ``bettel``."""
        return self.name if self.is_trump else self.name.lower()


#: Highest trump code: ``code <= LAST_TRUMP`` is a trump contract (what the kernels test).
LAST_TRUMP = int(Contract.S)
#: Codes the numba kernels take (ints, from the enum).
DURCH_CODE = int(Contract.DURCH)
BETTEL_CODE = int(Contract.BETTEL)
#: Table labels by code: ``E G H S durch bettel``.
CONTRACT_NAMES = tuple(c.label for c in Contract)


def is_trump(code: Any) -> Any:
    """True where ``code`` (an int or an int array) is a trump contract."""
    if isinstance(code, np.ndarray):
        return code <= LAST_TRUMP
    return int(code) <= LAST_TRUMP


__all__ = ["Contract", "CONTRACT_NAMES", "DURCH_CODE", "BETTEL_CODE", "LAST_TRUMP", "is_trump"]
