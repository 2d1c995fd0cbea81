"""Lianliankan under gravity: how many positions a deal has, counted by the exhaustive search alone.

Run: .venv/bin/python -m bench.link_positions [--size 24x12] [--kinds 72] [--timeout 60]
     [--max-mb 3072] [--plain] [--no-seal] SEED ...

Each seed's uniformly random deal (`deal(..., solvable=False, gravity=True)`) goes to
`exhaust.Exhaust` alone (no relaxation, no restarts) until it clears the board, runs out of
positions (a proof that none clears it), fills `--max-mb` of table, or `--timeout` seconds pass.
With `--plain` (round 7's search, play not confined) the count of positions is exact when the
verdict is "impossible": every position reachable from the start, each once. Without it, play is
confined to the tiles seen to go (docs/link.md, solver item 12). The row then gives the positions
expanded; those among them whose key was checked again after `may` grew (revisited); the tiles
that can ever go; after how many positions `may` last grew (counted in steps of 50,000); and how
many ways out of `may` (pairs with a tile outside it) `closure.pairable` could not rule out at
the end. The positions after `may` last grew only prove those never joinable (round 16), unless
`seal` proves it first (round 18: the verdict then says "sealed"; `--no-seal` turns it off). It
tells how far a deal is from being decided in 10 s (docs/link-rounds.md, rounds 7, 8 and 16).
"""

from __future__ import annotations

import argparse
import time

from tilegames.link import deal
from tilegames.link.bounds import ways_out
from tilegames.link.exhaust import DEAD, GROW, PAUSE, SOLVED, Exhaust


def count(
    width: int, height: int, kinds: int, seed: int, timeout: float, max_bytes: int, plain: bool,
    seal: bool = True,
) -> str:  # fmt: skip
    """One deal's row of the table."""
    board = deal(
        width, height, kinds, width * height // kinds, seed=seed, gravity=True, solvable=False
    )
    started = time.perf_counter()
    every = Exhaust(board.grid(), max_bytes, confine=not plain)
    if not seal:
        every.bounds.seal_after = 1 << 62
    status, grew, tiles_may = PAUSE, 0, 0
    while status == PAUSE and time.perf_counter() - started < timeout:
        status = every.step(50_000)
        if (now := int(every.may.sum())) != tiles_may:
            grew, tiles_may = every.nodes, now
    took = time.perf_counter() - started
    verdict = {SOLVED: "clearable", DEAD: "impossible", GROW: "table full", PAUSE: "undecided"}
    if every.bounds.sealed:
        verdict[DEAD] = "impossible (sealed)"
    positions = f"{every.nodes:,}" if status == DEAD else f"more than {every.nodes:,}"
    if status == SOLVED:
        positions = f"cleared after {every.nodes:,}"
    if plain:
        return f"| {seed} | {verdict[status]} | {positions} | {took:.1f} s |"
    tiles = f"{tiles_may}" if status == DEAD else "-"
    may, pairable = every.may, every.bounds.pairable
    ways = len(ways_out(may, pairable)) if status == DEAD else "-"
    return (
        f"| {seed} | {verdict[status]} | {positions} | {every.revisited:,} | {tiles} | {grew:,} "
        f"| {ways} | {took:.1f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="+", metavar="SEED")
    parser.add_argument("--size", default="24x12")
    parser.add_argument("--kinds", type=int, default=72)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per deal")
    parser.add_argument("--max-mb", type=int, default=3072, help="most memory for the table")
    parser.add_argument("--plain", action="store_true", help="round 7's search: not confined")
    parser.add_argument("--no-seal", action="store_true", help="no proof by `seal`, as round 17")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    count(6, 4, 6, 0, 60.0, 1 << 26, args.plain)  # the kernels compiled outside the timing
    if not args.plain:
        count(24, 12, 72, 69, 60.0, 1 << 28, False)  # and those of confined play
    if not args.plain and not args.no_seal:
        import ortools.sat.python.cp_model  # noqa: F401  (0.3 s, loaded by the first proof)
    if args.plain:
        print("| seed | verdict | positions | time |\n|---|---|---|---|", flush=True)
    else:
        print(
            "| seed | verdict | positions | revisited | tiles that can go | `may` last grew after "
            "| ways out left | time |",
            flush=True,
        )
        print("|---|---|---|---|---|---|---|---|", flush=True)
    for seed in args.seeds:
        row = count(
            width, height, args.kinds, seed, args.timeout, args.max_mb << 20, args.plain,
            not args.no_seal,
        )  # fmt: skip
        print(row, flush=True)


if __name__ == "__main__":
    main()
