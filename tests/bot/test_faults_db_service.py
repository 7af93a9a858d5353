"""Database faults at the table service, without Discord: moves nobody clicked (timeouts,
computers) that cannot be stored are tried again, and what the table showed is what is stored.
(The faults through the real bot and a real database: tests/bot/test_faults_db.py.)"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.storage import Storage
from bot.tables import FINISHED, PLAYING, TableManager
from tests.bot.conftest import Recorder

HOST, BOB = 1, 2
Manager = tuple[TableManager, Recorder]


def failing_first(store: Storage, count: int) -> list[int]:
    """Make the store's next ``count`` moves fail (as a database that is down does); the list
    counts the failures."""
    real = store.add_action
    failed: list[int] = []

    async def flaky(*row: Any) -> None:
        if len(failed) < count:
            failed.append(row[1])
            raise OSError("the database is down")
        await real(*row)

    store.add_action = flaky  # type: ignore[method-assign]
    return failed


async def until_over(table: Any) -> None:
    """Wait (up to 4 s) for a table's game to end."""
    for _ in range(800):
        if table.status != PLAYING:
            return
        await asyncio.sleep(0.005)


async def test_timeout_and_computer_moves_that_cannot_be_stored_are_tried_again(
        manager: Manager, store: Storage) -> None:
    """Both people time out, twice, then the computer keeps their seats; the first stores fail.
    The timers and the computers try again until the moves are stored, the game ends, and the
    stored moves are exactly the moves the table showed, each timeout counted once."""
    m, rec = manager
    m.turns.retry = 0.005
    table = await m.open(100, 10, "high-card", HOST, "Host", seed=5)
    await m.join(table.id, BOB, "Bob")
    await m.set_timer(table.id, HOST, "fast")
    await m.set_option(table.id, HOST, "hand", 6)
    await m.start(table.id, HOST)
    failed = failing_first(store, 3)
    await until_over(table)
    assert len(failed) == 3 and table.status == FINISHED
    shown = [(mv.seat, str(mv.action), mv.how) for u in rec.updates for mv in u.moves]
    stored = [(r.seat, r.action, r.how) for r in await store.actions(table.id)]
    assert stored == shown
    assert [how for _, _, how in shown][:4] == ["timeout"] * 4
    assert all(s.away for s in table.seats)


async def test_a_computer_move_that_cannot_be_stored_is_tried_again(
        manager: Manager, store: Storage) -> None:
    """A computer's move fails to store: the computer moves again later (its table does not
    stall), and the stored moves are those the table showed."""
    m, rec = manager
    m.turns.retry = 0.005
    table = await m.open(100, 10, "high-card", HOST, "Host", seed=5)
    await m.add_computer(table.id, HOST)
    await m.set_option(table.id, HOST, "hand", 3)
    await m.start(table.id, HOST)
    failed = failing_first(store, 2)
    await m.hand_to_computer(table.id, HOST, 0)
    await until_over(table)
    assert len(failed) == 2 and table.status == FINISHED
    shown = [(mv.seat, str(mv.action)) for u in rec.updates for mv in u.moves]
    assert [(r.seat, r.action) for r in await store.actions(table.id)] == shown
