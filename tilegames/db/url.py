"""What ``--db`` takes: nothing (the default SQLite file), a file path, or a libpq ``postgresql://`` URL.

:func:`parse_target` turns it into a frozen :class:`Target` that knows its backend, a SQLAlchemy URL (for the
migrations and ``db copy``) and, for PostgreSQL, a libpq conninfo (for the psycopg pool). Bad input raises a
:class:`TargetError` whose message is one line naming the problem, before anything connects.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal
from urllib.parse import parse_qsl, unquote, urlsplit

from sqlalchemy.engine import URL

#: ``name://`` at the start of the text: a URL, not a file path (a Windows ``C:\\`` has no ``//``).
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_POSTGRES_SCHEMES = ("postgresql", "postgres")


class TargetError(ValueError):
    """``--db`` names no usable database: an unknown scheme, a URL without a database, an unwritable path."""


@dataclass(frozen=True)
class Target:
    """A database the arcade can use."""

    backend: Literal["sqlite", "postgresql"]
    sqlalchemy_url: URL
    """For SQLAlchemy (``sqlite:///...`` or ``postgresql+psycopg://...``)."""
    path: Path | None = None
    """The SQLite file; None for PostgreSQL."""
    conninfo: str | None = None
    """The libpq URL as given, for psycopg; None for SQLite."""

    def __str__(self) -> str:
        """The target with any password hidden, for messages and logs."""
        if self.path is not None:
            return str(self.path)
        return self.sqlalchemy_url.set(drivername="postgresql").render_as_string(hide_password=True)


def parse_target(text: str | os.PathLike[str] | None) -> Target:
    """Parse a ``--db`` value: None for the default SQLite file, a path, or a ``postgresql://`` URL."""
    if text is None:
        from tilegames.store import default_path

        return sqlite_target(default_path())
    text = os.fspath(text)
    if not text.strip():
        raise TargetError("--db is empty: give a SQLite file or a postgresql:// URL")
    match = _SCHEME.match(text)
    if match is None:
        return sqlite_target(Path(text).expanduser())
    scheme = match.group(1).lower()
    if scheme in _POSTGRES_SCHEMES:
        return postgres_target(text)
    if scheme == "sqlite":
        rest = text[len("sqlite://") :]
        if not rest.startswith("/") or rest == "/":
            raise TargetError(f"{text!r}: a sqlite URL is sqlite:///path/to/file.sqlite3")
        return sqlite_target(Path(rest[1:] if rest.startswith("//") else rest))
    raise TargetError(
        f"unknown database scheme {scheme!r}: use a SQLite file path or postgresql://USER@HOST/DBNAME"
    )


def sqlite_target(path: Path) -> Target:
    """A SQLite file; its directory (or the nearest one that exists) must be writable."""
    path = path.absolute()
    if path.is_dir():
        raise TargetError(f"{path} is a directory, not a database file")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise TargetError(f"{path} is not readable and writable")
    ancestor = path.parent
    while not ancestor.exists():
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise TargetError(f"{ancestor} is a file, so {path} cannot be created under it")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise TargetError(f"directory {ancestor} is read-only, so {path} cannot be written")
    return Target("sqlite", URL.create("sqlite", database=str(path)), path=path)


def postgres_target(text: str) -> Target:
    """A libpq URL ``postgresql://USER:PASSWORD@HOST:PORT/DBNAME?host=/socket/dir&...``."""
    parts = urlsplit(text)
    database = unquote(parts.path.lstrip("/"))
    if not database:
        raise TargetError(f"{_hide(text)!r} names no database: add /DBNAME after the host")
    if "/" in database:
        raise TargetError(f"{_hide(text)!r}: the database name {database!r} contains '/'")
    try:
        port = parts.port
    except ValueError:
        raise TargetError(f"{_hide(text)!r}: the port is not a number from 0 to 65535") from None
    query: dict[str, str] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True, strict_parsing=False):
        query[key] = value
    if "port" in query and not query["port"].isdigit():
        raise TargetError(f"{_hide(text)!r}: port={query['port']!r} is not a number")
    url = URL.create(
        "postgresql+psycopg",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
        host=unquote(parts.hostname) if parts.hostname else None,
        port=port,
        database=database,
        query=query,
    )
    return Target("postgresql", url, conninfo=text)


def _hide(text: str) -> str:
    """The URL with its password replaced by ``***`` (error messages are printed and logged)."""
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", text)
