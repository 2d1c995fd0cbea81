"""The arcade's JSON API as an OpenAPI 3.1 document (served at ``/openapi.json``, shown at ``/docs``).

The schemas are generated from the Pydantic models of :mod:`tilegames.web.models`; this module only lists the
paths, which model each one takes and answers, and the errors it can give.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from tilegames import __version__
from tilegames.web import models

REQUESTS = (models.NewGame, models.Move, models.Undo, models.LayoutCheck)


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _json(model: type[BaseModel], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(model)}}}


def _body(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": _ref(model)}}}


def _error(description: str) -> dict[str, Any]:
    return _json(models.Error, description)


ERRORS = {
    "400": _error("the body is not a JSON object (code bad_json)"),
    "404": _error("no game with this id (code no_such_game)"),
    "409": _error(
        "game_over, nothing_to_undo, conflict (the game is not at the ply sent: reload it),"
        " paused (resume the game first), or too_many_moves (the game's ply cap)"
    ),
    "413": _error("the body is larger than 16 KiB (code body_too_large)"),
    "422": _error(
        "out of bounds, against the rules (illegal_move; one_action: a move is one line, one piece"
        " or one pair), or an invalid layout"
    ),
    "503": _error("the store cannot write (code storage_unavailable)"),
    "507": _error("the server's disk is full (code storage_full); try again later"),
}
MOVES = {"429": _error("moves too fast for this game or client (code rate_limited, Retry-After)")}
HEAVY = {
    "429": _error("too many heavy requests from this client (Retry-After header)"),
    "503": _error("the worker pool is full (code busy), or the store cannot write"),
    "504": _error("the solver hit its time limit (code timeout)"),
}
GAME_ID = [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}]


def _schemas() -> dict[str, Any]:
    pairs: list[tuple[type[BaseModel], JsonSchemaMode]] = [
        (model, "validation" if model in REQUESTS else "serialization") for model in models.MODELS
    ]
    _, definitions = models_json_schema(pairs, ref_template="#/components/schemas/{model}")
    schemas: dict[str, Any] = definitions["$defs"]
    return schemas


def build() -> dict[str, Any]:
    """The document: the paths below and the models' JSON schemas."""
    paths: dict[str, Any] = {
        "/api/catalog": {
            "get": {
                "summary": "What can be played: slide sizes, Klotski named layouts, Lianliankan bounds",
                "responses": {
                    "200": {
                        "description": "the catalog, one entry per game",
                        "content": {"application/json": {"schema": {"type": "object"}}},
                    }
                },
            }
        },
        "/api/games": {
            "post": {
                "summary": "Start a game",
                "requestBody": _body(models.NewGame),
                "responses": {"201": _json(models.Game, "the new game"), **ERRORS, **HEAVY},
            }
        },
        "/api/klotski/check": {
            "post": {
                "summary": "Check a Klotski layout (the editor's live check): the engine's reason if invalid",
                "requestBody": _body(models.LayoutCheck),
                "responses": {"200": _json(models.LayoutChecked, "valid"), **ERRORS},
            }
        },
        "/api/games/{game_id}": {
            "parameters": GAME_ID,
            "get": {
                "summary": "A game's state",
                "responses": {"200": _json(models.Game, "the game"), "404": ERRORS["404"]},
            },
            "delete": {
                "summary": "Forget a game",
                "responses": {"204": {"description": "deleted"}, "404": ERRORS["404"]},
            },
        },
        "/api/games/{game_id}/moves": {
            "parameters": GAME_ID,
            "post": {
                "summary": "Make one move; answered once it is on disk",
                "requestBody": _body(models.Move),
                "responses": {
                    "200": _json(models.Game, "the state after the move (with `record` on a win)"),
                    **ERRORS,
                    **MOVES,
                },
            },
        },
        "/api/games/{game_id}/undo": {
            "parameters": GAME_ID,
            "post": {
                "summary": "Take back the last move (allowed for records; its moves still count)",
                "requestBody": _body(models.Undo, required=False),
                "responses": {
                    "200": _json(models.Game, "the state before that move"),
                    **ERRORS,
                    **MOVES,
                },
            },
        },
        "/api/games/{game_id}/hint": {
            "parameters": GAME_ID,
            "post": {
                "summary": "A good next move (the game then sets no record)",
                "responses": {"200": _json(models.Hint, "the hint"), **ERRORS, **HEAVY},
            },
        },
        "/api/games/{game_id}/solve": {
            "parameters": GAME_ID,
            "post": {
                "summary": "A solution from the current position (the game then sets no record)",
                "responses": {
                    "200": _json(models.Solution, "the moves, to send one by one"),
                    **ERRORS,
                    **HEAVY,
                },
            },
        },
        "/api/games/{game_id}/pause": {
            "parameters": GAME_ID,
            "post": {
                "summary": "Pause: the clock and the Lianliankan score stand still; moves wait for resume",
                "responses": {
                    "200": _json(models.Game, "the paused game (pausing twice changes nothing)"),
                    **ERRORS,
                    **MOVES,
                },
            },
        },
        "/api/games/{game_id}/resume": {
            "parameters": GAME_ID,
            "post": {
                "summary": "Resume a paused game: its clock runs again from now",
                "responses": {
                    "200": _json(models.Game, "the game, running again"),
                    **ERRORS,
                    **MOVES,
                },
            },
        },
        "/api/games/{game_id}/analysis": {
            "parameters": GAME_ID,
            "get": {
                "summary": "Analysis: the distance to solved and each legal move better / same / worse"
                " (the game then sets no record)",
                "responses": {"200": _json(models.Analysis, "the analysis"), **ERRORS, **HEAVY},
            },
        },
        "/api/best": {
            "get": {
                "summary": "The table of bests per game and variant (each kind of deal its own)",
                "parameters": [
                    {
                        "name": "game",
                        "in": "query",
                        "schema": {"enum": ["slide", "klotski", "link"]},
                    }
                ],
                "responses": {
                    "200": _json(models.BestList, "the bests"),
                    "422": ERRORS["422"],
                },
            }
        },
        "/api/progress": {
            "get": {
                "summary": "The player's progress (X-Player: 16-64 URL-safe characters), per variant",
                "parameters": [
                    {
                        "name": "game",
                        "in": "query",
                        "schema": {"enum": ["slide", "klotski", "link"]},
                    },
                    {"name": "X-Player", "in": "header", "schema": {"type": "string"}},
                ],
                "responses": {
                    "200": _json(models.Progress, "the progress"),
                    "422": ERRORS["422"],
                },
            }
        },
        "/api/health": {
            "get": {
                "summary": "Ok only when the store can write",
                "responses": {
                    "200": _json(models.Health, "ok"),
                    "503": _json(models.Health, "the store cannot write (ok: false)"),
                },
            }
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "tilegames arcade",
            "version": __version__,
            "description": (
                "Sliding puzzle, Klotski and Lianliankan over JSON. The server is authoritative: send one"
                " move, get the new state; an illegal move is answered 422 with nothing changed. Every"
                ' error is {"error": {"code": ..., "message": ...}}. Moves use the notation of the'
                ' engines: slide "RR" (letters are the direction the tile travels), Klotski "G:RD",'
                " Lianliankan [[r, c], [r, c]]. Send the game's `plies` as `ply` with a move or an undo:"
                " a stale tab then gets 409 conflict instead of moving a board it never saw."
            ),
        },
        "paths": paths,
        "components": {"schemas": _schemas()},
    }


OPENAPI: dict[str, Any] = build()
