"""${message}"""

import sqlalchemy as sa
from alembic import op

from tilegames.db.types import INTEGER, REAL, TEXT

revision = ${repr(up_revision)}
down_revision = ${repr(down_revision)}


def upgrade() -> None:
    ${upgrades if upgrades else "pass"}
