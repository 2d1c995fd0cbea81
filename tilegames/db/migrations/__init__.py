"""Alembic's script directory for the arcade's schema (see tilegames.db.migrate)."""
