"""The search core of the whole-board solver, over arrays: `search(grid, gravity, limits)`.

Without gravity a removal only empties cells, so a pair that can go now can go at any later time,
and moving a pair of a solution to the front keeps it a solution. What is left to decide is how
the tiles of each kind are paired. The pairing search branches on one kind at a time: take one of
its pairs that can go now, or forbid them all (no solution pairs them; the "none of these"
child). Forbidden pairs make kinds of four locked into their last pairing, whose connectable pair
then goes at once; a kind with no pairing left is a dead end; the relaxation (`dense.relax`)
proves dead ends with the forbidden pairs taken into account. The memo keys are the occupied cells
and the forbidden pairs among them: no kind names, so they survive any relabelling.

With gravity tiles fall and a removal can block, so the search is the depth-first search over
moves (`kernels.expand`: safe moves that make nothing fall, fewest-left kinds first), memoised by
the grid with its kinds renumbered in reading order (`dense.canonical`), with dead ends proven
by the relaxation that tracks where tiles may have fallen (`falling.doomed`: in full at the
root, with a small work budget below it, skipped on boards where that budget ran out). Its loop
is compiled (`depth.run`) and called for about 5 ms at a time. The exhaustive search
(`exhaust.Exhaust`: every reachable position once, named by the tiles gone) runs beside it: with
two cores and no node limit in a thread of its own from the start (`alongside`), else once the
first restart has not decided the board, three times as long as the restarts. Random deals
that die within a few dozen pairs have a few million positions, which it sees all of where the
relaxation proves nothing.

Limits: the clock is read at every node of the pairing search and between the move search's
kernel calls, and every kernel call gets a work budget (path tests), so a node on a huge board
cannot run far past the deadline; the memo stops growing at `memo_cap` entries (it only speeds
the search up, so a full memo costs time, not correctness).
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from tilegames.link import dense, depth, exhaust, falling
from tilegames.link.alongside import Alongside, Rival, cores
from tilegames.link.bounds import past
from tilegames.link.dive import dive
from tilegames.link.halves import Halves
from tilegames.link.probe import probe

Move = tuple[int, int, int, int]


def _move(values: Any) -> Move:
    """A move from the kernels (an array row) as four Python ints."""
    r1, c1, r2, c2 = (int(v) for v in values)
    return (r1, c1, r2, c2)


"""A pair in padded grid coordinates (r1, c1, r2, c2)."""

MEMO_CAP = 2_000_000
"""Default cap on remembered dead ends (a few hundred MB at most on a 30x16 board)."""

_MEMO_BYTES = 256 << 20
"""With gravity the keys are whole grids: the cap is also bounded by this many bytes of keys."""

_WORK = 2_000_000
"""Path tests a kernel may run per call before it reports back (well under a second)."""
_NONE = np.empty(0, np.int64)


@dataclass(frozen=True)
class Outcome:
    """What `search` found: a clearing sequence, a proof that none exists, or a limit."""

    solved: bool | None
    """True: `moves` clear the grid; False: proven impossible; None: a limit was reached."""
    moves: list[Move] = field(default_factory=list)
    """The pairs in order, padded coordinates as they are when played (empty unless solved)."""
    nodes: int = 0
    """Positions visited (never more than max_nodes); a proof that no play leaves the tiles that
    may go (`seal`) counts as the positions the search could have seen in its time, by its work
    (`bounds._SEAL_NODES`)."""
    limit: Literal["max_nodes", "timeout"] | None = None
    """"max_nodes" or "timeout" when solved is None."""


class _Limit(Exception):
    """Raised inside the search when a limit is reached."""


class _Restart(Exception):
    """Raised inside the pairing search when one attempt's node budget is spent."""


class _Decided(Exception):
    """Raised inside the move search when the exhaustive search beside it has a verdict."""


_PAUSE = 0.005
"""Seconds of the move search per call of its kernel, about (the clock is read between calls;
the nodes per call double or halve to keep to it)."""

_MEMO_ROWS = 1 << 22
"""At most this many dead positions in the move search's memo (its index has twice the slots)."""

_FALL_WORK = 12_000
"""Path tests the relaxation under gravity may take at a node below the root (about 1 ms; with
4,000, nine in ten of the calls that ran out on 24x12 seed 8 were dead ends it had not finished)."""

_DIVE_NOISE = 3.0
"""How many rows a dive's choice of the highest pair may be off by (its randomness)."""

_DIVE_DRAWS = 4096
"""Random offsets drawn for a dive (it uses them in turn, one per pair it weighs)."""

_DIVE_WORK = 50_000_000
"""Most pairs of equal tiles a dive may weigh in all (each of its moves weighs every two tiles of a
kind): a dive reads no clock, so on a board with thousands of copies of a kind (100x100 with two
kinds: 25 million a move) there are no dives, and the search alone keeps to the time limit."""

_FALL_MOVES = 6
"""Fewest moves at a node for the relaxation under gravity to be tried there."""

_FALL_STEP = 4
"""After it runs out of work, tiles that must go before the relaxation is tried again."""

_GLANCE = 300
"""Nodes of the move search before the pairing search takes over (no gravity)."""

_SHUFFLED = 3
"""With gravity, how many of a node's best moves a restart tries in a random order."""

_RESTART = 64
"""Nodes of the first attempt of the pairing search; later ones get Luby multiples."""

_EXHAUST_BYTES = 384 << 20
"""The most memory the exhaustive search under gravity (`exhaust.Exhaust`) may take for its table
of positions seen: about 5 million positions on a 24x12 board, more than 10 s of work."""

_EXHAUST_SHARE = 3.0
"""Seconds of the exhaustive search under gravity per second of the restarts, once a board is not
quickly decided: it alone proves the random deals that die young (24x12 with 72 kinds x 4: 15
undecided of 100 at 10 s, against 18 with an even share)."""

_EXHAUST_NODES = 20
"""Positions of the exhaustive search per node of the restarts, in turns under a node limit: the
same share as `_EXHAUST_SHARE` at the two searches' speeds (about 770,000 positions and 115,000
nodes a second on 18x8 and 24x12 deals), counted in nodes so that the answer is the same on every
machine."""

_EXHAUST_SMALL = 128
"""Pairs on a board above which the exhaustive search stops once some line has played half of
them: such a board is likely clearable and has far too many positions to see them all, and the
restarts and dives clear it (on 30x16 with 60 kinds x 8 an even share to the end left a deal
undecided at 10 s). Smaller boards keep it: 16x9 with 36 kinds x 4 takes it at most 1.3 s."""

_PROBE_WORK = 3_000_000
"""Path tests the probing of the pairings (`probe.probe`) may take at the root (about 0.5 s)."""


def _work(every: exhaust.Exhaust | Halves) -> int:
    """The exhaustive search's work in nodes: its positions, and its proofs of `seal`."""
    return every.nodes + every.bounds.charged


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ...: optimal restarts."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def search(
    grid: np.ndarray,
    gravity: bool,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    safe: bool = True,
    memo: bool = True,
    memo_cap: int = MEMO_CAP,
    glance: int | None = None,
) -> Outcome:
    """Decide whether the padded `grid` (0 empty, -1 wall, > 0 kinds) can be cleared.

    `safe=False, memo=False` is the plain depth-first search over moves, the benchmark's
    baseline; otherwise without gravity the pairing search, with it the memoised search.
    Without gravity the move search first has `glance` nodes (default 300; 0 skips it): it
    clears easy boards (kinds of many copies) at once. `memo_cap` bounds the dead ends kept.
    """
    grid = np.array(grid, np.int32)
    kinds = np.unique(grid[grid > 0])
    grid[grid > 0] = np.searchsorted(kinds, grid[grid > 0]) + 1
    deadline = None if timeout is None else time.perf_counter() + timeout
    cores: list[_Core] = []
    glance = _GLANCE if glance is None else glance
    if safe and not gravity:
        cores = [_Pairing(grid, memo, memo_cap)]
        if glance > 0:  # a quick look first: easy boards (many copies) fall to it at once
            cores.insert(0, _Moves(grid.copy(), False, True, memo, memo_cap))
            cores[0].budget = glance
    else:
        cores = [_Moves(grid, gravity, safe, memo, memo_cap)]
    nodes = 0
    for core in cores:
        core.max_nodes = None if max_nodes is None else max_nodes - nodes
        core.deadline = deadline
        line: list[Move] = []
        try:
            found = core.run(line)
        except _Limit as error:
            limit: Literal["max_nodes", "timeout"] = (
                "timeout" if str(error) == "timeout" else "max_nodes"
            )
            return Outcome(None, [], nodes + core.nodes, limit)
        except _Restart:
            nodes += core.nodes
            continue
        return Outcome(found, line if found else [], nodes + core.nodes)
    raise AssertionError("the last search has no budget")


class _Core(ABC):
    """What both searches share: the grid, the tile counts, the limits, the memo."""

    def __init__(self, grid: np.ndarray, memo: bool, memo_cap: int) -> None:
        self.grid = grid
        self.count = np.bincount(grid[grid > 0], minlength=int(grid.max(initial=0)) + 1).astype(
            np.int64
        )
        self.left = int(self.count.sum())
        self.memo = memo
        self.memo_cap = memo_cap
        self.dead: set[Any] = set()
        self.nodes = 0
        self.max_nodes: int | None = None
        self.deadline: float | None = None
        self.budget: int | None = None
        """Nodes after which _Restart is raised (this attempt gives up, not the search)."""

    def tick(self) -> None:
        """Count a node; raise _Limit past max_nodes or the deadline (the clock is cheap)."""
        if self.budget is not None and self.nodes >= self.budget:
            raise _Restart
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _Limit("max_nodes")
        self.clock()
        self.nodes += 1

    def clock(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _Limit("timeout")

    def remember(self, key: Any) -> None:
        if self.memo and len(self.dead) < self.memo_cap:
            self.dead.add(key)

    @abstractmethod
    def run(self, line: list[Move]) -> bool:
        """Search from the current grid; True with `line` holding the moves played, False if none clears it."""


@dataclass
class _Node:
    """One position on the pairing search's stack."""

    key: Any
    moves: np.ndarray
    forced: bool
    hint: np.ndarray
    index: int = 0
    taken: int = 0
    """Moves of this node now played (popped when the child fails)."""
    forbade: int = 0
    """Forbidden pairs this node added (the last child), 0 before it."""


class _Pairing(_Core):
    """The pairing search (no gravity): take a pair of one kind, or forbid that kind's pairs."""

    def __init__(self, grid: np.ndarray, memo: bool, memo_cap: int) -> None:
        super().__init__(grid, memo, memo_cap)
        self.size = grid.size
        self.width = grid.shape[1]
        self.bits = 0
        for index in np.flatnonzero(grid.ravel() > 0).tolist():
            self.bits |= 1 << index
        self.forbid: list[int] = []
        self.forbid_array = _NONE
        self.rank = np.arange(len(self.count), dtype=np.int64)
        self.shuffle = False
        self.rng = np.random.default_rng(0)

    def code(self, move: Any) -> int:
        r1, c1, r2, c2 = (int(v) for v in move)
        a, b = r1 * self.width + c1, r2 * self.width + c2
        return int(a * self.size + b if a < b else b * self.size + a)

    def play(self, move: Any) -> None:
        r1, c1, r2, c2 = (int(v) for v in move)
        kind = int(self.grid[r1, c1])
        self.grid[r1, c1] = self.grid[r2, c2] = 0
        self.count[kind] -= 2
        self.left -= 2
        self.bits ^= (1 << (r1 * self.width + c1)) | (1 << (r2 * self.width + c2))

    def unplay(self, move: Any, kind: int) -> None:
        r1, c1, r2, c2 = (int(v) for v in move)
        self.grid[r1, c1] = self.grid[r2, c2] = kind
        self.count[kind] += 2
        self.left += 2
        self.bits ^= (1 << (r1 * self.width + c1)) | (1 << (r2 * self.width + c2))

    def key(self) -> Any:
        if not self.forbid:
            return self.bits
        bits, size = self.bits, self.size
        live = tuple(
            sorted(c for c in self.forbid if bits >> (c // size) & 1 and bits >> (c % size) & 1)
        )
        return (bits, live) if live else bits

    def set_forbid(self, codes: list[int]) -> None:
        self.forbid = codes
        self.forbid_array = np.array(sorted(codes), np.int64) if codes else _NONE

    def enter(self, hint: np.ndarray) -> _Node | None:
        """Visit the position on the board: its node, or None for a dead end."""
        self.tick()
        key = self.key()
        if key in self.dead:
            return None
        doomed, hint, _ = dense.relax(self.grid, self.forbid_array, hint, _WORK)
        self.clock()
        if not doomed:
            status, moves, _ = dense.node(
                self.grid, self.count, self.forbid_array, self.rank, _WORK
            )
            self.clock()
            if status == dense.OVER:  # a huge board: the scan goes on, the clock is read between
                status, moves, _ = dense.node(
                    self.grid, self.count, self.forbid_array, self.rank, 1 << 62
                )
            if status not in (dense.DEAD, dense.STUCK):
                return _Node(key, moves, status == dense.FORCED, hint)
        self.remember(key)
        return None

    def run(self, line: list[Move]) -> bool:
        """Restarts with growing node budgets (Luby's sequence) and fresh tie-breaks.

        A bad early pairing is found out only deep down, where chronological backtracking
        thrashes; a restart with other tie-breaks escapes it. Dead ends stay in the memo, and the
        budgets grow without bound, so the search stays complete (seeded: deterministic).
        """
        grid, count, bits = self.grid.copy(), self.count.copy(), self.bits
        root: list[int] = []
        for attempt in range(1, 1 << 30):
            if attempt == 2:  # not quickly cleared: probe the pairings once, at the root
                probed = probe(grid, False, _PROBE_WORK, clock=self.clock)
                if probed.dead:
                    return False
                root = probed.forbid.tolist()
                self.set_forbid(root)
            self.budget = self.nodes + _RESTART * _luby(attempt)
            try:
                return self.attempt(line)
            except _Restart:
                self.grid[:] = grid
                self.count[:] = count
                self.bits, self.left = bits, int(count.sum())
                self.set_forbid(root)
                line.clear()
                self.rank = self.rng.permutation(len(self.count)).astype(np.int64)
                self.shuffle = True  # after the first attempt: a kind's pairs in random order
        raise AssertionError("unreachable")

    def attempt(self, line: list[Move]) -> bool:
        stack: list[_Node] = []
        kinds: list[int] = []  # the kind of each move in `line`, for the undo
        hint = _NONE
        fresh = True
        while True:
            if fresh:
                fresh = False
                if not self.left:
                    self.tick()
                    return True
                node = self.enter(hint)
                if node is not None:
                    stack.append(node)
                    if node.forced:
                        for move in node.moves:
                            kinds.append(int(self.grid[move[0], move[1]]))
                            self.play(move)
                            line.append(_move(move))
                        node.taken = len(node.moves)
                        node.index = len(node.moves)
                        hint = node.hint
                        fresh = True
                        continue
            if not stack:
                return False
            node = stack[-1]
            for _ in range(node.taken):  # the child failed: take its moves back
                self.unplay(line.pop(), kinds.pop())
            node.taken = 0
            if node.forbade:
                self.set_forbid(self.forbid[: -node.forbade])
            if node.forced or node.forbade:
                self.remember(node.key)
                stack.pop()
                continue
            hint = node.hint
            if node.index == 0 and len(node.moves) > 1 and self.shuffle:
                node.moves = node.moves[self.rng.permutation(len(node.moves))]
            if node.index < len(node.moves):
                move = node.moves[node.index]
                node.index += 1
                kinds.append(int(self.grid[move[0], move[1]]))
                self.play(move)
                line.append(_move(move))
                node.taken = 1
            else:  # the last child: none of these pairs is ever played
                codes = [self.code(m) for m in node.moves]
                node.forbade = len(codes)
                self.set_forbid(self.forbid + codes)
            fresh = True


class _Moves(_Core):
    """The depth-first search over moves (gravity, or the plain baseline), run by the compiled
    kernel `depth.run` a few nodes per call, with the clock read between calls."""

    def __init__(
        self, grid: np.ndarray, gravity: bool, safe: bool, memo: bool, memo_cap: int
    ) -> None:
        super().__init__(grid, memo, memo_cap)
        self.gravity = gravity
        self.safe = safe
        self.rng = np.random.default_rng(0)
        self.dived = 0
        """The most pairs a dive has played."""
        self.alongside: Alongside | None = None
        """The exhaustive search in a thread of its own, once started."""
        self.rival: Rival | None = None
        """A second run of the restarts (other random choices) in a thread, on a big board."""
        self.rival_line: list[Move] = []
        self.stopping: threading.Event | None = None
        """Set when this search is a rival and the caller's search has ended."""
        self.turns: exhaust.Exhaust | None = None
        """The exhaustive search run in turns with the restarts, once started."""
        cells = (grid.shape[0] - 2) * (grid.shape[1] - 2)
        if gravity:
            self.memo_cap = min(memo_cap, _MEMO_BYTES // (cells + 64))
        self.memo_cap = min(self.memo_cap, _MEMO_ROWS)
        pairs = self.left // 2 + 2
        self.flags = np.zeros(12, np.int64)
        f = self.flags
        f[depth.GRAVITY], f[depth.SAFE], f[depth.MEMO] = gravity, safe, memo
        f[depth.ORDER] = safe or memo
        f[depth.PROVE], f[depth.FALL] = safe and not gravity, safe and gravity
        f[depth.FALL_MOVES], f[depth.FALL_STEP] = _FALL_MOVES, _FALL_STEP
        f[depth.WORK], f[depth.FALL_WORK], f[depth.CAP] = _WORK, _FALL_WORK, self.memo_cap
        self.state = np.zeros(depth.STATE, np.int64)
        self.state[depth.BUDGET_FALL] = _WORK  # all of it at the first node
        self.state[depth.FALL_ABOVE] = self.left
        self.state[depth.RNG] = 0x2545F4914F6CDD1D
        self.frames = np.zeros((pairs, 5), np.int64)
        self.moves = np.zeros((pairs * 16, 4), np.int64)
        self.line = np.zeros((pairs, 4), np.int64)
        self.kinds = np.zeros(pairs, np.int64)
        self.undo = np.zeros((pairs, 2, grid.shape[0]), grid.dtype)
        self.hint = np.zeros(max(self.left, 1), np.int64)
        dtype = np.uint8 if len(self.count) <= 256 else np.int16
        self.key = np.zeros(cells, dtype)
        self.hashes = np.zeros(0, np.uint64)
        self.keys = np.zeros((0, cells), dtype)
        self.index = np.full(2, -1, np.int64)
        if memo:
            self.grow_memo()
        self.scratch = np.zeros(len(self.count), np.int64)

    def grow_memo(self) -> None:
        """Make room for more dead positions (4,096 at first, then twice as many each time)."""
        used = self.remembered()
        rows = min(max(2 * len(self.hashes), 4096), self.memo_cap)
        self.hashes = np.concatenate([self.hashes[:used], np.zeros(rows - used, np.uint64)])
        self.keys = np.concatenate(
            [self.keys[:used], np.zeros((rows - used, len(self.key)), self.key.dtype)]
        )
        self.index = np.full(1 << (2 * rows).bit_length(), -1, np.int64)
        depth.reindex(self.index, self.hashes, used)

    @property
    def deepest(self) -> int:
        """The most pairs a line of the search or a dive has played from the start."""
        return max(self.dived, int(self.state[depth.DEEPEST]))

    def remembered(self) -> int:
        """Dead positions in the memo."""
        return int(self.state[depth.USED])

    def dives(self, nodes: int, line: list[Move]) -> bool:
        """Greedy dives from the grid for about `nodes` nodes (one per pair played): True with
        `line` holding a dive that cleared the board. The limits hold as for the search."""
        weighed = int(np.sum(self.count * (self.count - 1) // 2))
        if weighed * (self.left // 2) > _DIVE_WORK:
            return False
        spent = 0
        while spent < nodes:
            limit = nodes - spent
            if self.max_nodes is not None:
                limit = min(limit, self.max_nodes - self.nodes)
            if limit <= 0:
                raise _Limit("max_nodes")
            if limit < self.left // 2:
                return False  # a dive cut short cannot clear: leave the nodes to the search
            self.clock()
            noise = self.rng.random(_DIVE_DRAWS) * _DIVE_NOISE
            played, cleared = dive(self.grid, self.count, noise, limit)
            self.nodes += len(played)
            self.dived = max(self.dived, len(played))
            spent += max(len(played), 1)
            if cleared:
                line.extend(_move(m) for m in played)
                return True
        return False

    def falling(self) -> bool:
        """The relaxation under gravity in full at the root: True for a proven dead end."""
        dead, hint, work = falling.doomed(self.grid, _NONE, _WORK, _NONE)
        self.clock()
        self.hint[: len(hint)] = hint
        self.state[depth.HINT] = len(hint)
        self.state[depth.BUDGET_FALL] = _FALL_WORK
        if work > _WORK:
            self.state[depth.FALL_ABOVE] = self.left - _FALL_STEP
        return bool(dead)

    def clock(self) -> None:
        super().clock()
        if self.alongside is not None and self.alongside.decided:
            raise _Decided
        if self.rival is not None and self.rival.result is not None:
            raise _Decided
        if self.stopping is not None and self.stopping.is_set():
            raise _Limit("timeout")

    def run(self, line: list[Move]) -> bool:
        """With gravity and the safe moves on: restarts with growing budgets (Luby), each after
        the first with the best few moves of every node in a random order, each after as many
        nodes of greedy dives (`dive.dive`); else one attempt. The exhaustive search runs too:
        in a thread of its own from the start (`alongside`) when there are two cores and no
        node limit, else in turns with the restarts once the first has not decided the board."""
        if not (self.gravity and self.safe):
            return self.attempt(line)
        try:
            return self.restarts(line)
        except _Decided:
            if self.rival is not None and self.rival.result is not None:
                line.clear()
                line.extend(self.rival_line)
                return self.rival.result
            assert self.alongside is not None
            if self.alongside.status == exhaust.SOLVED:
                line.clear()
                line.extend(self.alongside.every.moves())
                return True
            return False
        finally:
            self.leave_alongside()
            if self.rival is not None:
                self.rival.stop()
                self.rival = None

    def race(self, grid: np.ndarray, seed: int) -> None:
        """Start a rival: the restarts again from `grid` (the root) in a thread, with other
        random choices, and no thread of its own. Its nodes are not counted (there is no node
        limit when it runs)."""
        rival = _Moves(grid.copy(), True, True, self.memo, self.memo_cap)
        rival.deadline = self.deadline
        rival.state[depth.RNG] ^= seed * 0x9E3779B97F4A7C15 & 0x7FFFFFFFFFFFFFFF
        rival.rng = np.random.default_rng(seed)
        self.rival_line.clear()

        def work(stopping: threading.Event) -> bool | None:
            rival.stopping = stopping
            try:
                return rival.run(self.rival_line)
            except _Limit:
                return None

        self.rival = Rival(work, rival.halt)

    def halt(self) -> None:
        """Stop the proofs of `seal` of the exhaustive search this rival runs in turns (when
        its `stopping` is set): they do not watch it, and one may run for seconds."""
        if self.turns is not None:
            self.turns.bounds.stop()

    def leave_alongside(self) -> None:
        """Stop the exhaustive search's thread, if there is one; its positions count as nodes."""
        if self.alongside is not None:
            self.alongside.stop()
            self.nodes += _work(self.alongside.every)
            self.alongside = None

    def restarts(self, line: list[Move]) -> bool:
        """The restarts and dives of `run`, with the exhaustive search in turns or alongside."""
        self.tick()
        grid, count = self.grid.copy(), self.count.copy()
        beside = (
            self.max_nodes is None
            and self.stopping is None
            and cores() >= 2
            and falling.compact(grid)
        )
        if beside:  # from the start: it costs the restarts nothing
            tables = Halves(grid, _EXHAUST_BYTES, False)
            tables.bounds.until = self.deadline  # a proof of `seal` gives up then
            tables.bounds.background = True  # and never holds the search up
            self.alongside = Alongside(tables, self.deadline)
        if self.falling():  # the relaxation in full at the root: impossible deals end here
            return False
        every: exhaust.Exhaust | Halves | None = None
        for attempt in range(1, 1 << 30):
            if attempt == 2:  # not quickly decided
                if probe(grid, True, _PROBE_WORK, clock=self.clock).dead:
                    return False  # the pairings probed once, at the root
                if falling.compact(grid) and not beside:
                    every = self.turns = exhaust.Exhaust(grid, _EXHAUST_BYTES)
                    every.bounds.until = self.deadline
                    if self.stopping is not None and self.stopping.is_set():
                        self.halt()  # stopped as it was made: `halt` may have missed it
            if beside and attempt >= 2 and self.alongside is not None:
                halves = self.alongside.every
                every = None
                if 4 * self.deepest < self.left and isinstance(halves, Halves):
                    halves.share()  # no line has played half the board: this thread helps
                    every = halves if halves.split else None
            started, spent = time.perf_counter(), self.nodes
            if self.dives(max(_RESTART * 2 * _luby(attempt), self.left // 2), line):
                return True
            self.budget = self.nodes + _RESTART * 4 * _luby(attempt)
            try:
                return self.attempt(line)
            except _Restart:
                self.grid[:] = grid
                self.count[:] = count
                self.left = int(count.sum())
                line.clear()
                self.flags[depth.SHUFFLE] = 1
            if 2 * self.deepest >= self.left // 2 > _EXHAUST_SMALL:
                every = None  # a big board and a line that played half of it: the restarts, alone
                if self.alongside is not None:  # and on the second core, the restarts again
                    self.leave_alongside()
                    self.race(grid, 1)
            if every is not None:
                if self.max_nodes is None:
                    turn = _EXHAUST_SHARE * (time.perf_counter() - started)
                    verdict = self.exhaustive(every, line, seconds=turn)
                else:  # a node limit: the same share on every machine
                    verdict = self.exhaustive(
                        every, line, nodes=_EXHAUST_NODES * (self.nodes - spent)
                    )
                if verdict is not None:
                    return verdict
                if every.full:
                    every = None  # out of memory, or of time to grow: the restarts go on alone
        raise AssertionError("unreachable")

    def exhaustive(
        self,
        every: exhaust.Exhaust | Halves,
        line: list[Move],
        *,
        seconds: float | None = None,
        nodes: int | None = None,
    ) -> bool | None:
        """The exhaustive search on for about `seconds`, or `nodes` of its positions: True (`line`
        clears the board), False (no play does), or None (not finished). Its positions count as
        nodes (those of the thread alongside when it stops), and so do its proofs of `seal`, by
        their work (`bounds._SEAL_NODES`): under a node limit they keep to the nodes left."""
        shared = self.alongside is not None and every is self.alongside.every
        until = None if seconds is None else time.perf_counter() + seconds
        last = None if nodes is None else self.nodes + nodes
        chunk = 256
        while True:
            if shared and every.bounds.proving:  # this core to the proof of `seal` beside
                time.sleep(0.002)
                self.clock()
                if past(until):
                    return None
                continue
            budget = chunk
            if self.max_nodes is not None:
                budget = min(budget, self.max_nodes - self.nodes)
                if budget <= 0:
                    raise _Limit("max_nodes")
            before = _work(every)
            if self.max_nodes is not None:  # the proofs of `seal` cost nodes too
                every.bounds.spare = self.max_nodes - self.nodes - budget
            status = every.step(budget, until)  # a widening `may` pauses at `until`
            self.nodes += 0 if shared else _work(every) - before
            if status == exhaust.SOLVED:
                line.clear()
                line.extend(every.moves())
                return True
            if status == exhaust.DEAD:
                return False
            if status == exhaust.GROW:
                return None
            self.clock()
            if past(until) or (last is not None and self.nodes >= last):
                return None
            chunk = min(chunk * 2, 1 << 12)

    def attempt(self, line: list[Move]) -> bool:
        """One depth-first search from the grid, about `_PAUSE` seconds per call of the kernel."""
        state = self.state
        state[depth.NODES] = self.nodes
        state[depth.DEPTH] = state[depth.LINE] = state[depth.TOP] = 0
        state[depth.LEFT] = self.left
        budget = -1 if self.budget is None else self.budget
        chunk = 1
        while True:
            pause = self.nodes + chunk
            if self.max_nodes is not None:
                pause = min(pause, self.max_nodes)
            started = time.perf_counter()
            status = self.step(budget, pause)
            self.nodes = int(state[depth.NODES])
            took = time.perf_counter() - started  # keep calls near _PAUSE seconds
            if took < _PAUSE:
                chunk = min(chunk * 2, 1 << 16)
            elif took > 2 * _PAUSE:
                chunk = max(1, chunk // 2)
            if status == depth.SOLVED:
                line.extend(_move(m) for m in self.line[: state[depth.LINE]])
                return True
            if status == depth.DEAD:
                return False
            if status == depth.RESTART:
                raise _Restart
            if status == depth.GROW:
                self.grow()
                continue
            if self.max_nodes is not None and self.nodes >= self.max_nodes:
                raise _Limit("max_nodes")
            self.clock()

    def step(self, budget: int, pause: int) -> int:
        """Run the kernel on until the node count reaches `budget` (-1: none) or `pause`."""
        status = depth.run(
            self.grid, self.count, self.flags, self.state, self.frames, self.moves, self.line,
            self.kinds, self.undo, self.hint, self.index, self.hashes, self.keys, self.scratch,
            self.key, budget, pause,
        )  # fmt: skip
        return int(status)

    def grow(self) -> None:
        """Room for the kernel to go on (it said GROW): a bigger memo, else more room for moves."""
        if self.memo and self.remembered() == len(self.hashes) < self.memo_cap:
            self.grow_memo()
        else:
            self.moves = np.concatenate([self.moves, np.zeros_like(self.moves)])
