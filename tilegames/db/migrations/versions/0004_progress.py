"""Progress per player: the store's migration 4 (tilegames.store.schema), on both dialects.

No accounts: a random id the browser keeps. Per game and variant (a Klotski level, a sliding-puzzle rung, a
Lianliankan size): how often it was solved without solver playback, a star when won with no help in the
optimal number of moves, and the player's own bests.
"""

import sqlalchemy as sa
from alembic import op

from tilegames.db.types import INTEGER, REAL, TEXT

revision = "0004"
down_revision = "0003"

_ZERO = sa.text("0")


def upgrade() -> None:
    op.create_table(
        "progress",
        sa.Column("player", TEXT, nullable=False),
        sa.Column("game", TEXT, nullable=False),
        sa.Column("variant", TEXT, nullable=False),
        sa.Column("solved", INTEGER, nullable=False, server_default=_ZERO),
        sa.Column("star", INTEGER, nullable=False, server_default=_ZERO),
        sa.Column("fewest_moves", INTEGER),
        sa.Column("top_score", INTEGER),
        sa.Column("updated", REAL, nullable=False),
        sa.PrimaryKeyConstraint("player", "game", "variant"),
    )


def downgrade() -> None:
    op.drop_table("progress")
