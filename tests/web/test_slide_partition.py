"""The arcade's 4x4 solve and hint use the 7-8 tables when (and only when) they are already cached."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tilegames import slide
from tilegames.slide.solve import pdb
from tilegames.slide.solve.pdb import PatternDatabase, partition_for, tables_cached
from tilegames.web import tasks

BOARD_4X4 = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"


def test_tables_cached_tells_present_absent_and_damaged(tmp_path: Path) -> None:
    # A small stand-in for 7-8: 3x3 split 4-4 (the real 7-8 tables take minutes to build).
    assert not tables_cached(3, 3, "4-4", cache_dir=tmp_path)
    groups = partition_for(3, 3, 0, "4-4")
    PatternDatabase.get(3, 3, 0, groups[0], cache_dir=tmp_path, progress=False)
    assert not tables_cached(3, 3, "4-4", cache_dir=tmp_path)  # one of two
    PatternDatabase.get(3, 3, 0, groups[1], cache_dir=tmp_path, progress=False)
    assert tables_cached(3, 3, "4-4", cache_dir=tmp_path)
    path = tmp_path / PatternDatabase.file_name(3, 3, 0, groups[1])
    path.write_bytes(path.read_bytes()[:-1])  # truncated: would have to be rebuilt
    assert not tables_cached(3, 3, "4-4", cache_dir=tmp_path)


def test_tables_cached_never_builds(tmp_path: Path) -> None:
    assert not tables_cached(4, 4, "7-8", cache_dir=tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("cached", "expected"), [(True, "7-8"), (False, None)])
def test_4x4_solve_asks_for_7_8_only_when_cached(
    monkeypatch: pytest.MonkeyPatch, cached: bool, expected: str | None
) -> None:
    asked: list[Any] = []
    real_solve = slide.solve

    def recording_solve(board: slide.Board, *args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs.get("partition"))
        kwargs["partition"] = None  # answer with the 6-6-3 tables: no 7-8 build in a test
        return real_solve(board, *args, **kwargs)

    monkeypatch.setattr(pdb, "tables_cached", lambda *args, **kwargs: cached)
    monkeypatch.setattr(slide, "solve", recording_solve)
    answer = tasks.slide_solve(BOARD_4X4, 30.0)
    assert answer["moves"] == ["L"] and answer["optimal"]
    assert asked == [expected]


def test_other_sizes_keep_their_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdb, "tables_cached", lambda *args, **kwargs: True)
    assert tasks._partition(3, 4) is None
    assert tasks._partition(5, 5) is None
    assert tasks._partition(4, 4) == "7-8"
