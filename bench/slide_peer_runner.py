"""Run PyPI's `slidingpuzzle` on one 4×4 board (standard goal); prints one JSON line.

Runs inside bench/.peer-venv (the package pins an old NumPy), started by bench/slide_korf.py:

    bench/.peer-venv/bin/python bench/slide_peer_runner.py a* "1 2 3 ... 0"
"""

import json
import sys
import time

import slidingpuzzle as sp


def main() -> None:
    algorithm, text = sys.argv[1], sys.argv[2]
    tiles = [int(t) for t in text.split()]
    board = sp.from_rows(*[tiles[r * 4 : r * 4 + 4] for r in range(4)])
    start = time.perf_counter()
    result = sp.search(board, {"astar": "a*", "idastar": "ida*"}[algorithm])
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {"length": len(result.solution), "expanded": result.expanded, "seconds": seconds}
        )
    )


if __name__ == "__main__":
    main()
