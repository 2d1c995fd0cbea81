"""The fast solver: solution length against a lower bound (and against optimal where we can get it).

    .venv/bin/python -m bench.slide_fast [--deals 10] [--big 30 100]

5×5 and 10×10: uniformly random deals. "vs optimal": 5×5 random walks short enough for the optimal
solver (5-5-5-5-4 databases + linear conflict) to finish within its time limit, and the ten random
24-puzzle instances of Korf & Taylor (1996) against their published optimal lengths.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from tilegames.slide import Board, Limits, SearchLimitError, random_board, scramble, solve

# Korf & Taylor (1996), "Finding optimal solutions to the Twenty-Four Puzzle": ten random instances
# (goal 0 1 2 ... 24, blank first) and their optimal lengths, as listed with the instances at
# https://domslee.com/2021/11/25/solving-the-24-puzzle (the tenth was first solved later).
KORF_TAYLOR_24 = (
    ("17 1 20 9 16 2 22 19 14 5 15 21 0 3 24 23 18 13 12 7 10 8 6 4 11", 100),
    ("14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13", 95),
    ("7 13 11 22 12 20 1 18 21 5 0 8 14 24 19 9 4 17 16 10 23 15 3 2 6", 108),
    ("18 14 0 9 8 3 7 19 2 15 5 12 1 13 24 23 4 21 10 20 16 22 11 6 17", 98),
    ("2 0 10 19 1 4 16 3 15 20 22 9 6 18 5 13 12 21 8 17 23 11 24 7 14", 101),
    ("16 5 1 12 6 24 17 9 2 22 4 10 13 18 19 20 0 23 7 21 15 11 8 3 14", 96),
    ("21 22 15 9 24 12 16 23 2 8 5 18 17 7 10 14 13 4 0 6 20 11 3 1 19", 104),
    ("6 0 24 14 8 5 21 19 9 17 16 20 10 13 2 15 11 22 1 3 7 23 4 18 12", 97),
    ("3 2 17 0 14 18 22 19 15 20 9 7 10 21 16 6 24 23 8 5 1 4 11 12 13", 113),
    ("23 14 0 24 17 9 20 21 2 18 10 13 22 1 3 11 4 16 6 5 7 12 8 15 19", 114),
)


def timed_fast(board: Board, goal: Board | None = None):
    start = time.perf_counter()
    solution = solve(board, goal, fast=True)
    seconds = time.perf_counter() - start
    replay = board.copy()
    replay.play(solution.moves)
    assert replay.is_solved(goal), "fast solution does not reach the goal"
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
            best = solve(board, limits=Limits(timeout=30)).length
        except SearchLimitError:
            continue
        solution, seconds = timed_fast(board)
        compared.append((solution.length, best, seconds))
        print(f"  5x5 walk: fast {solution.length}, optimal {best}, {seconds:.2f} s", flush=True)
    report("5x5 walks, length/optimal", compared)
    goal = Board(5, 5, list(range(25)))
    published = []
    for text, optimal in KORF_TAYLOR_24:
        solution, seconds = timed_fast(Board(5, 5, [int(t) for t in text.split()]), goal)
        published.append((solution.length, optimal, seconds))
        print(f"  Korf-Taylor 24: fast {solution.length}, optimal {optimal}, {seconds:.2f} s")
    report("5x5 Korf-Taylor instances, length/optimal", published)
    for size in args.big:
        solution, seconds = timed_fast(random_board(size, size, seed=size))
        report(f"{size}x{size} random deal", [(solution.length, solution.lower_bound, seconds)])


if __name__ == "__main__":
    main()
