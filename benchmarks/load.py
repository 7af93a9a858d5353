"""Load: hundreds of concurrent tables with scripted players for minutes, the bot in its own
process.

    .venv/bin/python benchmarks/load.py [--tables 500] [--minutes 10] [--think 4,12]
                                        [--ai-delay 1.0] [--ramp 60] [--ai-level normal]
                                        [--scheduler on|off]

The simulated Discord runs here (schema validation off: its cost is the simulator's, and the
bot tests validate every request); the bot runs in a child process (``benchmarks/botproc.py``)
on a fresh SQLite database, with the production start-up path and pause between computer
moves (``--ai-delay``, 1 s by default), computers at level ``--ai-level`` ("normal";
"hard" searches in the worker processes, which the scheduler shares unless ``--scheduler
off``). Each table has two scripted people and computers in its other seats; the tables are
opened over ``--ramp``
seconds, and a table that ends is replaced by a new one in its channel, so about ``--tables``
are in play all the time. A person waits ``--think`` seconds (uniform) before each click:
Hand, then a move (with its confirmation when the game asks for one).

Printed, over the steady part (after the ramp): interactions, p50/p99/max from an
interaction's dispatch to the bot's answer (its callback), unanswered or late ones, the bot
process's CPU (per table: ms of CPU per second, and % of one core) and resident memory (per
table: growth from the idle bot to the end, divided by the tables), the errors it logged, and
the simulator's own CPU (this process), which shares the machine. Per level of the computers,
the time from a computer seat's turn to its move applied and to the table message showing it
(``benchmarks/waits.py``; the pause included), the computers due at once and the search queue
over time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from benchmarks.botproc import BotProcess, ProcDiscord  # noqa: E402
from benchmarks.faults import by_verb, ids_on  # noqa: E402
from benchmarks.waits import Waits, read_waits, report, table_edits  # noqa: E402
from tests.bot.sim_helpers import table_of, verb_of  # noqa: E402
from tests.discord_sim import SimChannel, SimMessage, SimUser  # noqa: E402

MIX = ("1234", "bhabhi", "sugekari-21", "bear", "spar", "twenty-two", "finesse")


@dataclass
class Load:
    sim: ProcDiscord
    think: tuple[float, float]
    rng: random.Random
    done: bool = False
    opened: int = 0
    finished: int = 0
    glitches: int = 0
    failures: list[str] = field(default_factory=list)
    # (created, answered or None, status) of every interaction, kept after pruning
    outcomes: list[tuple[float, float | None, str]] = field(default_factory=list)
    # table id → (time, version shown) of every edit of its table message, kept after pruning
    edits: dict[int, list[tuple[float, int]]] = field(default_factory=dict)

    async def pause(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))

    def prune(self, older_than: float) -> None:
        """Keep the simulator's memory flat: forget interactions (after noting their outcome),
        captured requests and attachments no message shows any more."""
        sim = self.sim
        now = sim.now()
        for key, record in list(sim._interactions.items()):
            if now - record.created < older_than:
                continue
            status = ("ok" if record.callback_type is not None else "late" if record.late
                      else "rejected" if record.rejected else "no-response")
            self.outcomes.append((record.created, record.callback_time, status))
            del sim._interactions[key]
            sim._by_token.pop(record.token, None)
        for table, seen in table_edits(sim.requests).items():
            self.edits.setdefault(table, []).extend(seen)
        sim.requests.clear()
        shown = {a["id"] for m in sim._messages.values() for a in m.attachments}
        for key in [k for k in sim._attachments if k not in shown]:
            del sim._attachments[key]


async def open_table(load: Load, channel: SimChannel, people: list[SimUser], game: str) -> None:
    sim = load.sim
    host, other = people
    r = await sim.slash(host, channel, "play", {"game": game})
    if r.status != "ok" or r.ephemeral:
        return
    load.opened += 1
    await load.pause()
    shown = table_of(sim, channel)
    if shown is None or by_verb(shown, "join") is None:
        return
    await sim.click(other, shown, by_verb(shown, "join") or "")
    for _ in range(games.get(game).usual_players - 2):
        current = table_of(sim, channel) or shown
        await sim.click(host, current, by_verb(current, "addc") or "")
    current = table_of(sim, channel) or shown
    await sim.click(host, current, by_verb(current, "start") or "")


async def turn(load: Load, channel: SimChannel, people: list[SimUser], game: str) -> None:
    sim, rng = load.sim, load.rng
    shown = table_of(sim, channel)
    if shown is None or not ids_on(shown):  # the game ended: a new one in its place
        if shown is not None:
            load.finished += 1
        await open_table(load, channel, people, game)
        return
    if by_verb(shown, "start"):  # a lobby: fill it and start
        await sim.click(people[0], shown, by_verb(shown, "start") or "")
        return
    due = [u for u in people if f"<@{u.id}>" in shown.content]
    hand_id = by_verb(shown, "hand")
    if not due or hand_id is None:
        return
    user = due[0]
    hand = (await sim.click(user, shown, hand_id)).message
    if hand is None or not hand.ephemeral:
        return
    for _ in range(4):
        await load.pause()
        acts = [b["custom_id"] for b in hand.buttons()
                if verb_of(b["custom_id"]) == "act" and not b.get("disabled")]
        menus = [s for s in hand.selects() if verb_of(s["custom_id"]) in ("pick", "set")]
        if acts and (not menus or rng.random() < 0.5):
            await sim.click(user, hand, rng.choice(acts))
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
        answer = (await sim.select(user, hand, menu["custom_id"], rng.sample(offered, size))
                  ).message
        if answer is None or answer.id != hand.id or by_verb(answer, "view") is None:
            return
        hand = answer


async def table_loop(load: Load, channel: SimChannel, people: list[SimUser], game: str,
                     delay: float) -> None:
    await asyncio.sleep(delay)
    while not load.done:
        try:
            await turn(load, channel, people, game)
        except AssertionError:  # the message changed under the click: look again
            load.glitches += 1
        except Exception as exc:
            load.failures.append(f"{channel.name}: {exc!r}")
        await load.pause()


def by_verb_of(message: SimMessage | None, verb: str) -> str | None:
    return None if message is None else by_verb(message, verb)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def run(tables: int, minutes: float, think: tuple[float, float], ai_delay: float,
              ramp: float, seed: int, ai_level: str = "normal", scheduler: str = "on") -> int:
    rng = random.Random(seed)
    load_before = os.getloadavg()
    async with ProcDiscord(interaction_deadline=3.0, validate=False, quick=True) as sim:
        guild = sim.add_guild("Load Server", locale="en-US")
        places = []
        for i in range(tables):
            people = []
            for k in range(2):
                user = sim.add_user(f"p{i}-{k}")
                sim.add_member(guild, user)
                people.append(user)
            places.append((sim.add_channel(guild, f"t{i}"), people, MIX[i % len(MIX)]))
        load = Load(sim, think, rng)
        with tempfile.TemporaryDirectory() as tmp:
            waits_file = str(Path(tmp) / "waits.txt")
            bot = BotProcess(sim, str(Path(tmp) / "load.sqlite3"), ai_delay=ai_delay,
                             ai_level=ai_level, env={"DECKHAND_BENCH_WAITS": waits_file,
                                                     "DECKHAND_AI_SCHEDULER": scheduler})
            await bot.start()
            await sim.settle(idle=0.5, timeout=30)
            idle_rss = bot.rss_bytes()
            loops = [asyncio.create_task(table_loop(load, ch, people, game, ramp * i / tables))
                     for i, (ch, people, game) in enumerate(places)]
            try:
                await asyncio.sleep(ramp / 2)
                half_rss = bot.rss_bytes()
                await asyncio.sleep(ramp / 2 + min(5.0, ramp))
                full_rss = bot.rss_bytes()
                steady_from = sim.now()
                cpu0, own0, wall0 = bot.cpu_seconds(), time.process_time(), time.monotonic()
                helpers0 = bot.helpers_cpu_seconds()
                end = time.monotonic() + minutes * 60
                peak_rss = bot.rss_bytes()
                while time.monotonic() < end:
                    await asyncio.sleep(min(30.0, max(0.0, end - time.monotonic())))
                    load.prune(older_than=20.0)
                    peak_rss = max(peak_rss, bot.rss_bytes())
                    if bot.proc is not None and bot.proc.returncode is not None:
                        load.failures.append("the bot process exited")
                        break
                cpu1, own1, wall1 = bot.cpu_seconds(), time.process_time(), time.monotonic()
                helpers1 = bot.helpers_cpu_seconds()
                end_rss = bot.rss_bytes()
                load_after = os.getloadavg()
                playing = sum(1 for ch, _, _ in places
                              if by_verb_of(table_of(sim, ch), "hand"))
            finally:
                # The scripted people finish the turn they are in: a click cancelled while the
                # bot answers it would close its connection under the bot's reply (a
                # ServerDisconnectedError in the bot's log, which is not the bot's fault).
                load.done = True
                await asyncio.wait(loops, timeout=15.0)
                for task in loops:
                    task.cancel()
                await asyncio.gather(*loops, return_exceptions=True)
                await bot.stop()
            load.prune(older_than=-1.0)
            stamped = read_waits(waits_file)
    waits = Waits([m for m in stamped.moves if m[3] >= steady_from],
                  [q for q in stamped.queue if q[0] >= steady_from])
    steady = [o for o in load.outcomes if o[0] >= steady_from]
    times = [(answered - created) * 1000 for created, answered, _ in steady
             if answered is not None]
    bad: dict[str, int] = {}
    for _, _, status in steady:
        if status != "ok":
            bad[status] = bad.get(status, 0) + 1
    window = wall1 - wall0
    cpu = cpu1 - cpu0
    print(f"{tables} tables ({', '.join(MIX)}), 2 scripted people each (think "
          f"{think[0]:g}-{think[1]:g} s), computers level {ai_level} with {ai_delay:g} s pause "
          f"(scheduler {scheduler}); "
          f"ramp {ramp:g} s, then {window / 60:.1f} min measured; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} at the end")
    print(f"tables in play at the end: {playing}; games opened {load.opened}, "
          f"finished {load.finished}")
    print(f"interactions (steady): {len(steady)} ({len(steady) / window:.1f}/s); answer p50 "
          f"{statistics.median(times) if times else 0:.1f} ms, p99 {percentile(times, 0.99):.1f}"
          f" ms, max {max(times) if times else 0:.1f} ms; not answered in time: {bad or 0}")
    print(f"bot CPU: {cpu / window * 100:.0f}% of one core in all, "
          f"{cpu / window / tables * 1000:.2f} ms per second per table "
          f"({cpu / window / tables * 100:.3f}% of a core); its worker processes (pictures, "
          f"computer players): {(helpers1 - helpers0) / window * 100:.0f}% of one core")
    print(f"bot memory: idle {idle_rss / 2**20:.0f} MiB, end {end_rss / 2**20:.0f} MiB, peak "
          f"{peak_rss / 2**20:.0f} MiB; per table {(end_rss - idle_rss) / tables / 1024:.0f} KiB"
          f" (end minus idle, with the first game's caches), "
          f"{(full_rss - half_rss) / (tables / 2) / 1024:.0f} KiB (second half of the ramp)")
    print("computers' waits (steady), from a computer seat's turn to its move applied and to "
          "the table message showing it (the pause included):")
    for line in report(waits, load.edits, started_at=steady_from):
        print(line)
    print(f"simulator (this process) CPU: {(own1 - own0) / window * 100:.0f}% of one core")
    print(f"errors the bot logged: {len(bot.errors)}; script failures: {len(load.failures)}; "
          f"clicks on a message that changed under them: {load.glitches}")
    for line in bot.errors[:5] + load.failures[:5]:
        print("  error:", line[:600])
    return 1 if bot.errors or load.failures or bad else 0


def main() -> int:
    """Parse arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--think", default="4,12", help="seconds before a click: low,high")
    parser.add_argument("--ai-delay", type=float, default=1.0)
    parser.add_argument("--ramp", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai-level", default="normal",
                        help="the computers' level (hard: searching, in the worker processes)")
    parser.add_argument("--scheduler", choices=("on", "off"), default="on",
                        help="DECKHAND_AI_SCHEDULER: share the workers among the search moves")
    args = parser.parse_args()
    low, high = (float(x) for x in args.think.split(","))
    return asyncio.run(run(args.tables, args.minutes, (low, high), args.ai_delay, args.ramp,
                           args.seed, args.ai_level, args.scheduler))


if __name__ == "__main__":
    sys.exit(main())
