"""The arcade's JSON API as an OpenAPI 3.1 document, written by hand (served at ``/openapi.json``, shown at ``/docs``)."""

from __future__ import annotations

from typing import Any

from tilegames import __version__


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


ERRORS = {
    "400": _json(_ref("Error"), "the body is not a JSON object (code bad_json)"),
    "404": _json(_ref("Error"), "no game with this id (code no_such_game)"),
    "409": _json(_ref("Error"), "the game is finished, or there is nothing to undo"),
    "413": _json(_ref("Error"), "the body is larger than 16 KiB (code body_too_large)"),
    "422": _json(
        _ref("Error"), "out of bounds, against the rules (illegal_move), or an invalid layout"
    ),
}
HEAVY = {
    "429": _json(_ref("Error"), "too many heavy requests from this client (Retry-After header)"),
    "503": _json(_ref("Error"), "the worker pool is full (code busy)"),
    "504": _json(_ref("Error"), "the solver hit its time limit (code timeout)"),
}
GAME_ID = [{"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}]
CELL = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}

OPENAPI: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {
        "title": "tilegames arcade",
        "version": __version__,
        "description": (
            "Sliding puzzle, Klotski and Lianliankan over JSON. The server is authoritative: send moves, get the "
            "new state; an illegal move is answered 422 with nothing changed. Every error is "
            '{"error": {"code": ..., "message": ...}}. Moves use the notation of the engines: slide "RR" '
            '(letters are the direction the tile travels), Klotski "G:RD", Lianliankan [[r, c], [r, c]].'
        ),
    },
    "paths": {
        "/api/catalog": {
            "get": {
                "summary": "What can be played: slide sizes, Klotski named layouts, Lianliankan sizes and bounds",
                "responses": {"200": _json({"type": "object"}, "the catalog")},
            }
        },
        "/api/games": {
            "post": {
                "summary": "Start a game",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("NewGame")}},
                },
                "responses": {"201": _json(_ref("Game"), "the new game"), **ERRORS, **HEAVY},
            }
        },
        "/api/klotski/check": {
            "post": {
                "summary": "Check a Klotski layout (the editor's live check): the engine's reason if invalid",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["layout"],
                                "properties": {"layout": {"type": "string"}},
                            }
                        }
                    },
                },
                "responses": {
                    "200": _json(
                        {
                            "type": "object",
                            "properties": {
                                "ok": {"type": "boolean"},
                                "layout": {"type": "string"},
                                "variant": {"type": "string"},
                            },
                        },
                        "valid: the layout in notation, and its name when it is a named one",
                    ),
                    **ERRORS,
                },
            }
        },
        "/api/games/{game_id}": {
            "parameters": GAME_ID,
            "get": {
                "summary": "A game's state",
                "responses": {"200": _json(_ref("Game"), "the game"), "404": ERRORS["404"]},
            },
            "delete": {
                "summary": "Forget a game",
                "responses": {"204": {"description": "deleted"}, "404": ERRORS["404"]},
            },
        },
        "/api/games/{game_id}/moves": {
            "parameters": GAME_ID,
            "post": {
                "summary": "Make a move; answered once it is on disk",
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _ref("Move")}},
                },
                "responses": {"200": _json(_ref("Game"), "the state after the move"), **ERRORS},
            },
        },
        "/api/games/{game_id}/undo": {
            "parameters": GAME_ID,
            "post": {
                "summary": "Take back the last move (marks the game as assisted)",
                "responses": {"200": _json(_ref("Game"), "the state before that move"), **ERRORS},
            },
        },
        "/api/games/{game_id}/hint": {
            "parameters": GAME_ID,
            "post": {
                "summary": "A good next move (the first move of an optimal solution where one is in reach)",
                "responses": {"200": _json(_ref("Hint"), "the hint"), **ERRORS, **HEAVY},
            },
        },
        "/api/games/{game_id}/solve": {
            "parameters": GAME_ID,
            "post": {
                "summary": "A solution from the current position (the game no longer counts for best results)",
                "responses": {
                    "200": _json(_ref("Solution"), "the moves, to send one by one"),
                    **ERRORS,
                    **HEAVY,
                },
            },
        },
        "/api/best": {
            "get": {
                "summary": "Best results per game and variant (size or layout)",
                "parameters": [
                    {
                        "name": "game",
                        "in": "query",
                        "schema": {"enum": ["slide", "klotski", "link"]},
                    }
                ],
                "responses": {
                    "200": _json({"type": "object"}, "{best: [Best, ...]}"),
                    "422": ERRORS["422"],
                },
            }
        },
        "/api/health": {
            "get": {"summary": "Liveness", "responses": {"200": {"description": "ok"}}}
        },
    },
    "components": {
        "schemas": {
            "Error": {
                "type": "object",
                "properties": {
                    "error": {
                        "type": "object",
                        "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                    }
                },
            },
            "NewGame": {
                "type": "object",
                "required": ["game"],
                "properties": {
                    "game": {"enum": ["slide", "klotski", "link"]},
                    "width": {"type": "integer", "description": "slide 2..10; link 2..30"},
                    "height": {"type": "integer", "description": "slide 2..10; link 2..16"},
                    "distance": {
                        "type": "integer",
                        "description": "slide 3x3 (0..31) and 4x4 (0..50): exact optimal distance",
                    },
                    "seed": {"type": "integer"},
                    "layout": {
                        "type": "string",
                        "description": "Klotski: a name, an alias or layout notation (at most 200 characters)",
                    },
                    "kinds": {
                        "type": "integer",
                        "description": "link: number of tile kinds; width*height/kinds must be even",
                    },
                    "gravity": {"type": "boolean"},
                },
            },
            "Move": {
                "type": "object",
                "required": ["move"],
                "properties": {
                    "move": {
                        "oneOf": [
                            {"type": "string", "description": 'slide "RR" or Klotski "G:RD"'},
                            {"type": "array", "items": CELL, "description": "link: two cells"},
                        ]
                    }
                },
            },
            "Game": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "game": {"type": "string"},
                    "variant": {"type": "string"},
                    "status": {"enum": ["playing", "won"]},
                    "board": {"type": "string"},
                    "start": {"type": "string"},
                    "moves": {"type": "integer"},
                    "seconds": {"type": "number"},
                    "running": {"type": "boolean"},
                    "optimal": {"type": ["integer", "null"]},
                    "hints": {"type": "integer"},
                    "undos": {"type": "integer"},
                    "autoplay": {"type": "boolean"},
                    "plies": {"type": "integer", "description": "moves on the undo history"},
                    "can_undo": {"type": "boolean"},
                    "steps": {
                        "type": "integer",
                        "description": "klotski: cells moved (unit-step metric; moves is the classic one)",
                    },
                    "best": {"oneOf": [_ref("Best"), {"type": "null"}]},
                    "view": {
                        "type": "object",
                        "description": "the game's own picture: tiles, pieces and legal moves, or the grid",
                    },
                    "last": {
                        "type": "object",
                        "description": "link: the path just drawn, and reshuffled: true",
                    },
                },
            },
            "Best": {
                "type": "object",
                "properties": {
                    "game": {"type": "string"},
                    "variant": {"type": "string"},
                    "played": {"type": "integer"},
                    "fewest_moves": {"type": "integer"},
                    "fastest_seconds": {"type": "number"},
                    "top_score": {"type": ["integer", "null"]},
                    "unassisted": {"type": "integer"},
                },
            },
            "Hint": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "board": {"type": "string"},
                    "hint": {
                        "type": "object",
                        "properties": {
                            "move": {},
                            "cells": {"type": "array"},
                            "path": {"type": "array"},
                        },
                    },
                },
            },
            "Solution": {
                "type": "object",
                "properties": {
                    "moves": {"type": "array"},
                    "length": {"type": "integer"},
                    "optimal": {"type": "boolean"},
                },
            },
        }
    },
}
