"""Board model speed on big boards: deal, format, parse, solvability check (O(N) cycle counting).

    .venv/bin/python -m bench.slide_board [--sizes 100 1000]

Baseline in the same run: the quadratic inversion count of the tutorial rule, on a sample.
"""

from __future__ import annotations

import argparse
import time

from tilegames.slide import Board, random_board


def inversions_parity(tiles: tuple[int, ...], limit: int) -> int:
    """The tutorial's O(N²) inversion count over the first `limit` tiles (the baseline)."""
    seq = [t for t in tiles[:limit] if t]
    return sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j]) & 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 1000])
    args = parser.parse_args()
    for n in args.sizes:
        start = time.perf_counter()
        board = random_board(n, n, seed=n)
        dealt = time.perf_counter() - start
        start = time.perf_counter()
        text = str(board)
        formatted = time.perf_counter() - start
        start = time.perf_counter()
        again = Board.parse(text)
        parsed = time.perf_counter() - start
        start = time.perf_counter()
        solvable = again.is_solvable()
        checked = time.perf_counter() - start
        sample = 3000
        start = time.perf_counter()
        inversions_parity(board.tiles, sample)
        per_pair = (time.perf_counter() - start) / (sample * sample / 2)
        quadratic = per_pair * (n * n) ** 2 / 2
        print(
            f"{n}x{n}: deal {dealt:.3f} s, format {formatted:.3f} s, parse {parsed:.3f} s, "
            f"check {checked:.3f} s (solvable={solvable}); "
            f"inversion counting would take about {quadratic:,.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
