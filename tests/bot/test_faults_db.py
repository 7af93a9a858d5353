"""Database faults, through the real bot on the simulated Discord: a move is stored or it never
happened, and what people were told is exactly what is stored after a restart.

Each test plays a two-person game of the test game (no computers), breaks the database in the
middle of a move's store (the store is held at the storage boundary while the fault is made,
then let go), and checks:

- the click is answered in time with the sentence that the move did not count;
- once the database is back, the same click plays the move;
- after a restart, the stored moves are exactly the moves the table showed (the service's
  events, every one of which the table message and the panels show), no more and no fewer.

PostgreSQL runs on a throwaway server of this module (tests/bot/dbfaults.py), stopped,
started, frozen (SIGSTOP) and continued; SQLite's faults are another connection holding the
file's lock and a full disk (a tiny tmpfs when the tests run as root and may mount one, else a
fault injected at the storage boundary: the error SQLite gives).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import sqlite3
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.tables.events import TableEvent
from tests.bot import sim_helpers
from tests.bot.conftest import with_schema
from tests.bot.dbfaults import ThrowawayPostgres
from tests.bot.realbot import RealBot
from tests.bot.sim_helpers import World, button, table_of, world
from tests.bot.test_e2e_safety import first_move, mover, open_hand, refused, two_player_table, use
from tests.bot.test_e2e_shutdown import hold
from tests.discord_sim import InteractionResult, SimMessage, SimulatedDiscord, SimUser

#: what a person reads when their move could not be stored
NOT_COUNTED = "could not save that move, so it did not count"


class Ledger:
    """What the table told everyone: each move shown, in order (seat, move)."""

    def __init__(self) -> None:
        self.shown: list[tuple[int, str]] = []

    async def __call__(self, event: TableEvent) -> None:
        self.shown.extend((m.seat, str(m.action)) for m in event.moves)


@pytest.fixture(scope="module")
def server() -> Iterator[ThrowawayPostgres]:
    """A PostgreSQL server these tests may stop and freeze (never the shared one)."""
    pg = ThrowawayPostgres()
    try:
        pg.start()
        yield pg
    finally:
        pg.remove()


@contextlib.asynccontextmanager
async def on_database(url: str) -> AsyncIterator[None]:
    """The bots of :func:`world` use ``url`` meanwhile."""
    sim_helpers.DATABASE = url
    try:
        yield
    finally:
        sim_helpers.DATABASE = None


async def fresh_schema(pg: ThrowawayPostgres) -> str:
    """A new schema of the throwaway server, as its address."""
    if not (pg.dir / "data" / "postmaster.pid").exists():
        pg.start()  # a test that failed half-way left it stopped
    pg.cont()
    schema = f"faults_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(pg.url, timeout=10)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    return with_schema(pg.url, schema)


async def fault_mid_move(w: World, make: Callable[[], Any], mend: Callable[[], Any],
                         while_broken: Callable[[World, SimUser], Any] | None = None,
                         play_again: bool = True) -> tuple[InteractionResult, float]:
    """Play a move, then another whose store meets the fault (``make``, called while the
    store is held), see it refused, ``mend`` the database, play it again, restart the bot and
    compare what is stored with what was shown. The refused click and its seconds."""
    ledger = Ledger()
    w.bot.manager.listeners.append(ledger)
    w.bot.manager._turns.retry = 0.05
    table = await two_player_table(w)
    found = w.bot.manager.live_in(int(w.channel.id))
    assert found is not None
    table_id = found.id
    user, _ = mover(w, table)
    first = await open_hand(w, user)
    r = await use(w, user, first, first_move(first))
    assert r.status == "ok" and r.callback_type == 7, r  # a move that counted
    await w.sim.settle()
    user, other = mover(w, w.table_message())
    hand = await open_hand(w, user)
    control = first_move(hand)
    entered, release = hold(w.bot.store, "add_action")
    click = asyncio.ensure_future(use(w, user, hand, control))
    await asyncio.wait_for(entered.wait(), 5.0)
    began = time.monotonic()
    make()
    release.set()
    answer = await click
    took = time.monotonic() - began
    refused(answer, NOT_COUNTED)
    if while_broken is not None:
        await while_broken(w, other)
    await mend()
    if play_again:
        again = await use(w, user, hand, control)  # the same click: the move is still on offer
        assert again.status == "ok" and again.callback_type == 7, again
        await w.sim.settle()
    else:  # restarted before anything else happens at the table: nothing of it comes back
        for _ in range(200):
            if table_id not in w.bot.manager._turns.writer.unsure:
                break
            await asyncio.sleep(0.05)  # the mending's retries (turns.retry, shortened)
        assert table_id not in w.bot.manager._turns.writer.unsure
    shown = list(ledger.shown)
    assert len(shown) == (2 if play_again else 1)
    await w.restart()
    stored = [(row.seat, row.action) for row in await w.bot.store.actions(table_id)]
    assert stored == shown
    assert (await w.bot.manager.position(table_id)).version == len(shown)
    return answer, took


async def look(w: World, person: SimUser) -> None:
    """Someone else at the table opens their hand: answered in time, database or not."""
    table = w.table_message()
    r = await w.sim.click(person, table, button(table, "hand")["custom_id"])
    assert r.status == "ok", r


# -- PostgreSQL --------------------------------------------------------------------------------
async def test_postgres_stopped_mid_move_then_started(
        tmp_path: Path, server: ThrowawayPostgres) -> None:
    async def start() -> None:
        server.start()

    async with on_database(await fresh_schema(server)), world(tmp_path, people=2) as w:
        _, took = await fault_mid_move(w, server.stop, start)
    assert took < 3.0


async def test_postgres_frozen_mid_move_then_continued(
        tmp_path: Path, server: ThrowawayPostgres) -> None:
    """SIGSTOP of every server process: the store gives up within its timeouts, the move is
    refused in time, the table's other people are answered meanwhile, and once the server is
    continued the table plays on."""
    async def cont() -> None:
        server.cont()

    async with on_database(await fresh_schema(server)), world(tmp_path, people=2) as w:
        try:
            _, took = await fault_mid_move(w, server.freeze, cont, look)
        finally:
            server.cont()
    assert took < 3.0


async def test_postgres_frozen_mid_move_then_restarted_before_the_next_move(
        tmp_path: Path, server: ThrowawayPostgres) -> None:
    """The store given up on may still be committed by the server once it is continued (it
    had the statement): the move its person was told did not count is deleted as soon as the
    database answers, so a restart right after does not bring it back."""
    async def cont() -> None:
        server.cont()

    async with on_database(await fresh_schema(server)), world(tmp_path, people=2) as w:
        try:
            await fault_mid_move(w, server.freeze, cont, play_again=False)
        finally:
            server.cont()


# -- SQLite ------------------------------------------------------------------------------------
async def test_sqlite_locked_by_another_connection_mid_move(tmp_path: Path) -> None:
    """Another connection (another process, a backup tool) holds the file's write lock: the
    store gives up after the busy timeout, the move is refused in time, and once the lock is
    let go the table plays on."""
    other: list[sqlite3.Connection] = []

    def lock() -> None:
        conn = sqlite3.connect(str(tmp_path / "deckhand.sqlite3"), isolation_level=None)
        conn.execute("BEGIN EXCLUSIVE")
        other.append(conn)

    async def unlock() -> None:
        other[0].execute("ROLLBACK")
        other[0].close()

    async with world(tmp_path, people=2) as w:
        _, took = await fault_mid_move(w, lock, unlock, look)
    assert took < 3.0


def _tmpfs(where: Path, size: str) -> bool:
    """Mount a tmpfs of ``size`` at ``where`` (root only); whether it was."""
    if os.getuid() != 0:
        return False
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                          capture_output=True)
    return done.returncode == 0


async def test_sqlite_disk_full_mid_move(tmp_path: Path) -> None:
    """The disk fills up: on a tiny tmpfs filled to the last byte when the tests may mount one
    (as root), else SQLite's own error raised at the storage boundary. The move is refused,
    and once space is freed the table plays on."""
    disk = tmp_path / "disk"
    mounted = _tmpfs(disk, "4m")
    filler = disk / "filler"

    def fill() -> None:
        if not mounted:
            return
        with open(filler, "wb", buffering=0) as out, contextlib.suppress(OSError):
            while True:  # every free byte taken
                out.write(b"\0" * 4096)
        assert os.statvfs(disk).f_bavail == 0

    def full(*args: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    try:
        folder = disk if mounted else tmp_path
        async with world(folder, people=2) as w:
            real = w.bot.store.db.append
            if not mounted:
                def make() -> None:
                    w.bot.store.db.append = full  # type: ignore[method-assign]
            else:
                make = fill

            async def free() -> None:
                if mounted:
                    filler.unlink()
                else:
                    w.bot.store.db.append = real  # type: ignore[method-assign]

            await fault_mid_move(w, make, free)
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(disk)], capture_output=True)


# -- the bot killed mid-write ------------------------------------------------------------------
def _version(custom_id: str) -> int:
    """The state version a move control was made at (``dh:verb:table:version:…``)."""
    return int(custom_id.split(":")[3])


async def _due_move(sim: SimulatedDiscord, channel: Any, people: list[SimUser]
                    ) -> tuple[SimUser, SimMessage, tuple[str, str, list[str]]]:
    """Someone who may move now, their hand and its first move control (the table message's
    mention may lag: its edits are coalesced)."""
    table = table_of(sim, channel)
    assert table is not None
    for user in people:
        r = await sim.click(user, table, button(table, "hand")["custom_id"])
        assert r.status == "ok" and r.message is not None, r
        with contextlib.suppress(AssertionError):
            return user, r.message, first_move(r.message)
    raise AssertionError("nobody may move")


async def _click(sim: SimulatedDiscord, user: SimUser, hand: SimMessage,
                 control: tuple[str, str, list[str]]) -> InteractionResult:
    kind, custom_id, values = control
    if kind == "button":
        return await sim.click(user, hand, custom_id)
    return await sim.select(user, hand, custom_id, values)


async def test_the_bot_killed_mid_write_keeps_every_move_it_answered(tmp_path: Path) -> None:
    """The real bot process is SIGKILLed while it stores a move (another connection holds the
    SQLite file's lock, so the store is under way when the kill lands): after a restart every
    move it answered as made is stored, the one it never answered is not, the stored moves
    replay, and the table plays on from there."""
    async with SimulatedDiscord() as sim:
        guild = sim.add_guild("Test Server")
        channel = sim.add_channel(guild, "cards")
        people = []
        for name in ("Alice", "Bob"):
            person = sim.add_user(name)
            sim.add_member(guild, person)
            people.append(person)
        alice, bob = people
        first = RealBot(tmp_path, sim)
        second: RealBot | None = None
        holder: sqlite3.Connection | None = None
        try:
            await first.start()
            r = await sim.slash(alice, channel, "play", {"game": "twenty-two"})
            assert r.status == "ok", r
            await sim.settle()
            lobby = table_of(sim, channel)
            assert lobby is not None
            await sim.click(bob, lobby, button(lobby, "join")["custom_id"])
            await sim.settle()
            lobby = table_of(sim, channel)
            assert lobby is not None
            await sim.click(alice, lobby, button(lobby, "start")["custom_id"])
            await sim.settle()
            answered = 0
            for _ in range(3):
                user, hand, control = await _due_move(sim, channel, people)
                r = await _click(sim, user, hand, control)
                assert r.status == "ok" and r.callback_type == 7, r  # answered: it counted
                answered += 1
                await sim.settle()
            user, hand, control = await _due_move(sim, channel, people)
            holder = sqlite3.connect(str(tmp_path / "deckhand.sqlite3"), isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
            click = asyncio.ensure_future(_click(sim, user, hand, control))
            await asyncio.sleep(0.5)  # the click is being stored: waiting for the file's lock
            assert not click.done()
            first.kill()
            await first.wait()
            holder.execute("ROLLBACK")
            holder.close()
            holder = None
            unanswered = await click
            assert unanswered.status != "ok" or unanswered.callback_type is None, unanswered

            second = RealBot(tmp_path, sim)
            await second.start()
            await sim.settle()
            check = sqlite3.connect(str(tmp_path / "deckhand.sqlite3"))
            try:
                assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
                stored = check.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
            finally:
                check.close()
            assert stored == answered
            user, hand, control = await _due_move(sim, channel, people)
            assert _version(control[1]) == answered  # the table resumed where its answers left it
            r = await _click(sim, user, hand, control)
            assert r.status == "ok" and r.callback_type == 7, r  # and plays on
        finally:
            if holder is not None:
                holder.close()
            first.kill()
            if second is not None:
                await second.stop()
