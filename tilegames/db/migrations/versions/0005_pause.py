"""Pause on the server: the store's migration 5 (tilegames.store.schema), on both dialects.

``games.paused`` is when the game was paused (NULL while it is not): its clock, and with it the Lianliankan
score, stands still until it is resumed, and the state survives a restart like the rest of the game.
"""

import sqlalchemy as sa
from alembic import op

from tilegames.db.types import REAL

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.add_column("games", sa.Column("paused", REAL))


def downgrade() -> None:
    op.drop_column("games", "paused")
