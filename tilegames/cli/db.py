"""`tilegames db`: migrate a database to the newest schema, or copy an arcade into another database."""

from __future__ import annotations

import argparse

from tilegames.cli.common import Parser, add_json, emit


def add_parser(games: argparse._SubParsersAction[Parser]) -> None:
    parser: Parser = games.add_parser("db", help="migrate or copy the arcade's database")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    migrate = verbs.add_parser("migrate", help="bring a database to the newest schema")
    migrate.add_argument(
        "--db",
        default=None,
        help="SQLite file or postgresql:// URL (default: the user's SQLite file)",
    )
    add_json(migrate)
    migrate.set_defaults(run=run_migrate)

    copy = verbs.add_parser(
        "copy", help="copy every table into another database (migrated first) and check the counts"
    )
    copy.add_argument("--from", dest="source", required=True, help="the database to read")
    copy.add_argument("--to", dest="target", required=True, help="the database to fill")
    copy.add_argument(
        "--force", action="store_true", help="replace the rows a non-empty target already holds"
    )
    add_json(copy)
    copy.set_defaults(run=run_copy)


def run_migrate(args: argparse.Namespace) -> int:
    from tilegames.db import HEAD, migrate, parse_target

    target = parse_target(args.db)
    applied = migrate(target)
    text = (
        f"{target}: applied {', '.join(applied)}; now at {HEAD}"
        if applied
        else f"{target}: already at {HEAD}"
    )
    emit({"database": str(target), "applied": list(applied), "revision": HEAD}, args.json, text)
    return 0


def run_copy(args: argparse.Namespace) -> int:
    from tilegames.db import parse_target
    from tilegames.db.copy import copy_database

    source, target = parse_target(args.source), parse_target(args.target)
    copied = copy_database(source, target, force=args.force)
    lines = [f"copied {source} -> {target}"]
    lines += [f"  {name}: {count} rows" for name, count in copied.tables.items()]
    if copied.replaced:
        lines.append(f"  (replaced {copied.replaced} rows the target held)")
    if copied.skipped:
        lines.append(f"  skipped (not in the target's schema): {', '.join(copied.skipped)}")
    payload = {
        "from": str(source),
        "to": str(target),
        "tables": copied.tables,
        "replaced": copied.replaced,
        "skipped": list(copied.skipped),
    }
    emit(payload, args.json, "\n".join(lines))
    return 0
