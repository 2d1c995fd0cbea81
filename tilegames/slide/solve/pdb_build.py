"""Building a pattern database's table: layer by layer (`pdb_layers`), and the older queue builder.

The layered builder keeps one small record per placement in an anonymous memory map and no queue:
for the 8-tile table of 4×4 that is 1.6 GB at the peak instead of 5.4 GB. The queue builder stays as
the reference it must match byte for byte (tests, `bench.slide_pdb_build --compare`).
"""

from __future__ import annotations

import contextlib
import itertools
import math
import mmap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numba
import numpy as np

from tilegames.slide.solve import pdb_kernels, pdb_layers

_BUDGET = 2_000_000
_LATE = 1 << 18  # late regions per task between collections (2 MB each)


class Progress(Protocol):
    def update(self, completed: int) -> None: ...


def _mask_bytes(n: int) -> int:
    if n > 64:
        raise ValueError(f"pattern databases need at most 64 cells, the board has {n}")
    return 2 if n <= 16 else 4 if n <= 32 else 8


def _anonymous(size: int) -> tuple[mmap.mmap, np.ndarray]:
    """Zeroed memory from the kernel (huge pages where allowed), which can be given back in part."""
    buf = mmap.mmap(-1, max(size, 1))
    with contextlib.suppress(AttributeError, OSError):
        buf.madvise(mmap.MADV_HUGEPAGE)
    return buf, np.frombuffer(buf, np.uint8)[:size]


_PREFIX = 4  # leading tiles fixed per run: a run of the 8-tile 4×4 table is 23 KB, a block 300 KB


@dataclass(frozen=True)
class _Pass:
    """One race-free pass of a layer: the moves of tiles[0]..tiles[1]−1, one task per block of
    runs (`starts[t]`, runs of `length` ranks); `task_of_run[run]` is the task of a run."""

    tiles: np.ndarray
    starts: np.ndarray
    length: int
    task_of_run: np.ndarray


def _passes(k: int, n: int, factors: np.ndarray) -> tuple[int, list[_Pass]]:
    """The passes of every layer, and the number p of leading tiles fixed in a run.

    A run holds the placements with the same cells for tiles 0..p−1 (consecutive ranks). The first
    pass moves tiles p..k−1, which keeps a placement in its run: one task per run. Then one pass per
    leading tile i, which keeps the other leading tiles' cells: one task per choice of those, over
    the n − p + 1 runs that differ in tile i's cell. Every task writes only records of its own
    block, a few hundred KB (cache-friendly), and there are thousands of tasks to share out.
    """
    p = min(_PREFIX, k - 1)
    length = math.perm(n - p, k - p)
    runs = math.perm(n, p)
    prefixes = np.array(list(itertools.permutations(range(n), p)), np.int64).reshape(runs, p)
    passes = [
        _Pass(np.array([p, k]), (np.arange(runs, dtype=np.int64) * length)[:, None], length,
              np.arange(runs, dtype=np.int64))
    ]  # fmt: skip
    for i in range(p):
        others = np.delete(prefixes, i, axis=1)
        _, task = np.unique(others, axis=0, return_inverse=True)
        task = task.reshape(-1)
        order = np.lexsort((prefixes[:, i], task))  # runs by task, then by tile i's cell
        starts = (order * length).reshape(-1, n - p + 1)
        passes.append(_Pass(np.array([i, i + 1]), starts.astype(np.int64), length, task))
    return p, passes


def layered_table(
    labels: np.ndarray,
    width: int,
    height: int,
    blank: int,
    factors: np.ndarray,
    nbr: np.ndarray,
    progress: Progress | None = None,
) -> np.ndarray:
    """The uint8 table of the pattern `labels` (goal cells), by a breadth-first search in layers,
    on all of numba's threads (`NUMBA_NUM_THREADS`); the same bytes whatever the thread count."""
    k, n = labels.shape[0], width * height
    _mask_bytes(n)
    total = math.perm(n, k)
    mb = -(-(n - k) // 8)  # the blank's regions as bits over the free cells
    size = mb + 1
    buf, flat = _anonymous(total * size)
    rec = flat.reshape(total, size)
    rec[:, mb] = 255
    geom = pdb_layers.geometry(width, height)
    r0 = pdb_layers.layers_init(rec, labels, k, n, blank, factors, geom, mb)
    p, passes = _passes(k, n, factors)
    length = passes[0].length
    suffix = pdb_layers.suffix_table(k - p, n - p, factors[p:], length)
    flags = np.zeros((2, total // length), np.uint8)  # runs with a record at depth d, at d + 1
    flags[0, r0 // length] = 1
    args = (k, n, factors, nbr, geom, mb)
    late = np.empty((numba.get_num_threads(), _LATE), np.int64)
    filled, depth = 1, 0
    todo = np.zeros(0, np.int64)  # late regions to expand with this layer
    while True:
        if depth >= 254:
            raise RuntimeError("pattern database deeper than 254 moves")
        found: list[np.ndarray] = []

        def drain(run: Callable[[np.ndarray, np.ndarray], int], ends: np.ndarray) -> int:
            """Run a parallel kernel until every task is done, collecting its late regions."""
            off, got = np.zeros(len(ends), np.int64), 0
            while True:
                nlate = np.zeros(late.shape[0], np.int64)
                got += run(off, nlate)
                found.extend(late[w, : nlate[w]].copy() for w in np.flatnonzero(nlate))
                if (off >= ends).all():
                    return got

        new = 0
        for ps in passes:
            tasks = ps.starts.shape[0]
            if todo.size:  # the late regions of the last layer first
                keys = ps.task_of_run[(todo >> 7) // length]
                order = np.argsort(keys, kind="stable")
                entries = todo[order]
                bounds = np.searchsorted(keys[order], np.arange(tasks + 1)).astype(np.int64)
                bounds[-1] = len(entries)
                new += drain(
                    lambda off, nlate, e=entries, b=bounds, ps=ps: pdb_layers.layers_late(
                        rec, e, b, off, depth, ps.tiles, *args, flags, length, late, nlate
                    ),
                    np.diff(bounds),
                )
                del entries, order, keys
            new += drain(
                lambda off, nlate, ps=ps: pdb_layers.layers_scan(
                    rec, ps.starts, length, off, depth, ps.tiles, p, suffix, *args, flags,
                    late, nlate,
                ),  # fmt: skip
                np.full(tasks, ps.starts.shape[1] * length, np.int64),
            )
            if progress:
                progress.update(filled + new)
        if found:
            todo = np.concatenate(found)
            pdb_layers.layers_merge(rec, todo, len(todo), k, n, factors, geom, mb)
        else:
            todo = np.zeros(0, np.int64)
        del found
        filled += new
        if new == 0 and not todo.size:
            break
        flags[0] = flags[1]
        flags[1] = 0
        depth += 1
    if filled != total:
        raise RuntimeError(f"pattern database incomplete: {filled} of {total} placements")
    pdb_layers.layers_compact(flat, total, size)
    start = -(-total // mmap.PAGESIZE) * mmap.PAGESIZE  # give back the records' memory
    if start < len(buf) and hasattr(mmap, "MADV_DONTNEED"):
        with contextlib.suppress(OSError):
            buf.madvise(mmap.MADV_DONTNEED, start, len(buf) - start)
    return flat[:total]


def queue_table(
    labels: np.ndarray,
    width: int,
    height: int,
    blank: int,
    factors: np.ndarray,
    nbr: np.ndarray,
    progress: Progress | None = None,
) -> np.ndarray:
    """The same table by the older breadth-first search with a queue (`pdb_kernels.pdb_expand`)."""
    k, n = labels.shape[0], width * height
    total = math.perm(n, k)
    # Each placement's blank-region mask and distance side by side: one cache line per lookup.
    pairs = np.zeros((total, 2), {2: np.uint16, 4: np.uint32, 8: np.uint64}[_mask_bytes(n)])
    visited, table = pairs[:, 0], pairs[:, 1]
    table[:] = 255
    queue = np.zeros(1 << 16, np.int64)
    pdb_kernels.pdb_init(table, visited, queue, labels, k, n, blank, factors, nbr)
    qstate = np.array([0, 1, 1], np.int64)
    while True:
        status = pdb_kernels.pdb_expand(table, visited, queue, qstate, k, n, factors, nbr, _BUDGET)
        if progress:
            progress.update(int(qstate[2]))
        if status == 0:
            break
        if status == 2:
            head, count = int(qstate[0]), int(qstate[1])
            order = (head + np.arange(count, dtype=np.int64)) % queue.shape[0]
            grown = np.zeros(queue.shape[0] * 2, np.int64)
            grown[:count] = queue[order]
            queue = grown
            qstate[0] = 0
    if qstate[2] != total:
        raise RuntimeError(f"pattern database incomplete: {qstate[2]} of {total} placements")
    return table.astype(np.uint8)
