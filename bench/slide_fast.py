"""The fast solver: solution length against a lower bound (and against optimal where we can get it).

    .venv/bin/python -m bench.slide_fast [--deals 10] [--big 30 100]

5×5 and 10×10: uniformly random deals. "vs optimal": 5×5 random walks short enough for the optimal
solver (5-5-5-5-4 databases + linear conflict) to finish within its time limit.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tilegames.slide import Board, SearchLimitError, random_board, scramble, solve


def timed_fast(board: Board):
    start = time.perf_counter()
    solution = solve(board, fast=True)
    seconds = time.perf_counter() - start
    replay = board.copy()
    replay.play(solution.moves)
    assert replay.is_solved(), "fast solution does not reach the goal"
    return solution, seconds


def report(label: str, rows: list[tuple[int, int, float]]) -> None:
    if not rows:
        return
    ratios = [length / bound for length, bound, _ in rows]
    print(
        f"{label}: {len(rows)} boards, mean length {statistics.mean(r[0] for r in rows):.1f}, "
        f"mean lower bound {statistics.mean(r[1] for r in rows):.1f}, "
        f"length/bound mean {statistics.mean(ratios):.3f} (max {max(ratios):.3f}), "
        f"mean {statistics.mean(r[2] for r in rows):.2f} s (max {max(r[2] for r in rows):.2f} s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--walks", type=int, default=10, help="5x5 walks compared with optimal")
    parser.add_argument("--big", type=int, nargs="*", default=[30, 100])
    args = parser.parse_args()
    solve(random_board(5, 5, seed=0), fast=True)  # load or build the 5×5 databases, compile
    rng = random.Random(2026)
    for size, count in ((5, args.deals), (10, args.deals)):
        rows = []
        for _ in range(count):
            solution, seconds = timed_fast(random_board(size, size, seed=rng))
            rows.append((solution.length, solution.lower_bound, seconds))
        report(f"{size}x{size} random deals", rows)
    compared = []
    while len(compared) < args.walks:
        board = scramble(Board.solved(5, 5), 120, seed=rng)
        try:
            best = solve(board, timeout=30).length
        except SearchLimitError:
            continue
        solution, seconds = timed_fast(board)
        compared.append((solution.length, best, seconds))
        print(f"  5x5 walk: fast {solution.length}, optimal {best}, {seconds:.2f} s", flush=True)
    report("5x5 walks, length/optimal", compared)
    for size in args.big:
        solution, seconds = timed_fast(random_board(size, size, seed=size))
        report(f"{size}x{size} random deal", [(solution.length, solution.lower_bound, seconds)])


if __name__ == "__main__":
    main()
