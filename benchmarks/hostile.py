"""The web table's ordinary players beside hostile sockets (issue #48).

    .venv/bin/python benchmarks/hostile.py [--tables 100] [--seconds 30] [--think 1.0]
                                           [--attackers 0,1,4] [--warmup 5]

One run per count of ``--attackers`` (0 is the run without them), each with a server process
of its own: the real web server (bot.web.app on a TableManager with a SQLite file, development
mode so that anyone signs in by name, as benchmarks/activity.py runs it) with ``--tables``
tables of four seated players. A second process plays them as benchmarks/activity.py's viewers
do (watch the channel's table; when the model says the person may act, wait ``--think`` s
±50 % and play a random legal move); a third runs the attackers, each of them four sockets at
once, from a name of its own:

- a flood: ``watch`` of a busy table as fast as the socket takes it, again after every close;
- garbage: text that is not JSON, binary frames, JSON nested 4,000 deep, unknown types and
  100 KB frames, again after every close;
- many connections: opens sockets without end and holds every one it is given;
- a reader that never reads: watches a busy table, then sends a ``watch`` every 0.3 s and
  reads nothing.

Measured in the players' process: the first response to every request a player makes (its
``watch`` and ``act``): from the message sent to the first answer (the table's model at a newer
version, or an error), p50/p99/max, leaving out the first ``--warmup`` seconds; the server's
event-loop lag p99; the server's memory (resident at the start and the end, and its peak). For
the attackers: what they sent and how the server closed them (1008 for a policy, 1009 for a
frame too big, 1013 when full; 1006 when the attacker was still writing as it closed) or
refused them. The attackers' process runs at the lowest priority (nice 19): they stand for
other machines, and at full speed their own process would take a core from the players'
process on a two-core machine, which is not what a socket costs the server. Target: the
players' first-response p99 with attackers within 1.2x of the run without. Exit status 1 on
a player's error or socket closed, an error the server logged, or no request measured.
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
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the repository first: benchmarks/bot.py is not the package
    sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from benchmarks.activity import SEATS, Errors, person, probe, quantile  # noqa: E402

#: the target: the players' first-response p99 with the attackers, over the run without them
TARGET_RATIO = 1.2


def protocols(session: str) -> tuple[str, str]:
    """The subprotocols that carry a session (bot.web.app.session_protocols)."""
    return ("deckhand", "session." + session)


async def sign_in(http: aiohttp.ClientSession, base: str, name: str) -> str:
    """A development session for a name."""
    answer = await http.post(base + "/api/dev-login", json={"name": name})
    return str((await answer.json())["session"])


# -- the players' process --------------------------------------------------------------------
async def player(base: str, http: aiohttp.ClientSession, slot: int, seat: int, think: float,
                 until: float, out: dict[str, Any]) -> None:
    """One player: watch the channel's table, play when it is their turn; every request's
    first answer timed."""
    key = f"{slot}-{seat}"
    rng = random.Random(key)
    session = await sign_in(http, base, person(slot, seat))
    ws = await http.ws_connect(f"{base}/ws?channel_id={1000 + slot}",
                               protocols=protocols(session), max_msg_size=4 * 1024 * 1024)
    watching: int | None = None
    asked: tuple[str, int, float] | None = None  # (what, the version it waits past, when)
    pending: asyncio.Task[None] | None = None

    async def send(message: dict[str, Any], waits_past: int) -> None:
        nonlocal asked
        asked = (str(message["type"]), waits_past, time.time())
        await ws.send_str(json.dumps(message))

    async def play(table: int, version: int, moves: list[dict[str, Any]]) -> None:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        await send({"type": "act", "table": table, "version": version,
                    "move": rng.choice(moves)["index"]}, version)

    await ws.send_str('{"type": "tables"}')
    try:
        while time.time() < until:
            try:
                frame = await asyncio.wait_for(ws.receive(), max(0.01, until - time.time()))
            except TimeoutError:
                break
            if frame.type != aiohttp.WSMsgType.TEXT:
                out["errors"].append(f"{key}: socket {frame.type.name} {ws.close_code}")
                return
            now = time.time()
            message = json.loads(frame.data)
            kind = message.get("type")
            if asked is not None and (kind == "error" or (
                    kind == "table" and message["version"] > asked[1])):
                out["responses"].append((asked[0], asked[2], now - asked[2]))
                asked = None
            if kind == "tables":
                found = [t for t in message["tables"] if t["status"] == "playing"]
                if found and found[0]["id"] != watching:
                    watching = found[0]["id"]
                    await send({"type": "watch", "table": watching}, -1)
                elif not found:
                    await asyncio.sleep(0.2)
                    await ws.send_str('{"type": "tables"}')
            elif kind == "table":
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


async def players(base: str, tables: int, think: float, seconds: float) -> None:
    """Every player of every table, then their answers' times printed as JSON."""
    out: dict[str, Any] = {"responses": [], "errors": [], "stale": 0}
    until = time.time() + seconds
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        runs = [player(base, http, slot, seat, think, until, out)
                for slot in range(tables) for seat in range(SEATS)]
        results = await asyncio.gather(*runs, return_exceptions=True)
    out["errors"] += [f"player failed: {r!r}" for r in results if isinstance(r, BaseException)]
    print(json.dumps(out))


# -- the attackers' process ------------------------------------------------------------------
class Tally:
    """What the attackers did and how they were answered."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def closed(self, kind: str, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.counts[f"{kind} closed {ws.close_code}"] += 1


async def _open(http: aiohttp.ClientSession, base: str, session: str, channel: int,
                tally: Tally) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    """A socket and its first message; a refusal before the upgrade (429) is counted, and the
    attacker tries again at once."""
    while True:
        try:
            return await _open_once(http, base, session, channel)
        except aiohttp.WSServerHandshakeError as refused:
            tally.counts[f"refused before the upgrade {refused.status}"] += 1


async def _open_once(http: aiohttp.ClientSession, base: str, session: str, channel: int
                     ) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any]]:
    ws = await http.ws_connect(f"{base}/ws?channel_id={channel}", protocols=protocols(session),
                               max_msg_size=0)
    first = await ws.receive()
    return ws, json.loads(first.data) if first.type == aiohttp.WSMsgType.TEXT else {}


async def _table_of(ws: aiohttp.ClientWebSocketResponse) -> int | None:
    await ws.send_str('{"type": "tables"}')
    while True:
        frame = await ws.receive()
        if frame.type != aiohttp.WSMsgType.TEXT:
            return None
        message = json.loads(frame.data)
        if message.get("type") == "tables":
            return message["tables"][0]["id"] if message["tables"] else None


async def _drain(ws: aiohttp.ClientWebSocketResponse) -> None:
    async for _frame in ws:
        pass


async def flood(http: aiohttp.ClientSession, base: str, session: str, channel: int,
                until: float, tally: Tally) -> None:
    """``watch`` of a busy table as fast as the socket takes it, again after every close."""
    while time.time() < until:
        ws, _hello = await _open(http, base, session, channel, tally)
        table = await _table_of(ws)
        reader = asyncio.create_task(_drain(ws))
        watch = json.dumps({"type": "watch", "table": table})
        try:
            while not ws.closed and time.time() < until:
                for _ in range(50):
                    await ws.send_str(watch)
                    tally.counts["flood watch sent"] += 1
                await asyncio.sleep(0)
        except (ConnectionError, RuntimeError, aiohttp.ClientError):
            pass
        closed_by_server = ws.closed
        await ws.close()  # (the end of the run: a socket still open is closed here)
        await reader
        if closed_by_server:
            tally.closed("flood", ws)


GARBAGE: list[str | bytes] = [
    "{not json", "[1, 2]", '{"type": "shout"}', "[" * 4000, b"\x00\xff" * 50,
    '{"type": "act", "table": true, "version": "x"}', "x" * 100_000]


async def garbage(http: aiohttp.ClientSession, base: str, session: str, channel: int,
                  until: float, tally: Tally) -> None:
    """Text that is not JSON, binary frames, deep JSON, unknown types and 100 KB frames."""
    rng = random.Random(channel)
    while time.time() < until:
        ws, _hello = await _open(http, base, session, channel, tally)
        reader = asyncio.create_task(_drain(ws))
        try:
            while not ws.closed and time.time() < until:
                for _ in range(20):
                    junk = rng.choice(GARBAGE)
                    if isinstance(junk, bytes):
                        await ws.send_bytes(junk)
                    else:
                        await ws.send_str(junk)
                    tally.counts["garbage sent"] += 1
                await asyncio.sleep(0)
        except (ConnectionError, RuntimeError, aiohttp.ClientError):
            pass
        closed_by_server = ws.closed
        await ws.close()
        await reader
        if closed_by_server:
            tally.closed("garbage", ws)


async def many(http: aiohttp.ClientSession, base: str, session: str, channel: int,
               until: float, tally: Tally) -> None:
    """Sockets opened without end; every one given is held open until the end."""
    held: list[aiohttp.ClientWebSocketResponse] = []
    try:
        while time.time() < until:
            try:
                ws, hello = await _open(http, base, session, channel, tally)
            except (aiohttp.ClientError, OSError):
                tally.counts["many: connection failed"] += 1
                await asyncio.sleep(0.01)
                continue
            if hello.get("type") == "hello":
                held.append(ws)
                tally.counts["many: held"] += 1
            else:
                tally.counts[f"many: refused {hello.get('code')}"] += 1
                await ws.receive()
                tally.closed("many", ws)
                await ws.close()
    finally:
        for ws in held:
            await ws.close()


async def sleeper(http: aiohttp.ClientSession, base: str, session: str, channel: int,
                  until: float, tally: Tally) -> None:
    """Watches a busy table, then a ``watch`` every 0.3 s, and never reads."""
    ws, _hello = await _open(http, base, session, channel, tally)
    table = await _table_of(ws)
    watch = json.dumps({"type": "watch", "table": table})
    try:
        while time.time() < until and not ws.closed:
            await ws.send_str(watch)
            tally.counts["sleeper watch sent"] += 1
            await asyncio.sleep(0.3)
    except (ConnectionError, RuntimeError, aiohttp.ClientError):
        tally.counts["sleeper closed"] += 1
    await ws.close()


async def attackers(base: str, count: int, tables: int, seconds: float) -> None:
    """``count`` attackers, each four hostile sockets at once; what they met, as JSON."""
    tally = Tally()
    until = time.time() + seconds
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        runs = []
        for n in range(count):
            session = await sign_in(http, base, f"hostile-{n}")
            channel = 1000 + n % tables  # a players' table: busy
            runs += [kind(http, base, session, channel, until, tally)
                     for kind in (flood, garbage, many, sleeper)]
        # an attacker still waiting on the server at the end is stopped (an answer that never
        # comes is no failure of the server's)
        results = await asyncio.gather(*(asyncio.wait_for(run, seconds + 10) for run in runs),
                                       return_exceptions=True)
    tally.counts["stopped at the end"] += sum(isinstance(r, TimeoutError) for r in results)
    failed = [repr(r) for r in results
              if isinstance(r, BaseException) and not isinstance(r, TimeoutError)]
    print(json.dumps({"counts": dict(tally.counts), "failed": failed}))


# -- one run: the server, the players and the attackers ----------------------------------------
def rss_kb() -> int:
    """This process's resident memory now (KB)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def one_run(args: argparse.Namespace) -> int:
    """Serve ``--tables`` tables to the players (and ``--serve`` attackers); print a JSON
    line of the figures."""
    from bot.config import ActivitySettings
    from bot.storage.store import Storage
    from bot.tables import TableManager
    from bot.web.app import web_server
    from bot.web.auth import dev_user_id

    errors = Errors()
    logging.getLogger().addHandler(errors)
    logging.getLogger().setLevel(logging.WARNING)
    folder = tempfile.mkdtemp(prefix="deckhand-hostile-")
    store = await Storage.open(os.path.join(folder, "bench.sqlite3"))
    manager = TableManager(store, ai_delay=0.0, ai_level="random", ai_workers=0)
    await manager.resume()
    games_list = args.games.split(",")
    rng = random.Random(1)
    slot_of: dict[int, int] = {}

    async def deal(slot: int) -> None:
        host = dev_user_id(person(slot, 0))
        table = await manager.open(1, 1000 + slot, games_list[slot % len(games_list)], host,
                                   person(slot, 0), seed=rng.randrange(1 << 30))
        for seat in range(1, SEATS):
            await manager.join(table.table_id, dev_user_id(person(slot, seat)),
                               person(slot, seat))
        await manager.start(table.table_id, host)
        slot_of[table.table_id] = slot

    async def again(table_id: int) -> None:  # a finished game: a new one in its channel
        await deal(slot_of.pop(table_id))

    manager.finish_hooks.append(again)
    for slot in range(args.tables):
        await deal(slot)
    settings = ActivitySettings(1, "bench-secret", 0, "127.0.0.1", dev=True)
    server = web_server(manager, settings, "bench-secret", "bench-token", "127.0.0.1", 0)
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    rss_start = rss_kb()
    cpu_start = resource.getrusage(resource.RUSAGE_SELF)
    lags: list[float] = []
    watch = asyncio.create_task(probe(lags))
    clients = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--players", base, "--tables", str(args.tables),
        "--think", str(args.think), "--seconds", str(args.seconds),
        stdout=subprocess.PIPE, cwd=str(ROOT))]
    if args.serve:
        clients.append(await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--attack", base, "--serve", str(args.serve),
            "--tables", str(args.tables), "--seconds", str(args.seconds),
            stdout=subprocess.PIPE, cwd=str(ROOT)))
    began = time.time()
    outs = [await proc.communicate() for proc in clients]
    watch.cancel()
    spent = time.time() - began
    cpu_end = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (cpu_end.ru_utime + cpu_end.ru_stime) - (cpu_start.ru_utime + cpu_start.ru_stime)
    rss_end = rss_kb()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sockets_left = server.viewers.count
    await server.stop()
    await manager.close()
    await store.close()
    if any(proc.returncode != 0 for proc in clients):
        print(json.dumps({"failed": [proc.returncode for proc in clients]}))
        return 1
    played = json.loads(outs[0][0])
    attacked = json.loads(outs[1][0]) if args.serve else {"counts": {}, "failed": []}
    warm = began + args.warmup
    times = [1000 * took for _what, at, took in played["responses"] if at >= warm]
    print(json.dumps({
        "attackers": args.serve, "responses": times, "stale": played["stale"],
        "errors": played["errors"] + attacked["failed"], "logged": errors.lines,
        "lag_p99": 1000 * quantile(lags, 0.99) if lags else 0.0, "cpu": 100 * cpu / spent,
        "rss_start": rss_start, "rss_end": rss_end, "rss_peak": peak,
        "sockets_left": sockets_left, "attacks": attacked["counts"]}))
    return 0


def main() -> int:
    """Run the benchmark (or one of its processes)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--attackers", default="0,1,4",
                        help="the runs: how many attackers each (0: the run without)")
    parser.add_argument("--games", default="finesse,twenty-two,bhabhi,spar")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds at the start not measured (the sockets opening)")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--players", metavar="BASE", help=argparse.SUPPRESS)
    parser.add_argument("--attack", metavar="BASE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.players:
        asyncio.run(players(args.players, args.tables, args.think, args.seconds))
        return 0
    if args.attack:
        # the attackers stand for other machines: on this one they take only the CPU nobody
        # else wants, so that what is measured is what their sockets cost the server, not the
        # cores their own process takes from the players' (it would at full speed: a third
        # busy process on two cores)
        os.nice(19)
        asyncio.run(attackers(args.attack, args.serve, args.tables, args.seconds))
        return 0
    if args.serve is not None:
        return asyncio.run(one_run(args))
    return compare(args)


def compare(args: argparse.Namespace) -> int:
    """Each run in a server process of its own; the figures side by side."""
    counts = [int(n) for n in args.attackers.split(",")]
    print(f"hostile sockets: {args.tables} tables x {SEATS} players, {args.seconds:g} s a run, "
          f"think {args.think:g} s; attackers per run: {args.attackers}; load average "
          f"{os.getloadavg()[0]:.1f}")
    problems = 0
    base_p99: float | None = None
    for count in counts:
        done = subprocess.run(
            [sys.executable, __file__, "--serve", str(count), "--tables", str(args.tables),
             "--seconds", str(args.seconds), "--think", str(args.think), "--games", args.games,
             "--warmup", str(args.warmup)],
            cwd=ROOT, capture_output=True, text=True)
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or not lines:
            print(f"the run with {count} attackers failed:\n{done.stdout}\n{done.stderr[-3000:]}")
            problems += 1
            continue
        found = json.loads(lines[-1])
        times = found["responses"]
        if not times:
            print(f"{count} attackers: no request measured")
            problems += 1
            continue
        p99 = quantile(times, 0.99)
        if count == 0:
            base_p99 = p99
        ratio = f", {p99 / base_p99:.2f}x the run without" if base_p99 and count else ""
        print(f"{count} attackers: first response p50 {quantile(times, 0.5):.1f} ms, "
              f"p99 {p99:.1f} ms, max {max(times):.1f} ms ({len(times)} requests){ratio}; "
              f"server loop lag p99 {found['lag_p99']:.1f} ms, CPU {found['cpu']:.0f} % of a "
              "core")
        print(f"  server memory: {found['rss_start'] / 1024:.0f} MB at the start, "
              f"{found['rss_end'] / 1024:.0f} MB at the end, peak {found['rss_peak'] / 1024:.0f} "
              f"MB; sockets open at the end: {found['sockets_left']}")
        if found["attacks"]:
            told = ", ".join(f"{k}: {v}" for k, v in sorted(found["attacks"].items()))
            print(f"  attackers: {told}")
        for line in (found["errors"] + found["logged"])[:10]:
            print(f"  error: {line}")
        print(f"  errors: {len(found['errors'])} of the players, {len(found['logged'])} logged; "
              f"stale moves refused: {found['stale']}")
        problems += len(found["errors"]) + len(found["logged"])
        if base_p99 and count:
            met = p99 <= TARGET_RATIO * base_p99
            print(f"  target (p99 within {TARGET_RATIO}x of the run without): "
                  f"{'met' if met else 'missed'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
