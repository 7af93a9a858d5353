"""Storage on both back ends (each test runs on SQLite and on PostgreSQL): migrations, table ids
shared by several processes, transactions, Discord-sized ids; and the PostgreSQL dialect."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.storage.db import IntegrityError, Plan, Step, is_postgres
from bot.storage.db.postgres import numbered, postgres_ddl
from bot.storage.db.sqlite import statements
from bot.storage.store import MIGRATIONS, GuildSettings, Storage, UserSettings

SNOWFLAKE = 1_234_567_890_123_456_789  # a Discord id: far beyond 32 bits


async def test_migrations_are_numbered_and_run_once(target: str) -> None:
    store = await Storage.open(target)
    assert await store.version() == len(MIGRATIONS)
    await store.set_user_settings(7, UserSettings(dm=True, locale="ja", four_colour=True))
    await store.close()
    store = await Storage.open(target)  # opening again runs nothing and keeps the data
    assert await store.version() == len(MIGRATIONS)
    assert await store.user_settings(7) == UserSettings(True, "ja", True)
    assert await store.user_settings(8) == UserSettings()
    await store.close()


async def test_two_processes_migrating_an_empty_database_at_once(target: str) -> None:
    stores = await asyncio.gather(*(Storage.open(target) for _ in range(3)))
    for store in stores:
        assert await store.version() == len(MIGRATIONS)
    assert await stores[0].create_table(1, 2, "high-card", 3, [], {}, 4, "off") == 1
    for store in stores:
        await store.close()


async def test_table_ids_come_from_the_database_for_every_process(target: str) -> None:
    first, second = await Storage.open(target), await Storage.open(target)
    made = await asyncio.gather(*(
        (first if i % 2 else second).create_table(1, 100 + i, "high-card", 5, [], {}, i, "off")
        for i in range(10)))
    assert sorted(made) == list(range(1, 11))  # no id twice, none skipped
    for store in (first, second):  # each sees every table, whoever stored it
        assert [t.id for t in await store.open_tables()] == list(range(1, 11))
    await first.close()
    await second.close()


async def test_many_open_tables_per_channel_across_processes(target: str) -> None:
    """A channel holds many open tables (the table service counts them against the server's
    cap); a server's caps are stored, read back by another process."""
    first, second = await Storage.open(target), await Storage.open(target)
    table_id = await first.create_table(1, 50, "high-card", 5, [], {}, 1, "off")
    other = await second.create_table(1, 50, "high-card", 6, [], {}, 2, "off")
    assert other > table_id
    assert [(t.id, t.channel_id, t.thread_id) for t in await first.open_tables()] == [
        (table_id, 50, None), (other, 50, None)]
    row = await first.table(table_id)
    assert row is not None
    row.thread_id = 9_000_000_000_000_000_001  # a Discord id: 64 bits on PostgreSQL too
    await first.save_table(row)
    again = await second.table(table_id)
    assert again is not None and again.thread_id == 9_000_000_000_000_000_001
    assert await second.guild_settings(1) == GuildSettings(10, 21)  # none stored: defaults
    await first.set_guild_settings(1, GuildSettings(3, 5))
    await first.set_guild_settings(2, GuildSettings(4, 6))
    await first.set_guild_settings(1, GuildSettings(2, 7))  # replaced, not added
    assert await second.guild_settings(1) == GuildSettings(2, 7)
    assert await second.guild_settings(2) == GuildSettings(4, 6)
    await first.close()
    await second.close()


async def test_discord_ids_and_seeds_keep_every_bit(store: Storage) -> None:
    seed = 2**62 - 1
    table_id = await store.create_table(SNOWFLAKE, SNOWFLAKE + 1, "high-card", SNOWFLAKE + 2,
                                        [{"user_id": SNOWFLAKE + 3, "name": "Ada"}], {"hand": 3},
                                        seed, "fast")
    await store.add_action(table_id, 0, 0, "play 2S", SNOWFLAKE + 3, "button")
    row = await store.table(table_id)
    assert row is not None
    assert (row.guild_id, row.channel_id, row.host_id, row.seed) == (
        SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2, seed)
    assert row.seats[0]["user_id"] == SNOWFLAKE + 3 and row.options == {"hand": 3}
    row.message_id = SNOWFLAKE + 4
    await store.save_table(row)
    again = await store.table(table_id)
    assert again is not None and again.message_id == SNOWFLAKE + 4
    [action] = await store.actions(table_id)
    assert action.user_id == SNOWFLAKE + 3 and action.action == "play 2S"
    await store.set_user_settings(SNOWFLAKE, UserSettings(locale="en"))
    assert (await store.user_settings(SNOWFLAKE)).locale == "en"


async def test_finishing_twice_keeps_one_result_and_the_latest_outcome(store: Storage) -> None:
    table_id = await store.create_table(1, 2, "high-card", 3, [{"user_id": 3}], {}, 4, "off")
    row = await store.table(table_id)
    assert row is not None
    await store.finish(row, {"places": [2]})
    await store.finish(row, {"places": [1]})
    result = await store.result(table_id)
    assert result is not None and result["outcome"] == {"places": [1]}
    assert await store.db.one("SELECT COUNT(*) FROM results") == (1,)
    assert await store.open_tables() == []
    assert await store.result(table_id + 1) is None


async def test_a_failed_write_plan_leaves_nothing_behind(store: Storage) -> None:
    table_id = await store.create_table(1, 2, "high-card", 3, [], {}, 4, "off")

    def half_done() -> Plan[None]:
        yield Step.run("UPDATE tables SET status='finished' WHERE id=?", table_id)
        yield Step.run("INSERT INTO actions (table_id, idx, seat, action, how, at)"
                       " VALUES (?, 0, 0, 'x', 'button', 0)", table_id)
        raise RuntimeError("the process died half-way")

    with pytest.raises(RuntimeError):
        await store.db.run(half_done(), write=True)
    assert [t.id for t in await store.open_tables()] == [table_id]
    assert await store.actions(table_id) == []


async def test_a_plan_can_answer_a_refused_write_itself(store: Storage) -> None:
    table_id = await store.create_table(1, 2, "high-card", 3, [], {}, 4, "off")
    await store.add_action(table_id, 0, 0, "x", 3, "button")

    def try_again() -> Plan[str]:
        try:  # action 0 of that table again: its primary key refuses it
            yield Step.run("INSERT INTO actions (table_id, idx, seat, action, how, at)"
                           " VALUES (?, 0, 0, 'y', 'button', 0)", table_id)
        except IntegrityError:
            return "busy"
        return "stored"

    assert await store.db.run(try_again()) == "busy"
    with pytest.raises(IntegrityError):  # a foreign key: no action for a table that is not
        await store.add_action(999, 0, 0, "x", None, "button")


async def test_a_plan_sees_its_own_writes_and_the_rows_come_back_as_tuples(
        store: Storage) -> None:
    def plan() -> Plan[list[tuple[object, ...]]]:
        changed = yield Step.run("INSERT INTO user_settings (user_id, dm, locale)"
                                 " VALUES (?, 1, 'ja'), (?, 0, NULL)", 1, 2)
        assert changed == 2
        yield Step.many("UPDATE user_settings SET locale=? WHERE user_id=?", [("en", 2)])
        return (yield Step.all("SELECT user_id, dm, locale FROM user_settings ORDER BY user_id"))

    assert await store.db.run(plan(), write=True) == [(1, 1, "ja"), (2, 0, "en")]
    assert await store.db.execute("DELETE FROM user_settings WHERE dm=?", 0) == 1
    assert await store.db.one("SELECT locale FROM user_settings WHERE user_id=?", 2) is None


def test_addresses_choose_the_back_end() -> None:
    assert is_postgres("postgresql://bot:pw@db.example:5432/deckhand")
    assert is_postgres("postgres://db/deckhand") and is_postgres("PostgreSQL://db/x")
    for path in ("./deckhand.sqlite3", "/data/deckhand.db", "postgresql.sqlite3", "mysql://x"):
        assert not is_postgres(path)


def test_placeholders_are_numbered_outside_quoted_text() -> None:
    assert numbered("SELECT a FROM t WHERE b=? AND c='?' AND d=? -- ok") == (
        "SELECT a FROM t WHERE b=$1 AND c='?' AND d=$2 -- ok")
    assert numbered("INSERT INTO t VALUES ('it''s ?', ?, \"?\")") == (
        "INSERT INTO t VALUES ('it''s ?', $1, \"?\")")
    assert numbered("SELECT 1") == "SELECT 1"


def test_postgresql_gets_wide_columns_and_an_identity() -> None:
    ddl = postgres_ddl(MIGRATIONS[0])
    assert "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY" in ddl
    assert "guild_id BIGINT NOT NULL" in ddl and "created DOUBLE PRECISION NOT NULL" in ddl
    assert "INTEGER" not in ddl and " REAL" not in ddl
    assert postgres_ddl("ALTER TABLE user_settings ADD COLUMN four_colour INTEGER NOT NULL"
                        " DEFAULT 0;") == ("ALTER TABLE user_settings ADD COLUMN four_colour"
                                           " BIGINT NOT NULL DEFAULT 0;")


def test_migrations_split_into_statements() -> None:
    found = statements("CREATE TABLE a (x TEXT DEFAULT ';');\n-- a note; still a note\n"
                       "CREATE INDEX b ON a(x);\n")
    assert found == ["CREATE TABLE a (x TEXT DEFAULT ';');",
                     "-- a note; still a note\nCREATE INDEX b ON a(x);"]
    assert len(statements(MIGRATIONS[0])) == 5  # four tables, one index


async def test_actions_appended_together_are_all_stored_or_none(store: Storage) -> None:
    table_id = await store.create_table(1, 60, "high-card", 5, [], {}, 1, "off")
    await store.add_action(table_id, 0, 0, "play AS", 7, "player")
    await store.add_actions([(table_id, 1, 1, "play KD", None, "computer"),
                             (table_id, 2, 0, "play 2C", 7, "player")])
    assert [(a.idx, a.action) for a in await store.actions(table_id)] == [
        (0, "play AS"), (1, "play KD"), (2, "play 2C")]
    with pytest.raises(IntegrityError):  # idx 2 again: the whole batch is refused
        await store.add_actions([(table_id, 3, 1, "play 3C", None, "computer"),
                                 (table_id, 2, 1, "play 4C", None, "computer")])
    with pytest.raises(IntegrityError):
        await store.add_action(table_id, 1, 1, "play 5C", None, "computer")
    assert [a.idx for a in await store.actions(table_id)] == [0, 1, 2]
    await store.add_action(table_id, 3, 1, "play 3C", None, "computer")  # still usable
    assert [a.idx for a in await store.actions(table_id)] == [0, 1, 2, 3]


async def test_an_append_never_blocks_the_event_loop_on_another_process_lock(
        tmp_path: Path) -> None:
    path = str(tmp_path / "locked.sqlite3")
    store = await Storage.open(path)
    table_id = await store.create_table(1, 61, "high-card", 5, [], {}, 1, "off")
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.get_running_loop().create_task(tick())
    append = asyncio.get_running_loop().create_task(
        store.add_action(table_id, 0, 0, "play AS", 7, "player"))
    await asyncio.sleep(0.3)
    assert not append.done()  # it waits for the lock...
    assert ticks >= 10  # ...without stopping the event loop
    other.execute("COMMIT")
    await asyncio.wait_for(append, 5)
    ticker.cancel()
    assert [a.action for a in await store.actions(table_id)] == ["play AS"]
    assert store.db.slow_appends == 1  # type: ignore[attr-defined]
    other.close()
    await store.close()


async def test_appends_on_the_event_loop_leave_checkpoints_to_aiosqlite(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.storage.db import sqlite as backend

    db = store.db
    assert isinstance(db, backend.AsyncSqlite)
    monkeypatch.setattr(backend, "CHECKPOINT_EVERY", 3)
    asked: list[str] = []
    original = db.one

    async def spied(sql: str, *args: Any) -> Any:
        asked.append(sql)
        return await original(sql, *args)

    monkeypatch.setattr(db, "one", spied)
    table = await store.create_table(100, 9, "high-card", 1, [], {}, 1, "off")
    for idx in range(2):
        await store.add_action(table, idx, 0, "knock", 1, "player")
    assert db._quick is not None
    # the loop's connection never copies the log into the file itself (disk writes, syncs)
    assert db._quick.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    assert not any("wal_checkpoint" in sql for sql in asked)
    await store.add_action(table, 2, 0, "knock", 1, "player")  # the third: a checkpoint
    assert db._checkpointing is not None
    await db._checkpointing
    assert [sql for sql in asked if "wal_checkpoint" in sql] == ["PRAGMA wal_checkpoint(PASSIVE)"]
    assert len(await store.actions(table)) == 3


async def test_the_bot_s_own_values_are_read_by_their_names_prefix(store: Storage) -> None:
    """``states(prefix)``: every value stored under names starting so, in one query (why
    tables left their threads, read at start); a name that only matches LIKE's wildcards
    is not one of them."""
    await store.set_state("thread-left:1", "thread-deleted")
    await store.set_state("thread-left:22", "thread-locked")
    await store.set_state("threadXleft:3", "other")
    await store.set_state("alert:1", "7")
    assert await store.states("thread-left:") == {"thread-left:1": "thread-deleted",
                                                  "thread-left:22": "thread-locked"}
    assert await store.states("thread_left:") == {}
    assert await store.states("none:") == {}
