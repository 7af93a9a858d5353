"""Correspondence storage on both back ends: a table's deadline, reminder and choice at a
deadline; a person's time zone, quiet hours, away and digest; the downtime rule in one
statement; the bot's last instant alive; and a database of the version before reading back
with the defaults."""

from __future__ import annotations

from typing import Any

from bot.storage.db import connect
from bot.storage.store import LAST_ALIVE, MIGRATIONS, Storage, TableRow, UserSettings
from bot.tables.model import Seat, Table
from tests.bot.fakegame import lookup

#: the migrations of the version before correspondence
BEFORE = 8
SEATS: list[dict[str, Any]] = [{"user_id": 11, "name": "Ada", "computer": False,
                                "away": False, "timeouts": 1}]


async def playing(store: Storage, channel: int, **fields: Any) -> TableRow:
    """A table being played (stored as the bot stores one), with ``fields`` changed."""
    table_id = await store.create_table(1, channel, "high-card", 11, SEATS, {}, 7, "24h")
    row = await store.table(table_id)
    assert row is not None
    row.status = "playing"
    for name, value in fields.items():
        setattr(row, name, value)
    await store.save_table(row)
    return row


async def test_a_database_of_the_version_before_migrates_and_reads_back_with_defaults(
        target: str) -> None:
    db = await connect(target)
    await db.migrate(MIGRATIONS[:BEFORE])
    assert await db.version() == BEFORE
    # rows as the version before wrote them
    await db.execute(
        "INSERT INTO tables (guild_id, channel_id, game, host_id, status, seats, options,"
        " seed, timer, message_id, created, updated, level, hints)"
        " VALUES (1, 2, 'high-card', 11, 'playing', ?, '{}', 7, 'fast', 99, 0, 0, 'hard', 1)",
        '[{"user_id": 11, "name": "Ada", "computer": false, "away": false, "timeouts": 1}]')
    await db.execute(
        "INSERT INTO user_settings (user_id, dm, locale, four_colour, alerts)"
        " VALUES (11, 1, 'ja', 1, 0)")
    await db.close()

    store = await Storage.open(target)
    try:
        assert await store.version() == len(MIGRATIONS) > BEFORE
        [row] = await store.open_tables()
        assert (row.status, row.timer, row.message_id, row.level, row.hints) == (
            "playing", "fast", 99, "hard", True)
        assert (row.deadline_at, row.reminded, row.on_deadline) == (None, False, "computer")
        assert row.seats[0]["timeouts"] == 1
        assert await store.user_settings(11) == UserSettings(
            dm=True, locale="ja", four_colour=True, alerts=False)
        settings = await store.user_settings(11)
        assert (settings.tz, settings.quiet_from, settings.quiet_to, settings.away_until,
                settings.away_used, settings.away_year, settings.digest) == (
            "UTC", None, None, None, 0.0, None, False)
        assert await store.last_alive() is None
    finally:
        await store.close()


async def test_a_deadline_is_stored_read_back_and_kept_by_saves_while_played(
        store: Storage) -> None:
    row = await playing(store, 2, on_deadline="drop")
    await store.set_deadline(row.id, 1_800_000_123.25, reminded=False)
    stored = await store.table(row.id)
    assert stored is not None
    assert (stored.deadline_at, stored.reminded, stored.on_deadline) == (
        1_800_000_123.25, False, "drop")
    await store.set_deadline(row.id, 1_800_000_123.25, reminded=True)
    stored.message_id = 5  # another save of the table leaves its deadline alone
    await store.save_table(stored)
    [again] = await store.open_tables()
    assert (again.deadline_at, again.reminded, again.message_id) == (1_800_000_123.25, True, 5)
    await store.set_deadline(row.id, None)
    cleared = await store.table(row.id)
    assert cleared is not None and (cleared.deadline_at, cleared.reminded) == (None, False)


async def test_a_table_no_longer_played_has_no_deadline(store: Storage) -> None:
    cancelled = await playing(store, 2)
    await store.set_deadline(cancelled.id, 5000.0)
    cancelled.status = "cancelled"
    await store.save_table(cancelled)
    finished = await playing(store, 3)
    await store.set_deadline(finished.id, 6000.0)
    await store.finish(finished, {"places": [1]})
    for table_id in (cancelled.id, finished.id):
        row = await store.table(table_id)
        assert row is not None and row.deadline_at is None


async def test_downtime_shifts_every_running_deadline_in_one_statement(store: Storage) -> None:
    running = await playing(store, 2)
    passed = await playing(store, 3)
    untimed = await playing(store, 4)
    other = await playing(store, 5)
    await store.set_deadline(running.id, 1000.0)
    await store.set_deadline(passed.id, 800.0)  # ran out while the bot was alive
    await store.set_deadline(other.id, 950.5, reminded=True)
    assert await store.shift_deadlines(600.0, since=900.0) == 2
    found = {r.id: (r.deadline_at, r.reminded) for r in await store.open_tables()}
    assert found == {running.id: (1600.0, False), passed.id: (800.0, False),
                     untimed.id: (None, False), other.id: (1550.5, True)}
    assert await store.shift_deadlines(0.0, since=900.0) == 0


async def test_a_persons_time_settings_round_trip_and_are_listed(store: Storage) -> None:
    away = UserSettings(tz="Asia/Tokyo", quiet_from=22, quiet_to=7, away_until=1_800_500_000.5,
                        away_used=3 * 86_400.0, away_year=2027, digest=True, locale="ja")
    await store.set_user_settings(21, away)
    await store.set_user_settings(22, UserSettings(digest=True))
    await store.set_user_settings(23, UserSettings(dm=True))
    assert await store.user_settings(21) == away
    assert await store.user_settings(24) == UserSettings()
    assert await store.people_away() == {21: 1_800_500_000.5}
    assert await store.digest_people() == {21: "Asia/Tokyo", 22: "UTC"}
    await store.set_user_settings(21, UserSettings(tz="Asia/Tokyo"))  # back; no digest
    assert await store.people_away() == {}
    assert await store.digest_people() == {22: "UTC"}


async def test_the_last_instant_alive_is_kept_in_the_bots_state(store: Storage) -> None:
    await store.mark_alive(1_800_000_000.125)
    await store.mark_alive(1_800_000_060.5)
    assert await store.last_alive() == 1_800_000_060.5
    assert await store.state(LAST_ALIVE) is not None


async def test_a_tables_row_carries_its_deadline(store: Storage) -> None:
    row = await playing(store, 2)
    table = Table(row.id, 1, 2, lookup("high-card"), 11, "playing",
                  [Seat.from_dict(s) for s in SEATS], {}, 7, "3d", deadline_at=4321.5,
                  reminded=True, on_deadline="drop")
    made = table.row()
    assert (made.deadline_at, made.reminded, made.on_deadline) == (4321.5, True, "drop")
    await store.save_table(made)
    await store.set_deadline(made.id, made.deadline_at, made.reminded)
    stored = await store.table(row.id)
    assert stored is not None
    assert (stored.timer, stored.deadline_at, stored.reminded, stored.on_deadline) == (
        "3d", 4321.5, True, "drop")
