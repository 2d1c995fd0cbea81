"""The depth-first search over moves, compiled: one attempt of the move search, paused and resumed.

`search._Moves` keeps the restarts, the dives and the limits; this kernel runs the search itself
(the safe macro moves and the move order of `kernels.expand`, the relaxations that prove dead
ends, the memo) with the whole stack in arrays, so that it can stop after a few nodes for the
caller to read the clock and go on where it stopped. Each node costs a move generation and a
hash lookup, where the Python loop it replaces spent about as long again in the interpreter.

The memo holds dead positions keyed by the grid with its kinds renumbered (`dense.canonical`):
an open-addressing index of 64-bit hashes into rows of whole keys, compared in full on a hit, so
a collision of hashes never makes a live position dead.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link import dense, falling
from tilegames.link.kernels import expand, settle
from tilegames.link.lean import lean

A = np.ndarray

SOLVED, DEAD, RESTART, PAUSE, GROW = 0, 1, 2, 3, 4
"""What a call of `run` ended with: cleared, every move refuted, the attempt's node budget
spent, the call's nodes spent (call again), the move buffer full (grow it, call again)."""

# flags: what the search does (set once)
GRAVITY, SAFE, MEMO, ORDER, PROVE, FALL, SHUFFLE = 0, 1, 2, 3, 4, 5, 6
FALL_MOVES, FALL_STEP, WORK, FALL_WORK, CAP = 7, 8, 9, 10, 11
# state: where the search is (kept between calls)
NODES, DEPTH, LINE, LEFT, TOP, BUDGET_FALL, FALL_ABOVE, HINT, USED, RNG = range(10)
FALL_CALLS, FALL_DEAD, FALL_SKIPPED, DEEPEST = 10, 11, 12, 13
STATE = 14
"""The length of `state`."""
# frames: one row per node on the stack
START, LENGTH, INDEX, FORCED, LINE_AT = range(5)


@lean
def _hash(key: np.ndarray) -> np.uint64:
    """FNV-1a over the key's cells (never 0: 0 marks an empty slot)."""
    h = np.uint64(14695981039346656037)
    for v in key:
        h = (h ^ np.uint64(v)) * np.uint64(1099511628211)
    return h if h != 0 else np.uint64(1)


@lean
def same(a: A, b: A) -> bool:
    """Are two keys of one length equal? (`np.array_equal` compiles to a slower loop.)"""
    for i in range(a.shape[0]):  # noqa: SIM110 (a plain loop compiles best)
        if a[i] != b[i]:
            return False
    return True


@lean
def find(index: A, hashes: A, keys: A, key: A, h: np.uint64) -> tuple[bool, np.int64]:
    """The slot of `key` in the index: (found?, slot; the empty slot to fill when not found).
    The open-addressing table of the memo here (`exhaust` keeps its own, with tags: `exhaust._find`)."""
    mask = index.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while index[slot] >= 0:
        row = index[slot]
        if hashes[row] == h and same(keys[row], key):
            return True, slot
        slot = (slot + 1) & mask
    return False, slot


@njit(cache=True)
def _play(
    grid: A, count: A, state: A, line: A, kinds: A, undo: A, gravity: bool,
    r1: int, c1: int, r2: int, c2: int,
) -> None:  # fmt: skip
    at = state[LINE]
    kind = grid[r1, c1]
    undo[at, 0] = grid[:, c1]
    undo[at, 1] = grid[:, c2]
    if gravity:
        settle(grid, r1, c1, r2, c2)
    else:
        grid[r1, c1] = 0
        grid[r2, c2] = 0
    count[kind] -= 2
    state[LEFT] -= 2
    line[at, 0], line[at, 1], line[at, 2], line[at, 3] = r1, c1, r2, c2
    kinds[at] = kind
    state[LINE] = at + 1
    state[DEEPEST] = max(state[DEEPEST], at + 1)


@njit(cache=True)
def _unplay(grid: A, count: A, state: A, line: A, kinds: A, undo: A) -> None:
    at = state[LINE] - 1
    c1, c2 = line[at, 1], line[at, 3]
    grid[:, c2] = undo[at, 1]
    grid[:, c1] = undo[at, 0]  # last: when c1 == c2 this is the column as it was
    count[kinds[at]] += 2
    state[LEFT] += 2
    state[LINE] = at


@njit(cache=True)
def _random(state: A) -> int:
    """xorshift64 on state[RNG]: the restarts' tie-breaks, reproducible from the seed."""
    x = np.uint64(state[RNG])
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    state[RNG] = np.int64(x)
    return int(x >> np.uint64(1))


@njit(cache=True)
def _fall_pays(state: A) -> bool:
    """Run the relaxation under gravity at this node? At every node where it proves one dead
    end in eight calls or more; where it proves fewer (boards that are mostly clearable, where
    it costs most of the time and finds little) at one such node in eight."""
    calls = state[FALL_CALLS]
    if calls < 64 or 8 * state[FALL_DEAD] >= calls:
        return True
    state[FALL_SKIPPED] += 1
    return bool(state[FALL_SKIPPED] % 8 == 0)


@njit(cache=True, nogil=True)
def run(
    grid: A, count: A, flags: A, state: A, frames: A, moves: A, line: A, kinds: A, undo: A,
    hint: A, index: A, hashes: A, keys: A, scratch: A, key: A, budget: int, pause_at: int,
) -> int:  # fmt: skip
    """Search on from where `state` and `frames` say (a fresh state: the root) until a status.

    `budget` (-1: none) ends the attempt (RESTART) and `pause_at` the call (PAUSE) when the
    node count reaches them; a solution's moves are `line[:state[LINE]]`.
    """
    gravity, memo = flags[GRAVITY] != 0, flags[MEMO] != 0
    none = np.empty(0, np.int64)
    fresh = True
    while True:
        if fresh:
            fresh = False
            nodes = state[NODES]
            if budget >= 0 and nodes >= budget:
                return RESTART
            if nodes >= pause_at:
                return PAUSE
            if memo and state[USED] == keys.shape[0] and state[USED] < flags[CAP]:
                return GROW  # the memo is full: the caller makes it bigger
            state[NODES] = nodes + 1
            if state[LEFT] == 0:
                return SOLVED
            dead = False
            slot = np.int64(-1)
            h = np.uint64(0)
            if memo:
                dense.canonical_into(grid, scratch, key)
                h = _hash(key)
                known, slot = find(index, hashes, keys, key, h)
                if known:
                    dead, slot = True, np.int64(-1)  # already remembered
            if not dead and flags[PROVE]:  # the relaxation (no gravity): a proof of a dead end
                dead, gone, _ = dense.relax(grid, none, hint[: state[HINT]], flags[WORK])
                hint[: gone.shape[0]] = gone
                state[HINT] = gone.shape[0]
            found = np.empty((0, 4), np.int64)
            forced = 0
            if not dead:
                found, forced = expand(grid, count, gravity, flags[SAFE] != 0, flags[ORDER] != 0)
                if (
                    flags[FALL]
                    and forced == 0
                    and found.shape[0] >= flags[FALL_MOVES]
                    and state[LEFT] <= state[FALL_ABOVE]
                    and _fall_pays(state)
                ):  # the relaxation under gravity, while it pays at this size of board
                    work = state[BUDGET_FALL]
                    dead, gone, spent = falling.doomed(
                        grid, hint[: state[HINT]], work, none, False
                    )  # without the rule for two tiles of a column (`falling.doomed`)
                    state[FALL_CALLS] += 1
                    state[FALL_DEAD] += dead
                    hint[: gone.shape[0]] = gone
                    state[HINT] = gone.shape[0]
                    state[BUDGET_FALL] = flags[FALL_WORK]
                    if spent > work:  # ran out: wait until a few more pairs are gone
                        state[FALL_ABOVE] = state[LEFT] - flags[FALL_STEP]
                    else:
                        state[FALL_ABOVE] = max(state[FALL_ABOVE], state[LEFT] + 2)
            if dead:
                if slot >= 0:
                    _remember(index, hashes, keys, key, h, slot, state)
            else:
                n = found.shape[0]
                top = state[TOP]
                if top + n > moves.shape[0]:
                    state[NODES] = nodes  # this node again, after the caller grows `moves`
                    return GROW
                if flags[SHUFFLE] and forced == 0 and n > 1:
                    for i in range(min(n, 3) - 1, 0, -1):
                        j = _random(state) % (i + 1)
                        for q in range(4):
                            found[i, q], found[j, q] = found[j, q], found[i, q]
                moves[top : top + n] = found
                d = state[DEPTH]
                frames[d, START], frames[d, LENGTH], frames[d, INDEX] = top, n, 0
                frames[d, FORCED], frames[d, LINE_AT] = forced, state[LINE]
                state[TOP] = top + n
                state[DEPTH] = d + 1
                if forced:  # the safe macro move, the only child
                    for q in range(n):
                        r1, c1, r2, c2 = found[q, 0], found[q, 1], found[q, 2], found[q, 3]
                        _play(grid, count, state, line, kinds, undo, gravity, r1, c1, r2, c2)
                    frames[d, INDEX] = n
                    fresh = True
                    continue
        d = state[DEPTH] - 1
        if d < 0:
            return DEAD
        while state[LINE] > frames[d, LINE_AT]:  # the child failed: take its moves back
            _unplay(grid, count, state, line, kinds, undo)
        i = frames[d, INDEX]
        if i >= frames[d, LENGTH]:  # every child failed: this position is dead
            if memo:
                dense.canonical_into(grid, scratch, key)
                h = _hash(key)
                known, empty = find(index, hashes, keys, key, h)
                if not known:
                    _remember(index, hashes, keys, key, h, empty, state)
            state[TOP] = frames[d, START]
            state[DEPTH] = d
            continue
        frames[d, INDEX] = i + 1
        m = frames[d, START] + i
        r1, c1, r2, c2 = moves[m, 0], moves[m, 1], moves[m, 2], moves[m, 3]
        _play(grid, count, state, line, kinds, undo, gravity, r1, c1, r2, c2)
        fresh = True


@njit(cache=True)
def _remember(index: A, hashes: A, keys: A, key: A, h: np.uint64, slot: np.int64, state: A) -> None:
    """Add `key` at the empty `slot` (of `find`), unless the rows are full (then it is lost:
    the memo only saves time)."""
    row = state[USED]
    if row >= keys.shape[0]:
        return
    keys[row] = key
    hashes[row] = h
    index[slot] = row
    state[USED] = row + 1


@njit(cache=True)
def reindex(index: np.ndarray, hashes: np.ndarray, used: int) -> None:
    """Fill the empty `index` (all -1) with the first `used` rows, by their hashes."""
    mask = index.shape[0] - 1
    for row in range(used):
        slot = np.int64(hashes[row] & np.uint64(mask))
        while index[slot] >= 0:
            slot = (slot + 1) & mask
        index[slot] = row
