"""Fixtures for the bot's tests: a fresh database on each back end, and a table manager.

Tests of storage and records (any test using the ``store`` or ``target`` fixture), and the
end-to-end tests named in :data:`BOTH_BACKENDS`, run twice: on SQLite (a file in ``tmp_path``)
and on PostgreSQL (a fresh schema of the server at ``$DECKHAND_TEST_PG``, dropped afterwards).
``bash scripts/test`` starts a throwaway PostgreSQL server and sets that variable; run by hand
without it, the PostgreSQL variants are skipped with that reason shown.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

from bot.storage.db import POSTGRESQL, SQLITE
from bot.storage.store import Storage
from bot.tables import TableEvent, TableManager
from tests.bot import sim_helpers
from tests.bot.fakegame import lookup

PG_ENV = "DECKHAND_TEST_PG"


#: end-to-end tests that also run on PostgreSQL: restarts (mid-game and at the end of a game),
#: the leaderboard, forget-me, concurrent clicks (test_e2e_games names the games whose whole
#: game through Discord runs on both)
BOTH_BACKENDS = frozenset({
    "test_a_game_updates_the_leaderboard_exactly_once",
    "test_a_restart_at_the_end_of_a_game_neither_loses_nor_repeats_it",
    "test_forget_me_takes_a_player_off_the_leaderboard",
    "test_restart_mid_game_keeps_everything_and_old_buttons_work",
    "test_simultaneous_clicks_only_one_applies",
    "test_play_opens_a_lobby_and_join_seats_a_player",
})


#: database tests of how the SQLite back end writes (on the event loop's thread, checkpoints):
#: nothing of theirs exists on PostgreSQL, so they run on SQLite alone
SQLITE_ONLY = frozenset({
    "test_appends_on_the_event_loop_leave_checkpoints_to_aiosqlite",
    "test_actions_arriving_together_on_sqlite_are_each_stored_at_once",
})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run database tests and the chosen end-to-end tests on both back ends."""
    uses_db = {"store", "target"} & set(metafunc.fixturenames)
    if metafunc.function.__name__ in SQLITE_ONLY:
        return
    if uses_db or metafunc.function.__name__ in BOTH_BACKENDS:
        metafunc.parametrize("backend", [SQLITE, POSTGRESQL], indirect=True)


@dataclass(frozen=True)
class Backend:
    """The back end a test runs on; ``url`` is its PostgreSQL address (None on SQLite)."""

    name: str
    url: str | None = None


def with_schema(url: str, schema: str) -> str:
    """A PostgreSQL address whose connections use ``schema`` first."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


def _admin(url: str, sql: str) -> None:
    """One statement on its own connection, on a private event loop (fixtures are sync)."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("SET lock_timeout = '10s'")
            await conn.execute(sql)
        finally:
            await conn.close()

    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(run())
    finally:
        loop.close()


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """SQLite unless parametrised; for PostgreSQL a fresh schema, dropped after the test."""
    name = getattr(request, "param", SQLITE)
    if name == SQLITE:
        sim_helpers.DATABASE = None
        yield Backend(SQLITE)
        return
    server = os.environ.get(PG_ENV, "").strip()
    if not server:
        pytest.skip(f"PostgreSQL variant: set {PG_ENV} to a server address "
                    "(bash scripts/test starts one)")
    schema = f"test_{secrets.token_hex(6)}"
    _admin(server, f"CREATE SCHEMA {schema}")
    url = with_schema(server, schema)
    sim_helpers.DATABASE = url
    try:
        yield Backend(POSTGRESQL, url)
    finally:
        sim_helpers.DATABASE = None
        _admin(server, f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def target(backend: Backend, tmp_path: Path) -> str:
    """Where the test's database is: a SQLite file path or a PostgreSQL address."""
    return backend.url or str(tmp_path / "deckhand.sqlite3")


@pytest.fixture
async def store(target: str) -> AsyncIterator[Storage]:
    """An empty, migrated database."""
    opened = await Storage.open(target)
    yield opened
    await opened.close()


class Recorder:
    """A subscriber that keeps every event."""

    def __init__(self) -> None:
        self.updates: list[TableEvent] = []

    async def __call__(self, update: TableEvent) -> None:
        self.updates.append(update)

    def kinds(self) -> list[str]:
        """The kinds of events seen, in order."""
        return [u.kind for u in self.updates]


@pytest.fixture
async def manager(store: Storage) -> AsyncIterator[tuple[TableManager, Recorder]]:
    """A table manager with no computer pause, and a recorder of its updates."""
    made = TableManager(store, rules_for=lookup, ai_delay=0.0, timer_scale=0.0001)
    recorder = Recorder()
    made.listeners.append(recorder)
    yield made, recorder
    await made.close()
