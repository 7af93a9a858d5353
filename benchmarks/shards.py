"""Shards: two bot processes, each running half of the shards, on one PostgreSQL database.

    .venv/bin/python benchmarks/shards.py [--guilds 4] [--games 2] [--pg postgresql://...]

Without ``--pg`` (or ``DECKHAND_TEST_PG``) a throwaway PostgreSQL server is started in a
temporary directory (Debian's package, as ``scripts/test`` does) and removed at the end; a fresh
database is created in it either way.

The simulated Discord recommends 2 shards and routes each guild's events and interactions over
its shard's connection. Process A runs ``DECKHAND_SHARDS=0/2``, process B ``1/2``, both with
``DECKHAND_DB`` on the same database. In ``--guilds`` servers (half on each shard), two
scripted people play ``--games`` games of 1234 (a series of one game) against each other (rated:
people only), all servers at once. Then one
more game is left half-played in every server, both processes are stopped, and one process
running both shards (``0-1/2``) starts on the same database. Checked:

- each process identified with its own slice, and tables were played in both;
- every finished game is recorded once in the one database (no process records another's
  twice: catch-up and finish hooks share the database);
- ``/leaderboard`` in every server, answered by the process of its shard, lists the server's
  players, and after the switch the single process shows the same boards (they live in the
  database, not in a process);
- the half-played tables of both shards resume in the single process and finish.

Printed: tables per process, records, boards, resumed tables, errors. Exit status 1 on any
failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.botproc import BotProcess, ProcDiscord  # noqa: E402
from benchmarks.faults import by_verb, ids_on  # noqa: E402
from tests.bot.sim_helpers import table_of, verb_of  # noqa: E402
from tests.discord_sim import SimChannel, SimGuild, SimUser  # noqa: E402

GAME = "1234"
# Deals tried per server for a game still going after three moves.
HALF_PLAYED_TRIES = 5


# -- a throwaway PostgreSQL server --------------------------------------------------------------
@contextlib.contextmanager
def postgres(given: str | None) -> Iterator[str]:
    """The address of a PostgreSQL server: the given one, or a throwaway one started here."""
    if given:
        yield given
        return
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    bin_dir = found[-1] if found else os.path.dirname(shutil.which("initdb") or "")
    if not bin_dir or not os.access(os.path.join(bin_dir, "initdb"), os.X_OK):
        raise SystemExit("PostgreSQL is not installed (bash scripts/setup --test installs it),"
                         " and no --pg address was given")
    home = tempfile.mkdtemp(prefix="deckhand-shards-pg.")
    owner: list[str] = []
    if os.getuid() == 0:  # PostgreSQL refuses to run as root
        if subprocess.run(["id", "-u", "postgres"], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "--system", "--no-create-home", "postgres"], check=True)
        shutil.chown(home, "postgres")
        owner = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(home, "data")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    subprocess.run([*owner, f"{bin_dir}/initdb", "-D", data, "-U", "deckhand", "--auth=trust",
                    "-E", "UTF8", "--no-sync"], check=True, capture_output=True)
    options = (f"-c listen_addresses=127.0.0.1 -p {port} -k {home} -c max_connections=200"
               " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
    subprocess.run([*owner, f"{bin_dir}/pg_ctl", "-D", data, "-l", f"{home}/server.log", "-w",
                    "-t", "60", "-o", options, "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://deckhand@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*owner, f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


async def fresh_database(server: str) -> str:
    """A new, empty database on the server; its address."""
    import asyncpg

    name = f"deckhand_shards_{os.getpid()}_{int(time.time())}"
    conn = await asyncpg.connect(server, timeout=30)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    base, _, _ = server.rpartition("/")
    return f"{base}/{name}"


async def query(db: str, sql: str, *args: Any) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(db, timeout=30)
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


# -- the servers and their players --------------------------------------------------------------
@dataclass
class Server:
    guild: SimGuild
    shard: int
    channel: SimChannel
    people: list[SimUser]
    tables: list[int] = field(default_factory=list)


def shard_of(guild_id: str, count: int) -> int:
    return (int(guild_id) >> 22) % count


async def make_servers(sim: ProcDiscord, count: int) -> list[Server]:
    """``count`` guilds, half on each of the two shards."""
    servers: list[Server] = []
    wanted = {0: count // 2, 1: count - count // 2}
    serial = 0
    while any(wanted.values()):
        guild = sim.add_guild(f"Server {serial}", locale="en-US")
        serial += 1
        shard = shard_of(guild.id, 2)
        if wanted[shard] == 0:
            await asyncio.sleep(0.002)  # the next snowflake's time part moves on
            continue
        wanted[shard] -= 1
        channel = sim.add_channel(guild, "cards")
        people = []
        for k in range(2):
            user = sim.add_user(f"s{serial}-p{k}")
            sim.add_member(guild, user)
            people.append(user)
        servers.append(Server(guild, shard, channel, people))
    return servers


async def open_table(sim: ProcDiscord, server: Server, timeout: float = 120.0) -> int:
    """Open a table of 1234 in the server's channel, seat both people, set a one-game series
    and start it; its id. A click the loaded machine answered too late (Discord's 3 s) is
    simply made again: joining twice or starting a started table is refused, not repeated."""
    host, other = server.people
    limit = time.monotonic() + timeout
    series_set = False
    while time.monotonic() < limit:
        shown = table_of(sim, server.channel)
        if shown is not None and by_verb(shown, "hand") is not None:
            table = int((by_verb(shown, "hand") or "").split(":")[2])
            if table not in server.tables:
                server.tables.append(table)
                return table
        if shown is None or by_verb(shown, "start") is None:
            r = await sim.slash(host, server.channel, "play", {"game": GAME})
            if r.status != "ok" or r.ephemeral:  # late, or refused: look at the channel again
                await asyncio.sleep(0.5)
            continue
        await sim.click(other, shown, by_verb(shown, "join") or "")
        if not series_set:
            series_set = await short_series(sim, server)
            continue
        current = table_of(sim, server.channel) or shown
        await sim.click(host, current, by_verb(current, "start") or "")
        waited = time.monotonic() + 5.0
        while time.monotonic() < waited:
            now = table_of(sim, server.channel)
            if now is not None and by_verb(now, "hand") is not None:
                break
            await asyncio.sleep(0.05)
    shown = table_of(sim, server.channel)
    raise AssertionError(f"{server.guild.name}: the table did not start in {timeout:.0f} s; "
                         f"the channel shows {shown.content[:300] if shown else None!r}")


async def short_series(sim: ProcDiscord, server: Server) -> bool:
    """The host sets 1234's series to one game in the options menu (a short game); whether
    the menu was found and chosen from."""
    host = server.people[0]
    shown = table_of(sim, server.channel)
    assert shown is not None
    menu = (await sim.click(host, shown, by_verb(shown, "opts") or "")).message
    for _ in range(4):
        if menu is None:
            return False
        chosen = [x for x in menu.selects() if str(x["custom_id"]).endswith(":games")]
        if chosen:
            r = await sim.select(host, menu, chosen[0]["custom_id"], ["1"])
            return r.status == "ok"
        more = by_verb(menu, "opts")
        if more is None:
            return False
        menu = (await sim.click(host, menu, more)).message
    return False


async def move(sim: ProcDiscord, server: Server, rng: random.Random) -> bool:
    """One move by the person to act, if any; False when the table is not waiting for one."""
    shown = table_of(sim, server.channel)
    if shown is None or by_verb(shown, "hand") is None:
        return False
    due = [u for u in server.people if f"<@{u.id}>" in shown.content]
    if not due:
        return False
    user = due[0]
    hand = (await sim.click(user, shown, by_verb(shown, "hand") or "")).message
    if hand is None:
        return False
    for _ in range(4):
        acts = [b["custom_id"] for b in hand.buttons() if verb_of(b["custom_id"]) == "act"]
        # a menu of the moves themselves first: any choice in it is a move, where a random
        # ticked set of cards is mostly not one (1234's sums) and only costs a round trip
        menus = [s for s in hand.selects() if verb_of(s["custom_id"]) == "pick"] or \
            [s for s in hand.selects() if verb_of(s["custom_id"]) == "set"]
        if acts and (not menus or rng.random() < 0.5):
            await sim.click(user, hand, rng.choice(acts))
            return True
        if not menus:
            return False
        menu = rng.choice(menus)
        offered = [o["value"] for o in menu["options"]]
        size = rng.randint(menu.get("min_values", 1), menu.get("max_values", 1))
        answer = (await sim.select(user, hand, menu["custom_id"], rng.sample(offered, size))
                  ).message
        if answer is None or answer.id != hand.id or by_verb(answer, "view") is None:
            return True
        hand = answer
    return False


async def play(sim: ProcDiscord, server: Server, rng: random.Random, moves: int | None,
               timeout: float = 180.0) -> bool:
    """Play the channel's table: ``moves`` moves, or (None) to its end. True when done."""
    made = 0
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        shown = table_of(sim, server.channel)
        if shown is not None and not ids_on(shown):
            return moves is None  # the game is over
        if moves is not None and made >= moves:
            return True
        try:
            if await move(sim, server, rng):
                made += 1
            else:
                await asyncio.sleep(0.05)
        except AssertionError:  # the message changed under the click: look again
            await asyncio.sleep(0.05)
    return False


async def boards(sim: ProcDiscord, servers: list[Server]) -> dict[str, str]:
    """Each server's /leaderboard, as text (the embed's lines)."""
    found = {}
    for server in servers:
        r = await sim.slash(server.people[0], server.channel, "leaderboard", {})
        limit = time.monotonic() + 10.0
        while (r.message is None or not r.message.embeds) and time.monotonic() < limit:
            await asyncio.sleep(0.05)  # a deferred answer: the board is being drawn
        message = r.message
        text = "" if message is None else message.content + " ".join(
            str(e.get("description", "")) + " ".join(str(f.get("value", ""))
                                                     for f in e.get("fields", []))
            for e in message.embeds)
        found[server.guild.id] = text
    return found


async def run(guild_count: int, game_count: int, pg: str | None, seed: int) -> int:
    rng = random.Random(seed)
    problems: list[str] = []
    with postgres(pg or os.environ.get("DECKHAND_TEST_PG")) as server_address:
        db = await fresh_database(server_address)
        async with ProcDiscord(interaction_deadline=3.0, shards=2) as sim:
            servers = await make_servers(sim, guild_count)
            bots = [BotProcess(sim, db, ai_delay=0.02, shards="0/2"),
                    BotProcess(sim, db, ai_delay=0.02, shards="1/2")]
            single: BotProcess | None = None
            try:
                started = time.perf_counter()
                await asyncio.gather(*(b.start(timeout=90) for b in bots))
                ready = time.perf_counter() - started
                shards = sorted(sim.connected_shards())
                if shards != [(0, 2), (1, 2)]:
                    problems.append(f"connected shards {shards}, expected [(0, 2), (1, 2)]")

                async def games(server: Server) -> None:
                    for _ in range(game_count):
                        await open_table(sim, server)
                        if not await play(sim, server, rng, None):
                            shown = table_of(sim, server.channel)
                            text = shown.content[:300] if shown else None
                            problems.append(f"{server.guild.name}: a game did not finish; "
                                            f"the channel shows {text!r}")
                            return
                        await sim.settle(idle=0.05)

                began = time.perf_counter()
                await asyncio.gather(*(games(s) for s in servers))
                played = time.perf_counter() - began
                await sim.settle(idle=0.3, timeout=30)

                async def half_played(server: Server) -> None:
                    # A two-player 1234 game can end within three moves (a player with
                    # neither a play nor a pass drops out): then deal another.
                    for _ in range(HALF_PLAYED_TRIES):
                        await open_table(sim, server)
                        made = await play(sim, server, rng, 3)
                        await sim.settle(idle=0.05)
                        shown = table_of(sim, server.channel)
                        if made and shown is not None and ids_on(shown):
                            return  # still going
                    problems.append(f"{server.guild.name}: every game ended within three moves")

                # one more game each, half played, then both processes stop
                await asyncio.gather(*(half_played(s) for s in servers))
                await sim.settle(idle=0.2, timeout=30)
                before = await boards(sim, servers)
                await asyncio.gather(*(b.stop() for b in bots))
                open_rows = await query(db, "SELECT id, guild_id FROM tables"
                                            " WHERE status IN ('lobby', 'playing')")
                single = BotProcess(sim, db, ai_delay=0.02, shards="0-1/2")
                await single.start(timeout=90)
                await sim.settle(idle=0.3, timeout=30)
                after = await boards(sim, servers)
                finished_after = await asyncio.gather(*(play(sim, s, rng, None)
                                                        for s in servers))
                await sim.settle(idle=0.3, timeout=30)
                await single.stop()
            finally:
                for b in [*bots, *([single] if single else [])]:
                    b.kill()
                    with contextlib.suppress(Exception):
                        await b.wait()
            records = await query(db, "SELECT table_id, guild_id FROM records")
            record_ids = [int(r["table_id"]) for r in records]
            finished = await query(db, "SELECT id, guild_id FROM tables WHERE status='finished'")
            ratings = await query(db, "SELECT guild_id, user_id FROM ratings")
            errors = [e for b in [*bots, single] if b for e in b.errors]
            warnings = [w for b in [*bots, single] if b for w in b.warnings]
            spec_errors = list(sim.spec_errors)
    by_shard: dict[int, int] = {0: 0, 1: 0}
    for server in servers:
        by_shard[server.shard] += len(server.tables)
    if not by_shard[0] or not by_shard[1]:
        problems.append(f"tables were not played in both processes: {by_shard}")
    if len(record_ids) != len(set(record_ids)):
        problems.append("a game was recorded twice")
    missing = {int(r["id"]) for r in finished} - set(record_ids)
    if missing:
        problems.append(f"finished tables not recorded: {sorted(missing)}")
    for server in servers:
        names = [u.name for u in server.people]
        for label, shown in (("before", before), ("after", after)):
            text = shown.get(server.guild.id, "")
            if not all(name in text for name in names):
                problems.append(f"{server.guild.name} (shard {server.shard}): /leaderboard "
                                f"{label} the switch does not list {names}: {text[:120]!r}")
        if before.get(server.guild.id) != after.get(server.guild.id):
            problems.append(f"{server.guild.name}: the board changed across the switch")
    resumed_guilds = {int(r["guild_id"]) for r in open_rows}
    if {shard_of(str(g), 2) for g in resumed_guilds} != {0, 1}:
        problems.append(f"half-played tables were not left in both shards: {open_rows}")
    if not all(finished_after):
        problems.append("a resumed table did not finish in the single process")
    rated_guilds = {int(r["guild_id"]) for r in ratings}
    print(f"{len(servers)} servers ({sum(s.shard == 0 for s in servers)} on shard 0, "
          f"{sum(s.shard == 1 for s in servers)} on shard 1), two processes "
          f"(DECKHAND_SHARDS=0/2 and 1/2) on one PostgreSQL database; both ready in {ready:.1f} s")
    print(f"tables played: shard 0 {by_shard[0]}, shard 1 {by_shard[1]} ({played:.1f} s); "
          f"finished {len(finished)}, recorded {len(record_ids)} "
          f"(distinct {len(set(record_ids))}); servers with ratings {len(rated_guilds)}")
    print(f"half-played tables handed to one process running 0-1/2: {len(open_rows)}, "
          f"finished there: {sum(finished_after)}; leaderboards identical across the switch: "
          f"{sum(before.get(s.guild.id) == after.get(s.guild.id) for s in servers)}"
          f"/{len(servers)}")
    print(f"errors the bots logged: {len(errors)}; spec errors: {len(spec_errors)}; "
          f"problems: {len(problems)}")
    for line in problems[:10] + errors[:5]:
        print("  problem:", line[:600])
    for spec in spec_errors[:3]:
        print("  spec:", spec)
    if problems or errors or spec_errors:  # what the bots warned of may say why
        for line in warnings[:10]:
            print("  bot warning:", line[:600])
    return 1 if problems or errors or spec_errors else 0


def main() -> int:
    """Parse arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guilds", type=int, default=4)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--pg", default=None, help="a PostgreSQL server's address (default: "
                        "DECKHAND_TEST_PG, else a throwaway server)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    return asyncio.run(run(args.guilds, args.games, args.pg, args.seed))


if __name__ == "__main__":
    sys.exit(main())
