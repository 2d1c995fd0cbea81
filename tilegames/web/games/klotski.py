"""Klotski on the web: named and custom layouts, the classic move count and the unit steps, hints and solves."""

from __future__ import annotations

import functools
from typing import Any

from tilegames.store import GameRow
from tilegames.web import tasks
from tilegames.web.games import BadRequest, Base, Deal, IllegalMove, Outcome, Services, deals
from tilegames.web.limits import ServerLimits


@functools.cache
def levels() -> tuple[dict[str, Any], ...]:
    """Every level the level screen shows, easiest first: the named layouts (Chinese name, pinyin alias, English
    name) and the generated pack ("Level 37"), each with its proven optimal length and its deal id."""
    from tilegames import klotski
    from tilegames.klotski.layouts import named_optimal, pack

    optimal = named_optimal()
    named = [
        {"name": n.name, "alias": n.alias, "english": n.english, "layout": n.layout,
         "optimal": optimal.get(n.alias), "kind": "named", "deal": f"klotski-{n.alias}"}
        for n in klotski.NAMED_LAYOUTS
    ]  # fmt: skip
    generated = [
        {"name": p.name, "alias": p.name.lower().replace(" ", "-"), "english": p.name,
         "layout": p.layout, "optimal": p.optimal, "kind": "pack",
         "deal": f"klotski-{p.name.lower().replace(' ', '-')}"}
        for p in pack()
    ]  # fmt: skip
    return (*sorted(named, key=lambda n: n["optimal"] or 999), *generated)


def level(key: str) -> dict[str, Any] | None:
    """A level by name, alias (``level-37``) or "Level 37"."""
    return next((lv for lv in levels() if key in (lv["name"], lv["alias"])), None)


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
    records: tuple[str, ...] = ("moves", "seconds")

    def catalog(self, limits: ServerLimits) -> dict[str, Any]:
        from tilegames import klotski

        return {
            "layouts": [
                {"name": n.name, "alias": n.alias, "english": n.english, "layout": str(n.board)}
                for n in klotski.NAMED_LAYOUTS
            ],
            "sides": list(limits.klotski_sides),
            "max_cells": limits.klotski_cells,
            "levels": list(levels()),
        }

    def params(self, body: dict[str, Any], limits: ServerLimits) -> dict[str, Any]:
        from tilegames import klotski

        if (
            body.get("daily") is not None
        ):  # the daily puzzle: a level of the pack, drawn from the date
            date = deals.daily_date(body["daily"])
            pick = [lv for lv in levels() if lv["kind"] == "pack"]
            chosen = pick[deals.daily_seed(date, self.name) % len(pick)]
            return {"layout": chosen["layout"], "variant": f"daily {date}", "daily": date,
                    "level": chosen["name"]}  # fmt: skip
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
        generated = level(text)
        if generated is not None and generated["kind"] == "pack":
            return {"layout": generated["layout"], "variant": generated["name"]}
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
        elif params.get("daily"):
            label = f"daily puzzle {params['daily']} · {params['level']}"
        else:
            label = variant
        options = {"optimal": dealt["optimal"], "metric": "moves"}
        if params.get("daily"):
            options["daily"] = params["daily"]
        return Deal(dealt["board"], variant, label, options)

    def from_deal(self, text: str, rest: str) -> dict[str, Any]:
        """The new-game body of a deal id: an alias, ``level-37``, a layout with ``_`` for ``/``, a daily."""
        daily = deals.daily_of(rest)
        if daily is not None:
            return daily
        if "_" in rest:
            return {"layout": rest.replace("_", "/")}
        if level(rest) is None:
            raise deals.bad_deal(text, f"no Klotski layout is called {rest!r}")
        return {"layout": rest}

    def deal_id(self, row: GameRow) -> str | None:
        """The deal id of a stored game: its level's alias, or its starting layout."""
        if row.options.get("daily"):
            return f"klotski-daily-{row.options['daily']}"
        known = level(row.variant)
        if known is not None:
            return str(known["deal"])
        return "klotski-" + row.start.replace("/", "_")

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

    async def analyse(self, services: Services, row: GameRow) -> dict[str, Any]:
        from tilegames import klotski
        from tilegames.web import analysis_tasks
        from tilegames.web.limits import klotski_max_states

        board = klotski.Board.parse(row.board)
        states = klotski_max_states(board.width, board.height)
        limit = services.limits.solve_seconds
        return await services.work(
            analysis_tasks.klotski_analysis, row.board, states, timeout=limit
        )

    def warm(self) -> None:
        from tilegames import klotski

        board = klotski.Board.parse("ABBC/ABBC/DEEF/DGHF/I..J")
        board.push(next(iter(board.moves("moves"))))
        board.is_solved()
