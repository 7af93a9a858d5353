"""Storage (numbered migrations; SQLite or PostgreSQL, see :mod:`bot.storage.db`): tables, actions,
settings, results.

Every write is committed before the caller goes on, so an action is on disk before anyone
sees its result, and a restart can rebuild every table by replaying its actions. The migrations
are written in SQL both back ends understand (PostgreSQL gets wider column types, see
:func:`bot.storage.db.postgres.postgres_ddl`); table ids come from the database, never from a
process.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from bot.storage.db import Database, Plan, Row, Step, connect

#: numbered migrations, shared by both back ends (SQLite counts them in ``user_version``,
#: PostgreSQL in ``deckhand_schema``); write SQL both understand
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        host_id INTEGER NOT NULL,
        status TEXT NOT NULL,
        seats TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        timer TEXT NOT NULL,
        message_id INTEGER,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE UNIQUE INDEX one_open_table_per_channel
        ON tables(channel_id) WHERE status IN ('lobby', 'playing');
    CREATE TABLE actions (
        table_id INTEGER NOT NULL REFERENCES tables(id),
        idx INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        user_id INTEGER,
        how TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, idx)
    );
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        dm INTEGER NOT NULL DEFAULT 0,
        locale TEXT
    );
    CREATE TABLE results (
        table_id INTEGER PRIMARY KEY REFERENCES tables(id),
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        seats TEXT NOT NULL,
        outcome TEXT NOT NULL,
        finished REAL NOT NULL
    );
    """,
    # 2: the record of finished games (bot.storage.records), and current ratings per server and game
    """
    CREATE TABLE records (
        table_id INTEGER PRIMARY KEY REFERENCES tables(id),
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL,
        places TEXT NOT NULL,
        scores TEXT NOT NULL,
        rated INTEGER NOT NULL,
        moves INTEGER NOT NULL,
        started REAL NOT NULL,
        finished REAL NOT NULL
    );
    CREATE INDEX records_by_guild ON records(guild_id, finished);
    CREATE TABLE record_seats (
        table_id INTEGER NOT NULL REFERENCES records(table_id),
        seat INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        side INTEGER NOT NULL,
        place INTEGER NOT NULL,
        rank INTEGER NOT NULL,
        score REAL NOT NULL,
        won INTEGER NOT NULL,
        abandoned INTEGER NOT NULL,
        finished REAL NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE INDEX record_seats_by_user ON record_seats(user_id, guild_id, finished);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL,
        rated INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, ordinal DESC, user_id);
    """,
    # 3: a player's choice of a four-colour deck for their private hand picture
    """
    ALTER TABLE user_settings ADD COLUMN four_colour INTEGER NOT NULL DEFAULT 0;
    """,
    # 4: the level a table's computer players play at ('': the bot's own level)
    """
    ALTER TABLE tables ADD COLUMN level TEXT NOT NULL DEFAULT '';
    """,
    # 5: what the bot itself keeps between starts (the fingerprint of the commands last synced)
    """
    CREATE TABLE bot_state (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 6: a player's choice of being mentioned in the channel when it is their turn
    """
    ALTER TABLE user_settings ADD COLUMN alerts INTEGER NOT NULL DEFAULT 1;
    """,
    # 7: whether a table's host allows hints (the Hint button on the players' panels)
    """
    ALTER TABLE tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    """,
    # 8: each shard's process's internal web address (several processes on PostgreSQL: a
    # viewer's socket reaching another process is forwarded to the owner, bot/web/routing.py)
    """
    CREATE TABLE web_routes (
        shard_count INTEGER NOT NULL,
        shard INTEGER NOT NULL,
        url TEXT NOT NULL,
        updated REAL NOT NULL,
        PRIMARY KEY (shard_count, shard)
    );
    """,
    # 9: correspondence tables: the instant the person due must move by (NULL: no deadline
    # running), whether they were reminded of it, and what a missed deadline does
    # (bot.tables.pace.DEADLINE_CHOICES); the index serves the restart's one UPDATE that adds
    # the downtime to every running deadline
    """
    ALTER TABLE tables ADD COLUMN deadline_at REAL;
    ALTER TABLE tables ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE tables ADD COLUMN on_deadline TEXT NOT NULL DEFAULT 'computer';
    CREATE INDEX tables_running_deadlines ON tables(deadline_at)
        WHERE deadline_at IS NOT NULL;
    """,
    # 10: a person's time: their IANA time zone, quiet hours (local hours, NULL: none), away
    # (until when; seconds of the yearly budget spent, and the UTC year they were spent in)
    # and the daily digest
    """
    ALTER TABLE user_settings ADD COLUMN tz TEXT NOT NULL DEFAULT 'UTC';
    ALTER TABLE user_settings ADD COLUMN quiet_from INTEGER;
    ALTER TABLE user_settings ADD COLUMN quiet_to INTEGER;
    ALTER TABLE user_settings ADD COLUMN away_until REAL;
    ALTER TABLE user_settings ADD COLUMN away_used REAL NOT NULL DEFAULT 0;
    ALTER TABLE user_settings ADD COLUMN away_year INTEGER;
    ALTER TABLE user_settings ADD COLUMN digest INTEGER NOT NULL DEFAULT 0;
    """,
    # 11: many open tables in a channel, each in its own thread (thread_id; NULL: in its
    # channel, as every table opened before), up to a server's caps per channel and per person
    # (guild_settings; no row: the defaults of GuildSettings). The index that refused a second
    # open table in a channel goes: the table service counts a channel's tables instead
    """
    DROP INDEX one_open_table_per_channel;
    ALTER TABLE tables ADD COLUMN thread_id INTEGER;
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        tables_per_channel INTEGER NOT NULL,
        tables_per_person INTEGER NOT NULL
    );
    """,
    # 12: the state version a stored deadline belongs to: a bot stopped between storing a
    # move and storing its turn's deadline must not apply the old turn's to the new one
    """
    ALTER TABLE tables ADD COLUMN deadline_version INTEGER;
    """,
    # 13: seasons (bot.storage.records): a server's numbered seasons (ended NULL: the running
    # one; ends: when it ends by itself, NULL: by hand only), each game's season, and ratings
    # per season beside the all-time ``ratings``, which stay as they were. A server's history
    # from before seasons is its season 1, still running: its records and its ratings as they
    # stand are season 1's
    """
    CREATE TABLE seasons (
        guild_id INTEGER NOT NULL,
        number INTEGER NOT NULL,
        length TEXT NOT NULL,
        started REAL NOT NULL,
        ends REAL,
        ended REAL,
        PRIMARY KEY (guild_id, number)
    );
    CREATE TABLE season_ratings (
        guild_id INTEGER NOT NULL,
        season INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL,
        rated INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, season, game, user_id)
    );
    CREATE INDEX season_board ON season_ratings(guild_id, season, game, ordinal DESC, user_id);
    ALTER TABLE records ADD COLUMN season INTEGER NOT NULL DEFAULT 1;
    INSERT INTO seasons (guild_id, number, length, started, ends, ended)
        SELECT guild_id, 1, 'none', MIN(started), NULL, NULL FROM records GROUP BY guild_id;
    INSERT INTO season_ratings (guild_id, season, game, user_id, name, mu, sigma, ordinal,
                                rated, games, wins)
        SELECT guild_id, 1, game, user_id, name, mu, sigma, ordinal, rated, games, wins
        FROM ratings;
    """,
    # 14: tournaments (bot.tournaments.store): an event, its entrants (in sign-up order, the
    # seeding; dropped: why, NULL while in) and each round's tables (seats as the pairing gave
    # them, the service's table once opened, and its result once in: ``done`` makes a result
    # count once, whether it came by an event or was found at a restart)
    """
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        organiser_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        fmt TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        size INTEGER NOT NULL,
        advance INTEGER NOT NULL,
        duplicate INTEGER NOT NULL,
        starts_at REAL NOT NULL,
        checkin_minutes INTEGER NOT NULL,
        pace TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL,
        round INTEGER NOT NULL,
        paused INTEGER NOT NULL,
        ended TEXT,
        message_id INTEGER,
        created REAL NOT NULL
    );
    CREATE INDEX tournaments_running ON tournaments(status);
    CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        seq INTEGER NOT NULL,
        checked_in INTEGER NOT NULL,
        dropped TEXT,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        seats TEXT NOT NULL,
        seed INTEGER NOT NULL,
        table_id INTEGER,
        done INTEGER NOT NULL,
        places TEXT,
        seat_keys TEXT,
        absent TEXT NOT NULL,
        PRIMARY KEY (tournament_id, round, number)
    );
    CREATE INDEX tournament_tables_by_table ON tournament_tables(table_id);
    """,
)

#: the ``bot_state`` name of the last instant the bot was known alive (epoch seconds on the
#: service's clock, as text): the downtime a restart adds to every running deadline
LAST_ALIVE = "last-alive"


@dataclass
class TableRow:
    """A table as stored: lobby, seats, options, seed, host, channel, message, timer, status
    its computer players' level ('': the bot's own) and whether hints are allowed."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    host_id: int
    status: str
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    timer: str
    message_id: int | None
    level: str = ""
    hints: bool = False
    #: the instant the person due must move by (correspondence; None: none running). Written
    #: by :meth:`Storage.set_deadline` alone (not by ``save_table``), cleared when the table
    #: stops being played
    deadline_at: float | None = None
    #: whether the person due was reminded of ``deadline_at`` (written with it)
    reminded: bool = False
    #: what a missed deadline does: ``computer`` or ``drop`` (bot.tables.pace)
    on_deadline: str = "computer"
    #: the thread the table plays in (None: in its channel, ``channel_id``)
    thread_id: int | None = None
    #: the state version ``deadline_at`` was set at (None: stored before versions were)
    deadline_version: int | None = None


@dataclass(frozen=True)
class ActionRow:
    """One stored action: its index (the state version before it), seat, text and who did it."""

    idx: int
    seat: int
    action: str
    user_id: int | None
    how: str


@dataclass(frozen=True)
class UserSettings:
    """A user's preferences."""

    dm: bool = False
    locale: str | None = None
    four_colour: bool = False
    alerts: bool = True  # mentioned in the table's channel when it is their turn
    #: their IANA time zone (quiet hours and the digest are in its local time)
    tz: str = "UTC"
    #: quiet hours, local hours from and to (both None: none; see bot.tables.pace.Quiet)
    quiet_from: int | None = None
    quiet_to: int | None = None
    #: the instant their away period ends (None: not away)
    away_until: float | None = None
    #: seconds of away spent in ``away_year`` (UTC; a count of an earlier year has lapsed)
    away_used: float = 0.0
    away_year: int | None = None
    #: whether they get the daily digest
    digest: bool = False


@dataclass(frozen=True)
class GuildSettings:
    """What a server's managers chose (``/limits``): how many open tables a channel may hold,
    and how many a person may sit at in the server (Board Game Arena's turn-based limit)."""

    tables_per_channel: int = 10
    tables_per_person: int = 21


class Storage:
    """The bot's database; open with :meth:`open`, close with :meth:`close`.

    ``db`` is the :class:`bot.storage.db.Database` underneath: SQLite or PostgreSQL.
    """

    def __init__(self, db: Database, target: str) -> None:
        self.db = db
        self.target = target

    @classmethod
    async def open(cls, target: str) -> Storage:
        """Open (creating and migrating as needed) the database at ``target``: a SQLite file
        path, or a ``postgresql://`` address."""
        store = cls(await connect(target), target)
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connections."""
        await self.db.close()

    async def version(self) -> int:
        """How many migrations have run."""
        return await self.db.version()

    async def migrate(self) -> None:
        """Run every migration not yet run, each in its own transaction."""
        await self.db.migrate(MIGRATIONS)

    # -- tables -----------------------------------------------------------------------------
    async def create_table(
        self, guild_id: int, channel_id: int, game: str, host_id: int,
        seats: list[dict[str, Any]], options: dict[str, Any], seed: int, timer: str,
    ) -> int:
        """Store a new lobby and return its id (from the database, so processes sharing it
        never clash)."""
        now = time.time()
        row = await self.db.one(
            "INSERT INTO tables (guild_id, channel_id, game, host_id, status, seats, options,"
            " seed, timer, message_id, created, updated)"
            " VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, NULL, ?, ?) RETURNING id",
            guild_id, channel_id, game, host_id, json.dumps(seats), json.dumps(options),
            seed, timer, now, now,
        )
        assert row is not None
        return int(row[0])

    async def save_table(self, row: TableRow) -> None:
        """Write a table's lobby fields, seats, status, message id and what a missed deadline
        does. Its deadline is :meth:`set_deadline`'s, except that a table no longer played
        loses it."""
        await self.db.execute(
            "UPDATE tables SET game=?, host_id=?, status=?, seats=?, options=?, seed=?, timer=?,"
            " message_id=?, level=?, hints=?, on_deadline=?, thread_id=?, updated=?,"
            " deadline_at=CASE WHEN ?='playing' THEN deadline_at ELSE NULL END WHERE id=?",
            row.game, row.host_id, row.status, json.dumps(row.seats), json.dumps(row.options),
            row.seed, row.timer, row.message_id, row.level, int(row.hints), row.on_deadline,
            row.thread_id, time.time(), row.status, row.id,
        )

    async def set_deadline(self, table_id: int, instant: float | None,
                           reminded: bool = False, version: int | None = None) -> None:
        """Store a table's running deadline (None: none), whether its person was reminded,
        and the state version the deadline is of."""
        await self.db.execute(
            "UPDATE tables SET deadline_at=?, reminded=?, deadline_version=? WHERE id=?",
            None if instant is None else float(instant), int(reminded), version, table_id,
        )

    async def shift_deadlines(self, seconds: float, since: float) -> int:
        """Add ``seconds`` (the bot's downtime) to every deadline of a table being played that
        was still running at ``since`` (the bot's last instant alive), in one statement; how
        many were shifted (:func:`bot.tables.pace.shift_for_downtime`'s rule)."""
        if seconds <= 0:
            return 0
        return await self.db.execute(
            "UPDATE tables SET deadline_at=deadline_at+? WHERE deadline_at IS NOT NULL"
            " AND deadline_at>? AND status='playing'",
            float(seconds), float(since),
        )

    async def table(self, table_id: int) -> TableRow | None:
        """One table, or None."""
        row = await self.db.one(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id=?", table_id)
        return None if row is None else _table_row(row)

    async def open_tables(self) -> list[TableRow]:
        """Every table in a lobby or being played, oldest first."""
        rows = await self.db.all(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ('lobby', 'playing')"
            " ORDER BY id"
        )
        return [_table_row(r) for r in rows]

    # -- actions ----------------------------------------------------------------------------
    async def add_action(
        self, table_id: int, idx: int, seat: int, action: str, user_id: int | None, how: str,
    ) -> None:
        """Store one action (committed before returning)."""
        await self.db.append(
            "INSERT INTO actions (table_id, idx, seat, action, user_id, how, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(table_id, idx, seat, action, user_id, how, time.time())],
        )

    async def add_actions(
        self, rows: list[tuple[int, int, int, str, int | None, str]],
    ) -> None:
        """Store several actions ``(table_id, idx, seat, action, user_id, how)`` in one
        transaction (committed before returning): all of them, or none."""
        now = time.time()
        await self.db.append(
            "INSERT INTO actions (table_id, idx, seat, action, user_id, how, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(*row, now) for row in rows],
        )

    async def replace_actions(
        self, table_id: int, idx: int, seat: int, action: str, user_id: int | None, how: str,
    ) -> None:
        """Store action ``idx`` of a table in place of any stored from ``idx`` on, in one
        transaction: after a store that failed without saying whether it was committed (a
        timeout), a move its person was told did not count may be there after all."""
        await self.db.settle()  # and one given up on must not commit after this one
        await self.db.run(_replace_actions(table_id, idx, seat, action, user_id, how),
                          write=True)

    async def drop_actions(self, table_id: int, idx: int) -> int:
        """Delete a table's actions from ``idx`` on (moves whose people were told they did not
        count); how many there were. A store given up on that the database may still run is
        waited out first, else it could commit after the delete."""
        await self.db.settle()
        return await self.db.run(_drop_actions(table_id, idx), write=True)

    async def actions(self, table_id: int) -> list[ActionRow]:
        """Every action of a table, in order."""
        rows = await self.db.all(
            "SELECT idx, seat, action, user_id, how FROM actions WHERE table_id=? ORDER BY idx",
            table_id,
        )
        return [ActionRow(int(r[0]), int(r[1]), str(r[2]), r[3], str(r[4])) for r in rows]

    # -- results ----------------------------------------------------------------------------
    async def finish(
        self, row: TableRow, outcome: dict[str, Any],
    ) -> None:
        """Mark a table finished and keep its result, in one transaction."""
        await self.db.run(_finish(row, outcome), write=True)

    async def result(self, table_id: int) -> dict[str, Any] | None:
        """The stored result of a finished table: seats, outcome, game and guild; or None."""
        row = await self.db.one(
            "SELECT guild_id, game, seats, outcome, finished FROM results WHERE table_id=?",
            table_id,
        )
        if row is None:
            return None
        return {
            "guild_id": row[0], "game": row[1], "seats": json.loads(row[2]),
            "outcome": json.loads(row[3]), "finished": row[4],
        }

    # -- user settings ----------------------------------------------------------------------
    async def user_settings(self, user_id: int) -> UserSettings:
        """A user's settings (defaults when none are stored)."""
        row = await self.db.one(
            f"SELECT {_SETTINGS_COLUMNS} FROM user_settings WHERE user_id=?", user_id
        )
        return UserSettings() if row is None else _settings(row)

    async def set_user_settings(self, user_id: int, settings: UserSettings) -> None:
        """Store a user's settings."""
        await self.db.execute(
            "INSERT INTO user_settings (user_id, dm, locale, four_colour, alerts, tz,"
            " quiet_from, quiet_to, away_until, away_used, away_year, digest)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(user_id) DO UPDATE SET dm=excluded.dm, locale=excluded.locale,"
            " four_colour=excluded.four_colour, alerts=excluded.alerts, tz=excluded.tz,"
            " quiet_from=excluded.quiet_from, quiet_to=excluded.quiet_to,"
            " away_until=excluded.away_until, away_used=excluded.away_used,"
            " away_year=excluded.away_year, digest=excluded.digest",
            user_id, int(settings.dm), settings.locale, int(settings.four_colour),
            int(settings.alerts), settings.tz, settings.quiet_from, settings.quiet_to,
            settings.away_until, float(settings.away_used), settings.away_year,
            int(settings.digest),
        )

    async def people_away(self) -> dict[int, float]:
        """Every person with an away period set: user id → the instant it ends."""
        rows = await self.db.all(
            "SELECT user_id, away_until FROM user_settings WHERE away_until IS NOT NULL"
            " ORDER BY user_id")
        return {int(r[0]): float(r[1]) for r in rows}

    async def digest_people(self) -> dict[int, str]:
        """Every person who gets the daily digest: user id → their time zone."""
        rows = await self.db.all(
            "SELECT user_id, tz FROM user_settings WHERE digest<>0 ORDER BY user_id")
        return {int(r[0]): str(r[1]) for r in rows}

    # -- server settings ------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """A server's settings (the defaults when none are stored)."""
        row = await self.db.one(
            "SELECT tables_per_channel, tables_per_person FROM guild_settings WHERE guild_id=?",
            guild_id)
        return GuildSettings() if row is None else GuildSettings(int(row[0]), int(row[1]))

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Store a server's settings."""
        await self.db.execute(
            "INSERT INTO guild_settings (guild_id, tables_per_channel, tables_per_person)"
            " VALUES (?, ?, ?) ON CONFLICT(guild_id) DO UPDATE SET"
            " tables_per_channel=excluded.tables_per_channel,"
            " tables_per_person=excluded.tables_per_person",
            guild_id, settings.tables_per_channel, settings.tables_per_person)

    # -- the bot's own state ----------------------------------------------------------------
    async def state(self, name: str) -> str | None:
        """A value the bot stored for itself under ``name``, or None."""
        row = await self.db.one("SELECT value FROM bot_state WHERE name=?", name)
        return None if row is None else str(row[0])

    async def states(self, prefix: str) -> dict[str, str]:
        """Every value the bot stored for itself under a name starting with ``prefix`` (one
        query, e.g. at start for every table at once)."""
        # (LIKE's wildcards in a prefix only widen the query: the names are checked after)
        rows = await self.db.all("SELECT name, value FROM bot_state WHERE name LIKE ?",
                                 prefix + "%")
        return {str(r[0]): str(r[1]) for r in rows if str(r[0]).startswith(prefix)}

    async def set_state(self, name: str, value: str) -> None:
        """Store a value for the bot itself under ``name`` (replacing the one there): one
        small row, stored as quickly as a move (a turn alert stores one on every turn)."""
        await self.db.append(
            "INSERT INTO bot_state (name, value) VALUES (?, ?)"
            " ON CONFLICT(name) DO UPDATE SET value=excluded.value",
            [(name, value)],
        )
    async def mark_alive(self, instant: float) -> None:
        """Record ``instant`` as the bot's last known alive (:data:`LAST_ALIVE`)."""
        await self.set_state(LAST_ALIVE, repr(float(instant)))

    async def last_alive(self) -> float | None:
        """The last instant the bot was known alive, or None (never recorded)."""
        value = await self.state(LAST_ALIVE)
        return None if value is None else float(value)

    # -- the web table's routes between processes -----------------------------------------
    async def set_web_route(self, shard_count: int, shards: tuple[int, ...], url: str) -> None:
        """Record that these shards (of ``shard_count``) are served at ``url``."""
        now = time.time()
        await self.db.executemany(
            "INSERT INTO web_routes (shard_count, shard, url, updated) VALUES (?, ?, ?, ?)"
            " ON CONFLICT(shard_count, shard) DO UPDATE SET url=excluded.url,"
            " updated=excluded.updated",
            [(shard_count, shard, url, now) for shard in shards])

    async def web_route(self, shard_count: int, shard: int) -> str | None:
        """The internal web address of the process serving a shard, or None."""
        row = await self.db.one("SELECT url FROM web_routes WHERE shard_count=? AND shard=?",
                                shard_count, shard)
        return None if row is None else str(row[0])

    async def guild_of_channel(self, channel_id: int) -> int | None:
        """The guild of a channel that has ever had a table, or None."""
        row = await self.db.one("SELECT guild_id FROM tables WHERE channel_id=? LIMIT 1",
                                channel_id)
        return None if row is None else int(row[0])


def _drop_actions(table_id: int, idx: int) -> Plan[int]:
    count: int = yield Step.run("DELETE FROM actions WHERE table_id=? AND idx>=?", table_id, idx)
    return count


def _replace_actions(table_id: int, idx: int, seat: int, action: str, user_id: int | None,
                     how: str) -> Plan[None]:
    yield from _drop_actions(table_id, idx)
    yield Step.run("INSERT INTO actions (table_id, idx, seat, action, user_id, how, at)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?)",
                   table_id, idx, seat, action, user_id, how, time.time())


def _finish(row: TableRow, outcome: dict[str, Any]) -> Plan[None]:
    now = time.time()
    seats = json.dumps(row.seats)
    yield Step.run("UPDATE tables SET status='finished', seats=?, deadline_at=NULL, updated=?"
                   " WHERE id=?", seats, now, row.id)
    yield Step.run(
        "INSERT INTO results (table_id, guild_id, game, seats, outcome, finished)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET"
        " guild_id=excluded.guild_id, game=excluded.game, seats=excluded.seats,"
        " outcome=excluded.outcome, finished=excluded.finished",
        row.id, row.guild_id, row.game, seats, json.dumps(outcome), now,
    )


_TABLE_COLUMNS = ("id, guild_id, channel_id, game, host_id, status, seats, options, seed, timer,"
                  " message_id, level, hints, deadline_at, reminded, on_deadline, thread_id,"
                  " deadline_version")
_SETTINGS_COLUMNS = ("dm, locale, four_colour, alerts, tz, quiet_from, quiet_to, away_until,"
                     " away_used, away_year, digest")


def _settings(r: Row) -> UserSettings:
    return UserSettings(
        dm=bool(r[0]), locale=r[1], four_colour=bool(r[2]), alerts=bool(r[3]), tz=str(r[4]),
        quiet_from=None if r[5] is None else int(r[5]),
        quiet_to=None if r[6] is None else int(r[6]),
        away_until=None if r[7] is None else float(r[7]), away_used=float(r[8]),
        away_year=None if r[9] is None else int(r[9]), digest=bool(r[10]),
    )


def _table_row(r: Row) -> TableRow:
    return TableRow(
        id=int(r[0]), guild_id=int(r[1]), channel_id=int(r[2]), game=str(r[3]),
        host_id=int(r[4]), status=str(r[5]), seats=json.loads(r[6]), options=json.loads(r[7]),
        seed=int(r[8]), timer=str(r[9]), message_id=None if r[10] is None else int(r[10]),
        level=str(r[11]), hints=bool(r[12]),
        deadline_at=None if r[13] is None else float(r[13]), reminded=bool(r[14]),
        on_deadline=str(r[15]), thread_id=None if r[16] is None else int(r[16]),
        deadline_version=None if r[17] is None else int(r[17]),
    )
