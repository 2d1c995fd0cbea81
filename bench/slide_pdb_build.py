"""Time building the 4×4 pattern databases from nothing, and write them to the cache.

.venv/bin/python -m bench.slide_pdb_build [6-6-3|7-8|5-5-5-5-4] [--cache DIR] [--method layers|queue]
.venv/bin/python -m bench.slide_pdb_build 7-8 --compare 1,2,3,4,5,6,7   # both builders, one pattern
.venv/bin/python -m bench.slide_pdb_build 7-8 --cache DIR --reference OLD  # SHA-256 against OLD's files

Prints each table's build time and SHA-256 (so two builders' files can be compared by hash) and the
process's peak resident memory. Run one partition per process: the peak is per process.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import time
from pathlib import Path

from tilegames.slide.solve.pdb import PARTITIONS, PatternDatabase, cache_directory


def peak_mb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024


def timed(size: int, cells: tuple[int, ...], method: str) -> tuple[PatternDatabase, float, float]:
    """The database, wall seconds and CPU seconds (on a shared machine the CPU time is the fairer)."""
    start, cpu = time.perf_counter(), time.process_time()
    db = PatternDatabase.build(size, size, 0, cells, progress=True, method=method)
    return db, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "partition", nargs="?", default="6-6-3", choices=["6-6-3", "7-8", "5-5-5-5-4", "6-6-6-6"]
    )
    parser.add_argument("--cache", help="cache directory (default: the user's cache)")
    parser.add_argument("--method", default="layers", choices=["layers", "queue"])
    parser.add_argument("--compare", help="build this one pattern (cells, e.g. 1,2,3) both ways")
    parser.add_argument(
        "--reference", help="a cache directory with the same tables: compare each by SHA-256"
    )
    args = parser.parse_args()
    size = 5 if args.partition in ("5-5-5-5-4", "6-6-6-6") else 4
    for method in ("layers", "queue"):  # compile the kernels outside the timing
        PatternDatabase.build(3, 3, 0, (1, 2), method=method)
    if args.compare:
        cells = tuple(int(c) for c in args.compare.split(","))
        digests = []
        for method in ("layers", "queue"):
            db, seconds, cpu = timed(size, cells, method)
            digests.append(hashlib.sha256(db.table).hexdigest())
            print(
                f"{method}: {cells} built in {seconds:.1f} s wall, {cpu:.1f} s CPU, "
                f"sha256 {digests[-1][:16]}, peak so far {peak_mb()} MB",
                flush=True,
            )
            del db
        print("identical" if digests[0] == digests[1] else "DIFFERENT")
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
            db, built, cpu = timed(size, cells, args.method)
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
            f"sha256 {digest[:16]}, peak so far {peak_mb()} MB",
            flush=True,
        )
        done.append(db)
    print(
        f"{args.partition} ({args.method}): {total:.1f} s in all, peak {peak_mb()} MB -> {directory}"
    )


if __name__ == "__main__":
    main()
