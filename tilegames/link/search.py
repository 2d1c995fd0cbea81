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
root, with a small work budget below it, skipped on boards where that budget ran out).

Limits: the clock is read at every node, and every kernel call gets a work budget (path tests),
so a node on a huge board cannot run far past the deadline; the memo stops growing at
`memo_cap` entries (it only speeds the search up, so a full memo costs time, not correctness).
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from tilegames.link import dense, falling
from tilegames.link.dive import dive
from tilegames.link.kernels import expand, remove_falling
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
    """Positions visited (never more than max_nodes)."""
    limit: Literal["max_nodes", "timeout"] | None = None
    """"max_nodes" or "timeout" when solved is None."""


class _Limit(Exception):
    """Raised inside the search when a limit is reached."""


class _Restart(Exception):
    """Raised inside the pairing search when one attempt's node budget is spent."""


_FALL_WORK = 4000
"""Path tests the relaxation under gravity may take at a node below the root (about 0.4 ms)."""

_DIVE_NOISE = 3.0
"""How many rows a dive's choice of the highest pair may be off by (its randomness)."""

_DIVE_DRAWS = 4096
"""Random offsets drawn for a dive (it uses them in turn, one per pair it weighs)."""

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

_PROBE_WORK = 3_000_000
"""Path tests the probing of the pairings (`probe.probe`) may take at the root (about 0.5 s)."""


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


@dataclass
class _Frame:
    """One node of the move search: its moves, the next one to try, the undo of the current."""

    key: Any
    moves: np.ndarray
    forced: int
    hint: np.ndarray
    index: int = 0
    undo: Any = None


class _Moves(_Core):
    """The depth-first search over moves (gravity, or the plain baseline)."""

    def __init__(
        self, grid: np.ndarray, gravity: bool, safe: bool, memo: bool, memo_cap: int
    ) -> None:
        super().__init__(grid, memo, memo_cap)
        self.gravity = gravity
        self.safe = safe
        self.prove = safe and not gravity
        self.fall = safe and gravity
        self.fall_work = _WORK
        """Path tests the gravity relaxation may take at a node (all of _WORK at the root)."""
        self.fall_above = self.left
        """Tiles above which the relaxation is skipped: it ran out of work on a board this big."""
        self.hint = _NONE
        self.shuffle = False
        self.rng = np.random.default_rng(0)
        if gravity:
            self.memo_cap = min(memo_cap, _MEMO_BYTES // (grid.size + 64))

    def remove(self, r1: int, c1: int, r2: int, c2: int) -> tuple[int, np.ndarray | None]:
        grid = self.grid
        kind = int(grid[r1, c1])
        self.count[kind] -= 2
        self.left -= 2
        if self.gravity:
            return kind, remove_falling(grid, r1, c1, r2, c2)
        grid[r1, c1] = grid[r2, c2] = 0
        return kind, None

    def restore(self, move: Any, undo: tuple[int, np.ndarray | None]) -> None:
        kind, saved = undo
        r1, c1, r2, c2 = (int(v) for v in move)
        self.count[kind] += 2
        self.left += 2
        if saved is None:
            self.grid[r1, c1] = self.grid[r2, c2] = kind
        else:
            self.grid[:, c2] = saved[1]
            self.grid[:, c1] = saved[0]

    def dives(self, nodes: int, line: list[Move]) -> bool:
        """Greedy dives from the grid for about `nodes` nodes (one per pair played): True with
        `line` holding a dive that cleared the board. The limits hold as for the search."""
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
            spent += max(len(played), 1)
            if cleared:
                line.extend(_move(m) for m in played)
                return True
        return False

    def worth_falling(self, moves: int, forced: int) -> bool:
        """Is the relaxation worth its cost below the root? Not on a big board where it ran out of work,
        not before a safe macro move (its child is asked), and not with few moves: the search
        itself finds such a dead end in a few nodes, sooner than the proof."""
        return not forced and moves >= _FALL_MOVES and self.left <= self.fall_above

    def falling(self) -> bool:
        """The relaxation under gravity at this node: True for a proven dead end.

        A call that runs out of work (a big board) costs its budget for nothing, so the next
        ones wait until a few more pairs are gone; a finished one lets bigger boards try again."""
        budget = self.fall_work
        dead, self.hint, work = falling.doomed(self.grid, self.hint, budget, _NONE)
        self.clock()
        self.fall_work = _FALL_WORK
        if work > budget:
            self.fall_above = self.left - _FALL_STEP
        else:
            self.fall_above = max(self.fall_above, self.left + 2)
        return dead

    def key(self) -> bytes:
        if self.gravity:
            cells = dense.canonical(self.grid)
            return bytes((cells.astype(np.uint8) if len(self.count) <= 256 else cells).tobytes())
        return (self.grid[1:-1, 1:-1] > 0).tobytes()

    def run(self, line: list[Move]) -> bool:
        """With gravity and the safe moves on: restarts with growing budgets (Luby), each after
        the first with the best few moves of every node in a random order, each after as many
        nodes of greedy dives (`dive.dive`); else one attempt."""
        if not (self.gravity and self.safe):
            return self.attempt(line)
        self.tick()
        if self.falling():  # the relaxation in full at the root: impossible deals end here
            return False
        grid, count = self.grid.copy(), self.count.copy()
        for attempt in range(1, 1 << 30):
            if attempt == 2 and probe(grid, True, _PROBE_WORK, clock=self.clock).dead:
                return False  # not quickly cleared: the pairings probed once, at the root
            if self.dives(_RESTART * 4 * _luby(attempt), line):
                return True
            self.budget = self.nodes + _RESTART * 4 * _luby(attempt)
            try:
                return self.attempt(line)
            except _Restart:
                self.grid[:] = grid
                self.count[:] = count
                self.left = int(count.sum())
                line.clear()
                self.shuffle = True
        raise AssertionError("unreachable")

    def attempt(self, line: list[Move]) -> bool:
        """Depth-first search with an explicit stack (a big board is deeper than Python's limit)."""
        stack: list[_Frame] = []
        fresh = True
        while True:
            if fresh:
                fresh = False
                self.tick()
                if not self.left:
                    return True
                key = self.key() if self.memo else None
                dead = key is not None and key in self.dead
                if not dead and self.prove:  # the relaxation (no gravity): a proof of a dead end
                    dead, self.hint, _ = dense.relax(self.grid, _NONE, self.hint, _WORK)
                    if dead and key is not None:
                        self.remember(key)
                if not dead:
                    found, forced = expand(
                        self.grid, self.count, self.gravity, self.safe, self.safe or self.memo
                    )
                    self.clock()
                    if self.fall and self.worth_falling(len(found), forced) and self.falling():
                        dead = True  # the relaxation under gravity: a proof of a dead end
                        if key is not None:
                            self.remember(key)
                if not dead:
                    if self.shuffle and not forced and len(found) > 1:
                        top = min(len(found), _SHUFFLED)
                        found[:top] = found[self.rng.permutation(top)]
                    frame = _Frame(key, found.astype(np.int16), forced, _NONE)
                    stack.append(frame)
                    if forced:  # the safe macro move, the only child
                        frame.undo = [self.remove(*(int(v) for v in m)) for m in frame.moves]
                        frame.index = len(frame.moves)
                        line.extend(_move(m) for m in frame.moves)
                        fresh = True
                        continue
            if not stack:
                return False
            frame = stack[-1]
            if frame.undo is not None:  # the child failed: take its move back
                if frame.forced:
                    del line[-frame.forced :]
                    for move, undo in zip(reversed(frame.moves), reversed(frame.undo), strict=True):
                        self.restore(move, undo)
                else:
                    line.pop()
                    self.restore(frame.moves[frame.index - 1], frame.undo)
                frame.undo = None
            if frame.index >= len(frame.moves):
                if frame.key is not None:
                    self.remember(frame.key)
                stack.pop()
                continue
            move = tuple(int(v) for v in frame.moves[frame.index])
            frame.index += 1
            frame.undo = self.remove(*move)
            line.append(move)
            fresh = True
