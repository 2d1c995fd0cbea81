"""Shared helpers for the sliding puzzle tests: a plain-Python BFS as the obviously right reference."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import strategies as st


def neighbours(tiles: tuple[int, ...], width: int, height: int):
    """Boards one move away (swap the blank with an orthogonal neighbour)."""
    z = tiles.index(0)
    r, c = divmod(z, width)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < height and 0 <= cc < width:
            s = rr * width + cc
            t = list(tiles)
            t[z], t[s] = t[s], 0
            yield tuple(t)


def bfs_distances(goal: tuple[int, ...], width: int, height: int) -> dict[tuple[int, ...], int]:
    """Distance from `goal` to every board reachable from it."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        state = queue.popleft()
        for nxt in neighbours(state, width, height):
            if nxt not in dist:
                dist[nxt] = dist[state] + 1
                queue.append(nxt)
    return dist


@pytest.fixture(scope="session")
def bfs():
    """The reference BFS: `bfs(goal_tiles, width, height)` -> {tiles: distance}."""
    return bfs_distances


@pytest.fixture(scope="session")
def pdb_cache(tmp_path_factory):
    """An empty pattern-database cache for this test session: the 6-6-3 tables are built from nothing."""
    return tmp_path_factory.mktemp("pdb-cache")


@pytest.fixture(autouse=True)
def private_cache(monkeypatch, pdb_cache):
    """Every slide test keeps its databases in the session's temporary cache, never the user's."""
    monkeypatch.setenv("TILEGAMES_CACHE", str(pdb_cache))


@st.composite
def pdb_patterns(draw, max_tiles: int = 4):
    """A pattern-database problem: (width, height, goal blank cell, the pattern tiles' goal cells)."""
    width = draw(st.integers(2, 4))
    height = draw(st.integers(2, 5 if width < 4 else 3))
    n = width * height
    blank = draw(st.integers(0, n - 1))
    others = [c for c in range(n) if c != blank]
    k = draw(st.integers(1, min(max_tiles, n - 1)))
    cells = draw(st.permutations(others))[:k]
    return width, height, blank, tuple(cells)
