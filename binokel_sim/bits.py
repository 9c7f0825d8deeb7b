"""Bit tricks for kernels: :func:`pext` (parallel bit extract), in hardware where the CPU has it.

``pext(x, m)`` packs the bits of ``x`` at the positions set in ``m`` into the low bits,
in order. On x86-64 with BMI2 it is one instruction (``llvm.x86.bmi.pext.64``);
elsewhere a 6-bit table does it, slice by slice. The solver uses it to write hands in
relative ranks (the ranks still in play), see :mod:`binokel_sim.solver.table`.

>>> bin(int(pext(0b101101, 0b111000)))
'0b101'
"""

from __future__ import annotations

import llvmlite.binding as llvm
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import kernel

#: Whether this CPU has the BMI2 ``pext`` instruction (checked once, at import).
HAS_PEXT = "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")

#: ``PEXT6[x * 64 + m]``: the bits of ``x`` at the positions set in ``m``, packed low (6-bit slices).
PEXT6 = np.array([sum(((x >> b) & 1) << i for i, b in enumerate(b for b in range(6) if m >> b & 1))
                  for x in range(64) for m in range(64)], dtype=np.uint8)
#: Set bits of a 6-bit slice.
POP6 = np.array([bin(x).count("1") for x in range(64)], dtype=np.int64)


@intrinsic
def _pext_hw(typingctx, x, m):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return types.int64(types.int64, types.int64), codegen


@kernel(noalloc=True)
def _pext_table(x, m):
    out = np.int64(0)
    shift = 0
    for s in range(4):
        mm = (m >> (6 * s)) & 63
        out |= np.int64(PEXT6[((x >> (6 * s)) & 63) * 64 + mm]) << shift
        shift += POP6[mm]
    return out


if HAS_PEXT:
    @kernel(noalloc=True)
    def pext(x, m):
        """Bits of ``x`` (24 bits) at the positions set in ``m``, packed low."""
        return _pext_hw(np.int64(x), np.int64(m))
else:  # pragma: no cover - CPUs without BMI2
    pext = _pext_table
