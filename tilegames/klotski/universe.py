"""The whole universe of a board: every valid layout, its connected groups, and the hardest layouts per piece set.

A *layout* here is what the strongest public analysers count: exactly one 2×2 piece, any mix of 1×2, 2×1 and 1×1
pieces, at least two empty cells; pieces of one shape are interchangeable and a layout and its mirror image are
two layouts. On the classic 4×5 board that gives 29,334,498 layouts. A *group* is a connected component of the
move graph; a *piece set* is the numbers of 1×2 (horizontal), 2×1 (vertical) and 1×1 pieces. Distances are to the
nearest solved layout, in moves (a piece moved any distance counts one).

The result is saved as JSON under the cache directory (``$TILEGAMES_CACHE``, else
``platformdirs.user_cache_dir("tilegames")``) and loaded from there afterwards; a damaged file is recomputed.
Every layout's distance is saved beside it (``*-distance.npy``), for :meth:`Universe.at_distance`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from tilegames.common import cache_directory
from tilegames.klotski import universe_kernels as uk
from tilegames.klotski import universe_split_kernels as us
from tilegames.klotski.solve import tables
from tilegames.klotski.space import board_from_key, key_cells

FORMAT = 6
HARDEST_KEPT = 20


@dataclass(frozen=True)
class PieceSet:
    """The layouts of one piece set and the hardest of them."""

    horizontal: int
    """1×2 pieces (one row, two columns)."""
    vertical: int
    """2×1 pieces (two rows, one column)."""
    singles: int
    """1×1 pieces."""
    layouts: int
    """Layouts with this piece set."""
    groups: int
    """Connected groups they fall into."""
    solvable_groups: int
    """Groups that contain a solved layout."""
    hardest: int
    """Largest distance to the nearest win over the solvable layouts (-1 when none is solvable)."""
    hardest_count: int
    """How many layouts are that far."""
    hardest_layouts: list[str]
    """Up to 20 of them, in code order (notation, pieces lettered in reading order)."""


@dataclass(frozen=True)
class RatedLayout:
    """A layout with its proven optimal solution length."""

    layout: str
    """The notation, pieces lettered in reading order."""
    distance: int
    """Its optimal solution length in moves (a piece moved any distance counts one)."""
    piece_set: tuple[int, int, int]
    """(horizontal 1×2, vertical 2×1, 1×1) pieces besides the 2×2."""


@dataclass(frozen=True)
class Universe:
    """Every layout of a board, grouped."""

    width: int
    height: int
    layouts: int
    """Valid layouts (shapes only, mirror images apart)."""
    groups: int
    """Connected groups of the move graph."""
    solvable_layouts: int
    """Layouts from which a solved layout can be reached."""
    solvable_groups: int
    """Groups that contain a solved layout."""
    solved_layouts: int
    """Layouts that are solved already."""
    largest_group: int
    """Size of the biggest group."""
    mirror_folded_layouts: int
    """Layouts with a layout and its mirror image counted once."""
    mirror_folded_groups: int
    """Groups with a group and its mirror image counted once."""
    seconds: float
    """Wall time of the computation (not of loading the cache)."""
    piece_sets: list[PieceSet]
    """Per piece set, hardest first."""
    stage_seconds: dict[str, float] = field(default_factory=dict)
    """Wall time of each stage: enumerate, group, distance, summarise."""
    group_table: list[list[Any]] = field(default_factory=list, repr=False)
    """Per group, in order of its smallest code: [size, horizontal, vertical, singles, largest distance to the
    nearest win (-1 if unsolvable), a layout at that distance (or the group's first layout if unsolvable)]."""
    path: str = ""
    """Where the result is cached."""
    min_empty: int = 2
    """Fewest empty cells a layout has."""
    set_offsets: list[list[int]] = field(default_factory=list, repr=False)
    """Per piece set, in the order of the cached distances: [horizontal, vertical, singles, first index]."""

    def at_distance(
        self,
        distance: int,
        *,
        piece_set: tuple[int, int, int] | None = None,
        count: int = 10,
        seed: int = 0,
    ) -> list[RatedLayout]:
        """Up to `count` layouts whose optimal solution takes exactly `distance` moves, drawn with `seed`.

        The distances come from the breadth-first search over the whole universe, so each is a proven optimum.
        `piece_set` (horizontal, vertical, singles) restricts the draw, e.g. (1, 4, 4) for the classic pieces.
        The result is in code order; fewer than `count` when fewer layouts are that far.
        """
        if count < 0:
            raise ValueError(f"count must be at least 0, not {count}")
        distances = self.distances()
        starts = np.array([row[3] for row in self.set_offsets] + [self.layouts], dtype=np.int64)
        if piece_set is None:
            lo, hi = 0, self.layouts
        else:
            rows = [
                i for i, row in enumerate(self.set_offsets) if tuple(row[:3]) == tuple(piece_set)
            ]
            if not rows:
                raise ValueError(
                    f"no {self.width}x{self.height} layout has the piece set {piece_set}"
                )
            lo, hi = int(starts[rows[0]]), int(starts[rows[0] + 1])
        found = lo + np.flatnonzero(distances[lo:hi] == distance)
        if len(found) > count:
            rng = np.random.default_rng(seed)
            found = np.sort(found[rng.choice(len(found), count, replace=False)])
        counts, _, _ = piece_sets(self.width, self.height, self.min_empty)
        piece_code = tables(self.width, self.height).kernel[0]
        split = us.split_tables(self.width, self.height)
        drawn = []
        for index in found:
            s = int(np.searchsorted(starts, index, side="right")) - 1
            h, v, singles = self.set_offsets[s][:3]
            code = us.unindex(
                int(index - starts[s]), self.width, self.height, counts, piece_code, h, v, singles,
                split,
            )  # fmt: skip
            drawn.append((int(code), (h, v, singles)))
        return [
            RatedLayout(str(board_from_key(code, self.width, self.height)), distance, piece_set)
            for code, piece_set in sorted(drawn)
        ]

    def distances(self) -> np.ndarray:
        """Every layout's distance to the nearest exit (-1: none), piece set by piece set as in `set_offsets`, each
        set in index order (:func:`universe_split_kernels.unindex` gives the layout at an index).

        Memory-mapped from the cache (int16, 59 MB on the 4×5 board); recomputed if the file is missing.
        """
        path = _distance_path(Path(self.path))
        if not path.exists():
            universe(self.width, self.height, cache_dir=path.parent, progress=False, recompute=True,
                     min_empty=self.min_empty)  # fmt: skip
        mapped: np.ndarray = np.load(path, mmap_mode="r")
        return mapped

    def summary(self, *, groups: bool = False) -> dict[str, Any]:
        """A JSON-ready dict (without the per-group table and the set offsets unless `groups`)."""
        data = asdict(self)
        if not groups:
            del data["group_table"], data["set_offsets"]
        return data


def universe(
    width: int = 4,
    height: int = 5,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = True,
    recompute: bool = False,
    min_empty: int = 2,
) -> Universe:
    """The universe of a board, from the cache or computed (then cached). See the module docstring."""
    path = _cache_path(cache_dir, width, height, min_empty)
    path.parent.mkdir(
        parents=True, exist_ok=True
    )  # fail on a bad directory before the long computation
    if not recompute and path.exists():
        try:
            return _load(path)
        except (ValueError, KeyError, TypeError):
            pass  # damaged or old: compute again
    result, arrays = _compute(width, height, progress=progress, min_empty=min_empty)
    data = result.summary(groups=True)
    data["format"] = FORMAT
    data["path"] = str(path)
    with open(_distance_path(path).with_suffix(".tmp"), "wb") as handle:
        np.save(handle, arrays.distance)
    _distance_path(path).with_suffix(".tmp").replace(_distance_path(path))
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    temporary.replace(path)
    return _from_dict(data)


def _cache_path(
    directory: str | os.PathLike[str] | None, width: int, height: int, min_empty: int
) -> Path:
    return cache_directory(directory) / f"klotski-universe-{width}x{height}-e{min_empty}.json"


def _distance_path(path: Path) -> Path:
    """Where the per-layout distances of the universe cached at `path` are."""
    return path.with_name(path.stem + "-distance.npy")


def _load(path: Path) -> Universe:
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError("old cache format")
    data["path"] = str(path)
    return _from_dict(data)


def _from_dict(data: dict[str, Any]) -> Universe:
    fields = {k: v for k, v in data.items() if k != "format"}
    fields["piece_sets"] = [PieceSet(**entry) for entry in data["piece_sets"]]
    return Universe(**fields)


@dataclass(frozen=True)
class Arrays:
    """The per-layout arrays of a computed universe (for tests and further analysis).

    Layouts are stored piece set by piece set (in the order of `sets`), in index order within a piece set
    (skeleton rank × singles subsets, see :mod:`universe_split_kernels`).
    """

    codes: np.ndarray
    """Every layout's code."""
    group: np.ndarray
    """Group id of each layout (groups numbered in order of their smallest code)."""
    distance: np.ndarray
    """Distance in moves to the nearest solved layout, -1 if none is reachable."""
    sets: np.ndarray
    """The piece sets, one row (horizontal, vertical, singles) each."""
    offsets: np.ndarray
    """Where each piece set starts in the arrays (one more entry: the total)."""
    groups_per_set: np.ndarray
    """How many groups each piece set has."""
    counts: np.ndarray = field(repr=False)
    """The completion counts that rank a skeleton (see :mod:`universe_kernels`)."""
    split: tuple[np.ndarray, ...] = field(repr=False, default=())
    """The tables of :func:`universe_split_kernels.split_tables` for this board."""
    thread_of_set: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0, np.int64))
    """Which numba thread searched each piece set (how the work was shared out)."""

    def index(self, code: int, width: int, height: int) -> int:
        """Where the layout `code` stands in the arrays."""
        s = self.set_index(piece_set_of(code, width, height))
        h, v, singles = (int(x) for x in self.sets[s])
        return int(self.offsets[s]) + int(
            us.index_of(np.uint64(code), width, height, self.counts, h, v, singles, self.split)
        )

    def set_index(self, piece_set: tuple[int, int, int]) -> int:
        """The row of `piece_set` in `sets` (ValueError if the board has no layout with it)."""
        found = np.flatnonzero((self.sets == np.array(piece_set)).all(axis=1))
        if not len(found):
            raise ValueError(f"no layout has the piece set {piece_set}")
        return int(found[0])


def piece_sets(
    width: int, height: int, min_empty: int = 2
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(completion counts, piece sets with at least one layout, their numbers of layouts)."""
    spare = max(0, width * height - 4 - min_empty)
    counts = uk.count_table(width, height, spare // 2, spare)
    found = [
        (h, v, s)
        for h in range(spare // 2 + 1)
        for v in range(spare // 2 + 1)
        for s in range(spare + 1)
        if 2 * h + 2 * v + s <= spare and counts[0, 0, 1, h, v, s] > 0
    ]
    sets = np.array(found, dtype=np.int64).reshape(-1, 3)
    sizes = np.array([counts[0, 0, 1, h, v, s] for h, v, s in found], dtype=np.int64)
    return counts, sets, sizes


def compute_arrays(
    width: int,
    height: int,
    *,
    min_empty: int = 2,
    report: Callable[[str, float], None] | None = None,
) -> Arrays:
    """Enumerate, group and measure; `report(stage, fraction)` is called as the work goes on."""
    import numba

    say = report or (lambda stage, fraction: None)
    t = tables(width, height)
    piece_code, _, _, piece_mask, _, halo = t.kernel
    say("enumerate", 0.0)
    counts, sets, sizes = piece_sets(width, height, min_empty)
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    # biggest first; with a chunk size of 1 each thread takes the next piece set when it is free
    shares = us.share_out(sizes, numba.get_num_threads())
    split = us.split_tables(width, height)
    codes = np.empty(int(offsets[-1]), dtype=np.uint64)
    us.enumerate_all(width, height, counts, piece_code, sets, offsets, shares, split, codes)
    say("enumerate", 1.0)
    say("search", 0.0)
    group = np.full(len(codes), -1, dtype=np.int32)
    distance = np.full(len(codes), -1, dtype=np.int16)
    thread_of = np.zeros(len(sets), dtype=np.int64)
    groups_per_set = us.solve_all(
        codes, width, height, counts, sets, offsets, shares,
        (piece_code, piece_mask, halo, uk.board_masks(width, height)), split,
        t.goal_masks, t.goal_bits, group, distance, thread_of,
    )  # fmt: skip
    first_group = np.concatenate(([0], np.cumsum(groups_per_set))).astype(np.int64)
    smallest = uk.smallest_codes(codes, group, offsets, first_group, shares)
    order_of = np.empty(len(smallest), dtype=np.int64)
    order_of[np.argsort(smallest, kind="stable")] = np.arange(len(smallest))
    uk.relabel(group, offsets, first_group, order_of)
    say("search", 1.0)
    return Arrays(codes, group, distance, sets, offsets, groups_per_set, counts, split, thread_of)


def compute(
    width: int = 4, height: int = 5, *, progress: bool = True, min_empty: int = 2
) -> Universe:
    """Compute the universe (no cache), with a rich progress bar unless `progress` is False."""
    return _compute(width, height, progress=progress, min_empty=min_empty)[0]


def _compute(width: int, height: int, *, progress: bool, min_empty: int) -> tuple[Universe, Arrays]:
    """:func:`compute`, with the per-layout arrays."""
    started = time.perf_counter()
    stage_start: dict[str, float] = {}
    stage_seconds: dict[str, float] = {}

    def clock(stage: str) -> None:
        now = time.perf_counter()
        stage_start.setdefault(stage, now)
        stage_seconds[stage] = round(now - stage_start[stage], 2)

    if progress:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>5.1f}%"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
        ) as bar:
            tasks: dict[str, Any] = {}

            def report(stage: str, fraction: float) -> None:
                clock(stage)
                if stage not in tasks:
                    tasks[stage] = bar.add_task(f"{width}x{height} {stage}", total=1.0)
                bar.update(tasks[stage], completed=min(1.0, fraction))

            arrays = compute_arrays(width, height, min_empty=min_empty, report=report)
    else:
        arrays = compute_arrays(
            width, height, min_empty=min_empty, report=lambda stage, _: clock(stage)
        )
    clock("summarise")
    result = summarise(arrays, width, height, 0.0)
    clock("summarise")
    result = replace(
        result,
        seconds=round(time.perf_counter() - started, 2),
        stage_seconds=stage_seconds,
        min_empty=min_empty,
    )
    return result, arrays


def piece_set_of(code: int, width: int, height: int) -> tuple[int, int, int]:
    """(horizontal 1×2, vertical 2×1, 1×1) counts of a layout code."""
    n = width * height
    types = [code >> 3 * (n - 1 - cell) & 7 for cell in range(n)]
    return types.count(2) // 2, types.count(3) // 2, types.count(1)


def summarise(arrays: Arrays, width: int, height: int, seconds: float) -> Universe:
    """Fold the per-layout arrays into per-group and per-piece-set figures."""

    def notation(
        code: int,
    ) -> str:  # str(board_from_key(...)) without building and checking a Board
        cells = key_cells(code, width, height)
        return "/".join("".join(cells[r * width : (r + 1) * width]) for r in range(height))

    codes, group, distance = arrays.codes, arrays.group, arrays.distance
    groups = int(group.max()) + 1 if len(group) else 0
    import numba

    shares = us.share_out(np.diff(arrays.offsets), numba.get_num_threads())
    size, top, at, first = uk.group_stats(codes, group, distance, groups, arrays.offsets, shares)
    order = [(int(h), int(v), int(s)) for h, v, s in arrays.sets]
    set_of_group = np.zeros(groups, dtype=np.int64)
    set_of_group[group[first]] = np.searchsorted(arrays.offsets, first, side="right") - 1
    hardest = np.full(len(order), -1, dtype=np.int64)
    np.maximum.at(hardest, set_of_group, top)
    layouts = np.diff(arrays.offsets)
    group_count = arrays.groups_per_set
    solvable_count = np.bincount(set_of_group[top >= 0], minlength=len(order))
    picks, counts = uk.hardest_positions(
        codes, distance, arrays.offsets, hardest, HARDEST_KEPT, shares
    )
    examples: dict[int, list[str]] = {s: [] for s in range(len(order))}
    for index, s in picks:
        examples[int(s)].append(notation(int(codes[index])))
    entries = [
        PieceSet(
            *order[s],
            layouts=int(layouts[s]),
            groups=int(group_count[s]),
            solvable_groups=int(solvable_count[s]),
            hardest=int(hardest[s]),
            hardest_count=int(counts[s]) if hardest[s] >= 0 else 0,
            hardest_layouts=examples[s],
        )
        for s in range(len(order))
    ]
    entries.sort(key=lambda e: (-e.hardest, e.horizontal, e.vertical, e.singles))
    solvable_groups = top >= 0
    by_set = np.argsort(set_of_group, kind="stable")
    set_start = np.searchsorted(set_of_group[by_set], np.arange(len(order) + 1))
    symmetric, symmetric_groups = us.mirror_figures(
        codes, width, height, arrays.counts, arrays.sets, arrays.offsets, group, first, by_set,
        set_start, arrays.split, shares,
    )  # fmt: skip
    table = [
        [
            int(size[g]),
            *order[int(set_of_group[g])],
            int(top[g]),
            notation(int(codes[at[g] if top[g] >= 0 else first[g]])),
        ]
        for g in range(groups)
    ]
    return Universe(
        width=width,
        height=height,
        layouts=len(codes),
        groups=groups,
        solvable_layouts=int(size[solvable_groups].sum()),
        solvable_groups=int(solvable_groups.sum()),
        solved_layouts=int(np.count_nonzero(distance == 0)),
        largest_group=int(size.max()) if groups else 0,
        mirror_folded_layouts=(len(codes) + int(symmetric)) // 2,
        mirror_folded_groups=(groups + int(symmetric_groups)) // 2,
        seconds=round(seconds, 2),
        piece_sets=entries,
        group_table=table,
        set_offsets=[[*order[s], int(arrays.offsets[s])] for s in range(len(order))],
    )
