"""Counter-based random numbers for kernels: deal ``i`` of a run depends only on (seed, i).

The seed goes through :class:`numpy.random.SeedSequence` into a 128-bit key; the
stream of deal ``i`` starts from ``splitmix64`` of the key and ``i``. So any chunking
of a run, over any number of threads or processes, gives the same deals.

>>> k0, k1 = derive_key(7)
>>> s = stream_start(k0, k1, np.uint64(0))
>>> s2, r = next_below(s, np.uint64(40))
>>> 0 <= int(r) < 40
True
"""

from __future__ import annotations

import numpy as np

from binokel_sim.jit import kernel

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


def derive_key(seed: int, *stream: int) -> tuple[np.uint64, np.uint64]:
    """Two uint64 key words from ``seed`` and an optional stream path (distinct uses of one seed)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    ss = np.random.SeedSequence(int(seed), spawn_key=tuple(int(s) for s in stream))
    k = ss.generate_state(2, dtype=np.uint64)
    return np.uint64(k[0]), np.uint64(k[1])


@kernel
def mix64(z):
    """SplitMix64 finaliser (a bijection on uint64)."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def stream_start(key0, key1, index):
    """Initial state of stream ``index`` under key (key0, key1)."""
    return mix64(key0 ^ mix64(key1 + index * _GOLDEN))


@kernel
def next_u64(state):
    """Advance a SplitMix64 state; returns (new_state, 64 random bits)."""
    state = state + _GOLDEN
    return state, mix64(state)


@kernel
def next_below(state, bound):
    """Unbiased integer in [0, bound) for bound < 2**32 (rejection on 32-bit draws)."""
    limit = (np.uint64(1) << np.uint64(32)) // bound * bound
    while True:
        state, x = next_u64(state)
        u = x >> np.uint64(32)
        if u < limit:
            return state, u % bound



@kernel
def counts_key(counts, salt):
    """Two key words from a card-count vector (counts 0..2 packed base 4) and ``salt``.

    A stream keyed by what a player has seen, not by a run's seed: the same view gets the
    same draws in every run (the partner's share, the trump tie-break).
    """
    z = np.uint64(0)
    for c in range(counts.shape[0]):
        z = z * np.uint64(4) + np.uint64(counts[c])
    return mix64(z), mix64(z ^ mix64(np.uint64(salt) + np.uint64(0x5A17)))
