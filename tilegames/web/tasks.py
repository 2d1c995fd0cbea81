"""The slow jobs, run in the worker processes: deals, optimal lengths, hints and solves.

Each takes and returns plain data (board notation, lists, numbers) so it crosses the process boundary cheaply,
and turns an engine's ``ValueError`` into ``{"error": message}`` rather than pickling exception objects.
Engines are imported inside the functions: a worker pays for a game's import (and its numba kernels) only
when that game is played.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

#: Boards this small get an optimal answer at once; larger ones a fast one (or an optimal one with a time limit).
SLIDE_OPTIMAL_CELLS = 16


def _guarded(fn: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    @functools.wraps(fn)
    def run(*args: Any) -> dict[str, Any]:
        try:
            return fn(*args)
        except ValueError as error:
            return {"error": str(error) or type(error).__name__, "kind": type(error).__name__}
        except Exception as error:  # an engine bug: answer 500 rather than lose the worker
            return {"error": f"{type(error).__name__}: {error}", "kind": "EngineError"}

    return run


def warm() -> dict[str, Any]:
    """Run each engine once on a tiny board, so its compiled kernels are built (or loaded from numba's
    disk cache) before the first player waits on them: on a fresh install that takes seconds."""
    import contextlib
    import importlib

    from tilegames import klotski, link, slide

    exercises = (
        # A 3x3 is solved in plain Python by default; ask for the kernel that 3x4 boards use.
        lambda: slide.solve(slide.Board.parse("1 2 3/4 5 6/0 7 8"), heuristic="mdlc"),
        lambda: slide.solve(slide.Board.parse("1 2 3/4 5 6/0 7 8"), fast=True),
        # The fast 4x4/5x5 solver searches in two threads, where the PDB kernel is the JIT one.
        lambda: _off_the_main_thread(
            lambda: slide.solve(slide.Board.parse("1 2 3/4 5 6/0 7 8"), partition="4-4")
        ),
        # Once imported, the kernels serve every search (a fresh process searches in plain Python).
        lambda: importlib.import_module("tilegames.klotski.kernels"),
        lambda: klotski.solve(klotski.Board.parse("AAB/AAC/.DE/..F"), metric="moves"),
        lambda: klotski.solve(klotski.Board.parse("AAB/AAC/.DE/..F"), metric="steps"),
        lambda: link.solve(link.deal(6, 4, 3, seed=0)),
        lambda: link.hint(link.deal(6, 4, 3, seed=0, gravity=True)),
    )
    for exercise in exercises:
        # A broken engine shows up in its own requests, not here.
        with contextlib.suppress(Exception):
            exercise()
    return {}


def _off_the_main_thread(call: Any) -> Any:
    """`call()` in another thread (there the pattern-database search runs numba's kernel)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


# Sliding puzzle.


class Unsolvable(ValueError):
    """The engine proved there is no solution (its solve returned None)."""


def _solved(solution: Any, text: str) -> Any:
    """`solution`, or Unsolvable when the engine returned None (a proof, reported as an error here)."""
    if solution is None:
        raise Unsolvable(f"{text} cannot reach the goal: the parities disagree")
    return solution


@_guarded
def slide_new(width: int, height: int, seed: int, distance: int | None) -> dict[str, Any]:
    from tilegames import slide

    board = slide.random_board(width, height, seed=seed, distance=distance)
    optimal = distance
    if optimal is None and width * height <= 12:
        optimal = _solved(
            slide.solve(board, limits=slide.Limits(timeout=5.0)), text=str(board)
        ).length
    return {"board": str(board), "optimal": optimal}


@_guarded
def slide_optimal(text: str, timeout: float) -> dict[str, Any]:
    from tilegames import slide

    solution = _solved(
        slide.solve(slide.Board.parse(text), limits=slide.Limits(timeout=timeout)), text
    )
    return {"length": solution.length, "optimal": bool(solution.optimal)}


@_guarded
def slide_hint(text: str, timeout: float) -> dict[str, Any]:
    from tilegames import slide

    return {"move": slide.hint(slide.Board.parse(text), limits=slide.Limits(timeout=timeout))}


@_guarded
def slide_solve(text: str, timeout: float) -> dict[str, Any]:
    from tilegames import slide

    board = slide.Board.parse(text)
    fast = board.width * board.height > SLIDE_OPTIMAL_CELLS
    partition = _partition(board.width, board.height)
    try:
        solution = _solved(
            slide.solve(
                board, fast=fast, partition=partition, limits=slide.Limits(timeout=timeout)
            ),
            text,
        )
    except slide.SearchLimitError:
        # The optimal search ran out of time (a hard 4x4, or its pattern databases still being built):
        # a good solution now beats an optimal one never.
        solution = _solved(
            slide.solve(board, fast=True, limits=slide.Limits(timeout=timeout)), text
        )
    return {
        "moves": list(solution.moves),
        "length": solution.length,
        "optimal": bool(solution.optimal),
    }


def _partition(width: int, height: int) -> str | None:
    """7-8 on a 4x4 when its tables are already cached (a request never builds them), else the default."""
    from tilegames.slide.solve.pdb import tables_cached

    return "7-8" if (width, height) == (4, 4) and tables_cached(4, 4, "7-8") else None


@_guarded
def slide_prepare(timeout: float) -> dict[str, Any]:
    """Load the 4x4 pattern databases (building them on a machine's first run, ~10 s) before a player asks."""
    from tilegames import slide

    slide.solve(
        slide.Board.parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15"),
        limits=slide.Limits(timeout=timeout),
    )
    return {}


# Klotski.


def _klotski_states(board: Any) -> int:
    from tilegames.web.limits import klotski_max_states

    return klotski_max_states(board.width, board.height)


@_guarded
def klotski_new(text: str, metric: str) -> dict[str, Any]:
    from tilegames import klotski

    board = klotski.layout(text)
    solution = klotski.solve(
        board, metric=metric, limits=klotski.Limits(max_nodes=_klotski_states(board))
    )
    if solution is None:
        return {
            "error": "this layout cannot be solved: the 2×2 piece never reaches the exit",
            "kind": "Unsolvable",
        }
    return {"board": str(board), "optimal": solution.length}


@_guarded
def klotski_hint(text: str, metric: str) -> dict[str, Any]:
    from tilegames import klotski

    board = klotski.Board.parse(text)
    solution = klotski.solve(
        board, metric=metric, limits=klotski.Limits(max_nodes=_klotski_states(board))
    )
    return {"move": solution.moves[0] if solution and solution.moves else None}


@_guarded
def klotski_solve(text: str, metric: str) -> dict[str, Any]:
    from tilegames import klotski

    board = klotski.Board.parse(text)
    solution = klotski.solve(
        board, metric=metric, limits=klotski.Limits(max_nodes=_klotski_states(board))
    )
    if solution is None:
        return {"error": "no solution from this position", "kind": "Unsolvable"}
    return {"moves": list(solution.moves), "length": solution.length, "optimal": True}


# Lianliankan.


@_guarded
def link_new(
    width: int, height: int, kinds: int, copies: int, gravity: bool, seed: int
) -> dict[str, Any]:
    from tilegames import link

    board = link.deal(width, height, kinds, copies, seed=seed, gravity=gravity, solvable=True)
    return {"board": str(board)}


@_guarded
def link_reshuffle(text: str, gravity: bool, seed: int) -> dict[str, Any]:
    from tilegames import link

    return {"board": str(link.reshuffle(link.Board.parse(text, gravity=gravity), seed=seed))}


@_guarded
def link_solve(text: str, gravity: bool, timeout: float) -> dict[str, Any]:
    from tilegames import link

    try:
        result = link.solve(
            link.Board.parse(text, gravity=gravity), limits=link.Limits(timeout=timeout)
        )
    except link.SearchLimitError:
        return {"error": "the solver hit its time limit", "kind": "SearchLimitError"}
    if result is None:
        return {"error": "this board can no longer be cleared", "kind": "Unsolvable"}
    pairs = [[list(a), list(b)] for a, b in result.moves]
    return {"moves": pairs, "length": len(pairs), "optimal": None}
