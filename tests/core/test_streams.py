"""The stream table: no two uses of a seed share a stream, and the paths never change."""

import numpy as np

from binokel_sim import streams
from binokel_sim.rng import derive_key


def test_no_two_streams_collide():
    paths = [s.path for s in streams.STREAMS.values()]
    assert len(set(paths)) == len(paths)
    # A stream taking an index (a game) extends its path: no other path may start with it.
    for s in streams.STREAMS.values():
        if s.per is not None:
            others = [p for p in paths if p != s.path]
            assert not [p for p in others if p[: len(s.path)] == s.path], s.name


def test_keys_differ_per_stream():
    keys = {derive_key(5, *s.path) for s in streams.STREAMS.values()}
    keys |= {derive_key(5, *streams.stream("game", g)) for g in range(3)}
    assert len(keys) == len(streams.STREAMS) + 3


def test_paths_are_pinned():
    # Renumbering a stream changes every seeded figure of its use.
    assert streams.stream("meld_odds") == (6,) and streams.stream("study") == (4, 4)
    assert streams.stream("game", 2) == (0x6A3E, 2)
    assert [s.path for s in streams.STREAMS.values()][2:8] == [(4, 1), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6)]
    direct = np.random.SeedSequence(1, spawn_key=(6,)).generate_state(2, np.uint64)
    assert int(derive_key(1, *streams.stream("meld_odds"))[0]) == int(direct[0])


def test_stream_index_checked():
    import pytest

    with pytest.raises(ValueError):
        streams.stream("game")
    with pytest.raises(ValueError):
        streams.stream("study", 1)
    with pytest.raises(ValueError):
        streams.stream("no such stream")
