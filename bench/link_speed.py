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
from collections import Counter
from collections.abc import Callable

from tilegames.link import KINDS, Board, Limits, SearchLimitError, deal, hint, solve
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


def stuck_board(width: int = 30, height: int = 16, modulus: int = 97) -> Board:
    """A full board with no move: kind (7r + 3c) mod 97 differs along each edge (no ring
    route) and between neighbours (no adjacent pair); a few interior tiles fix the parities."""
    grid = [[(7 * r + 3 * c) % modulus for c in range(width)] for r in range(height)]
    counts = Counter(k for row in grid for k in row)
    odd = sorted(k for k, n in counts.items() if n % 2)
    for a, b in zip(odd[::2], odd[1::2], strict=True):
        spots = [
            (r, c)
            for r in range(1, height - 1)
            for c in range(1, width - 1)
            if grid[r][c] == a
            and b not in {grid[r - 1][c], grid[r + 1][c], grid[r][c - 1], grid[r][c + 1]}
        ]
        r, c = spots[0]
        grid[r][c] = b
    return Board.parse("/".join("".join(KINDS[k] for k in row) for row in grid))


def verdict(board: Board, **kwargs: object) -> bool | None:
    """Cleared (True), proved impossible (False), or a limit hit (None)."""
    try:
        return solve(board, **kwargs) is not None  # type: ignore[arg-type]
    except SearchLimitError:
        return None


def bench_hint() -> list[str]:
    board = deal(30, 16, 36, seed=2)
    hint(board)
    stuck = stuck_board()
    assert stuck.is_stuck()
    return [
        "| full 30x16 board | time |",
        "|---|---|",
        f"| hint() on a deal (36 kinds, 12 or 16 tiles each) | {per_call(lambda: hint(board), 2000) * 1e6:.0f} µs |",
        f"| pairs() on that deal (every removable pair: the full scan) | {per_call(board.pairs, 500) * 1e6:.0f} µs |",
        f"| hint() on a full board with no move (97 kinds, the worst case: None) | {per_call(lambda: hint(stuck), 500) * 1e6:.0f} µs |",
    ]


def bench_deals() -> list[str]:
    lines = [
        "| deal (20 seeds) | plain (solvable=False) | clearable (solvable=True) "
        "| kept untouched / relabelled |",
        "|---|---|---|---|",
    ]
    deal(6, 4, 6, seed=0)  # load the kernels outside the timing
    for width, height, kinds in ((14, 6, 21), (18, 8, 36), (30, 16, 36)):
        for gravity in (False, True):
            shape = (width, height, kinds)
            start = time.perf_counter()
            plain = [deal(*shape, seed=s, gravity=gravity, solvable=False) for s in range(20)]
            middle = time.perf_counter()
            clearable = [deal(*shape, seed=s, gravity=gravity) for s in range(20)]
            end = time.perf_counter()
            kept = sum(a == b for a, b in zip(plain, clearable, strict=True))
            lines.append(
                f"| {width}x{height}, {kinds} kinds{', gravity' if gravity else ''} "
                f"| {(middle - start) / 20 * 1e6:.0f} µs | {(end - middle) / 20 * 1e3:.1f} ms "
                f"| {kept} / {20 - kept} |"
            )
    return lines


def bench_solver(deals: int, timeout: float, baseline_nodes: int) -> list[str]:
    lines = [
        "| gravity | player | proven solvable | proven unsolvable | undecided "
        "| time (total, wall) | CPU time | slowest (wall) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for gravity in (False, True):
        boards = [deal(18, 8, 36, seed=s, gravity=gravity, solvable=False) for s in range(deals)]
        start, cpu = time.perf_counter(), time.process_time()
        cleared = sum(greedy(b)[0] for b in boards)
        lines.append(
            f"| {gravity} | greedy (first pair) | {cleared} cleared | - | {deals - cleared} stuck "
            f"(proves nothing) | {time.perf_counter() - start:.2f} s "
            f"| {time.process_time() - cpu:.2f} s | - |"
        )
        for name, kwargs in (
            (
                f"plain DFS, {baseline_nodes} nodes each",
                dict(limits=Limits(max_nodes=baseline_nodes), safe=False, memo=False),
            ),
            (f"ours, {timeout:g} s each", dict(limits=Limits(timeout=timeout))),
        ):
            verdicts = {True: 0, False: 0, None: 0}
            slowest = 0.0
            start, cpu = time.perf_counter(), time.process_time()
            for board in boards:
                t = time.perf_counter()
                verdicts[verdict(board, **kwargs)] += 1
                slowest = max(slowest, time.perf_counter() - t)
            total, cpu = time.perf_counter() - start, time.process_time() - cpu
            lines.append(
                f"| {gravity} | {name} | {verdicts[True]} | {verdicts[False]} | {verdicts[None]} "
                f"| {total:.2f} s | {cpu:.2f} s | {slowest:.2f} s |"
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
    print("\n".join(bench_deals()), end="\n\n")
    print("\n".join(bench_solver(args.deals, args.timeout, args.baseline_nodes)))


if __name__ == "__main__":
    main()
