"""Games, their plies (one row per accepted move, with the board before it, for undo), results."""

import sqlalchemy as sa
from alembic import op

from tilegames.db.types import INTEGER, REAL, TEXT

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", TEXT, primary_key=True),
        sa.Column("game", TEXT, nullable=False),
        sa.Column("variant", TEXT, nullable=False),
        sa.Column("start", TEXT, nullable=False),
        sa.Column("board", TEXT, nullable=False),
        sa.Column("options", TEXT, nullable=False, server_default="{}"),
        sa.Column("status", TEXT, nullable=False, server_default="playing"),
        sa.Column("moves", INTEGER, nullable=False, server_default=sa.text("0")),
        sa.Column("seconds", REAL, nullable=False, server_default=sa.text("0")),
        sa.Column("last_action", REAL),
        sa.Column("created", REAL, nullable=False),
        sa.Column("updated", REAL, nullable=False),
    )
    op.create_table(
        "plies",
        sa.Column("game_id", TEXT, sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("ply", INTEGER, nullable=False),
        sa.Column("move", TEXT, nullable=False),
        sa.Column("before", TEXT, nullable=False),
        sa.Column("moves_before", INTEGER, nullable=False),
        sa.PrimaryKeyConstraint("game_id", "ply"),
    )
    op.create_table(
        "results",
        sa.Column("game_id", TEXT, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("game", TEXT, nullable=False),
        sa.Column("variant", TEXT, nullable=False),
        sa.Column("moves", INTEGER, nullable=False),
        sa.Column("seconds", REAL, nullable=False),
        sa.Column("score", INTEGER),
        sa.Column("finished", REAL, nullable=False),
    )
