"""Fixtures for the bot's tests: a fresh database and a table manager with the test game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.tables import TableManager, Update
from tests.bot.fakegame import lookup


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    """An empty, migrated database."""
    opened = await Storage.open(str(tmp_path / "deckhand.sqlite3"))
    yield opened
    await opened.close()


class Recorder:
    """A listener that keeps every update."""

    def __init__(self) -> None:
        self.updates: list[Update] = []

    async def __call__(self, update: Update) -> None:
        self.updates.append(update)

    def kinds(self) -> list[str]:
        """The kinds of updates seen, in order."""
        return [u.kind for u in self.updates]


@pytest.fixture
async def manager(store: Storage) -> AsyncIterator[tuple[TableManager, Recorder]]:
    """A table manager with no computer pause, and a recorder of its updates."""
    made = TableManager(store, rules_for=lookup, ai_delay=0.0, timer_scale=0.0001)
    recorder = Recorder()
    made.listeners.append(recorder)
    yield made, recorder
    await made.close()
