"""Bench: what 15-bit Zobrist codes cost against our fixed 64-bit keys on the positions reachable from 横刀立马.

Run: `.venv/bin/python -m bench.klotski_zobrist`. A collision is a position whose hash an earlier position already
had; a solver that keyed its visited set on such hashes would skip it as "seen".
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import tilegames.klotski.kernels  # noqa: F401  # imported: solve() runs the kernels, not plain.py
from tilegames.klotski import LAYOUTS, zobrist
from tilegames.klotski.solve import grid_neighbours, is_solved_grid, solve
from tilegames.klotski.space import board_from_key, reachable

SEEDS = range(10)


def hashed_bfs(types: tuple[int, ...], keys: tuple[int, ...]) -> int | None:
    """The tutorial's search: BFS whose visited set holds min(hash, mirror hash), not the positions."""
    seen = {min(zobrist.hashes(types, 4, keys))}
    frontier, depth = [types], 0
    while frontier:
        if any(is_solved_grid(g, 4, 5) for g in frontier):
            return depth
        following = []
        for grid in frontier:
            for nxt in grid_neighbours(grid, 4, 5, "moves"):
                value = min(zobrist.hashes(nxt, 4, keys))
                if value not in seen:
                    seen.add(value)
                    following.append(nxt)
        frontier, depth = following, depth + 1
    return None


def main() -> None:
    board = LAYOUTS["横刀立马"]
    plain = [board_from_key(int(k), 4, 5).types() for k in reachable(board)]
    folded = [board_from_key(int(k), 4, 5).types() for k in reachable(board, fold=True)]
    print(f"positions reachable from 横刀立马: {len(plain)} (mirror folded: {len(folded)})")
    print("| keys | positions | colliding positions (mean over 10 seeds, range) |")
    print("| --- | --- | --- |")
    for label, grids, fold in (
        ("plain", plain, False),
        ("mirror folded, min(hash, mirror hash)", folded, True),
    ):
        _, ours = zobrist.count_collisions(grids, 4, fold_mirror=fold)
        print(f"| 64-bit fixed table, {label} | {len(grids)} | {ours} |")
        for bits in (15, 32):
            counts = [
                zobrist.count_collisions(grids, 4, zobrist.small_keys(bits, s), fold_mirror=fold)[1]
                for s in SEEDS
            ]
            print(
                f"| {bits}-bit random keys, {label} | {len(grids)} | {sum(counts) / len(counts):.0f} "
                f"({min(counts)}..{max(counts)}) |"
            )
    print(f"optimal solution with the exact visited set: {solve(board).length} moves")
    for bits in (15, 64):
        results = [
            hashed_bfs(board.types(), zobrist.small_keys(bits, s) if bits < 64 else zobrist.KEYS)
            for s in SEEDS[:5]
        ]
        print(f"BFS keyed on {bits}-bit hashes (5 seeds): {results}")


if __name__ == "__main__":
    main()
