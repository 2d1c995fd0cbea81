"""Additive disjoint pattern databases (Korf & Felner 2002): build, cache on disk, look up.

A database for a set of *pattern cells* (the goal cells of its tiles; states are relabelled so the
goal is the identity) stores, for every placement of those tiles, the fewest moves *of pattern tiles*
needed to bring them home, with the other tiles free. Because each move moves one tile, the values
of disjoint patterns add up to an admissible heuristic.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tilegames.common import Progress, cache_directory
from tilegames.slide.solve.common import diagonal_mirror

_MAGIC = b"TGPDB\x01"

# Partitions of the goal cells for a board whose goal blank is in the top-left corner (cell 0); other
# corner goals are mapped onto this one by a flip or a half turn before solving.
PARTITIONS: dict[tuple[int, int, str], tuple[tuple[int, ...], ...]] = {
    (4, 4, "6-6-3"): ((1, 4, 5, 8, 9, 12), (2, 3, 6, 7, 10, 11), (13, 14, 15)),
    (4, 4, "7-8"): ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)),
    # Korf & Felner's partition of the 24-puzzle. It is not its own mirror image about the main
    # diagonal, so the reflected lookup reads four other patterns and adds to the bound.
    (5, 5, "6-6-6-6"): (
        (1, 2, 5, 6, 7, 12),
        (3, 4, 8, 9, 13, 14),
        (10, 11, 15, 16, 20, 21),
        (17, 18, 19, 22, 23, 24),
    ),
    (5, 5, "5-5-5-5-4"): (
        (1, 2, 5, 6, 7),
        (3, 4, 8, 9, 14),
        (10, 11, 15, 16, 20),
        (12, 13, 17, 18, 19),
        (21, 22, 23, 24),
    ),
}
DEFAULT_PARTITION = {(4, 4): "6-6-3", (5, 5): "5-5-5-5-4"}


def _factors(n: int, k: int) -> np.ndarray:
    """Place values of a k-permutation rank: (n−1−i)! / (n−k)!."""
    return np.array(
        [math.perm(n - 1 - i, k - 1 - i) for i in range(k)],
        dtype=np.int64,
    )


def _neighbours(width: int, height: int) -> np.ndarray:
    from tilegames.slide.solve import kernels  # numba: only to build

    n = width * height
    nbr = np.full((n, 4), -1, np.int64)
    for z in range(n):
        for d in range(4):
            nbr[z, d] = kernels._step(z, d, width, height)
    return nbr


@dataclass(frozen=True, eq=False)
class PatternDatabase:
    """One pattern's table: `table[rank(cells of the pattern tiles)]` = moves of pattern tiles."""

    width: int
    """Board width."""
    height: int
    """Board height."""
    blank: int
    """The blank's goal cell."""
    cells: tuple[int, ...]
    """The goal cells (= relabelled tiles) of the pattern, in rank order."""
    table: np.ndarray
    """uint8 distances, one per placement."""

    @property
    def entries(self) -> int:
        return math.perm(self.width * self.height, len(self.cells))

    @classmethod
    def build(
        cls,
        width: int,
        height: int,
        blank: int,
        cells: tuple[int, ...],
        *,
        progress: bool = False,
        method: str = "frontier",
    ) -> PatternDatabase:
        """Breadth-first search back from the goal over pattern placements, one scan per layer on
        every core (`pdb_build.frontier_table`), or with the previous builders `method="layers"`
        and, as the reference, `"queue"`."""
        n, k = width * height, len(cells)
        if blank in cells or len(set(cells)) != k or not all(0 <= c < n for c in cells):
            raise ValueError(f"bad pattern {cells} for a {width}x{height} board, blank {blank}")
        factors, nbr = _factors(n, k), _neighbours(width, height)
        labels = np.array(cells, np.int64)
        from tilegames.slide.solve import pdb_build  # only when building: loading never needs it

        builder = pdb_build.BUILDERS[method]
        bar = (
            Progress(math.perm(n, k), f"pattern database {width}x{height} {k} tiles")
            if progress
            else None
        )
        try:
            table = builder(labels, width, height, blank, factors, nbr, bar)
        finally:
            if bar:
                bar.close()
        return cls(width, height, blank, tuple(cells), table)

    def mirrored(self, cells: tuple[int, ...]) -> PatternDatabase:
        """The database of `cells`, the mirror image of this pattern about the main diagonal, derived
        from this one (seconds instead of a build); the board must be square, the blank on the
        diagonal."""
        n = self.width * self.height
        cell_map = diagonal_mirror(self.width, self.height, self.blank)
        if cell_map is None:
            raise ValueError("mirroring needs a square board with the blank's goal on the diagonal")
        where = {int(cell_map[c]): i for i, c in enumerate(self.cells)}
        if sorted(where) != sorted(cells):
            raise ValueError(f"{cells} is not the mirror image of {self.cells}")
        order = np.array([where[c] for c in cells], np.int64)
        out = np.empty(self.entries, np.uint8)
        factors = _factors(n, len(cells))
        from tilegames.slide.solve import pdb_layers  # only when deriving a table

        pdb_layers.mirror_table(self.table, len(cells), n, factors, cell_map, order, out)
        return type(self)(self.width, self.height, self.blank, tuple(cells), out)

    # -- disk cache -----------------------------------------------------------------------------
    def _header(self) -> dict[str, object]:
        return {
            "width": self.width,
            "height": self.height,
            "blank": self.blank,
            "cells": list(self.cells),
            "entries": self.entries,
        }

    @staticmethod
    def file_name(width: int, height: int, blank: int, cells: tuple[int, ...]) -> str:
        return f"slide-pdb-{width}x{height}-b{blank}-{'.'.join(map(str, cells))}.bin"

    def save(self, directory: Path) -> Path:
        """Write atomically: a header with a CRC-32 of the table, then the table, to a temporary file
        that is flushed to disk and then renamed, so an interrupted build never leaves a torn file."""
        directory.mkdir(parents=True, exist_ok=True)
        header = self._header()
        header["crc32"] = zlib.crc32(self.table)  # type: ignore[arg-type]  # an ndarray is a buffer
        raw = json.dumps(header).encode()
        path = directory / self.file_name(self.width, self.height, self.blank, self.cells)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        try:
            with open(tmp, "wb") as out:
                out.write(_MAGIC + len(raw).to_bytes(4, "little") + raw)
                out.write(memoryview(self.table))  # type: ignore[arg-type]  # an ndarray is a buffer
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        return path

    @classmethod
    def load(
        cls, width: int, height: int, blank: int, cells: tuple[int, ...], directory: Path
    ) -> PatternDatabase | None:
        """The cached table, memory-mapped read-only, or None if absent, truncated, mislabelled or
        failing its checksum.

        Mapping instead of reading makes a load cost milliseconds: pages come in as lookups touch
        them. The magic, the header and the exact file size are checked on every load (they catch a
        truncated or foreign file); the CRC-32 of the table on every load of a small file, and for a
        big one (where reading it all would cost what mapping saves) once per version of the file:
        a stamp beside it records the size, times and inode it was verified at (`_verified`).
        """
        path = directory / cls.file_name(width, height, blank, cells)
        try:
            with open(path, "rb") as src:
                if src.read(len(_MAGIC)) != _MAGIC:
                    return None
                size = int.from_bytes(src.read(4), "little")
                header = json.loads(src.read(size))
                stat = os.fstat(src.fileno())
        except (OSError, ValueError):
            return None
        offset = len(_MAGIC) + 4 + size
        entries = math.perm(width * height, len(cells))
        crc = header.pop("crc32", None) if isinstance(header, dict) else None
        expected = {
            "width": width,
            "height": height,
            "blank": blank,
            "cells": list(cells),
            "entries": entries,
        }
        if header != expected or stat.st_size != offset + entries or not isinstance(crc, int):
            return None
        try:
            mapped = np.memmap(path, np.uint8, "r", offset=offset, shape=(entries,))
        except (OSError, ValueError):
            return None
        table = mapped.view(np.ndarray)  # a plain read-only array for numba, backed by the map
        if not _verified(path, stat, crc, table):
            return None
        return cls(width, height, blank, tuple(cells), table)

    @classmethod
    def get(
        cls,
        width: int,
        height: int,
        blank: int,
        cells: tuple[int, ...],
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        progress: bool = True,
        mirror_of: PatternDatabase | None = None,
    ) -> PatternDatabase:
        """Load from the cache, or build (with a progress bar) and cache; a damaged file is rebuilt.
        With `mirror_of` (the database of this pattern's mirror image) it is derived, not built."""
        directory = cache_directory(cache_dir)
        db = cls.load(width, height, blank, cells, directory)
        if db is None:
            if mirror_of is not None:
                db = mirror_of.mirrored(cells)
            else:
                db = cls.build(width, height, blank, cells, progress=progress)
            with contextlib.suppress(OSError):  # a read-only cache only costs a rebuild next time
                db.save(directory)
                # Map the written file (verifying it once) rather than keep the built copy in memory.
                db = cls.load(width, height, blank, cells, directory) or db
        return db


# Tables up to this size have their CRC-32 checked on every load (about 3 ms for 6-6-3's 11.5 MB);
# bigger ones once per version of the file, recorded in a stamp beside it.
ALWAYS_CHECK_BYTES = 32 << 20


def _verified(path: Path, stat: os.stat_result, crc: int, table: np.ndarray) -> bool:
    """Whether `table` (the data of the file at `path`) matches its header's CRC-32.

    A stamp `<file>.ok` holds the CRC, size, inode and modification and change times of the last
    version found whole; any rewrite of the file (damage included) changes them and so forces a
    fresh check. What a stamp cannot see is a change that keeps all of them (bit rot under an
    unchanged file): for big tables we accept that, as the C peers do without any check at all.
    """
    if table.nbytes <= ALWAYS_CHECK_BYTES:
        return zlib.crc32(table) == crc  # type: ignore[arg-type]
    stamp = path.with_name(path.name + ".ok")
    version = [crc, stat.st_size, stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns]
    with contextlib.suppress(OSError, ValueError):
        if json.loads(stamp.read_text()) == version:
            return True
    if zlib.crc32(table) != crc:  # type: ignore[arg-type]
        return False
    with contextlib.suppress(OSError):  # no stamp only costs the check again next time
        tmp = stamp.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(version))
        os.replace(tmp, stamp)
    return True


@dataclass(frozen=True, eq=False)
class PatternHeuristic:
    """Disjoint databases covering every tile, as the flat arrays `pdb_kernels.ida_pdb` reads."""

    width: int
    height: int
    blank: int
    groups: tuple[tuple[int, ...], ...]
    group_of: np.ndarray
    glabels: np.ndarray
    gk: np.ndarray
    factors: np.ndarray
    tables: tuple[np.ndarray, ...]
    """One read-only uint8 table per group (memory-mapped when cached: never copied together)."""
    refl: np.ndarray
    """Cell map of the reflection about the main diagonal (empty when not valid for this goal)."""

    @classmethod
    def from_databases(
        cls, databases: tuple[PatternDatabase, ...], *, reflect: bool = True
    ) -> PatternHeuristic:
        first = databases[0]
        w, h, b = first.width, first.height, first.blank
        n = w * h
        groups = tuple(db.cells for db in databases)
        covered = sorted(c for g in groups for c in g)
        if covered != [c for c in range(n) if c != b]:
            raise ValueError(f"patterns {groups} do not cover every tile exactly once")
        kmax = max(len(g) for g in groups)
        group_of = np.full(n, -1, np.int64)
        glabels = np.zeros((len(groups), kmax), np.int64)
        factors = np.zeros((len(groups), kmax), np.int64)
        for g, cells in enumerate(groups):
            group_of[list(cells)] = g
            glabels[g, : len(cells)] = cells
            factors[g, : len(cells)] = _factors(n, len(cells))
        tables = tuple(_read_only(db.table) for db in databases)
        # The reflected state is legal and equally far from the goal only if the reflection maps the
        # board onto itself (square) and keeps the blank's goal cell (on the main diagonal).
        mirror = diagonal_mirror(w, h, b) if reflect else None
        refl = np.zeros(0, np.int64) if mirror is None else mirror
        return cls(
            w, h, b, groups, group_of, glabels,
            np.array([len(g) for g in groups], np.int64), factors, tables, refl,
        )  # fmt: skip

    def __call__(self, state: np.ndarray) -> int:
        """The heuristic value of a relabelled state."""
        from tilegames.slide.solve import pdb_kernels  # numba: not needed to load the tables

        return int(
            pdb_kernels.pdb_heuristic(
                state,
                self.width,
                self.height,
                self.blank,
                self.group_of,
                self.glabels,
                self.gk,
                self.factors,
                self.tables,
                self.refl,
            )
        )


def _read_only(table: np.ndarray) -> np.ndarray:
    """A read-only view: mapped and built tables then have one numba type (one compiled kernel)."""
    view = table.view(np.ndarray)
    view.flags.writeable = False
    return view


def partition_for(
    width: int, height: int, blank: int, name: str | None
) -> tuple[tuple[int, ...], ...]:
    """The named partition for a goal blank in cell 0, or (other blank cells) reading-order chunks."""
    name = name or DEFAULT_PARTITION.get((width, height))
    n = width * height
    if blank == 0 and name is not None and (width, height, name) in PARTITIONS:
        return PARTITIONS[(width, height, name)]
    if name is not None and not all(part.isdigit() for part in name.split("-")):
        raise ValueError(f"unknown partition {name!r}: use sizes such as 6-6-3")
    sizes = [int(part) for part in name.split("-")] if name else [5] * ((n - 1 + 4) // 5)
    if sum(sizes) != n - 1:
        raise ValueError(f"partition {name!r} does not cover the {n - 1} tiles of {width}x{height}")
    rest = [c for c in range(n) if c != blank]
    groups, start = [], 0
    for size in sizes:
        groups.append(tuple(rest[start : start + size]))
        start += size
    return tuple(groups)


def tables_cached(
    width: int,
    height: int,
    partition: str,
    *,
    blank: int = 0,
    cache_dir: str | os.PathLike[str] | None = None,
) -> bool:
    """Whether every table of `partition` is on disk and intact, so using it costs a load, never a build
    (the arcade offers 7-8 on 4×4 only then: building it takes minutes)."""
    directory = cache_directory(cache_dir)
    groups = partition_for(width, height, blank, partition)
    return all(PatternDatabase.load(width, height, blank, g, directory) is not None for g in groups)


@functools.lru_cache(maxsize=4)
def load_heuristic(
    width: int,
    height: int,
    blank: int,
    groups: tuple[tuple[int, ...], ...],
    cache_dir: str | None,
    reflect: bool = True,
    progress: bool = True,
) -> PatternHeuristic:
    """The heuristic for `groups`, from disk or built. Memoised: the tables are immutable data.

    A group that is the mirror image (about the main diagonal) of an earlier one is derived from it.
    """
    databases: list[PatternDatabase] = []
    for g in groups:
        source = None
        if width == height and blank % width == blank // width:
            image = sorted((c % width) * width + c // width for c in g)
            source = next((db for db in databases if sorted(db.cells) == image), None)
        databases.append(
            PatternDatabase.get(
                width, height, blank, g, cache_dir=cache_dir, progress=progress, mirror_of=source
            )
        )
    return PatternHeuristic.from_databases(tuple(databases), reflect=reflect)
