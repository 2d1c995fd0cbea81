"""Bench: where the whole 4×5 Klotski universe spends its time, per stage and per piece set, and whether the
search keeps both cores busy.

Run: `.venv/bin/python -m bench.klotski_universe_profile [--per-set N] [--threads 1 2]`. Prints, for each numba
thread count in turn, each stage's wall and process CPU time (CPU / wall ≈ threads busy), then the N biggest piece sets searched one at a time on one thread with
their CPU time per layout. Kernels are compiled and warmed on a 3×4 board first (not timed).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def clocks() -> tuple[float, float]:
    """(wall, process CPU) now."""
    return time.perf_counter(), time.process_time()


def staged() -> tuple[Any, dict[str, tuple[float, float]]]:
    """The 4×5 arrays and each stage's (wall, CPU), summarising included."""
    from tilegames.klotski.universe import compute_arrays, summarise

    stages: dict[str, tuple[float, float]] = {}
    last = clocks()

    def report(stage: str, fraction: float) -> None:
        nonlocal last
        if fraction >= 1.0:
            now = clocks()
            stages[stage] = (now[0] - last[0], now[1] - last[1])
            last = now

    arrays = compute_arrays(4, 5, report=report)
    before = clocks()
    summarise(arrays, 4, 5, 0.0)
    after = clocks()
    stages["summarise"] = (after[0] - before[0], after[1] - before[1])
    return arrays, stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-set", type=int, default=5, help="biggest piece sets timed alone")
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        default=[2],
        help="numba thread counts to compare, in turn",
    )
    args = parser.parse_args()
    import numba

    from tilegames.klotski import universe_kernels as uk
    from tilegames.klotski import universe_split_kernels as us
    from tilegames.klotski.solve import tables
    from tilegames.klotski.universe import compute

    compute(3, 4, progress=False)  # compile or load the kernels
    print(
        f"load average {os.getloadavg()[0]:.1f}, {numba.get_num_threads()} threads, "
        f"layer {numba.threading_layer()}"
    )
    for threads in args.threads:
        numba.set_num_threads(threads)
        arrays, stages = staged()
        print(f"{threads} thread(s), load average {os.getloadavg()[0]:.1f}:")
        for stage, (wall, cpu) in stages.items():
            rate = cpu / max(wall, 1e-9)
            print(f"{stage:>12}: {wall:6.2f} s wall, {cpu:6.2f} s CPU, CPU/wall {rate:.2f}")
        # the sets are handed out one at a time to whichever thread is free: each thread's share of the
        # layouts is its share of the CPU it actually got during the search
        sizes = np.diff(arrays.offsets)
        for thread in np.unique(arrays.thread_of_set):
            mine = arrays.thread_of_set == thread
            print(
                f"      thread {thread}: {int(mine.sum())} piece sets, "
                f"{sizes[mine].sum() / sizes.sum():.0%} of the layouts"
            )
    t = tables(4, 5)
    piece_code, _, _, piece_mask, _, halo = t.kernel
    tabs = (piece_code, piece_mask, halo, uk.board_masks(4, 5))
    sizes = np.diff(arrays.offsets)
    n = len(arrays.codes)
    for s in np.argsort(-sizes)[: args.per_set]:
        lo, hi = int(arrays.offsets[s]), int(arrays.offsets[s + 1])
        group = np.full(n, -1, np.int32)
        distance = np.full(n, -1, np.int16)
        h, v, singles = (int(x) for x in arrays.sets[s])
        start = time.process_time()
        us._solve_set(
            arrays.codes, lo, hi, 4, 5, arrays.counts, h, v, singles, tabs, arrays.split,
            t.goal_masks, t.goal_bits, group, distance,
        )  # fmt: skip
        took = time.process_time() - start
        print(
            f"set {(h, v, singles)}: {hi - lo:,} layouts, {took:.2f} s CPU alone, "
            f"{took / (hi - lo) * 1e9:.0f} ns per layout"
        )


if __name__ == "__main__":
    main()
