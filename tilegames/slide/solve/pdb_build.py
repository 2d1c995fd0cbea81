"""Building a pattern database's table: with frontier codes on every core (`pdb_frontier`, the
default), layer by layer with late-region lists (`pdb_layers`, before), and the older queue builder.

The frontier builder keeps a 2-bit code per free cell of each placement and scans once per layer:
for the 8-tile table of 4×4 that is 1.04 GB of records plus the 0.52 GB table, about 220 s of CPU
shared by the workers (the layered builder: 1.6 GB, 480 s on one core; the queue builder: 5.4 GB). The
queue builder stays as the reference both must match byte for byte (tests,
`bench.slide_pdb_build --compare`).
"""

from __future__ import annotations

import contextlib
import math
import mmap
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol

import numpy as np

from tilegames.slide.solve import pdb_frontier, pdb_kernels, pdb_layers

_CHUNK = 1 << 22  # placements scanned between progress updates
_BUDGET = 2_000_000
_BLOCK = 1 << 22  # late regions per block (32 MB): lists grow and shrink by whole blocks
_BUFFER = 1 << 22  # tile 0's states buffered by all workers (64 MB) before they are applied
_PARTS = 8  # rank ranges per block and layer: workers share the last blocks of a layer
_WORKERS = 4  # by default at most: more buffers, shorter rounds, little to gain on 16 blocks


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


def frontier_table(
    labels: np.ndarray,
    width: int,
    height: int,
    blank: int,
    factors: np.ndarray,
    nbr: np.ndarray,
    progress: Progress | None = None,
    workers: int | None = None,
) -> np.ndarray:
    """The uint8 table of the pattern `labels`, one scan per layer with 2-bit frontier codes per
    free cell (`pdb_frontier`), on `workers` threads (default: the cores this process may use, at
    most 4).
    Boards of more than 32 cells go to `layered_table`."""
    k, n = labels.shape[0], width * height
    if n > 32:
        return layered_table(labels, width, height, blank, factors, nbr, progress)
    if workers is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
        workers = min(cores, _WORKERS)
    workers = max(1, min(workers, n))
    total = math.perm(n, k)
    bits = 2 * (n - k)
    dtype = np.uint16 if bits <= 16 else np.uint32 if bits <= 32 else np.uint64
    size = total * np.dtype(dtype).itemsize
    words = _anonymous(-(-size // 8) * 8)[1].view(np.uint64)  # freed with the last view
    rec = words.view(np.uint8)[:size].view(dtype)
    depth = np.full(total, 255, np.uint8)
    span = int(factors[0])
    blocks = total // span
    active = np.zeros((2, blocks * -(-span // (1 << pdb_frontier.CHUNK_SHIFT))), np.uint8)
    geom = pdb_layers.geometry(width, height)
    pdb_frontier.frontier_init(rec, depth, active, labels, k, n, blank, factors, geom)
    args = (k, n, factors, nbr, geom)
    buffers = [np.empty((max(_BUFFER // workers, 8), 2), np.uint64) for _ in range(workers)]
    counts = [0] * workers
    filled, d = 1, 0
    pool = ThreadPoolExecutor(workers) if workers > 1 else None
    stopping = threading.Event()  # set on an interrupt: the workers take no further block
    halt = np.zeros(1, np.uint8)  # set by a worker whose buffer is full, or on an interrupt

    def scan(block: int, start: int, end: int, worker: int) -> tuple[int, int, int]:
        pos, counts[worker], states, placed = pdb_frontier.frontier_scan(
            rec, words, depth, active, block, start, end, d, *args, buffers[worker],
            counts[worker], workers == 1, halt,
        )  # fmt: skip
        return pos, states, placed

    try:
        while True:
            if d >= 254:
                raise RuntimeError("pattern database deeper than 254 moves")
            todo = _parts(active[d & 1], blocks, span)
            states = 0
            while todo:
                halt[0] = 0
                items = list(todo)
                for item, (pos, got, placed) in zip(
                    items, _run(pool, scan, items, workers, stopping), strict=True
                ):
                    states += got
                    filled += placed
                    del todo[item]
                    if pos < item[2]:
                        todo[(item[0], pos, item[2])] = None
                for got, placed in _apply_all(
                    pool, rec, depth, active, buffers, counts, d, k, n, factors
                ):
                    states += got
                    filled += placed
                counts[:] = [0] * workers
                if progress:
                    progress.update(filled)
            if states == 0:
                break
            d += 1
    finally:
        stopping.set()
        halt[0] = 1
        if pool:
            pool.shutdown()
    if filled != total:
        raise RuntimeError(f"pattern database incomplete: {filled} of {total} placements")
    return depth


def _parts(flags: np.ndarray, blocks: int, span: int) -> dict[tuple[int, int, int], None]:
    """The (block, start, end) rank ranges with a frontier, `_PARTS` per block cut at flag-chunk
    boundaries, the busiest first (by frontier chunks), so that the workers end a layer together."""
    per_block = flags.reshape(blocks, -1)
    step = -(-per_block.shape[1] // _PARTS)
    parts = []
    for b in range(blocks):
        for first in range(0, per_block.shape[1], step):
            load = int(per_block[b, first : first + step].sum())
            if load:
                start = b * span + (first << pdb_frontier.CHUNK_SHIFT)
                end = min((b + 1) * span, start + (step << pdb_frontier.CHUNK_SHIFT))
                parts.append((-load, b, start, end))
    parts.sort()
    return {(b, start, end): None for _, b, start, end in parts}


def _run(
    pool: ThreadPoolExecutor | None,
    work: Callable[..., tuple[int, int, int]],
    items: list[tuple[int, int, int]],
    workers: int,
    stopping: threading.Event,
) -> list[tuple[int, int, int]]:
    """`work(*item, worker)` for every item (block, start, end), each worker taking the first item
    left whose block no other worker is in (none once `stopping` is set)."""
    results: list[tuple[int, int, int]] = [(0, 0, 0)] * len(items)
    left = list(range(len(items)))
    busy: set[int] = set()
    changed = threading.Condition()

    def worker(w: int) -> None:
        while True:
            with changed:
                while True:
                    if stopping.is_set() or not left:
                        return
                    i = next((i for i in left if items[i][0] not in busy), None)
                    if i is not None:
                        break
                    changed.wait()
                left.remove(i)
                busy.add(items[i][0])
            try:
                results[i] = work(*items[i], w)
            finally:
                with changed:
                    busy.discard(items[i][0])
                    changed.notify_all()

    if pool is None:
        worker(0)
    else:
        list(pool.map(worker, range(workers)))
    return results


def _apply_all(
    pool: ThreadPoolExecutor | None,
    rec: np.ndarray,
    depth: np.ndarray,
    active: np.ndarray,
    buffers: list[np.ndarray],
    counts: list[int],
    d: int,
    k: int,
    n: int,
    factors: np.ndarray,
) -> list[tuple[int, int]]:
    """Apply every worker's buffered tile-0 states, worker w the blocks b with b % workers == w."""
    workers = len(buffers)

    def apply(w: int) -> tuple[int, int]:
        states = placed = 0
        for out, count in zip(buffers, counts, strict=True):
            if count:
                got, new = pdb_frontier.frontier_apply(
                    rec, depth, active, out, count, d, k, n, factors, workers, w
                )
                states += got
                placed += new
        return states, placed

    if pool is None:
        return [apply(0)]
    return list(pool.map(apply, range(workers)))


BUILDERS: dict[str, Callable[..., np.ndarray]] = {
    "frontier": frontier_table,
    "layers": layered_table,
    "queue": queue_table,
}
