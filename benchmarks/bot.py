"""Bot speed on the simulated Discord: 100 concurrent tables of mixed games, scripted players.

    .venv/bin/python benchmarks/bot.py [--tables 100] [--moves 12] [--ai-delay 0.1]
        [--ai-level normal] [--ai-workers N] [--scheduler on|off] [--edit-gap 1.0]
        [--loop panel|hand]
        [--validate] [--profile FILE]

The bot runs unmodified in a child process of its own (``benchmarks/botproc.py``: the
production start-up, discord.py's ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``
pointed at the simulated Discord that this process serves), so the simulator's work (requests,
bookkeeping, optional schema validation) and the scripted players are not counted against it.
Every table is opened with /play, joined, filled with computers (level ``--ai-level``, waiting
``--ai-delay`` seconds before each move), started (the openings spread over OPENING seconds),
then its two human players take turns, all tables at once, each click after a think time of up
to THINK seconds: with ``--loop panel`` (the default) each presses Hand once and then moves on
their live panel (the bot edits it when their turn comes); with ``--loop hand`` they press Hand
on the table message for every move, as players had to before live panels.

Also printed: the REST requests the bot sent per move while the turns were taken, by kind
(interaction callbacks, edits through interaction tokens, follow-ups, table message edits, turn
alerts posted and deleted, direct messages, anything else), and those that count against
Discord's global limit of 50 a second (all but callbacks and requests through a token).

Printed, the measure of the target: p50/p95/p99 from an interaction's arrival at the bot (its
dispatch on the simulated gateway: the frame is written to the bot's socket then) to the bot
issuing its first callback request (stamped in the bot's process as discord.py creates the
request, ``botproc.stamp_responses``; both stamps read the machine's monotonic clock), in all
and per kind of interaction. Per level of the computers, their wait: from the moment a
computer seat is to act to its move being applied, and to the table message showing it, p50,
p99 and max (``benchmarks/waits.py``; the wait includes the ``--ai-delay`` pause), with the
computers due at once and the search queue over time; ``--scheduler off`` runs the bot with
``DECKHAND_AI_SCHEDULER=off`` (every search move gets the full budget, however many wait).
Also the same figures end to end, to the callback request's
arrival in this process (which adds the simulator's own delay in reading it: it shares the two
cores with the bot), per 5 s of the run too; errors (interactions not
answered in time or refused, error lines the bot logged, spec errors); the CPU seconds the bot's
process used; the memory an idle table costs (growth of the bot's resident memory over a second
batch of started tables, divided by their number). ``--profile FILE`` runs the bot under
cProfile (its main thread) and writes the profile when it stops; the figures of such a run are
inflated by the profiler.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # "bot": the package

import games
from benchmarks.botproc import BotProcess, ProcDiscord, read_stamps
from benchmarks.loopwatch import read_loop
from benchmarks.loopwatch import report as loop_report
from benchmarks.waits import percentile, read_waits, report, table_edits, turn_notices
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, table_of, verb_of
from tests.discord_sim import InteractionResult, SimChannel, SimMessage, SimulatedDiscord, SimUser

TARGET_P99_MS = 150.0
#: the table and position a table message shows (its Hand button), and any control's
TABLE_VERSION = re.compile(r"dh:hand:(\d+):(\d+):")
ANY_VERSION = re.compile(r"dh:[a-z]+:(\d+):(\d+):")
THINK = 1.0  # seconds a scripted player takes before each click, at most
OPENING = 5.0  # seconds over which the tables are opened
AI_DELAY = 0.1  # seconds a computer waits before its move
TARGET_IDLE_KB = 100.0


class ProfiledBot(BotProcess):
    """The bot's process under cProfile (written to ``path`` when the bot stops)."""

    def __init__(self, *args: Any, path: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.path = path

    async def start(self, timeout: float = 60.0) -> float:
        original = asyncio.create_subprocess_exec

        async def profiled(program: str, *args: Any, **kwargs: Any) -> Any:
            code = ("import cProfile, sys; from benchmarks.botproc import child; "
                    f"cProfile.run('child()', {self.path!r})")
            return await original(program, "-c", code, **kwargs)

        asyncio.create_subprocess_exec = profiled  # type: ignore[assignment]
        try:
            return await super().start(timeout)
        finally:
            asyncio.create_subprocess_exec = original


# -- the simulator's process ----------------------------------------------------------------
class BenchDiscord(ProcDiscord):
    """The simulated Discord, stamping each interaction as its gateway dispatch goes out."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sent_at: dict[str, float] = {}

    def _active_gateway(self, guild_id: str | None = None) -> Any:
        session = super()._active_gateway(guild_id)
        if not getattr(session, "bench_stamps", False):
            original = session.dispatch
            stamps = self.sent_at

            async def dispatch(event: str, payload: Any) -> None:
                if event == "INTERACTION_CREATE":
                    stamps[payload["id"]] = self.now()
                await original(event, payload)

            session.dispatch = dispatch  # type: ignore[method-assign]
            session.bench_stamps = True  # type: ignore[attr-defined]
        return session


class Bench:
    """The simulated server, the bot and every interaction's result."""

    def __init__(self, sim: SimulatedDiscord) -> None:
        self.sim = sim
        self.results: list[InteractionResult] = []
        #: what each interaction was (a command or the verb of the control clicked)
        self.kinds: dict[str, str] = {}
        self.guild = sim.add_guild("Bench Server", locale="en-US")
        #: interaction id → when the bot issued its first callback request (the bot's stamps)
        self.issued: dict[str, float] = {}

    def note(self, r: InteractionResult, kind: str) -> InteractionResult:
        self.results.append(r)
        self.kinds[r.id] = kind
        return r

    def arrivals(self) -> dict[str, float]:
        """Interaction id → when its first callback request arrived here."""
        first: dict[str, float] = {}
        for request in self.sim.requests:
            if request.interaction_id is not None and "/callback" in request.path:
                first.setdefault(request.interaction_id, request.time)
        return first

    def timed(self, kind: str | None = None, end_to_end: bool = False
              ) -> list[tuple[float, float]]:
        """(dispatch time, ms to the bot issuing its first callback request) of each
        interaction of one kind, or all (``end_to_end``: to that request's arrival here)."""
        first = self.arrivals() if end_to_end else self.issued
        sent = getattr(self.sim, "sent_at", {})
        return [(sent[r.id], (first[r.id] - sent[r.id]) * 1000) for r in self.results
                if r.id in first and r.id in sent
                and (kind is None or self.kinds.get(r.id) == kind)]

    def latencies_ms(self, kind: str | None = None, end_to_end: bool = False) -> list[float]:
        """The latencies of :meth:`timed`, in ms."""
        return [ms for _, ms in self.timed(kind, end_to_end)]

    def by_window(self, started_at: float, width: float) -> list[list[float]]:
        """The end-to-end latencies (ms) of the interactions dispatched in each ``width``
        seconds of the run, in order."""
        found: dict[int, list[float]] = {}
        for at, ms in self.timed(end_to_end=True):
            found.setdefault(int((at - started_at) // width), []).append(ms)
        return [found[k] for k in sorted(found)]

    def picture_lag_ms(self) -> list[float]:
        """For each panel answered (Hand, a move, cards chosen) that then got its hand's
        picture: from the answer (the callback request with the words and controls) to the
        request adding the picture (drawn at the lowest priority: this shows what that costs
        a person). A panel clicked again before its picture came gets none: not counted."""
        panels = {r.id for r in self.results
                 if self.kinds.get(r.id) in ("hand", "move", "choose cards")}
        answered: dict[str, float] = {}
        lags = []
        for q in self.sim.requests:
            if q.interaction_id not in panels:
                continue
            if "/callback" in q.path:
                answered.setdefault(q.interaction_id, q.time)
            elif q.files and q.interaction_id in answered:
                lags.append((q.time - answered.pop(q.interaction_id)) * 1000)
                panels.discard(q.interaction_id)
        return lags

    def table_lag_ms(self) -> list[float]:
        """For each person's move: from its answer (the callback request carrying the new
        hand) to the first edit of the table message showing that position or a later one."""
        shown: dict[str, list[tuple[float, int]]] = {}
        answered: list[tuple[str, int, float]] = []
        moves = {r.id for r in self.results if self.kinds.get(r.id) in ("move", "choose cards")}
        for q in self.sim.requests:
            text = json.dumps(q.json) if q.json is not None else ""
            if q.method == "PATCH" and "/messages/" in q.path and "/webhooks/" not in q.path:
                found = TABLE_VERSION.search(text)
                if found:
                    shown.setdefault(found.group(1), []).append((q.time, int(found.group(2))))
            elif q.interaction_id in moves and "/callback" in q.path:
                found = ANY_VERSION.search(text)
                if found:
                    answered.append((found.group(1), int(found.group(2)), q.time))
        lags = []
        for table, version, at in answered:
            later = [t for t, v in shown.get(table, []) if v >= version and t >= at]
            if later:
                lags.append((min(later) - at) * 1000)
        return lags

    def place(self, index: int) -> tuple[SimChannel, list[SimUser]]:
        channel = self.sim.add_channel(self.guild, f"table-{index}")
        users = []
        for k in range(2):
            user = self.sim.add_user(f"p{index}-{k}")
            self.sim.add_member(self.guild, user)
            users.append(user)
        return channel, users


def last(sim: SimulatedDiscord, channel: SimChannel) -> SimMessage:
    """The table message of a channel (its last message that is not a turn alert)."""
    found = table_of(sim, channel)
    assert found is not None
    return found


def counts_globally(path: str) -> bool:
    """Whether Discord counts a request of the bot against its global limit: all but an
    interaction's callback and the webhook routes of an interaction's token (the bot uses
    no other webhook)."""
    return "/interactions/" not in path and "/webhooks/" not in path


def request_kind(path: str, method: str) -> str:
    """What a REST request of the bot was, for the count per move."""
    if "/callback" in path:
        return "callbacks"
    if "/webhooks/" in path:  # through an interaction's token
        if method == "PATCH":
            return "token edits (panels, table messages)"
        return "follow-ups deleted" if method == "DELETE" else "follow-ups (alerts)"
    if "/messages" in path and method == "PATCH":
        return "table edits"
    if "/messages" in path and method == "POST":
        return "messages posted (DMs, results)"
    if "/messages" in path and method == "DELETE":
        return "alerts deleted"
    return "other (" + method + " " + re.sub(r"/[0-9]+", "/{id}", path.split("/v10", 1)[-1]) + ")"


async def open_table(b: Bench, channel: SimChannel, users: list[SimUser], game_id: str,
                     delay: float = 0.0) -> None:
    sim = b.sim
    rules = lookup(game_id)
    await asyncio.sleep(delay)
    b.note(await sim.slash(users[0], channel, "play", {"game": game_id}), "/play")
    await asyncio.sleep(0.05)
    b.note(await sim.click(users[1], last(sim, channel), button(last(sim, channel), "join")
                           ["custom_id"]), "join")
    for _ in range(rules.usual_players - 2):
        b.note(await sim.click(users[0], last(sim, channel),
                               button(last(sim, channel), "addc")["custom_id"]), "add computer")
    b.note(await sim.click(users[0], last(sim, channel), button(last(sim, channel), "start")
                           ["custom_id"]), "start")


async def take_turns(b: Bench, channel: SimChannel, users: list[SimUser], moves: int,
                     rng: random.Random, loop: str = "panel") -> int:
    """Make up to ``moves`` moves at a table; the number made."""
    sim = b.sim
    made = 0
    panels: dict[str, SimMessage] = {}
    for _ in range(moves * 40):
        if made >= moves:
            return made
        await asyncio.sleep(rng.uniform(THINK / 2, THINK))
        table = last(sim, channel)
        if "game is over" in table.content:
            return made
        turn = [u for u in users if f"<@{u.id}>" in table.content]
        if not turn:
            continue
        user = turn[0]
        if loop == "panel" and user.id in panels:
            hand = sim.message(panels[user.id].id)
            at = TABLE_VERSION.search(json.dumps(table.components))
            shows = ANY_VERSION.search(json.dumps(hand.components))
            if at is None or shows is None or at.group(2) != shows.group(2):
                continue  # the panel's edit for this turn is still on its way
        else:
            r = b.note(await sim.click(user, table, button(table, "hand")["custom_id"]), "hand")
            if r.message is None:
                continue
            hand = panels[user.id] = r.message
        controls: list[tuple[str, Any]] = [("b", x) for x in hand.buttons()
                                           if verb_of(x["custom_id"]) == "act"]
        controls += [("s", x) for x in hand.selects() if verb_of(x["custom_id"]) == "pick"]
        controls += [("m", x) for x in hand.selects() if verb_of(x["custom_id"]) == "set"]
        if not controls:
            continue
        kind, control = rng.choice(controls)
        if kind == "b":
            r = b.note(await sim.click(user, hand, control["custom_id"]), "move")
        else:
            values = [o["value"] for o in control["options"]]
            size = rng.randint(control["min_values"], control["max_values"])
            r = b.note(await sim.select(user, hand, control["custom_id"],
                                        rng.sample(values, size)), "choose cards")
        answer = r.message
        if answer is not None and answer.id == hand.id:
            confirm = [x for x in answer.buttons() if verb_of(x["custom_id"]) == "act"]
            if confirm and any(verb_of(x["custom_id"]) == "view" for x in answer.buttons()):
                b.note(await sim.click(user, answer, confirm[0]["custom_id"]), "move")
            made += 1
    return made


async def run(tables: int, moves: int, validate: bool = False, profile: str | None = None,
              ai_delay: float = AI_DELAY, ai_level: str = "normal",
              ai_workers: int | None = None, edit_gap: float = 1.0,
              scheduler: str = "on", loop: str = "panel", watch: bool = False) -> int:
    mix = [*games.ids()] or ["high-card"]
    async with BenchDiscord(interaction_deadline=3.0, validate=validate, quick=True) as sim:
        b = Bench(sim)
        with tempfile.TemporaryDirectory() as tmp:
            places = [b.place(i) for i in range(tables)]
            db = str(Path(tmp) / "bench.sqlite3")
            stamps = str(Path(tmp) / "stamps.txt")
            waits_file = str(Path(tmp) / "waits.txt")
            loop_file = str(Path(tmp) / "loop.txt")
            env = {"DECKHAND_BENCH_STAMPS": stamps, "DECKHAND_EDIT_GAP": str(edit_gap),
                   "DECKHAND_BENCH_WAITS": waits_file, "DECKHAND_AI_SCHEDULER": scheduler}
            if watch:  # the instruments run on the bot's own loop and cost it time
                env["DECKHAND_BENCH_LOOP"] = loop_file
            if ai_workers is not None:
                env["DECKHAND_AI_WORKERS"] = str(ai_workers)
            bot = (ProfiledBot(sim, db, ai_delay=ai_delay, ai_level=ai_level, env=env,
                               path=profile) if profile
                   else BotProcess(sim, db, ai_delay=ai_delay, ai_level=ai_level, env=env))
            await bot.start()
            try:
                load = os.getloadavg()
                cpu_before = bot.cpu_seconds()
                helpers_before = bot.helpers_cpu_seconds()
                own_before = time.process_time()
                started = time.perf_counter()
                since = sim.now()
                await asyncio.gather(*(open_table(b, ch, us, mix[i % len(mix)],
                                                  OPENING * i / tables)
                                       for i, (ch, us) in enumerate(places)))
                # the openings' own requests (threads, first pictures, avatars) made before the
                # turns: the count per move is of what the moves cause (a bot keeping to its
                # share of the global limit may still be sending them)
                await sim.settle(idle=0.5, timeout=60)
                first = len(sim.requests)
                made = sum(await asyncio.gather(*(
                    take_turns(b, ch, us, moves, random.Random(i), loop)
                    for i, (ch, us) in enumerate(places))))
                await sim.settle(idle=0.1, timeout=60)
                kinds: dict[str, int] = {}
                counted = 0  # against Discord's global limit (the simulator's rule)
                for q in sim.requests[first:]:
                    found = request_kind(q.path, q.method)
                    if found.startswith("messages posted") and '"dh:hand:' in json.dumps(q.json):
                        found = "turn alerts posted by the bot's token"
                    kinds[found] = kinds.get(found, 0) + 1
                    counted += counts_globally(q.path)

                wall = time.perf_counter() - started
                until = sim.now()
                cpu = bot.cpu_seconds() - cpu_before
                helpers = bot.helpers_cpu_seconds() - helpers_before
                own = time.process_time() - own_before
                load_after = os.getloadavg()
                assert sim._clock_offset == 0  # both stamp with time.monotonic()
                b.issued = read_stamps(stamps)
                lat = sorted(b.latencies_ms())
                ends = sorted(b.latencies_ms(end_to_end=True))
                failed = [r for r in b.results if r.status != "ok"]
                p50, p95, p99 = (percentile(lat, q) for q in (0.5, 0.95, 0.99))
                print(f"{tables} tables of {', '.join(mix)}; {ai_level} computers wait "
                      f"{ai_delay} s (workers {'default' if ai_workers is None else ai_workers}, "
                      f"scheduler {scheduler}); "
                      f"{len(lat)} interactions in "
                      f"{wall:.1f} s; load average {load[0]:.2f} before, "
                      f"{load_after[0]:.2f} after")
                print(f"interaction's arrival -> the bot's first response request: "
                      f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms, "
                      f"max {lat[-1]:.1f} ms (target p99 <= {TARGET_P99_MS:.0f} ms)")
                for kind in sorted(set(b.kinds.values())):
                    some = sorted(b.latencies_ms(kind))
                    if some:
                        print(f"  {kind}: {len(some)}, p50 {percentile(some, 0.5):.1f} ms, "
                              f"p99 {percentile(some, 0.99):.1f} ms, max {some[-1]:.1f} ms")
                print(f"end to end (to the response's arrival at the simulated Discord): "
                      f"{len(ends)} interactions, p50 {percentile(ends, 0.5):.1f} ms, "
                      f"p95 {percentile(ends, 0.95):.1f} ms, p99 {percentile(ends, 0.99):.1f} "
                      f"ms, max {ends[-1]:.1f} ms")
                windows = b.by_window(started_at=sim.now() - wall, width=5.0)
                print("p99 per 5 s of the run: " + ", ".join(
                    f"{percentile(sorted(v), 0.99):.0f} ms ({len(v)})" for v in windows))
                lags = sorted(b.table_lag_ms())
                if lags:
                    print(f"a person's move on the table message, after its answer: {len(lags)} "
                          f"moves, p50 {percentile(lags, 0.5):.0f} ms, p99 "
                          f"{percentile(lags, 0.99):.0f} ms, max {lags[-1]:.0f} ms (edits of a "
                          f"table message are at least {edit_gap} s apart)")
                pictures = sorted(b.picture_lag_ms())
                if pictures:
                    print(f"a hand's picture, after the panel's answer: {len(pictures)} answers, "
                          f"p50 {percentile(pictures, 0.5):.0f} ms, p99 "
                          f"{percentile(pictures, 0.99):.0f} ms, max {pictures[-1]:.0f} ms")
                print(f"computers' waits, from a computer seat's turn to its move applied and "
                      f"to the table message showing it (the {ai_delay} s pause included):")
                waits = read_waits(waits_file)
                for line in report(waits, table_edits(sim.requests),
                                   started_at=sim.now() - wall):
                    print(line)
                print("people's turns, from the turn's beginning (in the bot) to the request "
                      "at the simulated Discord:")
                for line in turn_notices(waits, sim.requests):
                    print(line)
                total = sum(kinds.values())
                print(f"REST requests of the bot while the turns were taken ({loop} loop): "
                      f"{total} for {made} moves by people, {total / max(1, made):.2f} per move "
                      "(the computers' moves in between included): " + ", ".join(
                          f"{k} {v / max(1, made):.2f}" for k, v in sorted(kinds.items())))
                print(f"counted against Discord's global limit (all but interaction callbacks "
                      f"and requests through an interaction's token): {counted}, "
                      f"{counted / max(1, made):.2f} per person's move (target <= 1.2)")
                print(f"errors: {len(failed)} interactions not answered in time or refused, "
                      f"{len(bot.errors)} error lines logged by the bot, "
                      f"{len(sim.spec_errors)} spec errors")
                for line in bot.errors[:5]:
                    print(f"  bot error: {line[:300]}")
                if failed:
                    for line in bot.warnings[:5]:
                        print(f"  bot warning: {line[:300]}")
                    for line in bot.log[-5:]:
                        print(f"  bot log: {line[:300]}")
                loop_lines = (since, until)
                print(f"bot process CPU: {cpu:.1f} s over {wall:.1f} s "
                      f"({100 * cpu / wall:.0f}% of one core); its worker processes "
                      f"(pictures, computer players): {helpers:.1f} s; the simulated Discord "
                      f"and scripted players (this process): {own:.1f} s")

                # memory of idle tables: a second batch, started and waiting for a human
                await sim.settle(idle=0.5, timeout=60)
                rss_before = bot.rss_bytes()
                idle = [b.place(tables + i) for i in range(tables)]
                await asyncio.gather(*(open_table(b, ch, us, mix[i % len(mix)],
                                                  OPENING * i / tables)
                                       for i, (ch, us) in enumerate(idle)))
                await sim.settle(idle=0.5, timeout=60)
                per_table = (bot.rss_bytes() - rss_before) / tables / 1024
                print(f"memory per idle table (growth of the bot's resident memory): "
                      f"{per_table:.1f} KB (target <= {TARGET_IDLE_KB:.0f} KB)")
            finally:
                await bot.stop()
            if watch:
                print("the bot's event loop while the tables were opened and played "
                      "(benchmarks/loopwatch.py):")
                for line in loop_report(read_loop(loop_file), *loop_lines,
                                        dispatched=getattr(sim, "sent_at", {})):
                    print("  " + line)
    if profile:
        print(f"profile of the bot's process written to {profile}")
    ok = p99 <= TARGET_P99_MS and per_table <= TARGET_IDLE_KB and not failed
    return 0 if ok else 1


def main() -> int:
    """Parse arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--validate", action="store_true",
                        help="validate every request against the OpenAPI spec (slower)")
    parser.add_argument("--profile", help="write a cProfile of the bot's process to this file")
    parser.add_argument("--ai-delay", type=float, default=AI_DELAY,
                        help="seconds a computer waits before its move (the bot's default: 1)")
    parser.add_argument("--ai-level", default="normal",
                        help="the computers' level (hard: searching, in the worker processes)")
    parser.add_argument("--ai-workers", type=int,
                        help="DECKHAND_AI_WORKERS for the bot (0: search in a thread)")
    parser.add_argument("--scheduler", choices=("on", "off"), default="on",
                        help="DECKHAND_AI_SCHEDULER: share the workers among the search moves")
    parser.add_argument("--edit-gap", type=float, default=1.0,
                        help="DECKHAND_EDIT_GAP: least seconds between edits of a table message")
    parser.add_argument("--loop", choices=("panel", "hand"), default="panel",
                        help="panel: one Hand press, then moves on the live panel; hand: a "
                             "Hand press for every move")
    parser.add_argument("--watch-loop", action="store_true",
                        help="instrument the bot's event loop (benchmarks/loopwatch.py): where "
                             "the time goes, at a cost in the bot's own latency")
    args = parser.parse_args()
    return asyncio.run(run(args.tables, args.moves, args.validate, args.profile, args.ai_delay,
                           args.ai_level, args.ai_workers, args.edit_gap, args.scheduler,
                           args.loop, args.watch_loop))


if __name__ == "__main__":
    sys.exit(main())
