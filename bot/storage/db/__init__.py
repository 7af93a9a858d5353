"""The database layer: one interface, two back ends, chosen by the ``DECKHAND_DB`` setting.

A file path opens SQLite (aiosqlite); a ``postgresql://`` or ``postgres://`` address opens
PostgreSQL (asyncpg), which several bot processes may share. Work is written once, as
:mod:`plans <bot.storage.db.plan>` of portable SQL with ``?`` placeholders.
"""

from __future__ import annotations

from bot.storage.db.base import POSTGRESQL, SQLITE, Database, IntegrityError
from bot.storage.db.plan import Plan, Row, Step, drive, drive_sync, single

__all__ = [
    "POSTGRESQL", "SQLITE", "Database", "IntegrityError", "Plan", "Row", "Step", "connect",
    "drive", "drive_sync", "is_postgres", "single",
]


def is_postgres(target: str) -> bool:
    """Whether ``target`` is a PostgreSQL address rather than a SQLite file path."""
    scheme, sep, _ = target.partition("://")
    return bool(sep) and scheme.lower() in ("postgresql", "postgres")


async def connect(target: str) -> Database:
    """Open the database at ``target`` (a file path, or a PostgreSQL address)."""
    if is_postgres(target):
        from bot.storage.db.postgres import Postgres

        return await Postgres.connect(target)
    from bot.storage.db.sqlite import AsyncSqlite

    return await AsyncSqlite.open(target)
