"""Column types that give today's DDL on SQLite and sensible PostgreSQL types.

SQLite keeps ``TEXT``, ``INTEGER`` and ``REAL`` (so a file made by the migrations matches one made by the old
store, column for column); PostgreSQL gets ``text``, ``bigint`` and ``double precision``. Booleans stay integers
(0/1) on both, so the data copies across unchanged.
"""

from __future__ import annotations

import sqlalchemy as sa

TEXT = sa.Text()
INTEGER = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
REAL: sa.types.TypeEngine[float] = sa.Double().with_variant(sa.REAL(), "sqlite")
