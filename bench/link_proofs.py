"""Lianliankan under gravity: the chain of proofs that play never leaves `may`, two ways.

The proofs are `seal`'s, with CP-SAT's parameters of today (`seal.TUNED`) and of round 27,
interleaved deal by deal.

Run: .venv/bin/python -m bench.link_proofs [--size 24x12] [--kinds 72] [--timeout 30] SEED ...

Each seed's random deal (`deal(..., solvable=False, gravity=True)`) goes to confined play alone
(`exhaust.Exhaust`, no proof) until `may` has not grown for 200,000 positions (as `Bounds.seal`
waits) or the search ends. From that `may`, and with the line to the deepest position as the
first hint (as in `solve`), proofs then run one after another, each on the `may` the last one's
schedule grew by what plays on from its end take (as `Bounds.lead` does once the table is
full), until one seals `may`, a schedule grows nothing, or `--timeout` seconds have passed.
Both sets of parameters start from the same `may` and hint; each then follows its own schedules.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Mapping

import numpy as np

from tilegames.link import closure, deal, seal
from tilegames.link.bounds import ways_out
from tilegames.link.exhaust import PAUSE, Exhaust, tiles

ROUND_27: Mapping[str, int | bool] = {
    **seal.TUNED,
    "use_sat_inprocessing": True,
    "use_phase_saving": True,
}
"""CP-SAT's defaults for the two parameters round 28 turned off."""


def start(grid: np.ndarray, timeout: float) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """`may` once confined play has stalled, and the line to its deepest position; None if the
    search decided the deal first or `timeout` seconds passed."""
    every = Exhaust(grid, 384 << 20)
    stalled = every.bounds.seal_after  # positions with `may` unchanged before a proof is due
    every.bounds.seal_after = 1 << 62  # no proof here: the chain below is what is measured
    status, grew, size, began = PAUSE, 0, 0, time.perf_counter()
    while status == PAUSE and time.perf_counter() - began < timeout:
        status = every.step(50_000)
        if (now := int(every.may.sum())) != size:
            grew, size = every.nodes, now
        if every.nodes - grew >= stalled and not every.bounds.scouting:
            return every.may.copy(), every.bounds.deepest()
    return None


def chain(
    grid: np.ndarray, may: np.ndarray, line: list[np.ndarray], parameters: Mapping[str, int | bool],
    timeout: float,
) -> tuple[str, int, int, float]:  # fmt: skip
    """(verdict, proofs, tiles of the last `may`, seconds) of the proofs from `may`."""
    col, kind, first = tiles(grid)
    proof, began, proofs = seal.Proof(parameters), time.perf_counter(), 0
    proof.start_from(line)
    while True:
        left = timeout - (time.perf_counter() - began)
        if left <= 0:
            return "undecided", proofs, int(may.sum()), time.perf_counter() - began
        pairable, _, before = closure.reckon(grid, col, kind, first, may)
        ways = [(int(x), int(y)) for x, y in ways_out(may, pairable)]
        sealed = proof.sealed(col, kind, first, grid.shape[1], may, ways, left, 1e9, before=before)
        proofs += 1
        took = time.perf_counter() - began
        if sealed is None:
            return "undecided", proofs, int(may.sum()), took
        if sealed:
            return "impossible (sealed)", proofs, int(may.sum()), took
        gone = seal.replay(grid, col, kind, first, proof.schedule)
        new = None if gone is None else seal.onward(grid, col, kind, first, gone, may)
        if new is None or not new.any():
            return "a schedule grew nothing", proofs, int(may.sum()), took
        may = may | new


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="+", metavar="SEED")
    parser.add_argument("--size", default="24x12")
    parser.add_argument("--kinds", type=int, default=72)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per chain")
    args = parser.parse_args()
    try:
        width, height = (int(n) for n in args.size.split("x"))
    except ValueError:
        parser.error(f"--size {args.size!r} is not WIDTHxHEIGHT")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    if args.kinds <= 0:
        parser.error("--kinds must be positive")
    copies = width * height // args.kinds
    try:
        boards = [
            deal(width, height, args.kinds, copies, seed=seed, gravity=True, solvable=False)
            for seed in args.seeds
        ]
    except ValueError as error:  # a size and kind count that make no deal
        parser.error(str(error))
    print(
        "| seed | tiles of `may` at the start | parameters | verdict | proofs | tiles at the end | time |"
    )
    print("|---|---|---|---|---|---|---|")
    for seed, board in zip(args.seeds, boards, strict=True):
        grid = board.grid()
        begun = start(grid, args.timeout)
        if begun is None:
            print(
                f"| {seed} | no stall: decided by the search, or out of time | | | | | |",
                flush=True,
            )
            continue
        may, line = begun
        for name, parameters in (("round 27", ROUND_27), ("today", seal.TUNED)):
            verdict, proofs, size, took = chain(grid, may, line, parameters, args.timeout)
            print(
                f"| {seed} | {int(may.sum())} | {name} | {verdict} | {proofs} | {size} "
                f"| {took:.1f} s |",
                flush=True,
            )


if __name__ == "__main__":
    main()
