"""Bot speed on the simulated Discord: 100 concurrent tables of mixed games, scripted players.

    .venv/bin/python benchmarks/bot.py [--tables 100] [--moves 12] [--validate]

Every table is opened with /play, joined, filled with computers (level "normal", no pause),
started (the openings spread over OPENING seconds), then its two human players take turns
through the Hand button and their private controls, all tables at once, each click after a
think time of up to THINK seconds. Printed: p50/p99 of the time from an interaction's arrival
(the simulated gateway dispatch) to the bot's first response request, and the memory one
idle table costs (tracemalloc, measured on a second batch of started tables).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, make_bot, verb_of
from tests.discord_sim import InteractionResult, SimChannel, SimMessage, SimulatedDiscord, SimUser

TARGET_P99_MS = 150.0
THINK = 1.0  # seconds a scripted player takes before each click, at most
OPENING = 5.0  # seconds over which the tables are opened
TARGET_IDLE_KB = 100.0


class BenchDiscord(SimulatedDiscord):
    """The simulated Discord without its wait for global quiet after each interaction:
    with a hundred tables at once the bot is never quiet, and the scripted players need only
    their own interaction's answer."""

    validate = False

    async def __aenter__(self) -> BenchDiscord:
        await super().__aenter__()
        if not self.validate and self._validator is not None:
            # schema validation is the simulator's test-time cost, not the bot's: skip it
            # (run with --validate to include it; the bot tests validate every request)
            self._validator.validate = lambda *args, **kw: []  # type: ignore[method-assign]
            self._validator.validate_query = (  # type: ignore[method-assign]
                lambda *args, **kw: [])
        return self

    async def settle(self, idle: float = 0.05, timeout: float = 10.0) -> None:
        """Return at once for the per-interaction wait (idle 0); else wait as usual."""
        if idle == 0.0:
            return
        await super().settle(idle=idle, timeout=timeout)


class Bench:
    """The simulated server, the bot and every interaction's result."""

    def __init__(self, sim: SimulatedDiscord) -> None:
        self.sim = sim
        self.results: list[InteractionResult] = []
        self.guild = sim.add_guild("Bench Server", locale="en-US")

    def note(self, r: InteractionResult) -> InteractionResult:
        self.results.append(r)
        return r

    def latencies_ms(self) -> list[float]:
        found = []
        for r in self.results:
            record = r._record
            if record.callback_time is not None:
                found.append((record.callback_time - record.created) * 1000)
        return found

    def place(self, index: int) -> tuple[SimChannel, list[SimUser]]:
        channel = self.sim.add_channel(self.guild, f"table-{index}")
        users = []
        for k in range(2):
            user = self.sim.add_user(f"p{index}-{k}")
            self.sim.add_member(self.guild, user)
            users.append(user)
        return channel, users


def last(sim: SimulatedDiscord, channel: SimChannel) -> SimMessage:
    found = sim.last_message(channel)
    assert found is not None
    return found


async def open_table(b: Bench, channel: SimChannel, users: list[SimUser], game_id: str,
                     delay: float = 0.0) -> None:
    sim = b.sim
    rules = lookup(game_id)
    await asyncio.sleep(delay)
    b.note(await sim.slash(users[0], channel, "play", {"game": game_id}))
    await asyncio.sleep(0.05)
    b.note(await sim.click(users[1], last(sim, channel), button(last(sim, channel), "join")
                           ["custom_id"]))
    for _ in range(rules.usual_players - 2):
        b.note(await sim.click(users[0], last(sim, channel),
                               button(last(sim, channel), "addc")["custom_id"]))
    b.note(await sim.click(users[0], last(sim, channel), button(last(sim, channel), "start")
                           ["custom_id"]))


async def take_turns(b: Bench, channel: SimChannel, users: list[SimUser], moves: int,
                     rng: random.Random) -> None:
    sim = b.sim
    made = 0
    for _ in range(moves * 40):
        if made >= moves:
            return
        await asyncio.sleep(rng.uniform(THINK / 2, THINK))
        table = last(sim, channel)
        if "game is over" in table.content:
            return
        turn = [u for u in users if f"<@{u.id}>" in table.content]
        if not turn:
            continue
        user = turn[0]
        r = b.note(await sim.click(user, table, button(table, "hand")["custom_id"]))
        hand = r.message
        if hand is None:
            continue
        controls: list[tuple[str, Any]] = [("b", x) for x in hand.buttons()
                                           if verb_of(x["custom_id"]) == "act"]
        controls += [("s", x) for x in hand.selects() if verb_of(x["custom_id"]) == "pick"]
        controls += [("m", x) for x in hand.selects() if verb_of(x["custom_id"]) == "set"]
        if not controls:
            continue
        kind, control = rng.choice(controls)
        if kind == "b":
            r = b.note(await sim.click(user, hand, control["custom_id"]))
        else:
            values = [o["value"] for o in control["options"]]
            size = rng.randint(control["min_values"], control["max_values"])
            r = b.note(await sim.select(user, hand, control["custom_id"],
                                        rng.sample(values, size)))
        answer = r.message
        if answer is not None and answer.id == hand.id:
            confirm = [x for x in answer.buttons() if verb_of(x["custom_id"]) == "act"]
            if confirm and any(verb_of(x["custom_id"]) == "view" for x in answer.buttons()):
                b.note(await sim.click(user, answer, confirm[0]["custom_id"]))
            made += 1


async def run(tables: int, moves: int, validate: bool = False) -> int:
    mix = [*games.ids()] or ["high-card"]
    BenchDiscord.validate = validate
    async with BenchDiscord(interaction_deadline=3.0, result_idle=0.0) as sim:
        b = Bench(sim)
        with tempfile.TemporaryDirectory() as tmp:
            bot = await make_bot(Path(tmp) / "bench.sqlite3")
            places = [b.place(i) for i in range(tables)]
            await sim.start(bot)
            started = time.perf_counter()
            await asyncio.gather(*(open_table(b, ch, us, mix[i % len(mix)],
                                              OPENING * i / tables)
                                   for i, (ch, us) in enumerate(places)))
            await asyncio.gather(*(take_turns(b, ch, us, moves, random.Random(i))
                                   for i, (ch, us) in enumerate(places)))
            await sim.settle(idle=0.1, timeout=60)
            wall = time.perf_counter() - started
            lat = sorted(b.latencies_ms())
            late = [r for r in b.results if r.status != "ok"]
            p50 = statistics.median(lat)
            p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
            print(f"{tables} tables of {', '.join(mix)}; {len(lat)} interactions in {wall:.1f} s")
            print(f"interaction -> first response: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                  f"max {lat[-1]:.1f} ms (target p99 <= {TARGET_P99_MS:.0f} ms); "
                  f"unanswered {len(late)}; spec errors {len(sim.spec_errors)}")

            # memory of idle tables: a second batch, started and waiting for a human
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.take_snapshot()
            idle = [b.place(tables + i) for i in range(tables)]
            await asyncio.gather(*(open_table(b, ch, us, mix[i % len(mix)],
                                              OPENING * i / tables)
                                   for i, (ch, us) in enumerate(idle)))
            await sim.settle(idle=0.2, timeout=60)
            b.results.clear()
            gc.collect()
            after = tracemalloc.take_snapshot()
            tracemalloc.stop()
            bot_files = ("/bot/", "/cogs/", "/games/", "aiosqlite", "/discord/")
            grown = sum(s.size_diff for s in after.compare_to(before, "filename")
                        if any(part in str(s.traceback[0].filename) for part in bot_files))
            per_table = grown / tables / 1024
            print(f"memory per idle table (bot, cogs, games, discord.py caches): "
                  f"{per_table:.1f} KB (target <= {TARGET_IDLE_KB:.0f} KB)")
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()
    ok = p99 <= TARGET_P99_MS and per_table <= TARGET_IDLE_KB and not late
    return 0 if ok else 1


def main() -> int:
    """Parse arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--validate", action="store_true",
                        help="validate every request against the OpenAPI spec (slower)")
    args = parser.parse_args()
    return asyncio.run(run(args.tables, args.moves, args.validate))


if __name__ == "__main__":
    sys.exit(main())
