"""Running the real bot against the simulated Discord, and acting as its users."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import games
from bot.client.deckhand import Deckhand
from bot.config import Settings
from bot.storage.store import Storage
from bot.tables import ManualClock
from tests.bot.fakegame import RULES as HIGH_CARD
from tests.bot.fakegame import lookup
from tests.discord_sim import SimChannel, SimGuild, SimMessage, SimulatedDiscord, SimUser

#: the database of the bots that :func:`world` starts: a PostgreSQL address, or None for a
#: SQLite file in the test's tmp_path (set by the ``backend`` fixture of conftest.py)
DATABASE: str | None = None


def game_ids() -> list[str]:
    """Every registered game and the test game."""
    return [*games.ids(), HIGH_CARD.id]


async def make_bot(db: Path | str, ai_delay: float = 0.0, timer_scale: float = 1.0,
                   edit_gap: float = 0.0, *, clock: ManualClock | None = None,
                   ai_level: str = "normal", global_rate: float = 0.0) -> Deckhand:
    """A bot on a database (a file or a PostgreSQL address), with no computer pause; its
    service on ``clock`` (a test's manual clock: a deadline passes when the test moves it),
    else on its own; keeping to ``global_rate`` requests a second (0: no budget)."""
    settings = Settings(token="sim-token", db_path=str(db), ai_delay=ai_delay,
                        timer_scale=timer_scale, ai_level=ai_level, edit_gap=edit_gap,
                        global_rate=global_rate)
    store = await Storage.open(settings.db_path)
    return Deckhand(settings, store, rules_for=lookup, game_ids=game_ids, clock=clock)


@dataclass
class World:
    """A simulated server with a channel, some members and the running bot."""

    sim: SimulatedDiscord
    guild: SimGuild
    channel: SimChannel
    users: list[SimUser]
    bot: Deckhand
    db: str
    bots: list[Deckhand] = field(default_factory=list)
    #: the manual clock the bots run on (None: their own), kept across restarts
    clock: ManualClock | None = None
    #: the rest of what :func:`make_bot` was given, kept across restarts
    making: dict[str, Any] = field(default_factory=dict)

    async def restart(self, down: float = 0.0) -> Deckhand:
        """Stop the bot abruptly and start a new one on the same database, made as the one
        before (its clock too). On a manual clock, the old bot's services stop first (the
        clock is shared: nothing of the dead process may act when it moves) and the clock
        moves on by ``down`` seconds, the time the bot was down."""
        await self.sim.stop_bot()
        if self.clock is not None:
            await self.bot.tournaments.close()
            await self.bot.manager.close()
            self.clock.advance(down)
        elif down:
            raise ValueError("only a world on a manual clock can be down a while")
        await self.bot.store.close()
        self.bot = await make_bot(self.db, clock=self.clock, **self.making)
        self.bots.append(self.bot)
        await self.sim.start(self.bot)
        await self.sim.settle(idle=0.2)
        return self.bot

    def table_message(self) -> SimMessage:
        """The whole table's message of the last table: in its thread when it has one, else
        the last message the bot posted in the channel that is not a turn alert."""
        found = table_of(self.sim, self.channel)
        assert found is not None
        return found

    async def table_showing(self, text: str, timeout: float = 10.0) -> str:
        """The table message's embeds and text once they show ``text`` (its last state if they
        never do). The bot draws the table's picture before it edits, with no request in flight
        meanwhile: on a loaded machine ``settle`` may return before the edit."""
        limit = time.monotonic() + timeout
        while True:
            await self.sim.settle()
            message = self.table_message()
            shown = str(message.embeds) + message.content
            if text in shown or time.monotonic() > limit:
                return shown
            await asyncio.sleep(0.05)

    def channel_message(self) -> SimMessage:
        """The last table's message in the channel (compact when the table is in a thread)."""
        found = [m for m in self.sim.messages(self.channel) if not is_alert(m)]
        assert found
        return found[-1]

    def thread(self, table: SimMessage | None = None) -> SimChannel:
        """The thread started from a table's channel message (the last table's by
        default)."""
        return thread_of(self.sim, table or self.channel_message())


REPLY = 19  # a message's type when it replies to another: the turn alerts
THREAD_STARTER = 21  # a thread's first message when the thread started from a message


def is_alert(message: SimMessage) -> bool:
    """Whether a message of a channel is a turn alert (a reply to the table message)."""
    return message.type == REPLY


def thread_of(sim: SimulatedDiscord, table: SimMessage) -> SimChannel:
    """The thread started from a table message (a thread from a message takes its id)."""
    found = [th for th in sim.threads_in(sim.channel(table.channel_id))
             if th.id == table.id]
    assert found, f"no thread started from the table message {table.id}"
    return found[0]


def table_of(sim: SimulatedDiscord, channel: SimChannel) -> SimMessage | None:
    """The whole table's message of a channel's last table: the board in its thread, or the
    last message in the channel that is not a turn alert."""
    found = [m for m in sim.messages(channel) if not is_alert(m)]
    if not found:
        return None
    return board_of(sim, found[-1]) or found[-1]


def table_message_of(sim: SimulatedDiscord, channel: SimChannel,
                     table_id: int) -> SimMessage | None:
    """The whole table's message of one table of a channel that holds many (its board in its
    thread, or its message in the channel); None when no message of the channel names it."""
    mine = [m for m in sim.messages(channel)
            if not is_alert(m) and str(table_id) in tables_named(m)]
    if not mine:
        return None
    return board_of(sim, mine[-1]) or mine[-1]


def board_of(sim: SimulatedDiscord, message: SimMessage) -> SimMessage | None:
    """The whole table's message in the thread started from a table's channel message (the
    first message there of the same table that is not a turn alert: posted as the thread
    opens), or None."""
    threads = [th for th in sim.threads_in(sim.channel(message.channel_id))
               if th.id == message.id and not th.locked]  # (locked: the table left it)
    table = tables_named(message)
    for thread in threads:
        for m in sim.messages(thread):
            if m.type != THREAD_STARTER and not is_turn_alert(m) and (
                    not table or tables_named(m) in (table, set())):
                return m
    return None


def edits_of(sim: SimulatedDiscord, message: SimMessage, since: int = 0) -> list[Any]:
    """The requests that edited a message from request ``since`` on: by the bot's token
    (``PATCH /channels/.../messages/{id}``) or through an interaction's token whose original
    response it is (``PATCH /webhooks/.../messages/@original``)."""
    return [q for q in sim.requests[since:] if q.method == "PATCH"
            and isinstance(q.response, dict) and str(q.response.get("id")) == str(message.id)]


def tables_named(message: SimMessage) -> set[str]:
    """The table ids a message's buttons name (``dh:<verb>:<table>:...``)."""
    return {str(b.get("custom_id")).split(":")[2] for b in message.buttons()
            if str(b.get("custom_id", "")).startswith("dh:")
            and len(str(b.get("custom_id")).split(":")) > 2}


def is_turn_alert(message: SimMessage) -> bool:
    """Whether a message is a turn alert: a Hand button and nothing of the table's."""
    verbs = {verb_of(b.get("custom_id")) for b in message.buttons()}
    return "hand" in verbs and not message.embeds and "manage" not in verbs


def alerts_in(sim: SimulatedDiscord, channel: SimChannel) -> list[SimMessage]:
    """The turn alerts a channel shows now: in a table's thread, its messages with a Hand
    button (the thread's other lines are results); in a channel, the replies."""
    if channel.is_thread:
        return [m for m in sim.messages(channel) if is_turn_alert(m)]
    return [m for m in sim.messages(channel) if is_alert(m)]


@asynccontextmanager
async def world(tmp_path: Path, people: int = 4, locale: str = "en-US",
                ai_delay: float = 0.0, timer_scale: float = 1.0, edit_gap: float = 0.0,
                clock: ManualClock | None = None, ai_level: str = "normal",
                global_rate: float = 0.0) -> AsyncIterator[World]:
    """A running bot in a simulated server; on ``clock`` when given (see :func:`make_bot`)."""
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Test Server", locale=locale)
        channel = sim.add_channel(guild, "cards")
        users = []
        for i, name in enumerate(["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"][:people]):
            user = sim.add_user(name, locale="en-US")
            sim.add_member(guild, user, manage_guild=(i == people - 1))
            users.append(user)
        db = DATABASE or str(tmp_path / "deckhand.sqlite3")
        making: dict[str, Any] = {"ai_delay": ai_delay, "timer_scale": timer_scale,
                                  "edit_gap": edit_gap, "ai_level": ai_level,
                                  "global_rate": global_rate}
        bot = await make_bot(db, clock=clock, **making)
        await sim.start(bot)
        here = World(sim, guild, channel, users, bot, db, [bot], clock, making)
        try:
            yield here
        finally:
            await sim.stop_bot()
            await here.bot.tournaments.close()
            await here.bot.manager.close()
            await here.bot.store.close()


def button(message: SimMessage, verb: str) -> dict[str, Any]:
    """The button of a message whose custom id has that verb."""
    for found in message.buttons():
        if str(found.get("custom_id", "")).split(":")[1:2] == [verb]:
            return found
    raise AssertionError(f"no {verb!r} button on {message.buttons()}")


EPHEMERAL = 64


def verb_of(custom_id: object) -> str:
    """The verb of one of the bot's custom ids ('' for anything else)."""
    parts = str(custom_id or "").split(":")
    return parts[1] if len(parts) == 5 and parts[0] == "dh" else ""


async def choose_options(sim: SimulatedDiscord, host: SimUser, table: SimMessage,
                         options: dict[str, str]) -> None:
    """The host sets a lobby's options as a person does: the Options menu from the table
    message, each option's menu found (paging with Options), its value chosen; each choice
    answers on the menu's own message."""
    r = await sim.click(host, table, button(table, "opts")["custom_id"])
    menu = r.message
    assert menu is not None and menu.ephemeral
    for name, value in options.items():
        found: list[dict[str, Any]] = []
        for _ in range(5):
            found = [s for s in menu.selects() if s["custom_id"].endswith(":" + name)]
            if found:
                break
            r = await sim.click(host, menu, button(menu, "opts")["custom_id"])
            assert r.message is not None
            menu = r.message
        assert found, f"no menu for option {name}"
        r = await sim.select(host, menu, found[0]["custom_id"], [value])
        assert r.status == "ok" and r.message is not None and r.message.id == menu.id, r
        menu = r.message


def is_public(sim: SimulatedDiscord, request: Any, channel: SimChannel) -> bool:
    """Whether a captured request shows something to everyone in the guild channel."""
    body: dict[str, Any] = request.json if isinstance(request.json, dict) else {}
    inner = body.get("data")
    data: dict[str, Any] = inner if isinstance(inner, dict) else body
    if int(data.get("flags") or 0) & EPHEMERAL:
        return False
    if request.interaction_id is not None:
        record = sim._interactions.get(request.interaction_id)
        if record is None:
            return True
        # (a message edited through an interaction's token is shown where it is: a table
        # message may be, in another channel than the one looked at)
        if body.get("type") == 7 and record.message_id is not None:
            message = sim.message(record.message_id)
            return not message.ephemeral and in_channel(sim, message.channel_id, channel)
        if record.original_message_id is not None and "@original" in request.path:
            message = sim.message(record.original_message_id)
            return not message.ephemeral and in_channel(sim, message.channel_id, channel)
        return in_channel(sim, record.channel.id, channel)
    found = re.search(r"/channels/(\d+)/", request.path)
    return found is not None and in_channel(sim, found.group(1), channel)


def in_channel(sim: SimulatedDiscord, channel_id: str, channel: SimChannel) -> bool:
    """Whether a channel id is the channel or one of its threads (everyone sees a public
    thread: a table in a thread shows itself there)."""
    if str(channel_id) == channel.id:
        return True
    try:
        found = sim.channel(str(channel_id))
    except KeyError:
        return False
    return found.parent_id == channel.id


class PublicCards:
    """A listener keeping every card that has ever been public at any table (view or event)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    async def __call__(self, update: Any) -> None:
        import json

        public = update.position.public
        if public is not None:
            text = json.dumps(public)
            self.seen.update(re.findall(r'"([2-9TJQKA][SHDC]|[RB]J)"', text))
        for move in update.moves:
            for event in move.events:
                self.seen.update(str(c) for c in event.for_seat(None).cards)


def hidden_cards(bot: Any, public: PublicCards) -> set[str]:
    """Cards in some hand now that have never been public: no public request may show them."""
    found: set[str] = set()
    for table in bot.manager.tables.values():
        state = table.state
        if state is None:
            continue
        for seat in range(state.players):
            found.update(code for code in state.view(seat)["hand"] if code not in public.seen)
    return found


def card_forms(code: str) -> list[str]:
    """How a card could be written in a message: its code and its pretty form."""
    from games.cards import parse, pretty

    return [code, pretty(parse(code))]

