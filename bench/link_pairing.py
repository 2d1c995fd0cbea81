"""Lianliankan under gravity: the plain search with each kind's pairing fixed to a recorded clearing's.

Run: .venv/bin/python -m bench.link_pairing [--free POSITIONS] [--reverse] [SEED ...]

`bench/data/link_lines.json` holds clearing lines of random 24x12 deals with 72 kinds x 4 and
gravity (`deal(24, 12, 72, 4, seed=SEED, gravity=True, solvable=False)`) that `solve` leaves
undecided at 10 s, each pair as the cells its two tiles start on. Each line is first replayed on
its deal, a check that it clears it. Then each of its 144 pairs becomes a kind of its own, and the
plain exhaustive search (`Exhaust(grid, confine=False)`) plays the deal so relabelled: the line's
pairing, in any order. The search breaks ties by kind number, so the new kinds are numbered in
the order of the deal's own kinds (`--reverse`: the reverse order), never in the line's. With
`--free N` the same search also runs on the deal itself, for at most N positions. It tells how
much of a deal's difficulty is the pairing (docs/link-rounds.md, round 25).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from tilegames.link import Board, IllegalMoveError, deal
from tilegames.link.exhaust import DEAD, GROW, PAUSE, SOLVED, Exhaust

LINES = Path(__file__).resolve().parent / "data" / "link_lines.json"
VERDICT = {SOLVED: "cleared", DEAD: "impossible", GROW: "table full", PAUSE: "undecided"}

Cell = tuple[int, int]


def lines() -> dict[int, list[tuple[Cell, Cell]]]:
    """The recorded lines by seed: each pair as the start cells of its two tiles."""
    recorded = json.loads(LINES.read_text(encoding="utf-8"))["lines"]
    return {int(seed): [(tuple(a), tuple(b)) for a, b in line] for seed, line in recorded.items()}


def follow(board: Board, line: list[tuple[Cell, Cell]]) -> Iterator[tuple[Board, list[Cell]]]:
    """Play `line` on a copy of `board` (gravity on, every cell a tile, as these deals are),
    following each tile as it falls: before each pair, the board and the pair's cells then; last,
    the board after the whole line and no pair. A pair that is not joinable on its turn ends the
    walk (`IllegalMoveError`)."""
    board = board.copy()
    column = [list(range(board.height - 1, -1, -1)) for _ in range(board.width)]
    for pair in line:
        now = [(board.height - 1 - column[c].index(r), c) for r, c in pair]
        yield board.copy(), now
        board.push(now)
        for r, c in pair:
            column[c].remove(r)
    yield board, []


def replay(board: Board, line: list[tuple[Cell, Cell]]) -> bool:
    """Does `line` clear `board`? (No when a pair is not joinable on its turn.)"""
    try:
        *_, (end, _) = follow(board, line)
    except IllegalMoveError:
        return False
    return end.is_solved()


def fixed(board: Board, line: list[tuple[Cell, Cell]], reverse: bool) -> np.ndarray:
    """The padded grid with each pair of `line` a kind of its own, numbered by the deal's kind and
    then by the pair's first cell in reading order (`reverse`: the deal's kinds backwards)."""
    grid = board.grid()
    width = board.width

    def order(pair: tuple[Cell, Cell]) -> tuple[int, int]:
        kind = int(grid[pair[0][0] + 1, pair[0][1] + 1])
        return (-kind if reverse else kind, min(r * width + c for r, c in pair))

    relabelled = grid.copy()
    for number, pair in enumerate(sorted(line, key=order), start=1):
        for r, c in pair:
            relabelled[r + 1, c + 1] = 0x10000 + number
    return relabelled


def walk(grid: np.ndarray, budget: int, max_bytes: int) -> tuple[Exhaust, int, float]:
    """The plain exhaustive search on `grid` for at most `budget` positions: the search (its
    table), its status, seconds."""
    started = time.perf_counter()
    every = Exhaust(grid, max_bytes, confine=False)
    status = PAUSE
    while status == PAUSE and every.nodes < budget:
        status = every.step(min(1_000_000, budget - every.nodes))
    return every, status, time.perf_counter() - started


def plain(grid: np.ndarray, budget: int, max_bytes: int) -> tuple[str, int, float]:
    """The plain exhaustive search on `grid` for at most `budget` positions: verdict, positions,
    seconds."""
    every, status, took = walk(grid, budget, max_bytes)
    return VERDICT[status], every.nodes, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="*", metavar="SEED", help="default: every line")
    parser.add_argument("--free", type=int, default=0, help="positions for the free search")
    parser.add_argument("--reverse", action="store_true", help="number the kinds backwards")
    parser.add_argument("--max-mb", type=int, default=3072, help="most memory for a table")
    args = parser.parse_args()
    recorded = lines()
    seeds = args.seeds or sorted(recorded)
    unknown = [seed for seed in seeds if seed not in recorded]
    if unknown:
        parser.error(f"no recorded line for seed {unknown[0]} (there are {sorted(recorded)})")
    plain(deal(6, 4, 6, 2, seed=1, gravity=True).grid(), 1000, 1 << 26)  # compiled outside
    print(
        "| seed | line clears the deal | pairing fixed | time | free | time |\n"
        "|---|---|---|---|---|---|",
        flush=True,
    )
    for seed in seeds:
        board = deal(24, 12, 72, 4, seed=seed, gravity=True, solvable=False)
        line = recorded[seed]
        clears = "yes" if replay(board, line) else "no"
        verdict, nodes, took = plain(fixed(board, line, args.reverse), 1 << 40, args.max_mb << 20)
        free = "-", "-"
        if args.free:
            free_verdict, free_nodes, free_took = plain(board.grid(), args.free, args.max_mb << 20)
            free = f"{free_verdict}, {free_nodes:,} positions", f"{free_took:.1f} s"
        print(
            f"| {seed} | {clears} | {verdict}, {nodes:,} positions | {took:.1f} s "
            f"| {free[0]} | {free[1]} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
