"""Bench: optimal Klotski solving, compiled BFS against a plain Python BFS baseline, in the same run.

Run: `.venv/bin/python -m bench.klotski_solve` (targets after warm-up: 横刀立马 <= 5 ms, 峰回路转 <= 10 ms).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tilegames.klotski.kernels  # noqa: F401  # imported: solve() runs the kernels, not plain.py
from tilegames.klotski import LAYOUTS, solve
from tilegames.klotski.solve import reference_search

LAYOUT_NAMES = ("横刀立马", "峰回路转", "近在咫尺", "走投无路")
RUNS = 30


def timed(function, *args) -> tuple[float, object]:
    started = time.perf_counter()
    value = function(*args)
    return time.perf_counter() - started, value


def main() -> None:
    print(
        f"machine: {os.cpu_count()} cores (shared with other jobs); {RUNS} runs after warm-up, median and best"
    )
    print("| layout | metric | length | compiled BFS median | best | plain Python BFS | speed-up |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    compile_time, _ = timed(solve, LAYOUTS["横刀立马"])
    for name in LAYOUT_NAMES:
        for metric in ("moves", "steps"):
            board = LAYOUTS[name]
            solve(board, metric)  # warm-up
            times = []
            for _ in range(RUNS):
                elapsed, solution = timed(solve, board, metric)
                times.append(elapsed)
            baseline, path = timed(reference_search, board, metric)
            length = solution.length if solution else "unsolvable"
            assert (path is None) == (solution is None) and (
                path is None or len(path) - 1 == solution.length
            )
            median = statistics.median(times)
            print(
                f"| {name} | {metric} | {length} | {median * 1e3:.2f} ms | {min(times) * 1e3:.2f} ms | "
                f"{baseline * 1e3:.0f} ms | {baseline / median:.0f}× |"
            )
    print(f"first call (loads or compiles the kernels): {compile_time:.2f} s")


if __name__ == "__main__":
    main()
