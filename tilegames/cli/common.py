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


def printable(text: str) -> str:
    """`text` with control characters (and lone surrogates) escaped, so echoed input cannot drive a terminal."""
    return "".join(c if c.isprintable() or c == " " else ascii(c)[1:-1] for c in text)


def fail(message: str, status: int) -> int:
    """Print one line on stderr (prefixed `tilegames: `, control characters escaped); return `status`."""
    prefix = "" if message.startswith("tilegames") else "tilegames: "
    line = printable(f"{prefix}{message}")
    print(line, file=sys.stderr)
    return status


def seed(text: str) -> int:
    """An argparse type: a seed is an int >= 0 (``Random(-n)`` repeats ``Random(n)``: refused, as the API does)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed {text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed must be 0 or more, not {value}")
    return value


def add_limits(parser: argparse.ArgumentParser, nodes: str = "search nodes") -> None:
    """`--max-nodes` and `--timeout`: every verb that searches takes both."""
    parser.add_argument("--max-nodes", type=int, metavar="N", help=f"stop after N {nodes}")
    parser.add_argument(
        "--timeout", type=float, metavar="S", help="stop the search after S seconds"
    )


def limits(
    args: argparse.Namespace, default_nodes: int | None = None, default_timeout: float | None = None
) -> Any:
    """The tilegames.common.Limits of `--max-nodes` / `--timeout` (ValueError, so exit 2, when bad).
    The default node limit holds only when neither is given: a `--timeout` alone bounds the search
    in seconds (and lets Lianliankan's use both cores, which a node limit forbids)."""
    from tilegames.common import Limits

    max_nodes = args.max_nodes
    if max_nodes is None and args.timeout is None:
        max_nodes = default_nodes
    timeout = args.timeout if args.timeout is not None else default_timeout
    return Limits(max_nodes, timeout)


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
