"""Time building the 4×4 pattern databases from nothing, and write them to the cache.

.venv/bin/python -m bench.slide_pdb_build [6-6-3|7-8|5-5-5-5-4] [--cache DIR] [--method M] [--workers N]
.venv/bin/python -m bench.slide_pdb_build 7-8 --compare 1,2,3,4,5,6,7   # builders interleaved, one pattern
.venv/bin/python -m bench.slide_pdb_build 7-8 --cache DIR --reference OLD  # SHA-256 against OLD's files

Methods: frontier (default; --workers threads, default every core), layers (the previous builder),
queue (the reference).

Prints each table's build time and SHA-256 (so two builders' files can be compared by hash) and the
process's peak resident memory. Run one partition per process: the peak is per process.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import math
import os
import resource
import time
from pathlib import Path

import numpy as np

from tilegames.common import Progress
from tilegames.slide.solve import pdb_build
from tilegames.slide.solve.pdb import (
    PARTITIONS,
    PatternDatabase,
    _factors,
    _neighbours,
    cache_directory,
)


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def build(size: int, cells: tuple[int, ...], method: str, workers: int | None) -> PatternDatabase:
    """`PatternDatabase.build` with the builder's worker count chosen (frontier only)."""
    builder = pdb_build.BUILDERS[method]
    if method == "frontier" and workers:
        builder = functools.partial(builder, workers=workers)
    n, k = size * size, len(cells)
    with Progress(math.perm(n, k), f"{method} {k} tiles") as bar:
        table = builder(
            np.array(cells, np.int64), size, size, 0, _factors(n, k), _neighbours(size, size), bar
        )
    return PatternDatabase(size, size, 0, cells, table)


def timed(
    size: int, cells: tuple[int, ...], method: str, workers: int | None = None
) -> tuple[PatternDatabase, float, float]:
    """The database, wall seconds and CPU seconds (on a shared machine the CPU time is the fairer)."""
    start, cpu = time.perf_counter(), time.process_time()
    db = build(size, cells, method, workers)
    return db, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "partition", nargs="?", default="6-6-3", choices=["6-6-3", "7-8", "5-5-5-5-4", "6-6-6-6"]
    )
    parser.add_argument("--cache", help="cache directory (default: the user's cache)")
    parser.add_argument("--method", default="frontier", choices=sorted(pdb_build.BUILDERS))
    parser.add_argument("--workers", type=int, help="frontier threads (default: every core)")
    parser.add_argument("--compare", help="build this one pattern (cells, e.g. 1,2,3) each way")
    parser.add_argument(
        "--methods",
        default="layers,frontier:1,frontier:2",
        help="with --compare: builders (method[:workers]) in turn",
    )
    parser.add_argument("--rounds", type=int, default=1, help="with --compare: rounds")
    parser.add_argument(
        "--reference", help="a cache directory with the same tables: compare each by SHA-256"
    )
    args = parser.parse_args()
    size = 5 if args.partition in ("5-5-5-5-4", "6-6-6-6") else 4
    for method in pdb_build.BUILDERS:  # compile the kernels outside the timing
        PatternDatabase.build(3, 3, 0, (1, 2), method=method)
    print(f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    if args.compare:
        cells = tuple(int(c) for c in args.compare.split(","))
        digests = set()
        for _ in range(args.rounds):
            for spec in args.methods.split(","):
                method, _, workers = spec.partition(":")
                db, seconds, cpu = timed(size, cells, method, int(workers or 0))
                digests.add(hashlib.sha256(db.table).hexdigest())
                print(
                    f"{spec}: {cells} built in {seconds:.1f} s wall, {cpu:.1f} s CPU, "
                    f"sha256 {hashlib.sha256(db.table).hexdigest()[:16]}, "
                    f"load {os.getloadavg()[0]:.1f}, peak so far {peak_mb()} MB",
                    flush=True,
                )
                del db
        print("identical" if len(digests) == 1 else "DIFFERENT")
        return
    directory = cache_directory(args.cache)
    total = total_cpu = 0.0
    done: list[PatternDatabase] = []
    for cells in PARTITIONS[(size, size, args.partition)]:
        image = sorted((c % size) * size + c // size for c in cells)
        twin = next((d for d in done if sorted(d.cells) == image), None)
        if twin is not None:  # a mirror image: derived, as `load_heuristic` does
            start, cpu0 = time.perf_counter(), time.process_time()
            db = twin.mirrored(cells)
            built, cpu = time.perf_counter() - start, time.process_time() - cpu0
        else:
            db, built, cpu = timed(size, cells, args.method, args.workers)
        db.save(directory)
        digest = hashlib.sha256(db.table).hexdigest()
        if args.reference:
            ref = PatternDatabase.load(size, size, 0, cells, Path(args.reference))
            same = ref is not None and hashlib.sha256(ref.table).hexdigest() == digest
            print(f"  against {args.reference}: {'IDENTICAL' if same else 'DIFFERENT'}", flush=True)
            del ref
        total += built
        total_cpu += cpu
        print(
            f"{len(cells)} tiles {cells}: {db.entries:,} entries, built in {built:.1f} s "
            f"({cpu:.1f} s CPU), "
            f"mean {db.table.mean():.2f}, max {db.table.max()}, "
            f"sha256 {digest[:16]}, load {os.getloadavg()[0]:.1f}, peak so far {peak_mb()} MB",
            flush=True,
        )
        done.append(db)
    print(
        f"{args.partition} ({args.method}): {total:.1f} s wall, {total_cpu:.1f} s CPU in all, "
        f"peak {peak_mb()} MB -> {directory}"
    )


if __name__ == "__main__":
    main()
