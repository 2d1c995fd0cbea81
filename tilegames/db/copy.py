"""Copy an arcade from one database to another (SQLite file -> PostgreSQL, typically), all or nothing.

The target is migrated to the newest schema first. Tables are found by reflection, so every table present in
both databases is copied (games, plies, results today, and whatever later revisions add), parents before
children, in one transaction on the target; the row count of each table is then checked against the source
before the commit. The source is opened read-only and never changed; an older source (fewer columns) copies,
and the target's defaults fill what it lacks. A target that already holds rows is refused unless ``force``,
which empties the copied tables first (in the same transaction).
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tilegames.db.migrate import engine_for, migrate
from tilegames.db.url import Target

#: Rows read and written at a time.
CHUNK = 2000

_SKIP = {"alembic_version"}


class CopyError(ValueError):
    """The copy was refused or did not verify; the target is unchanged."""


@dataclass(frozen=True)
class Copied:
    """What one copy did."""

    tables: dict[str, int]
    """Rows copied per table (verified equal in source and target), in copy order."""
    skipped: tuple[str, ...]
    """Source tables the target does not have (not copied)."""
    replaced: int
    """Rows deleted from the target first (only with ``force``)."""


def copy_database(source: Target, target: Target, *, force: bool = False) -> Copied:
    """Copy every table present in both databases from ``source`` to ``target`` (migrated to head first)."""
    if source.backend == "sqlite":
        assert source.path is not None
        if not source.path.is_file():
            raise CopyError(f"source database {source.path} does not exist")
    if source == target:
        raise CopyError("source and target are the same database")
    migrate(target)
    source_engine = _read_only(source)
    target_engine = engine_for(target)
    try:
        with source_engine.connect() as src, target_engine.begin() as dst:
            return _copy(src, dst, force)
    except sa.exc.DatabaseError as error:
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        raise CopyError(f"copy from {source} to {target} failed: {reason}") from error
    finally:
        source_engine.dispose()
        target_engine.dispose()


def _read_only(target: Target) -> sa.Engine:
    if target.backend == "sqlite":
        return sa.create_engine(
            f"sqlite:///file:{target.path}?mode=ro&uri=true", connect_args={"timeout": 60.0}
        )
    return sa.create_engine(target.sqlalchemy_url, execution_options={"postgresql_readonly": True})


def _copy(src: Connection, dst: Connection, force: bool) -> Copied:
    source = sa.MetaData()
    source.reflect(src)
    target = sa.MetaData()
    target.reflect(dst)
    names = set(source.tables) - _SKIP
    order = [t for t in target.sorted_tables if t.name in names]
    skipped = tuple(sorted(n for n in names - set(target.tables) if not n.startswith("sqlite_")))
    for table in order:
        extra = set(source.tables[table.name].c.keys()) - set(table.c.keys())
        if extra:
            raise CopyError(
                f"table {table.name}: the target has no column {', '.join(sorted(extra))}"
                " (is the source newer than this program?)"
            )
    replaced = 0
    present = {t.name: _count(dst, t) for t in order}
    if any(present.values()):
        if not force:
            filled = ", ".join(f"{n} ({c} rows)" for n, c in present.items() if c)
            raise CopyError(f"the target is not empty: {filled}; pass --force to replace its rows")
        for table in reversed(order):
            replaced += dst.execute(table.delete()).rowcount
    copied: dict[str, int] = {}
    for table in order:
        columns = list(source.tables[table.name].c.keys())
        select = sa.select(*(source.tables[table.name].c[c] for c in columns))
        result = src.execute(select)
        while rows := result.fetchmany(CHUNK):
            dst.execute(table.insert(), [dict(zip(columns, row, strict=True)) for row in rows])
        want, got = _count(src, source.tables[table.name]), _count(dst, table)
        if want != got:
            raise CopyError(f"table {table.name}: {want} rows in the source but {got} copied")
        copied[table.name] = got
    return Copied(copied, skipped, replaced)


def _count(connection: Connection, table: sa.Table) -> int:
    return connection.execute(sa.select(sa.func.count()).select_from(table)).scalar_one()
