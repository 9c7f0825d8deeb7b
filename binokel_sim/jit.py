"""The in-house jit decorator: every kernel gets the same numba options.

``cache=True`` so a second process starts without recompiling; ``nogil=True`` so
thread pools can run kernels side by side; ``error_model="numpy"`` so integer
division never raises inside a kernel.

Kernels live in modules (numba caches by source file); here, without a file, caching is off.
numba checks only a kernel's own file when it reuses a cached compilation, and a caller's
cached machine code contains the kernels it calls: after editing a kernel in a working copy,
delete the ``__pycache__`` folders of the modules that call it (``find binokel_sim -name
__pycache__ -exec rm -rf {} +``), or the callers keep running the old code. An installed
release is not affected (installing writes every file anew, which invalidates every cache).



>>> @kernel(cache=False)
... def add(a, b):
...     return a + b
>>> add(2, 3)
5
"""

from __future__ import annotations

import numba

_OPTIONS = dict(nopython=True, cache=True, nogil=True, error_model="numpy")


def kernel(fn=None, *, noalloc: bool = False, **extra):
    """Compile ``fn`` with the project's numba options (``@kernel`` or ``@kernel(...)``).

    ``noalloc=True`` is for hot kernels that allocate nothing (the solver's search):
    they skip numba's reference counting of array arguments, whose atomic
    increments cost ~10x a small recursive call (measured: 77 ns vs 8 ns a call).
    Such a kernel must not create arrays; numba refuses to compile one that does.
    """
    options = {**_OPTIONS, **extra}
    if noalloc:
        options["_nrt"] = False
    if fn is None:
        return lambda f: numba.jit(**options)(f)
    return numba.jit(**options)(fn)
