"""SQLite back ends: :class:`AsyncSqlite` (aiosqlite, for the bot's storage) and
:class:`ThreadSqlite` (a plain connection whose plans run whole in a worker thread, one hop per
plan, for the records' heavier reads).

Both open the file in WAL mode with autocommit: a statement outside a write plan is committed as
soon as it has run; a write plan is one ``BEGIN IMMEDIATE`` transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Sequence
from typing import Any, TypeVar

import aiosqlite

from bot import tasks
from bot.storage.db.base import SQLITE, Database, IntegrityError
from bot.storage.db.plan import ALL, MANY, ONE, RUN, Plan, Step, drive, drive_sync, single

T = TypeVar("T")

#: milliseconds a connection waits for another's lock before it gives up: a move is stored
#: with its table's lock held, and its click must be answered within Discord's 3 seconds
#: (a store that gives up is refused as not counted, and the person plays it again)
BUSY_TIMEOUT_MS = 2000
#: run in this order: the busy timeout first, so that the others wait for a lock
#: secure_delete: what is deleted or overwritten is zeroed in the file, not left in free
#: space where /privacy forget-me would leave a forgotten person readable
PRAGMAS = (f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}", "PRAGMA journal_mode=WAL",
           "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON", "PRAGMA secure_delete=ON")
#: appends on the event loop's thread between two checkpoints on aiosqlite's (a page or so
#: each: SQLite's own automatic checkpoint comes at 1000 pages)
CHECKPOINT_EVERY = 500
#: seconds to keep retrying a pragma that found the database locked (see ``open``)
LOCKED_RETRY = 10.0


def statements(script: str) -> list[str]:
    """A script's statements, one by one (quoted text and comments respected)."""
    found, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            found.append(current.strip())
            current = ""
    if current.strip():
        found.append(current.strip())
    return found


def migration(number: int, script: str) -> Plan[bool]:
    """Migration ``number`` unless it has run (checked inside its transaction, so two
    connections migrating at once run it once); whether it ran."""
    row = yield Step.one("PRAGMA user_version")
    if int(row[0]) >= number:
        return False
    for statement in statements(script):
        yield Step.run(statement)
    yield Step.run(f"PRAGMA user_version={int(number)}")
    return True


class AsyncSqlite(Database):
    """A SQLite file through aiosqlite; statements and write plans take turns on one connection."""

    dialect = SQLITE

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        super().__init__()
        self.conn = conn
        self.path = path
        #: a second connection for :meth:`append`, used on the event loop's thread
        self._quick: ThreadSqlite | None = None
        #: appends that found the file locked by another process and went through aiosqlite
        self.slow_appends = 0
        self._appended = 0  # appends committed on the event loop's thread
        self._checkpointing: asyncio.Task[None] | None = None
        #: held by whatever writes on either connection, only while it writes (taken after
        #: :attr:`lock`): an append waits for writes under way, never for the reads and
        #: writes queued on aiosqlite's connection
        self.writing = asyncio.Lock()

    @classmethod
    async def open(cls, path: str) -> AsyncSqlite:
        """Open (creating as needed) the database file at ``path``."""
        pending = aiosqlite.connect(path, isolation_level=None)
        try:
            conn = await pending
        except BaseException:
            # aiosqlite stops its thread without waiting for it; a thread still answering
            # after the event loop closed would print a traceback at exit
            thread = getattr(pending, "_thread", None)
            if thread is not None and thread.is_alive():
                await asyncio.to_thread(thread.join, 5.0)
            raise
        try:
            for pragma in PRAGMAS:
                # Switching a new file to WAL can find it locked by another process doing the
                # same (SQLite answers at once there instead of calling the busy handler): try
                # again.
                deadline = time.monotonic() + LOCKED_RETRY
                while True:
                    try:
                        await conn.execute(pragma)
                        break
                    except sqlite3.OperationalError as error:
                        if "locked" not in str(error) or time.monotonic() > deadline:
                            raise
                        await asyncio.sleep(0.05)
        except BaseException:  # a file that is no database, say: its thread must end too
            await conn.close()
            raise
        return cls(conn, path)

    async def _do(self, step: Step) -> Any:
        conn = self.conn
        try:
            if step.kind == ONE:
                rows = await conn.execute_fetchall(step.sql, step.args)
                return tuple(next(iter(rows))) if rows else None
            if step.kind == ALL:
                return [tuple(r) for r in await conn.execute_fetchall(step.sql, step.args)]
            if step.kind == RUN:
                cursor = await conn.execute(step.sql, step.args)
                return cursor.rowcount
            if step.kind == MANY:
                await conn.executemany(step.sql, step.args)
                return None
        except sqlite3.IntegrityError as error:
            if isinstance(error, IntegrityError):
                raise
            raise IntegrityError(*error.args) from error
        raise ValueError(f"unknown step {step.kind!r}")

    async def run(self, plan: Plan[T], *, write: bool = False) -> T:
        """Run a plan on the connection; with ``write``, in one ``BEGIN IMMEDIATE`` transaction."""
        async with self.lock:
            if not write:
                return await drive(plan, self._do)
            async with self.writing:
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    result = await drive(plan, self._do)
                except BaseException:
                    await self.conn.execute("ROLLBACK")
                    raise
                await self.conn.execute("COMMIT")
                return result

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement (committed), taking turns with the other writes."""
        async with self.lock, self.writing:
            return int(await drive(single(Step.run(sql, *args)), self._do))

    def _checkpoint(self) -> None:
        """Copy the appends' log into the database file on aiosqlite's thread (a passive
        checkpoint: it waits for nobody), so the log does not grow without end."""
        if self._checkpointing is not None and not self._checkpointing.done():
            return

        async def run() -> None:
            # a failure: the next one tries again; meanwhile the log is only longer
            with contextlib.suppress(sqlite3.Error):
                await self.one("PRAGMA wal_checkpoint(PASSIVE)")

        self._checkpointing = tasks.background(run())

    def appends_at_once(self) -> bool:
        """No write of this process under way: an append commits on the spot (unless another
        process holds the file's lock)."""
        return not self.writing.locked()

    async def append(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Insert rows in one transaction on the event loop's own thread.

        A small insert into a WAL file takes tens of microseconds, less than one hop to
        aiosqlite's thread and back: under load each hop waits for the busy event loop and
        for the GIL, and a move's store took 36 ms at the 90th percentile (150 ms at the
        99th). Taken under the write lock, so it never meets a write of this process (reads
        on the other connection do not stop it: the file is in WAL mode); it never waits for
        another process's lock either (no busy timeout here): then it goes through aiosqlite,
        which waits.
        """
        async with self.writing:
            try:
                if self._quick is None:
                    self._quick = ThreadSqlite.open(self.path, busy_timeout_ms=0)
                    # its commits never copy the log into the file (that writes and syncs
                    # the disk, on the event loop's thread): aiosqlite's thread does
                    self._quick.conn.execute("PRAGMA wal_autocheckpoint=0")
                self._quick.run_now(single(Step.many(sql, rows)), write=True)
                self._appended += 1
                if self._appended % CHECKPOINT_EVERY == 0:
                    self._checkpoint()
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) and "busy" not in str(error):
                    raise
        self.slow_appends += 1
        await self.executemany(sql, rows)

    async def version(self) -> int:
        """The database's ``user_version``: how many migrations have run."""
        row = await self.one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Sequence[str]) -> None:
        """Run the migrations not yet run, each in its own transaction with its number."""
        done = await self.version()
        for number, script in enumerate(migrations[done:], start=done + 1):
            await self.run(migration(number, script), write=True)

    async def close(self) -> None:
        """Close the connections."""
        if self._checkpointing is not None:
            with contextlib.suppress(Exception):
                await self._checkpointing
        async with self.lock, self.writing:
            if self._quick is not None:
                self._quick.close_now()
                self._quick = None
        await self.conn.close()


class ThreadSqlite(Database):
    """A SQLite file through a plain connection; each plan runs whole in a worker thread."""

    dialect = SQLITE

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        super().__init__()
        self.conn = conn
        self.path = path

    @classmethod
    def open(cls, path: str, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> ThreadSqlite:
        """Open (creating as needed) the database file at ``path``; ``busy_timeout_ms``: how
        long a statement waits for another connection's lock (0: it fails at once)."""
        conn = sqlite3.connect(path, timeout=busy_timeout_ms / 1000, isolation_level=None,
                               check_same_thread=False)
        try:
            for pragma in (f"PRAGMA busy_timeout={busy_timeout_ms}", *PRAGMAS[1:]):
                conn.execute(pragma)
        except BaseException:
            conn.close()
            raise
        return cls(conn, path)

    def _do(self, step: Step) -> Any:
        conn = self.conn
        try:
            if step.kind == ONE:
                row = conn.execute(step.sql, step.args).fetchone()
                return None if row is None else tuple(row)
            if step.kind == ALL:
                return [tuple(r) for r in conn.execute(step.sql, step.args).fetchall()]
            if step.kind == RUN:
                return conn.execute(step.sql, step.args).rowcount
            if step.kind == MANY:
                conn.executemany(step.sql, step.args)
                return None
        except sqlite3.IntegrityError as error:
            if isinstance(error, IntegrityError):
                raise
            raise IntegrityError(*error.args) from error
        raise ValueError(f"unknown step {step.kind!r}")

    def run_now(self, plan: Plan[T], *, write: bool = False) -> T:
        """:meth:`run`, synchronously, in the calling thread."""
        if not write:
            return drive_sync(plan, self._do)
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            result = drive_sync(plan, self._do)
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")
        return result

    async def run(self, plan: Plan[T], *, write: bool = False) -> T:
        """Run a plan in a worker thread, one plan at a time."""
        async with self.lock:
            return await asyncio.to_thread(self.run_now, plan, write=write)

    async def version(self) -> int:
        """The database's ``user_version``: how many migrations have run."""
        row = await self.one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def migrate(self, migrations: Sequence[str]) -> None:
        """Run the migrations not yet run, each in its own transaction with its number."""
        done = await self.version()
        for number, script in enumerate(migrations[done:], start=done + 1):
            await self.run(migration(number, script), write=True)

    def close_now(self) -> None:
        """Close the connection (no plan may be running)."""
        self.conn.close()

    async def close(self) -> None:
        """Close the connection once the running plan is done."""
        async with self.lock:
            self.close_now()
