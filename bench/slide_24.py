"""The 24-puzzle fast solver per instance: length against optimal (Korf & Taylor's ten) and against
the pattern-database lower bound (uniformly random deals), for one or two partitions side by side.

    .venv/bin/python -m bench.slide_24 [--random 100] [--partitions 5-5-5-5-4 6-6-6-6] [--timeout 5]

Every answer is replayed to the goal. The partitions run interleaved, instance by instance, so that
the load of a shared machine falls on both alike. (The standard set of 50 random instances of Korf &
Felner 2002 was not found in the reference data: Korf & Taylor's ten stand in for "vs optimal".)
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.slide_fast import KORF_TAYLOR_24
from tilegames.slide import Board, random_board, solve


def run(board: Board, goal: Board, partition: str, timeout: float | None) -> tuple[int, int, float]:
    """(length, lower bound, seconds) of a replayed fast solution."""
    start = time.perf_counter()
    solution = solve(board, goal, fast=True, partition=partition, timeout=timeout)
    seconds = time.perf_counter() - start
    replay = board.copy()
    replay.play(solution.moves)
    assert replay.is_solved(goal), "fast solution does not reach the goal"
    return solution.length, solution.lower_bound, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=100, help="uniformly random deals")
    parser.add_argument("--partitions", nargs="+", default=["5-5-5-5-4", "6-6-6-6"])
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    goal = Board(5, 5, list(range(25)))
    for partition in args.partitions:  # load or build the tables, compile, outside the timing
        solve(random_board(5, 5, seed=0), goal, fast=True, partition=partition)
    cases = [(f"KT{i + 1}", Board(5, 5, [int(t) for t in text.split()]), best)
             for i, (text, best) in enumerate(KORF_TAYLOR_24)]  # fmt: skip
    rng = random.Random(args.seed)
    cases += [(f"R{i + 1}", random_board(5, 5, seed=rng), None) for i in range(args.random)]
    print(
        "| instance | optimal | "
        + " | ".join(f"{p}: length (ratio), s" for p in args.partitions)
        + " |"
    )
    print("| --- | --- | " + " | ".join("---" for _ in args.partitions) + " |")
    ratios: dict[str, dict[str, list[float]]] = {p: {"KT": [], "R": []} for p in args.partitions}
    times: dict[str, list[float]] = {p: [] for p in args.partitions}
    for name, board, best in cases:
        results = [run(board, goal, p, args.timeout) for p in args.partitions]
        # Against optimal where published, else the best lower bound any partition proved.
        reference = best if best is not None else max(bound for _, bound, _ in results)
        cells = []
        for partition, (length, _, seconds) in zip(args.partitions, results, strict=True):
            ratio = length / reference
            ratios[partition]["KT" if best is not None else "R"].append(ratio)
            times[partition].append(seconds)
            cells.append(f"{length} ({100 * (ratio - 1):+.1f} %), {seconds:.2f}")
        shown = str(best) if best is not None else f"≥ {reference}"
        print(f"| {name} | {shown} | " + " | ".join(cells) + " |", flush=True)
    for partition in args.partitions:
        for kind, label in (("KT", "vs optimal (Korf & Taylor)"), ("R", "vs lower bound (random)")):
            values = ratios[partition][kind]
            if values:
                print(
                    f"{partition} {label}: mean {100 * (statistics.mean(values) - 1):+.2f} %, "
                    f"worst {100 * (max(values) - 1):+.2f} %, n={len(values)}"
                )
        print(
            f"{partition}: time mean {statistics.mean(times[partition]):.2f} s, "
            f"max {max(times[partition]):.2f} s"
        )


if __name__ == "__main__":
    main()
