"""Building a pattern database's table: layer by layer (`pdb_layers`), and the older queue builder.

The layered builder keeps one small record per placement in an anonymous memory map and no queue:
for the 8-tile table of 4×4 that is 1.6 GB at the peak instead of 5.4 GB. The queue builder stays as
the reference it must match byte for byte (tests, `bench.slide_pdb_build --compare`).
"""

from __future__ import annotations

import contextlib
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


@dataclass(frozen=True)
class _Pass:
    """One race-free pass of a layer: the moves of tiles[0]..tiles[1]−1, one task per block of
    placements (runs of `length` ranks from `starts[t]`); `key` names the task of a rank for
    `pdb_layers.task_of`."""

    tiles: np.ndarray
    starts: np.ndarray
    length: int
    key: int


def _passes(k: int, n: int, factors: np.ndarray) -> list[_Pass]:
    """Tiles 1.. by blocks of tile 0's cell, then tile 0 by blocks of tile 1's cell (see pdb_layers)."""
    if k == 1:
        return [_Pass(np.array([0, 1]), np.zeros((1, 1), np.int64), n, 2)]
    f0, f1 = int(factors[0]), int(factors[1])
    by_first = np.arange(n, dtype=np.int64)[:, None] * f0
    by_second = np.array(
        [[c0 * f0 + (c1 - (c1 > c0)) * f1 for c0 in range(n) if c0 != c1] for c1 in range(n)],
        np.int64,
    )
    return [_Pass(np.array([1, k]), by_first, f0, 0), _Pass(np.array([0, 1]), by_second, f1, 1)]


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
    pdb_layers.layers_init(rec, labels, k, n, blank, factors, geom, mb)
    args = (k, n, factors, nbr, geom, mb)
    passes = _passes(k, n, factors)
    workers = numba.get_num_threads()
    late = np.empty((max(workers, n), _LATE), np.int64)
    filled, depth = 1, 0
    todo: list[np.ndarray] = []  # late regions to expand with this layer
    while True:
        if depth >= 254:
            raise RuntimeError("pattern database deeper than 254 moves")
        found: list[np.ndarray] = []
        new = 0
        for ps in passes:
            for entries in todo:  # the late regions of the last layer first
                new += _drain(
                    lambda off, nlate, e=entries, ps=ps, d=depth: pdb_layers.layers_late(
                        rec, e, len(e), ps.key, off, d, ps.tiles, *args, late[:workers], nlate
                    ),
                    np.full(workers, len(entries), np.int64),
                    late,
                    found,
                )
            tasks = ps.starts.shape[0]
            new += _drain(
                lambda off, nlate, ps=ps, d=depth, t=tasks: pdb_layers.layers_scan(
                    rec, ps.starts, ps.length, off, d, ps.tiles, *args, late[:t], nlate
                ),
                np.full(tasks, ps.starts.shape[1] * ps.length, np.int64),
                late,
                found,
            )
            if progress:
                progress.update(filled + new)
        for entries in found:
            pdb_layers.layers_merge(rec, entries, len(entries), k, n, factors, geom, mb)
        filled += new
        if new == 0 and not found:
            break
        todo = found
        depth += 1
    if filled != total:
        raise RuntimeError(f"pattern database incomplete: {filled} of {total} placements")
    pdb_layers.layers_compact(flat, total, size)
    start = -(-total // mmap.PAGESIZE) * mmap.PAGESIZE  # give back the records' memory
    if start < len(buf) and hasattr(mmap, "MADV_DONTNEED"):
        with contextlib.suppress(OSError):
            buf.madvise(mmap.MADV_DONTNEED, start, len(buf) - start)
    return flat[:total]


def _drain(
    run: Callable[[np.ndarray, np.ndarray], int],
    ends: np.ndarray,
    late: np.ndarray,
    found: list[np.ndarray],
) -> int:
    """Run a parallel kernel (tasks handed out one at a time) until every task reaches its end,
    moving the late regions it writes into `found`. Returns the placements newly reached."""
    off, got = np.zeros(len(ends), np.int64), 0
    while True:
        nlate = np.zeros(len(ends), np.int64)
        with numba.parallel_chunksize(1):
            got += run(off, nlate)
        found.extend(late[t, : nlate[t]].copy() for t in np.flatnonzero(nlate))
        if (off >= ends).all():
            return got


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
