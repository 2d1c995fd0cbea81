"""The 24-puzzle fast solver per instance, before (a baseline tree) and after (this tree), interleaved.

    .venv/bin/python -m bench.slide_24 [--baseline DIR] [--random 100] [--timeout 5] [--optimal 2]

Instances: the 50 random 24-puzzles of Korf & Felner (2002) against their published optimal lengths
(bench/data/korf_felner_24.txt; the first ten are Korf & Taylor's), then `--random` uniformly random
deals of our own against the best lower bound either solver proved. Each side runs in its own worker
process (`--baseline DIR`: a directory holding another tree's `tilegames` package, e.g. main's
exported with `git archive main tilegames | tar -x -C DIR`; without it, only this tree runs), and the
two answer instance by instance in turn, so that the load of a shared machine falls on both alike.
Every answer is replayed to the goal here. Wall and CPU seconds per solve are the worker's (CPU time
is the fairer figure on a loaded machine). `--optimal N` then solves the N easiest of the 50 (fewest
nodes in Korf & Felner's table) optimally with the 6-6-6-6 databases, with nodes and time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data" / "korf_felner_24.txt"
KORF_TAYLOR = {f"KF{n}" for n in range(1, 11)}  # the first ten of the 50 are Korf & Taylor's


def korf_felner_24() -> list[tuple[int, int, int, list[int]]]:
    """(number, optimal length, Korf & Felner's nodes, tiles) of the 50 instances."""
    rows = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, optimal, nodes, *tiles = (int(v) for v in line.split())
            rows.append((number, optimal, nodes, tiles))
    return rows


def worker() -> None:
    """Answer JSON requests on stdin with the fast solver of whichever `tilegames` is first on the
    path: {"tiles", "partition", "timeout"} -> {"moves", "lower_bound", "nodes", "wall", "cpu"}."""
    import time

    from tilegames.common import Limits
    from tilegames.slide import Board, solve

    for line in sys.stdin:
        request = json.loads(line)
        board, goal = Board(5, 5, request["tiles"]), Board(5, 5, list(range(25)))
        limits = Limits(timeout=request["timeout"]) if request["timeout"] else None
        wall, cpu = time.perf_counter(), time.process_time()
        solution = solve(board, goal, fast=True, limits=limits, partition=request["partition"])
        answer = {
            "moves": "".join(solution.moves),
            "lower_bound": solution.lower_bound,
            "nodes": solution.nodes,
            "wall": time.perf_counter() - wall,
            "cpu": time.process_time() - cpu,
        }
        print(json.dumps(answer), flush=True)


class Side:
    """One solver in its own process, with `tree` (a directory holding `tilegames`) first on the path."""

    def __init__(self, name: str, tree: str | None, partition: str | None) -> None:
        self.name, self.partition = name, partition
        code = "import sys; sys.path.insert(0, sys.argv[1]); from bench.slide_24 import worker; worker()"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, tree or os.getcwd()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def solve(self, tiles: list[int], timeout: float | None) -> dict:
        assert self.proc.stdin and self.proc.stdout
        request = {"tiles": tiles, "partition": self.partition, "timeout": timeout}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def replayed(tiles: list[int], moves: str) -> int:
    """The length of `moves`, after checking that they take `tiles` to the standard goal."""
    from tilegames.slide import Board

    board = Board(5, 5, tiles)
    board.play(list(moves))
    assert board.is_solved(Board(5, 5, list(range(25)))), "the answer does not reach the goal"
    return len(moves)


def summary(
    name: str, label: str, ratios: list[float], times: list[float], cpus: list[float]
) -> None:
    if ratios:
        print(
            f"{name} {label}: mean {100 * (statistics.mean(ratios) - 1):+.2f} %, "
            f"worst {100 * (max(ratios) - 1):+.2f} %, n={len(ratios)}, "
            f"over +6 %: {sum(r > 1.06 for r in ratios)}; "
            f"wall mean {statistics.mean(times):.2f} s max {max(times):.2f} s; "
            f"CPU mean {statistics.mean(cpus):.2f} s max {max(cpus):.2f} s",
            flush=True,
        )


def optimal_solves(count: int) -> None:
    """The stretch: optimal solves of the easiest instances (6-6-6-6 databases, reflected)."""
    import time

    from tilegames.common import Limits
    from tilegames.slide import Board, solve

    easiest = sorted(korf_felner_24(), key=lambda row: row[2])[:count]
    for number, optimal, korf_nodes, tiles in easiest:
        board = Board(5, 5, tiles)
        wall, cpu = time.perf_counter(), time.process_time()
        goal = Board(5, 5, list(range(25)))
        solution = solve(board, goal, partition="6-6-6-6", limits=Limits(max_nodes=10**12))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        replayed(tiles, "".join(solution.moves))
        assert solution.optimal and solution.length == optimal, (solution.length, optimal)
        print(
            f"optimal #{number}: {solution.length} moves (published {optimal}), "
            f"{solution.nodes:,} nodes (Korf & Felner: {korf_nodes:,}), "
            f"{wall:.1f} s wall, {cpu:.1f} s CPU, {solution.nodes / max(cpu, 1e-9) / 1e6:.1f} M nodes/s CPU",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="directory with the baseline tree's tilegames package")
    parser.add_argument("--random", type=int, default=0, help="uniformly random deals of our own")
    parser.add_argument("--first", type=int, default=50, help="only the first N of the 50")
    parser.add_argument("--start", type=int, default=1, help="from instance N of the 50")
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--partition", default=None, help="this tree's partition (default: auto)")
    parser.add_argument("--optimal", type=int, default=0, help="optimal solves of the N easiest")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    from tilegames.slide import random_board

    sides = [Side("after", None, args.partition)]
    if args.baseline:
        sides.insert(0, Side("before", args.baseline, None))
    warm = random_board(5, 5, seed=0).tiles
    for side in sides:  # load the tables and compile, outside the timing
        side.solve(list(warm), None)
    cases = [
        (f"KF{n}", tiles, best)
        for n, best, _, tiles in korf_felner_24()[args.start - 1 : args.first]
    ]
    rng = random.Random(args.seed)
    cases += [
        (f"R{i + 1}", list(random_board(5, 5, seed=rng).tiles), None) for i in range(args.random)
    ]
    print(
        "| instance | optimal | "
        + " | ".join(f"{s.name}: length (%), s wall / CPU" for s in sides)
        + " |"
    )
    print("| --- | --- | " + " | ".join("---" for _ in sides) + " |", flush=True)
    stats = {s.name: {"KF": ([], [], []), "KT": ([], [], []), "R": ([], [], [])} for s in sides}
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    for name, tiles, best in cases:
        answers = [side.solve(tiles, args.timeout) for side in sides]
        lengths = [replayed(tiles, a["moves"]) for a in answers]
        reference = best if best is not None else max(a["lower_bound"] for a in answers)
        cells = []
        kinds = ["KF", "KT"] if name in KORF_TAYLOR else ["KF"] if best is not None else ["R"]
        for side, answer, length in zip(sides, answers, lengths, strict=True):
            for kind in kinds:
                ratios, walls, cpus = stats[side.name][kind]
                ratios.append(length / reference)
                walls.append(answer["wall"])
                cpus.append(answer["cpu"])
            cells.append(
                f"{length} ({100 * (length / reference - 1):+.1f} %), "
                f"{answer['wall']:.2f} / {answer['cpu']:.2f}"
            )
        shown = str(best) if best is not None else f"≥ {reference}"
        print(f"| {name} | {shown} | " + " | ".join(cells) + " |", flush=True)
    for side in sides:
        side.close()
        for kind, label in (
            ("KF", "vs optimal (Korf & Felner's 50)"),
            ("KT", "vs optimal (Korf & Taylor's ten, the first ten)"),
            ("R", "vs lower bound (random)"),
        ):
            summary(side.name, label, *stats[side.name][kind])
    print(f"load average at the end: {os.getloadavg()}", flush=True)
    if args.optimal:
        optimal_solves(args.optimal)


if __name__ == "__main__":
    main()
