"""Lianliankan speed: path test per pair, hint() on a full 30x16 board, and the whole-board solver
on 100 plain random 18x8 deals (36 kinds x 4), with and without gravity, side by side with a
greedy player and a plain depth-first search.

Run: .venv/bin/python -m bench.link_speed [--deals 100] [--timeout 10] [--baseline-nodes 20000]
"""

from __future__ import annotations

import argparse
import heapq
import os
import platform
import random
import time
from collections.abc import Callable

from tilegames.link import Board, deal, solve
from tilegames.link.solve import greedy

DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def bfs_connects(board: Board, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The slow reference: best-first search over (cell, direction) by turns."""
    heap = [(0, a[0], a[1], d) for d in range(4)]
    seen: set[tuple[int, int, int]] = set()
    while heap:
        turns, r, c, d = heapq.heappop(heap)
        if (r, c) == b:
            return True
        if (r, c, d) in seen:
            continue
        seen.add((r, c, d))
        for nd, (dr, dc) in enumerate(DIRECTIONS):
            nt = turns + (nd != d)
            nr, nc = r + dr, c + dc
            if nt > 2 or not (-1 <= nr <= board.height and -1 <= nc <= board.width):
                continue
            inside = 0 <= nr < board.height and 0 <= nc < board.width
            if (nr, nc) == b or not inside or board[(nr, nc)] is None:
                heapq.heappush(heap, (nt, nr, nc, nd))
    return False


def per_call(func: Callable[[], object], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        func()
    return (time.perf_counter() - start) / repeat


def bench_paths() -> list[str]:
    lines = [
        "| board | same-kind pairs | path() per pair (Python API) | inside pairs() per pair "
        "(kernel) | BFS reference per pair | speed-up (path() / kernel) |",
        "|---|---|---|---|---|---|",
    ]
    for label, board in (
        ("18x8, 36 pairs removed", _half_cleared(deal(18, 8, 36, seed=1))),
        ("30x16 full", deal(30, 16, 36, seed=1)),
    ):
        lines.append(_time_paths(label, board))
    return lines


def _time_paths(label: str, board: Board) -> str:
    tiles = list(board.cells())
    same = [(a, b) for i, (a, k) in enumerate(tiles) for b, other in tiles[i + 1 :] if k == other]
    board.path(*same[0])  # compile outside the timing
    kernel = per_call(board.pairs, 200) / len(same)
    fast = per_call(lambda: [board.path(a, b) for a, b in same], 3) / len(same)
    slow = per_call(lambda: [bfs_connects(board, a, b) for a, b in same[:300]], 1) / 300
    return (
        f"| {label} | {len(same)} | {fast * 1e6:.1f} µs | {kernel * 1e6:.2f} µs "
        f"| {slow * 1e6:.0f} µs | {slow / fast:.0f}x / {slow / kernel:.0f}x |"
    )


def _half_cleared(board: Board) -> Board:
    rng = random.Random(1)
    for _ in range(36):
        board.push(rng.choice(board.pairs()))
    return board


def bench_hint() -> list[str]:
    board = deal(30, 16, 36, seed=2)
    board.hint()
    hint = per_call(board.hint, 2000)
    pairs = per_call(board.pairs, 500)
    return [
        "| full 30x16 board | time |",
        "|---|---|",
        f"| hint() (first pair in reading order) | {hint * 1e6:.0f} µs |",
        f"| pairs() (every removable pair: the full scan, the worst case of hint) | {pairs * 1e6:.0f} µs |",
    ]


def bench_solver(deals: int, timeout: float, baseline_nodes: int) -> list[str]:
    lines = [
        "| gravity | player | proven solvable | proven unsolvable | undecided | time (total) | slowest |",
        "|---|---|---|---|---|---|---|",
    ]
    for gravity in (False, True):
        boards = [deal(18, 8, 36, seed=s, gravity=gravity, solvable=False) for s in range(deals)]
        start = time.perf_counter()
        cleared = sum(greedy(b)[0] for b in boards)
        lines.append(
            f"| {gravity} | greedy (first pair) | {cleared} cleared | - | {deals - cleared} stuck "
            f"(proves nothing) | {time.perf_counter() - start:.2f} s | - |"
        )
        for name, kwargs in (
            (
                f"plain DFS, {baseline_nodes} nodes each",
                dict(max_nodes=baseline_nodes, safe=False, memo=False),
            ),
            (f"ours, {timeout:g} s each", dict(timeout=timeout)),
        ):
            verdicts = {True: 0, False: 0, None: 0}
            slowest = 0.0
            start = time.perf_counter()
            for board in boards:
                t = time.perf_counter()
                verdicts[solve(board, **kwargs).solvable] += 1
                slowest = max(slowest, time.perf_counter() - t)
            total = time.perf_counter() - start
            lines.append(
                f"| {gravity} | {name} | {verdicts[True]} | {verdicts[False]} | {verdicts[None]} "
                f"| {total:.2f} s | {slowest:.2f} s |"
            )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per deal (ours)")
    parser.add_argument("--baseline-nodes", type=int, default=20000)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print("\n".join(bench_paths()), end="\n\n")
    print("\n".join(bench_hint()), end="\n\n")
    print("\n".join(bench_solver(args.deals, args.timeout, args.baseline_nodes)))


if __name__ == "__main__":
    main()
