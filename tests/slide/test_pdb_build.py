"""The layered pattern-database builder against the queue builder it replaces, and its cache file."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from tests.slide.conftest import pdb_patterns
from tilegames.slide.solve import pdb_layers
from tilegames.slide.solve.pdb import PatternDatabase, cache_directory


@settings(max_examples=40, deadline=None)
@given(pdb_patterns())
def test_layers_and_queue_build_the_same_bytes(pattern):
    """Byte for byte, or both refuse a pattern with unreachable placements (on narrow boards)."""
    outcomes = []
    for method in ("layers", "queue"):
        try:
            table = PatternDatabase.build(*pattern, method=method).table
            outcomes.append((table.dtype, table.tobytes()))
        except RuntimeError as error:
            outcomes.append(str(error))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize(
    "pattern",
    [(4, 4, 0, (1, 4, 5, 8, 9)), (4, 4, 5, (0, 3, 12, 15, 10)), (5, 5, 0, (21, 22, 23, 24))],
)
def test_same_bytes_on_4x4_and_5x5_patterns(pattern):
    """Bigger patterns, where walled-off blank regions (the late regions) occur often."""
    layered = PatternDatabase.build(*pattern)
    assert (
        layered.table.tobytes() == PatternDatabase.build(*pattern, method="queue").table.tobytes()
    )


def test_moved_rank_matches_ranking_from_scratch():
    rng = np.random.default_rng(7)
    for width, height, k in ((4, 4, 8), (5, 5, 6), (3, 4, 5)):
        n = width * height
        from tilegames.slide.solve.pdb import _factors, _neighbours

        factors, nbr = _factors(n, k), _neighbours(width, height)
        for _ in range(200):
            cells = rng.permutation(n)[:k].astype(np.int64)
            r = pdb_layers.rank_cells(cells, k, n, factors)
            i = int(rng.integers(k))
            for q in nbr[cells[i]]:
                if q < 0 or q in cells:
                    continue
                moved = cells.copy()
                moved[i] = q
                expected = pdb_layers.rank_cells(moved, k, n, factors)
                assert pdb_layers._moved_rank(r, cells, i, q, k, factors) == expected


def test_flood_is_the_connected_free_region():
    geom = pdb_layers.geometry(4, 3)
    # Tiles on cells 1, 5, 9 wall off column 0 from the rest of the 4x3 board.
    occupied = np.uint64((1 << 1) | (1 << 5) | (1 << 9))
    assert pdb_layers._flood(0, occupied, geom) == (1 << 0) | (1 << 4) | (1 << 8)
    right = sum(1 << c for c in (2, 3, 6, 7, 10, 11))
    assert pdb_layers._flood(7, occupied, geom) == right


def test_an_interrupted_build_leaves_no_cache_file(tmp_path, monkeypatch):
    from tilegames.slide.solve import pdb_build

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pdb_build.pdb_frontier, "frontier_scan", interrupted)
    with pytest.raises(KeyboardInterrupt):
        PatternDatabase.get(3, 3, 8, (0, 1, 2), cache_dir=tmp_path, progress=False)
    assert list(cache_directory(tmp_path).iterdir()) == []


def test_an_interrupted_write_leaves_no_file(tmp_path, monkeypatch):
    db = PatternDatabase.build(3, 3, 8, (0, 1, 2))

    def interrupted(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr("os.fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        db.save(tmp_path)
    assert list(tmp_path.iterdir()) == []
    assert PatternDatabase.load(3, 3, 8, (0, 1, 2), tmp_path) is None


@pytest.mark.parametrize(
    ("size", "blank", "cells"),
    [(3, 0, (1, 2, 5)), (3, 4, (1, 2, 3, 0)), (4, 0, (1, 2, 3, 7, 6)), (4, 5, (8, 12, 13))],
)
def test_a_mirrored_table_equals_the_table_built_for_the_mirror_pattern(size, blank, cells):
    source = PatternDatabase.build(size, size, blank, cells)
    image = tuple(sorted((c % size) * size + c // size for c in cells))
    assert (
        source.mirrored(image).table.tobytes()
        == PatternDatabase.build(size, size, blank, image).table.tobytes()
    )


def test_mirroring_refuses_what_is_not_a_mirror_image():
    source = PatternDatabase.build(3, 3, 0, (1, 2))
    with pytest.raises(ValueError, match="mirror image"):
        source.mirrored((1, 2))
    with pytest.raises(ValueError, match="diagonal"):
        PatternDatabase.build(3, 3, 1, (0, 2)).mirrored((3, 6))


def test_the_heuristic_derives_a_mirror_group_and_caches_it(tmp_path, monkeypatch):
    from tilegames.slide.solve import pdb

    built: list[tuple[int, ...]] = []
    real_build = PatternDatabase.build.__func__

    def counting(cls, width, height, blank, cells, **kwargs):
        built.append(tuple(cells))
        return real_build(cls, width, height, blank, cells, **kwargs)

    monkeypatch.setattr(PatternDatabase, "build", classmethod(counting))
    groups = ((1, 2), (3, 6), (4, 5, 7, 8))
    heuristic = pdb.load_heuristic.__wrapped__(3, 3, 0, groups, str(tmp_path), True, False)
    assert built == [(1, 2), (4, 5, 7, 8)]  # (3, 6) is the mirror image of (1, 2)
    derived = PatternDatabase.load(3, 3, 0, (3, 6), tmp_path)
    assert derived is not None
    assert derived.table.tobytes() == real_build(PatternDatabase, 3, 3, 0, (3, 6)).table.tobytes()
    assert heuristic(np.array([1, 0, 2, 3, 4, 5, 6, 7, 8])) == 1


def test_the_24_puzzle_6_6_6_6_partition_is_not_its_own_mirror_image():
    """Korf & Felner's partition: the reflected lookup reads four other patterns, so it can add to
    the bound (a partition that is its own mirror image would read the same values twice)."""
    from tilegames.slide.solve.pdb import PARTITIONS

    groups = PARTITIONS[(5, 5, "6-6-6-6")]
    assert sorted(c for g in groups for c in g) == list(range(1, 25))
    mirror = [tuple(sorted((c % 5) * 5 + c // 5 for c in g)) for g in groups]
    assert not set(mirror) & set(groups)
