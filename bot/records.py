"""The record of finished games: one row per game, one per person's seat, current ratings.

:class:`Records` keeps its own SQLite connection to the bot's database (migration 2 of
:mod:`bot.storage` made its tables) and runs every operation in a worker thread, one at a time,
each write in a single ``BEGIN IMMEDIATE`` transaction. A game is recorded from what
``Storage.finish`` stored (its ``results`` row), keyed by the table id, so recording twice is a
no-op and a result stored just before the bot died is recorded on the next start
(:meth:`Records.catch_up`).

Ratings live in the ``ratings`` table (current mu, sigma and ordinal per server, game and user,
plus the same over all games under the key ``*``), updated as each game is recorded, so the
leaderboard reads them instead of replaying history. Forgetting a person replays the history of
the servers they played in without them.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot import ratings
from bot.ratings import ALL_GAMES, Skill
from games.core import Rules

T = TypeVar("T")
RulesLookup = Callable[[str], Rules]
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
class Board:
    """A page of a leaderboard, how many rated players there are, and the caller's line."""

    game: str
    page: int
    pages: int
    total: int
    rows: list[BoardRow]
    mine: BoardRow | None


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


def _is_rated(seats: Sequence[dict[str, Any]], sides: Sequence[ratings.Side]) -> bool:
    """Rated when every seat is a distinct person and there are at least two sides."""
    users = [s.get("user_id") for s in seats]
    if any(s.get("computer") or s.get("user_id") is None for s in seats):
        return False
    return len(set(users)) == len(users) and len(sides) >= 2


class Records:
    """Recording finished games, ratings, leaderboards, statistics, history and forgetting."""

    def __init__(self, conn: sqlite3.Connection, rules_for: RulesLookup) -> None:
        self.conn = conn
        self.rules_for = rules_for
        self.lock = asyncio.Lock()

    @classmethod
    def open(cls, path: str, rules_for: RulesLookup) -> Records:
        """Open a second connection to the (already migrated) database at ``path``."""
        conn = sqlite3.connect(path, timeout=10.0, isolation_level=None,
                               check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=10000")
        return cls(conn, rules_for)

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        async with self.lock:
            return await asyncio.to_thread(fn, *args)

    # -- recording --------------------------------------------------------------------------
    async def record(self, table_id: int) -> bool:
        """Record a finished table once; False when it was already recorded or is not over."""
        return await self._run(self.record_now, table_id)

    async def catch_up(self) -> list[int]:
        """Record every stored result that has no record yet (after a crash); their ids."""
        return await self._run(self.catch_up_now)

    def catch_up_now(self) -> list[int]:
        """:meth:`catch_up`, synchronously."""
        ids = [int(r[0]) for r in self.conn.execute(
            "SELECT r.table_id FROM results r LEFT JOIN records g ON g.table_id = r.table_id"
            " WHERE g.table_id IS NULL ORDER BY r.finished, r.table_id")]
        return [i for i in ids if self.record_now(i)]

    def record_now(self, table_id: int) -> bool:
        """:meth:`record`, synchronously, in one transaction."""
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            done = self._record(table_id)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT" if done else "ROLLBACK")
        return done

    def _record(self, table_id: int) -> bool:
        conn = self.conn
        if conn.execute("SELECT 1 FROM records WHERE table_id=?", (table_id,)).fetchone():
            return False
        found = conn.execute(
            "SELECT r.guild_id, r.game, r.seats, r.outcome, r.finished, t.options, t.seed,"
            " t.created FROM results r JOIN tables t ON t.id = r.table_id WHERE r.table_id=?",
            (table_id,)).fetchone()
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
        try:
            teams = self.rules_for(game).teams(count, options)
        except KeyError:
            teams = None
        sides = ratings.sides(places, teams, abandoned)
        rated = _is_rated(seats, sides)
        moves = conn.execute("SELECT COUNT(*) FROM actions WHERE table_id=?",
                             (table_id,)).fetchone()[0]
        conn.execute(
            "INSERT INTO records (table_id, guild_id, game, options, seed, seats, places, scores,"
            " rated, moves, started, finished) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, guild_id, game, options_text, seed, seats_text, json.dumps(places),
             json.dumps(scores), int(rated), moves, created, finished))
        people = []
        for index, side in enumerate(sides):
            for seat in side.seats:
                info = seats[seat]
                if info.get("computer") or info.get("user_id") is None:
                    continue
                people.append((table_id, seat, guild_id, game, int(info["user_id"]),
                               str(info.get("name", "")), index, places[seat], side.rank,
                               scores[seat], int(side.rank == 1), int(abandoned[seat]),
                               finished))
        conn.executemany(
            "INSERT INTO record_seats (table_id, seat, guild_id, game, user_id, name, side,"
            " place, rank, score, won, abandoned, finished)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", people)
        for key in (game, ALL_GAMES):
            self._update_ratings(guild_id, key, people, rated)
        return True

    def _update_ratings(self, guild_id: int, game: str, people: list[tuple[Any, ...]],
                        rated: bool) -> None:
        """Count the game for each person and, when rated, move their skills."""
        conn = self.conn
        current: dict[int, Skill] = {}
        for person in people:
            user = person[4]
            row = conn.execute("SELECT mu, sigma FROM ratings WHERE guild_id=? AND game=? AND"
                               " user_id=?", (guild_id, game, user)).fetchone()
            current[user] = Skill() if row is None else Skill(row[0], row[1])
        new = dict(current)
        if rated:
            by_side: dict[int, list[tuple[Any, ...]]] = {}
            for person in people:
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
            conn.execute(
                "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, rated,"
                " games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)"
                " ON CONFLICT(guild_id, game, user_id) DO UPDATE SET name=excluded.name,"
                " mu=excluded.mu, sigma=excluded.sigma,"
                " ordinal=CASE WHEN excluded.rated THEN excluded.ordinal ELSE ratings.ordinal END,"
                " rated=ratings.rated + excluded.rated, games=ratings.games + 1,"
                " wins=ratings.wins + excluded.wins",
                (guild_id, game, user, name, skill.mu, skill.sigma,
                 skill.ordinal if rated else None, int(rated), won))

    # -- reading ----------------------------------------------------------------------------
    async def leaderboard(self, guild_id: int, game: str = ALL_GAMES, page: int = 0,
                          user_id: int | None = None, per_page: int = 10) -> Board:
        """A page of the server's rated players by ordinal, with the caller's own line."""
        return await self._run(self.leaderboard_now, guild_id, game, page, user_id, per_page)

    def leaderboard_now(self, guild_id: int, game: str = ALL_GAMES, page: int = 0,
                        user_id: int | None = None, per_page: int = 10) -> Board:
        """:meth:`leaderboard`, synchronously."""
        conn = self.conn
        total = int(conn.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id=? AND game=? AND ordinal IS NOT NULL",
            (guild_id, game)).fetchone()[0])
        pages = max(1, -(-total // per_page))
        page = min(max(0, page), pages - 1)
        # the page is found in the board index alone (skipping rows costs no table reads)
        found = conn.execute(
            "SELECT user_id, name, ordinal, mu, sigma, games, wins FROM ratings"
            " WHERE rowid IN (SELECT rowid FROM ratings WHERE guild_id=? AND game=?"
            " AND ordinal IS NOT NULL ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?)"
            " ORDER BY ordinal DESC, user_id",
            (guild_id, game, per_page, page * per_page)).fetchall()
        rows: list[BoardRow] = []
        for i, (user, name, ordinal, mu, sigma, games, wins) in enumerate(found):
            if not rows:
                rank = self._rank(guild_id, game, ordinal)
            elif rows[-1].ordinal == ordinal:  # ties share a rank
                rank = rows[-1].rank
            else:  # below a lower ordinal: exactly the rows before it are ahead
                rank = page * per_page + i + 1
            rows.append(BoardRow(rank, user, name, ordinal, mu, sigma, games, wins))
        mine = None
        if user_id is not None:
            row = conn.execute(
                "SELECT name, ordinal, mu, sigma, games, wins FROM ratings WHERE guild_id=?"
                " AND game=? AND user_id=? AND ordinal IS NOT NULL",
                (guild_id, game, user_id)).fetchone()
            if row is not None:
                mine = BoardRow(self._rank(guild_id, game, row[1]), user_id, *row)
        return Board(game, page, pages, total, rows, mine)

    def _rank(self, guild_id: int, game: str, ordinal: float) -> int:
        """1 + how many rated players are strictly above ``ordinal`` (ties share a rank)."""
        return 1 + int(self.conn.execute(
            "SELECT COUNT(*) FROM ratings WHERE guild_id=? AND game=? AND ordinal > ?",
            (guild_id, game, ordinal)).fetchone()[0])

    async def skill(self, guild_id: int, game: str, user_id: int) -> Skill | None:
        """A person's current rating in a game of a server (None before a rated game)."""
        return await self._run(self.skill_now, guild_id, game, user_id)

    def skill_now(self, guild_id: int, game: str, user_id: int) -> Skill | None:
        """:meth:`skill`, synchronously."""
        row = self.conn.execute(
            "SELECT mu, sigma FROM ratings WHERE guild_id=? AND game=? AND user_id=? AND rated>0",
            (guild_id, game, user_id)).fetchone()
        return None if row is None else Skill(row[0], row[1])

    async def stats(self, guild_id: int, user_id: int) -> list[GameStats]:
        """A person's figures per game in a server (most played first)."""
        return await self._run(self.stats_now, guild_id, user_id)

    def stats_now(self, guild_id: int, user_id: int) -> list[GameStats]:
        """:meth:`stats`, synchronously."""
        conn = self.conn
        found = conn.execute(
            "SELECT game, games, wins, rated, mu, sigma FROM ratings WHERE guild_id=? AND"
            " user_id=? AND game != ? ORDER BY games DESC, game", (guild_id, user_id, ALL_GAMES)
        ).fetchall()
        streaks: dict[str, int] = {}
        running: dict[str, int] = {}
        for game, won in conn.execute(
                "SELECT game, won FROM record_seats WHERE user_id=? AND guild_id=?"
                " ORDER BY finished, table_id", (user_id, guild_id)):
            running[game] = running.get(game, 0) + 1 if won else 0
            streaks[game] = max(streaks.get(game, 0), running[game])
        stats = []
        for game, games, wins, rated, mu, sigma in found:
            stats.append(GameStats(game, games, wins, rated,
                                   Skill(mu, sigma) if rated else None, streaks.get(game, 0),
                                   self._partner(guild_id, game, user_id)))
        return stats

    def _partner(self, guild_id: int, game: str, user_id: int) -> tuple[int, str, int] | None:
        """The person most often on the same side; failing that, most often at the table."""
        for same_side in (True, False):
            row = self.conn.execute(
                "SELECT o.user_id, MAX(o.name), COUNT(*) AS n FROM record_seats me"
                " JOIN record_seats o ON o.table_id = me.table_id AND o.seat != me.seat"
                + (" AND o.side = me.side" if same_side else "") +
                " WHERE me.user_id=? AND me.guild_id=? AND me.game=?"
                " GROUP BY o.user_id ORDER BY n DESC, o.user_id LIMIT 1",
                (user_id, guild_id, game)).fetchone()
            if row is not None:
                return int(row[0]), str(row[1]), int(row[2])
        return None

    async def history(self, guild_id: int, user_id: int, limit: int = 10) -> list[HistoryLine]:
        """A person's most recent games in a server, newest first."""
        return await self._run(self.history_now, guild_id, user_id, limit)

    def history_now(self, guild_id: int, user_id: int, limit: int = 10) -> list[HistoryLine]:
        """:meth:`history`, synchronously."""
        found = self.conn.execute(
            "SELECT s.table_id, s.game, s.finished, s.place, s.score, s.won, g.rated,"
            " s.abandoned, g.seats FROM record_seats s JOIN records g ON g.table_id = s.table_id"
            " WHERE s.user_id=? AND s.guild_id=? ORDER BY s.finished DESC, s.table_id DESC"
            " LIMIT ?", (user_id, guild_id, limit)).fetchall()
        return [HistoryLine(int(r[0]), str(r[1]), float(r[2]), int(r[3]),
                            len(json.loads(r[8])), float(r[4]), bool(r[5]), bool(r[6]),
                            bool(r[7])) for r in found]

    async def game(self, table_id: int) -> Record | None:
        """A recorded game with its stored actions, or None."""
        return await self._run(self.game_now, table_id)

    def game_now(self, table_id: int) -> Record | None:
        """:meth:`game`, synchronously."""
        row = self.conn.execute(
            "SELECT guild_id, game, options, seed, seats, places, scores, rated, started,"
            " finished FROM records WHERE table_id=?", (table_id,)).fetchone()
        if row is None:
            return None
        actions = [(int(a[0]), str(a[1])) for a in self.conn.execute(
            "SELECT seat, action FROM actions WHERE table_id=? ORDER BY idx", (table_id,))]
        return Record(table_id, int(row[0]), str(row[1]), json.loads(row[2]), int(row[3]),
                      json.loads(row[4]), json.loads(row[5]), json.loads(row[6]),
                      bool(row[7]), float(row[8]), float(row[9]), actions)

    # -- forgetting -------------------------------------------------------------------------
    async def forget(self, user_id: int) -> int:
        """Remove a person from every record and rating; ratings are replayed without them.

        Returns how many of their game seats were removed.
        """
        return await self._run(self.forget_now, user_id)

    def forget_now(self, user_id: int) -> int:
        """:meth:`forget`, synchronously: history replayed first, then one short transaction."""
        conn = self.conn
        guilds = [int(r[0]) for r in conn.execute(
            "SELECT DISTINCT guild_id FROM record_seats WHERE user_id=?"
            " UNION SELECT DISTINCT guild_id FROM ratings WHERE user_id=?", (user_id, user_id))]
        fresh = {g: self.replay_ratings(g, without=user_id) for g in guilds}
        tables = [int(r[0]) for r in conn.execute(
            "SELECT table_id FROM record_seats WHERE user_id=?", (user_id,))]
        conn.execute("BEGIN IMMEDIATE")
        try:
            removed = conn.execute("DELETE FROM record_seats WHERE user_id=?",
                                   (user_id,)).rowcount
            for table_id in tables:
                self._scrub(table_id, user_id)
            for guild_id, rows in fresh.items():
                conn.execute("DELETE FROM ratings WHERE guild_id=?", (guild_id,))
                conn.executemany(
                    "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal,"
                    " rated, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        return int(removed)

    def _scrub(self, table_id: int, user_id: int) -> None:
        """Take a person's id and name out of a finished table's stored seats and moves."""
        conn = self.conn

        def clean(text: str) -> str:
            seats = json.loads(text)
            for seat in seats:
                if seat.get("user_id") == user_id:
                    seat["user_id"] = None
                    seat["name"] = FORGOTTEN
            return json.dumps(seats)

        for table, column, key in (("records", "seats", "table_id"),
                                   ("results", "seats", "table_id"), ("tables", "seats", "id")):
            row = conn.execute(f"SELECT {column} FROM {table} WHERE {key}=?",
                               (table_id,)).fetchone()
            if row is not None:
                conn.execute(f"UPDATE {table} SET {column}=? WHERE {key}=?",
                             (clean(row[0]), table_id))
        conn.execute("UPDATE tables SET host_id=0 WHERE id=? AND host_id=?", (table_id, user_id))
        conn.execute("UPDATE actions SET user_id=NULL WHERE table_id=? AND user_id=?",
                     (table_id, user_id))

    def replay_ratings(self, guild_id: int, without: int | None = None) -> list[tuple[Any, ...]]:
        """Every ratings row of a server replayed from its records (leaving out one person)."""
        conn = self.conn
        seats: dict[int, list[tuple[int, str, int, int, int]]] = {}
        for table_id, user, name, side, rank, won in conn.execute(
                "SELECT table_id, user_id, name, side, rank, won FROM record_seats"
                " WHERE guild_id=? ORDER BY table_id, seat", (guild_id,)):
            if user != without:
                seats.setdefault(table_id, []).append((user, name, side, rank, won))
        skills: dict[tuple[str, int], Skill] = {}
        counts: dict[tuple[str, int], list[Any]] = {}  # name, rated, games, wins
        for table_id, game, rated in conn.execute(
                "SELECT table_id, game, rated FROM records WHERE guild_id=?"
                " ORDER BY finished, table_id", (guild_id,)):
            people = seats.get(table_id, [])
            for key in (game, ALL_GAMES):
                by_side: dict[int, list[tuple[int, str, int, int, int]]] = {}
                for person in people:
                    by_side.setdefault(person[2], []).append(person)
                rate_it = bool(rated) and len(by_side) >= 2
                if rate_it:
                    order = sorted(by_side)
                    updated = ratings.rate(
                        [[skills.get((key, p[0]), Skill()) for p in by_side[s]] for s in order],
                        [by_side[s][0][3] for s in order])
                    for side, new in zip(order, updated, strict=True):
                        for person, skill in zip(by_side[side], new, strict=True):
                            skills[(key, person[0])] = skill
                for user, name, _side, _rank, won in people:
                    count = counts.setdefault((key, user), [name, 0, 0, 0])
                    count[0] = name
                    count[1] += int(rate_it)
                    count[2] += 1
                    count[3] += won
        rows = []
        for (key, user), (name, rated_games, games, wins) in counts.items():
            skill = skills.get((key, user), Skill())
            rows.append((guild_id, key, user, name, skill.mu, skill.sigma,
                         skill.ordinal if rated_games else None, rated_games, games, wins))
        return rows

