"""Korf's 100 15-puzzle instances (goal: blank first), solved optimally; checks the published lengths.

    .venv/bin/python -m bench.slide_korf --solver 6-6-3          # additive PDBs (default)
    .venv/bin/python -m bench.slide_korf --solver 7-8
    .venv/bin/python -m bench.slide_korf --solver manhattan --timeout 10 --first 20
    .venv/bin/python -m bench.slide_korf --solver peer-astar --timeout 10 --first 20

Database build time is reported separately (the first solve loads or builds them).
`peer-*` runs PyPI's `slidingpuzzle` from bench/.peer-venv (it pins an old NumPy), one subprocess per
instance, killed at the timeout.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from tilegames.slide import Board, Limits, SearchLimitError, scramble, solve

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "korf100.tsv"
PEER_PYTHON = Path(__file__).resolve().parent / ".peer-venv" / "bin" / "python"
PEER_RUNNER = Path(__file__).resolve().parent / "slide_peer_runner.py"
GOAL = Board(4, 4, list(range(16)))


def instances(path: Path = DATA) -> list[tuple[int, Board, int]]:
    rows = []
    for line in path.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        number, tiles, length = line.split("\t")
        rows.append((int(number), Board(4, 4, [int(t) for t in tiles.split()]), int(length)))
    return rows


def run_ours(board: Board, solver: str, timeout: float | None) -> tuple[int | None, int, float]:
    partition, heuristic = (solver, "pdb") if solver in ("6-6-3", "7-8") else (None, solver)
    start = time.perf_counter()
    try:
        solution = solve(
            board, GOAL, partition=partition, heuristic=heuristic, limits=Limits(timeout=timeout)
        )
    except SearchLimitError as error:
        return None, error.nodes, time.perf_counter() - start
    replay = board.copy()
    replay.play(solution.moves)
    assert replay == GOAL, "solution does not reach the goal"
    return solution.length, solution.nodes, time.perf_counter() - start


def standard_form(board: Board) -> list[int]:
    """The same puzzle with the goal blank last: turn the board half round, tile t becomes 16 − t."""
    tiles = board.tiles
    return [(16 - tiles[15 - p]) % 16 for p in range(16)]


def run_peer(board: Board, algorithm: str, timeout: float) -> tuple[int | None, int, float]:
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [
                str(PEER_PYTHON),
                str(PEER_RUNNER),
                algorithm,
                " ".join(map(str, standard_form(board))),
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, 0, time.perf_counter() - start
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        return None, 0, elapsed
    result = json.loads(done.stdout)
    return result["length"], result.get("expanded", 0), result.get("seconds", elapsed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--solver",
        default="6-6-3",
        choices=["6-6-3", "7-8", "mdlc", "manhattan", "peer-astar", "peer-idastar"],
    )
    parser.add_argument("--first", type=int, default=100, help="only the first N instances")
    parser.add_argument("--timeout", type=float, help="seconds per instance")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--walks",
        type=int,
        metavar="N",
        help="instead of Korf's instances: N random walks of 40 moves from the goal (seeds 0..N-1), "
        "their optimal lengths from our 6-6-3 solver",
    )
    args = parser.parse_args()
    if args.walks:
        rows = []
        for seed in range(args.walks):
            board = scramble(GOAL, 40, seed=seed)
            rows.append((seed, board, solve(board, GOAL).length))
    else:
        rows = instances()[: args.first]
    if args.solver in ("6-6-3", "7-8"):
        start = time.perf_counter()
        solve(Board.parse("1 0 2 3/4 5 6 7/8 9 10 11/12 13 14 15"), GOAL, partition=args.solver)
        print(f"{args.solver}: databases loaded or built in {time.perf_counter() - start:.1f} s")
    elif args.solver in ("mdlc", "manhattan"):
        solve(Board.parse("1 0 2 3/4 5 6 7/8 9 10 11/12 13 14 15"), GOAL, heuristic=args.solver)
    solved = nodes = optimal = 0
    seconds = 0.0
    for number, board, length in rows:
        if args.solver.startswith("peer-"):
            found, used, elapsed = run_peer(board, args.solver[5:], args.timeout or 10.0)
        else:
            found, used, elapsed = run_ours(board, args.solver, args.timeout)
        if found is not None:
            if not args.solver.startswith("peer-"):
                assert found == length, f"instance {number}: {found} moves, published {length}"
            solved += 1
            optimal += found == length
        nodes += used
        seconds += elapsed
        if not args.quiet:
            status = "timeout" if found is None else f"{found:3d} moves"
            print(
                f"{number:3d} {length:3d} {status:>9} {used:12,d} nodes {elapsed:8.3f} s",
                flush=True,
            )
    rate = nodes / seconds if seconds else 0.0
    print(
        f"{args.solver}: {solved}/{len(rows)} solved ({optimal} optimal), {seconds:.2f} s total, "
        f"{seconds / len(rows):.4f} s mean, {nodes:,} nodes ({nodes / len(rows):,.0f} mean), "
        f"{rate / 1e6:.1f} M nodes/s"
    )


if __name__ == "__main__":
    sys.exit(main())
