"""Tournaments on several processes (shards) sharing one database: each process resumes only
the events of the guilds it owns, as the table service resumes only their tables
(``owns``). Two processes' worth of services on one SQLite file and one manual clock; the
first restarts while both guilds' events are running and a third waits for its start."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.storage.store import Storage
from bot.tables import ManualClock, TableManager
from bot.tournaments.runner import Tournaments, TournamentView

HOUR = 3600.0
#: the guild each process owns and the channel its events are in
ONE, TWO = 100, 200
CHANNELS = {ONE: 11, TWO: 22}
LATER = 23  # the channel of the second guild's later event (one event a channel at once)


@dataclass
class Process:
    """One process of the bot: its table service and tournament service, owning one guild."""

    path: str
    clock: ManualClock
    guild: int
    store: Storage | None = None
    manager: TableManager | None = None
    service: Tournaments | None = None
    resumed: list[TournamentView] = field(default_factory=list)

    def owns(self, guild_id: int) -> bool:
        return guild_id == self.guild

    async def up(self) -> None:
        """Started as the bot starts: the tables of its guilds, then their events."""
        self.store = await Storage.open(self.path)
        self.manager = TableManager(self.store, ai_delay=0.0, ai_level="random",
                                    clock=self.clock)
        await self.manager.resume(owns=self.owns)
        self.service = Tournaments(self.manager, self.store, self.clock)
        self.resumed = await self.service.resume_all(owns=self.owns)

    async def down(self) -> None:
        if self.service is not None:
            await self.service.close()
        if self.manager is not None:
            await self.manager.close()
        if self.store is not None:
            await self.store.close()
        self.store = self.manager = self.service = None

    @property
    def m(self) -> TableManager:
        assert self.manager is not None
        return self.manager

    @property
    def t(self) -> Tournaments:
        assert self.service is not None
        return self.service


@pytest.fixture
async def processes(tmp_path: Path) -> AsyncIterator[tuple[Process, Process]]:
    clock = ManualClock()
    path = str(tmp_path / "deckhand.sqlite3")
    both = (Process(path, clock, ONE), Process(path, clock, TWO))
    for process in both:
        await process.up()
    yield both
    for process in both:
        await process.down()


async def signed_up(p: Process, starts_in: float, channel: int | None = None
                    ) -> TournamentView:
    """A Swiss of one round of 22 at tables of four in the process's guild (its channel by
    default), four people signed up (ids by channel, so none plays in two events)."""
    where = CHANNELS[p.guild] if channel is None else channel
    view = await p.t.create(p.guild, where, p.guild + 99, "twenty-two", "swiss",
                            rounds=1, size=4, advance=0, duplicate=False,
                            starts_at=p.clock.now() + starts_in, checkin_minutes=0,
                            pace="24h")
    for user in range(10 * where + 1, 10 * where + 5):
        view = await p.t.join(view.id, user, f"P{user}")
    return view


async def running(p: Process, tid: int) -> TournamentView:
    """The event once its round's tables are all open at the process's table service."""
    for _ in range(2000):
        view = await p.t.view(tid)
        if view.status == "running" and view.tables and all(
                t.table_id is not None and p.m.is_open(t.table_id) for t in view.tables):
            return view
        await asyncio.sleep(0.002)
    raise AssertionError(f"event {tid} did not open its round at process {p.guild}")


async def test_a_process_resumes_only_the_events_of_its_own_guilds(
        processes: tuple[Process, Process]) -> None:
    first, second = processes
    one = await signed_up(first, HOUR)
    two = await signed_up(second, HOUR)
    later = await signed_up(second, 3 * HOUR, LATER)  # in the second's guild, not started yet
    first.clock.advance(HOUR)
    one = await running(first, one.id)
    two = await running(second, two.id)

    await first.down()  # the first process restarts; the second runs on
    await first.up()
    assert [v.id for v in first.resumed] == [one.id]  # its own guild's event alone
    assert await first.t.view(one.id) == one
    assert all(t.table_id is not None and first.m.is_open(t.table_id) for t in one.tables)
    # the other guild's running event is left as it was: its tables open at the second
    # process, none counted as ended (nor opened again) by the first
    assert await second.t.view(two.id) == two
    assert all(not t.done for t in two.tables)
    assert all(t.table_id is not None and second.m.is_open(t.table_id) for t in two.tables)
    assert await first.m.tables_in(CHANNELS[TWO]) == ()

    # the other guild's next event is started by the second process alone, at its time
    first.clock.advance(2 * HOUR)
    later = await running(second, later.id)
    assert all(t.table_id is not None and not first.m.is_open(t.table_id)
               for t in later.tables)
    assert await first.m.tables_in(LATER) == ()
