"""Every one of the 181,440 solvable 8-puzzle states: optimal length == BFS distance, moves replayed.

.venv/bin/python -m bench.slide_crosscheck [--goal "0 1 2/3 4 5/6 7 8"] [--heuristic mdlc]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from tilegames.slide import Board, solve
from tilegames.slide.solve import kernels


@njit(cache=True)
def per_pair_overestimates(states, dist, w, h, b):
    """States where Manhattan + 2 per conflicting *pair* exceeds the true distance."""
    bad = 0
    for i in range(states.shape[0]):
        s = states[i]
        value = kernels.manhattan_lc(s, w, h, b, False)
        for line in range(h):  # rows
            for c1 in range(w):
                a = s[line * w + c1]
                if a == b or a // w != line:
                    continue
                for c2 in range(c1 + 1, w):
                    x = s[line * w + c2]
                    if x != b and x // w == line and x % w < a % w:
                        value += 2
        for line in range(w):  # columns
            for r1 in range(h):
                a = s[r1 * w + line]
                if a == b or a % w != line:
                    continue
                for r2 in range(r1 + 1, h):
                    x = s[r2 * w + line]
                    if x != b and x % w == line and x // w < a // w:
                        value += 2
        if value > dist[i]:
            bad += 1
    return bad


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goal", default="1 2 3/4 5 6/7 8 0")
    parser.add_argument("--heuristic", default="mdlc", choices=["mdlc", "manhattan", "pdb"])
    args = parser.parse_args()
    goal = Board.parse(args.goal)
    start = time.perf_counter()
    table = kernels.bfs_full(np.array(goal.tiles, np.int64), 3, 3)
    print(f"BFS table: {int((table >= 0).sum()):,} states in {time.perf_counter() - start:.2f} s")
    perm = np.empty(9, np.int64)
    ranks = np.flatnonzero(table >= 0)
    where = np.argsort(np.array(goal.tiles))
    states = np.empty((ranks.size, 9), np.int64)
    for i, rank in enumerate(ranks):
        kernels.unrank_perm(int(rank), 9, perm)
        states[i] = where[perm]
    dist = table[ranks].astype(np.int64)
    ours = kernels.batch_heuristic(states, 3, 3, goal.blank, True)
    print(
        f"Manhattan + linear conflict (+2 per tile leaving its line): {(ours > dist).sum()} states "
        f"overestimated; +2 per conflicting pair: "
        f"{per_pair_overestimates(states, dist, 3, 3, goal.blank)} states overestimated"
    )
    checked = nodes = 0
    partition = "4-4" if args.heuristic == "pdb" else None
    start = time.perf_counter()
    for rank in np.flatnonzero(table >= 0):
        kernels.unrank_perm(int(rank), 9, perm)
        board = Board(3, 3, perm.tolist())
        solution = solve(board, goal, heuristic=args.heuristic, partition=partition)
        assert solution.length == table[rank], f"{board}: {solution.length} != {table[rank]}"
        board.play(solution.moves)
        assert board == goal, f"{board}: moves do not reach the goal"
        checked += 1
        nodes += solution.nodes
    seconds = time.perf_counter() - start
    print(
        f"{args.heuristic}: {checked:,} states, every length equal to BFS and every solution replayed; "
        f"{seconds:.1f} s, {nodes:,} nodes"
    )


if __name__ == "__main__":
    main()
