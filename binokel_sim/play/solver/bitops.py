"""Bit operations of the search as single instructions.

``ctz(x)``: the index of the lowest set bit of ``x`` (``x != 0``), one ``tzcnt`` through
LLVM's ``cttz`` -- the loops that shifted until the bit came out cost ~5 % of the search.
``ptr_of(a)``: an array's data pointer, which the search takes instead of the array (numba
passes an array as seven to nine machine words on every recursive call, a pointer as one);
``prefetch_at(p, i)``: ask for element ``i`` of ``p`` without waiting.

>>> int(ctz(0b101000))
3
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
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
def ptr_of(typingctx, arr):
    """The data pointer of a C-contiguous array (a one-word argument where the array is seven to nine).
    Refused at compile time for any other layout, whose elements a flat index would not find."""
    if not isinstance(arr, types.Array) or arr.layout != "C":
        raise TypingError(f"ptr_of needs a C-contiguous array, got {arr}")

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return types.CPointer(arr.dtype)(arr), codegen


@intrinsic
def _prefetch_at(typingctx, ptr, off):
    def codegen(context, builder, sig, args):
        i8p = builder.bitcast(builder.gep(args[0], [args[1]]), ir.IntType(8).as_pointer())
        fnty = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer()] + [ir.IntType(32)] * 3)
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        i32 = ir.IntType(32)
        builder.call(fn, [i8p, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return types.void(ptr, off), codegen


@kernel(noalloc=True, inline="always")
def prefetch_at(ptr, off):
    """Ask the memory system for element ``off`` of the pointer ``ptr`` without waiting for it."""
    _prefetch_at(ptr, off)
