"""Fast, legal, near-optimal solutions on any board.

Up to 5×5 an anytime weighted IDA* over pattern databases (or Manhattan + linear conflict) finds
short solutions. Bigger boards are first reduced line by line (`reduce.Reducer`) until at most 5×5 is
left, which is then searched.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from tilegames.slide.board import OPPOSITE, Board
from tilegames.slide.solve import kernels
from tilegames.slide.solve.common import (
    Budget,
    Solution,
    corner_transform,
    diagonal_mirror,
    relabel,
    transform_state,
)
from tilegames.slide.solve.ida import MAX_DEPTH, ida_relabelled, load_tables, uses_pdb
from tilegames.slide.solve.pdb import tables_cached
from tilegames.slide.solve.reduce import Reducer
from tilegames.slide.solve.shorten import shorten
from tilegames.slide.solve.windows import Search, two_way_windows

# The anytime schedule of weights (f = g + h·num/den) and its node budget for the last small board:
# small steps, so that each lighter weight has a fair chance to finish within half of what is left.
WEIGHTS = ((2, 1), (9, 5), (5, 3), (8, 5), (3, 2), (7, 5), (4, 3), (5, 4), (6, 5), (1, 1))
FAST_BUDGET = 22_000_000
# Less on what is left of a bigger board: there the line-by-line reduction dominates the length.
REDUCED_BUDGET = 15_000_000
# Path shortening afterwards (`shorten.shorten`): its node budget, on solutions up to this length.
SHORTEN_BUDGET = 2_000_000
SHORTEN_MAX_LENGTH = 400
# Pattern-database windows (`windows.two_way_windows`, on 4×4 and 5×5), in stages: window lengths,
# the weight of their searches ((1, 1): optimal windows) and the node cap of one window's search.
# The first stage shortens each heavy answer (below); all stages shorten the last answer, within
# CORNER_BUDGET nodes.
CORNER_STAGES: tuple[tuple[tuple[int, ...], tuple[int, int], int], ...] = (
    ((40, 60), (1, 1), 1_000_000),
    ((80, 110), (4, 3), 1_000_000),
    ((80, 110), (6, 5), 1_000_000),
    ((40, 60), (1, 1), 1_000_000),
)
CORNER_BUDGET = 6_500_000
# Linear conflicts in the weighted 5×5 searches over 5-5-5-5-4: on. Off, a node costs 0.6× but the
# lighter weights need the sharper bound (docs/benchmarks.md, round 4); the kernel reads them only
# where they can change a decision. Over the stronger 6-6-6-6 tables: off, as they add little to them
# and at the same time the searches go further without (round 5).
FAST_LINEAR_CONFLICT = True
# On a square board whose goal blank is on the main diagonal, two searches run side by side, one per
# core: on the board and on its mirror image about that diagonal (the same puzzle searched in another
# order; the answers differ by several moves). Each has FAST_BUDGET nodes: the heavy weights (at most
# HEAVY_BUDGET nodes), the first window stage on their answer (HEAVY_WINDOWS), then its own lighter
# weights, each looking only for shorter answers with half of what is left, then every window stage.
# The two lists of lighter weights differ, so that between them twice the weights are tried: the cost
# of weighted IDA* is erratic (on one board 5/4 costs a fifth of 4/3, on another 5/4 does not finish).
PORTFOLIO = True
HEAVY_WEIGHTS = WEIGHTS[: WEIGHTS.index((3, 2)) + 1]
HEAVY_BUDGET = 6_000_000
HEAVY_WINDOWS = 1_500_000
LIGHT_WEIGHTS = (
    ((7, 5), (4, 3), (5, 4), (6, 5), (1, 1)),
    ((10, 7), (9, 7), (11, 9), (7, 6), (1, 1)),
)
# Move letters of the mirror image about the main diagonal: a tile going up there goes left here.
TRANSPOSED = str.maketrans("UDLR", "LRUD")
# The stronger 5×5 databases (Korf & Felner's partition, with the reflected lookup): when they are on
# disk, the 5×5 search and its lower bound use them instead of 5-5-5-5-4 (the fast solver never builds
# them: about 2 minutes on 2 cores, 510 MB). Built once on request (`partition="6-6-6-6"`, or
# `tilegames slide solve BOARD --fast --partition 6-6-6-6`). On Korf & Felner's 50 24-puzzles they
# take the answers from +4.45 % to about +3 % above optimal (docs/benchmarks.md, round 5).
STRONG_5X5 = "6-6-6-6"


def cancel_inverses(moves: str) -> str:
    """Drop every move that is undone at once (UD, DU, LR, RL), repeatedly; the rest stays legal."""
    out: list[str] = []
    for move in moves:
        if out and out[-1] == OPPOSITE[move]:
            out.pop()
        else:
            out.append(move)
    return "".join(out)


def _linear_conflict(w: int, h: int, partition: str | None) -> bool | None:
    """Whether the weighted PDB searches past 4×4 add linear conflicts (None: the kernel's default)."""
    return FAST_LINEAR_CONFLICT and partition != STRONG_5X5 if w * h > 16 else None


def lower_bound(state: np.ndarray, width: int, height: int, blank: int) -> int:
    """Manhattan distance plus linear conflicts: a proven lower bound on the optimal length."""
    return int(kernels.manhattan_lc(state, width, height, blank, True))


def _search_small(
    state: np.ndarray,
    w: int,
    h: int,
    b: int,
    limits: Budget,
    cache_dir: str | os.PathLike[str] | None,
    partition: str | None,
    budget: int = FAST_BUDGET,
    weights: tuple[tuple[int, int], ...] = WEIGHTS,
    incumbent: str = "",
    persist: bool = False,
) -> tuple[int, str, int, bool]:
    """Anytime weighted IDA*: heavy weight first, then lighter ones looking only for shorter answers
    (than `incumbent`, a known answer, if given). After a weight that runs out of nodes, the next
    ones only with `persist`.

    Returns (status, moves, nodes, proved optimal).
    """
    if w * h <= 12:
        status, moves, nodes = ida_relabelled(state, w, h, b, limits, heuristic="mdlc")
        return status, moves, nodes, status == kernels.FOUND
    heuristic = "pdb" if uses_pdb(w, h, partition) else "mdlc"
    partition = partition if heuristic == "pdb" else None
    total = min(limits.max_nodes, budget)
    best, nodes, optimal = incumbent, 0, False
    for weight in weights:
        left = total - nodes
        if left <= 0:
            break
        share = left if not best else max(1, left // 2)  # later, lighter weights split the rest
        weight_budget = Budget(share, limits.deadline, limits.timeout)
        lc = _linear_conflict(w, h, partition) if heuristic == "pdb" and weight != (1, 1) else None
        status, moves, used = ida_relabelled(
            state, w, h, b, weight_budget, heuristic=heuristic, weight=weight, cache_dir=cache_dir, partition=partition,
            shorter_than=len(best) if best else MAX_DEPTH, linear_conflict=lc,
        )  # fmt: skip
        nodes += used
        if status == kernels.FOUND:
            best = moves
            optimal = weight == (1, 1)
        elif status == kernels.EXHAUSTED:  # every path shorter than `best` was searched
            optimal = bool(best)
        elif status == kernels.TIME_LIMIT or (
            best and not persist
        ):  # lighter ones cost more, mostly
            break
        if optimal:
            break
    if not best:
        return (
            (kernels.TIME_LIMIT if _clock_passed(limits) else kernels.NODE_LIMIT),
            "",
            nodes,
            False,
        )
    return kernels.FOUND, best, nodes, optimal


def _covers(partition: str | None, width: int, height: int) -> bool:
    """Whether a partition name such as 6-6-3 splits exactly the tiles of a width×height board."""
    if partition is None or partition == "none":
        return partition == "none"
    parts = partition.split("-")
    return all(p.isdigit() for p in parts) and sum(map(int, parts)) == width * height - 1


def _shorten(
    state: np.ndarray, b: int, text: str, w: int, h: int, limits: Budget, nodes: int
) -> tuple[str, int]:
    """`shorten.shorten` within what is left of the limits (nothing when they are used up)."""
    budget = min(SHORTEN_BUDGET, limits.max_nodes - nodes)
    if budget <= 0 or len(text) > SHORTEN_MAX_LENGTH or _clock_passed(limits):
        return text, 0
    return shorten(state, b, text, w, h, max_nodes=budget, deadline=limits.deadline)


def _window_improver(
    state: np.ndarray, b: int, w: int, h: int, limits: Budget,
    partition: str | None, cache_dir: str | os.PathLike[str] | None,
) -> Callable[[str, int, int], tuple[str, int]]:  # fmt: skip
    """Two-way corner windows (`windows.two_way_windows`) searched by pattern-database IDA*: a
    function (moves, max_nodes, stages) -> (moves, nodes) running the first `stages` of
    CORNER_STAGES, for the anytime search to call on its answers."""
    proved: dict[tuple[bytes, bytes], int] = {}  # windows known optimal, shared by every call

    def searcher(weight: tuple[int, int], cap: int) -> Search:
        def search(
            start: np.ndarray, goal_blank: int, length: int, left: int
        ) -> tuple[str | None, int, bool]:
            budget = Budget(min(left, cap), limits.deadline, limits.timeout)
            status, moves, used = ida_relabelled(
                start, w, h, goal_blank, budget, heuristic="pdb", partition=partition,
                cache_dir=cache_dir, shorter_than=length, weight=weight,
                linear_conflict=_linear_conflict(w, h, partition),
            )  # fmt: skip
            found = moves if status == kernels.FOUND else None
            return found, used, status == kernels.EXHAUSTED

        return search

    def improve(moves: str, max_nodes: int, stages: int) -> tuple[str, int]:
        nodes = 0
        for lengths, weight, cap in CORNER_STAGES[:stages]:
            left = min(max_nodes, CORNER_BUDGET) - nodes
            if left <= 0 or _clock_passed(limits):
                break
            moves, used = two_way_windows(
                state, b, moves, w, h, searcher(weight, cap), lengths=lengths,
                max_nodes=left, deadline=limits.deadline, proved=proved,
            )  # fmt: skip
            nodes += used
        return moves, nodes

    return improve


def _answer_view(
    state: np.ndarray,
    w: int,
    h: int,
    b: int,
    limits: Budget,
    cache_dir: str | os.PathLike[str] | None,
    partition: str | None,
    budget: int,
    light: tuple[tuple[int, int], ...] = LIGHT_WEIGHTS[0],
) -> tuple[int, str, int, bool]:
    """The heavy weights, the first window stage on their answer, the `light` weights looking for
    shorter answers than that, then every window stage: (status, moves, nodes, proved optimal)."""
    improve = _window_improver(state, b, w, h, limits, partition, cache_dir)
    heavy = min(HEAVY_BUDGET, budget)
    status, moves, nodes, optimal = _search_small(
        state, w, h, b, limits, cache_dir, partition, heavy, HEAVY_WEIGHTS
    )  # fmt: skip
    weights: tuple[tuple[int, int], ...] = WEIGHTS
    if status == kernels.FOUND and not optimal:
        moves, used = improve(moves, min(HEAVY_WINDOWS, limits.max_nodes - nodes), 1)
        nodes += used
        weights = light
    if not optimal and status != kernels.TIME_LIMIT:
        status, moves, used, optimal = _search_small(
            state, w, h, b, limits.remaining(nodes), cache_dir, partition, budget - nodes,
            weights, moves if status == kernels.FOUND else "", persist=True,
        )  # fmt: skip
        nodes += used
    if status == kernels.FOUND and not optimal:
        moves, used = improve(moves, limits.max_nodes - nodes, len(CORNER_STAGES))
        nodes += used
    return status, moves, nodes, optimal


def _answer_small(
    state: np.ndarray,
    w: int,
    h: int,
    b: int,
    limits: Budget,
    cache_dir: str | os.PathLike[str] | None,
    partition: str | None,
    budget: int,
    windows: bool,
) -> tuple[int, str, int, bool]:
    """`_search_small`, or with `windows` `_answer_view`; on a square board whose goal blank is on
    the main diagonal, `_answer_view` on the board and on its mirror image side by side (PORTFOLIO),
    each with half the node limit. The shorter answer wins, the board's own on a tie, so the answer
    never depends on which search ends first. Returns (status, moves, nodes, proved optimal).
    """
    if not windows:
        return _search_small(state, w, h, b, limits, cache_dir, partition, budget)
    mirror = diagonal_mirror(w, h, b) if PORTFOLIO else None
    if mirror is None:
        return _answer_view(state, w, h, b, limits, cache_dir, partition, budget)
    views = (state, transform_state(state, mirror))
    half = Budget(max(1, limits.max_nodes // 2), limits.deadline, limits.timeout)
    with ThreadPoolExecutor(len(views)) as pool:
        answers = list(
            pool.map(
                lambda view, light: _answer_view(
                    view, w, h, b, half, cache_dir, partition, budget, light
                ),
                views,
                LIGHT_WEIGHTS,
            )
        )
    nodes = sum(answer[2] for answer in answers)
    found = [(len(answer[1]), i) for i, answer in enumerate(answers) if answer[0] == kernels.FOUND]
    if not found:
        return answers[0][0], "", nodes, False
    _, i = min(found)
    moves = answers[i][1] if i == 0 else answers[i][1].translate(TRANSPOSED)
    # An answer proved optimal in either view makes the shortest one optimal too.
    return kernels.FOUND, moves, nodes, any(answer[3] for answer in answers)


def bound_partitions(
    width: int, height: int, partition: str | None, cache_dir: str | os.PathLike[str] | None
) -> list[str | None]:
    """The databases whose lookups bound a board of this size from below: the search's, and on 5×5
    the 6-6-6-6 ones too when they are already on disk (checking never builds them)."""
    names = [partition] if partition is None or _covers(partition, width, height) else []
    square = partition is None and (width, height) == (5, 5)
    if square and tables_cached(5, 5, STRONG_5X5, cache_dir=cache_dir):
        names.append(STRONG_5X5)
    return names


def search_partition(
    width: int,
    height: int,
    blank: int,
    partition: str | None,
    cache_dir: str | os.PathLike[str] | None,
) -> str | None:
    """The databases the search reads: `partition`, or by default on 5×5 with the goal blank in a
    corner the stronger ones when they are already on disk (checking never builds them)."""
    corner = (width, height) == (5, 5) and corner_transform(5, 5, blank) is not None
    if partition is None and corner and tables_cached(5, 5, STRONG_5X5, cache_dir=cache_dir):
        return STRONG_5X5
    return partition


def _clock_passed(limits: Budget) -> bool:
    return time.perf_counter() > limits.deadline


def solve_fast(
    board: Board,
    goal: Board,
    limits: Budget,
    *,
    partition: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """A legal solution quickly; `optimal` only when proved (the search alone did the whole job).

    The limits bound the searching; when they run out, more of the board is solved by construction,
    so an answer always comes back.
    """
    w, h = board.width, board.height
    state, b = relabel(board, goal)
    bound = lower_bound(state, w, h, b)
    for name in bound_partitions(w, h, partition, cache_dir) if uses_pdb(w, h, partition) else []:
        cell_map, pdb, limits = load_tables(w, h, b, limits, name, cache_dir=cache_dir)
        if cell_map is not None:
            bound = max(bound, pdb(transform_state(state, cell_map)))
    reducer = Reducer(state, w, h, b)
    nodes = 0
    for side in (5, 4, 3):
        reducer.reduce_to(side)
        sub, sw, sh, sb = reducer.sub_state()
        last = side == 3 or sw * sh <= 9
        sub_partition = search_partition(
            sw, sh, sb, partition if _covers(partition, sw, sh) else None, cache_dir
        )
        if sw * sh > 12 and uses_pdb(sw, sh, sub_partition):
            # Load (or build, once) the small board's databases before its clock starts.
            limits = load_tables(sw, sh, sb, limits, sub_partition, cache_dir=cache_dir)[2]
        # The last board (at most 9 cells, a few thousand nodes) gets its own budget, so there is
        # always an answer.
        budget = Budget.of(None, None) if last else limits.remaining(nodes)
        # Windows aim at corner-blank states, so they read the corner goal's tables: already loaded
        # when the goal blank is in a corner (never built just for the windows).
        windows = (
            not reducer.moves
            and corner_transform(w, h, b) is not None
            and sw * sh > 12
            and uses_pdb(sw, sh, sub_partition)
        )
        status, moves, used, optimal = _answer_small(
            sub, sw, sh, sb, budget, cache_dir, sub_partition,
            REDUCED_BUDGET if reducer.moves else FAST_BUDGET, windows,
        )  # fmt: skip
        nodes += used
        if status == kernels.FOUND:
            break
        # Out of budget on this board: solve one more line by construction and try a smaller one.
        if last:  # pragma: no cover - an unlimited search of at most 9 cells cannot fail
            raise limits.error(status, nodes)
    text = cancel_inverses("".join(reducer.moves) + moves)
    if not optimal or reducer.moves:
        text, used = _shorten(state, b, text, w, h, limits, nodes)
        nodes += used
    proved = (optimal and not reducer.moves) or len(text) == bound
    return Solution(list(text), len(text), proved, nodes, len(text) if proved else bound)
