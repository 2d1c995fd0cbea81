"""Lianliankan under gravity: where along a recorded clearing the plain search loses its time.

Run: .venv/bin/python -m bench.link_traps [--every MOVES] [--budget N] [--drop RATIO] [SEED ...]

For a deal of `bench/data/link_lines.json` (random 24x12 deals with 72 kinds x 4 and gravity that
`solve` leaves undecided at 10 s), the plain exhaustive search (`Exhaust(grid, confine=False)`)
runs from the line's position after every `--every` moves, for at most `--budget` positions
each. Where the positions to the clearing drop more than `--drop` times (4) between two of them
(from at least 100,000), every move between is measured, and each that drops them as much is a
*trap*: the search spends most of its positions under the siblings of the line's next move
there. At each trap every move is listed with what the plain search, the relaxation under
gravity (`falling.doomed`) and the probing of the pairings (`probe.probe`) say of the position
after it (docs/link-rounds.md, round 27).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bench.link_pairing import VERDICT, Cell, follow, lines, plain, walk
from bench.link_subtrees import closed
from tilegames.link import Board, deal, falling, probe
from tilegames.link.exhaust import DEAD, Exhaust

_NONE = np.empty(0, np.int64)
_RELAX_WORK = 100_000_000
"""Path tests for one relaxation or one probing: enough to finish on these boards."""


def positions(board: Board, budget: int, max_bytes: int) -> int:
    """Positions the plain search takes to clear `board`, or more than `budget` (budget + 1)."""
    verdict, nodes, _ = plain(board.grid(), budget, max_bytes)
    return nodes if verdict == "cleared" else budget + 1


def sealed_exactly(every: Exhaust, seconds: float) -> str:
    """For a position the plain search `every` proved impossible: the tiles gone in some
    position of its table (the final `may`), its ways out, and `seal`'s proof of that `may`."""
    may = every.taken()
    started = time.perf_counter()
    proved, ways = closed(every.grid, every.col, every.kind, every.first, may, seconds)
    verdict = {True: "sealed", False: "a way out found", None: "no answer"}[proved]
    took = time.perf_counter() - started
    return f"{int(may.sum())} of {len(may)} tiles, {ways} ways out, {verdict} in {took:.2f} s"


def children(
    board: Board, line_pair: list[Cell], budget: int, max_bytes: int, seal_seconds: float = 0.0
) -> None:
    """Print every move of `board`: on the line?, the relaxation, the probing, the plain search
    (and with `seal_seconds`, the proof of the exact `may` of each impossible one)."""
    extra = " exact `may` sealed |" if seal_seconds else ""
    print(f"| move | on the line | relaxation | probing | plain search | time |{extra}")
    print("|---|---|---|---|---|---|" + ("---|" if seal_seconds else ""))
    for move in board.legal_moves():
        after = board.copy()
        after.push(move)
        grid = after.grid()
        doomed = falling.doomed(grid, _NONE, _RELAX_WORK, _NONE)[0]
        probed = probe.probe(grid, True, _RELAX_WORK)
        every, status, took = walk(grid, budget, max_bytes)
        verdict, nodes = VERDICT[status], every.nodes
        exact = ""
        if seal_seconds:
            exact = f" {sealed_exactly(every, seal_seconds) if status == DEAD else '-'} |"
        del every  # its table: a few hundred MB
        print(
            f"| {move[0]}–{move[1]} | {'yes' if sorted(move) == sorted(line_pair) else ''} "
            f"| {'dead' if doomed else '-'} "
            f"| {'dead' if probed.dead else f'{len(probed.forbid)} pairs forbidden'} "
            f"| {verdict}, {nodes:,} positions | {took:.1f} s |{exact}",
            flush=True,
        )


def study(
    seed: int, line: list[tuple[Cell, Cell]], every: int, budget: int, drop: float, max_bytes: int,
    seal_seconds: float = 0.0,
) -> None:  # fmt: skip
    """Print the positions to the clearing along `line` of deal `seed`, and each trap's moves."""
    along = list(follow(deal(24, 12, 72, 4, seed=seed, gravity=True, solvable=False), line))
    cost: dict[int, int] = {}

    def shown(nodes: int) -> str:
        return f"more than {budget:,}" if nodes > budget else f"{nodes:,}"

    def at(moves: int) -> int:
        if moves not in cost:
            cost[moves] = positions(along[moves][0], budget, max_bytes)
        return cost[moves]

    print(f"\nSeed {seed}: positions to the clearing from the line's position after")
    print("| moves | positions |")
    print("|---|---|")
    marks = list(range(0, len(along) - 1, every))
    for moves in marks:
        started = time.perf_counter()
        nodes = at(moves)
        print(f"| {moves} | {shown(nodes)} ({time.perf_counter() - started:.1f} s) |", flush=True)
    spans = [(mark, min(mark + every, len(along) - 1)) for mark in marks]
    windows = [
        (low, high) for low, high in spans if at(low) >= 100_000 and at(low) > drop * at(high)
    ]
    for low, high in windows:  # every move of a window where the positions drop
        steps = ", ".join(f"{moves}: {shown(at(moves))}" for moves in range(low, high + 1))
        print(f"\nSeed {seed}, move by move: {steps}", flush=True)
    for low, high in windows:
        for moves in range(low, high):
            if at(moves) >= 100_000 and at(moves) > drop * at(moves + 1):
                print(
                    f"\nSeed {seed}, trap after {moves} moves ({shown(at(moves))} positions; "
                    f"{shown(at(moves + 1))} after the line's next move):"
                )
                children(along[moves][0], along[moves][1], budget, max_bytes, seal_seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="*", metavar="SEED", help="default: every line")
    parser.add_argument("--every", type=int, default=8, help="moves between two measurements")
    parser.add_argument("--budget", type=int, default=5_000_000, help="positions per search")
    parser.add_argument("--drop", type=float, default=4.0, help="the drop that makes a trap")
    parser.add_argument("--max-mb", type=int, default=3072, help="most memory for a table")
    parser.add_argument(
        "--seal", type=float, default=0.0, metavar="SECONDS",
        help="prove each impossible move's exact `may` sealed, for at most SECONDS",
    )  # fmt: skip
    args = parser.parse_args()
    if args.every < 1 or args.budget < 1 or not args.drop > 1 or args.seal < 0:
        parser.error(
            "--every and --budget must be at least 1, --drop more than 1, --seal 0 or more"
        )
    recorded = lines()
    seeds = args.seeds or sorted(recorded)
    unknown = [seed for seed in seeds if seed not in recorded]
    if unknown:
        parser.error(f"no recorded line for seed {unknown[0]} (there are {sorted(recorded)})")
    max_bytes = args.max_mb << 20
    plain(deal(6, 4, 6, 2, seed=1, gravity=True).grid(), 1000, 1 << 26)  # compiled outside
    for seed in seeds:
        study(seed, recorded[seed], args.every, args.budget, args.drop, max_bytes, args.seal)


if __name__ == "__main__":
    main()
