"""The web table under load: many tables, four viewers each, moves made over the sockets.

    .venv/bin/python benchmarks/activity.py [--tables 100] [--seconds 60] [--think 1.0]
                                            [--games finesse,twenty-two,bhabhi,spar]
                                            [--warmup 5] [--watch-loop FILE]

This process runs the real web server (bot.web.app on a TableManager with a SQLite file, in
development mode so viewers sign in by name) and opens the tables, each with four people
seated; a second process (this script with ``--client``) opens every viewer's WebSocket, signs
in, watches its table and, whenever the model says its person may act, waits ``--think``
seconds (±50 %) and plays a random legal move. A finished game is followed by a new one in its
channel. Measured: from the moment a move is applied and stored (the service's own hook, with
the table's lock still held) to the moment the model showing it arrives at each OTHER viewer's
socket (wall clock; both processes on this machine): p50, p99 and max over every (move,
viewer), and the same for the slowest of a move's three other viewers; moves of the first
``--warmup`` seconds (the sockets opening) are left out. Exit status 1 on any
error: a socket closed or refused, an error message other than a stale move, an error the
server logged, or no move measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the repository first: benchmarks/bot.py is not the package
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

SEATS = 4


def person(table: int, seat: int) -> str:
    """The name a viewer signs in with."""
    return f"p{table}-{seat}"


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of some values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def probe(lags: list[float], every: float = 0.01) -> None:
    """How late the event loop wakes a sleeper (its lag, seconds), every ``every`` seconds."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(every)
        lags.append(loop.time() - asked - every)


# -- the client process ----------------------------------------------------------------------
async def viewer(base: str, http: aiohttp.ClientSession, slot: int, seat: int, think: float,
                 until: float, out: dict[str, Any]) -> None:
    """One viewer: sign in, watch the channel's table, play when it is their turn."""
    key = f"{slot}-{seat}"
    rng = random.Random(key)
    answer = await http.post(base + "/api/dev-login", json={"name": person(slot, seat)})
    session = (await answer.json())["session"]
    arrivals: list[tuple[int, int, float]] = out["arrivals"].setdefault(key, [])
    ws = await http.ws_connect(f"{base}/ws?channel_id={1000 + slot}",
                               protocols=("deckhand", "session." + session),
                               max_msg_size=4 * 1024 * 1024)
    watching: int | None = None
    pending: asyncio.Task[None] | None = None

    async def play(table: int, version: int, moves: list[dict[str, Any]]) -> None:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        move = rng.choice(moves)
        out["acted"].append((key, table, version))
        await ws.send_str(json.dumps({"type": "act", "table": table, "version": version,
                                      "move": move["index"]}))

    await ws.send_str('{"type": "tables"}')
    try:
        while time.time() < until:
            try:
                frame = await asyncio.wait_for(ws.receive(), max(0.01, until - time.time()))
            except TimeoutError:
                break
            if frame.type != aiohttp.WSMsgType.TEXT:
                out["errors"].append(f"{key}: socket {frame.type.name}")
                return
            now = time.time()
            message = json.loads(frame.data)
            kind = message.get("type")
            if kind == "tables":
                found = [t for t in message["tables"] if t["status"] == "playing"]
                if found and found[0]["id"] != watching:
                    watching = found[0]["id"]
                    await ws.send_str(json.dumps({"type": "watch", "table": watching}))
                elif not found:
                    await asyncio.sleep(0.2)
                    await ws.send_str('{"type": "tables"}')
            elif kind == "table":
                arrivals.append((message["table"], message["version"], now))
                if message["status"] != "playing":
                    await asyncio.sleep(0.2)
                    await ws.send_str('{"type": "tables"}')
                    continue
                you = message["you"]
                if you["may_act"] and you["moves"] and (pending is None or pending.done()):
                    pending = asyncio.create_task(
                        play(message["table"], message["version"], you["moves"]))
            elif kind == "error":
                if message["code"] == "stale":
                    out["stale"] += 1
                else:
                    out["errors"].append(f"{key}: {message['code']}: {message['message']}")
    finally:
        if pending is not None:
            pending.cancel()
        await ws.close()


async def client(base: str, tables: int, think: float, seconds: float) -> None:
    """Every viewer of every table, then the arrivals printed as JSON."""
    out: dict[str, Any] = {"arrivals": {}, "acted": [], "errors": [], "stale": 0, "lags": []}
    until = time.time() + seconds
    watch = asyncio.create_task(probe(out["lags"]))
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        runs = [viewer(base, http, slot, seat, think, until, out)
                for slot in range(tables) for seat in range(SEATS)]
        results = await asyncio.gather(*runs, return_exceptions=True)
    out["errors"] += [f"viewer failed: {r!r}" for r in results if isinstance(r, BaseException)]
    watch.cancel()
    used = resource.getrusage(resource.RUSAGE_SELF)
    out["cpu"] = used.ru_utime + used.ru_stime
    print(json.dumps(out))


# -- the server process ----------------------------------------------------------------------
class Errors(logging.Handler):
    """Counts the server's ERROR lines."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def serve(args: argparse.Namespace) -> int:
    """Run the server and the client process; print the figures."""
    from bot.config import ActivitySettings
    from bot.storage.store import Storage
    from bot.tables import TableManager
    from bot.web.app import web_server
    from bot.web.auth import dev_user_id

    errors = Errors()
    logging.getLogger().addHandler(errors)
    logging.getLogger().setLevel(logging.WARNING)
    folder = tempfile.mkdtemp(prefix="deckhand-activity-")
    store = await Storage.open(os.path.join(folder, "bench.sqlite3"))
    manager = TableManager(store, ai_delay=0.0, ai_level="random", ai_workers=0)
    await manager.resume()
    applied: dict[tuple[int, int], float] = {}
    manager._turns.after.append(lambda table: applied.__setitem__((table.id, table.version),
                                                                 time.time()))
    games_list = args.games.split(",")
    rng = random.Random(1)

    async def deal(slot: int) -> None:
        host = dev_user_id(person(slot, 0))
        table = await manager.open(1, 1000 + slot, games_list[slot % len(games_list)], host,
                                   person(slot, 0), seed=rng.randrange(1 << 30))
        for seat in range(1, SEATS):
            await manager.join(table.table_id, dev_user_id(person(slot, seat)),
                               person(slot, seat))
        await manager.start(table.table_id, host)
        slot_of[table.table_id] = slot

    slot_of: dict[int, int] = {}

    async def again(table_id: int) -> None:  # a finished game: a new one in its channel
        await deal(slot_of.pop(table_id))

    manager.finish_hooks.append(again)
    for slot in range(args.tables):
        await deal(slot)
    settings = ActivitySettings(1, "bench-secret", 0, "127.0.0.1", dev=True)
    server = web_server(manager, settings, "bench-secret", "bench-token", "127.0.0.1", 0)
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    lags: list[float] = []
    watch = asyncio.create_task(probe(lags))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--client", base, "--tables", str(args.tables),
        "--think", str(args.think), "--seconds", str(args.seconds),
        stdout=subprocess.PIPE, cwd=str(ROOT))
    began, since = time.time(), time.monotonic()
    raw, _ = await proc.communicate()
    spent = time.time() - began
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    watch.cancel()
    sent = server.viewers.sent
    await server.stop()
    await manager.close()
    await store.close()
    if proc.returncode != 0:
        print(f"the client process failed ({proc.returncode})")
        return 1
    out = json.loads(raw)

    # each (move, other viewer): the first model of that table at that version or later
    acted = {(table, version + 1): key for key, table, version in out["acted"]}
    per_view: list[float] = []
    per_move: list[float] = []
    viewers_of: dict[int, list[str]] = {}
    for key in out["arrivals"]:
        viewers_of.setdefault(int(key.split("-")[0]), []).append(key)
    table_slot: dict[int, int] = {}
    for key, rows in out["arrivals"].items():
        for table, _version, _t in rows:
            table_slot[table] = int(key.split("-")[0])
    warm = began + args.warmup
    for (table, version), at in applied.items():
        mover = acted.get((table, version))
        if at < warm:  # the sockets are still opening
            continue
        if mover is None or table not in table_slot:
            continue
        waits = []
        for key in viewers_of[table_slot[table]]:
            if key == mover:
                continue
            seen = [t for tid, v, t in out["arrivals"][key] if tid == table and v >= version]
            if seen:
                waits.append(min(seen) - at)
        if len(waits) == SEATS - 1:
            per_view += waits
            per_move.append(max(waits))
    print(f"activity: {args.tables} tables x {SEATS} viewers, {args.seconds:g} s, "
          f"think {args.think:g} s, games {args.games}")
    print(f"moves applied: {len(applied)} ({len(applied) / spent:.1f}/s); models sent: {sent}")
    problems = len(out["errors"]) + len(errors.lines)
    if per_view:
        ms = [1000 * w for w in per_view]
        worst = [1000 * w for w in per_move]
        print(f"move applied -> each other viewer: p50 {quantile(ms, 0.5):.1f} ms, "
              f"p90 {quantile(ms, 0.9):.1f} ms, "
              f"p99 {quantile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms ({len(ms)} arrivals)")
        print(f"move applied -> all other viewers: p50 {quantile(worst, 0.5):.1f} ms, "
              f"p99 {quantile(worst, 0.99):.1f} ms, max {max(worst):.1f} ms "
              f"({len(worst)} moves)")
    else:
        print("no move measured")
        problems += 1
    used = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    print(f"CPU: server {100 * used / spent:.0f} %, viewers' process "
          f"{100 * out['cpu'] / spent:.0f} % of a core; load average now "
          f"{os.getloadavg()[0]:.1f}")
    for who, found in (("server", lags), ("viewers' process", out["lags"])):
        if found:
            late = [1000 * x for x in found]
            print(f"event loop lag, {who}: p99 {quantile(late, 0.99):.1f} ms, "
                  f"max {max(late):.1f} ms")
    if args.watch_loop:
        from benchmarks.loopwatch import read_loop, report
        for text in report(read_loop(args.watch_loop), since + args.warmup, time.monotonic()):
            print(text)
    print(f"stale moves refused: {out['stale']}")
    for line in (out["errors"] + errors.lines)[:10]:
        print(f"  {line}")
    print(f"errors: {len(out['errors'])} on the sockets, {len(errors.lines)} logged")
    return 1 if problems else 0


def main() -> int:
    """Run the benchmark (or, ``--client``, its viewers)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--games", default="finesse,twenty-two,bhabhi,spar")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds at the start not measured (the sockets opening)")
    parser.add_argument("--watch-loop", metavar="FILE",
                        help="trace the server's event loop into FILE and report its stalls")
    parser.add_argument("--client", metavar="BASE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.watch_loop:
        from benchmarks.loopwatch import watch_loop
        watch_loop(args.watch_loop)
    if args.client:
        asyncio.run(client(args.client, args.tables, args.think, args.seconds))
        return 0
    return asyncio.run(serve(args))


if __name__ == "__main__":
    sys.exit(main())
