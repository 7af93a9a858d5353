"""Where tournaments are kept (migration 14 of :mod:`bot.storage.store`; SQLite and PostgreSQL).

Three tables: ``tournaments`` (an event's settings and where it stands: status, round, paused),
``tournament_entrants`` (in sign-up order, which is the seeding; ``dropped`` says why a player
is out, NULL while in) and ``tournament_tables`` (each round's tables as the pairing seated
them, the service's table once opened, its result once in). Every write is committed before
the caller goes on: the runner stores a round's tables before it opens or announces them, so
a restart finds everything. A table's result is written with ``done=0`` in its WHERE clause:
the first writer (the table's event, or the restart that finds the table finished while the
bot was down) counts it, a second finds it done and changes nothing.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from bot.storage.db import Database, Plan, Row, Step
from bot.storage.store import Storage
from bot.tournaments.model import Occupant

#: an event's statuses: taking sign-ups, playing its rounds, over, called off
SIGNUP, RUNNING, FINISHED, CANCELLED = "signup", "running", "finished", "cancelled"
#: the statuses of an event still to play (one per channel at once)
ACTIVE = (SIGNUP, RUNNING)


@dataclass(frozen=True)
class EventRow:
    """A tournament as stored."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    fmt: str
    rounds: int
    size: int
    advance: int
    duplicate: bool
    starts_at: float
    checkin_minutes: int
    pace: str
    seed: int
    status: str
    round: int
    paused: bool
    #: why it ended without finishing (a catalogue key), or None
    ended: str | None
    message_id: int | None


@dataclass(frozen=True)
class EntrantRow:
    """An entrant: sign-up order ``seq`` (the seeding), checked in, why dropped (None: in)."""

    user_id: int
    name: str
    seq: int
    checked_in: bool
    dropped: str | None


@dataclass(frozen=True)
class RoundTableRow:
    """One table of a round as stored: its seats, the deal seed it was opened with, the
    service's table (None until opened) and its result (``places`` None while not in, or
    for a table that never played; ``keys``: a duplicate round's seat results)."""

    round: int
    number: int
    seats: tuple[Occupant, ...]
    seed: int
    table_id: int | None
    done: bool
    places: tuple[int, ...] | None
    keys: tuple[tuple[float, float], ...] | None
    absent: frozenset[int]


_EVENT_COLUMNS = ("id, guild_id, channel_id, organiser_id, game, fmt, rounds, size, advance,"
                  " duplicate, starts_at, checkin_minutes, pace, seed, status, round, paused,"
                  " ended, message_id")
_TABLE_COLUMNS = "round, number, seats, seed, table_id, done, places, seat_keys, absent"


def _event(r: Row) -> EventRow:
    return EventRow(int(r[0]), int(r[1]), int(r[2]), int(r[3]), str(r[4]), str(r[5]),
                    int(r[6]), int(r[7]), int(r[8]), bool(r[9]), float(r[10]), int(r[11]),
                    str(r[12]), int(r[13]), str(r[14]), int(r[15]), bool(r[16]),
                    None if r[17] is None else str(r[17]),
                    None if r[18] is None else int(r[18]))


def _table(r: Row) -> RoundTableRow:
    places = None if r[6] is None else tuple(int(p) for p in json.loads(r[6]))
    keys = None if r[7] is None else tuple((float(a), float(b)) for a, b in json.loads(r[7]))
    return RoundTableRow(int(r[0]), int(r[1]), tuple(json.loads(r[2])), int(r[3]),
                    None if r[4] is None else int(r[4]), bool(r[5]), places, keys,
                    frozenset(int(p) for p in json.loads(r[8])))


class TournamentStore:
    """The tournaments' rows, on the bot's database (``Storage.db``)."""

    def __init__(self, source: Database | Storage) -> None:
        self._source = source

    @property
    def db(self) -> Database:
        """The database: a storage's is looked up when first used (a bot made without
        storage, as some tests make one, opens no tournament)."""
        source = self._source
        return source.db if isinstance(source, Storage) else source

    # -- events -------------------------------------------------------------------------------
    async def create(self, guild_id: int, channel_id: int, organiser_id: int, game: str,
                     fmt: str, rounds: int, size: int, advance: int, duplicate: bool,
                     starts_at: float, checkin_minutes: int, pace: str, seed: int) -> int:
        """Store a new event taking sign-ups; its id (from the database)."""
        row = await self.db.one(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, game, fmt, rounds,"
            " size, advance, duplicate, starts_at, checkin_minutes, pace, seed, status, round,"
            " paused, ended, message_id, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, NULL, NULL, ?)"
            " RETURNING id",
            guild_id, channel_id, organiser_id, game, fmt, rounds, size, advance,
            int(duplicate), float(starts_at), checkin_minutes, pace, seed, SIGNUP, time.time())
        assert row is not None
        return int(row[0])

    async def event(self, tid: int) -> EventRow | None:
        """One event, or None."""
        row = await self.db.one(f"SELECT {_EVENT_COLUMNS} FROM tournaments WHERE id=?", tid)
        return None if row is None else _event(row)

    async def active(self) -> list[EventRow]:
        """Every event taking sign-ups or playing, oldest first."""
        rows = await self.db.all(
            f"SELECT {_EVENT_COLUMNS} FROM tournaments WHERE status IN (?, ?) ORDER BY id",
            *ACTIVE)
        return [_event(r) for r in rows]

    async def latest(self, channel_id: int) -> int | None:
        """The id of a channel's newest event, whatever its status, or None."""
        row = await self.db.one(
            "SELECT id FROM tournaments WHERE channel_id=? ORDER BY id DESC LIMIT 1", channel_id)
        return None if row is None else int(row[0])

    async def update(self, tid: int, **fields: Any) -> None:
        """Change some of an event's fields (status, round, paused, ended, message_id,
        rounds)."""
        allowed = {"status", "round", "paused", "ended", "message_id", "rounds"}
        if not fields or not set(fields) <= allowed:
            raise ValueError(f"not an event field to change: {sorted(set(fields) - allowed)}")
        names = sorted(fields)
        values = [int(v) if isinstance(v, bool) else v for v in (fields[n] for n in names)]
        await self.db.execute(
            f"UPDATE tournaments SET {', '.join(f'{n}=?' for n in names)} WHERE id=?",
            *values, tid)

    # -- entrants -----------------------------------------------------------------------------
    async def entrants(self, tid: int) -> list[EntrantRow]:
        """An event's entrants in sign-up order."""
        rows = await self.db.all(
            "SELECT user_id, name, seq, checked_in, dropped FROM tournament_entrants"
            " WHERE tournament_id=? ORDER BY seq", tid)
        return [EntrantRow(int(r[0]), str(r[1]), int(r[2]), bool(r[3]),
                           None if r[4] is None else str(r[4])) for r in rows]

    async def add_entrant(self, tid: int, user_id: int, name: str, seq: int) -> None:
        """Sign a person up (last in the seeding)."""
        await self.db.execute(
            "INSERT INTO tournament_entrants (tournament_id, user_id, name, seq, checked_in,"
            " dropped) VALUES (?, ?, ?, ?, 0, NULL)", tid, user_id, name, seq)

    async def remove_entrant(self, tid: int, user_id: int) -> None:
        """Take a sign-up back (before the start)."""
        await self.db.execute(
            "DELETE FROM tournament_entrants WHERE tournament_id=? AND user_id=?", tid, user_id)

    async def check_in(self, tid: int, user_id: int) -> None:
        """Mark an entrant checked in."""
        await self.db.execute(
            "UPDATE tournament_entrants SET checked_in=1 WHERE tournament_id=? AND user_id=?",
            tid, user_id)

    async def drop(self, tid: int, user_id: int, reason: str) -> None:
        """Drop an entrant from the rounds to come, saying why (a catalogue key's tail)."""
        await self.db.execute(
            "UPDATE tournament_entrants SET dropped=? WHERE tournament_id=? AND user_id=?"
            " AND dropped IS NULL", reason, tid, user_id)

    # -- rounds' tables -----------------------------------------------------------------------
    async def add_round(self, tid: int, round_number: int,
                        tables: list[tuple[int, tuple[Occupant, ...], int]]) -> None:
        """Store a round's tables ``(number, seats, deal seed)`` and make it the event's
        round, in one transaction, before any table is opened."""
        def plan() -> Plan[None]:
            yield Step.many(
                "INSERT INTO tournament_tables (tournament_id, round, number, seats, seed,"
                " table_id, done, places, seat_keys, absent)"
                " VALUES (?, ?, ?, ?, ?, NULL, 0, NULL, NULL, '[]')",
                [(tid, round_number, number, json.dumps(list(seats)), seed)
                 for number, seats, seed in tables])
            yield Step.run("UPDATE tournaments SET round=?, status=? WHERE id=?",
                           round_number, RUNNING, tid)

        await self.db.run(plan(), write=True)

    async def set_table(self, tid: int, round_number: int, number: int, table_id: int,
                        seats: tuple[Occupant, ...]) -> None:
        """The service's table a round's table was opened as (and its seats as opened: a
        dropped player's seat is a computer's)."""
        await self.db.execute(
            "UPDATE tournament_tables SET table_id=?, seats=? WHERE tournament_id=? AND round=?"
            " AND number=?", table_id, json.dumps(list(seats)), tid, round_number, number)

    async def set_result(self, tid: int, round_number: int, number: int,
                         places: tuple[int, ...] | None,
                         keys: tuple[tuple[float, float], ...] | None,
                         absent: frozenset[int]) -> bool:
        """A table's result, counted once: True when this call stored it, False when it was
        in already."""
        changed = await self.db.execute(
            "UPDATE tournament_tables SET done=1, places=?, seat_keys=?, absent=?"
            " WHERE tournament_id=? AND round=? AND number=? AND done=0",
            None if places is None else json.dumps(list(places)),
            None if keys is None else json.dumps([list(k) for k in keys]),
            json.dumps(sorted(absent)), tid, round_number, number)
        return changed > 0

    async def tables(self, tid: int) -> list[RoundTableRow]:
        """Every table of every round of an event, by round and number."""
        rows = await self.db.all(
            f"SELECT {_TABLE_COLUMNS} FROM tournament_tables WHERE tournament_id=?"
            " ORDER BY round, number", tid)
        return [_table(r) for r in rows]
