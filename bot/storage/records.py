"""The record of finished games: one row per game, one per person's seat, current ratings.

Every operation is a :mod:`plan <bot.storage.db.plan>` run on the bot's database (migration 2 of
:mod:`bot.storage.store` made its tables): on SQLite through a second connection, each plan whole
in a
worker thread, one at a time; on PostgreSQL through the storage's pool. Each write is one
serialised transaction (``BEGIN IMMEDIATE``; on PostgreSQL an advisory lock, so processes
sharing the database take turns too). A game is recorded from what
``Storage.finish`` stored (its ``results`` row), keyed by the table id, so recording twice is a
no-op and a result stored just before the bot died is recorded on the next start
(:meth:`Records.catch_up`).

Ratings live in the ``ratings`` table (current mu, sigma and ordinal per server, game and user,
plus the same over all games under the key ``*``), updated as each game is recorded, so the
leaderboard reads them instead of replaying history. Forgetting a person replays the history of
the servers they played in without them.

Seasons are a part of their own (:class:`bot.storage.seasons.Seasons`), composed here: each
recorded game belongs to the season running when it is recorded, and is rated in it too.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.storage import ratings
from bot.storage.db import SQLITE, Database, Plan, Step
from bot.storage.db.sqlite import AsyncSqlite, ThreadSqlite
from bot.storage.ratings import ALL_GAMES, Skill
from bot.storage.seasons import Seasons, replay_game, replay_seats
from bot.tables.clock import Clock, SystemClock
from bot.tables.model import Refusal
from games.core import Rules

if TYPE_CHECKING:
    from bot.storage.store import Storage

RulesLookup = Callable[[str], Rules]
log = logging.getLogger(__name__)
#: how often, and how far apart (seconds), forgetting tries to empty SQLite's write-ahead log
WAL_TRIES, WAL_PAUSE = 20, 0.05
#: the name a forgotten person's seat keeps in old records
FORGOTTEN = "—"


@dataclass(frozen=True)
class BoardRow:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    name: str
    ordinal: float
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def win_share(self) -> float:
        """Wins over games played (0 when none)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class LeaderboardPage:
    """A page of a leaderboard, how many rated players there are, and the caller's line."""

    game: str
    page: int
    pages: int
    total: int
    rows: list[BoardRow]
    mine: BoardRow | None
    #: the season's number (None: the all-time board)
    season: int | None = None


@dataclass(frozen=True)
class GameStats:
    """A person's figures in one game of one server."""

    game: str
    games: int
    wins: int
    rated: int
    skill: Skill | None
    best_streak: int
    partner: tuple[int, str, int] | None  # (user id, name, games together)

    @property
    def win_share(self) -> float:
        """Wins over games played (0 when none)."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class HistoryLine:
    """One recent game of a person: where and how they finished."""

    table_id: int
    game: str
    finished: float
    place: int
    players: int
    score: float
    won: bool
    rated: bool
    abandoned: bool


@dataclass(frozen=True)
class Record:
    """A recorded game: what is needed to replay it."""

    table_id: int
    guild_id: int
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    places: list[int]
    scores: list[float]
    rated: bool
    started: float
    finished: float
    actions: list[tuple[int, str]] = field(default_factory=list)


def _seated(seats: str, user_id: int) -> bool:
    """Whether a table's stored seats name a person."""
    return any(seat.get("user_id") == user_id for seat in json.loads(seats))


def _scrubbed(seats: str, user_id: int) -> str:
    """A table's stored seats with a person's id and name taken out."""
    found = json.loads(seats)
    for seat in found:
        if seat.get("user_id") == user_id:
            seat["user_id"] = None
            seat["name"] = FORGOTTEN
    return json.dumps(found)


def _is_rated(seats: Sequence[dict[str, Any]], sides: Sequence[ratings.Side]) -> bool:
    """Rated when every seat is a distinct person and there are at least two sides."""
    return ratings.unrated_reason(seats) is None and len(sides) >= 2


def _history_size(guilds: list[int]) -> Plan[list[tuple[int, int, int]]]:
    """How many records, seats and seasons each server has (any change means a replay is
    stale)."""
    sizes = []
    for guild_id in guilds:
        games = yield Step.one("SELECT COUNT(*) FROM records WHERE guild_id=?", guild_id)
        seats = yield Step.one("SELECT COUNT(*) FROM record_seats WHERE guild_id=?",
                               guild_id)
        seasons = yield Step.one("SELECT COUNT(*) FROM seasons WHERE guild_id=?", guild_id)
        sizes.append((int(games[0]), int(seats[0]), int(seasons[0])))
    return sizes


def _partner(guild_id: int, game: str, user_id: int
             ) -> Plan[tuple[int, str, int] | None]:
    """The person most often on the same side (only partnership games have one)."""
    row = yield Step.one(
        "SELECT o.user_id, MAX(o.name), COUNT(*) AS n FROM record_seats me"
        " JOIN record_seats o ON o.table_id = me.table_id AND o.seat != me.seat"
        " AND o.side = me.side"
        " WHERE me.user_id=? AND me.guild_id=? AND me.game=?"
        " GROUP BY o.user_id ORDER BY n DESC, o.user_id LIMIT 1",
        user_id, guild_id, game)
    return None if row is None else (int(row[0]), str(row[1]), int(row[2]))


class Records:
    """Recording finished games, ratings, leaderboards, statistics, history and forgetting."""

    def __init__(self, db: Database, rules_for: RulesLookup, owned: bool = True,
                 clock: Clock | None = None) -> None:
        self.db = db
        self.rules_for = rules_for
        self.owned = owned  # whether :meth:`close` closes ``db``
        #: the server's seasons, on the same database and clock
        self.seasons = Seasons(db, SystemClock() if clock is None else clock)

    @classmethod
    def open(cls, path: str, rules_for: RulesLookup, clock: Clock | None = None) -> Records:
        """A second connection to the (already migrated) SQLite database at ``path``."""
        return cls(ThreadSqlite.open(path), rules_for, clock=clock)

    @classmethod
    def for_storage(cls, store: Storage, rules_for: RulesLookup,
                    clock: Clock | None = None) -> Records:
        """The records of the bot's database: on SQLite a second connection to its file (the
        records' reads run whole in a worker thread), on PostgreSQL the storage's own pool."""
        if isinstance(store.db, AsyncSqlite):
            return cls.open(store.db.path, rules_for, clock)
        return cls(store.db, rules_for, owned=False, clock=clock)

    @property
    def clock(self) -> Clock:
        """The service's clock, which seasons end by: the seasons' own, so one clock set here
        (the tests move a manual one) is the one both read."""
        return self.seasons.clock

    @clock.setter
    def clock(self, clock: Clock) -> None:
        self.seasons.clock = clock

    @property
    def lock(self) -> asyncio.Lock:
        """Held while the records' connection is busy (SQLite); take it to close safely."""
        return self.db.lock

    def close(self) -> None:
        """Close the records' own connection (a shared pool stays open for its storage)."""
        if self.owned and isinstance(self.db, ThreadSqlite):
            self.db.close_now()

    # -- recording --------------------------------------------------------------------------
    async def record(self, table_id: int) -> bool:
        """Record a finished table once; False when it was already recorded or is not over.

        One write transaction: concurrent calls, from this process or another sharing the
        database, take turns, and only the first finds the table unrecorded.
        """
        return await self.db.run(self._record(table_id, self.clock.now()), write=True)

    async def catch_up(self) -> list[int]:
        """Record every stored result that has no record yet (after a crash); their ids."""
        rows = await self.db.all(
            "SELECT r.table_id FROM results r LEFT JOIN records g ON g.table_id = r.table_id"
            " WHERE g.table_id IS NULL ORDER BY r.finished, r.table_id")
        return [int(r[0]) for r in rows if await self.record(int(r[0]))]

    def _record(self, table_id: int, now: float) -> Plan[bool]:
        if (yield Step.one("SELECT 1 FROM records WHERE table_id=?", table_id)):
            return False
        found = yield Step.one(
            "SELECT r.guild_id, r.game, r.seats, r.outcome, r.finished, t.options, t.seed,"
            " t.created FROM results r JOIN tables t ON t.id = r.table_id WHERE r.table_id=?",
            table_id)
        if found is None:
            return False
        guild_id, game, seats_text, outcome_text, finished, options_text, seed, created = found
        seats: list[dict[str, Any]] = json.loads(seats_text)
        outcome: dict[str, Any] = json.loads(outcome_text)
        options: dict[str, Any] = json.loads(options_text)
        count = len(seats)
        places = [int(p) for p in outcome.get("places") or [1] * count]
        scores = [float(s) for s in outcome.get("scores") or [0.0] * count]
        abandoned = [bool(s.get("away")) and not s.get("computer") for s in seats]
        # a seat dropped after missed deadlines: its person is left out of the rating (their
        # skill stays), so it does not drag its side last either; the others are rated among
        # themselves. A live seat the computer kept after timeouts is still ranked last
        dropped = [bool(s.get("dropped")) and not s.get("computer") for s in seats]
        try:
            teams = self.rules_for(game).teams(count, options)
        except KeyError:
            teams = None
        sides = ratings.sides(places, teams, [a and not d for a, d in zip(abandoned, dropped,
                                                                           strict=True)])
        rated = _is_rated(seats, [side for side in sides
                                  if any(not dropped[seat] for seat in side.seats)])
        moves = (yield Step.one("SELECT COUNT(*) FROM actions WHERE table_id=?", table_id))[0]
        # a season whose end has passed closes before the game counts: it is the next one's
        season = yield from self.seasons.running_at(guild_id, now)
        yield Step.run(
            "INSERT INTO records (table_id, guild_id, game, options, seed, seats, places, scores,"
            " rated, moves, started, finished, season)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            table_id, guild_id, game, options_text, seed, seats_text, json.dumps(places),
            json.dumps(scores), int(rated), int(moves), created, finished, season.number)
        people = []
        for index, side in enumerate(sides):
            for seat in side.seats:
                info = seats[seat]
                if info.get("computer") or info.get("user_id") is None:
                    continue
                people.append((table_id, seat, guild_id, game, int(info["user_id"]),
                               str(info.get("name", "")), index, places[seat], side.rank,
                               scores[seat], int(side.rank == 1 and not dropped[seat]),
                               int(abandoned[seat]), finished))
        yield Step.many(
            "INSERT INTO record_seats (table_id, seat, guild_id, game, user_id, name, side,"
            " place, rank, score, won, abandoned, finished)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", people)
        out = {seat for seat, gone in enumerate(dropped) if gone}
        for key in (game, ALL_GAMES):
            yield from self._update_ratings(guild_id, key, people, rated, out)
            yield from self._update_ratings(guild_id, key, people, rated, out, season.number)
        return True

    def _update_ratings(self, guild_id: int, game: str, people: list[tuple[Any, ...]],
                        rated: bool, out: set[int], season: int | None = None) -> Plan[None]:
        """Count the game for each person and, when rated, move their skills (but not those
        of the seats in ``out``, dropped after missed deadlines): all time, or in a season
        (``season_ratings``, which a new season seeded with the soft reset)."""
        current: dict[int, Skill] = {}
        for person in people:
            user = person[4]
            if season is None:
                row = yield Step.one("SELECT mu, sigma FROM ratings WHERE guild_id=? AND game=?"
                                     " AND user_id=?", guild_id, game, user)
            else:
                row = yield Step.one("SELECT mu, sigma FROM season_ratings WHERE guild_id=? AND"
                                     " season=? AND game=? AND user_id=?",
                                     guild_id, season, game, user)
            current[user] = Skill() if row is None else Skill(row[0], row[1])
        new = dict(current)
        if rated:
            by_side: dict[int, list[tuple[Any, ...]]] = {}
            for person in people:
                if person[1] not in out:
                    by_side.setdefault(person[6], []).append(person)
            order = sorted(by_side)
            updated = ratings.rate([[current[p[4]] for p in by_side[s]] for s in order],
                                   [by_side[s][0][8] for s in order])
            for side, skills in zip(order, updated, strict=True):
                for person, skill in zip(by_side[side], skills, strict=True):
                    new[person[4]] = skill
        for person in people:
            user, name, won = person[4], person[5], person[10]
            skill = new[user]
            counted = rated and person[1] not in out
            if season is not None:
                yield Step.run(
                    "INSERT INTO season_ratings (guild_id, season, game, user_id, name, mu,"
                    " sigma, ordinal, rated, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)"
                    " ON CONFLICT(guild_id, season, game, user_id) DO UPDATE SET"
                    " name=excluded.name, mu=excluded.mu, sigma=excluded.sigma,"
                    " ordinal=CASE WHEN excluded.rated > 0 THEN excluded.ordinal"
                    " ELSE season_ratings.ordinal END,"
                    " rated=season_ratings.rated + excluded.rated,"
                    " games=season_ratings.games + 1, wins=season_ratings.wins + excluded.wins",
                    guild_id, season, game, user, name, skill.mu, skill.sigma,
                    skill.ordinal if counted else None, int(counted), won)
                continue
            yield Step.run(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, rated,"
                " games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)"
                " ON CONFLICT(guild_id, game, user_id) DO UPDATE SET name=excluded.name,"
                " mu=excluded.mu, sigma=excluded.sigma,"
                " ordinal=CASE WHEN excluded.rated > 0 THEN excluded.ordinal"
                " ELSE ratings.ordinal END,"
                " rated=ratings.rated + excluded.rated, games=ratings.games + 1,"
                " wins=ratings.wins + excluded.wins",
                guild_id, game, user, name, skill.mu, skill.sigma,
                skill.ordinal if counted else None, int(counted), won)

    # -- reading ----------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int, game: str = ALL_GAMES, page: int = 0,
                          user_id: int | None = None, per_page: int = 10,
                          season: int | None = None) -> LeaderboardPage:
        """A page of the server's rated players by ordinal, with the caller's own line: all
        time, or in one season (an ended season's is its final table)."""
        return await self.db.run(self._leaderboard(_Board(guild_id, game, season), page,
                                                   user_id, per_page))

    def _leaderboard(self, board: _Board, page: int, user_id: int | None,
                     per_page: int) -> Plan[LeaderboardPage]:
        table, where, keys = board.table, board.where, board.keys
        total = int((yield Step.one(
            f"SELECT COUNT(*) FROM {table} WHERE {where} AND ordinal IS NOT NULL",
            *keys))[0])
        pages = max(1, -(-total // per_page))
        page = min(max(0, page), pages - 1)
        # the page is found in the board index alone (skipping rows costs no table reads)
        found = yield Step.all(
            f"SELECT user_id, name, ordinal, mu, sigma, games, wins FROM {table}"
            f" WHERE rowid IN (SELECT rowid FROM {table} WHERE {where}"
            " AND ordinal IS NOT NULL ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?)"
            " ORDER BY ordinal DESC, user_id",
            *keys, per_page, page * per_page,
            # PostgreSQL has no rowid: the page's keys come from the same index
            pg=f"SELECT user_id, name, ordinal, mu, sigma, games, wins FROM {table}"
               f" WHERE ({board.columns}, user_id) IN (SELECT {board.columns}, user_id"
               f" FROM {table} WHERE {where} AND ordinal IS NOT NULL"
               " ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?)"
               " ORDER BY ordinal DESC, user_id")
        rows: list[BoardRow] = []
        for i, (user, name, ordinal, mu, sigma, games, wins) in enumerate(found):
            if not rows:
                rank = yield from self._rank(board, ordinal)
            elif rows[-1].ordinal == ordinal:  # ties share a rank
                rank = rows[-1].rank
            else:  # below a lower ordinal: exactly the rows before it are ahead
                rank = page * per_page + i + 1
            rows.append(BoardRow(rank, user, name, ordinal, mu, sigma, games, wins))
        mine = None
        if user_id is not None:
            row = yield Step.one(
                f"SELECT name, ordinal, mu, sigma, games, wins FROM {table} WHERE {where}"
                " AND user_id=? AND ordinal IS NOT NULL", *keys, user_id)
            if row is not None:
                mine = BoardRow((yield from self._rank(board, row[1])), user_id, *row)
        return LeaderboardPage(board.game, page, pages, total, rows, mine, board.season)

    def _rank(self, board: _Board, ordinal: float) -> Plan[int]:
        """1 + how many rated players are strictly above ``ordinal`` (ties share a rank)."""
        row = yield Step.one(
            f"SELECT COUNT(*) FROM {board.table} WHERE {board.where} AND ordinal > ?",
            *board.keys, ordinal)
        return 1 + int(row[0])

    async def skill(self, guild_id: int, game: str, user_id: int) -> Skill | None:
        """A person's current rating in a game of a server (None before a rated game)."""
        row = await self.db.one(
            "SELECT mu, sigma FROM ratings WHERE guild_id=? AND game=? AND user_id=? AND rated>0",
            guild_id, game, user_id)
        return None if row is None else Skill(row[0], row[1])

    async def stats(self, guild_id: int, user_id: int) -> list[GameStats]:
        """A person's figures per game in a server (most played first)."""
        return await self.db.run(self._stats(guild_id, user_id))

    def _stats(self, guild_id: int, user_id: int) -> Plan[list[GameStats]]:
        found = yield Step.all(
            "SELECT game, games, wins, rated, mu, sigma FROM ratings WHERE guild_id=? AND"
            " user_id=? AND game != ? ORDER BY games DESC, game", guild_id, user_id, ALL_GAMES)
        streaks: dict[str, int] = {}
        running: dict[str, int] = {}
        for game, won in (yield Step.all(
                "SELECT game, won FROM record_seats WHERE user_id=? AND guild_id=?"
                " ORDER BY finished, table_id", user_id, guild_id)):
            running[game] = running.get(game, 0) + 1 if won else 0
            streaks[game] = max(streaks.get(game, 0), running[game])
        stats = []
        for game, games, wins, rated, mu, sigma in found:
            partner = yield from _partner(guild_id, game, user_id)
            stats.append(GameStats(game, games, wins, rated,
                                   Skill(mu, sigma) if rated else None, streaks.get(game, 0),
                                   partner))
        return stats

    async def history(self, guild_id: int, user_id: int, limit: int = 10) -> list[HistoryLine]:
        """A person's most recent games in a server, newest first (a game is unrated for a
        person dropped from it after missed deadlines)."""
        found = await self.db.all(
            "SELECT s.table_id, s.game, s.finished, s.place, s.score, s.won, g.rated,"
            " s.abandoned, g.seats, s.seat FROM record_seats s"
            " JOIN records g ON g.table_id = s.table_id"
            " WHERE s.user_id=? AND s.guild_id=? ORDER BY s.finished DESC, s.table_id DESC"
            " LIMIT ?", user_id, guild_id, limit)
        lines = []
        for r in found:
            seats = json.loads(r[8])
            rated = bool(r[6]) and not seats[int(r[9])].get("dropped")
            lines.append(HistoryLine(int(r[0]), str(r[1]), float(r[2]), int(r[3]), len(seats),
                                     float(r[4]), bool(r[5]), rated, bool(r[7])))
        return lines

    async def game(self, table_id: int) -> Record | None:
        """A recorded game with its stored actions, or None."""
        return await self.db.run(self._game(table_id))

    def _game(self, table_id: int) -> Plan[Record | None]:
        row = yield Step.one(
            "SELECT guild_id, game, options, seed, seats, places, scores, rated, started,"
            " finished FROM records WHERE table_id=?", table_id)
        if row is None:
            return None
        actions = [(int(a[0]), str(a[1])) for a in (yield Step.all(
            "SELECT seat, action FROM actions WHERE table_id=? ORDER BY idx", table_id))]
        return Record(table_id, int(row[0]), str(row[1]), json.loads(row[2]), int(row[3]),
                      json.loads(row[4]), json.loads(row[5]), json.loads(row[6]),
                      bool(row[7]), float(row[8]), float(row[9]), actions)

    # -- forgetting -------------------------------------------------------------------------
    async def forget(self, user_id: int) -> int:
        """Remove a person from every row that names them: their records and ratings (ratings
        are replayed without them), their settings, their id and name in every closed table's
        seats, host and moves. Refusal ``st-forget-seated`` while they sit at (or host) an
        open table: its next save would write them back.

        The history is replayed outside the write transaction (it may be long), then written in
        one short transaction, which starts over if a game was recorded or another person was
        forgotten in those servers meanwhile. On SQLite deleted content is overwritten
        (``secure_delete``, bot/storage/db/sqlite.py) and the write-ahead log, which still holds the
        pages as they were, is emptied afterwards. Returns how many of their game seats were
        removed.
        """
        while True:
            guilds = [int(r[0]) for r in await self.db.all(
                "SELECT DISTINCT guild_id FROM record_seats WHERE user_id=?"
                " UNION SELECT DISTINCT guild_id FROM ratings WHERE user_id=?", user_id, user_id)]
            seen = await self.db.run(_history_size(guilds))
            fresh = {g: await self.replay_ratings(g, without=user_id) for g in guilds}
            seasons = {g: await self.seasons.replay(g, without=user_id) for g in guilds}
            removed = await self.db.run(self._forget(user_id, seen, fresh, seasons),
                                        write=True)
            if removed is not None:
                await self._empty_log()
                return removed

    async def _empty_log(self) -> None:
        """SQLite: copy the write-ahead log into the file and truncate it, so the pages it
        holds from before the forgetting are gone too (tried again while a reader of another
        connection still needs them)."""
        if self.db.dialect != SQLITE:
            return
        for _ in range(WAL_TRIES):
            row = await self.db.one("PRAGMA wal_checkpoint(TRUNCATE)")
            if row is not None and int(row[0]) == 0:
                return
            await asyncio.sleep(WAL_PAUSE)
        log.warning("forget-me: the write-ahead log could not be emptied yet; SQLite empties "
                    "it at its next full checkpoint")

    def _forget(self, user_id: int, seen: list[tuple[int, int, int]],
                fresh: dict[int, list[tuple[Any, ...]]],
                seasons: dict[int, list[tuple[Any, ...]]]) -> Plan[int | None]:
        if (yield from _history_size(list(fresh))) != seen:
            return None  # the replay is stale: start over
        named = f"%{int(user_id)}%"  # a first sieve: the seats' JSON is read to be sure
        for host, seats in (yield Step.all(
                "SELECT host_id, seats FROM tables WHERE status IN ('lobby', 'playing')"
                " AND (host_id=? OR seats LIKE ?)", user_id, named)):
            if int(host) == user_id or _seated(seats, user_id):
                raise Refusal("st-forget-seated")
        removed = yield Step.run("DELETE FROM record_seats WHERE user_id=?", user_id)
        for table, key in (("records", "table_id"), ("results", "table_id"), ("tables", "id")):
            for table_id, seats in (yield Step.all(
                    f"SELECT {key}, seats FROM {table} WHERE seats LIKE ?", named)):
                if _seated(seats, user_id):
                    yield Step.run(f"UPDATE {table} SET seats=? WHERE {key}=?",
                                   _scrubbed(seats, user_id), table_id)
        yield Step.run("UPDATE tables SET host_id=0 WHERE host_id=?", user_id)
        yield Step.run("UPDATE actions SET user_id=NULL WHERE user_id=?", user_id)
        yield Step.run("DELETE FROM user_settings WHERE user_id=?", user_id)
        for guild_id, rows in fresh.items():
            yield Step.run("DELETE FROM ratings WHERE guild_id=?", guild_id)
            yield Step.many(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal,"
                " rated, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        for guild_id, rows in seasons.items():
            yield Step.run("DELETE FROM season_ratings WHERE guild_id=?", guild_id)
            yield Step.many(
                "INSERT INTO season_ratings (guild_id, season, game, user_id, name, mu, sigma,"
                " ordinal, rated, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        return int(removed)

    async def replay_ratings(self, guild_id: int, without: int | None = None
                             ) -> list[tuple[Any, ...]]:
        """Every ratings row of a server replayed from its records (leaving out one person)."""
        return await self.db.run(self._replay(guild_id, without))

    def _replay(self, guild_id: int, without: int | None) -> Plan[list[tuple[Any, ...]]]:
        seats = yield from replay_seats(guild_id, without)
        skills: dict[tuple[str, int], Skill] = {}
        counts: dict[tuple[str, int], list[Any]] = {}  # name, rated, games, wins
        for table_id, game, rated in (yield Step.all(
                "SELECT table_id, game, rated FROM records WHERE guild_id=?"
                " ORDER BY finished, table_id", guild_id)):
            replay_game(skills, counts, str(game), bool(rated), seats.get(table_id, []))
        rows = []
        for (key, user), (name, rated_games, games, wins) in counts.items():
            skill = skills.get((key, user), Skill())
            rows.append((guild_id, key, user, name, skill.mu, skill.sigma,
                         skill.ordinal if rated_games else None, rated_games, games, wins))
        return rows

@dataclass(frozen=True)
class _Board:
    """Which board a leaderboard reads: the all-time ``ratings`` or a season's rows."""

    guild_id: int
    game: str
    season: int | None

    @property
    def table(self) -> str:
        return "ratings" if self.season is None else "season_ratings"

    @property
    def columns(self) -> str:
        """The key columns before ``user_id`` (in the board index's order)."""
        return "guild_id, game" if self.season is None else "guild_id, season, game"

    @property
    def where(self) -> str:
        return " AND ".join(f"{c}=?" for c in self.columns.split(", "))

    @property
    def keys(self) -> tuple[Any, ...]:
        if self.season is None:
            return (self.guild_id, self.game)
        return (self.guild_id, self.season, self.game)
