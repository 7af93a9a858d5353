"""Discord's global limit, shared by every process of one bot: N processes on one PostgreSQL.

    .venv/bin/python benchmarks/global_limit.py [--processes 4] [--tables 1000] [--moves 2]
        [--per-guild 10] [--think 5,15] [--opening S] [--patience 120] [--ai-delay 1.0]
        [--rate R] [--pg postgresql://...] [--validate]

Discord allows a bot token 50 requests a second in all, whatever the number of processes or
machines it runs on; interaction callbacks, and follow-ups and edits through an interaction's
token, are exempt (issue #52). Here ``--processes`` bot processes, each running
``DECKHAND_SHARDS=i/N``, share one PostgreSQL database (a throwaway server, as
``benchmarks/shards.py`` starts, unless ``--pg`` or ``DECKHAND_TEST_PG`` names one) and one
simulated Discord that enforces the global limit (``faults.global_limit = 50``) and, where the
simulator has them, its per-route buckets (``faults.route_limits``); a line says which were on.

``--tables`` tables of mixed games, ``--per-guild`` a server, each in its own channel (its
thread once it opens), two scripted people each and computers in the usual other seats, are
opened with /play over ``--opening`` seconds. Each table's people play from its start (a table
left waiting would see its turns' deadlines pass and computers move for them): each presses
Hand when the table first names them, then moves on their live panel (the bot edits it when
their turn comes; Hand again if it offers nothing on their turn for a while) after a think time
drawn from ``--think``, ``--moves`` moves each (fewer when the game ends first).

Printed: the 429s Discord's global limit answered (there must be none: exit 1 otherwise) and
those of route buckets, by part of the run; the invalid requests of the simulator's last 10
minutes (401, 403, 429: Discord bans an address beyond 10,000); the requests that count against
the global limit (every answered request but the exempt ones, by the simulator's own
``_exempt`` rule) per person's move, by kind, and those that do not: a table's requests (by its
channel, its thread or its interactions) from its people's first Hand to ``TAIL`` seconds after
their last move, the computers' moves in between included; the table message's delay behind a
person's move (from the move's callback at the simulated Discord to the first edit of one of
the table's messages showing the position it made or a later one), p50 and p99; the whole
bot's ceiling in person-moves a second, derived as 50 divided by the counted requests per move;
errors (error lines the bots logged, interactions not answered in time, spec errors, tables
that did not start or whose person's turn stayed unplayable for ``--patience`` seconds) and
each process's CPU.

``--rate R`` passes ``DECKHAND_GLOBAL_RATE=R`` to every process (the requests a second the bot
token may make outside interactions, all processes together); unset, each process keeps its
default, and a bot that knows no such setting ignores it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from benchmarks.botproc import BotProcess, ProcDiscord  # noqa: E402
from benchmarks.shards import fresh_database, postgres, shard_of  # noqa: E402
from benchmarks.waits import percentile  # noqa: E402
from cogs.tokens import FRESH  # noqa: E402
from tests.bot.sim_helpers import REPLY, THREAD_STARTER, is_turn_alert, verb_of  # noqa: E402
from tests.discord_sim import InteractionResult, SimChannel, SimGuild, SimMessage, SimUser  # noqa: E402
from tests.discord_sim.faults import GLOBAL_PER_SECOND  # noqa: E402
from tests.discord_sim.server import _path_params  # noqa: E402

#: the table and position a table message shows (its Hand button), and any control's
TABLE_VERSION = re.compile(r"dh:hand:(\d+):(\d+):")
ANY_VERSION = re.compile(r"dh:[a-z]+:(\d+):(\d+):")
TAIL = 12.0  # seconds of a table's requests still counted after its people's last move
STALE = 15.0  # seconds a person's panel may offer nothing on their turn before Hand again
AGAIN = (0.5, 1.5)  # seconds a person thinks before choosing again after a refused choice
POLL = 0.25  # seconds between two looks of a scripted person at their panel or the table
#: the switches of the simulator's per-route buckets this script knows (whichever exists)
ROUTE_SWITCHES = ("route_limits", "route_buckets", "buckets")


# -- the servers, their tables and their people -----------------------------------------------
@dataclass
class Place:
    """One table's channel, its two people and what is known of the table."""

    guild: SimGuild
    channel: SimChannel
    people: list[SimUser]
    game: str
    table: str | None = None  # the table's id, from its buttons
    board: str | None = None  # the whole table's message (in its thread) once started
    made: int = 0  # moves its people made
    shown: str = ""  # the last position its message showed
    moved_at: float = 0.0  # when its message last showed a new position
    stalled: str = ""  # why the table did not get going or its people did not finish
    #: on the simulator's clock: when its message showed it started, when its people's last
    #: move was made and when they stopped (the bounds of its play)
    started_at: float | None = None
    playing_from: float | None = None  # its people's first press of Hand
    last_move_at: float = 0.0
    done_at: float = 0.0

    def play_ends(self) -> float:
        """The end of its play: its people stopped, and TAIL after their last move (the
        channel's compact message is edited at most once per 10 s: the last move's edit)."""
        return max(self.done_at, self.last_move_at + TAIL)


@dataclass
class Run:
    """The simulated Discord and every interaction's result and kind."""

    sim: ProcDiscord
    rng: random.Random
    think: tuple[float, float]
    results: list[InteractionResult] = field(default_factory=list)
    kinds: dict[str, str] = field(default_factory=dict)
    #: each person's move made: its interaction, its table and the position it made
    moves: list[tuple[str, str, int]] = field(default_factory=list)
    #: interaction id -> the table it was made at
    place_of: dict[str, Place] = field(default_factory=dict)

    def note(self, r: InteractionResult, kind: str, place: Place) -> InteractionResult:
        self.results.append(r)
        self.kinds[r.id] = kind
        self.place_of[r.id] = place
        return r


def make_places(sim: ProcDiscord, tables: int, per_guild: int, processes: int,
                mix: list[str]) -> list[Place]:
    """``tables`` channels, ``per_guild`` a server, the servers spread evenly over the shards.
    A guild's shard is its id's time part modulo the shard count: a guild made on a shard that
    has its share already stays empty (the next one, a moment later, falls elsewhere)."""
    guilds = -(-tables // per_guild)
    wanted = {s: guilds // processes + (s < guilds % processes) for s in range(processes)}
    made: list[SimGuild] = []
    serial = 0
    while len(made) < guilds:
        guild = sim.add_guild(f"Server {serial}", locale="en-US")
        serial += 1
        shard = shard_of(guild.id, processes)
        if wanted[shard] == 0:
            time.sleep(0.001)  # the next snowflake's time part moves on
            continue
        wanted[shard] -= 1
        made.append(guild)
    places = []
    for i in range(tables):
        guild = made[i // per_guild]
        channel = sim.add_channel(guild, f"table-{i}")
        people = []
        for k in range(2):
            user = sim.add_user(f"p{i}-{k}")
            sim.add_member(guild, user)
            people.append(user)
        places.append(Place(guild, channel, people, mix[i % len(mix)]))
    return places


def by_verb(message: SimMessage | None, verb: str) -> str | None:
    """The custom id of a message's control with that verb."""
    if message is None:
        return None
    for control in [*message.buttons(), *message.selects()]:
        if verb_of(control.get("custom_id")) == verb:
            return str(control["custom_id"])
    return None


def whole(sim: ProcDiscord, place: Place) -> tuple[SimMessage | None, bool]:
    """The whole table's message: the first message of the thread started from the channel's
    last message that is not a turn alert, else that channel message; and whether a thread
    holds it. (Faster than ``sim_helpers.table_of``, which looks through every channel.)"""
    if place.board is not None:
        return sim.message(place.board), True
    found = [m for m in sim.messages(place.channel) if m.type != REPLY]
    if not found:
        return None, False
    try:
        thread = sim.channel(found[-1].id)  # a thread from a message takes the message's id
    except KeyError:
        return found[-1], False
    if thread.locked or thread.deleted:
        return found[-1], False
    for m in sim.messages(thread):
        if m.type != THREAD_STARTER and not is_turn_alert(m):
            return m, True
    return found[-1], False


async def open_table(run: Run, place: Place, delay: float, limit: float) -> None:
    """/play, the other person joins, computers fill the usual seats, the host starts; each
    click made again when it was answered late or not at all (a repeated join is refused)."""
    sim = run.sim
    await asyncio.sleep(delay)
    host, other = place.people
    extra = games.get(place.game).usual_players - 2
    steps = [(other, "join"), *[(host, "addc")] * extra, (host, "start")]
    done = 0
    asked = 0.0  # when /play or the last step was last made
    shown: SimMessage | None = None
    while time.monotonic() < limit:
        shown, in_thread = whole(sim, place)
        if shown is None:
            if time.monotonic() - asked > 10.0:
                asked = time.monotonic()
                run.note(await sim.slash(host, place.channel, "play", {"game": place.game}),
                         "/play", place)
            await asyncio.sleep(POLL)
            continue
        hand = TABLE_VERSION.search(by_verb(shown, "hand") or "")
        if hand is not None and (in_thread or time.monotonic() - asked > 20.0):
            place.board, place.table = shown.id, hand.group(1)
            place.started_at = run.sim.now()
            return
        if done >= len(steps):  # started: its message in the thread is on its way
            await asyncio.sleep(POLL)
            if by_verb(shown, "start") is not None and time.monotonic() - asked > 10.0:
                done -= 1  # the start was lost: press it again
            continue
        user, verb = steps[done]
        control = by_verb(shown, verb)
        if control is None:
            await asyncio.sleep(POLL)
            continue
        try:
            r = run.note(await sim.click(user, shown, control), verb, place)
        except AssertionError:  # the message changed under the click: look again
            await asyncio.sleep(POLL)
            continue
        if r.status != "ok":
            await asyncio.sleep(1.0)  # late: it may have been done; a repeat is refused
            continue
        if verb == "start" and r.ephemeral:
            done -= 1  # refused (a seat short): the step before it once more, a moment later
            await asyncio.sleep(1.0)
            continue
        done += 1
        asked = time.monotonic()
    place.stalled = f"{place.game} did not start: {shown.content[:120] if shown else None!r}"


def version_of(message: SimMessage) -> str | None:
    found = ANY_VERSION.search(json.dumps(message.components))
    return found.group(2) if found else None


def offers_at(message: SimMessage | None, version: str | None) -> bool:
    """Whether a panel still offers moves at ``version`` (a choice the rules refused)."""
    if message is None:
        return False
    return any(verb_of(i) in ("act", "pick", "set") and i.split(":")[3] == version
               for i in (str(c.get("custom_id")) for c in [*message.buttons(),
                                                           *message.selects()]))


def watch(place: Place, board: SimMessage) -> None:
    """Note when the table's message last showed a new position."""
    found = TABLE_VERSION.search(by_verb(board, "hand") or "")
    if found is not None and found.group(2) != place.shown:
        place.shown, place.moved_at = found.group(2), time.monotonic()


def alert_for(sim: ProcDiscord, board: SimMessage, user: SimUser) -> SimMessage | None:
    """The turn alert that mentions the person in the table's thread, if one shows now."""
    try:
        thread = sim.channel(board.channel_id)
    except KeyError:
        return None
    # (a table has one alert at a time, among the thread's last lines: the scripted people
    # look several times a second, on the simulated Discord's own loop)
    for m in reversed(sim.messages(thread)[-3:]):
        if f"<@{user.id}>" in m.content and is_turn_alert(m):
            return m
    return None


async def person(run: Run, place: Place, user: SimUser, moves: int, patience: float,
                 limit: float) -> None:
    """One person: Hand once when the table or a turn alert first names them (the alert is
    what pings them: the table's message, edited last under a short budget, may still show an
    earlier turn), then a move on their live panel each time it shows them moves at a new
    position, after a think time. When the table shows no new position for ``patience``
    seconds, they stop: stalled if it or an alert names them (their turn came and their panel
    did not offer it), else there is no turn left for them."""
    sim, rng = run.sim, run.rng
    panel: SimMessage | None = None
    acted: str | None = None
    refused = False  # the last choice was no move
    made = 0
    named_since: float | None = None  # since when the table names them (their turn)
    back_at = time.monotonic()  # when they last said they are back
    while made < moves and time.monotonic() < limit:
        board, _ = whole(sim, place)
        if board is None or by_verb(board, "hand") is None:
            return  # the game is over
        watch(place, board)
        alert = alert_for(sim, board, user)
        named = f"<@{user.id}>" in board.content or alert is not None
        if not named:
            named_since = None
        elif named_since is None:
            named_since = time.monotonic()
        if time.monotonic() - place.moved_at > patience:
            if named:
                shown = sim.message(panel.id) if panel is not None else None
                offered = ([str(c.get("custom_id")) for c in [*shown.buttons(),
                                                              *shown.selects()]][:6]
                           if shown is not None else [])
                mine = [q for q in sim.requests if shown is not None and shown.id in q.path]
                place.stalled = (
                    f"{place.game}: {user.name}'s turn for {patience:.0f} s and no move made "
                    f"(made {made} of {moves}); the panel shows "
                    f"{shown.text[:200] if shown else None!r} with {offered}; the table "
                    f"shows {board.text[:300]!r}; panel requests "
                    f"{[(q.method, q.status, round(sim.now() - q.time, 1)) for q in mine][-4:]}")
            return
        back = by_verb(board, "back")
        if back is not None and time.monotonic() - back_at > STALE:
            # someone's seat went to a computer (their deadlines passed): if theirs, they are
            # back (refused, changing nothing, if it is not)
            back_at = time.monotonic()
            with contextlib.suppress(AssertionError):
                run.note(await sim.click(user, board, back), "back", place)
            continue
        if panel is None:
            if not named:
                await asyncio.sleep(POLL)
                continue
            await asyncio.sleep(rng.uniform(*run.think))
            if place.playing_from is None:
                place.playing_from = sim.now()
            try:
                came = alert if alert is not None else board  # (the alert's own Hand)
                r = run.note(await sim.click(user, came, by_verb(came, "hand")), "hand",
                             place)
            except AssertionError:
                continue
            if r.message is None or not r.message.ephemeral:
                continue
            panel = r.message
        panel = sim.message(panel.id)
        version = version_of(panel)
        controls: list[tuple[str, dict[str, Any]]] = [
            ("b", x) for x in panel.buttons()
            if verb_of(x.get("custom_id")) == "act" and not x.get("disabled")]
        controls += [("s", x) for x in panel.selects()
                     if verb_of(x["custom_id"]) in ("pick", "set")]
        if not controls or version == acted:
            if named_since is not None and time.monotonic() - named_since > STALE:
                # as a person would: Hand again, and try that position again
                panel, named_since, acted = None, None, None
            await asyncio.sleep(POLL)
            continue
        # (told the cards chosen are no move, a person picks again at once: the random
        # picks miss 1234's sums most of the time)
        await asyncio.sleep(rng.uniform(*(AGAIN if refused else run.think)))
        kind, control = rng.choice(controls)
        clicked = str(control["custom_id"])
        try:
            if kind == "b":
                r = run.note(await sim.click(user, panel, control["custom_id"]), "move", place)
            else:
                values = [o["value"] for o in control["options"]]
                size = rng.randint(control.get("min_values", 1), control.get("max_values", 1))
                r = run.note(await sim.select(user, panel, control["custom_id"],
                                              rng.sample(values, size)), "choose cards", place)
            answer = r.message
            if answer is not None and answer.id == panel.id:
                confirm = [x for x in answer.buttons() if verb_of(x.get("custom_id")) == "act"]
                if confirm and by_verb(answer, "view") is not None:
                    clicked = str(confirm[0]["custom_id"])
                    r = run.note(await sim.click(user, answer, clicked), "move", place)
                    answer = r.message
        except AssertionError:  # the panel changed during the think: look again
            continue
        refused = r.status != "ok" or offers_at(answer, version)
        if refused:
            continue  # not made: refused (cards the rules do not take), or answered late
        acted, named_since = version, None
        made += 1
        place.made += 1
        place.last_move_at = sim.now()
        _, _, table, at, _ = clicked.split(":")
        run.moves.append((r.id, table, int(at) + 1))
    if made < moves and time.monotonic() >= limit:
        place.stalled = f"{place.game}: {user.name} made {made} of {moves} moves in time"


# -- what the simulated Discord saw ------------------------------------------------------------
def is_global(q: Any) -> bool:
    return q.status == 429 and isinstance(q.response, dict) and bool(q.response.get("global"))


def counted_kind(q: Any, exempt: bool) -> str:
    """What a request was, for the count per move; exempt ones are marked so."""
    route, method = q.route or q.path, q.method
    if exempt:
        return ("interaction callbacks" if route.startswith("/interactions/")
                else f"{method} through an interaction's token")
    if route == "/channels/{channel_id}/messages/{message_id}":
        return {"PATCH": "message edits (tables, lobbies)",
                "DELETE": "messages deleted (turn alerts)"}.get(method, f"{method} message")
    if route == "/channels/{channel_id}/messages" and method == "POST":
        text = json.dumps(q.json) if q.json is not None else ""
        return ("turn alerts posted" if '"dh:hand:' in text and '"embeds": [{' not in text
                else "other messages posted")
    if "threads" in route:
        return f"threads ({method})"
    return f"{method} {route}"


def alerts_by_bot_token(sim: ProcDiscord, requests: list[Any]) -> tuple[int, Counter[int]]:
    """The turn alerts posted by the bot's own token, and of them those posted while an
    interaction in their channel had been answered within the time the bot uses a token for
    (``cogs.tokens.FRESH``: whose token could have posted the alert as a follow-up), by the
    latest such interaction's answer (its callback type; 0: the alert was a reply in the
    table's channel, which a follow-up cannot be)."""
    answered: dict[str, list[tuple[float, int]]] = {}
    for record in sim._interactions.values():
        if record.callback_time is not None and record.callback_type is not None:
            answered.setdefault(record.channel.id, []).append(
                (record.callback_time, record.callback_type))
    posted, could = 0, Counter[int]()
    for q in requests:
        if q.status == 429 or exempt_of(sim, q) or counted_kind(q, False) != "turn alerts posted":
            continue
        posted += 1
        if isinstance(q.json, dict) and q.json.get("message_reference"):
            could[0] += 1  # a reply to the table's message in its channel (no thread yet)
            continue
        channel = _path_params(q.route, q.path).get("channel_id", "")
        before = [(at, kind) for at, kind in answered.get(channel, ())
                  if q.time - FRESH < at < q.time]
        if before:
            could[max(before)[1]] += 1
    return posted, could


def exempt_of(sim: ProcDiscord, q: Any) -> bool:
    """The simulator's own rule (``SimulatedDiscord._exempt``)."""
    if not q.route:
        return False
    return bool(sim._exempt(q.route, _path_params(q.route, q.path)))


def table_message_ids(sim: ProcDiscord, places: list[Place]) -> set[str]:
    """The ids of every table's messages: its whole message and the channel's own."""
    found = {p.board for p in places if p.board is not None}
    for place in places:
        found.update(m.id for m in sim.messages(place.channel) if m.type != REPLY)
    return found


def table_lags_ms(run: Run, requests: list[Any], tables: set[str]) -> tuple[list[float], int]:
    """For each person's move: from its callback's arrival to the first edit of one of the
    table's messages (``tables``: their ids; an edit through a channel's route or an
    interaction's token alike) showing the position it made or a later one; and the moves no
    edit showed by the end."""
    moves = {i: (table, version) for i, table, version in run.moves}
    shown: dict[str, list[tuple[float, int]]] = {}
    answered: list[tuple[str, int, float]] = []
    for q in requests:
        if not 200 <= q.status < 300:
            continue
        if q.method == "PATCH" and isinstance(q.response, dict) and str(
                q.response.get("id")) in tables:
            found = TABLE_VERSION.search(json.dumps(q.json) if q.json is not None else "")
            if found:
                shown.setdefault(found.group(1), []).append((q.time, int(found.group(2))))
        elif q.interaction_id in moves and "/callback" in q.path:
            answered.append((*moves.pop(q.interaction_id), q.time))
    lags = []
    unshown = 0
    for table, version, at in answered:
        later = [t for t, v in shown.get(table, []) if v >= version and t >= at]
        if later:
            lags.append((min(later) - at) * 1000)
        else:
            unshown += 1
    return sorted(lags), unshown


def switch_on_limits(sim: ProcDiscord) -> list[str]:
    """Turn on Discord's limits in the simulator; what was turned on, in words."""
    faults = sim.faults
    faults.global_limit = GLOBAL_PER_SECOND
    on = [f"global {GLOBAL_PER_SECOND}/s per bot token"]
    for name in ROUTE_SWITCHES:
        if not hasattr(faults, name):
            continue
        current = getattr(faults, name)
        if isinstance(current, bool) or current is None:
            setattr(faults, name, True)
        on.append(f"per-route buckets (faults.{name})")
        break
    else:
        on.append("no per-route buckets (the simulator has none)")
    return on


def phases(sim: ProcDiscord, run: Run, places: list[Place],
           requests: list[Any]) -> dict[str, list[Any]]:
    """The requests by the part of the run they belong to. A request belongs to a table by its
    interaction, or by its channel (the table's channel, or its thread: a thread started from
    a message takes the message's id); then to its openings before its people first pressed
    Hand (the start's edits, the computers' first moves), to its play from then to the end of
    its play, or after. The rest: before the first /play ("start"), or of no table
    ("other": the people fetched for their names and pictures)."""
    channel_of: dict[str, Place] = {}
    for place in places:
        channel_of[place.channel.id] = place
        for m in sim.messages(place.channel):
            channel_of.setdefault(m.id, place)
    first = min((q.time for q in requests if q.interaction_id in run.place_of), default=0.0)
    found: dict[str, list[Any]] = {k: [] for k in ("start", "openings", "play", "after",
                                                    "other")}
    for q in requests:
        place = run.place_of.get(q.interaction_id or "")
        if place is None and q.route and "{channel_id}" in q.route:
            place = channel_of.get(_path_params(q.route, q.path).get("channel_id", ""))
        if place is None:
            found["start" if q.time < first else "other"].append(q)
        elif place.playing_from is None or q.time < place.playing_from:
            found["openings"].append(q)
        elif q.time <= place.play_ends():
            found["play"].append(q)
        else:
            found["after"].append(q)
    return found


def refusals(requests: list[Any]) -> str:
    glob = sum(is_global(q) for q in requests)
    route = sum(q.status == 429 and not is_global(q) for q in requests)
    return f"{len(requests)} requests, {glob} global 429s, {route} route 429s"


# -- the run -----------------------------------------------------------------------------------
async def table_life(run: Run, place: Place, moves: int, delay: float, patience: float,
                     limit: float) -> None:
    """A table opened, then its two people's moves from the moment it started (a table left
    waiting for them would see its turns' deadlines pass and computers move for them)."""
    await open_table(run, place, delay, limit)
    if place.started_at is None:
        return
    place.moved_at = time.monotonic()
    until = time.monotonic() + 2 * moves * (run.think[1] + patience) + 120.0
    await asyncio.gather(*(person(run, place, u, moves, patience, until)
                           for u in place.people))
    place.done_at = run.sim.now()


async def run(processes: int, tables: int, per_guild: int, moves: int,
              think: tuple[float, float], opening: float, patience: float, ai_delay: float,
              rate: str | None, pg: str | None, validate: bool, seed: int) -> int:
    mix = [*games.ids()] or ["high-card"]
    with postgres(pg or os.environ.get("DECKHAND_TEST_PG")) as server_address:
        db = await fresh_database(server_address)
        async with ProcDiscord(interaction_deadline=3.0, shards=processes, validate=validate,
                               quick=True) as sim:
            r = Run(sim, random.Random(seed), think)
            watch_loop = LoopWatch(sim.now)
            places = make_places(sim, tables, per_guild, processes, mix)
            limits_on = switch_on_limits(sim)
            env = {"DECKHAND_GLOBAL_RATE": rate} if rate else {}
            bots = [BotProcess(sim, db, ai_delay=ai_delay, shards=f"{i}/{processes}", env=env)
                    for i in range(processes)]
            try:
                began = time.perf_counter()
                await asyncio.gather(*(b.start(timeout=180) for b in bots))
                ready = time.perf_counter() - began
                cpu_before = [b.cpu_seconds() for b in bots]
                helpers_before = [b.helpers_cpu_seconds() for b in bots]
                began = time.perf_counter()
                own_cpu = time.process_time()
                watch_loop.start()
                limit = time.monotonic() + opening + 300.0
                await asyncio.gather(*(table_life(r, p, moves, opening * i / tables, patience,
                                                  limit)
                                       for i, p in enumerate(places)))
                with contextlib.suppress(TimeoutError):
                    await sim.settle(idle=0.5, timeout=30)
                wall = time.perf_counter() - began
                watch_loop.stop()
                own_cpu = time.process_time() - own_cpu
                cpu = [b.cpu_seconds() - c for b, c in zip(bots, cpu_before, strict=True)]
                helpers = [b.helpers_cpu_seconds() - c
                           for b, c in zip(bots, helpers_before, strict=True)]
                invalid = sim.faults.invalid()
                await asyncio.gather(*(b.stop() for b in bots))
            finally:
                for b in bots:
                    b.kill()
                    with contextlib.suppress(Exception):
                        await b.wait()
            requests = list(sim.requests)
            spec_errors = list(sim.spec_errors)
            table_ids = table_message_ids(sim, places)
            parts = phases(sim, r, places, requests)

    plays = parts["play"]
    made = sum(p.made for p in places)
    kinds: Counter[str] = Counter()
    exempt = counted = 0
    for q in plays:
        if q.status == 429:
            continue  # refused: its repeat, if answered, is the one counted
        free = exempt_of(sim, q)
        kinds[counted_kind(q, free)] += 1
        exempt += free
        counted += not free
    per_move = counted / max(1, made)
    lags, unshown = table_lags_ms(r, plays, table_ids)
    failed = [x for x in r.results if x.status != "ok"]
    errors = [e for b in bots for e in b.errors]
    warnings = [w for b in bots for w in b.warnings]
    stalled = [p for p in places if p.stalled]
    started = [p for p in places if p.started_at is not None]
    global_429 = sum(is_global(q) for q in requests)
    counted_all = [q for q in requests if q.status != 429 and not exempt_of(sim, q)]
    span = (max(q.time for q in counted_all) - min(q.time for q in counted_all)
            if counted_all else 0.0)
    opened = (max(p.started_at or 0.0 for p in started) - min(q.time for q in parts["openings"])
              if started and parts["openings"] else 0.0)

    shards = Counter(shard_of(p.guild.id, processes) for p in places)
    print(f"{processes} bot processes (DECKHAND_SHARDS=i/{processes}) on one PostgreSQL "
          f"database, ready in {ready:.1f} s; DECKHAND_GLOBAL_RATE "
          f"{rate if rate else 'unset (the bot default)'}")
    print("the simulated Discord enforces: " + "; ".join(limits_on))
    print(f"{tables} tables of {', '.join(mix)} in {len({p.guild.id for p in places})} servers "
          f"({per_guild} a server, each in its own channel), tables per process "
          + "/".join(f"{shards[s]}" for s in range(processes))
          + f"; /play spread over {opening:.0f} s, {len(started)} started, the last "
          f"{opened:.1f} s after the first /play")
    print(f"people: 2 a table, each playing from the table's start: {moves} moves each on "
          f"their live panels, thinking {think[0]:g}-{think[1]:g} s; computers wait "
          f"{ai_delay:g} s; {made} moves made by people; the run {wall:.1f} s")
    print("requests by part: " + "; ".join(f"{name}: {refusals(part)}"
                                           for name, part in parts.items()))
    print(f"global 429s in all: {global_429} (must be 0); route 429s in all: "
          f"{sum(q.status == 429 and not is_global(q) for q in requests)}; invalid requests in "
          f"the simulator's last 10 minutes: {invalid} (Discord bans beyond 10,000)")
    print(f"requests counted against the global limit: {len(counted_all)} in all, "
          f"{len(counted_all) / max(span, 1e-9):.1f} a second over {span:.0f} s")
    print(f"of them while the people played (each table from their first Hand to {TAIL:g} s "
          f"after "
          f"its people's last move, the computers' moves in between included): {counted}, "
          f"{per_move:.2f} per person's move; not counted (interactions): {exempt}, "
          f"{exempt / max(1, made):.2f} per move")
    print("  by kind, per person's move: " + ", ".join(
        f"{k} {v / max(1, made):.2f}" for k, v in sorted(kinds.items())))
    posted, could = alerts_by_bot_token(sim, requests)
    replies = could.pop(0, 0)
    print(f"  turn alerts posted by the bot's token: {posted}; of them {replies} replies in the "
          f"table's channel (its thread not made yet), {could.total()} after an interaction "
          f"answered in their channel in the {FRESH / 60:.0f} minutes before (by the latest's "
          f"callback type: {dict(sorted(could.items()))})")
    opening_kinds = Counter(counted_kind(q, False) for q in parts["openings"]
                            if q.status != 429 and not exempt_of(sim, q))
    print("counted while the tables opened, per table: " + ", ".join(
        f"{k} {v / max(1, len(started)):.2f}" for k, v in sorted(opening_kinds.items())))
    if lags:
        print(f"the table message behind a person's move (its callback -> the first edit of "
              f"the table's message showing it): {len(lags)} moves, p50 "
              f"{percentile(lags, 0.5):.0f} ms, p99 {percentile(lags, 0.99):.0f} ms, max "
              f"{lags[-1]:.0f} ms; not shown by the end: {unshown}")
    else:
        print(f"the table message behind a person's move: no move measured; not shown by the "
              f"end: {unshown}")
    ceiling = (f"{GLOBAL_PER_SECOND / per_move:.1f} person-moves a second" if per_move
               else "none (no request of a move counts)")
    print(f"ceiling for the whole bot (derived: {GLOBAL_PER_SECOND} / {per_move:.2f} counted "
          f"requests per move): {ceiling}")
    print(f"errors: {len(errors)} error lines logged by the bots, {len(failed)} interactions "
          f"not answered in time or refused, {len(spec_errors)} spec errors, {len(stalled)} "
          f"tables stalled; {len(warnings)} warning lines")
    print("CPU per bot process over the run: " + ", ".join(
        f"{c:.1f} s (+{h:.1f} s workers)" for c, h in zip(cpu, helpers, strict=True))
          + f"; the simulated Discord and the people {own_cpu:.1f} s; load average "
          f"{os.getloadavg()[0]:.1f}")
    print(watch_loop.line())
    if global_429:
        glob = [q.time for q in requests if is_global(q)]
        print(f"  global 429s within {LoopWatch.AFTER:g} s after such a stall: "
              f"{watch_loop.after_stall(glob)} of {global_429}")
    for line in errors[:3]:
        print("  bot error:", line[:200], "...", line[-600:].replace("\n", " | "))
    for spec in spec_errors[:3]:
        print("  spec:", spec)
    for p in stalled[:5]:
        print("  stalled:", p.guild.name, p.channel.name, p.stalled)
    if warnings:  # (what the bots had to say, most often first)
        for line in Counter(w[:160] for w in warnings).most_common(5):
            print("  bot warning:", line[1], "x", line[0])
    return 1 if global_429 or errors or failed or spec_errors or stalled else 0


class LoopWatch:
    """How late this process's event loop runs a timer: the simulated Discord counts a
    request when its loop reads it, so a loop held up (by the 2,000 scripted people beside
    it) reads the requests that arrived meanwhile all at once, bunched as they were not
    sent."""

    STEP = 0.05
    STALL = 0.3  # a lateness that bunches requests (seconds)
    AFTER = 1.5  # how long after a stall a global 429 is put down to it (seconds)
    FREEZE = 5.0  # how often what the process keeps is frozen out of the collector (seconds)

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now  # the simulated Discord's clock, which its requests' times are on
        self.lags: list[float] = []
        self.stalls: list[float] = []  # when each stall ended, on ``now``
        self.collections: list[float] = []  # the garbage collector's full runs (seconds)
        self.task: asyncio.Task[None] | None = None
        self._gc_began = 0.0

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        frozen = loop.time()
        while True:
            if loop.time() - frozen > self.FREEZE:
                # what is kept so far (the simulated Discord's record of every request, with
                # its pictures) is left out of the collector's full runs, which scanned all
                # of it and held this loop for over a second (docs/benchmarks.md)
                gc.freeze()
                frozen = loop.time()
            before = loop.time()
            await asyncio.sleep(self.STEP)
            late = max(0.0, loop.time() - before - self.STEP)
            self.lags.append(late)
            if late >= self.STALL:
                self.stalls.append(self.now())

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            self.collections.append(time.perf_counter() - self._gc_began)

    def start(self) -> None:
        gc.callbacks.append(self._gc)
        self.task = asyncio.get_running_loop().create_task(self._watch())

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc)
        if self.task is not None:
            self.task.cancel()

    def after_stall(self, times: list[float]) -> int:
        """How many of these request times came within AFTER seconds of a stall's end."""
        return sum(1 for t in times if any(0 <= t - end <= self.AFTER for end in self.stalls))

    def line(self) -> str:
        lags = sorted(self.lags) or [0.0]
        most = max(self.collections, default=0.0)
        return (f"the simulated Discord's own event loop (shared with the scripted people): "
                f"late p50 {percentile(lags, 0.5) * 1000:.0f} ms, p99 "
                f"{percentile(lags, 0.99) * 1000:.0f} ms, max {lags[-1] * 1000:.0f} ms, "
                f"{len(self.stalls)} times {self.STALL:g} s or more; the garbage collector's "
                f"full runs: {len(self.collections)}, the longest {most * 1000:.0f} ms")


def pair(text: str) -> tuple[float, float]:
    low, _, high = text.partition(",")
    return float(low), float(high or low)


def main() -> int:
    """Parse arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--per-guild", type=int, default=10, help="tables a server")
    parser.add_argument("--moves", type=int, default=2, help="moves each person makes")
    parser.add_argument("--think", type=pair, default=(5.0, 15.0),
                        help="seconds a person thinks before a move: LOW,HIGH")
    parser.add_argument("--opening", type=float, default=None,
                        help="seconds over which the tables are opened (default: 0.1 a table)")
    parser.add_argument("--patience", type=float, default=120.0,
                        help="seconds a table may show no new position before its people stop")
    parser.add_argument("--ai-delay", type=float, default=1.0,
                        help="seconds a computer waits before its move (the bot's default: 1)")
    parser.add_argument("--rate", default=None,
                        help="DECKHAND_GLOBAL_RATE for every process (default: unset)")
    parser.add_argument("--pg", default=None, help="a PostgreSQL server's address (default: "
                        "DECKHAND_TEST_PG, else a throwaway server)")
    parser.add_argument("--validate", action="store_true",
                        help="validate every request against the OpenAPI spec (slower)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    opening = args.opening if args.opening is not None else 0.1 * args.tables
    return asyncio.run(run(args.processes, args.tables, args.per_guild, args.moves, args.think,
                           opening, args.patience, args.ai_delay, args.rate, args.pg,
                           args.validate, args.seed))


if __name__ == "__main__":
    sys.exit(main())
