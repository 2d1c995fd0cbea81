"""Klotski on the web: named and custom layouts, the classic move count and the unit steps, hints and solves."""

from __future__ import annotations

from typing import Any

from tilegames.store import GameRow
from tilegames.web import tasks
from tilegames.web.games import BadRequest, Base, Deal, IllegalMove, Outcome, Services
from tilegames.web.limits import Limits


def pieces(text: str) -> list[dict[str, Any]]:
    """The pieces of a layout as rectangles (letter, row, column, width, height), as the engine parses them."""
    from tilegames import klotski

    board = klotski.Board.parse(text)
    return [
        {"id": p.letter, "row": p.row, "col": p.column, "width": p.width, "height": p.height}
        for p in sorted(board.pieces, key=lambda p: p.letter)
    ]


def counts(row: GameRow, move: str) -> tuple[int, int]:
    """The classic move count and the unit steps after ``move``, by the engine's rule
    (:func:`tilegames.klotski.move_count`), kept incrementally from the game row's counters and last move."""
    from tilegames import klotski

    before = [row.last_move] if row.last_move else []
    added = klotski.move_count([*before, move]) - klotski.move_count(before)
    return row.moves + added, row.steps + klotski.move_count([move], "steps")


class Klotski(Base):
    name = "klotski"
    records = ("moves", "seconds")

    def catalog(self, limits: Limits) -> dict[str, Any]:
        from tilegames import klotski

        return {
            "layouts": [
                {"name": n.name, "alias": n.alias, "layout": str(n.board)}
                for n in klotski.NAMED_LAYOUTS
            ],
            "sides": list(limits.klotski_sides),
            "max_cells": limits.klotski_cells,
        }

    def params(self, body: dict[str, Any], limits: Limits) -> dict[str, Any]:
        from tilegames import klotski

        text = body.get("layout")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest(
                "layout must be a named layout, its alias, or layout notation", "bad_parameter"
            )
        if len(text) > limits.layout_chars:
            raise BadRequest(
                f"layout text is longer than {limits.layout_chars} characters", "out_of_range"
            )
        text = text.strip()
        named = klotski.LAYOUTS.get(text)
        if named is not None:
            name = next((n.name for n in klotski.NAMED_LAYOUTS if text in (n.name, n.alias)), text)
            return {"layout": str(named), "variant": name}
        try:
            board = klotski.layout(text)
        except ValueError as error:
            raise BadRequest(str(error), "invalid_layout") from None
        low, high = limits.klotski_sides
        if not (low <= board.width <= high and low <= board.height <= high) or (
            board.width * board.height > limits.klotski_cells
        ):
            raise BadRequest(
                f"a custom board must be {low} to {high} cells on each side and at most"
                f" {limits.klotski_cells} cells, not {board.width}x{board.height}",
                "out_of_range",
            )
        same = next((n.name for n in klotski.NAMED_LAYOUTS if n.board == board), None)
        return {"layout": str(board), "variant": same or f"custom {board}"}

    async def new(self, services: Services, params: dict[str, Any], seed: int) -> Deal:
        dealt = await services.work(
            tasks.klotski_new, params["layout"], "moves", timeout=services.limits.solve_seconds
        )
        variant = params["variant"]
        if variant.startswith("custom "):
            board = variant.removeprefix("custom ")
            width, height = len(board.split("/")[0]), board.count("/") + 1
            label = f"custom layout {width}×{height} ({board})"
        else:
            label = variant
        options = {"optimal": dealt["optimal"], "metric": "moves"}
        return Deal(dealt["board"], variant, label, options)

    def view(self, row: GameRow) -> dict[str, Any]:
        from tilegames import klotski

        board = klotski.Board.parse(row.board)
        return {
            "width": board.width,
            "height": board.height,
            "pieces": pieces(row.board),
            "legal": list(board.moves(metric="moves")),
            "solved": board.is_solved(),
        }

    def state(self, row: GameRow) -> dict[str, Any]:
        return {"steps": row.steps}  # the unit-step metric beside the classic one

    def move(self, row: GameRow, move: Any) -> Outcome:
        from tilegames import klotski

        if not isinstance(move, str) or not 3 <= len(move) <= 40 or ":" not in move:
            raise BadRequest(
                "a Klotski move is a string like 'G:RD' (one piece, colon, steps)", "bad_move"
            )
        board = klotski.Board.parse(row.board)
        try:
            board.push(move)
        except ValueError as error:
            text = str(error)  # the engine's message names the move already ("move B:U: ..."): once
            raise IllegalMove(text if move in text else f"{move}: {text}") from None
        moves, steps = counts(row, move)
        return Outcome(str(board), moves, move, won=board.is_solved(), steps=steps)

    async def hint(self, services: Services, row: GameRow) -> dict[str, Any]:
        limit = services.limits.solve_seconds
        answer = await services.work(tasks.klotski_hint, row.board, "moves", timeout=limit)
        move = answer["move"]
        piece = move.split(":")[0] if move else None
        cells = [
            [p["row"], p["col"], p["width"], p["height"]]
            for p in pieces(row.board)
            if p["id"] == piece
        ]
        return {"move": move, "piece": piece, "cells": cells}

    async def solve(self, services: Services, row: GameRow) -> dict[str, Any]:
        limit = services.limits.solve_seconds
        return await services.work(tasks.klotski_solve, row.board, "moves", timeout=limit)

    def warm(self) -> None:
        from tilegames import klotski

        board = klotski.Board.parse("ABBC/ABBC/DEEF/DGHF/I..J")
        board.push(next(iter(board.moves("moves"))))
        board.is_solved()
