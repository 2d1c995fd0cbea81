"""Help counters (a hint or an undo marks a game as assisted; a solver playback as autoplayed)."""

import sqlalchemy as sa
from alembic import op

from tilegames.db.types import INTEGER

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    for column in ("hints", "undos", "autoplay"):
        op.add_column(
            "games", sa.Column(column, INTEGER, nullable=False, server_default=sa.text("0"))
        )
    op.add_column(
        "results", sa.Column("assisted", INTEGER, nullable=False, server_default=sa.text("0"))
    )
    op.create_index("results_by_variant", "results", ["game", "variant"])
