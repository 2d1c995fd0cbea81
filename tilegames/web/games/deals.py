"""Deal ids: a short, URL-safe text naming a deal exactly, so it can be shared, restarted and replayed.

Grammar (documented in docs/arcade.md): ``<game>-<rest>``, characters ``A-Z a-z 0-9 . _ -`` only.

- ``slide-4x4-s123456`` (uniform), ``slide-4x4-d30-s123456`` (exactly 30 moves from solved);
- ``klotski-heng-dao-li-ma`` (a named layout by alias), ``klotski-level-37`` (the generated pack),
  ``klotski-ABBC_ABBC_DEEF_DGHF_I..J`` (any layout: its notation with ``/`` written ``_``);
- ``link-18x8-k36-s42``, ``link-18x8-k36-g-s42`` (``g``: gravity);
- ``<game>-daily-2026-11-23``: the daily puzzle of that date (the same for every player).

Each adapter turns its own ids into the body of ``POST /api/games`` (``from_deal``) and names a stored game's
deal (``deal_id``); this module holds what they share.
"""

from __future__ import annotations

import datetime
import hashlib
import re
from typing import Any

from tilegames.web.games import BadRequest

DEAL_CHARS = re.compile(r"[A-Za-z0-9._-]{3,200}")
DAILY = re.compile(r"daily-(\d{4}-\d{2}-\d{2})")
SIZE = re.compile(r"(\d{1,2})x(\d{1,2})")
NUMBER = re.compile(r"([a-z])(\d{1,19})")


def bad_deal(text: str, why: str) -> BadRequest:
    return BadRequest(f"deal {text!r} is not a deal id: {why}", "bad_deal")


def split(text: Any) -> tuple[str, str]:
    """``(game, rest)`` of a deal id, checking its characters (422 ``bad_deal`` otherwise)."""
    if not isinstance(text, str) or not DEAL_CHARS.fullmatch(text):
        raise BadRequest(
            "deal must be a deal id such as slide-4x4-s42 (letters, digits, '.', '_', '-')",
            "bad_deal",
        )
    game, _, rest = text.partition("-")
    if not rest:
        raise bad_deal(text, "nothing after the game's name")
    return game, rest


def today() -> str:
    """Today's date in UTC, as the daily puzzle names it."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def daily_date(value: Any) -> str:
    """A daily puzzle's date: ``true`` for today, or a date ``YYYY-MM-DD`` no later than tomorrow (UTC)."""
    if value is True:
        return today()
    try:
        day = datetime.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        day = None
    if day is None or len(value) != 10:
        raise BadRequest("daily must be true (today) or a date such as 2026-11-23", "bad_parameter")
    if day > datetime.datetime.now(datetime.UTC).date() + datetime.timedelta(days=1):
        raise BadRequest(f"the daily puzzle of {value} is not out yet", "out_of_range")
    return day.isoformat()


def dated(
    params: dict[str, Any], variant: str, label: str, options: dict[str, Any]
) -> tuple[str, str]:
    """A daily puzzle's own variant and label (its date kept in ``options``); any other deal's unchanged."""
    day = params.get("daily")
    if not day:
        return variant, label
    options["daily"] = day
    return f"daily {day}", f"daily puzzle {day} · {label}"


def daily_seed(date: str, game: str) -> int:
    """The daily deal's seed: a hash of ``"<date>/<game>"``, the same on every server."""
    return int.from_bytes(hashlib.sha256(f"{date}/{game}".encode()).digest()[:4], "big")


def daily_of(rest: str) -> dict[str, Any] | None:
    """The body of a ``daily-YYYY-MM-DD`` deal, or None when ``rest`` is not one."""
    found = DAILY.fullmatch(rest)
    return {"daily": found.group(1)} if found else None


def fields(text: str, rest: str) -> tuple[tuple[int, int], dict[str, int], set[str]]:
    """A ``WxH-k36-g-s42`` rest as (size, numbered fields by letter, bare flags)."""
    head, *parts = rest.split("-")
    size = SIZE.fullmatch(head)
    if size is None:
        raise bad_deal(text, f"{head!r} is not a size such as 4x4")
    numbers: dict[str, int] = {}
    flags: set[str] = set()
    for part in parts:
        found = NUMBER.fullmatch(part)
        if found and found.group(1) not in numbers:
            numbers[found.group(1)] = int(found.group(2))
        elif part.isalpha() and len(part) == 1 and part not in flags:
            flags.add(part)
        else:
            raise bad_deal(text, f"unknown part {part!r}")
    return (int(size.group(1)), int(size.group(2))), numbers, flags


def request_of(text: Any) -> dict[str, Any]:
    """The ``POST /api/games`` body a deal id stands for (422 ``bad_deal`` when it names no deal)."""
    from tilegames.web.games import REGISTRY

    game, rest = split(text)
    found = REGISTRY.get(game)
    if found is None:
        raise bad_deal(text, f"no game is called {game!r} (slide, klotski, link)")
    return {"game": game, **found.from_deal(text, rest)}
