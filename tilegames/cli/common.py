"""What every verb shares: a parser that fails in one line, JSON or text output, exit codes."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

DONE, NOT_FOUND, BAD_INPUT = 0, 1, 2


class CommandError(Exception):
    """Ends a command with a one-line message on stderr and the given exit status."""

    def __init__(self, message: str, status: int = BAD_INPUT) -> None:
        super().__init__(message)
        self.status = status


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{self.prog}: {message}", BAD_INPUT)


def fail(message: str, status: int) -> int:
    prefix = "" if message.startswith("tilegames") else "tilegames: "
    print(f"{prefix}{message}", file=sys.stderr)
    return status


def emit(payload: dict[str, Any], as_json: bool, text: str | None = None) -> None:
    """Print one JSON object with --json, else the human-readable text (or the payload's fields)."""
    if as_json:
        print(json.dumps(payload, ensure_ascii=False))
    elif text is not None:
        print(text)
    else:
        for key, value in payload.items():
            print(f"{key}: {value}")


def size(text: str, limit: int = 1000) -> tuple[int, int]:
    """Parse a `WxH` size such as `4x4` or `18x8`; both sides from 2 to `limit`."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(
        part.strip().isascii() and part.strip().isdigit() for part in parts
    ):
        raise CommandError(f"size {text!r} is not of the form WxH, e.g. 4x4")
    width, height = (int(part) for part in parts)
    for name, value in (("width", width), ("height", height)):
        if not 2 <= value <= limit:
            raise CommandError(f"{name} {value} is out of range 2..{limit}")
    return width, height


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")
