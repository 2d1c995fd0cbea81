"""The Analysis jobs, run in the worker processes: each legal move judged by the engine's exact measure.

Like :mod:`tilegames.web.tasks`, each job takes and returns plain data and turns an engine's ``ValueError``
into ``{"error": ...}``. A search that hits its limit is not an error here: its distance is ``None`` (shown
"unknown") and the answer says it is not ``exact``.

- Klotski: the distances of the whole reachable set (one BFS per metric, :func:`tilegames.klotski.space.analyse`)
  give the position's distance and every legal move's; boards too big for the kernels solve each position.
- Sliding puzzle: the optimal solver on the position and on the position after each line move.
- Lianliankan: whether the board can still be cleared, now and after each removable pair.
"""

from __future__ import annotations

from typing import Any

from tilegames.web.tasks import _guarded

KLOTSKI_METRICS = ("moves", "steps")


def verdict(before: int | None, after: int | None) -> str:
    """``better`` / ``same`` / ``worse`` by the distance to solved before and after a move (lower is better)."""
    if before is None or after is None:
        return "unknown"
    return "better" if after < before else "same" if after == before else "worse"


# Klotski.


def _klotski_measure(board: Any, metric: str, max_states: int, solves: int) -> Any:
    """A function from a board to its distance to solved (None: unsolvable or past the limit), and
    whether its answers are exact. Boards too big for the kernels solve each position in plain Python, with
    ``max_states`` shared by the ``solves`` expected, so the whole job stays within the limit."""
    from tilegames import klotski
    from tilegames.klotski import space
    from tilegames.klotski.solve import MAX_KERNEL_CELLS

    if board.width * board.height <= MAX_KERNEL_CELLS:
        try:
            found = space.analyse(board, metric, max_states=max_states)
        except klotski.SearchLimitError:
            return (lambda b: None), False
        import numpy as np

        order = np.argsort(found.keys)
        keys, distances = found.keys[order], found.distances[order]

        def lookup(b: Any) -> int | None:
            i = int(np.searchsorted(keys, np.uint64(b.key())))
            if i < len(keys) and int(keys[i]) == b.key() and distances[i] >= 0:
                return int(distances[i])
            return None

        return lookup, True
    exact = [True]

    def solve(b: Any) -> int | None:
        try:
            limits = klotski.Limits(max_nodes=max(1, max_states // solves))
            solution = klotski.solve(b, metric=metric, limits=limits)
        except klotski.SearchLimitError:
            exact[0] = False
            return None
        return None if solution is None else solution.length

    return solve, exact


@_guarded
def klotski_analysis(text: str, max_states: int) -> dict[str, Any]:
    """The position's distance in both metrics and each legal move's verdict (by the game's ``moves``)."""
    from tilegames import klotski

    board = klotski.Board.parse(text)
    legal = list(board.moves(metric="moves"))
    after = []
    for move in legal:
        child = board.copy(stack=False)
        child.push(move)
        after.append(child)
    distance: dict[str, int | None] = {}
    per_move: dict[str, list[int | None]] = {}
    exact = True
    for metric in KLOTSKI_METRICS:
        measure, known = _klotski_measure(board, metric, max_states, 2 * (1 + len(after)))
        distance[metric] = measure(board)
        per_move[metric] = [measure(child) for child in after]
        exact = exact and (known if isinstance(known, bool) else known[0])
    moves = [
        {
            "move": move,
            "verdict": verdict(distance["moves"], per_move["moves"][i]),
            "distance": per_move["moves"][i],
            "steps": per_move["steps"][i],
        }
        for i, move in enumerate(legal)
    ]
    return {
        "metric": "moves",
        "distance": distance["moves"],
        "steps": distance["steps"],
        "exact": exact,
        "moves": moves,
    }


# Sliding puzzle.


def slide_line_moves(board: Any) -> list[tuple[str, Any]]:
    """Every move a player can make: each tile in line with the blank slides its run (``"R"``, ``"RR"``...),
    with the board it leads to."""
    out = []
    for letter in board.legal_moves():
        child = board.copy(stack=False)
        run = ""
        while letter in child.legal_moves():
            child.push(letter)
            run += letter
            out.append((run, child.copy(stack=False)))
    return out


@_guarded
def slide_analysis(text: str, max_nodes: int, timeout: float) -> dict[str, Any]:
    """The position's optimal distance and each line move's (None past the node or time limit)."""
    from tilegames import slide

    board = slide.Board.parse(text)
    children = slide_line_moves(board)
    share = timeout / (1 + len(children))
    exact = True

    def optimal(b: Any) -> int | None:
        nonlocal exact
        try:
            solution = slide.solve(b, limits=slide.Limits(max_nodes=max_nodes, timeout=share))
        except slide.SearchLimitError:
            exact = False
            return None
        if solution is None or not solution.optimal:
            exact = False
            return None
        return solution.length

    now = optimal(board)
    moves: list[dict[str, Any]] = []
    for move, child in children:
        distance = optimal(child)
        moves.append({"move": move, "verdict": verdict(now, distance), "distance": distance})
    return {"metric": "moves", "distance": now, "exact": exact, "moves": moves}


# Lianliankan.


@_guarded
def link_analysis(text: str, gravity: bool, max_nodes: int, max_pairs: int) -> dict[str, Any]:
    """Whether the board can still be cleared, and after each removable pair (the first ``max_pairs``)."""
    from tilegames import link

    board = link.Board.parse(text, gravity=gravity)
    exact = True

    def clearable(b: Any) -> bool | None:
        nonlocal exact
        try:
            return link.solve(b, limits=link.Limits(max_nodes=max_nodes)) is not None
        except link.SearchLimitError:
            exact = False
            return None

    now = clearable(board)
    pairs = board.legal_moves()
    if len(pairs) > max_pairs:
        exact = False
    moves: list[dict[str, Any]] = []
    for pair in pairs:
        if len(moves) >= max_pairs:
            after = None
        else:
            child = board.copy(stack=False)
            child.push(pair)
            after = clearable(child)
        judged = "unknown" if after is None else "same" if after else "worse"
        if after and now is False:
            judged = "better"  # cannot happen (removing a pair never makes a board clearable), kept honest
        moves.append(
            {
                "move": [list(pair[0]), list(pair[1])],
                "verdict": judged,
                "distance": None,
                "clearable": after,
            }
        )
    remaining = board.remaining // 2
    return {
        "metric": "clearable",
        "distance": remaining if now else None,
        "clearable": now,
        "exact": exact,
        "moves": moves,
    }
