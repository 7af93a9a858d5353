"""Faults: kill the bot process (SIGKILL) at random moments of games and restart it.

    .venv/bin/python benchmarks/faults.py [--runs 100] [--tables 6] [--seed 1]
                                          [--ai-delay 0.02] [--edit-gap 0]

The simulated Discord runs here; the bot runs in a child process (``benchmarks/botproc.py``)
on one SQLite database. ``--tables`` tables of different games are played at once by scripted
people (two per table, computers in the other seats); a table that ends is replaced by a new
one in its channel. Each run waits a random 0.3-3 s of play (``--window``), then SIGKILLs the
bot wherever it is (mid-move, mid-write, mid-answer), checks the database, and starts a new bot
process on it. Checked after each kill, for every table:

- its stored actions replay (every action legal, indices 0..n-1 with no gap and none twice);
- nothing shown was lost: every move a player's click was answered as made (the hand redrawn)
  is stored at that click's version by that player's seat, and every version any message
  showed is at most the number stored;
- nothing was applied twice or made up: every stored person's move matches a click sent for
  that version by that person;
- what was stored before a kill is still stored, unchanged, at the next one;
- after the restart the table's message shows at least the stored version (the resumed
  state), and the game goes on; at the end every table is played to its finish.

Printed: runs, tables checked, lost / duplicated / rewritten actions, restart-to-ready and
restart-to-refreshed p50/p99, errors the bot logged. Exit status 1 on any failure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from benchmarks.botproc import BotProcess, ProcDiscord  # noqa: E402
from tests.bot.sim_helpers import is_alert  # noqa: E402


def table_in(sim: Any, channel: Any) -> SimMessage | None:
    """The channel's table: its message there, or the whole table's message its Watch link
    leads to (in the table's thread). Read from the link, not from the thread: a bot killed
    between posting the table in a new thread and storing that message leaves a copy there
    that is not the table's message, and clicks on it are refused."""
    found = [m for m in sim.messages(channel) if not is_alert(m)]
    if not found:
        return None
    for b in found[-1].buttons():
        link = re.fullmatch(r"https://discord\.com/channels/\d+/\d+/(\d+)",
                            str(b.get("url") or ""))
        if link:
            with contextlib.suppress(KeyError):
                return sim.message(link.group(1))
    return found[-1]
from tests.bot.sim_helpers import verb_of  # noqa: E402
from tests.discord_sim import SimChannel, SimMessage, SimUser  # noqa: E402
from tests.discord_sim.models import walk_components  # noqa: E402

MIX = ("1234", "bhabhi", "sugekari-21", "bear", "1234", "bhabhi")
THINK = (0.02, 0.15)  # seconds a scripted person waits before a click


def ids_on(message: SimMessage | None) -> list[str]:
    """Custom ids of a message's table controls (its buttons and selects; a finished table's
    review button, which is no control of the game, left out)."""
    if message is None:
        return []
    found = ([str(b["custom_id"]) for b in message.buttons() if b.get("custom_id")]
             + [str(s["custom_id"]) for s in message.selects()])
    return [i for i in found if not i.startswith("dhr:")]


def version_shown(message: SimMessage | None) -> int | None:
    """The state version a table or hand message shows (from its custom ids)."""
    for custom_id in ids_on(message):
        if verb_of(custom_id) in ("hand", "act", "pick", "set", "page", "manage"):
            return int(custom_id.split(":")[3])
    return None


def over_shown(message: SimMessage | None, table_id: int) -> bool:
    """Whether a message is the finished table's last picture (no controls left)."""
    return message is not None and not ids_on(message) \
        and f"— table {table_id}**" in (message.content or "")


def table_of(message: SimMessage | None) -> int | None:
    for custom_id in ids_on(message):
        if verb_of(custom_id):
            return int(custom_id.split(":")[2])
    return None


@dataclass
class Place:
    """A channel with its two people; the table being played there."""

    game: str
    channel: SimChannel
    people: list[SimUser]
    table_id: int | None = None
    finished: int = 0


@dataclass
class Stored:
    """A table as the database holds it."""

    id: int
    game: str
    status: str
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, int, str, int | None, str]]  # idx, seat, action, user, how


@dataclass
class Faults:
    sim: ProcDiscord
    db: str
    places: list[Place]
    rng: random.Random
    up: asyncio.Event = field(default_factory=asyncio.Event)
    done: bool = False
    closing: bool = False
    glitches: int = 0
    glitch_kinds: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    before: dict[int, list[tuple[int, int, str, int | None, str]]] = field(default_factory=dict)
    tables_checked: int = 0
    acked_checked: int = 0
    lost: int = 0
    doubled: int = 0
    rewritten: int = 0
    max_shown: dict[int, int] = field(default_factory=dict)

    # -- the database -----------------------------------------------------------------------
    def stored(self) -> dict[int, Stored]:
        db = sqlite3.connect(self.db)
        try:
            found: dict[int, Stored] = {}
            for row in db.execute(
                    "SELECT id, game, status, seats, options, seed FROM tables ORDER BY id"):
                found[int(row[0])] = Stored(int(row[0]), str(row[1]), str(row[2]),
                                            json.loads(row[3]), json.loads(row[4]),
                                            int(row[5]), [])
            for row in db.execute("SELECT table_id, idx, seat, action, user_id, how FROM actions"
                                  " ORDER BY table_id, idx"):
                table = found.get(int(row[0]))
                if table is not None:
                    table.actions.append((int(row[1]), int(row[2]), str(row[3]),
                                          None if row[4] is None else int(row[4]), str(row[5])))
            return found
        finally:
            db.close()

    # -- the check after a kill -------------------------------------------------------------
    def check(self) -> None:
        tables = self.stored()
        clicks = self.move_clicks()
        answered = 0  # moves answered as made, all so far (each is checked at every kill)
        for table in tables.values():
            if table.status not in ("playing", "finished"):
                continue
            self.tables_checked += 1
            where = f"table {table.id} ({table.game})"
            indices = [a[0] for a in table.actions]
            if indices != list(range(len(indices))):
                self.doubled += 1
                self.problems.append(f"{where}: action indices {indices[:20]}...")
            try:
                state = games.get(table.game).new_game(len(table.seats), seed=table.seed,
                                                       options=table.options)
                for _, seat, action, _, _ in table.actions:
                    state.apply(seat, action)
                if table.status == "finished" and not state.over:
                    self.problems.append(f"{where}: finished, but its actions do not end it")
            except Exception as exc:  # an illegal stored action is a corrupted game
                self.problems.append(f"{where}: its actions do not replay: {exc!r}")
            earlier = self.before.get(table.id, [])
            if table.actions[:len(earlier)] != earlier:
                self.rewritten += 1
                self.problems.append(f"{where}: actions stored before a kill changed")
            self.before[table.id] = list(table.actions)
            shown = self.max_shown.get(table.id, 0)
            if shown > len(table.actions):
                self.lost += 1
                self.problems.append(f"{where}: a message showed version {shown}, "
                                     f"{len(table.actions)} actions stored")
            sent = clicks.get(table.id, {})
            for idx, _seat, _, user, how in table.actions:
                if how == "player" and (idx, user) not in sent:
                    self.doubled += 1
                    self.problems.append(f"{where}: stored move {idx} by {user} matches no "
                                         f"click sent")
            for (version, user), acked in sent.items():
                if not acked:
                    continue
                answered += 1
                match = [a for a in table.actions if a[0] == version]
                if not match or match[0][3] != user or match[0][4] != "player":
                    self.lost += 1
                    self.problems.append(f"{where}: the move of {user} at version {version} "
                                         f"was answered as made but is not stored")
        self.acked_checked = answered

    def move_clicks(self) -> dict[int, dict[tuple[int, int], bool]]:
        """Every move click sent: table -> (version, user) -> whether it was answered as made."""
        found: dict[int, dict[tuple[int, int], bool]] = {}
        for record in list(self.sim._interactions.values()):
            data = record.payload.get("data") or {}
            custom_id = str(data.get("custom_id", ""))
            if verb_of(custom_id) not in ("act", "pick", "set"):
                continue
            _, _, table, version, _ = custom_id.split(":")
            key = (int(version), int(record.user.id))
            made = False
            if record.callback_type == 7:
                body = record.responses[0].json if record.responses else None
                inner = (body or {}).get("data") or {}
                ids = [str(c.get("custom_id")) for c in
                       walk_components(inner.get("components") or []) if c.get("custom_id")]
                # a confirmation is no move yet, and an answer that still offers moves at the
                # clicked version (a set the rules refuse) made none
                made = not any(verb_of(i) == "view" or (
                    verb_of(i) in ("act", "pick", "set") and i.split(":")[3] == version)
                    for i in ids)
            clicks = found.setdefault(int(table), {})
            clicks[key] = clicks.get(key, False) or made
        return found

    def note_shown(self, message: SimMessage | None) -> None:
        table, version = table_of(message), version_shown(message)
        if table is not None and version is not None:
            self.max_shown[table] = max(self.max_shown.get(table, 0), version)


# -- the scripted people ----------------------------------------------------------------------
def by_verb(message: SimMessage, verb: str) -> str | None:
    for custom_id in ids_on(message):
        if verb_of(custom_id) == verb:
            return custom_id
    return None


async def open_table(f: Faults, place: Place) -> None:
    sim = f.sim
    host, other = place.people
    r = await sim.slash(host, place.channel, "play", {"game": place.game})
    if r.status != "ok" or r.ephemeral:
        await asyncio.sleep(0.2)
        return
    shown = table_in(sim, place.channel)
    assert shown is not None
    join = by_verb(shown, "join")
    if join is None:
        return
    await sim.click(other, shown, join)
    for _ in range(games.get(place.game).usual_players - 2):
        shown = table_in(sim, place.channel)
        assert shown is not None
        addc = by_verb(shown, "addc")
        if addc:
            await sim.click(host, shown, addc)
    shown = table_in(sim, place.channel)
    assert shown is not None
    start = by_verb(shown, "start")
    if start:
        await sim.click(host, shown, start)


async def step(f: Faults, place: Place) -> None:
    sim, rng = f.sim, f.rng
    await asyncio.sleep(rng.uniform(*THINK))
    await f.up.wait()
    shown = table_in(sim, place.channel)
    if shown is None or not ids_on(shown):  # no table yet, or the last one ended
        if f.closing:  # the end: no new tables
            await asyncio.sleep(0.2)
            return
        if shown is not None:
            place.finished += 1
        await open_table(f, place)
        return
    if by_verb(shown, "start"):  # a lobby left by a kill: seat everyone again, start
        host, other = place.people
        await sim.click(other, shown, by_verb(shown, "join") or "")  # refused if seated
        for _ in range(games.get(place.game).usual_players - 2):
            current = table_in(sim, place.channel) or shown
            await sim.click(host, current, by_verb(current, "addc") or "")
        current = table_in(sim, place.channel) or shown
        await sim.click(host, current, by_verb(current, "start") or "")
        return
    f.note_shown(shown)
    place.table_id = table_of(shown)
    turn = [u for u in place.people if f"<@{u.id}>" in shown.content]
    hand_id = by_verb(shown, "hand")
    if not turn or hand_id is None:
        return
    user = turn[0]
    hand = (await sim.click(user, shown, hand_id)).message
    if hand is None or not hand.ephemeral:
        return
    f.note_shown(hand)
    for _ in range(4):
        acts = [b["custom_id"] for b in hand.buttons()
                if verb_of(b["custom_id"]) == "act" and not b.get("disabled")]
        menus = [s for s in hand.selects() if verb_of(s["custom_id"]) in ("pick", "set")]
        if acts and (not menus or rng.random() < 0.5):
            r = await sim.click(user, hand, rng.choice(acts))
            f.note_shown(r.message)
            return
        if not menus:
            pages = [b["custom_id"] for b in hand.buttons() if verb_of(b["custom_id"]) == "page"]
            if not pages:
                return
            hand = (await sim.click(user, hand, pages[0])).message or hand
            continue
        menu = rng.choice(menus)
        offered = [o["value"] for o in menu["options"]]
        size = rng.randint(menu.get("min_values", 1), menu.get("max_values", 1))
        r = await sim.select(user, hand, menu["custom_id"], rng.sample(offered, size))
        answer = r.message
        if answer is None or answer.id != hand.id:
            return
        f.note_shown(answer)
        if by_verb(answer, "view") is None:  # the move was made
            return
        hand = answer  # a confirmation: its act button makes the move


async def driver(f: Faults, place: Place) -> None:
    while not f.done:
        try:
            await step(f, place)
        except (AssertionError, ConnectionError) as exc:
            # the message changed under the click, or the bot was killed while it was sent
            f.glitches += 1
            f.glitch_kinds[str(exc)[:50]] = f.glitch_kinds.get(str(exc)[:50], 0) + 1
            await asyncio.sleep(0.05)
        except Exception as exc:
            f.problems.append(f"the script of {place.channel.name} failed: {exc!r}")
            await asyncio.sleep(0.5)


async def play_out(f: Faults, timeout: float) -> list[str]:
    """Let the people play until every table in play has finished; what is left unfinished."""
    limit = time.monotonic() + timeout
    while time.monotonic() < limit:
        open_ones = [t for t in f.stored().values() if t.status in ("lobby", "playing")]
        if not open_ones:
            return []
        await asyncio.sleep(0.5)
    return [f"table {t.id} ({t.game}, {t.status}, {len(t.actions)} actions)"
            for t in f.stored().values() if t.status in ("lobby", "playing")]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def run(runs: int, tables: int, seed: int, ai_delay: float, debug: bool = False,
              mix: tuple[str, ...] = MIX, window: tuple[float, float] = (0.3, 3.0),
              edit_gap: float = 0.0) -> int:
    rng = random.Random(seed)
    env = {"DECKHAND_EDIT_GAP": str(edit_gap)}
    async with ProcDiscord(interaction_deadline=3.0, quick=True) as sim:
        guild = sim.add_guild("Faults Server", locale="en-US")
        places = []
        for i in range(tables):
            people = []
            for k in range(2):
                user = sim.add_user(f"p{i}-{k}")
                sim.add_member(guild, user)
                people.append(user)
            places.append(Place(mix[i % len(mix)], sim.add_channel(guild, f"t{i}"), people))
        with tempfile.TemporaryDirectory() as tmp:
            db = str(Path(tmp) / "faults.sqlite3")
            f = Faults(sim, db, places, rng)
            bot = BotProcess(sim, db, ai_delay=ai_delay, env=env)
            ready_times: list[float] = []
            refresh_times: list[float] = []
            errors: list[str] = []
            stale_messages = 0
            shown_problems = 0
            await bot.start()
            f.up.set()
            drivers = [asyncio.create_task(driver(f, p)) for p in places]
            began = time.perf_counter()
            try:
                for number in range(runs):
                    await asyncio.sleep(rng.uniform(*window))
                    f.up.clear()
                    bot.kill()
                    await bot.wait()
                    errors += bot.errors
                    f.check()
                    expected = {t.id: len(t.actions) for t in f.stored().values()
                                if t.status == "playing"}
                    bot = BotProcess(sim, db, ai_delay=ai_delay, env=env)
                    started = time.perf_counter()
                    ready_times.append(await bot.start())
                    # the resumed tables redraw their messages: at least the stored version
                    limit = time.monotonic() + 15.0
                    waiting = dict(expected)
                    while waiting and time.monotonic() < limit:
                        for place in places:
                            shown = table_in(sim, place.channel)
                            table = table_of(shown)
                            version = version_shown(shown)
                            if table in waiting and version is not None \
                                    and version >= waiting[table]:
                                del waiting[table]
                            elif place.table_id in waiting and over_shown(shown, place.table_id):
                                # it finished: by its last stored move before the kill (the bot
                                # marks it finished as it resumes), or by a move made since the
                                # restart (the computers play on while the people wait)
                                row = f.stored().get(place.table_id)
                                if row is not None and row.status == "finished" \
                                        and len(row.actions) >= waiting[place.table_id]:
                                    del waiting[place.table_id]
                        await asyncio.sleep(0.01)
                    refresh_times.append(time.perf_counter() - started)
                    if waiting:
                        stale_messages += len(waiting)
                        seen = {table_of(m): (version_shown(m), m.content[:60] if m else "")
                                for m in (table_in(sim, p.channel) for p in places)}
                        rows = f.stored()
                        seen["stored now"] = {  # type: ignore[index]
                            t: (rows[t].status, len(rows[t].actions)) for t in waiting
                            if t in rows}
                        seen["places"] = [p.table_id for p in places]  # type: ignore[index]
                        f.problems.append(f"run {number}: messages of tables {waiting} (stored "
                                          f"versions) not redrawn: shown {seen}")
                    f.up.set()
                    for line in f.problems[shown_problems:]:
                        print(f"  run {number}: {line}", flush=True)
                    shown_problems = len(f.problems)
                    if (number + 1) % 10 == 0:
                        print(f"  {number + 1} runs, {f.tables_checked} table checks, "
                              f"{len(f.problems)} problems", flush=True)
                wall = time.perf_counter() - began
                f.closing = True
                left = await play_out(f, timeout=20.0 if debug else 240.0)
                f.done = True
                f.up.set()
                await asyncio.gather(*drivers, return_exceptions=True)
                await sim.settle(idle=0.2, timeout=30)
                await bot.stop()
                errors += bot.errors
                f.check()
                statuses = [(t.id, t.game, t.status, len(t.actions))
                            for t in f.stored().values()]
            finally:
                f.done = True
                f.up.set()
                for task in drivers:
                    task.cancel()
                bot.kill()
                await bot.wait()
    finished = sum(p.finished for p in places)
    if debug:
        print(statuses)
        print(f.glitch_kinds)
    print(f"{runs} runs (SIGKILL at a random moment, restart on the same database), "
          f"{tables} tables at a time, {wall:.0f} s")
    print(f"tables checked after kills: {f.tables_checked} (games finished during the runs: "
          f"{finished}); moves answered as made, each checked at every later kill: "
          f"{f.acked_checked}")
    print(f"lost: {f.lost}; applied twice or made up: {f.doubled}; rewritten: {f.rewritten}; "
          f"messages not redrawn: {stale_messages}; unfinished at the end: {len(left)}")
    print(f"restart to ready (spawn to READY and commands synced): "
          f"p50 {statistics.median(ready_times):.2f} s, p99 {percentile(ready_times, 0.99):.2f} s")
    print(f"restart to every table's message redrawn: p50 {statistics.median(refresh_times):.2f}"
          f" s, p99 {percentile(refresh_times, 0.99):.2f} s")
    print(f"errors the bot logged: {len(errors)}; spec errors: {len(sim.spec_errors)}; "
          f"clicks on a message that changed under them: {f.glitches}")
    for line in (f.problems + left)[:12]:
        print("  problem:", line)
    for line in errors[:5]:
        print("  error:", line[:800])
    for spec in sim.spec_errors[:3]:
        print("  spec:", spec)
    broken = f.problems or left or errors or sim.spec_errors
    return 1 if broken else 0


def main() -> int:
    """Parse arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai-delay", type=float, default=0.02)
    parser.add_argument("--games", default=",".join(MIX), help="games of the tables, in turn")
    parser.add_argument("--window", default="0.3,3",
                        help="seconds of play before each kill: low,high (uniform)")
    parser.add_argument("--edit-gap", type=float, default=0.0,
                        help="DECKHAND_EDIT_GAP (the bot's default is 1 s; 0 shows each turn at "
                             "once, so more moves are made between kills)")
    args = parser.parse_args()
    low, high = (float(x) for x in args.window.split(","))
    # A killed bot drops its connections mid-request; the simulated Discord's web server
    # reports each as an error with a traceback. That is the point of the run, not news.
    logging.getLogger("aiohttp.server").addFilter(
        lambda record: not (record.exc_info and isinstance(record.exc_info[1],
                                                           ConnectionResetError)))
    return asyncio.run(run(args.runs, args.tables, args.seed, args.ai_delay,
                           mix=tuple(args.games.split(",")), window=(low, high),
                           edit_gap=args.edit_gap))


if __name__ == "__main__":
    sys.exit(main())
