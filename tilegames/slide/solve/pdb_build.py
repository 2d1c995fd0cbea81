"""Building a pattern database's table: layer by layer (`pdb_layers`), and the older queue builder.

The layered builder keeps one small record per placement in an anonymous memory map and no queue:
for the 8-tile table of 4×4 that is 1.6 GB at the peak instead of 5.4 GB. The queue builder stays as
the reference it must match byte for byte (tests, `bench.slide_pdb_build --compare`).
"""

from __future__ import annotations

import contextlib
import math
import mmap
from typing import Protocol

import numpy as np

from tilegames.slide.solve import pdb_kernels, pdb_layers

_CHUNK = 1 << 22  # placements scanned between progress updates
_BUDGET = 2_000_000
_BLOCK = 1 << 22  # late regions per block (32 MB): lists grow and shrink by whole blocks


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


def layered_table(
    labels: np.ndarray,
    width: int,
    height: int,
    blank: int,
    factors: np.ndarray,
    nbr: np.ndarray,
    progress: Progress | None = None,
) -> np.ndarray:
    """The uint8 table of the pattern `labels` (goal cells), by a breadth-first search in layers."""
    k, n = labels.shape[0], width * height
    total = math.perm(n, k)
    mb = _mask_bytes(n)
    size = mb + 1
    buf, flat = _anonymous(total * size)
    rec = flat.reshape(total, size)
    rec[:, mb] = 255
    geom = pdb_layers.geometry(width, height)
    pdb_layers.layers_init(rec, labels, k, n, blank, factors, geom, mb)
    args = (k, n, factors, nbr, geom, mb)
    filled, depth = 1, 0
    todo: list[tuple[np.ndarray, int]] = []  # late regions to expand with this layer, in blocks
    while True:
        if depth >= 254:
            raise RuntimeError("pattern database deeper than 254 moves")
        late: list[tuple[np.ndarray, int]] = []
        block, used = np.empty(_BLOCK, np.int64), 0
        new = 0
        # The late regions of the last layer first, each block dropped once expanded.
        while todo:
            entries, count = todo.pop(0)
            done = 0
            while done < count:
                step, got, used = pdb_layers.layers_late(
                    rec, entries[done:], count - done, depth, *args, block, used
                )
                done += step
                new += got
                if done < count:
                    late.append((block, used))
                    block, used = np.empty(_BLOCK, np.int64), 0
            del entries
        pos = 0
        while pos < total:
            stop = min(total, pos + _CHUNK)
            while pos < stop:
                pos, got, used = pdb_layers.layers_scan(rec, pos, stop, depth, *args, block, used)
                new += got
                if pos < stop:
                    late.append((block, used))
                    block, used = np.empty(_BLOCK, np.int64), 0
            if progress:
                progress.update(filled + new)
        late.append((block, used))
        for entries, count in late:
            pdb_layers.layers_merge(rec, entries, count, k, n, factors, geom, mb)
        filled += new
        if new == 0 and not any(count for _, count in late):
            break
        todo = [(entries, count) for entries, count in late if count]
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
