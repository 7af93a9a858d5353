"""What every back end offers: plans (in a write transaction or not), single statements,
numbered migrations, and one error for a refused write."""

from __future__ import annotations

import asyncio
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from bot.storage.db.plan import Plan, Row, Step, single

T = TypeVar("T")

SQLITE, POSTGRESQL = "sqlite", "postgresql"


class IntegrityError(sqlite3.IntegrityError):
    """A constraint refused a write (a unique index, a foreign key), on either back end.

    A :class:`sqlite3.IntegrityError`, so code written against SQLite keeps catching it.
    """


class Database(ABC):
    """One database, SQLite or PostgreSQL, behind the same calls.

    ``run(plan, write=True)`` runs a plan in one transaction that no other writer interleaves
    with: ``BEGIN IMMEDIATE`` on SQLite, a transaction holding one advisory lock on PostgreSQL
    (so two bot processes sharing the database take turns too). Without ``write`` each statement
    stands alone (committed at once).
    """

    dialect: str

    def __init__(self) -> None:
        #: held while the connection is busy with something that must not interleave
        self.lock = asyncio.Lock()

    @abstractmethod
    async def run(self, plan: Plan[T], *, write: bool = False) -> T:
        """Run a plan; with ``write``, in one serialised transaction."""

    @abstractmethod
    async def version(self) -> int:
        """How many migrations have run."""

    @abstractmethod
    async def migrate(self, migrations: Sequence[str]) -> None:
        """Run every migration not yet run, each in its own transaction."""

    @abstractmethod
    async def close(self) -> None:
        """Close the connections."""

    async def one(self, sql: str, *args: Any) -> Row | None:
        """The first row of a query, or None."""
        return await self.run(single(Step.one(sql, *args)))

    async def all(self, sql: str, *args: Any) -> list[Row]:
        """Every row of a query."""
        return await self.run(single(Step.all(sql, *args)))

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement (committed); how many rows it changed."""
        return await self.run(single(Step.run(sql, *args)))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement per argument tuple, in one transaction."""
        await self.run(single(Step.many(sql, rows)), write=True)

    async def settle(self) -> None:
        """Wait until no statement this process gave up on can still change the database
        (nothing to wait for here: a back end whose given-up statements end with the call)."""
        return

    def appends_at_once(self) -> bool:
        """Whether :meth:`append` would now store its rows without a turn of the event loop
        (then batching appends together gains nothing)."""
        return False

    async def append(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Insert a few small rows in one transaction, as quickly as the back end can (the
        hot path: a move is stored before it is shown)."""
        if len(rows) == 1:
            await self.execute(sql, *rows[0])
        else:
            await self.executemany(sql, rows)
