"""Bit operations of the search as single instructions.

``ctz(x)``: the index of the lowest set bit of ``x`` (``x != 0``), one ``tzcnt`` through
LLVM's ``cttz`` -- the loops that shifted until the bit came out cost ~5 % of the search.

>>> int(ctz(0b101000))
3
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from binokel_sim.jit import kernel


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(1)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.cttz.i64")
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 1)])

    return types.int64(types.int64), codegen


@kernel(noalloc=True, inline="always")
def ctz(x):
    """Index of the lowest set bit of ``x`` (undefined for 0)."""
    return _cttz(x)


@intrinsic
def _prefetch_row(typingctx, arr, row):
    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        ncols = builder.extract_value(ary.shape, 1)
        ptr = builder.gep(ary.data, [builder.mul(args[1], ncols)])
        i8p = builder.bitcast(ptr, ir.IntType(8).as_pointer())
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer()] + [ir.IntType(32)] * 3)
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        i32 = ir.IntType(32)
        builder.call(fn, [i8p, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(arr, row), codegen


@kernel(noalloc=True, inline="always")
def prefetch_row(arr, row):
    """Ask the memory system for row ``row`` of the 2-D array ``arr`` without waiting for it."""
    _prefetch_row(arr, row)
