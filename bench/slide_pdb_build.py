"""Time building the 4×4 pattern databases from nothing, and write them to the cache.

.venv/bin/python -m bench.slide_pdb_build [6-6-3|7-8] [--cache DIR]
"""

from __future__ import annotations

import argparse
import time

from tilegames.slide.solve.pdb import PARTITIONS, PatternDatabase, cache_directory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "partition", nargs="?", default="6-6-3", choices=["6-6-3", "7-8", "5-5-5-5-4"]
    )
    parser.add_argument("--cache", help="cache directory (default: the user's cache)")
    args = parser.parse_args()
    size = 5 if args.partition == "5-5-5-5-4" else 4
    directory = cache_directory(args.cache)
    PatternDatabase.build(3, 3, 0, (1, 2))  # compile the kernels outside the timing
    total = 0.0
    for cells in PARTITIONS[(size, size, args.partition)]:
        start = time.perf_counter()
        db = PatternDatabase.build(size, size, 0, cells, progress=True)
        built = time.perf_counter() - start
        db.save(directory)
        total += built
        print(
            f"{len(cells)} tiles {cells}: {db.entries:,} entries, built in {built:.1f} s, "
            f"mean {db.table.mean():.2f}, max {db.table.max()}",
            flush=True,
        )
    print(f"{args.partition}: {total:.1f} s in all -> {directory}")


if __name__ == "__main__":
    main()
