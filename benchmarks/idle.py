"""Idle correspondence tables: 10,000 open tables in one process, waiting days for a move.

    .venv/bin/python benchmarks/idle.py [--tables 10000] [--idle-seconds 60] [--db PATH]
                                        [--profile]

Each table is a game of the project's mix, 2 to 4 seats of people and computers, a few moves
in, waiting for a person, at a correspondence pace of 1 h to 7 days with some of its time gone
(its reminder still ahead). The database (SQLite, a temporary file unless ``--db`` names one;
an existing ``--db`` is reused as it is) is built in a child process *through the storage*,
not through the service: the service stores every lobby step and move in a transaction of
its own (open, joins, computers, pace, start, each move: about ten commits a table), which
at 10,000 tables would take far longer than what is measured. The rows are the service's own
(``Seat.to_dict``, the game's moves played by its rules and stored as the service stores
them), so the service loads them as it loads its own.

Then, in this process, with nothing built here:

1. resident memory per idle table: RSS (``/proc/self/statm``) with every table loaded minus
   RSS with none (the same process after a service resumed on an empty database), divided by
   the count;
2. the restart: a new ``TableManager`` on the database, ``resume()``'s wall time (target
   ≤ 10 s); ``--profile`` prints where that time goes (cProfile);
3. the idle CPU: the process's CPU time over ``--idle-seconds`` of wall time with the tables
   loaded and no move (target ≤ 1 % of a core: nothing per table wakes on its own);
4. the asyncio tasks alive, the timers armed on the event loop and the deadline scheduler's
   live entries (at most a reminder and a deadline per table).

Each figure is printed with its target and PASS or OVER; the script exits 1 when a table did
not resume or a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import io
import json
import os
import pstats
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bot.storage.store import Storage, UserSettings  # noqa: E402
from bot.tables import TableManager, pace  # noqa: E402
from bot.tables.clock import SystemClock  # noqa: E402
from bot.tables.model import Seat  # noqa: E402

MIX = ("1234", "bhabhi", "sugekari-21", "bear", "spar", "twenty-two", "finesse")
#: targets (the issue's): a restart resumes every table within this, and the idle process
#: spends at most this share of one core
RESUME_TARGET = 10.0
IDLE_CPU_TARGET = 1.0
#: tasks the service keeps whatever the count of tables (the scheduler, the heartbeat, a
#: writer now and then): a task per table would show here
TASKS_MOST = 10
#: tables a channel holds, and a server's channels (the default caps)
PER_CHANNEL = 10
PER_GUILD = 1000


def rss() -> int:
    """This process's resident memory now, in bytes."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


# -- building the database (a child process) --------------------------------------------------
Moves = list[tuple[int, str, int | None, str]]  # (seat, action, user id, how) of each


def one_table(rng: random.Random, people: list[int]) -> tuple[dict[str, object], Moves]:
    """A table a few moves in and waiting for a person: its row's fields and its moves."""
    while True:
        game = rng.choice(MIX)
        rules = games.get(game)
        counts = [n for n in rules.player_counts() if 2 <= n <= 4]
        count = rng.choice(counts)
        humans = rng.randint(1, count)  # the host and maybe others; computers in the rest
        chosen = rng.sample(people, humans)
        computer_seats = set(rng.sample(range(1, count), count - humans))
        seats, who = [], iter(chosen)
        for index in range(count):
            if index in computer_seats:
                seats.append(Seat(None, f"Computer {index}", computer=True))
            else:
                user_id = next(who)
                seats.append(Seat(user_id, f"person {user_id}"))
        seed = rng.getrandbits(62)
        state = rules.new_game(count, seed=seed, options={})
        moves: Moves = []
        wanted = rng.randint(2, 8)  # people's moves made before the wait
        made = 0
        while not state.over:
            due = state.to_act
            auto = [s for s in due if seats[s].computer]
            if auto:
                seat = auto[0]
            elif made < wanted:
                seat = rng.choice(due)
                made += 1
            else:
                break  # a person is due, no computer: the table waits for them
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            moves.append((seat, str(action), seats[seat].user_id,
                          "computer" if seats[seat].computer else "player"))
        if state.over:
            continue  # the game ended inside the few moves: another one
        host = seats[0].user_id
        assert host is not None
        timer = rng.choice(pace.CORRESPONDENCE_PACES)
        return {"game": game, "host_id": host, "seats": [s.to_dict() for s in seats],
                "seed": seed, "timer": timer,
                "on_deadline": rng.choice(pace.DEADLINE_CHOICES)}, moves


async def build(path: str, count: int, seed: int) -> None:
    """Store ``count`` idle correspondence tables in the database at ``path``."""
    began = time.perf_counter()
    rng = random.Random(seed)
    store = await Storage.open(path)
    try:
        # each person sits at about eight tables (a person's cap is 21)
        people = [5_000_000 + n for n in range(max(4, count * 2 // 8))]
        now = time.time()
        rows: list[tuple[object, ...]] = []
        actions: list[tuple[int, int, int, str, int | None, str]] = []
        mix: Counter[str] = Counter()
        for index in range(count):
            table_id = index + 1
            fields, moves = one_table(rng, people)
            mix[str(fields["game"])] += 1
            seconds = pace.seconds(str(fields["timer"]))
            assert seconds is not None
            # half to 95 % of the turn's time left: its 80 % reminder is still ahead
            deadline = now + seconds * rng.uniform(0.5, 0.95)
            rows.append((table_id, 1 + index // PER_GUILD, 10_000 + index // PER_CHANNEL,
                         fields["game"], fields["host_id"], "playing",
                         json.dumps(fields["seats"]), "{}", fields["seed"], fields["timer"],
                         20_000_000 + table_id, now, now, "normal", 0, deadline, 0,
                         fields["on_deadline"]))
            actions.extend((table_id, idx, seat, action, user_id, how)
                           for idx, (seat, action, user_id, how) in enumerate(moves))
        await store.db.executemany(
            "INSERT INTO tables (id, guild_id, channel_id, game, host_id, status, seats,"
            " options, seed, timer, message_id, created, updated, level, hints, deadline_at,"
            " reminded, on_deadline) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?)", rows)
        for start in range(0, len(actions), 20_000):
            await store.add_actions(actions[start:start + 20_000])
        # one person in twenty chose the daily digest (an entry each in the scheduler)
        for user_id in people[::20]:
            await store.set_user_settings(user_id, UserSettings(digest=True,
                                                                tz="Asia/Tokyo"))
        await store.mark_alive(time.time())  # the bot "stopped" now: the restart follows
        print(f"built {count} tables ({len(actions)} moves stored; "
              + ", ".join(f"{game} {n}" for game, n in sorted(mix.items()))
              + f") through the storage in {time.perf_counter() - began:.1f} s", flush=True)
    finally:
        await store.close()


# -- measuring (this process) -----------------------------------------------------------------
def verdict(ok: bool) -> str:
    return "PASS" if ok else "OVER"


async def empty_service(directory: str) -> None:
    """A service resumed on an empty database and closed: what a process with no table holds
    (the game modules, the database driver, the service's parts) is loaded before the
    baseline is read."""
    store = await Storage.open(os.path.join(directory, "empty.sqlite3"))
    manager = TableManager(store, ai_workers=0, clock=SystemClock())
    await manager.resume()
    await manager.close()
    await store.close()


async def measure(path: str, count: int, idle_seconds: float, profile: bool,
                  directory: str) -> int:
    """Resume the tables at ``path``, print the figures; the exit code."""
    await empty_service(directory)
    gc.collect()
    before = rss()
    store = await Storage.open(path)
    manager = TableManager(store, ai_workers=0, clock=SystemClock())
    profiler = cProfile.Profile() if profile else None
    began = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    positions = await manager.resume()
    if profiler is not None:
        profiler.disable()
    resumed_in = time.perf_counter() - began
    resumed = len(positions)
    waiting = sum(1 for table in manager.tables.values() if table.people_due()
                  and table.deadline_at is not None)
    del positions  # the snapshots a front end draws once: not what an idle table keeps
    gc.collect()
    after = rss()
    problems = 0
    if resumed != count or waiting != count:
        problems += 1
    print(f"resumed: {resumed} of {count} tables, {waiting} waiting for a person with a "
          "running deadline")
    per_table = (after - before) / max(1, resumed)
    print(f"memory: RSS {before / 2**20:.1f} MiB with no table, {after / 2**20:.1f} MiB with "
          f"{resumed} loaded: {per_table / 1024:.1f} KiB per idle table (no target)")
    print(f"resume after a restart: {resumed_in:.2f} s for {resumed} tables "
          f"(target ≤ {RESUME_TARGET:.0f} s): {verdict(resumed_in <= RESUME_TARGET)}")
    if resumed_in > RESUME_TARGET:
        problems += 1
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue())

    loop = asyncio.get_running_loop()
    # the service looks inside its scheduler here, as the service's tests do
    deadlines = manager._time.deadlines
    tasks = len(asyncio.all_tasks())
    kinds = Counter(due.kind for due in deadlines.pending())
    of_tables = kinds["remind"] + kinds["expire"]
    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.sleep(idle_seconds)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    share = 100 * cpu / wall
    print(f"idle CPU: {cpu:.3f} s over {wall:.1f} s: {share:.2f} % of a core "
          f"(target ≤ {IDLE_CPU_TARGET:.0f} %): {verdict(share <= IDLE_CPU_TARGET)}")
    if share > IDLE_CPU_TARGET:
        problems += 1
    tasks_after = len(asyncio.all_tasks())
    timers = len(getattr(loop, "_scheduled", ()))  # asyncio's heap of armed timer handles
    print(f"asyncio tasks: {tasks} after the resume, {tasks_after} after the idle time "
          f"(target ≤ {TASKS_MOST}, whatever the count of tables): "
          f"{verdict(max(tasks, tasks_after) <= TASKS_MOST)}")
    if max(tasks, tasks_after) > TASKS_MOST:
        problems += 1
    print(f"event loop timers armed: {timers}; deadline scheduler: {len(deadlines)} live "
          f"entries ({', '.join(f'{kind} {n}' for kind, n in sorted(kinds.items()))}); "
          f"the tables' {of_tables} (target ≤ {2 * resumed}: a reminder and a deadline per "
          f"table): {verdict(of_tables <= 2 * resumed)}")
    if of_tables > 2 * resumed:
        problems += 1
    await manager.close()
    await store.close()
    print(f"problems: {problems}")
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--db", help="a database to build there, or to reuse if it exists")
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--profile", action="store_true",
                        help="print where resume() spends its time (cProfile)")
    parser.add_argument("--build", metavar="PATH", help=argparse.SUPPRESS)  # the child's job
    args = parser.parse_args()
    if args.build:
        asyncio.run(build(args.build, args.tables, args.seed))
        return 0
    with tempfile.TemporaryDirectory(prefix="deckhand-idle-") as directory:
        path = args.db or os.path.join(directory, "idle.sqlite3")
        if os.path.exists(path):
            print(f"reusing {path}")
        else:
            # built in a child process, so nothing of the building stays in this one's memory
            subprocess.run([sys.executable, __file__, "--build", path, "--tables",
                            str(args.tables), "--seed", str(args.seed)], check=True)
        count = _count(path)
        return asyncio.run(measure(path, count, args.idle_seconds, args.profile, directory))


def _count(path: str) -> int:
    """The open tables stored at ``path`` (a reused database may hold another count), counted
    by the database alone: nothing of them is loaded into this process before the baseline."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        found = db.execute("SELECT COUNT(*) FROM tables WHERE status IN ('lobby', 'playing')")
        return int(found.fetchone()[0])


if __name__ == "__main__":
    sys.exit(main())
