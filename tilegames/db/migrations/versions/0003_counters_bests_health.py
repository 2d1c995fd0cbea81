"""O(1) per request and honest records: the store's migration 3 (tilegames.store.schema), on both dialects.

Counters kept with the game row (plies, last move, Klotski's steps, moves taken back), each kind of deal its own
variant, a table of bests per variant, results that outlive their games (no cascade), the purge index and the
health row. The data updates matter only for databases that already hold games; SQLite and PostgreSQL spell
``instr``/``json_extract`` differently, so those two statements are written once per dialect.
"""

import sqlalchemy as sa
from alembic import op

from tilegames.db.types import INTEGER, REAL, TEXT

revision = "0003"
down_revision = "0002"

_ZERO = sa.text("0")

#: Klotski's unit steps of one move ("G:DD" -> 2), per dialect.
_STEPS = {
    "sqlite": "length(q.move) - instr(q.move, ':')",
    "postgresql": "length(q.move) - strpos(q.move, ':')",
}
#: The exact-distance option of a slide deal, as text, per dialect.
_DISTANCE = {
    "sqlite": "json_extract(options, '$.distance')",
    "postgresql": "(options::json ->> 'distance')",
}


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    # In the order the store's SQL added them (the schema test compares SQLite column for column).
    op.add_column("games", sa.Column("plies", INTEGER, nullable=False, server_default=_ZERO))
    op.add_column("games", sa.Column("last_move", TEXT))
    op.add_column("games", sa.Column("steps", INTEGER, nullable=False, server_default=_ZERO))
    op.add_column("games", sa.Column("label", TEXT, nullable=False, server_default=""))
    op.add_column("games", sa.Column("taken_back", INTEGER, nullable=False, server_default=_ZERO))
    op.add_column("plies", sa.Column("steps_before", INTEGER, nullable=False, server_default=_ZERO))
    steps = _STEPS[dialect]
    op.execute(
        "UPDATE games SET"
        " plies = (SELECT COUNT(*) FROM plies p WHERE p.game_id = games.id),"
        " last_move = (SELECT move FROM plies p WHERE p.game_id = games.id ORDER BY ply DESC LIMIT 1)"
    )
    op.execute(
        f"UPDATE plies SET steps_before = (SELECT COALESCE(SUM({steps}), 0) FROM plies q"
        " WHERE q.game_id = plies.game_id AND q.ply < plies.ply)"
        " WHERE game_id IN (SELECT id FROM games WHERE game = 'klotski')"
    )
    op.execute(
        f"UPDATE games SET steps = (SELECT COALESCE(SUM({steps}), 0) FROM plies q"
        " WHERE q.game_id = games.id) WHERE game = 'klotski'"
    )
    distance = _DISTANCE[dialect]
    op.execute(
        f"UPDATE games SET variant = variant || ' d' || {distance}"
        f" WHERE game = 'slide' AND {distance} IS NOT NULL"
    )
    op.execute("UPDATE games SET label = variant")
    _results_without_cascade()
    op.create_table(
        "bests",
        sa.Column("game", TEXT, nullable=False),
        sa.Column("variant", TEXT, nullable=False),
        sa.Column("label", TEXT, nullable=False),
        sa.Column("played", INTEGER, nullable=False, server_default=_ZERO),
        sa.Column("unassisted", INTEGER, nullable=False, server_default=_ZERO),
        sa.Column("fewest_moves", INTEGER),
        sa.Column("fastest_seconds", REAL),
        sa.Column("top_score", INTEGER),
        sa.Column("updated", REAL, nullable=False),
        sa.PrimaryKeyConstraint("game", "variant"),
    )
    op.execute(
        "INSERT INTO bests SELECT game, variant, variant, COUNT(*),"
        " SUM(CASE WHEN assisted = 0 THEN 1 ELSE 0 END),"
        " CASE WHEN game = 'link' THEN NULL ELSE MIN(CASE WHEN assisted = 0 THEN moves END) END,"
        " MIN(CASE WHEN assisted = 0 THEN seconds END),"
        " MAX(CASE WHEN assisted = 0 THEN score END), MAX(finished)"
        " FROM results GROUP BY game, variant"
    )
    op.create_index("games_abandoned", "games", ["status", "updated"])
    op.create_table(
        "health",
        sa.Column("id", INTEGER, primary_key=True, autoincrement=False),
        sa.Column("checked", REAL, nullable=False),
        sa.CheckConstraint("id = 1", name="health_one_row"),
    )


def _results_without_cascade() -> None:
    """Results outlive their games: drop the foreign key, and take each result's variant from its game."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "UPDATE results SET variant = g.variant FROM games g WHERE g.id = results.game_id"
        )
        op.drop_constraint("results_game_id_fkey", "results", type_="foreignkey")
        return
    # SQLite cannot drop a constraint: rebuild the table as the store's SQL does.
    op.create_table(
        "results3",
        sa.Column("game_id", TEXT, primary_key=True),
        sa.Column("game", TEXT, nullable=False),
        sa.Column("variant", TEXT, nullable=False),
        sa.Column("moves", INTEGER, nullable=False),
        sa.Column("seconds", REAL, nullable=False),
        sa.Column("score", INTEGER),
        sa.Column("finished", REAL, nullable=False),
        sa.Column("assisted", INTEGER, nullable=False, server_default=_ZERO),
    )
    op.execute(
        "INSERT INTO results3 SELECT r.game_id, r.game, COALESCE(g.variant, r.variant), r.moves,"
        " r.seconds, r.score, r.finished, r.assisted FROM results r LEFT JOIN games g ON g.id = r.game_id"
    )
    op.drop_index("results_by_variant", "results")
    op.drop_table("results")
    op.rename_table("results3", "results")
    op.create_index("results_by_variant", "results", ["game", "variant"])
