"""Many tables in one channel, each maybe playing in a thread of it: the server's caps per
channel and per person (stored, changed by a manager with /limits), ``set_thread`` stored and
back after a restart, a click from the table's thread its own and one from another server
refused, ``tables_in`` and ``tables_of``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.store import GuildSettings, Storage
from bot.tables import TABLES_PER_CHANNEL_MOST, TABLES_PER_PERSON_MOST, Refusal, TableManager
from tests.bot.conftest import Recorder
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import world

Manager = tuple[TableManager, Recorder]
GUILD, OTHER_GUILD = 100, 200
CHANNEL, OTHER_CHANNEL, THREAD = 10, 11, 5_000_000_000_000_000_001
HOST, BOB, CAROL = 1, 2, 3


async def refused(call: object, key: str) -> Refusal:
    with pytest.raises(Refusal) as caught:
        await call  # type: ignore[misc]
    assert caught.value.key == key, caught.value.key
    return caught.value


async def test_two_tables_then_n_in_one_channel_up_to_its_cap(manager: Manager) -> None:
    m, _ = manager
    first = await m.open(GUILD, CHANNEL, "high-card", HOST, "Host", seed=1)
    second = await m.open(GUILD, CHANNEL, "high-card", BOB, "Bob", seed=2)
    assert [p.table_id for p in await m.tables_in(CHANNEL)] == [first.table_id, second.table_id]
    # the default cap: ten open tables in a channel, whoever opens them
    hosts = [10 + i for i in range(8)]
    for host in hosts:
        await m.open(GUILD, CHANNEL, "high-card", host, f"P{host}")
    here = await m.tables_in(CHANNEL)
    assert len(here) == 10 and [p.host_id for p in here] == [HOST, BOB, *hosts]
    refusal = await refused(m.open(GUILD, CHANNEL, "high-card", CAROL, "Carol"), "channel-full")
    assert refusal.params == {"most": 10}
    assert "already holds 10 open tables" in refusal.text("en")
    assert "10 卓" in refusal.text("ja")
    assert await m.tables_in(OTHER_CHANNEL) == ()
    await m.open(GUILD, OTHER_CHANNEL, "high-card", CAROL, "Carol")  # another channel: free
    # a table closed frees its place; both playing and lobby tables count
    await m.join(first.table_id, CAROL, "Carol")
    await m.start(first.table_id, HOST)
    await refused(m.open(GUILD, CHANNEL, "high-card", CAROL, "Carol"), "channel-full")
    await m.cancel(second.table_id, BOB)
    third = await m.open(GUILD, CHANNEL, "high-card", CAROL, "Carol")
    assert third.table_id not in {p.table_id for p in here}
    assert len(await m.tables_in(CHANNEL)) == 10


async def test_a_person_opens_up_to_the_servers_cap(manager: Manager) -> None:
    m, _ = manager
    for i in range(21):  # Board Game Arena's limit, in channels of one server
        await m.open(GUILD, 1000 + i // 10, "high-card", HOST, "Host")
    refusal = await refused(m.open(GUILD, 2000, "high-card", HOST, "Host"), "person-full")
    assert refusal.params == {"most": 21} and "21 open tables" in refusal.text("en")
    assert "21 卓" in refusal.text("ja")
    # the seats counted are the server's: another server's are its own
    await m.open(OTHER_GUILD, 3000, "high-card", HOST, "Host")
    # a seat taken at someone else's table counts too
    other = await m.open(GUILD, 2000, "high-card", BOB, "Bob")
    await m.join(other.table_id, CAROL, "Carol")
    for i in range(20):
        await m.open(GUILD, 4000 + i // 10, "high-card", CAROL, "Carol")
    await refused(m.open(GUILD, 2000, "high-card", CAROL, "Carol"), "person-full")
    await m.leave(other.table_id, CAROL)
    await m.open(GUILD, 2000, "high-card", CAROL, "Carol")


async def test_a_servers_caps_are_stored_and_checked(store: Storage) -> None:
    m = TableManager(store, rules_for=lookup, ai_delay=0.0)
    try:
        assert await m.limits(GUILD) == GuildSettings(10, 21)
        assert await m.set_limits(GUILD, per_channel=2) == GuildSettings(2, 21)
        assert await m.set_limits(GUILD, per_person=3) == GuildSettings(2, 3)
        for bad in ({"per_channel": 0}, {"per_channel": TABLES_PER_CHANNEL_MOST + 1},
                    {"per_person": 0}, {"per_person": TABLES_PER_PERSON_MOST + 1}):
            refusal = await refused(m.set_limits(GUILD, **bad), "bad-limit")
            assert "from 1 to" in refusal.text("en")
        assert await m.limits(GUILD) == GuildSettings(2, 3)  # the bad numbers changed nothing
        await m.open(GUILD, CHANNEL, "high-card", HOST, "Host")
        await m.open(GUILD, CHANNEL, "high-card", BOB, "Bob")
        refusal = await refused(m.open(GUILD, CHANNEL, "high-card", CAROL, "Carol"),
                                "channel-full")
        assert refusal.params == {"most": 2}
        await m.open(GUILD, OTHER_CHANNEL, "high-card", HOST, "Host")
        await m.open(GUILD, OTHER_CHANNEL + 1, "high-card", HOST, "Host")
        refusal = await refused(m.open(GUILD, OTHER_CHANNEL + 2, "high-card", HOST, "Host"),
                                "person-full")
        assert refusal.params == {"most": 3}
        # another server keeps the defaults
        for _ in range(3):
            await m.open(OTHER_GUILD, CHANNEL, "high-card", HOST, "Host")
    finally:
        await m.close()
    again = TableManager(store, rules_for=lookup, ai_delay=0.0)  # a restart reads them back
    try:
        assert await again.limits(GUILD) == GuildSettings(2, 3)
        assert await again.limits(OTHER_GUILD) == GuildSettings(10, 21)
    finally:
        await again.close()


async def test_clicks_from_the_thread_are_the_tables_and_foreign_ones_refused(
        manager: Manager) -> None:
    m, _ = manager
    table = await m.open(GUILD, CHANNEL, "high-card", HOST, "Host", seed=1)
    assert table.thread_id is None
    await m.set_thread(table.table_id, THREAD)
    mine = await m.at(table.table_id, GUILD, THREAD, HOST)
    assert (mine.table_id, mine.thread_id, mine.channel_id, mine.seat) == (
        table.table_id, THREAD, CHANNEL, 0)
    assert (await m.at(table.table_id, GUILD, CHANNEL)).thread_id == THREAD  # its message
    for guild, channel in ((OTHER_GUILD, THREAD), (OTHER_GUILD, CHANNEL),
                           (GUILD, OTHER_CHANNEL), (GUILD, THREAD + 1)):
        await refused(m.at(table.table_id, guild, channel), "foreign-table")
    # the thread gone: the table plays in its channel again, and its thread is no longer it
    await m.set_thread(table.table_id, None)
    await refused(m.at(table.table_id, GUILD, THREAD), "foreign-table")
    assert (await m.at(table.table_id, GUILD, CHANNEL)).thread_id is None
    assert (await m.at(table.table_id, None, None, HOST)).seat == 0  # a hand by DM: no place
    await m.cancel(table.table_id, HOST)
    await refused(m.set_thread(table.table_id, THREAD), "no-table")


async def test_table_of_thread_finds_the_table_playing_there(manager: Manager) -> None:
    m, _ = manager
    first = await m.open(GUILD, CHANNEL, "high-card", HOST, "Host", seed=1)
    second = await m.open(GUILD, CHANNEL, "high-card", BOB, "Bob", seed=2)
    assert await m.table_of_thread(THREAD) is None
    await m.set_thread(second.table_id, THREAD)
    await m.set_thread(first.table_id, THREAD + 1)
    found = await m.table_of_thread(THREAD)
    assert found is not None
    assert (found.table_id, found.thread_id, found.channel_id, found.seat) == (
        second.table_id, THREAD, CHANNEL, None)
    assert await m.table_of_thread(CHANNEL) is None  # a channel is no table's thread
    # the table closed, or back in its channel: no table plays in the thread
    await m.set_thread(second.table_id, None)
    assert await m.table_of_thread(THREAD) is None
    await m.set_thread(second.table_id, THREAD)
    await m.cancel(second.table_id, BOB)
    assert await m.table_of_thread(THREAD) is None
    assert (await m.table_of_thread(THREAD + 1) or second).table_id == first.table_id


async def test_the_thread_is_stored_and_back_after_a_restart(store: Storage) -> None:
    m = TableManager(store, rules_for=lookup, ai_delay=0.0)
    try:
        threaded = await m.open(GUILD, CHANNEL, "high-card", HOST, "Host", seed=1)
        plain = await m.open(GUILD, CHANNEL, "high-card", BOB, "Bob", seed=2)
        await m.join(threaded.table_id, BOB, "Bob")
        await m.start(threaded.table_id, HOST)
        await m.set_thread(threaded.table_id, THREAD)
        await m.join(plain.table_id, HOST, "Host")  # a later save keeps the other's thread
    finally:
        await m.close()
    row = await store.table(threaded.table_id)
    assert row is not None and row.thread_id == THREAD
    again = TableManager(store, rules_for=lookup, ai_delay=0.0)
    try:
        resumed = {p.table_id: p for p in await again.resume()}
        assert resumed[threaded.table_id].thread_id == THREAD
        assert resumed[plain.table_id].thread_id is None
        assert (await again.at(threaded.table_id, GUILD, THREAD, BOB)).seat == 1
        assert [p.table_id for p in await again.tables_in(CHANNEL)] == [
            threaded.table_id, plain.table_id]
    finally:
        await again.close()


async def test_tables_of_lists_a_persons_seats_from_their_seat(manager: Manager) -> None:
    m, _ = manager
    first = await m.open(GUILD, CHANNEL, "high-card", HOST, "Host", seed=1)
    await m.join(first.table_id, BOB, "Bob")
    await m.start(first.table_id, HOST)
    second = await m.open(GUILD, OTHER_CHANNEL, "high-card", CAROL, "Carol", seed=2)
    await m.join(second.table_id, BOB, "Bob")
    elsewhere = await m.open(OTHER_GUILD, CHANNEL + 100, "high-card", BOB, "Bob", seed=3)
    await m.open(GUILD, CHANNEL, "high-card", HOST, "Host", seed=4)  # Bob holds no seat here
    found = await m.tables_of(BOB, GUILD)
    assert [(p.table_id, p.seat) for p in found] == [(first.table_id, 1), (second.table_id, 1)]
    playing = found[0]
    assert playing.own is not None and playing.own == (await m.position(first.table_id, 1)).own
    assert [p.table_id for p in await m.tables_of(BOB, None)] == [
        first.table_id, second.table_id, elsewhere.table_id]
    assert await m.tables_of(BOB, 999) == ()
    await m.leave(second.table_id, BOB)
    await m.cancel(elsewhere.table_id, BOB)
    assert [p.table_id for p in await m.tables_of(BOB, None)] == [first.table_id]


async def test_a_manager_sets_the_limits_by_command(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        alice, manager = w.users  # the last person may manage the server
        r = await w.sim.slash(manager, w.channel, "limits", {})
        assert r.ephemeral and "10 per channel, 21 per person" in (r.content or ""), r
        r = await w.sim.slash(manager, w.channel, "limits", {"per-channel": 1})
        assert r.ephemeral and "Saved" in (r.content or "") and "1 per channel" in (
            r.content or ""), r
        assert await w.bot.manager.limits(int(w.guild.id)) == GuildSettings(1, 21)
        r = await w.sim.slash(alice, w.channel, "play", {"game": "high-card"})
        await w.sim.settle()
        r = await w.sim.slash(manager, w.channel, "play", {"game": "high-card"})
        assert r.ephemeral and "already holds 1 open tables" in (r.content or ""), r
        r = await w.sim.slash(manager, w.channel, "limits", {"per-channel": 2}, locale="ja")
        assert "保存しました" in (r.content or "") and "2 卓" in (r.content or ""), r
        r = await w.sim.slash(manager, w.channel, "play", {"game": "high-card"})
        await w.sim.settle()
        assert len(await w.bot.manager.tables_in(int(w.channel.id))) == 2
        assert w.sim.spec_errors == []
