"""The frontier-code builder (one scan per layer, two workers) against the queue builder."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from tests.slide.conftest import pdb_patterns
from tilegames.slide.solve import pdb_build, pdb_frontier
from tilegames.slide.solve.pdb import _factors, _neighbours


def _outcome(pattern, method, **kwargs):
    width, height, blank, cells = pattern
    n = width * height
    builder = pdb_build.BUILDERS[method]
    try:
        table = builder(
            np.array(cells, np.int64), width, height, blank,
            _factors(n, len(cells)), _neighbours(width, height), None, **kwargs,
        )  # fmt: skip
    except RuntimeError as error:
        return str(error)
    return table.dtype, table.tobytes()


@settings(max_examples=40, deadline=None)
@given(pdb_patterns(5), st.sampled_from([1, 2, 3]))
def test_frontier_builds_the_queue_builders_bytes(pattern, workers):
    """Byte for byte with 1, 2 or 3 workers, or the same refusal (unreachable placements)."""
    assert _outcome(pattern, "frontier", workers=workers) == _outcome(pattern, "queue")


@pytest.mark.parametrize(
    "pattern",
    [(4, 4, 0, (1, 4, 5, 8, 9)), (4, 4, 5, (0, 3, 12, 15, 10)), (5, 5, 0, (21, 22, 23, 24))],
)
@pytest.mark.parametrize("workers", [1, 2])
def test_same_bytes_on_4x4_and_5x5_patterns(pattern, workers):
    """Bigger patterns, where walled-off blank regions (several frontiers per record) occur often."""
    assert _outcome(pattern, "frontier", workers=workers) == _outcome(pattern, "queue")


@pytest.mark.parametrize("workers", [2, 3])
def test_a_small_buffer_is_applied_in_rounds(monkeypatch, workers):
    """Tile 0's buffered states overflow many times per layer: resumed scans give the same bytes."""
    monkeypatch.setattr(pdb_build, "_BUFFER", 8)
    pattern = (4, 4, 0, (1, 4, 5, 8))
    assert _outcome(pattern, "frontier", workers=workers) == _outcome(pattern, "queue")


def test_boards_beyond_32_cells_go_to_the_layered_builder():
    pattern = (6, 6, 0, (1, 2))
    assert _outcome(pattern, "frontier") == _outcome(pattern, "queue")


def test_pext_and_pdep_are_inverse_on_the_mask():
    popcount = njit(lambda x: pdb_frontier._popcount(x))
    rng = np.random.default_rng(3)
    for _ in range(200):
        mask = np.uint64(rng.integers(0, 1 << 20))
        x = np.uint64(rng.integers(0, 1 << 20)) & mask
        packed = pdb_frontier._pext(x, mask)
        assert packed < (1 << int(popcount(mask)))
        assert pdb_frontier._pdep(packed, mask) == x
        assert popcount(x) == bin(int(x)).count("1")


def test_an_interrupt_between_rounds_leaves_no_file_and_no_thread(tmp_path, monkeypatch):
    """Ctrl-C in the main thread while the workers are idle between rounds: the pool is shut down
    (no worker left behind) and no cache file is written."""
    import threading

    from tilegames.slide.solve.pdb import PatternDatabase, cache_directory

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(pdb_build, "_apply_all", interrupted)
    before = threading.active_count()
    with pytest.raises(KeyboardInterrupt):
        PatternDatabase.get(4, 4, 0, (1, 4, 5, 8), cache_dir=tmp_path, progress=False)
    assert threading.active_count() == before
    assert list(cache_directory(tmp_path).iterdir()) == []
