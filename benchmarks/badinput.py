"""Bad input: thousands of random, malformed, stale, foreign and duplicated interactions.

    .venv/bin/python benchmarks/badinput.py [--count 10000] [--concurrency 16] [--seed 1]
                                            [--games 1234,bhabhi,...]

On the simulated Discord (every request validated against the OpenAPI spec), tables of
different games are opened and started (two scripted people and computers at each, one table
left in its lobby, one finished and one cancelled so their messages are old). Then ``--count``
interactions are sent, ``--concurrency`` at a time, each of one kind:

- ``malformed``: custom ids that are not ours or are broken (random text, wrong field counts,
  letters for numbers, huge numbers, other prefixes, the records cog's ids with junk);
- ``forged``: well-formed ids with made-up tables, versions, arguments and values;
- ``foreign``: a table's current ids clicked on another table's message;
- ``stale``: current ids with an older state version;
- ``stranger``: current ids clicked by members not seated at the table;
- ``wrong-turn``: a seated player's move while another is to act;
- ``bad-select``: select menus with values not offered, too many or none;
- ``duplicate``: one real interaction (Hand, a move, joining, adding a computer) delivered
  twice with the same id and token, as a gateway replay would;
- ``bad-slash``: commands with option values outside their choices or ranges, unknown or
  unfinished tables, busy channels (option types and required options are enforced by
  Discord's API itself, so they are not sent wrong);
- ``old-message``: clicks on the old messages of finished and cancelled tables, on old private
  hands, and on deleted messages;
- ``random``: a real component of a visible message with random values, by a random member.

Checked: no unhandled exception (``client_errors``), no spec error, every interaction answered
in time (status ``ok``), and no state corrupted: each table's state equals a replay of its
stored actions and its message shows its version; then every table is played to its end through
its normal controls. Printed: counts by kind, answer p50/p99, problems. Exit status 1 on any.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import statistics
import string
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from bot.client.deckhand import Deckhand  # noqa: E402
from bot.tables import PLAYING  # noqa: E402
from bot.tables.model import Table  # noqa: E402
from tests.bot.fakegame import lookup  # noqa: E402
from tests.bot.sim_helpers import make_bot, table_message_of, table_of, verb_of  # noqa: E402
from tests.discord_sim import (  # noqa: E402
    InteractionResult,
    SimChannel,
    SimMessage,
    SimulatedDiscord,
    SimUser,
)
from tests.discord_sim.interactions import APPLICATION_COMMAND, MESSAGE_COMPONENT  # noqa: E402

KINDS = ("malformed", "forged", "foreign", "stale", "stranger", "wrong-turn", "bad-select",
         "duplicate", "bad-slash", "old-message", "random")
VERBS = ("join", "leave", "addc", "remc", "opts", "start", "cancel", "opt", "timer", "swap",
         "hand", "back", "manage", "over", "act", "pick", "set", "page", "view")
DEFAULT_GAMES = ("1234", "bhabhi", "sugekari-21", "bear", "twenty-two", "spar", "finesse",
                 "high-card")


class ErrorLog(logging.Handler):
    """Every ERROR record of the bot, its cogs and discord.py (the simulator's own capture
    covers discord.py's logger only)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        cause = ""
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            cause = f": {type(error).__name__}: {str(error)[:160]}"
        self.lines.append(f"{record.name}: {record.getMessage()[:160]}{cause}")


ERRORS = ErrorLog()


class StormDiscord(SimulatedDiscord):
    """The simulated Discord, able to deliver one interaction twice (same id and token)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.twice: set[int] = set()  # id() of interaction data to deliver twice

    def _active_gateway(self, guild_id: str | None = None) -> Any:
        session = super()._active_gateway(guild_id)
        sim = self

        class Twice:
            async def dispatch(self, event: str, payload: dict[str, Any]) -> None:
                await session.dispatch(event, payload)
                if event == "INTERACTION_CREATE" and id(payload.get("data")) in sim.twice:
                    await session.dispatch(event, payload)

        return Twice()

    async def settle(self, idle: float = 0.05, timeout: float = 10.0) -> None:
        """During the storm (result_idle 0) an interaction returns once answered: with many
        at once the bot is never quiet."""
        if idle == 0.0:
            return
        await super().settle(idle=idle, timeout=timeout)


@dataclass
class Place:
    """One table of the benchmark: channel, seated people, the bot's table id."""

    game: str
    channel: SimChannel
    people: list[SimUser]
    table_id: int = 0
    old_hands: list[SimMessage] = field(default_factory=list)


@dataclass
class Storm:
    """The world the interactions are sent into, and what came back."""

    sim: StormDiscord
    bot: Deckhand
    guild: Any
    places: list[Place]
    strangers: list[SimUser]
    lobby: Place
    old: list[Place]
    rng: random.Random
    results: list[tuple[str, InteractionResult]] = field(default_factory=list)
    deleted: list[SimMessage] = field(default_factory=list)
    lobby_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    lobby_model: tuple[int, frozenset[str]] = (0, frozenset())  # computers, strangers seated
    twice_applied: list[str] = field(default_factory=list)
    lobby_checks: int = 0

    async def lobby_twice(self) -> None:
        """Join, leave, add or remove a computer in the lobby, each delivered twice; then
        compare the lobby with the model, where each happened once."""
        rng = self.rng
        async with self.lobby_lock:
            computers, joined = self.lobby_model
            seats = 1 + computers + len(joined)
            host = self.lobby.people[0]
            options: list[tuple[str, SimUser]] = []
            if seats < 4:
                options.append(("addc", host))
                options += [("join", u) for u in self.strangers if u.id not in joined]
            if computers:
                options.append(("remc", host))
            options += [("leave", u) for u in self.strangers if u.id in joined]
            verb, user = rng.choice(options)
            if verb == "addc":
                computers += 1
            elif verb == "remc":
                computers -= 1
            elif verb == "join":
                joined = joined | {user.id}
            else:
                joined = joined - {user.id}
            self.lobby_model = (computers, joined)
            await self.component("duplicate", user, self.public(self.lobby),
                                 f"dh:{verb}:{self.lobby.table_id}:0:", twice=True)
            record = self.results[-1][1]._record
            limit = time.monotonic() + 0.3  # a second handling would come within this
            while time.monotonic() < limit and sum(
                    "/callback" in (r.route or "") for r in record.responses) < 2:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.02)
            table = self.table(self.lobby)
            if table is None:
                self.twice_applied.append("the lobby is gone")
                return
            have = (sum(s.computer for s in table.seats),
                    frozenset(str(s.user_id) for s in table.seats
                              if not s.computer and s.user_id != int(host.id)))
            self.lobby_checks += 1
            if have != self.lobby_model:
                self.twice_applied.append(f"{verb} delivered twice: lobby {have}, "
                                          f"expected {self.lobby_model}")
                self.lobby_model = have

    def note(self, kind: str, result: InteractionResult) -> None:
        self.results.append((kind, result))

    def table(self, place: Place) -> Table | None:
        return self.bot.manager.tables.get(place.table_id)

    def public(self, place: Place) -> SimMessage:
        # (a channel holds many tables: a /play of the storm opens another one there)
        # (a finished table's message names it in no button: the channel's last one then)
        found = (table_message_of(self.sim, place.channel, place.table_id)
                 or table_of(self.sim, place.channel))
        assert found is not None
        return found

    def members(self) -> list[SimUser]:
        return [u for p in self.places for u in p.people] + self.strangers

    def everyone(self) -> list[SimUser]:
        return [*self.members(), self.lobby.people[0]]

    # -- raw deliveries (what Discord's client would never send, sent anyway) ---------------
    async def component(self, kind: str, user: SimUser, message: SimMessage, custom_id: str,
                        values: list[str] | None = None, twice: bool = False) -> None:
        data: dict[str, Any] = {"custom_id": custom_id,
                                "component_type": 2 if values is None else 3}
        if values is not None:
            data["values"] = values
        channel = self.sim._channels[message.channel_id]
        if twice:
            self.sim.twice.add(id(data))
        try:
            current = self.sim._messages.get(message.id, message)
            r = await self.sim._interact(MESSAGE_COMPONENT, user, channel, data, message=current)
        finally:
            self.sim.twice.discard(id(data))
        self.note(kind, r)

    async def command(self, kind: str, user: SimUser, channel: SimChannel, name: str,
                      options: list[dict[str, Any]]) -> None:
        found = [c for c in self.sim.commands() if c["name"] == name]
        assert found, name
        data: dict[str, Any] = {"id": found[0]["id"], "name": name, "type": 1}
        if options:
            data["options"] = options
        self.note(kind, await self.sim._interact(APPLICATION_COMMAND, user, channel, data))


def junk(rng: random.Random, most: int = 100) -> str:
    """Random text: printable, unicode, or empty."""
    pool = string.printable + "日本語ｄｈ：０１é\u200b\u0000"
    return "".join(rng.choice(pool) for _ in range(rng.randint(0, most)))


def ids_on(message: SimMessage) -> list[dict[str, Any]]:
    """Every component with a custom id on a message (buttons and selects)."""
    return [b for b in message.buttons() if b.get("custom_id")] + list(message.selects())


def with_version(custom_id: str, version: int) -> str:
    parts = custom_id.split(":")
    if len(parts) == 5:
        parts[3] = str(max(0, version))
    return ":".join(parts)


def to_act_users(table: Table, place: Place) -> tuple[list[SimUser], list[SimUser]]:
    """(people to act, seated people not to act)."""
    state = table.state
    due = set() if state is None else set(state.to_act)
    acting = [u for u in place.people if table.seat_of(int(u.id)) in due]
    idle = [u for u in place.people if u not in acting and table.seat_of(int(u.id)) is not None]
    return acting, idle


async def shoot(storm: Storm, kind: str) -> None:
    """Send one interaction (two for a duplicate) of a kind."""
    rng = storm.rng
    place = rng.choice(storm.places)
    table = storm.table(place)
    message = storm.public(place)
    version = table.version if table is not None else 0
    tid = place.table_id
    anyone = rng.choice(storm.members())
    if kind == "malformed":
        custom_id = rng.choice([
            junk(rng), "dh", "dh:", "dh:act", f"dh:act:{tid}", f"dh:act:{tid}:{version}",
            f"dh:act:x:{version}:0", f"dh:act:{tid}:{version}:0:extra", f"DH:ACT:{tid}:0:0",
            f"dh:act:-{tid}:0:0", f"dh:act:{'9' * 40}:0:0", f"dh:act:{tid}:{'9' * 30}:0",
            f"dh:act:{tid}:{version}:{'1' * 70}", f"dh:act:１:{version}:0", "dh:::::",
            f"dh:nope:{tid}:0:0", f"dhs:{junk(rng, 20)}", f"dhs:lb:{junk(rng, 10)}:0:a",
            f"dhs:rp:{'9' * 25}:0:a", f"dhs:fg:me:{rng.choice(storm.members()).id}:a",
            f"dhs:lb:*:{'9' * 21}:z", "x" * 100, f"dh:hand:{tid}:{version}:\u0000",
        ])
        values = None if rng.random() < 0.6 else [junk(rng, 30) for _ in range(rng.randint(0, 4))]
        await storm.component(kind, anyone, message, custom_id, values)
    elif kind == "forged":
        verb = rng.choice(VERBS)
        table_part = rng.choice([tid, tid + 1000, 0, rng.randint(1, 10**12)])
        if verb in ("act", "pick", "set", "page", "view", "hand", "over") and rng.random() < 0.2:
            table_part = storm.lobby.table_id  # moves at a table still in its lobby
        ver = rng.choice([version, version + 1, version + 1000, 0, rng.randint(0, 10**9 - 1)])
        arg = rng.choice(["", "0", "1", "99", "9" * 18, "-1", "1.2", "abc", "0.0", "99.99",
                          "random", "hand", "target", "dealer", "x" * 60, "0-1", "_", "=,"])
        custom_id = f"dh:{verb}:{table_part}:{ver}:{arg}"
        values = None
        if rng.random() < 0.5:
            values = [rng.choice(["0", "1", "99", "-1", "0-1", "0-9", "a-b", "true", "fast",
                                  "slow", "random", "", "9" * 30, junk(rng, 10)])
                      for _ in range(rng.randint(0, 3))]
        user = rng.choice([*place.people, anyone])
        if verb in ("cancel", "over") and user is place.people[0]:
            user = place.people[1]  # the host may cancel or hand a seat over: not bad input
        await storm.component(kind, user, message, custom_id, values)
    elif kind == "foreign":
        other = rng.choice([p for p in storm.places if p is not place] or [place])
        theirs = ids_on(storm.public(other)) or [{"custom_id": f"dh:hand:{other.table_id}:0:"}]
        chosen = rng.choice(theirs)
        user = rng.choice(place.people + other.people)
        values = [o["value"] for o in chosen.get("options", [])][:1] if "options" in chosen \
            else None
        await storm.component(kind, user, message, chosen["custom_id"], values)
    elif kind == "stale":
        if table is None or version == 0:
            await storm.component(kind, rng.choice(place.people), message,
                                  f"dh:hand:{tid}:{version + 5}:")
            return
        acting, idle = to_act_users(table, place)
        user = rng.choice(acting or idle or place.people)
        old = max(0, version - rng.randint(1, 5))
        verb = rng.choice(["act", "act", "pick", "set", "page", "view", "hand", "over"])
        values = None
        if verb in ("pick", "set", "over"):
            values = ["0"]
        arg = {"act": "0", "pick": "0.0", "set": "play", "page": "0.1", "view": ""}.get(verb, "")
        await storm.component(kind, user, message, f"dh:{verb}:{tid}:{old}:{arg}", values)
    elif kind == "stranger":
        user = rng.choice(storm.strangers)
        target = rng.choice([place, storm.lobby])
        shown = storm.public(target)
        current = [c["custom_id"] for c in ids_on(shown)]
        custom_id = rng.choice([*current, f"dh:act:{target.table_id}:{version}:0",
                                f"dh:back:{target.table_id}:{version}:",
                                f"dh:opts:{target.table_id}:0:"])
        if verb_of(custom_id) in ("join", "leave"):  # a stranger may join a lobby: no bad input
            custom_id = f"dh:start:{target.table_id}:0:"
        values = ["0"] if verb_of(custom_id) in ("over", "pick", "swap", "timer", "opt") else None
        await storm.component(kind, user, shown, custom_id, values)
    elif kind == "wrong-turn":
        if table is None:
            return await shoot(storm, "forged")
        acting, idle = to_act_users(table, place)
        if not idle:
            return await shoot(storm, "stale")
        user = rng.choice(idle)
        verb = rng.choice(["act", "pick"])
        arg = "0" if verb == "act" else "0.0"
        await storm.component(kind, user, message, f"dh:{verb}:{tid}:{version}:{arg}",
                              ["0"] if verb == "pick" else None)
    elif kind == "bad-select":
        verb = rng.choice(["pick", "set", "opt", "timer", "swap", "over"])
        target = storm.lobby if verb in ("opt", "timer", "swap") else place
        user = (target.people[0] if target is storm.lobby
                else rng.choice(place.people))
        ver = version if target is place else 0
        arg = {"pick": "0.0", "set": rng.choice(["play", "discard", "bid", junk(rng, 8)]),
               "opt": rng.choice(["hand", "mode", "teams", "nope"]), }.get(verb, "")
        arg = "".join(c for c in arg if c.isalnum() or c in "_.=,-")[:60]
        values = rng.choice([
            [], ["999"], ["-1"], [str(10**30)], ["abc"], [str(i) for i in range(30)],
            ["9-9"], ["0-0"], ["1-"], ["slow"], ["3.5"], [junk(rng, 40)],
        ])
        await storm.component(kind, user, storm.public(target),
                              f"dh:{verb}:{target.table_id}:{ver}:{arg}", values)
    elif kind == "duplicate":
        roll = rng.random()
        if roll < 0.4:  # a lobby change delivered twice must happen once
            await storm.lobby_twice()
        elif table is not None:
            acting, idle = to_act_users(table, place)
            user = rng.choice(acting or idle or place.people)
            await storm.component(kind, user, message, f"dh:hand:{tid}:{version}:", twice=True)
            kept = storm.results[-1][1].message
            if kept is not None and acting and user in acting:
                moves = [b["custom_id"] for b in kept.buttons()
                         if verb_of(b["custom_id"]) == "act"]
                if moves:
                    await storm.component(kind, user, kept, rng.choice(moves), twice=True)
    elif kind == "bad-slash":
        user = anyone
        roll = rng.randrange(7)
        if roll == 0:
            await storm.command(kind, user, place.channel, "play", [
                {"name": "game", "type": 3, "value": rng.choice(
                    ["nope", "", "x" * 100, "../../etc", "1234 ", "HIGH-CARD", junk(rng, 30)])}])
        elif roll == 1:
            await storm.command(kind, user, place.channel, "play", [
                {"name": "game", "type": 3, "value": place.game}])  # the channel is busy
        elif roll == 2:
            await storm.command(kind, user, place.channel, "rules", [
                {"name": "game", "type": 3, "value": junk(rng, 40)}])
        elif roll == 3:
            await storm.command(kind, user, place.channel, "replay", [
                {"name": "id", "type": 4, "value": rng.choice(
                    [0, -5, 2**53, tid, 987654])}])
        elif roll == 4:
            await storm.command(kind, user, place.channel, "leaderboard", [
                {"name": "game", "type": 3, "value": rng.choice(["nope", "", junk(rng, 20)])}])
        elif roll == 5:  # a table that is not finished has no replay
            await storm.command(kind, user, place.channel, "replay", [
                {"name": "id", "type": 4, "value": rng.choice([tid, storm.lobby.table_id])}])
        else:  # the lobby's channel is busy, and the game is not one of the choices
            await storm.command(kind, user, storm.lobby.channel, "play", [
                {"name": "game", "type": 3, "value": rng.choice(["bridge", "1234x", " "])}])
    elif kind == "old-message":
        roll = rng.random()
        if roll < 0.4:
            old = rng.choice(storm.old)
            shown = storm.public(old)
            current = [c["custom_id"] for c in ids_on(shown)] or [
                f"dh:hand:{old.table_id}:3:", f"dh:start:{old.table_id}:0:",
                f"dh:join:{old.table_id}:0:"]
            await storm.component(kind, rng.choice([*old.people, anyone]), shown,
                                  rng.choice(current))
        elif roll < 0.8:
            hands = [m for p in storm.places for m in p.old_hands]
            if not hands:
                return await shoot(storm, "stale")
            hand = rng.choice(hands)
            owner = next(u for u in storm.members() if u.id == hand.interaction_user_id)
            controls = [c["custom_id"] for c in ids_on(hand)] or [f"dh:act:{tid}:0:0"]
            await storm.component(kind, owner, hand, rng.choice(controls))
        else:
            if not storm.deleted:
                return await shoot(storm, "stale")
            gone = rng.choice(storm.deleted)
            controls = [c["custom_id"] for c in ids_on(gone)] or [f"dh:hand:{tid}:0:"]
            await storm.component(kind, rng.choice(storm.members()), gone, rng.choice(controls))
    else:  # random: a real component, random values, a random member (never the hosts)
        target = rng.choice(storm.places)
        shown = storm.public(target)
        controls = ids_on(shown)
        if not controls:
            return await shoot(storm, "stale")
        chosen = rng.choice(controls)
        user = rng.choice([u for u in storm.members() if u is not target.people[0]])
        if verb_of(chosen["custom_id"]) == "cancel":
            return await shoot(storm, "stranger")
        values = None
        if "options" in chosen:
            offered = [o["value"] for o in chosen["options"]]
            values = rng.sample(offered, min(len(offered), chosen.get("max_values", 1)))
        await storm.component(kind, user, shown, chosen["custom_id"], values)


# -- setting the tables up, through the normal controls ---------------------------------------
def find(message: SimMessage, verb: str) -> str:
    for component in ids_on(message):
        if verb_of(component["custom_id"]) == verb:
            return str(component["custom_id"])
    raise AssertionError(f"no {verb} on {message.content!r}")


async def open_table(sim: SimulatedDiscord, place: Place, seats: int, start: bool = True) -> None:
    host = place.people[0]
    r = await sim.slash(host, place.channel, "play", {"game": place.game})
    assert r.status == "ok", r
    for user in place.people[1:]:
        shown = table_of(sim, place.channel)
        assert shown is not None
        await sim.click(user, shown, find(shown, "join"))
    for _ in range(seats - len(place.people)):
        shown = table_of(sim, place.channel)
        assert shown is not None
        await sim.click(host, shown, find(shown, "addc"))
    shown = table_of(sim, place.channel)
    assert shown is not None
    place.table_id = int(find(shown, "start").split(":")[2])
    if start:
        r = await sim.click(host, shown, find(shown, "start"))
        assert r.status == "ok", r


async def play_move(sim: SimulatedDiscord, bot: Deckhand, place: Place,
                    rng: random.Random) -> bool:
    """One move through the normal controls by the person to act; False when none is due."""
    table = bot.manager.tables.get(place.table_id)
    if table is None or table.status != PLAYING or table.state is None:
        return False
    acting = [u for u in place.people if table.seat_of(int(u.id)) in table.state.to_act]
    if not acting:
        return False
    user = acting[0]
    shown = table_message_of(sim, place.channel, place.table_id)
    assert shown is not None
    if not any(verb_of(c["custom_id"]) == "hand" for c in ids_on(shown)):
        raise AssertionError(f"table {place.table_id}: its message has no Hand button: "
                             f"{shown.content[:80]!r} {ids_on(shown)}")
    hand = (await sim.click(user, shown, find(shown, "hand"))).message
    if hand is None:
        return False
    place.old_hands.append(hand)
    for _ in range(6):  # pages, groups and confirmations until a move is made
        buttons = [b for b in hand.buttons() if not b.get("disabled")]
        acts = [b for b in buttons if verb_of(b["custom_id"]) == "act"]
        picks = [s for s in hand.selects() if verb_of(s["custom_id"]) in ("pick", "set")]
        if acts:
            r = await sim.click(user, hand, rng.choice(acts)["custom_id"])
            return r.status == "ok"
        if picks:
            menu = rng.choice(picks)
            offered = [o["value"] for o in menu["options"]]
            size = rng.randint(menu.get("min_values", 1), menu.get("max_values", 1))
            r = await sim.select(user, hand, menu["custom_id"], rng.sample(offered, size))
            if r.message is None or r.message.id != hand.id:
                return r.status == "ok"
            if bot.manager.tables.get(place.table_id) is not table or \
                    table.version != int(menu["custom_id"].split(":")[3]):
                return True  # a one-card pick was the move
            hand = r.message
            continue
        pages = [b for b in buttons if verb_of(b["custom_id"]) == "page"]
        if not pages:
            return False
        hand = (await sim.click(user, hand, pages[0]["custom_id"])).message or hand
    return False


# -- checks -----------------------------------------------------------------------------------
async def corrupted(bot: Deckhand, sim: SimulatedDiscord, place: Place) -> list[str]:
    """What differs between a table in memory, its stored actions and its message."""
    problems: list[str] = []
    table = bot.manager.tables.get(place.table_id)
    row = await bot.store.table(place.table_id)
    if row is None:
        return [f"table {place.table_id}: not stored"]
    if table is None:
        return []  # finished or cancelled: checked by its stored result
    if row.status != table.status or row.seats != [s.to_dict() for s in table.seats] \
            or row.options != table.options:
        problems.append(f"table {table.id}: stored lobby/seats differ from memory")
    if table.state is None:
        return problems
    actions = await bot.store.actions(table.id)
    replay = table.rules.new_game(len(table.seats), seed=table.seed, options=table.options)
    for a in actions:
        replay.apply(a.seat, a.action)
    if len(actions) != table.version or [a.idx for a in actions] != list(range(len(actions))):
        problems.append(f"table {table.id}: version {table.version}, {len(actions)} actions")
    for seat in [None, *range(len(table.seats))]:
        if json.dumps(replay.view(seat).to_dict(), sort_keys=True, default=str) != json.dumps(
                table.state.view(seat).to_dict(), sort_keys=True, default=str):
            problems.append(f"table {table.id}: seat {seat}'s view differs from the replay")
    if tuple(replay.to_act) != tuple(table.state.to_act):
        problems.append(f"table {table.id}: to act differs from the replay")
    shown = table_message_of(sim, place.channel, place.table_id)
    hand_ids = [c["custom_id"] for c in ids_on(shown)] if shown else []
    versions = {int(c.split(":")[3]) for c in hand_ids if verb_of(c) == "hand"}
    if versions != {table.version}:
        problems.append(f"table {table.id}: message shows versions {versions}, "
                        f"table is at {table.version}")
    return problems


PUBLIC_VERBS = {"join", "leave", "addc", "remc", "opts", "start", "cancel", "hand", "back",
                "manage"}


def private_on_public(sim: SimulatedDiscord, sent: list[tuple[str, InteractionResult]],
                      public_ids: set[str]) -> list[str]:
    """Interactions whose answer put private controls (a hand, a confirmation, a host's menu)
    onto a table's public message."""
    found = []
    for kind, result in sent:
        record = result._record
        if record.message_id not in public_ids:
            continue
        for request in record.responses:
            body = request.json if isinstance(request.json, dict) else {}
            if body.get("type") != 7 or (request.status or 0) >= 300:
                continue
            data = body.get("data") or {}
            verbs = {verb_of(c.get("custom_id")) for row in data.get("components") or []
                     for c in row.get("components") or []}
            wrong = verbs - PUBLIC_VERBS - {""}
            if wrong:
                custom_id = (record.payload.get("data") or {}).get("custom_id")
                found.append(f"{kind} {custom_id!r} by {record.user.name} put {sorted(wrong)} "
                             f"on the public message: {str(data.get('content'))[:60]!r}")
    return found


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def run(count: int, concurrency: int, seed: int, game_ids: list[str],
              finish_moves: int) -> int:
    rng = random.Random(seed)
    logging.getLogger().addHandler(ERRORS)
    known = [*games.ids(), "high-card"]
    game_ids = [g for g in game_ids if g in known]
    async with StormDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Storm Server", locale="en-US")
        manager = sim.add_user("Manager")
        sim.add_member(guild, manager, manage_guild=True)

        def person(name: str) -> SimUser:
            user = sim.add_user(name)
            sim.add_member(guild, user)
            return user

        places = [Place(g, sim.add_channel(guild, f"t-{i}-{g}"),
                        [person(f"p{i}a"), person(f"p{i}b")]) for i, g in enumerate(game_ids)]
        lobby = Place("high-card", sim.add_channel(guild, "lobby"), [person("host")])
        old = [Place("high-card", sim.add_channel(guild, f"old-{i}"),
                     [person(f"o{i}a"), person(f"o{i}b")]) for i in range(2)]
        strangers = [person(f"s{i}") for i in range(4)]
        with tempfile.TemporaryDirectory() as tmp:
            bot = await make_bot(Path(tmp) / "storm.sqlite3", ai_delay=0.02)
            try:
                return await storm_and_check(sim, bot, guild, places, strangers, lobby, old,
                                             rng, count, concurrency, game_ids, finish_moves)
            finally:
                await sim.stop_bot()
                await bot.manager.close()
                await bot.store.close()


async def storm_and_check(sim: StormDiscord, bot: Deckhand, guild: Any, places: list[Place],
                          strangers: list[SimUser], lobby: Place, old: list[Place],
                          rng: random.Random, count: int, concurrency: int,
                          game_ids: list[str], finish_moves: int) -> int:
    """Set the tables up, send the storm, check, play every table to its end."""
    await sim.start(bot)
    storm = Storm(sim, bot, guild, places, strangers, lobby, old, rng)
    for place in places:
        seats = lookup(place.game).usual_players
        await open_table(sim, place, max(seats, 2))
    await open_table(sim, lobby, 1, start=False)
    await open_table(sim, old[0], 2)  # played to its end below
    await open_table(sim, old[1], 3)  # cancelled by its host
    shown = table_of(sim, old[1].channel)
    assert shown is not None
    await sim.click(old[1].people[0], shown, find(shown, "manage"))
    menu = sim.ephemerals(old[1].people[0])[-1]
    await sim.click(old[1].people[0], menu, find(menu, "cancel"))
    await sim.settle(idle=0.1)
    for _ in range(200):
        if not await play_move(sim, bot, old[0], rng):
            await sim.settle(idle=0.05)
            if bot.manager.tables.get(old[0].table_id) is None:
                break
    for place in places:  # a move or two each, so there are old hands and versions
        for _ in range(2):
            await play_move(sim, bot, place, rng)
    await sim.settle(idle=0.1)
    for place in places[: max(1, len(places) // 3)]:  # messages gone from the channel
        if place.old_hands:
            gone = place.old_hands[0]
            sim._messages[gone.id].deleted = True
            storm.deleted.append(gone)
    sent_before = len(storm.results)

    # -- the storm --
    sim.result_idle = 0.0
    began = time.perf_counter()
    failures: list[str] = []
    in_flight = 0

    async def worker() -> None:
        # Until ``count`` interactions have been sent: a shot that finds nothing to aim at
        # sends nothing and is not counted.
        nonlocal in_flight
        while len(storm.results) - sent_before + in_flight < count:
            in_flight += 1
            kind = rng.choice(KINDS)
            try:
                await shoot(storm, kind)
            except AssertionError as exc:  # the benchmark's own mistake: count it
                failures.append(f"{kind}: {exc}")
            finally:
                in_flight -= 1

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    await sim.settle(idle=0.2, timeout=60)
    wall = time.perf_counter() - began
    sent = storm.results[sent_before:]

    # -- checks --
    problems: list[str] = []
    by_kind = Counter(k for k, _ in sent)
    bad_status = Counter((k, r.status) for k, r in sent if r.status != "ok")
    times = [(r._record.callback_time - r._record.created) * 1000 for _, r in sent
             if r._record.callback_time is not None]
    for place in [*places, lobby]:
        problems += await corrupted(bot, sim, place)
    public_ids = {m.id for p in [*places, lobby, *old] for m in sim.messages(p.channel)}
    problems += private_on_public(sim, sent, public_ids)
    for place in old:
        row = await bot.store.table(place.table_id)
        if row is None or row.status not in ("finished", "cancelled"):
            problems.append(f"old table {place.table_id} reopened: {row}")

    # -- every table still plays to its end --
    sim.result_idle = 0.05
    lobby_shown = table_of(sim, lobby.channel)
    assert lobby_shown is not None
    lobby_table = bot.manager.tables.get(lobby.table_id)
    if lobby_table is not None and lobby_table.status == "lobby":
        while len(lobby_table.seats) < 2:
            await sim.click(lobby.people[0], lobby_shown, find(lobby_shown, "addc"))
        r = await sim.click(lobby.people[0], lobby_shown, find(lobby_shown, "start"))
        if r.status != "ok":
            problems.append(f"lobby did not start: {r}")
        lobby.people = [u for u in storm.everyone()
                        if lobby_table.seat_of(int(u.id)) is not None]
    unfinished = []
    for place in [*places, lobby]:
        last_version, last_change = -1, time.monotonic()
        for _ in range(finish_moves):
            table = bot.manager.tables.get(place.table_id)
            if table is None:
                break
            if table.version != last_version:
                last_version, last_change = table.version, time.monotonic()
            elif time.monotonic() - last_change > 30.0:
                break  # no move for half a minute: stuck
            try:
                moved = await play_move(sim, bot, place, rng)
            except AssertionError as exc:
                problems.append(str(exc))
                break
            if not moved:
                await asyncio.sleep(0.05)
        await sim.settle(idle=0.05)
        row = await bot.store.table(place.table_id)
        if row is None or row.status != "finished":
            table = bot.manager.tables.get(place.table_id)
            waiting = "" if table is None or table.state is None else (
                f", waiting for {[table.seats[s] for s in table.state.to_act]}, computer task "
                f"{table.drive_task}")
            unfinished.append(f"{place.game} (table {place.table_id}, "
                              f"{row.status if row else '?'}{waiting})")
    await sim.settle(idle=0.2, timeout=60)

    print(f"{len(sent)} bad interactions in {wall:.1f} s at {concurrency} at a time "
          f"on {len(places)} tables ({', '.join(game_ids)}), 1 lobby, 2 old tables")
    print("by kind: " + ", ".join(f"{k} {by_kind[k]}" for k in KINDS))
    if times:
        print(f"answer (interaction -> callback): p50 {statistics.median(times):.1f} ms, "
              f"p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms")
    print(f"duplicated lobby changes checked: {storm.lobby_checks}, applied twice: "
          f"{len(storm.twice_applied)}")
    print(f"not answered in time: {sum(bad_status.values())} {dict(bad_status)}")
    print(f"errors logged: {len(ERRORS.lines)} (discord.py's: {len(sim.client_errors)}); "
          f"spec errors: {len(sim.spec_errors)}; corrupted: {len(problems)}; "
          f"unfinished after play: {len(unfinished)}; benchmark failures: {len(failures)}")
    for line, times_seen in Counter(ERRORS.lines).most_common(12):
        print(f"  error x{times_seen}: {line}")
    for spec_error in sim.spec_errors[:5]:
        print("  spec:", spec_error)
    for line in problems[:10] + unfinished + failures[:5] + storm.twice_applied[:5]:
        print("  problem:", line)
    broken = (ERRORS.lines or sim.client_errors or sim.spec_errors or bad_status or problems
              or unfinished or failures or storm.twice_applied)
    return 1 if broken else 0


def main() -> int:
    """Parse arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(DEFAULT_GAMES))
    parser.add_argument("--finish-moves", type=int, default=20_000,
                        help="at most this many steps per table when playing it to its end")
    args = parser.parse_args()
    return asyncio.run(run(args.count, args.concurrency, args.seed,
                           args.games.split(","), args.finish_moves))


if __name__ == "__main__":
    sys.exit(main())
