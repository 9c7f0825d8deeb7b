"""The in-house jit decorator: shared options and the ``noalloc`` mode of the hot kernels."""

import numpy as np
import pytest
from numba.core.errors import TypingError

from binokel_sim.jit import kernel


def test_noalloc_kernel_reads_and_writes_arrays():
    @kernel(noalloc=True, cache=False)
    def add_into(a, b, out):
        for i in range(a.shape[0]):
            out[i] = a[i] + b[i]
        return out.shape[0]

    out = np.zeros(3, np.int64)
    assert add_into(np.arange(3), np.array([10, 20, 30]), out) == 3
    assert out.tolist() == [10, 21, 32]


def test_noalloc_kernel_refuses_to_allocate():
    # Without reference counting an allocated array could never be freed: numba must refuse it.
    @kernel(noalloc=True, cache=False)
    def allocates(n):
        return np.zeros(n).sum()

    with pytest.raises(TypingError):
        allocates(3)


def test_solver_search_kernels_are_noalloc():
    from binokel_sim.play.legal import legal_mask
    from binokel_sim.play.solver.bounds import quick_bounds
    from binokel_sim.play.solver.search import search
    from binokel_sim.play.solver.table import probe, store

    for k in (search, quick_bounds, probe, store, legal_mask):
        assert k.targetoptions.get("_nrt") is False, k.py_func.__name__
