"""Lianliankan under gravity: the plain search, turned away from pairings that look dead.

Run: .venv/bin/python -m bench.link_suspects [--open any|all|none] [--deepest N] [--plain]
     [--numbering R] [--window N] [--stall N] [--budget N] [--kinds 72] SEED ...

The plain exhaustive search (`Exhaust(grid, confine=False)`) loses its time on the clearable
random 24x12 deals with 72 kinds x 4 (seeds 16 and 58) in subtrees under a wrong choice of which
two tiles of a kind go together (docs/link-rounds.md, rounds 25 and 27). Here it runs in steps
of `--window` positions. When the tiles gone in the rows made since the last stall have not
grown for `--stall` positions (a stall), the line to the position it expands next is walked
back to the start: each move on it that took two tiles of a kind whose other two are still
there, have not gone in any of those rows, and (`--open any`) at least one of them has an empty
cell beside it, is at the top or the bottom of its column, or is in an edge column, is a
*suspect* (`--open all`: both such; `--open none`: no test; `--deepest N`: only the N deepest
new suspects of each stall). After every step the stack is partitioned, keeping the order
within each part: the positions that paired a suspect's kind the suspect's way (its two tiles
gone, the other two not) go to the bottom. Nothing is dropped, so every position is still
expanded: on a deal no play clears, the verdict and the positions are the plain search's.
Suspects need kinds of four (a kind's other two tiles); with other `--kinds` it is the plain
search.

`--numbering R` renumbers the kinds at random (seed R) first: the search breaks ties by kind
number, so a numbering is another order of the same search (round 41); `--plain` runs it
without suspects (docs/link-rounds.md, round 43).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable

import numpy as np
from numba import njit

from bench.link_subtrees import check_kinds, random_grid
from tilegames.link.exhaust import DEAD, PAUSE, SOLVED, TOP, USED, Exhaust

_MOST = 4096
"""Suspects remembered at most (seeds 16 and 58 make at most about 80)."""


@njit(cache=True)
def demote(stack: np.ndarray, top: int, rows: np.ndarray, suspects: np.ndarray, count: int) -> int:
    """Partition `stack[:top]`, each part in its order: first (the bottom) the entries whose
    position has one of the first `count` suspects (x, y gone, z, w not), then the rest. The
    number of the first."""
    bad = np.zeros(top, np.bool_)
    demoted = 0
    for s in range(top):
        row = stack[s] if stack[s] >= 0 else -stack[s] - 1
        for i in range(count):
            match = True
            for q in range(4):
                t = suspects[i, q]
                gone = (rows[row, t >> 6] >> np.uint64(t & 63)) & np.uint64(1)
                if gone != (1 if q < 2 else 0):
                    match = False
                    break
            if match:
                bad[s] = True
                demoted += 1
                break
    if 0 < demoted < top:
        stack[:top] = np.concatenate((stack[:top][bad], stack[:top][~bad]))
    return demoted


class Suspects:
    """The plain search of one deal with its suspect pairings demoted (see the module)."""

    def __init__(self, grid: np.ndarray, test: Callable[[Iterable[bool]], bool] | None,
                 deepest: int) -> None:  # fmt: skip
        self.every = Exhaust(grid, 8 << 30, confine=False)
        self.test, self.deepest = test, deepest
        every = self.every
        self.of_kind: dict[int, list[int]] = {}
        for t, k in enumerate(every.kind.tolist()):
            self.of_kind.setdefault(k, []).append(t)
        self.suspects = np.zeros((_MOST, 4), np.int64)
        self.known: set[tuple[int, int, int, int]] = set()
        self.stalls = 0

    @property
    def count(self) -> int:
        """Suspects so far: the first rows of `suspects`."""
        return len(self.known)

    def opened(self, gone: np.ndarray) -> np.ndarray:
        """Which tiles are open while `gone` are gone: an empty cell beside, the top or the
        bottom of their column (the ring is below), or an edge column."""
        every = self.every
        width = every.grid.shape[1]
        height = np.zeros(width, np.int64)
        place = np.zeros(len(every.col), np.int64)
        for c in range(1, width - 1):
            there = np.flatnonzero(~gone[every.first[c] : every.first[c + 1]]) + every.first[c]
            place[there] = np.arange(len(there))
            height[c] = len(there)
        col = every.col
        top = place == height[col] - 1
        beside = (height[col - 1] <= place) | (height[col + 1] <= place)
        edge = (col == 1) | (col == width - 2)
        opened: np.ndarray = top | beside | edge | (place == 0)
        return opened

    def stall(self, union: np.ndarray) -> None:
        """Walk the line to the position expanded next and remember its new suspects."""
        every = self.every
        row = int(every.stack[int(every.meta[TOP]) - 1])
        row = row if row >= 0 else -row - 1
        now = every.taken(row, row + 1)
        test = self.test
        opened = self.opened(now) if test is not None else None
        fresh: list[tuple[int, int, int, int]] = []
        here = now
        while row > 0:
            row = int(every.parent[row])
            there = every.taken(row, row + 1)  # each position's mask unpacked once
            took = np.flatnonzero(here & ~there)
            here = there
            if len(took) != 2:
                continue
            x, y = int(took[0]), int(took[1])
            others = [t for t in self.of_kind[int(every.kind[x])] if t not in (x, y)]
            if len(others) != 2 or any(union[t] or now[t] for t in others):
                continue
            if (
                opened is not None
                and test is not None
                and not test(bool(opened[t]) for t in others)
            ):
                continue
            suspect = (x, y, others[0], others[1])
            if suspect not in self.known:
                fresh.append(suspect)
        for suspect in fresh[: self.deepest] if self.deepest else fresh:
            if self.count < _MOST:
                self.suspects[self.count] = suspect
                self.known.add(suspect)
        self.stalls += 1

    def run(self, window: int, stall: int, budget: int, plain: bool) -> tuple[int, float]:
        """Search until cleared, proved impossible or `budget` positions: status, seconds."""
        every, began = self.every, time.perf_counter()
        n = len(every.col)
        since, union, grew_at, status = 1, np.zeros(n, bool), 0, PAUSE
        while status == PAUSE and every.nodes < budget:
            status = every.step(window)
            if status != PAUSE:
                break
            used = int(every.meta[USED])
            if used > since:
                new = every.taken(since, used)
                since = used
                if (new & ~union).any():
                    union |= new
                    grew_at = every.nodes
            top = int(every.meta[TOP])
            if self.count and top:
                demote(every.stack, top, every.rows, self.suspects, self.count)
            if not plain and top and every.nodes - grew_at >= stall:
                self.stall(union)
                union, grew_at = np.zeros(n, bool), every.nodes
        return status, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="+", metavar="SEED")
    parser.add_argument("--open", choices=("any", "all", "none"), default="any")
    parser.add_argument("--deepest", type=int, default=0, help="new suspects a stall, at most")
    parser.add_argument("--plain", action="store_true", help="no suspects: the plain search")
    parser.add_argument("--numbering", type=int, default=-1, help="renumber the kinds (a seed)")
    parser.add_argument("--window", type=int, default=10_000, help="positions between looks")
    parser.add_argument("--stall", type=int, default=100_000, help="positions with no new tile")
    parser.add_argument("--budget", type=int, default=40_000_000, help="positions at most")
    parser.add_argument("--kinds", type=int, default=72, help="kinds on 24x12 (72: 4 each)")
    args = parser.parse_args()
    if min(args.window, args.stall, args.budget) < 1 or args.deepest < 0:
        parser.error("--window, --stall and --budget must be positive, --deepest not negative")
    check_kinds(parser, args.kinds)
    test = {"any": any, "all": all, "none": None}[args.open]
    verdicts = {SOLVED: "cleared", DEAD: "impossible", PAUSE: "undecided"}
    print(
        "| seed | numbering | suspects | verdict | positions | time | stalls | suspects |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    for seed in args.seeds:
        grid = random_grid(seed, args.kinds)
        if args.numbering >= 0:
            renamed = np.random.default_rng(args.numbering).permutation(int(grid.max())) + 1
            grid = np.where(grid > 0, renamed[np.maximum(grid, 1) - 1], grid)
        search = Suspects(grid, test, args.deepest)
        status, took = search.run(args.window, args.stall, args.budget, args.plain)
        how = (
            "none (plain)"
            if args.plain
            else f"open {args.open}" + (f", {args.deepest} deepest" if args.deepest else "")
        )
        numbering = "the deal's" if args.numbering < 0 else str(args.numbering)
        print(
            f"| {seed} | {numbering} | {how} | {verdicts.get(status, 'table full')} "
            f"| {search.every.nodes:,} | {took:.1f} s | {search.stalls} | {search.count} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
