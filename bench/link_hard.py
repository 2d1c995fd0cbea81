"""Lianliankan at the hard end: how many deals the solver decides (clearable with the pairs, or
proven impossible) per size and kind count, before (the solver of commit 6c588a6, loaded from
git) and after (today's `solve`), interleaved deal by deal in one run.

Run: .venv/bin/python -m bench.link_hard [--deals 20] [--timeout 10] [--sizes hard|arcade]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
import types
from collections.abc import Callable

from tilegames.common import Limits, SearchLimitError
from tilegames.link import Board, deal, solve
from tilegames.web.games.link import SIZES as LINK_SIZES

BEFORE = "6c588a6"
"""The last commit with the old solver (depth-first search over moves, fixed order)."""


def old_solve() -> Callable[..., tuple[bool | None, int]]:
    """The solver as it was at BEFORE, from git (its kernels are still in the tree)."""
    source = subprocess.run(
        ["git", "show", f"{BEFORE}:tilegames/link/solve.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType("tilegames.link._solve_before")
    sys.modules[module.__name__] = module
    exec(compile(source, "solve_before.py", "exec"), module.__dict__)

    def verdict(board: Board, timeout: float) -> tuple[bool | None, int]:
        result = module.solve(board, timeout=timeout)
        return result.solvable, result.nodes

    return verdict


def new_solve(board: Board, timeout: float) -> tuple[bool | None, int]:
    """Today's solver as (clearable, nodes): None when its time limit stops it."""
    try:
        result = solve(board, limits=Limits(timeout=timeout))
    except SearchLimitError as error:
        return None, error.nodes
    return (result is not None), (result.nodes if result is not None else 0)


def arcade_kinds(width: int, height: int) -> list[int]:
    """The kind counts the arcade offers for a size: 1..72 filling it with an even count each."""
    cells = width * height
    return [k for k in range(1, 73) if cells % k == 0 and (cells // k) % 2 == 0]


def run(
    boards: list[Board], solvers: dict[str, Callable[..., tuple[bool | None, int]]], timeout: float
) -> dict[str, list]:
    """Each board with each solver in turn (interleaved): verdict counts and slowest time."""
    stats = {name: [0, 0, 0, 0.0, 0] for name in solvers}  # yes, no, undecided, slowest, nodes
    for board in boards:
        for name, solver in solvers.items():
            start = time.perf_counter()
            verdict, nodes = solver(board, timeout)
            took = time.perf_counter() - start
            row = stats[name]
            row[{True: 0, False: 1, None: 2}[verdict]] += 1
            row[3] = max(row[3], took)
            row[4] = max(row[4], nodes)
    return stats


def table(configs, deals: int, timeout: float, before: bool) -> list[str]:
    solvers: dict[str, Callable[..., tuple[bool | None, int]]] = {"after": new_solve}
    if before:
        solvers = {"before": old_solve(), "after": new_solve}
    lines = [
        "| size | kinds × copies | gravity | deals | solver | clearable | impossible | undecided "
        "| slowest | most nodes |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for width, height, kinds, gravity, clearable in configs:
        copies = width * height // kinds
        boards = [
            deal(width, height, kinds, copies, seed=s, gravity=gravity, solvable=clearable)
            for s in range(deals)
        ]
        stats = run(boards, solvers, timeout)
        what = "by construction" if clearable else "random"
        for name, (yes, no, undecided, slowest, nodes) in stats.items():
            lines.append(
                f"| {width}x{height} | {kinds} × {copies} | {'yes' if gravity else 'no'} "
                f"| {deals} {what} | {name} | {yes} | {no} | {undecided} | {slowest:.2f} s "
                f"| {nodes} |"
            )
        print(lines[-1] if len(stats) == 1 else "\n".join(lines[-2:]), flush=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--sizes", choices=("hard", "arcade"), default="hard")
    parser.add_argument("--no-before", action="store_true", help="today's solver only")
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    deal(6, 4, 6, seed=0)  # compile the kernels outside the timing
    solve(deal(6, 4, 6, seed=0, gravity=True))
    if args.sizes == "hard":
        configs = [
            (30, 16, kinds, gravity, clearable)
            for clearable in (False, True)
            for gravity in (False, True)
            for kinds in (40, 60, 80, 120)
        ]
    else:
        configs = [
            (w, h, kinds, gravity, False)
            for w, h in LINK_SIZES
            for kinds in arcade_kinds(w, h)
            for gravity in (False, True)
        ]
    table(configs, args.deals, args.timeout, not args.no_before)


if __name__ == "__main__":
    main()
