"""Lianliankan at the hard end: how many deals the solver decides (clearable with the pairs, or
proven impossible) per size and kind count, before (the solver of a git revision, run from an
export of that tree in a worker process) and after (today's `solve`), interleaved deal by deal.

Run: .venv/bin/python -m bench.link_hard [--deals 20] [--first 0] [--timeout 10] [--sizes hard|arcade]
     [--deal constructed|random|both] [--copies 2 8] [--gravity no|yes|both] [--only 24x12:72]
     [--skip 24x12:72]
     [--before REV | --no-before]

`--sizes arcade` runs every size the arcade lists (`tilegames.web.games.link.SIZES`) with every
kind count it accepts there (1..72 kinds filling the board with an even number of each), with and
without gravity; `--copies LO HI` keeps the kind counts with LO..HI copies of each (many copies
make easy boards). "constructed" deals are `deal(...)`, as the arcade deals them (clearable:
either a random deal the solver cleared within 3000 nodes, or one relabelled to be clearable);
"random" ones are `deal(..., solvable=False)`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable

from tilegames.common import Limits, SearchLimitError
from tilegames.link import Board, deal, solve
from tilegames.web.games.link import SIZES as LINK_SIZES

Verdict = tuple[bool | None, int, float]
"""(clearable: True, False, or None when the time limit stopped it; nodes; CPU seconds)."""

_WORKER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from tilegames.common import Limits, SearchLimitError
from tilegames.link import Board, solve
for line in sys.stdin:
    ask = json.loads(line)
    board = Board.parse(ask["board"], gravity=ask["gravity"])
    cpu = time.process_time()
    try:
        result = solve(board, limits=Limits(timeout=ask["timeout"]))
        answer = [result is not None, result.nodes if result is not None else 0]
    except SearchLimitError as error:
        answer = [None, error.nodes]
    print(json.dumps(answer + [time.process_time() - cpu]), flush=True)
"""


_WARM = ((6, 4, 6), (16, 9, 36), (30, 16, 60))
"""Deals solved once by each solver before the timing: every kernel compiled or loaded."""

_WARM_RANDOM = (24, 12, 72, 69)
"""And a random deal under gravity that only the exhaustive search proves (its confined play,
`closure`, `keys`): the quickly cleared deals above never reach those kernels."""


class Before:
    """The solver of git revision `rev`, from an export of its tree, in a worker process."""

    def __init__(self, rev: str) -> None:
        self.folder = tempfile.TemporaryDirectory(prefix="link_hard_")
        archive = subprocess.run(
            ["git", "archive", "--format=tar", rev, "tilegames"], capture_output=True, check=True
        ).stdout
        with tarfile.open(fileobj=__import__("io").BytesIO(archive)) as tar:
            tar.extractall(self.folder.name, filter="data")
        self.worker = subprocess.Popen(
            [sys.executable, "-c", _WORKER, self.folder.name],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def __call__(self, board: Board, timeout: float) -> Verdict:
        assert self.worker.stdin is not None and self.worker.stdout is not None
        ask = {"board": str(board), "gravity": board.gravity, "timeout": timeout}
        self.worker.stdin.write(json.dumps(ask) + "\n")
        self.worker.stdin.flush()
        verdict, nodes, cpu = json.loads(self.worker.stdout.readline())
        return verdict, nodes, cpu

    def close(self) -> None:
        if self.worker.stdin is not None:
            self.worker.stdin.close()
        self.worker.wait()
        self.folder.cleanup()


def new_solve(board: Board, timeout: float) -> Verdict:
    """Today's solver as (clearable, nodes, CPU seconds): None when its time limit stops it."""
    cpu = time.process_time()
    try:
        result = solve(board, limits=Limits(timeout=timeout))
    except SearchLimitError as error:
        return None, error.nodes, time.process_time() - cpu
    nodes = result.nodes if result is not None else 0
    return (result is not None), nodes, time.process_time() - cpu


def arcade_kinds(width: int, height: int) -> list[int]:
    """The kind counts the arcade offers for a size: 1..72 filling it with an even count each."""
    cells = width * height
    return [k for k in range(1, 73) if cells % k == 0 and (cells // k) % 2 == 0]


def run(
    boards: list[Board], solvers: dict[str, Callable[..., Verdict]], timeout: float,
    slow: float | None = None, first: int = 0,
) -> dict:  # fmt: skip
    """Each board with each solver in turn (interleaved): verdict counts, times, nodes. With
    `slow`, a line for each deal that some solver took longer than that on. The boards are of
    seeds `first`, `first + 1`, ..."""
    stats = {name: [0, 0, 0, 0.0, 0, 0.0, [], 0.0] for name in solvers}
    # yes, no, undecided, slowest, most nodes, total seconds, undecided seeds, CPU seconds
    words = {True: "clearable", False: "impossible", None: "undecided"}
    for seed, board in enumerate(boards, first):
        times: list[tuple[str, float, bool | None]] = []
        for name, solver in solvers.items():
            start = time.perf_counter()
            verdict, nodes, cpu = solver(board, timeout)
            took = time.perf_counter() - start
            row = stats[name]
            row[{True: 0, False: 1, None: 2}[verdict]] += 1
            row[3] = max(row[3], took)
            row[4] = max(row[4], nodes)
            row[5] += took
            row[7] += cpu
            if verdict is None:
                row[6].append(seed)
            times.append((name, took, verdict))
        if slow is not None and any(took > slow for _, took, _ in times):
            each = (f"{name} {took:.2f} s {words[verdict]}" for name, took, verdict in times)
            print(f"  seed {seed}: " + ", ".join(each), flush=True)
    return stats


def table(
    configs, deals: int, timeout: float, solvers: dict[str, Callable[..., Verdict]],
    slow: float | None = None, first: int = 0,
) -> None:  # fmt: skip
    print(
        "| size | kinds × copies | gravity | deals | solver | clearable | impossible | undecided "
        "| mean | mean CPU | slowest | most nodes | load |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        flush=True,
    )
    for width, height, kinds, gravity, clearable in configs:
        copies = width * height // kinds
        boards = [
            deal(width, height, kinds, copies, seed=s, gravity=gravity, solvable=clearable)
            for s in range(first, first + deals)
        ]
        stats = run(boards, solvers, timeout, slow, first)
        what = "constructed" if clearable else "random"
        if first:
            what += f" (seeds {first} to {first + deals - 1})"
        for name, (yes, no, undecided, slowest, nodes, total, seeds, cpu) in stats.items():
            undecided_text = f"{undecided} (seeds {seeds[:40]})" if undecided else "0"
            print(
                f"| {width}x{height} | {kinds} × {copies} | {'yes' if gravity else 'no'} "
                f"| {deals} {what} | {name} | {yes} | {no} | {undecided_text} "
                f"| {total / deals:.2f} s | {cpu / deals:.2f} s | {slowest:.2f} s | {nodes} "
                f"| {os.getloadavg()[0]:.1f} |",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument(
        "--first", type=int, default=0, help="the first deal's seed (a fresh set: not 0)"
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per deal")
    parser.add_argument("--sizes", choices=("hard", "arcade"), default="hard")
    parser.add_argument("--deal", choices=("constructed", "random", "both"), default="both")
    parser.add_argument("--copies", type=int, nargs=2, default=(2, 1000), metavar=("LO", "HI"))
    parser.add_argument("--gravity", choices=("no", "yes", "both"), default="both")
    parser.add_argument(
        "--only", nargs="*", default=(), metavar="WxH:K", help="these classes only (24x12:72)"
    )
    parser.add_argument(
        "--skip", nargs="*", default=(), metavar="WxH:K", help="all classes but these (24x12:72)"
    )
    parser.add_argument("--before", default="main", help="git revision of the 'before' solver")
    parser.add_argument("--no-before", action="store_true", help="today's solver only")
    parser.add_argument(
        "--slow", type=float, metavar="SECONDS", help="a line for each deal slower than this"
    )
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, load average {load:.1f}"
    )
    warm = [deal(w, h, k, seed=0, gravity=g) for w, h, k in _WARM for g in (False, True)]
    w, h, k, seed = _WARM_RANDOM
    warm.append(deal(w, h, k, seed=seed, gravity=True, solvable=False))
    for board in warm:  # compile the kernels outside the timing
        new_solve(board, 5.0)
    kinds_of = {
        "constructed": (True,),
        "random": (False,),
        "both": (True, False),
    }[args.deal]
    gravities = {"no": (False,), "yes": (True,), "both": (False, True)}[args.gravity]
    if args.sizes == "hard":
        sizes = [(30, 16, kinds) for kinds in (40, 60, 80, 120)]
    else:
        sizes = [(w, h, kinds) for w, h in LINK_SIZES for kinds in arcade_kinds(w, h)]
    lo, hi = args.copies
    configs = [
        (w, h, kinds, gravity, clearable)
        for clearable in kinds_of
        for gravity in gravities
        for w, h, kinds in sizes
        if lo <= w * h // kinds <= hi
        and (not args.only or f"{w}x{h}:{kinds}" in args.only)
        and f"{w}x{h}:{kinds}" not in args.skip
    ]
    solvers: dict[str, Callable[..., Verdict]] = {"after": new_solve}
    before = None
    if not args.no_before:
        before = Before(args.before)
        for board in warm:  # its kernels compiled too (a fresh cache in its export)
            before(board, 5.0)
        solvers = {"before": before, "after": new_solve}
    try:
        table(configs, args.deals, args.timeout, solvers, args.slow, args.first)
    finally:
        if before is not None:
            before.close()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
