"""Benchmark: /leaderboard for a server with 10,000 players and 100,000 recorded games.

Builds a database with the bot's own migrations, fills it with games of two to four players
(results, records and seats), computes every current rating by replaying the history with
``Records.replay_ratings`` (as forget-me does), then times what /leaderboard does: the query
(a page, the rated count, the caller's rank) and the picture, for random pages and callers.
On SQLite (a temporary file) by default; ``--db postgresql://...`` measures PostgreSQL instead,
in a schema of its own that is dropped afterwards.

    .venv/bin/python benchmarks/leaderboard.py [--players 10000] [--games 100000] [--runs 60]
        [--db postgresql://user@host/db]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games
from bot.storage.db import is_postgres
from bot.storage.ratings import ALL_GAMES
from bot.storage.records import Records
from bot.storage.store import Storage
from cogs.leaderboards import board_png

GUILD = 1
HEADERS = ("#", "Player", "Rating", "Games", "Won")


async def fill(records: Records, players: int, count: int, seed: int = 1) -> None:
    """Insert ``count`` finished games among ``players`` people, then every rating."""
    rng = random.Random(seed)
    ids = games.ids()
    db = records.db
    tables, seats_rows, results, recs = [], [], [], []
    for table_id in range(1, count + 1):
        game = rng.choice(ids)
        n = rng.randint(2, 4)
        people = rng.sample(range(1, players + 1), n)
        places = list(range(1, n + 1))
        rng.shuffle(places)
        seats = [{"user_id": u, "name": f"Player {u}", "computer": False, "away": False}
                 for u in people]
        when = 1_700_000_000.0 + table_id * 60
        text = json.dumps(seats)
        tables.append((table_id, GUILD, 1, game, people[0], "finished", text, "{}", table_id,
                       "off", None, when - 600, when))
        outcome = {"places": places, "winners": [], "scores": [float(-p) for p in places]}
        results.append((table_id, GUILD, game, text, json.dumps(outcome), when))
        recs.append((table_id, GUILD, game, "{}", table_id, text, json.dumps(places),
                     json.dumps(outcome["scores"]), 1, 40, when - 600, when))
        for seat, user in enumerate(people):
            seats_rows.append((table_id, seat, GUILD, game, user, f"Player {user}", seat,
                               places[seat], places[seat], -places[seat],
                               int(places[seat] == 1), 0, when))
    await db.executemany("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         tables)
    await db.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?)", results)
    await db.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", recs)
    await db.executemany(
        "INSERT INTO record_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats_rows)
    rows = await records.replay_ratings(GUILD)
    await db.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    await db.execute("VACUUM ANALYZE" if db.dialect == "postgresql" else "ANALYZE")


async def measure(records: Records, players: int, runs: int) -> dict[str, list[float]]:
    """Time the query alone and the query with the picture, as the cog runs them."""
    rng = random.Random(2)
    times: dict[str, list[float]] = {"query": [], "query+picture": []}
    found = await records.db.one(
        "SELECT COUNT(*) FROM ratings WHERE guild_id=? AND game=? AND ordinal IS NOT NULL",
        GUILD, ALL_GAMES)
    total = int(found[0]) if found else 0
    pages = max(1, total // 10)
    board_png(await records.leaderboard(GUILD), "warm-up", HEADERS)  # fonts load once
    for i in range(runs):
        game = ALL_GAMES if i % 2 == 0 else rng.choice(games.ids())
        page = 0 if i % 3 == 0 else rng.randrange(pages)
        caller = rng.randint(1, players)
        start = time.perf_counter()
        board = await records.leaderboard(GUILD, game, page, caller)
        middle = time.perf_counter()
        await asyncio.to_thread(board_png, board, f"Leaderboard — {game}", HEADERS, caller)
        end = time.perf_counter()
        times["query"].append((middle - start) * 1000)
        times["query+picture"].append((end - start) * 1000)
    return times


@contextlib.asynccontextmanager
async def database(address: str | None) -> AsyncIterator[str]:
    """A temporary SQLite file, or a fresh schema of the PostgreSQL database at ``address``."""
    if address is None:
        with tempfile.TemporaryDirectory() as folder:
            yield str(Path(folder) / "bench.sqlite3")
        return
    import asyncpg

    schema = f"bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(address)
    await admin.execute(f"CREATE SCHEMA {schema}")
    parts = urlsplit(address)
    query = "&".join(q for q in (parts.query, f"search_path={schema}") if q)
    try:
        yield urlunsplit(parts._replace(query=query))
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def main(argv: list[str] | None = None) -> int:
    """Build the database, run the measurement, print medians and 95th percentiles."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--db", help="a PostgreSQL address (default: a SQLite file)")
    args = parser.parse_args(argv)
    if args.db is not None and not is_postgres(args.db):
        parser.error("--db takes a postgresql:// address")
    async with database(args.db) as target:
        store = await Storage.open(target)
        records = Records.for_storage(store, games.get)
        start = time.perf_counter()
        await fill(records, args.players, args.games)
        built = time.perf_counter() - start
        found = await records.db.one(
            "SELECT COUNT(*) FROM ratings WHERE game=? AND ordinal IS NOT NULL", ALL_GAMES)
        rated = found[0] if found else 0
        print(f"built {args.games} games, {rated} rated players on {store.db.dialect}"
              f" in {built:.1f} s (history replayed through openskill)")
        times = await measure(records, args.players, args.runs)
        for name, values in times.items():
            values.sort()
            p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
            print(f"/leaderboard {name}: median {statistics.median(values):.1f} ms,"
                  f" p95 {p95:.1f} ms over {len(values)} runs")
        records.close()
        await store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
