"""The exhaustive search under gravity (`exhaust.Exhaust`): its verdicts are the plain search's,
its lines clear the board, pausing changes nothing, a full table claims nothing, and confined
play ends with exactly the tiles some play can take."""

from __future__ import annotations

import functools
import itertools
import random
import string
import time
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.link.test_solve import exhaustive, replay_clears, small_board
from tilegames.link import Board, Limits, bounds, deal, solve
from tilegames.link.closure import pairable, reckon
from tilegames.link.exhaust import (
    DEAD,
    FOUND,
    GROW,
    PAUSE,
    SOLVED,
    USED,
    Exhaust,
    _find,
    _reindex,
    _tag,
    tiles,
)
from tilegames.link.falling import compact
from tilegames.link.halves import Halves
from tilegames.link.path import joinable
from tilegames.link.search import _Limit, _Moves


def settled(board: Board) -> Board:
    """The board with its tiles resting on the bottom, as gravity leaves them after a move."""
    rows = str(board).split("/")
    columns = ["".join(row[c] for row in rows if row[c] != ".") for c in range(len(rows[0]))]
    height = len(rows)
    stacked = [
        "".join(
            column[len(column) - (height - r)] if height - r <= len(column) else "."
            for column in columns
        )
        for r in range(height)
    ]
    return Board.parse("/".join(stacked), gravity=True, ring=board.ring)


def finish(board: Board, per_call: int = 1 << 30, scout: int = 30_000) -> tuple[int, Exhaust]:
    every = Exhaust(board.grid(), 1 << 26, rows=16, scout=scout)
    while True:
        status = every.step(per_call)
        if status != PAUSE:
            return status, every


def cells(moves) -> list:
    return [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in moves]


@pytest.mark.parametrize("scout", [0, 30_000])
@pytest.mark.parametrize("ring", [True, False])
def test_verdicts_match_the_plain_search_and_lines_clear(ring, scout):
    verdicts = []
    for seed in range(300):
        board = settled(small_board(seed, True, ring))
        assert compact(board.grid())
        status, every = finish(board, scout=scout)
        expected = exhaustive(board.copy())
        assert status == (SOLVED if expected else DEAD), (str(board), ring)
        if status == SOLVED:
            assert replay_clears(board, cells(every.moves())), str(board)
        verdicts.append(expected)
    assert 0 < sum(verdicts) < len(verdicts)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.sampled_from([0, 5, 30_000]))
def test_pausing_every_position_changes_nothing(seed, ring, scout):
    board = settled(small_board(seed, True, ring))
    whole_status, whole = finish(board, scout=scout)
    step_status, stepped = finish(board, 1, scout)
    assert whole_status == step_status
    assert whole.nodes == stepped.nodes
    if whole_status == SOLVED:
        assert whole.moves() == stepped.moves()


def test_a_full_size_deal_is_cleared_and_its_line_replays():
    board = deal(12, 8, 24, seed=3, gravity=True)
    status, every = finish(board)
    assert status == SOLVED
    assert replay_clears(board, cells(every.moves()))


@pytest.mark.parametrize("halves", [False, True])
def test_a_halted_search_or_a_step_past_its_time_ends_at_the_next_widening(halves):
    # confined from the start, `may` empty: every position offers a way out to widen it by
    board = deal(12, 6, 18, 4, seed=3, gravity=True, solvable=False)

    def step(stop: str | None) -> tuple[int, int]:
        every = (Halves if halves else Exhaust)(board.grid(), 1 << 26)
        every.bounds.scout = 0
        passed = time.perf_counter() - 1
        if stop == "search":
            every.bounds.until = passed
        status = every.step(1 << 30, passed if stop == "step" else None)
        return status, every.nodes

    status, nodes = step(None)
    assert status in (SOLVED, DEAD) and nodes > 1
    for stop in ("search", "step"):
        status, nodes = step(stop)
        assert status == PAUSE and nodes <= 1


def test_a_full_table_claims_nothing():
    board = deal(24, 12, 72, 4, seed=5, gravity=True, solvable=False)  # 0.5 M positions
    every = Exhaust(board.grid(), 1 << 20, rows=16)
    status = PAUSE
    while status == PAUSE:
        status = every.step(1 << 30)
    assert status == GROW and every.full
    assert every.nodes > 0
    assert len(every.hashes) * every.row_bytes <= 1 << 20


def test_positions_that_share_a_slot_or_a_hash_stay_apart():
    index = np.full(8, -1, np.int64)
    rows = np.array([[1, 0], [2, 0], [3, 0], [0, 0]], np.uint64)
    shared = np.uint64(0x5EED_0000_0000_0003)  # one hash, slot 3, for rows 0 and 1
    other = np.uint64(0x0BAD_0000_0000_0003)  # slot 3 too, another tag: row 2
    hashes = np.array([shared, shared, other, 0], np.uint64)
    placed = []
    for row, key in enumerate(hashes[:3]):
        seen, slot = _find(index, rows, rows[row], key)
        assert not seen and slot not in placed
        index[slot] = _tag(key) | row
        placed.append(slot)
    assert placed == [3, 4, 5]
    for row, key in enumerate(hashes[:3]):
        assert _find(index, rows, rows[row], key) == (True, placed[row])
    assert not _find(index, rows, rows[3], shared)[0]  # its hash, not its mask
    again = np.full(16, -1, np.int64)  # a grown table finds them all by their hashes
    _reindex(again, hashes, 3)
    for row, key in enumerate(hashes[:3]):
        seen, slot = _find(again, rows, rows[row], key)
        assert seen and again[slot] & 0xFFFFFFFF == row


def test_macro_steps_replay_in_a_playable_order():
    # Two kinds whose four tiles all sit on top: each kind goes as one step of four tiles.
    board = Board.parse("ABAB/ABAB/CDCD/CDCD", gravity=True)
    status, every = finish(board)
    assert status == SOLVED
    moves = cells(every.moves())
    assert replay_clears(board, moves)
    assert len(moves) == 8
    steps, row = 0, int(every.meta[FOUND])
    while row > 0:
        steps, row = steps + 1, int(every.parent[row])
    assert steps == 4  # a kind of four per step


def test_the_move_search_runs_it_within_its_limits():
    dead = (settled(small_board(seed, True, True)) for seed in range(1000))
    board = next(b for b in dead if exhaustive(b.copy()) is False)  # every position expanded
    core = _Moves(board.grid(), True, True, True, 1000)
    every = Exhaust(core.grid, 1 << 26)
    assert core.exhaustive(every, [], seconds=60.0) is False
    assert core.nodes == every.nodes > 0
    limited = _Moves(board.grid(), True, True, True, 1000)
    limited.max_nodes = 1
    with pytest.raises(_Limit):
        limited.exhaustive(Exhaust(board.grid(), 1 << 26), [], seconds=60.0)
    assert limited.nodes <= 1


def test_random_deals_only_it_decides_are_decided():
    # 24x12 with 72 kinds x 4, uniformly random: the relaxations and the restarts leave both
    # undecided after a minute; seeing every position (about 0.1 M for the first) decides them.
    impossible = deal(24, 12, 72, 4, seed=91, gravity=True, solvable=False)
    assert solve(impossible, limits=Limits(timeout=300)) is None
    clearable = deal(24, 12, 72, 4, seed=77, gravity=True, solvable=False)
    solution = solve(clearable, limits=Limits(timeout=300))
    assert solution is not None and replay_clears(clearable, solution.moves)


def joinable_at(grid) -> Callable[[int], set[tuple[int, int]]]:
    """Obviously right: for a mask of tiles gone (tiles numbered as `tiles` numbers them), the
    pairs of a kind joinable in that position of `grid`, tried with `joinable`."""
    col, kind, first = tiles(grid)
    h, w = grid.shape
    frame = np.where(grid > 0, 0, grid).astype(np.int32)

    def pairs(gone: int) -> set[tuple[int, int]]:
        position, row = frame.copy(), {}
        for c in range(1, w - 1):
            stacked = [t for t in range(first[c], first[c + 1]) if not gone >> t & 1]
            for j, t in enumerate(stacked):
                position[h - 2 - j, c] = kind[t]
                row[t] = h - 2 - j
        of_kind: dict[int, list[int]] = {}
        for t in sorted(row):
            of_kind.setdefault(int(kind[t]), []).append(t)
        return {
            (x, y)
            for same in of_kind.values()
            for x, y in itertools.combinations(same, 2)
            if joinable(position, row[x], col[x], row[y], col[y])
        }

    return pairs


def reachable(grid) -> tuple[set[int], bool, set[tuple[int, int]], set[int]]:
    """Obviously right: every position from `grid`, by trying every pair of a kind
    (`joinable_at`): (the tiles some play takes, can play clear, the pairs joinable in some
    position, the positions as masks of the tiles gone)."""
    pairs, n = joinable_at(grid), len(tiles(grid)[0])
    seen, todo, taken, joined = {0}, [0], 0, set()
    while todo:
        gone = todo.pop()
        for x, y in pairs(gone):
            child = gone | 1 << x | 1 << y
            taken |= 1 << x | 1 << y
            joined.add((x, y))
            if child not in seen:
                seen.add(child)
                todo.append(child)
    taken_tiles = {t for t in range(n) if taken >> t & 1}
    return taken_tiles, (1 << n) - 1 in seen, joined, seen


def tall_board(seed: int) -> Board:
    """A random board of 3-6 columns of 4-7 tiles, kinds of 2 and 4: many die young."""
    return random_board(seed, (3, 6), (4, 7))


def random_board(seed: int, widths: tuple[int, int], heights: tuple[int, int]) -> Board:
    """A random board with gravity, its width and height drawn from the ranges given, kinds of 2
    and 4, one cell or none empty."""
    rng = random.Random(seed)
    width, height = rng.randint(*widths), rng.randint(*heights)
    layout: list[str] = []
    while len(layout) < width * height - 1:
        copies = min(rng.choice([2, 2, 4]), (width * height - len(layout)) // 2 * 2)
        layout += [string.ascii_letters[len(layout) % 52]] * copies
    layout += ["."] * (width * height - len(layout))
    rng.shuffle(layout)
    rows = ("".join(layout[r * width : (r + 1) * width]) for r in range(height))
    return Board.parse("/".join(rows), gravity=True)


def ringed_boards(small: int) -> list[Board]:
    """`small` small boards with the ring and 80 tall ones, settled."""
    boards = [small_board(seed, True, True) for seed in range(small)]
    boards += [tall_board(seed) for seed in range(80)]
    return [settled(board) for board in boards]


def test_confined_play_finds_exactly_the_tiles_play_can_take():
    partial = grouped = 0
    for board in ringed_boards(300):
        taken, clearable, _, _ = reachable(board.grid())
        status, every = finish(board, scout=0)  # confined from the first position
        assert status == (SOLVED if clearable else DEAD), str(board)
        if status == DEAD:
            assert set(np.flatnonzero(every.may)) == taken, str(board)  # never fewer: sound
            partial += len(taken) < len(every.col)
        used = int(every.meta[USED])
        grouped += bool(((every.key_pair[:used, 0] < 0) & (every.key_at[:used] > 0)).any())
    assert partial > 15  # the proofs that leave tiles out are exercised
    assert grouped > 30  # and positions expanded by the moves of one kind (`keys.group`)


def on_a_tall_base(board: Board) -> Board:
    """`board` (settled, with the ring) on 64 rows of tiles that never go: its tiles then sit
    past the 64 places of one word of the kernel's column masks."""
    rows = str(board).split("/")
    width = len(rows[0])
    base = [[""] * width for _ in range(64)]
    kinds = iter(chr(0x4E00 + k) for k in range(10_000))
    edge = [next(kinds) for _ in range(64)]  # the left edge's row i with the right's row i + 1
    for i in range(64):
        base[i][0], base[(i + 1) % 64][width - 1] = edge[i], edge[i]
    for c in range(1, width - 1):  # a b a b, a column's own kinds: never side by side
        for i in range(0, 64, 4):
            a, b = next(kinds), next(kinds)
            for j, kind in enumerate((a, b, a, b)):
                base[i + j][c] = kind
    bottom_up = ["".join(row) for row in base]
    return Board.parse("/".join(rows + bottom_up[::-1]), gravity=True, ring=board.ring)


def test_columns_taller_than_a_word_count_their_loose_tiles():
    played = 0
    for seed in range(12):
        board = on_a_tall_base(settled(tall_board(seed)))
        assert compact(board.grid())
        taken, clearable, _, _ = reachable(board.grid())
        status, every = finish(board, scout=0)
        assert not clearable and status == DEAD, str(board)
        assert set(np.flatnonzero(every.may)) == taken, str(board)
        played += len(taken) > 0
    assert played > 8


def reached(start: int, moves: Callable[[int], frozenset], allowed: Callable) -> set[int]:
    """The positions (masks of tiles gone) that the `allowed` moves reach from `start`."""
    seen, todo = {start}, [start]
    while todo:
        gone = todo.pop()
        for x, y in moves(gone):
            child = gone | 1 << x | 1 << y
            if allowed((x, y)) and child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def stubborn(every: Exhaust, row: int, inside: Callable[[int], frozenset]) -> None:
    """Check the stubborn-set claims (Valmari) of a position a proof expanded by a key
    (`keys.key`) or by the moves of one kind (`keys.group`), by brute force. With T those moves,
    every position that other moves inside `may` reach from it (a) enables no move of T it does
    not, (b) plays a move of T to a position that the same move first and then other moves
    reach too, and (c) one move of T stays enabled in all of them. Then every position with no
    move left is still reached (docs/link.md, solver item 12)."""
    start = sum(int(word) << 64 * i for i, word in enumerate(every.rows[row]))
    x, y = (int(t) for t in every.key_pair[row])

    def other(move: tuple[int, int]) -> bool:
        return move != (min(x, y), max(x, y)) if x >= 0 else every.kind[move[0]] != -1 - x

    region = reached(start, inside, other)
    now = {move for move in inside(start) if not other(move)}
    assert now
    for gone in region:
        assert {move for move in inside(gone) if not other(move)} <= now  # (a)
    for t in now:
        after = reached(start | 1 << t[0] | 1 << t[1], inside, other)
        for gone in region:
            if t in inside(gone):
                assert gone | 1 << t[0] | 1 << t[1] in after  # (b)
    assert any(all(t in inside(gone) for gone in region) for t in now)  # (c)


def test_a_key_or_the_moves_of_one_kind_stand_for_every_move():
    checked = np.zeros(2, int)  # keys, and the moves of one kind
    for seed in range(400):
        status, every = finish(board := settled(tall_board(seed)), scout=0)
        if status != DEAD:
            continue  # `may` is final, and the keys all of its version
        pairs = joinable_at(every.grid)
        inside = functools.cache(
            lambda gone, pairs=pairs, may=every.may: frozenset(
                (x, y) for x, y in pairs(gone) if may[x] and may[y]
            )
        )
        for row in np.flatnonzero(every.key_at[: every.meta[USED]] > 0):
            assert every.key_at[row] == every.bounds.version
            try:
                stubborn(every, row, inside)
            except AssertionError:
                raise AssertionError(f"{board}: position {row}") from None
            checked[every.key_pair[row, 0] < 0] += 1
    assert checked.min() > 30


@pytest.mark.parametrize("reckon", [1, 10**9])
@pytest.mark.parametrize("check_all", [False, True])
def test_widening_keeps_the_table_and_the_tiles_round_7_saw_go(monkeypatch, reckon, check_all):
    # 24x12, 72 kinds x 4, random deals whose every position round 7's search sees in a second:
    # `may` widens while the table stays, keys of older versions are checked again, and play
    # ends with exactly the tiles some play takes. `pairable` is computed at every widening, or
    # only when the stack runs out; the old keys checked are those `spoilt` names, or all.
    monkeypatch.setattr(bounds, "_RECKON", reckon)
    if check_all:
        monkeypatch.setattr(
            bounds.Bounds, "spoilt", lambda self, may, pairs, pinned: np.ones(26, bool)
        )
    revisited = 0
    for seed in (0, 17, 30, 31):
        board = deal(24, 12, 72, 4, seed=seed, gravity=True, solvable=False)
        plain = Exhaust(board.grid(), 1 << 28, confine=False)
        confined = Exhaust(board.grid(), 1 << 28, scout=0)
        assert plain.step(1 << 30) == DEAD and confined.step(1 << 30) == DEAD
        assert np.array_equal(plain.taken(), confined.may), seed
        assert confined.meta[USED] < plain.meta[USED], seed
        revisited += confined.revisited
    assert revisited > 0


def test_spoilt_names_the_columns_a_wider_may_can_touch():
    # Obviously right, column by column: a tile of the column with another pairable row, a tile
    # new to `may` or with other tiles pinned under it in it or beside it, or a tile pairable
    # with one in a column with such a tile.
    rng = np.random.default_rng(7)
    named = np.zeros(2, int)
    for seed in range(40):
        board = settled(small_board(seed, True, True))
        every = Exhaust(board.grid(), 1 << 20)
        n, width = len(every.col), every.grid.shape[1]
        old = rng.random(n) < 0.3
        every.bounds.may = old | (rng.random(n) < 0.3)
        before, pinned, _ = reckon(every.grid, every.col, every.kind, every.first, old)
        now = reckon(every.grid, every.col, every.kind, every.first, every.may)
        every.bounds.pairable, every.bounds.pinned = now[:2]
        new_cols = {
            int(every.col[t])
            for t in range(n)
            if (every.may[t] and not old[t]) or (now[1][t] != pinned[t]).any()
        }
        expected = np.zeros(width, bool)
        for c in range(width):
            here = [t for t in range(n) if every.col[t] == c]
            expected[c] = (
                any((every.bounds.pairable[t] != before[t]).any() for t in here)
                or any(abs(c - d) <= 1 for d in new_cols)
                or any(
                    every.col[u] in new_cols
                    for t in here
                    for u in np.flatnonzero(every.bounds.pairable[t])
                )
            )
        assert np.array_equal(every.bounds.spoilt(old, before, pinned), expected), str(board)
        named += np.bincount(expected[1:-1], minlength=2)
    assert named.min() > 20  # columns named and not named


def test_a_hard_deal_is_proved_with_the_tiles_round_7_saw_go():
    # 24x12, 72 kinds x 4, random: round 7's search sees all 495,048 positions; confined play
    # takes the same tiles and proves the deal in a fraction of the positions.
    board = deal(24, 12, 72, 4, seed=5, gravity=True, solvable=False)
    plain = Exhaust(board.grid(), 1 << 28, confine=False)
    confined = Exhaust(board.grid(), 1 << 28, scout=0)
    assert plain.step(1 << 30) == DEAD and confined.step(1 << 30) == DEAD
    assert np.array_equal(plain.taken(), confined.may)  # every position's tiles gone
    assert 0 < confined.may.sum() < len(confined.col)
    assert confined.nodes < plain.nodes // 2


def test_with_no_tile_in_may_the_pairable_pairs_are_the_pairs_joinable_now():
    for seed in range(60):
        board = settled(small_board(seed, True, True))
        every = Exhaust(board.grid(), 1 << 20)
        col, first, n = every.col, every.first, len(every.col)
        nobody = np.zeros(n, bool)
        pairs = pairable(every.grid, col, every.kind, first, nobody)
        cells = {(every.grid.shape[0] - 2 - (t - first[col[t]]), int(col[t])): t for t in range(n)}
        expected = np.zeros((n, n), bool)
        for (r1, c1), (r2, c2) in board.pairs():
            x, y = cells[(r1 + 1, c1 + 1)], cells[(r2 + 1, c2 + 1)]
            expected[x, y] = expected[y, x] = True
        assert np.array_equal(pairs, expected), str(board)


@functools.cache
def played_out() -> list[tuple[Board, Exhaust, np.ndarray, set, set, np.ndarray, np.ndarray]]:
    """The ringed boards with all their play (`reachable`): (board, its tables, `may` the tiles
    some play takes, the pairs joined, the positions, and `closure.reckon` of that `may`)."""
    out = []
    for board in ringed_boards(200):
        taken, _, joined, seen = reachable(board.grid())
        every = Exhaust(board.grid(), 1 << 20)
        may = np.zeros(len(every.col), bool)
        may[list(taken)] = True
        pairs, pinned, _ = reckon(every.grid, every.col, every.kind, every.first, may)
        out.append((board, every, may, joined, seen, pairs, pinned))
    return out


def test_pairable_holds_every_pair_play_joins_and_leaves_some_out():
    left_out = 0
    for board, every, may, joined, _, pairs, _ in played_out():
        assert all(pairs[x, y] and pairs[y, x] for x, y in joined), str(board)  # sound
        others = (every.kind[:, None] == every.kind[None, :]) & ~np.eye(len(may), dtype=bool)
        left_out += int((others & np.outer(may, may) & ~pairs).sum())
    assert left_out > 0  # pairs of `may` that no play joins are told apart


def test_a_pinned_tile_stays_while_the_tile_over_it_does():
    # `pinned[x, z]`: z, under x in its column, never goes while x is there. Checked in every
    # position play reaches, with `may` the tiles some play takes.
    across = 0
    for board, every, may, _, seen, _, pinned in played_out():
        for x, z in np.argwhere(pinned):
            assert every.col[x] == every.col[z] and z < x and may[x] and may[z]
            assert not any(gone >> z & 1 and not gone >> x & 1 for gone in seen), str(board)
            across += every.kind[x] != every.kind[z]
    assert across >= 10  # pinned by another kind's unit, not only by its own


def test_a_table_whose_doubling_would_end_past_the_deadline_is_full():
    # a doubling cannot be cut short: one that began 0.3 s before a time limit ran past it
    stopped = 0
    big = deal(16, 9, 36, 4, seed=1, gravity=True, solvable=False)  # 81,483 positions
    searches: list[tuple[Board, Exhaust | Halves]] = [
        (board, Exhaust(board.grid(), 1 << 26, rows=2)) for board in ringed_boards(0)[:20]
    ]
    searches.append((big, Halves(big.grid(), 1 << 28)))  # its first table: 16,384 rows
    for board, tables in searches:
        plain = finish(board)[0]  # with time to grow
        whole = tables if isinstance(tables, Exhaust) else tables.tables[0]
        rows = len(whole.hashes)
        tables.bounds.until = time.perf_counter() + 60
        whole.doubled_in = 60.0  # as if the last doubling took a minute: the next, two
        for _ in range(100_000):
            if (status := tables.step(1 << 12)) != PAUSE:
                break
        if status == GROW:  # full until the deadline, and nothing claimed
            assert tables.full and len(whole.hashes) == rows and tables.step(1) == GROW
            stopped += 1
        else:
            assert status == plain
    assert stopped > 10 and status == GROW != plain  # the last, 16x9, in two tables
