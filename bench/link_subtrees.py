"""Lianliankan under gravity: the plain search with its dead subtrees proved dead by `seal`.

Run: .venv/bin/python -m bench.link_subtrees [--big ROWS] [--stall POSITIONS] [--most TILES]
     [--seconds S] [--widen N] [--budget POSITIONS] [--kinds 72] [--beside] [--shallow] SEED ...

On the clearable random 24x12 deals with 72 kinds x 4 that `solve` leaves undecided, the plain
exhaustive search (`Exhaust(grid, confine=False)`) spends most of its positions in subtrees that
no play clears (seed 58: 14.0 of its 16.2 million under one sibling of its line's fourth
position). Here, every `CHUNK` positions, the ancestors of the position it expands next (its
first parents back to the start) are looked at, deepest first (`--shallow`: shallowest first).
One whose subtree holds at least `--big` new positions, whose tiles gone in them (the union of
their masks) have not grown for `--stall` positions and hold at most `--most` tiles still there
at its position, and which was not tried since its subtree last doubled, is handed to `seal`
with that union as `may`, from its own position. When CP-SAT finds a schedule instead, the
schedule is played and plays onward from its end widen the union (`seal.replay`,
`seal.onward`), and it is asked again, up to `--widen` times. Sealed: no play from that position
takes a tile outside the union, so none clears the board, and the search drops what is left of
that subtree from its stack. The proofs run in the search's thread, timed apart: the row gives
the search's positions and seconds, and the proofs' count and seconds, those that sealed and
the rest. With `--beside` they run one at a time in a thread of their own while the search goes
on (two cores), and the search's seconds are the wall time to its verdict (docs/link-rounds.md,
round 42).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from tilegames.link import closure, deal, seal
from tilegames.link.bounds import ways_out
from tilegames.link.exhaust import DEAD, PAUSE, SOLVED, TOP, USED, Exhaust, tiles

CHUNK = 20_000
"""Positions of the search between two looks at its ancestors."""


def closed(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, may: np.ndarray,
    seconds: float, proof: seal.Proof | None = None,
) -> tuple[bool | None, int]:  # fmt: skip
    """`seal`'s proof that no play from the padded `grid` (tiles numbered by `exhaust.tiles`)
    leaves `may` (its ways out from `closure.pairable`, its order from `closure.reckon`), and
    how many ways out it had."""
    pairable, _, before = closure.reckon(grid, col, kind, first, may)
    ways = [(int(x), int(y)) for x, y in ways_out(may, pairable)]
    proof = seal.Proof() if proof is None else proof
    proved = proof.sealed(col, kind, first, grid.shape[1], may, ways, seconds, 1e9, before=before)
    return proved, len(ways)


def random_grid(seed: int, kinds: int) -> np.ndarray:
    """The padded grid of the uniformly random 24x12 deal of `seed` with `kinds` kinds under
    gravity, as `solve` is measured on (`bench.link_hard`)."""
    copies = 288 // kinds
    return deal(24, 12, kinds, copies, seed=seed, gravity=True, solvable=False).grid()


def check_kinds(parser: argparse.ArgumentParser, kinds: int) -> None:
    """Exit through `parser` unless `kinds` kinds fill 24x12 with an even number of each."""
    if kinds < 1 or 288 % kinds or (288 // kinds) % 2:
        parser.error(f"{kinds} kinds do not fill 24x12 with an even number of each")


@dataclass
class _Ancestor:
    first: int  # its first child's row: the rows after it are its subtree's
    union: np.ndarray  # the tiles gone in some row of its subtree
    tiles: int = -1  # how many, at the last look
    grew_at: int = 0  # positions of the search when they last grew
    retry_at: int = 0  # rows its subtree must hold before it is tried (again)


@dataclass
class _Proofs:
    sealed: int = 0
    sealed_seconds: float = 0.0
    failed: int = 0
    failed_seconds: float = 0.0
    dropped: int = 0  # positions taken off the stack


class Subtrees:
    """The plain search of one deal with its dead subtrees proved dead (see the module)."""

    def __init__(
        self, grid: np.ndarray, big: int, stall: int, most: int, seconds: float, widen: int,
        beside: bool = False, shallow: bool = False,
    ) -> None:  # fmt: skip
        self.grid = grid
        self.every = Exhaust(grid, 6 << 30, confine=False)
        self.n = len(self.every.col)
        self.big, self.stall, self.most = big, stall, most
        self.seconds, self.widen, self.shallow = seconds, widen, shallow
        self.first_child: dict[int, int] = {}
        self.ancestors: dict[int, _Ancestor] = {}
        self.looked = 1  # rows already scanned for first children and unions
        self.proofs = _Proofs()
        self.beside = ThreadPoolExecutor(1) if beside else None
        self.pending: tuple[int, Future[bool]] | None = None  # a proof running beside
        self.proof: seal.Proof | None = None  # the one running now

    def path(self) -> list[int]:
        """The rows of the ancestors of the position expanded next, the start's child first."""
        every = self.every
        top = int(every.meta[TOP])
        if top == 0:
            return []
        rows, row = [], int(every.parent[int(every.stack[top - 1])])
        while row > 0:
            rows.append(row)
            row = int(every.parent[row])
        return rows[::-1]

    def look(self) -> None:
        """Take in the rows made since the last look; try the deepest ancestor that is due."""
        every, used = self.every, int(self.every.meta[USED])
        if self.pending is not None and self.pending[1].done():
            row, result = self.pending
            self.pending = None
            if result.result() and row in self.ancestors:
                self.drop(row)
        parents = every.parent[self.looked : used]
        found, at = np.unique(parents, return_index=True)
        for row, index in zip(found.tolist(), at.tolist(), strict=True):
            self.first_child.setdefault(row, self.looked + index)
        fresh = every.taken(self.looked, used) if used > self.looked else None
        for each in self.ancestors.values():
            if fresh is not None and each.first <= self.looked:
                each.union |= fresh
        self.looked = used
        path = self.path()
        for gone in set(self.ancestors) - set(path):
            del self.ancestors[gone]
        due = None
        for row in path:
            if row not in self.ancestors and row in self.first_child:
                first = self.first_child[row]
                self.ancestors[row] = _Ancestor(first, every.taken(first, used), retry_at=self.big)
            held = self.ancestors.get(row)
            if held is None or used - held.first < self.big:
                break  # the deeper ones hold fewer still
            tiles_gone = int(held.union.sum())
            if tiles_gone != held.tiles:
                held.tiles, held.grew_at = tiles_gone, every.nodes
            elif (
                every.nodes - held.grew_at >= self.stall
                and used - held.first >= held.retry_at
                and tiles_gone - int(every.taken(row, row + 1).sum()) <= self.most
                and (due is None or not self.shallow)
            ):
                due = row
        if due is not None and self.pending is None:
            ancestor = self.ancestors[due]
            ancestor.retry_at = 2 * (used - ancestor.first)
            if self.beside is not None:
                self.pending = (due, self.beside.submit(self.prove, due, ancestor))
            elif self.prove(due, ancestor):
                self.drop(due)

    def prove(self, row: int, ancestor: _Ancestor) -> bool:
        """`seal` from the position of `row` with its subtree's union as `may`, widened by the
        plays of the schedules CP-SAT finds instead: True if sealed."""
        every = self.every
        gone_there = every.taken(row, row + 1)
        grid, _ = seal.position(self.grid, every.col, every.kind, every.first, gone_there)
        col, kind, first = tiles(grid)
        present = np.flatnonzero(~gone_there)
        proof = self.proof = seal.Proof()
        started = time.perf_counter()
        proved: bool | None = False
        for _ in range(self.widen):
            may = ancestor.union[present]
            if may.all():
                proved = False  # every tile: no proof of this kind
                break
            proved, _ = closed(grid, col, kind, first, may, self.seconds, proof)
            if proved is not False:
                break
            played = seal.replay(grid, col, kind, first, proof.schedule)
            if played is None:
                break
            new = seal.onward(grid, col, kind, first, played, may)
            if not new.any():
                break
            ancestor.union[present[new]] = True
        took = time.perf_counter() - started
        if proved:
            self.proofs.sealed += 1
            self.proofs.sealed_seconds += took
        else:
            self.proofs.failed += 1
            self.proofs.failed_seconds += took
        return bool(proved)

    def drop(self, row: int) -> None:
        """Take the rest of `row`'s subtree off the stack (it starts where `row`'s children
        were pushed: below them no entry descends from it, above them every one does)."""
        every = self.every
        top = int(every.meta[TOP])

        def descends(entry: int) -> bool:
            while entry > 0:
                if entry == row:
                    return True
                entry = int(every.parent[entry])
            return False

        low, high = 0, top  # the first index whose entry descends from `row`
        while low < high:
            middle = (low + high) // 2
            if descends(int(every.stack[middle])):
                high = middle
            else:
                low = middle + 1
        self.proofs.dropped += top - low
        every.meta[TOP] = low
        del self.ancestors[row]

    def run(self, budget: int) -> tuple[int, float]:
        """Search until the board is cleared, proved impossible, or `budget` positions: the
        status and the search's own seconds."""
        status, searching, began = PAUSE, 0.0, time.perf_counter()
        while status == PAUSE and self.every.nodes < budget:
            started = time.perf_counter()
            status = self.every.step(CHUNK)
            searching += time.perf_counter() - started
            if status == PAUSE:
                self.look()
        if self.beside is not None:
            searching = time.perf_counter() - began
            if self.proof is not None:
                self.proof.stop()
            self.beside.shutdown()
        return status, searching


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seeds", type=int, nargs="+", metavar="SEED")
    parser.add_argument("--big", type=int, default=200_000, help="rows of a subtree to prove")
    parser.add_argument("--stall", type=int, default=100_000, help="positions with no new tile")
    parser.add_argument("--most", type=int, default=288, help="tiles of a union to prove")
    parser.add_argument("--seconds", type=float, default=1.0, help="at most, for one proof")
    parser.add_argument("--widen", type=int, default=8, help="proofs of one subtree in a row")
    parser.add_argument("--budget", type=int, default=40_000_000, help="positions at most")
    parser.add_argument("--kinds", type=int, default=72, help="kinds on 24x12 (72: 4 each)")
    parser.add_argument("--beside", action="store_true", help="proofs in a thread of their own")
    parser.add_argument("--shallow", action="store_true", help="the shallowest ancestor first")
    args = parser.parse_args()
    if min(args.big, args.stall, args.most, args.widen, args.budget) < 1 or not args.seconds > 0:
        parser.error("--big, --stall, --most, --widen, --budget and --seconds must be positive")
    check_kinds(parser, args.kinds)
    verdicts = {SOLVED: "cleared", DEAD: "impossible", PAUSE: "undecided"}
    print(
        "| seed | verdict | positions | search | proofs sealed | their time | other proofs "
        "| their time | positions dropped |\n|---|---|---|---|---|---|---|---|---|"
    )
    for seed in args.seeds:
        subtrees = Subtrees(
            random_grid(seed, args.kinds), args.big, args.stall, args.most, args.seconds,
            args.widen, args.beside, args.shallow,
        )  # fmt: skip
        status, searching = subtrees.run(args.budget)
        proofs = subtrees.proofs
        print(
            f"| {seed} | {verdicts.get(status, 'table full')} | {subtrees.every.nodes:,} "
            f"| {searching:.1f} s | {proofs.sealed} | {proofs.sealed_seconds:.1f} s "
            f"| {proofs.failed} | {proofs.failed_seconds:.1f} s | {proofs.dropped:,} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
