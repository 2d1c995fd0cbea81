import json
from collections import Counter, deque

import numpy as np
import pytest

from tests.klotski.test_cli import run
from tilegames.klotski.solve import grid_key, grid_neighbours, is_solved_grid, mirror_grid
from tilegames.klotski.universe import compute_arrays, piece_set_of, universe

SHAPES = {1: (1, 1), 2: (1, 2), 3: (2, 1), 4: (2, 2)}


def reference_layouts(width: int, height: int, min_empty: int = 2) -> list[tuple[int, ...]]:
    """Every tiling with one 2×2 and at least `min_empty` empty cells, by plain recursion."""
    n = width * height
    found = []

    def fill(grid: list[int | None]) -> None:
        if None not in grid:
            if grid.count(4) == 4 and grid.count(0) >= min_empty:
                found.append(tuple(grid))
            return
        cell = grid.index(None)
        r, c = divmod(cell, width)
        for kind in range(5):
            rows, columns = SHAPES.get(kind, (1, 1))
            spots = [(rr, cc) for rr in range(r, r + rows) for cc in range(c, c + columns)]
            if all(
                rr < height and cc < width and grid[rr * width + cc] is None for rr, cc in spots
            ):
                for rr, cc in spots:
                    grid[rr * width + cc] = kind
                fill(grid)
                for rr, cc in spots:
                    grid[rr * width + cc] = None

    fill([None] * n)
    return found


def reference_universe(width: int, height: int):
    layouts = reference_layouts(width, height)
    group: dict[tuple, int] = {}
    for start in layouts:
        if start in group:
            continue
        group[start] = label = len(set(group.values()))
        queue = deque([start])
        while queue:
            for nxt in grid_neighbours(queue.popleft(), width, height, "steps"):
                if nxt not in group:
                    group[nxt] = label
                    queue.append(nxt)
    distance = {g: 0 for g in layouts if is_solved_grid(g, width, height)}
    queue = deque(distance)
    while queue:
        g = queue.popleft()
        for nxt in grid_neighbours(g, width, height, "moves"):
            if nxt not in distance:
                distance[nxt] = distance[g] + 1
                queue.append(nxt)
    return layouts, group, distance


def partition(keys, labels):
    blocks: dict[int, set] = {}
    for key, label in zip(keys, labels, strict=True):
        blocks.setdefault(int(label), set()).add(int(key))
    return sorted(sorted(block) for block in blocks.values())


@pytest.mark.parametrize("size", [(3, 4), (4, 3), (2, 7)])
def test_small_universes_match_the_plain_python_reference(size):
    width, height = size
    layouts, group, distance = reference_universe(width, height)
    arrays = compute_arrays(width, height)
    keys = [grid_key(g) for g in layouts]
    assert sorted(keys) == sorted(int(k) for k in arrays.codes)
    assert partition(arrays.codes, arrays.group) == partition(keys, [group[g] for g in layouts])
    expected = {grid_key(g): distance.get(g, -1) for g in layouts}
    assert {int(k): int(d) for k, d in zip(arrays.codes, arrays.distance, strict=True)} == expected


def test_summary_figures_are_consistent(tmp_path):
    result = universe(3, 4, cache_dir=tmp_path, progress=False)
    layouts, group, distance = reference_universe(3, 4)
    assert result.layouts == len(layouts) == 5766
    assert result.groups == len(set(group.values()))
    assert result.solvable_layouts == len(distance)
    assert sum(e.layouts for e in result.piece_sets) == result.layouts
    assert sum(e.groups for e in result.piece_sets) == result.groups
    for entry in result.piece_sets:
        members = [
            g
            for g in layouts
            if piece_set_of(grid_key(g), 3, 4) == (entry.horizontal, entry.vertical, entry.singles)
        ]
        far = max((distance[g] for g in members if g in distance), default=-1)
        assert entry.hardest == far
        assert entry.hardest_count == sum(1 for g in members if distance.get(g) == far and far >= 0)


def test_results_are_cached_and_damage_is_repaired(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEGAMES_CACHE", str(tmp_path))
    first = universe(3, 4, progress=False)
    path = tmp_path / "klotski-universe-3x4-e2.json"
    assert path.exists() and first.path == str(path)
    data = json.loads(path.read_text())
    data["groups"] = -7  # a cached figure is what we get back
    path.write_text(json.dumps(data))
    assert universe(3, 4, progress=False).groups == -7
    path.write_text("{ not json")
    assert universe(3, 4, progress=False).groups == first.groups


def test_piece_set_of():
    from tilegames.klotski import LAYOUTS

    assert piece_set_of(LAYOUTS["横刀立马"].key(), 4, 5) == (1, 4, 4)
    assert np.uint64(LAYOUTS["横刀立马"].key()) > 0


@pytest.mark.parametrize("size", [(3, 4), (4, 3)])
def test_mirror_folded_counts_match_the_reference(size, tmp_path):
    width, height = size
    layouts, group, _ = reference_universe(width, height)
    result = universe(width, height, cache_dir=tmp_path, progress=False)
    folded = {min(g, mirror_grid(g, width)) for g in layouts}
    assert result.mirror_folded_layouts == len(folded)
    pairs = {frozenset((group[g], group[mirror_grid(g, width)])) for g in layouts}
    assert result.mirror_folded_groups == len(pairs)


def test_at_distance_draws_layouts_whose_optimum_is_that_distance(tmp_path):
    from tilegames.klotski import Board, solve

    result = universe(3, 4, cache_dir=tmp_path, progress=False)
    layouts, _, distance = reference_universe(3, 4)
    by_key = {grid_key(g): d for g, d in distance.items()}
    how_many = Counter(distance.values())
    top = max(how_many)
    for d in (0, 1, top // 2, top):
        drawn = result.at_distance(d, count=5, seed=1)
        assert len(drawn) == min(5, how_many[d])
        assert drawn == result.at_distance(d, count=5, seed=1)
        for item in drawn:
            board = Board.parse(item.layout)
            assert item.distance == d == by_key[board.key()]
            assert piece_set_of(board.key(), 3, 4) == item.piece_set
            if d:
                assert solve(board).length == d
    assert len(result.at_distance(top, count=10**9)) == how_many[top]
    assert result.at_distance(top + 1) == []
    some = result.at_distance(2, piece_set=(1, 1, 2), count=10**9)
    members = [g for g in layouts if piece_set_of(grid_key(g), 3, 4) == (1, 1, 2)]
    assert len(some) == sum(1 for g in members if distance.get(g) == 2) > 0
    with pytest.raises(ValueError):
        result.at_distance(2, piece_set=(9, 9, 9))


def test_arrays_rank_every_layout_where_it_is_stored():
    arrays = compute_arrays(3, 4)
    for i in range(0, len(arrays.codes), 7):
        assert arrays.index(int(arrays.codes[i]), 3, 4) == i


@pytest.mark.slow
def test_the_4x5_universe_has_the_published_counts(tmp_path):
    from tilegames.klotski import Board, solve

    result = universe(4, 5, cache_dir=tmp_path, progress=False)
    assert (result.layouts, result.groups) == (29_334_498, 25_422)
    assert max(entry.hardest for entry in result.piece_sets) == 138
    classic = next(
        e for e in result.piece_sets if (e.horizontal, e.vertical, e.singles) == (1, 4, 4)
    )
    assert classic.hardest == 93
    (deepest,) = result.at_distance(138, count=1)
    assert solve(Board.parse(deepest.layout)).length == 138
    for item in result.at_distance(81, piece_set=(1, 4, 4), count=3, seed=2):
        assert solve(Board.parse(item.layout)).length == 81


@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_neighbours_match_the_plain_python_moves_and_carry_their_index(metric):
    from tilegames.klotski import universe_kernels as uk
    from tilegames.klotski import universe_split_kernels as us
    from tilegames.klotski.solve import tables
    from tilegames.klotski.universe import piece_sets

    width, height = 3, 4
    piece_code, _, _, piece_mask, _, halo = tables(width, height).kernel
    tabs = (piece_code, piece_mask, halo, uk.board_masks(width, height))
    split = us.split_tables(width, height)
    counts, _, _ = piece_sets(width, height)
    n = width * height
    out = np.zeros(n * n + 4 * n, dtype=np.uint64)
    index = np.zeros(n * n + 4 * n, dtype=np.int64)
    for grid in reference_layouts(width, height):
        code = np.uint64(grid_key(grid))
        h, v, s = piece_set_of(int(code), width, height)
        found = us.neighbours(
            code, width, height, counts, h, v, s, metric == "steps", tabs, split, out, index
        )
        expected = sorted(grid_key(g) for g in grid_neighbours(grid, width, height, metric))
        assert sorted(int(k) for k in out[:found]) == expected
        for k in range(found):  # each neighbour comes with its own index in the piece set
            assert index[k] == us.index_of(out[k], width, height, counts, h, v, s, split)


def test_index_and_unindex_are_inverse_and_dense():
    from tilegames.klotski import universe_split_kernels as us
    from tilegames.klotski.solve import tables

    width, height = 3, 4
    arrays = compute_arrays(width, height)
    piece_code = tables(width, height).kernel[0]
    for s, (h, v, singles) in enumerate(arrays.sets):
        lo, hi = arrays.offsets[s], arrays.offsets[s + 1]
        for i in range(lo, hi):
            code = us.unindex(
                i - lo, width, height, arrays.counts, piece_code, h, v, singles, arrays.split
            )
            assert code == arrays.codes[i]
    assert len(set(arrays.codes.tolist())) == len(arrays.codes)


def test_share_out_deals_every_set_once_and_evenly():
    from tilegames.klotski.universe import piece_sets
    from tilegames.klotski.universe_split_kernels import share_out

    _, _, sizes = piece_sets(4, 5)
    for threads in (1, 2, 3):
        order, starts = share_out(sizes, threads)
        assert sorted(order.tolist()) == list(range(len(sizes)))
        loads = [int(sizes[order[starts[t] : starts[t + 1]]].sum()) for t in range(threads)]
        assert max(loads) - min(loads) <= sizes.max()


def test_universe_small_board_cached(capsys, tmp_path):
    # Here, not in test_cli.py: beside the other universe tests, one test worker compiles its kernels.
    status, out, _ = run(
        capsys, "universe", "--size", "3x4", "--cache", str(tmp_path), "--json", "--no-progress"
    )
    payload = json.loads(out)
    assert status == 0 and payload["layouts"] == 5766 and "group_table" not in payload
    assert (tmp_path / "klotski-universe-3x4-e2.json").exists()
    status, out, _ = run(capsys, "universe", "--size", "3x4", "--cache", str(tmp_path))
    assert status == 0 and "5766 in 138 groups" in out
    status, _, err = run(capsys, "universe", "--size", "5x5", "--cache", str(tmp_path))
    assert status == 2 and "21 cells" in err
