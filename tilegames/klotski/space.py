"""State-space analysis of one layout: its reachable set, distances to the nearest win, the farthest positions,
and export as a node-link graph (loadable by ``networkx.node_link_graph``).

The whole-universe enumeration lives in :mod:`tilegames.klotski.universe`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tilegames.klotski import kernels
from tilegames.klotski.board import SHAPES, Board, check_metric
from tilegames.klotski.solve import (
    DEFAULT_MAX_STATES,
    KERNEL_LIMIT_CAP,
    MAX_KERNEL_CELLS,
    SearchLimitError,
    check_limit,
    tables,
)

LETTERS = (
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩБГДЖЗИЛПФЦЧШЩЭЮЯ"
)
"""Letters given to pieces in reading order: 111, more than the 97 pieces a full 10×10 board can hold."""


def board_from_key(key: int, width: int, height: int) -> Board:
    """The board of an exact code, its pieces lettered A, B, C... in reading order."""
    return Board(width, height, key_cells(key, width, height))


def key_cells(key: int, width: int, height: int) -> list[str]:
    """The cells of an exact code in reading order, its pieces lettered A, B, C... (``"."`` for empty)."""
    n = width * height
    types = [key >> 3 * (n - 1 - cell) & 7 for cell in range(n)]
    cells = ["."] * n
    letters = iter(LETTERS)
    for cell, kind in enumerate(types):
        if kind and cells[cell] == ".":
            if kind not in SHAPES:
                raise ValueError(f"code {key:#x} has occupant type {kind} at cell {cell}")
            letter = next(letters)
            row, column = divmod(cell, width)
            rows, columns = SHAPES[kind]
            for r in range(row, row + rows):
                for c in range(column, column + columns):
                    cells[r * width + c] = letter
    return cells


@dataclass(frozen=True)
class Analysis:
    """The reachable set of a layout, pieces of one shape identified, mirror images kept apart."""

    layout: str
    """The layout analysed (notation)."""
    metric: str
    """The metric of the distances: ``"moves"`` or ``"steps"``."""
    positions: int
    """Positions reachable from the layout (itself included)."""
    positions_mirror_folded: int
    """The same count with a position and its mirror image counted once."""
    solved_positions: int
    """How many of them are solved (the 2×2 piece at the exit)."""
    distance: int | None
    """The layout's own distance to the nearest win (its optimal solution length), None if unsolvable."""
    max_distance: int | None
    """The largest distance to the nearest win over the set, None if unsolvable."""
    farthest: list[str]
    """The positions at `max_distance` (notation, pieces lettered in reading order); empty if unsolvable."""
    histogram: list[int]
    """``histogram[d]``: positions at distance d from the nearest win."""
    keys: np.ndarray = field(repr=False, compare=False)
    """Exact codes of every position (index = node id), BFS order from the layout."""
    distances: np.ndarray = field(repr=False, compare=False)
    """Distance of every position to the nearest win, -1 where none is reachable."""
    edges: np.ndarray = field(repr=False, compare=False)
    """Pairs (i, j), i < j, of positions one move (one step in metric "steps") apart."""
    width: int = 4
    height: int = 5

    def layout_of(self, index: int) -> str:
        """The notation of position `index`."""
        return str(board_from_key(int(self.keys[index]), self.width, self.height))

    def summary(self) -> dict[str, Any]:
        """The figures as a JSON-ready dict (no per-position data)."""
        return {
            "layout": self.layout,
            "metric": self.metric,
            "positions": self.positions,
            "positions_mirror_folded": self.positions_mirror_folded,
            "solved_positions": self.solved_positions,
            "solvable": self.distance is not None,
            "distance": self.distance,
            "max_distance": self.max_distance,
            "farthest": self.farthest,
            "histogram": self.histogram,
        }

    def node_link(self) -> dict[str, Any]:
        """The graph as node-link JSON data: ``networkx.node_link_graph(data)`` rebuilds it.

        Nodes carry ``layout`` and ``distance`` (to the nearest win, -1 if none); the edge list is given under both
        ``edges`` (networkx >= 3.6 default) and ``links`` (older default).
        """
        links = [{"source": int(i), "target": int(j)} for i, j in self.edges]
        return {
            "directed": False,
            "multigraph": False,
            "graph": {"layout": self.layout, "metric": self.metric},
            "nodes": [
                {
                    "id": index,
                    "layout": self.layout_of(index),
                    "distance": int(self.distances[index]),
                }
                for index in range(len(self.keys))
            ],
            "edges": links,
            "links": links,
        }


def reachable(
    board: Board, metric: str = "moves", *, fold: bool = False, max_states: int | None = None
) -> np.ndarray:
    """Exact codes of every position reachable from `board` (mirror-folded keys with `fold`), in BFS order."""
    check_metric(metric)
    check_limit(max_states)
    if board.width * board.height > MAX_KERNEL_CELLS:
        raise ValueError(f"analysis takes boards of at most {MAX_KERNEL_CELLS} cells")
    t = tables(board.width, board.height)
    start = board.canonical_key() if fold else board.key()
    limit = DEFAULT_MAX_STATES if max_states is None else max_states
    keys, _, _, _, hit = kernels.search(
        np.uint64(start),
        t.width,
        t.height,
        metric == "steps",
        fold,
        t.goal_masks,
        t.goal_bits,
        False,
        min(limit, KERNEL_LIMIT_CAP),
        t.kernel,
    )
    if hit:
        raise SearchLimitError(f"more than {limit} positions are reachable")
    found: np.ndarray = keys
    return found


def analyse(board: Board, metric: str = "moves", *, max_states: int | None = None) -> Analysis:
    """Explore everything reachable from `board` and measure it (see :class:`Analysis`)."""
    keys = reachable(board, metric, max_states=max_states)
    folded = reachable(board, metric, fold=True, max_states=max_states)
    t = tables(board.width, board.height)
    edges, distances = kernels.links(
        keys, t.width, t.height, metric == "steps", False, t.goal_masks, t.goal_bits, t.kernel
    )
    edges = np.unique(edges, axis=0) if len(edges) else edges.reshape(0, 2)
    solvable = bool((distances >= 0).any())
    top = int(distances.max()) if solvable else None
    farthest = (
        sorted(
            str(board_from_key(int(k), board.width, board.height)) for k in keys[distances == top]
        )
        if solvable
        else []
    )
    counts = Counter(int(d) for d in distances[distances >= 0])
    return Analysis(
        layout=str(board),
        metric=metric,
        positions=len(keys),
        positions_mirror_folded=len(folded),
        solved_positions=counts.get(0, 0),
        distance=int(distances[0]) if distances[0] >= 0 else None,
        max_distance=top,
        farthest=farthest,
        histogram=[counts.get(d, 0) for d in range(top + 1)] if top is not None else [],
        keys=keys,
        distances=distances,
        edges=edges,
        width=board.width,
        height=board.height,
    )
