"""A server's numbered seasons, the part of :class:`bot.storage.records.Records` that keeps them.

Every server has numbered seasons (table ``seasons``); each recorded game belongs to the season
running when it is recorded (``records.season``). Beside the all-time ``ratings``, which no
season touches, ``season_ratings`` holds the same figures per season. A season ends by a
manager's hand (:meth:`Seasons.end`) or by itself when its length (a calendar month or quarter,
UTC; :func:`season_end`) is over: there is no task per server, the records look at the
service's clock whenever a game is recorded or a season or board is read, and close every
season whose end has passed first. The next season starts from each rating of the one before
softly reset toward the mean (:func:`bot.storage.ratings.soft_reset`), counted as no game yet,
so nobody is on its board before playing a rated game in it. An ended season's rows are never
written again: they are its final table, and its podium.

The part is given the records' database and clock; it knows nothing of the records above it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.storage import ratings
from bot.storage.db import Database, Plan, Step
from bot.storage.ratings import ALL_GAMES, Skill
from bot.tables.clock import Clock

#: the lengths a manager may give a server's seasons: a calendar month or quarter (UTC), or
#: none (a season then runs until a manager ends it)
SEASON_LENGTHS = ("month", "quarter", "none")
#: months per season of each length
_MONTHS = {"month": 1, "quarter": 3}
#: a person's seat as a replay reads it: user id, name, side, rank, won, and whether they were
#: dropped after missed deadlines (then the game counts, unrated, for them)
Person = tuple[int, str, int, int, int, bool]


def season_end(instant: float, length: str) -> float | None:
    """When a season of ``length`` running at ``instant`` ends by itself: the first instant of
    the next calendar month, or of the next quarter (January, April, July, October), UTC,
    strictly after ``instant``; None for ``none``."""
    months = _MONTHS.get(length)
    if months is None:
        return None
    at = datetime.fromtimestamp(instant, UTC)
    index = at.year * 12 + at.month - 1  # months since year 0
    index = (index // months + 1) * months
    return datetime(index // 12, index % 12 + 1, 1, tzinfo=UTC).timestamp()


@dataclass(frozen=True)
class Season:
    """One season of a server."""

    number: int
    #: its length when it ran (``SEASON_LENGTHS``)
    length: str
    started: float
    #: when it ends by itself (None: only by hand)
    ends: float | None
    #: when it ended (None: the running season)
    ended: float | None


def _season(row: Sequence[Any]) -> Season:
    return Season(int(row[0]), str(row[1]), float(row[2]),
                  None if row[3] is None else float(row[3]),
                  None if row[4] is None else float(row[4]))


class Seasons:
    """A server's seasons: the running one, every one, their length, ending one, replaying
    their ratings."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        #: the service's clock, which seasons end by (the tests move a manual one)
        self.clock = clock

    async def running(self, guild_id: int) -> Season:
        """The server's running season (its first begins now when it has none), after closing
        any whose end has passed on the clock."""
        return await self.db.run(self.running_at(guild_id, self.clock.now()), write=True)

    async def all(self, guild_id: int) -> list[Season]:
        """Every season of a server, the first first, the running one last (ends past closed)."""
        await self.running(guild_id)
        rows = await self.db.all(
            "SELECT number, length, started, ends, ended FROM seasons WHERE guild_id=?"
            " ORDER BY number", guild_id)
        return [_season(r) for r in rows]

    async def set_length(self, guild_id: int, length: str) -> Season:
        """Give the server's seasons a length (``SEASON_LENGTHS``): the running season now ends
        at the next month's or quarter's start (or runs until ended by hand), and so does each
        season after it. The running season, as it now is."""
        if length not in SEASON_LENGTHS:
            raise ValueError(f"a season's length is one of {SEASON_LENGTHS}, not {length!r}")
        return await self.db.run(self._set_length(guild_id, length, self.clock.now()),
                                 write=True)

    def _set_length(self, guild_id: int, length: str, now: float) -> Plan[Season]:
        season = yield from self.running_at(guild_id, now)
        ends = season_end(now, length)
        yield Step.run("UPDATE seasons SET length=?, ends=? WHERE guild_id=? AND number=?",
                       length, ends, guild_id, season.number)
        return Season(season.number, length, season.started, ends, None)

    async def end(self, guild_id: int) -> tuple[Season, Season]:
        """A manager ends the running season now: the ended one and the one that begins."""
        return await self.db.run(self._end_by_hand(guild_id, self.clock.now()), write=True)

    def _end_by_hand(self, guild_id: int, now: float) -> Plan[tuple[Season, Season]]:
        season = yield from self.running_at(guild_id, now)
        new = yield from self._next(guild_id, season, now, now)
        return Season(season.number, season.length, season.started, season.ends, now), new

    def running_at(self, guild_id: int, now: float) -> Plan[Season]:
        """The running season, closing every one whose end is at or before ``now`` (in a write
        transaction: recording a game runs it within its own)."""
        row = yield Step.one("SELECT number, length, started, ends, ended FROM seasons"
                             " WHERE guild_id=? AND ended IS NULL", guild_id)
        if row is None:
            last = yield Step.one("SELECT MAX(number), MAX(ended) FROM seasons WHERE guild_id=?",
                                  guild_id)
            number = 1 if last is None or last[0] is None else int(last[0]) + 1
            yield Step.run("INSERT INTO seasons (guild_id, number, length, started, ends, ended)"
                           " VALUES (?, ?, 'none', ?, NULL, NULL)", guild_id, number, now)
            return Season(number, "none", now, None, None)
        season = _season(row)
        while season.ends is not None and season.ends <= now:
            # it ended at its end, not when it was noticed; the next ends at the first end of
            # its length after now, so a long silence leaves no empty seasons behind
            season = yield from self._next(guild_id, season, season.ends, now)
        return season

    def _next(self, guild_id: int, season: Season, at: float, now: float) -> Plan[Season]:
        """End ``season`` at ``at`` and start the next, of the same length, from its ratings
        softly reset (:func:`bot.storage.ratings.soft_reset`), each counted as no game yet."""
        yield Step.run("UPDATE seasons SET ended=? WHERE guild_id=? AND number=?",
                       at, guild_id, season.number)
        new = Season(season.number + 1, season.length, at, season_end(now, season.length), None)
        yield Step.run("INSERT INTO seasons (guild_id, number, length, started, ends, ended)"
                       " VALUES (?, ?, ?, ?, ?, NULL)",
                       guild_id, new.number, new.length, new.started, new.ends)
        seeds = []
        for game, user, name, mu, sigma in (yield Step.all(
                "SELECT game, user_id, name, mu, sigma FROM season_ratings WHERE guild_id=? AND"
                " season=?", guild_id, season.number)):
            skill = ratings.soft_reset(Skill(float(mu), float(sigma)))
            seeds.append((guild_id, new.number, game, user, name, skill.mu, skill.sigma))
        yield Step.many(
            "INSERT INTO season_ratings (guild_id, season, game, user_id, name, mu, sigma,"
            " ordinal, rated, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, 0, 0, 0)", seeds)
        return new

    async def replay(self, guild_id: int, without: int | None = None
                     ) -> list[tuple[Any, ...]]:
        """Every ``season_ratings`` row of a server replayed from its records season by season,
        each season starting from the one before softly reset (leaving out one person)."""
        return await self.db.run(self._replay(guild_id, without))

    def _replay(self, guild_id: int, without: int | None) -> Plan[list[tuple[Any, ...]]]:
        seats = yield from replay_seats(guild_id, without)
        games: dict[int, list[tuple[int, str, bool]]] = {}
        for table_id, game, rated, season in (yield Step.all(
                "SELECT table_id, game, rated, season FROM records WHERE guild_id=?"
                " ORDER BY finished, table_id", guild_id)):
            games.setdefault(int(season), []).append((int(table_id), str(game), bool(rated)))
        skills: dict[tuple[str, int], Skill] = {}
        counts: dict[tuple[str, int], list[Any]] = {}
        rows: list[tuple[Any, ...]] = []
        for (number,) in (yield Step.all(
                "SELECT number FROM seasons WHERE guild_id=? ORDER BY number", guild_id)):
            if rows:  # a new season: every rating of the last, softly reset, no game yet
                skills = {k: ratings.soft_reset(skills.get(k, Skill())) for k in counts}
                counts = {k: [c[0], 0, 0, 0] for k, c in counts.items()}
            for table_id, game, rated in games.get(int(number), []):
                replay_game(skills, counts, game, rated, seats.get(table_id, []))
            for (key, user), (name, rated_games, played, wins) in counts.items():
                skill = skills.get((key, user), Skill())
                rows.append((guild_id, int(number), key, user, name, skill.mu, skill.sigma,
                             skill.ordinal if rated_games else None, rated_games, played,
                             wins))
        return rows


def replay_seats(guild_id: int, without: int | None) -> Plan[dict[int, list[Person]]]:
    """Every recorded person's seat of a server by table (leaving out one person)."""
    seats: dict[int, list[Person]] = {}
    for table_id, user, name, side, rank, won, seat, stored in (yield Step.all(
            "SELECT s.table_id, s.user_id, s.name, s.side, s.rank, s.won, s.seat, g.seats"
            " FROM record_seats s JOIN records g ON g.table_id = s.table_id"
            " WHERE s.guild_id=? ORDER BY s.table_id, s.seat", guild_id)):
        if user != without:
            # the stored seats say who was dropped (read only where someone was)
            dropped = '"dropped"' in stored and bool(json.loads(stored)[seat].get("dropped"))
            seats.setdefault(table_id, []).append((user, name, side, rank, won, dropped))
    return seats


def replay_game(skills: dict[tuple[str, int], Skill], counts: dict[tuple[str, int], list[Any]],
                game: str, rated: bool, people: list[Person]) -> None:
    """One recorded game replayed into ``skills`` and ``counts`` (name, rated, games, wins per
    (game key, person)), as :meth:`bot.storage.records.Records.record` counted it."""
    for key in (game, ALL_GAMES):
        by_side: dict[int, list[Person]] = {}
        for person in people:
            if not person[5]:  # a dropped person's skill stays as it was
                by_side.setdefault(person[2], []).append(person)
        rate_it = rated and len(by_side) >= 2
        if rate_it:
            order = sorted(by_side)
            updated = ratings.rate(
                [[skills.get((key, p[0]), Skill()) for p in by_side[s]] for s in order],
                [by_side[s][0][3] for s in order])
            for side, new in zip(order, updated, strict=True):
                for person, skill in zip(by_side[side], new, strict=True):
                    skills[(key, person[0])] = skill
        for user, name, _side, _rank, won, dropped in people:
            count = counts.setdefault((key, user), [name, 0, 0, 0])
            count[0] = name
            count[1] += int(rate_it and not dropped)
            count[2] += 1
            count[3] += won
