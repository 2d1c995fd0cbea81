"""Tools for the hottest kernels: compiling without reference counts, a prefetch, a popcount.

numba counts the references to every array a compiled function takes: an atomic operation per
array on entry and another on exit. A helper with a dozen arrays, called millions of times
(`keys.key`), paid two dozen of them a call; dropping them took about a tenth off the
exhaustive search's time (`exhaust.run`, docs/link-rounds.md, round 15). A kernel that makes no
array and returns none needs no counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

F = TypeVar("F", bound=Callable[..., Any])


def lean(function: F) -> F:
    """`njit(cache=True)` without reference counts (numba's `_nrt=False`), for a kernel that
    makes no array and returns none (numba refuses to compile one that does)."""
    return cast(F, cast(Any, njit)(cache=True, _nrt=False)(function))


@intrinsic
def _prefetch(typingctx: Any, array: Any, i: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        kind = signature.args[0]
        view = context.make_array(kind)(context, builder, args[0])
        at = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, kind, view, [args[1]], wraparound=False
        )
        i32 = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [at.type, i32, i32, i32])
        call = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, hint, "llvm.prefetch.p0"
        )
        builder.call(call, [at, i32(0), i32(3), i32(1)])  # a read, kept in every cache level
        return context.get_dummy_value()

    return types.void(array, types.intp), codegen


@intrinsic
def _popcount(typingctx: Any, word: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        count = cgutils.get_or_insert_function(  # type: ignore[no-untyped-call]
            builder.module, ir.FunctionType(i64, [i64]), "llvm.ctpop.i64"
        )
        return builder.call(count, [args[0]])

    return types.int64(types.uint64), codegen


popcount = cast(Callable[[np.uint64], int], _popcount)
"""In a compiled function, the number of bits set in a 64-bit word (one instruction)."""

prefetch = cast(Callable[[np.ndarray, int | np.integer[Any]], None], _prefetch)
"""In a compiled function, ask the CPU for `array[i]` before it is read: a probe of a big table
then waits for memory once for several keys instead of once for each."""
