"""Solving a big board line by line until a small board is left (the fast solver's first stage).

Outer rows and columns that do not hold the goal blank are filled one at a time. Each tile is pushed
along a route while the blank walks round it (a staircase where possible: 3 moves a step against 5 for
a straight run). The last two tiles of a line are finished together by an exact BFS in a small corner
window, which avoids the classic stuck cases.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

import numpy as np


class Stuck(Exception):
    """No route for the blank: should not happen; the caller falls back to a smaller window."""


class Reducer:
    """The board being solved line by line: labels are goal cells, so the goal is the identity."""

    def __init__(self, state: np.ndarray, width: int, height: int, blank: int) -> None:
        self.t = [int(x) for x in state]
        self.w, self.h, self.b = width, height, blank
        self.pos = [0] * len(self.t)
        for cell, label in enumerate(self.t):
            self.pos[label] = cell
        self.z = self.pos[blank]
        self.locked = bytearray(len(self.t))
        self.moves: list[str] = []
        self.letter = {width: "U", -width: "D", 1: "L", -1: "R"}
        # the current rectangle (rows r0..r1, columns c0..c1)
        self.r0, self.r1, self.c0, self.c1 = 0, height - 1, 0, width - 1

    # -- primitives -------------------------------------------------------------------------
    def slide(self, s: int) -> None:
        """The tile on cell `s` (next to the blank) slides into the blank."""
        z, t = self.z, self.t
        label = t[s]
        t[z] = label
        self.pos[label] = z
        t[s] = self.b
        self.pos[self.b] = s
        self.moves.append(self.letter[s - z])
        self.z = s

    def free(self, cell: int, avoid: int) -> bool:
        return cell != avoid and not self.locked[cell]

    def neighbours(self, cell: int) -> Iterator[int]:
        r, c = divmod(cell, self.w)
        if r > 0:
            yield cell - self.w
        if r < self.h - 1:
            yield cell + self.w
        if c > 0:
            yield cell - 1
        if c < self.w - 1:
            yield cell + 1

    def _l_path(self, target: int, avoid: int) -> list[int] | None:
        w = self.w
        ar, ac = divmod(self.z, w)
        tr, tc = divmod(target, w)
        for vertical_first in (True, False):
            r, c, path = ar, ac, []
            for leg in (0, 1) if vertical_first else (1, 0):
                while (r, c)[leg] != (tr, tc)[leg]:
                    if leg == 0:
                        r += 1 if tr > r else -1
                    else:
                        c += 1 if tc > c else -1
                    cell = r * w + c
                    if not self.free(cell, avoid):
                        break
                    path.append(cell)
                else:
                    continue
                break
            else:
                return path
        return None

    def _ring_path(self, target: int, around: int) -> list[int] | None:
        """Around the 3×3 ring of `around`, from the blank (next to it) to `target` (next to it)."""
        w, h = self.w, self.h
        pr, pc = divmod(around, w)
        ring = [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]
        cells = []
        for dr, dc in ring:
            r, c = pr + dr, pc + dc
            cells.append(r * w + c if 0 <= r < h and 0 <= c < w else -1)
        if self.z not in cells or target not in cells:
            return None
        i, j = cells.index(self.z), cells.index(target)
        best = None
        for step in (1, -1):
            path, k = [], i
            while k != j:
                k = (k + step) % 8
                cell = cells[k]
                if cell < 0 or not self.free(cell, around):
                    break
                path.append(cell)
            else:
                if best is None or len(path) < len(best):
                    best = path
        return best

    def _bfs_path(self, targets: set[int], avoid: int) -> list[int]:
        start = self.z
        if start in targets:
            return []
        parent = {start: -1}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for nxt in self.neighbours(cell):
                if nxt not in parent and self.free(nxt, avoid):
                    parent[nxt] = cell
                    if nxt in targets:
                        path = [nxt]
                        while parent[path[-1]] != start:
                            path.append(parent[path[-1]])
                        return path[::-1]
                    queue.append(nxt)
        raise Stuck(f"blank cannot reach {sorted(targets)[:4]}")

    def blank_to(self, target: int, avoid: int = -1) -> None:
        """Walk the blank to `target` without crossing `avoid` or a locked cell."""
        if self.z == target:
            return
        path = self._l_path(target, avoid)
        if path is None and avoid >= 0:
            path = self._ring_path(target, avoid)
        if path is None:
            path = self._bfs_path({target}, avoid)
        for cell in path:
            self.slide(cell)

    def tile_to(self, label: int, route: list[int]) -> None:
        """Push the tile `label` along `route` (adjacent cells), the blank going round it."""
        for cell in route:
            p = self.pos[label]
            self.blank_to(cell, avoid=p)
            self.slide(p)

    # -- lines --------------------------------------------------------------------------------
    def line(self, side: str) -> tuple[list[int], int]:
        """The cells of the rectangle's `side` line in placing order, and the inward step."""
        w = self.w
        r0, r1, c0, c1 = self.r0, self.r1, self.c0, self.c1
        if side == "top":
            return [r0 * w + c for c in range(c0, c1 + 1)], w
        if side == "bottom":
            return [r1 * w + c for c in range(c0, c1 + 1)], -w
        if side == "left":
            return [r * w + c0 for r in range(r0, r1 + 1)], 1
        return [r * w + c1 for r in range(r0, r1 + 1)], -1

    def route(self, start: int, target: int, along: int, inward: int, line: list[int]) -> list[int]:
        """Tile route to `target` on the line: along the line and out to depth 0."""
        w = self.w

        def coords(cell: int) -> tuple[int, int]:
            r, c = divmod(cell, w)
            lr, lc = divmod(line[0], w)
            if abs(along) == 1:  # a row: along = columns, depth = rows
                return (c - lc) * along, (r - lr) * (inward // w)
            return (r - lr) * (along // w), (c - lc) * inward

        (i, d), (j, _) = coords(start), coords(target)
        cells, cell = [], start
        # A staircase costs 3 moves a step (the blank turns one corner), a straight run 5 (it goes
        # round the tile): alternate while both coordinates differ, keeping off depth 0 (where the
        # placed tiles are) until the tile is in its column.
        turn = 0
        while i != j and d > 1:
            if turn == 0:
                cell += along if j > i else -along
                i += 1 if j > i else -1
            else:
                cell -= inward
                d -= 1
            cells.append(cell)
            turn ^= 1
        while i != j:
            step = along if j > i else -along
            cell += step
            i += 1 if j > i else -1
            cells.append(cell)
        while d > 0:
            cell -= inward
            d -= 1
            cells.append(cell)
        return cells

    def solve_line(self, side: str) -> None:
        line, inward = self.line(side)
        along = line[1] - line[0]
        m = len(line)
        for j in range(m - 2):
            target = line[j]
            label = target  # the tile whose goal is this cell
            if self.pos[label] != target:
                self.tile_to(label, self.route(self.pos[label], target, along, inward, line))
            self.locked[target] = 1
        self.finish_pair(line, along, inward)
        for cell in line:
            self.locked[cell] = 1
        if side == "top":
            self.r0 += 1
        elif side == "bottom":
            self.r1 -= 1
        elif side == "left":
            self.c0 += 1
        else:
            self.c1 -= 1

    def finish_pair(self, line: list[int], along: int, inward: int) -> None:
        """Place the last two tiles of a line by exact BFS inside a small corner window.

        The window is 3×3 less the placed corner (2×4 on a board two cells across). The two tiles and
        the blank are first gathered into it (one tile to an inner cell, then the other with the
        first held); if a layout traps the blank, other orders and cells are tried from a snapshot.
        """
        m = len(line)
        first = max(0, m - 3)
        depth = 4 if m == 2 else 3
        window = [
            line[i] + d * inward
            for i in range(first, m)
            for d in range(depth)
            if not (d == 0 and i < m - 2)
        ]
        a, b = line[m - 2], line[m - 1]
        inner = [line[m - 2] + 2 * inward, line[m - 1] + 2 * inward, line[m - 2] + inward]
        inner += [c for c in window if c not in inner and c not in (a, b)]
        for one, two in ((a, b), (b, a)):
            for spot in inner:
                for other in range(len(inner) - 1):
                    snapshot = (list(self.t), list(self.pos), self.z, len(self.moves))
                    try:
                        self._gather(window, one, spot, two, inner, other)
                        path = _window_bfs(window, self.pos[a], self.pos[b], self.z, a, b, self)
                    except Stuck:
                        self.t, self.pos, self.z = snapshot[0], snapshot[1], snapshot[2]
                        del self.moves[snapshot[3] :]
                        continue
                    for cell in path:
                        self.slide(cell)
                    return
        raise Stuck("cannot finish the line")

    def _gather(
        self, window: list[int], one: int, spot: int, two: int, inner: list[int], choice: int
    ) -> None:
        """Bring `one` (to `spot`), `two` (to its `choice`-th nearest inner cell), then the blank."""
        if self.pos[one] not in window or spot != inner[0]:
            self.tile_to(one, self._tile_route(self.pos[one], spot, avoid_cells=()))
        held = self.pos[one]
        if self.pos[two] not in window or choice:
            self.locked[held] = 1
            try:
                here = self.pos[two]
                options = sorted(
                    (c for c in inner if c != held), key=lambda c: _dist(c, here, self.w)
                )
                target = options[min(choice, len(options) - 1)]
                if target == here:
                    raise Stuck("same attempt as before")
                self.tile_to(two, self._tile_route(here, target, avoid_cells=()))
            finally:
                self.locked[held] = 0
        if self.z not in window:
            p1, p2 = self.pos[one], self.pos[two]
            self.locked[p1] = self.locked[p2] = 1
            try:
                for cell in self._bfs_path(set(window) - {p1, p2}, -1):
                    self.slide(cell)
            finally:
                self.locked[p1] = self.locked[p2] = 0

    def _tile_route(self, start: int, target: int, avoid_cells: tuple[int, ...]) -> list[int]:
        """Shortest route for a tile over unlocked cells."""
        if start == target:
            return []
        parent = {start: -1}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if cell == target:
                break
            for nxt in self.neighbours(cell):
                if nxt not in parent and not self.locked[nxt] and nxt not in avoid_cells:
                    parent[nxt] = cell
                    queue.append(nxt)
        if target not in parent:
            raise Stuck(f"no route for a tile from {start} to {target}")
        route = [target]
        while parent[route[-1]] != start:
            route.append(parent[route[-1]])
        return route[::-1]

    def reduce_to(self, max_side: int) -> None:
        """Solve outer lines until the rectangle is at most `max_side` (and at least 3) a side."""
        w = self.w
        br, bc = divmod(self.b, w)
        while True:
            rows, cols = self.r1 - self.r0 + 1, self.c1 - self.c0 + 1
            if rows <= max_side and cols <= max_side:
                return
            if rows >= cols:
                self.solve_line("bottom" if br == self.r0 else "top")
            else:
                self.solve_line("right" if bc == self.c0 else "left")

    def sub_state(self) -> tuple[np.ndarray, int, int, int]:
        """The remaining rectangle as a relabelled state of its own."""
        w, sw = self.w, self.c1 - self.c0 + 1
        sh = self.r1 - self.r0 + 1
        state = np.empty(sw * sh, np.int64)
        for r in range(sh):
            for c in range(sw):
                label = self.t[(self.r0 + r) * w + self.c0 + c]
                lr, lc = divmod(label, w)
                state[r * sw + c] = (lr - self.r0) * sw + lc - self.c0
        br, bc = divmod(self.b, w)
        return state, sw, sh, (br - self.r0) * sw + bc - self.c0


def _dist(a: int, b: int, w: int) -> int:
    return abs(a // w - b // w) + abs(a % w - b % w)


def _window_bfs(
    window: Iterable[int], pa: int, pb: int, z: int, target_a: int, target_b: int, reducer: Reducer
) -> list[int]:
    """Blank cells that bring tiles a, b to their cells, moving only inside `window`."""
    cells = set(window)
    start = (pa, pb, z)
    parent: dict[tuple[int, int, int], tuple[tuple[int, int, int], int] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        a, b, blank = state
        if a == target_a and b == target_b:
            path = []
            while (step := parent[state]) is not None:
                state, cell = step
                path.append(cell)
            return path[::-1]
        for nxt in reducer.neighbours(blank):
            if nxt not in cells:
                continue
            na = blank if nxt == a else a
            nb = blank if nxt == b else b
            key = (na, nb, nxt)
            if key not in parent:
                parent[key] = (state, nxt)
                queue.append(key)
    raise Stuck("corner window cannot finish the line")
