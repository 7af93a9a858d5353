"""The web table's sockets: one per viewer, grouped per table, fed from the service's events.

A viewer's socket speaks the messages of docs/design/activity.md. The service's events reach
:meth:`Viewers.on_event`, which only notes the table's news and marks the table: a task of the
table then takes each seat's position (one per seat watched, one for the spectators) and
queues every viewer its own model — the public part made once per version and language, the
seat's part once per seat — coalescing events that come faster than it sends. Each viewer has
a writer task of its own, so a slow connection holds up nobody else. Nothing here is held
while the service is called: the subscriber never awaits the service, and a move is made
through :meth:`bot.tables.TableManager.act` from the socket's own task.

A socket is kept from costing the others their turn (docs/activity.md, "Limits"): its messages
go through a token bucket (past it, the socket is closed with 1008), a person and the process
have a cap of sockets, the reader yields to the event loop after every message, a ``watch`` of
the table whose model is still queued for the viewer costs nothing, and a socket whose session
has run out is closed by a sweep every :data:`SWEEP_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot import tasks
from bot.tables import (
    CANCELLED,
    FINISHED,
    Cards,
    Choice,
    Position,
    Refusal,
    TableEvent,
    TableManager,
)
from bot.web.model import News, last_of, news_of, public_part, you_part
from bot.web.social import KINDS as SOCIAL
from bot.web.social import Social
from games import wording

log = logging.getLogger(__name__)

#: the largest message a viewer may send (bytes of its text)
MAX_MESSAGE = 4096
#: messages queued for a viewer beyond which the viewer is dropped (it reads too slowly)
MAX_QUEUED = 256
#: a socket's messages a second, on average: the page sends a few a minute (a ping every 25 s,
#: a watch, a move), a person clicking fast a few a second
MESSAGE_RATE = 5.0
#: the messages a socket may send at once before the rate holds (a page opening, a burst of
#: clicks); past the bucket the socket is closed with POLICY_CLOSE
MESSAGE_BURST = 30.0
#: sockets one person may have open in this process: a few tabs or devices, and a reconnect
#: racing the socket it replaces
SOCKETS_PER_PERSON = 8
#: sockets one person may open a second, on average, and at once: a page reconnects after
#: 0.5 s, then 1, 2, 4... up to 10 s, and a reload or a second device opens one more; a page
#: opening socket after socket costs a handshake, a session's check and a hello each time
OPENS_RATE = 0.5
OPENS_BURST = 10.0
#: sockets in all in this process (each costs a task, a queue and a descriptor): past it a
#: new socket is turned away with FULL_CLOSE
SOCKETS_IN_ALL = 5000
#: how often the sockets' sessions are looked at again (a run-out one is closed)
SWEEP_SECONDS = 30.0
#: the close codes (RFC 6455): a socket that broke the limits, a server that is full, and the
#: page's own code for "signed out" (the page signs in again on it)
POLICY_CLOSE = 1008
FULL_CLOSE = 1013
SIGNED_OUT_CLOSE = 4401
#: news lines kept per table
NEWS_KEPT = 12
#: the events after which the channel's other viewers get its list of tables again
LISTED = frozenset({"open", "lobby", "start", "finish", "cancel"})
#: the client's own words: every catalogue key with this prefix, sent without it in 'hello'
CLIENT_PREFIX = "web-ui-"
#: a refusal of the table service: the error code the page gets, and the sentence's key
REFUSALS: dict[str, tuple[str, str]] = {
    "no-table": ("no-table", "web-no-table"),
    "not-started": ("stale", "not-started"),
    "stale": ("stale", "web-stale"),
    "not-seated": ("not-seated", "web-not-seated"),
    "away": ("not-your-turn", "web-away"),
    "not-your-turn": ("not-your-turn", "not-your-turn"),
    "no-such-choice": ("illegal", "web-no-such-move"),
    "illegal": ("illegal", "illegal"),
}
#: the sentence of each error the socket itself gives
ERRORS = {
    "bad-message": "web-bad-message",
    "too-big": "web-too-big",
    "no-table": "web-no-table",
    "not-seated": "web-not-seated",
    "not-your-turn": "not-your-turn",
    "stale": "web-stale",
    "illegal": "web-no-such-move",
    "signed-out": "web-signed-out",
    "forbidden": "web-forbidden",
    "too-fast": "web-too-fast",
    "too-many-sockets": "web-too-many-sockets",
    "too-many-opens": "web-too-many-opens",
    "full": "web-full",
}


#: the sentences of the socket refused before it is served, beyond an instance's own causes
#: (bot.web.auth.INSTANCE_REFUSALS): the page named no channel, or a socket came with a
#: vouch of the bot's processes that is not taken there (the code is 'forbidden' for all)
NO_CHANNEL = "web-no-channel"
NOT_VOUCHED = "web-not-vouched"


def client_words(lang: str) -> dict[str, str]:
    """The page's own words in a language: every ``web-ui-*`` message of the catalogues."""
    keys = [k for k in wording.catalogue(wording.DEFAULT) if k.startswith(CLIENT_PREFIX)]
    return {k[len(CLIENT_PREFIX):]: wording.text(k, lang) for k in keys}


#: the hello's words by language: made once (a quarter of a millisecond), not for every socket
_HELLO_WORDS: dict[str, dict[str, str]] = {}


def refusal_sentence(refusal: Refusal, lang: str) -> tuple[str, str]:
    """A refusal of the service as the page shows it: its error code and its sentence."""
    code, key = REFUSALS.get(refusal.key, ("illegal", refusal.key))
    # (the page's own sentence for some keys; worded, with the refusal's data, as the service
    # words every refusal)
    return code, Refusal(key, **refusal.params).text(lang)


def error(code: str, lang: str, sentence: str | None = None) -> dict[str, Any]:
    """An ``error`` message in the reader's language."""
    return {"type": "error", "code": code,
            "message": sentence if sentence is not None else wording.text(ERRORS[code], lang)}


class Bucket:
    """A token bucket: ``burst`` tokens, refilled at ``rate`` a second by ``clock`` (a
    monotonic clock in seconds: a test's own moves it)."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = burst
        self.at = clock()

    def take(self) -> bool:
        """Take a token: False when none is left."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


@dataclass(frozen=True)
class Person:
    """Who a socket belongs to: signed in through Discord (or, in development, by name)."""

    user_id: int
    name: str
    lang: str


@dataclass(eq=False)
class Viewer:
    """One open socket: its person, its channel, the table it watches, its queue."""

    person: Person
    channel_id: int
    send: Callable[[str], Awaitable[None]]
    #: the socket's close (aiohttp's: a code and a reason, as bytes)
    close: Callable[..., Awaitable[Any]]
    table: int | None = None
    queue: deque[tuple[str, int | None, int | None]] = field(default_factory=deque)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    #: the version of the last table message queued, by table: an older one is not sent
    versions: dict[int, int] = field(default_factory=dict)
    writer: asyncio.Task[None] | None = None
    closed: bool = False
    #: whether the session the socket was opened with is still valid at a time (epoch s)
    valid: Callable[[float], bool] = field(default=lambda _now: True)
    bucket: Bucket | None = None
    #: the table and version of the model being written now, if it is one
    sending: tuple[int | None, int | None] | None = None

    def push(self, text: str, table: int | None = None, version: int | None = None) -> None:
        """Queue a message (a table's model: unless a newer one of that table went before)."""
        if self.closed:
            return
        if table is not None and version is not None:
            if version < self.versions.get(table, -1):
                return
            self.versions[table] = version
            # a model still queued for this table is replaced: only the newest matters
            kept = [item for item in self.queue if item[1] != table]
            if len(kept) != len(self.queue):
                self.queue = deque(kept)
        if len(self.queue) >= MAX_QUEUED:
            self.closed = True
            tasks.background(self._drop())
            return
        self.queue.append((text, table, version))
        self.ready.set()

    async def _drop(self) -> None:
        await self.close()

    async def shut(self, code: str, close_code: int) -> None:
        """Tell the viewer why in their language, then close with ``close_code`` and the
        error's code as the reason (a close reason holds 123 bytes: no sentence)."""
        if self.closed:
            return
        self.closed = True
        self.ready.set()
        with contextlib.suppress(Exception):
            await self.send(json.dumps(error(code, self.person.lang), ensure_ascii=False))
        with contextlib.suppress(Exception):
            await self.close(code=close_code, message=code.encode("ascii"))

    def push_json(self, message: dict[str, Any]) -> None:
        """Queue a message given as data."""
        self.push(json.dumps(message, ensure_ascii=False))

    async def write(self) -> None:
        """Send what is queued, in order, until the socket closes."""
        try:
            while not self.closed:
                await self.ready.wait()
                self.ready.clear()
                while self.queue and not self.closed:
                    text, table, version = self.queue.popleft()
                    self.sending = (table, version)
                    await self.send(text)
                    self.sending = None
        except (ConnectionError, RuntimeError):
            self.closed = True  # the socket went away; its reader ends the viewer


@dataclass(eq=False)
class Group:
    """A table's viewers and what the web table keeps of it: its news and last move."""

    #: the table's public position at its last event (whose seat a viewer holds, its status)
    position: Position
    viewers: set[Viewer] = field(default_factory=set)
    news: deque[News] = field(default_factory=lambda: deque(maxlen=NEWS_KEPT))
    last: tuple[int, dict[str, Any] | None] | None = None  # (version after it, the move)
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    #: news noted so far (a count: the news kept is a window)
    noted: int = 0
    #: the shared part of the positions last sent, as JSON text (without its closing brace),
    #: by what it is made of (see :meth:`Viewers._shared`)
    shared: dict[tuple[Any, ...], str] = field(default_factory=dict)


class Viewers:
    """Every viewer of the web table in this process, grouped per table."""

    def __init__(self, manager: TableManager, *, clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time) -> None:
        self.manager = manager
        #: the buckets' clock, and the one the sessions' expiry is read by (a test's own)
        self.clock = clock
        self.wall = wall
        self.groups: dict[int, Group] = {}
        self.by_channel: dict[int, set[Viewer]] = {}
        #: open sockets per person, and in all; the sockets each person opened lately
        self.by_person: dict[int, int] = {}
        self.opens: dict[int, Bucket] = {}
        self.count = 0
        #: models sent (tests and the benchmark read it)
        self.sent = 0
        #: the social requests' part (bot/web/social.py), given by the application
        self.social: Social | None = None
        self._sweeper: asyncio.Task[None] | None = None

    # -- the service's events ---------------------------------------------------------------
    def start(self) -> None:
        """Receive the service's events; look at the sockets' sessions every
        SWEEP_SECONDS."""
        self.manager.subscribe(self.on_event)
        if self._sweeper is None:
            self._sweeper = tasks.background(self._sweep_every(), name="web-sweep")

    def stop(self) -> None:
        """Stop receiving them."""
        self.manager.unsubscribe(self.on_event)
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    async def _sweep_every(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await self.sweep()

    async def sweep(self) -> int:
        """Close every socket whose session has run out (the page signs in again on the
        'signed-out' error); how many were closed."""
        for user_id, opens in list(self.opens.items()):  # only the recent openers are kept
            if opens.at + OPENS_BURST / OPENS_RATE < self.clock():
                del self.opens[user_id]
        now = self.wall()
        expired = [v for channel in self.by_channel.values() for v in channel
                   if not v.closed and not v.valid(now)]
        for viewer in expired:
            await viewer.shut("signed-out", SIGNED_OUT_CLOSE)
        return len(expired)

    async def on_event(self, event: TableEvent) -> None:
        """Note an event's news and mark its table (never awaits: the bus is not held up)."""
        position = event.position
        group = self.groups.get(event.table_id)
        if group is None:
            group = self.groups[event.table_id] = Group(position)
        group.position = position
        news = news_of(position, event.moves, event.kind, event.seat)
        group.news.extend(news)
        group.noted += len(news)
        if event.moves:
            group.last = (position.version, last_of(event.moves, position.public))
        if group.viewers:
            self._mark(group)
        if event.kind in LISTED:
            # the lists of its channel and of its thread (an Activity launched there)
            for where in (position.channel_id, position.thread_id):
                if where is not None:
                    tasks.background(self._tell_channel(where, exclude=event.table_id),
                                     name="web-tables")
        if position.status in (FINISHED, CANCELLED) and not group.viewers:
            self.groups.pop(event.table_id, None)

    def _mark(self, group: Group) -> None:
        group.dirty = True
        if group.task is None or group.task.done():
            group.task = tasks.background(self._fan_out(group), name="web-table")

    async def _fan_out(self, group: Group) -> None:
        """Send every viewer of a table its model, until no event is left unshown."""
        while group.dirty:
            group.dirty = False
            by_seat: dict[int | None, list[Viewer]] = {}
            table_id = group.position.table_id
            for viewer in list(group.viewers):
                seat = group.position.seat_of(viewer.person.user_id)
                by_seat.setdefault(seat, []).append(viewer)
            for seat, viewers in by_seat.items():
                position = await self.manager.latest(table_id, seat)
                if position is None:  # closed long ago: nothing more to show
                    break
                # only to those who still watch it (one may have moved on meanwhile)
                self._send_models(group, position,
                                  [v for v in viewers if v.table == position.table_id])
            if group.position.status in (FINISHED, CANCELLED):
                self.groups.pop(table_id, None)

    def _send_models(self, group: Group, position: Position, viewers: list[Viewer]) -> None:
        """Queue one seat's viewers (or the spectators) the model of ``position``."""
        yours: dict[str, str] = {}
        for viewer in viewers:
            lang = viewer.person.lang
            text = yours.get(lang)
            if text is None:
                shared = self._shared(group, position, lang)
                text = yours[lang] = (shared + ',"you":'
                                      + json.dumps(you_part(position, lang), ensure_ascii=False)
                                      + "}")
            viewer.push(text, position.table_id, position.version)
            self.sent += 1

    def _shared(self, group: Group, position: Position, lang: str) -> str:
        """The public part of a table's model in a language, as JSON text without its closing
        brace; made once for all seats' positions of the same table state: its version, and
        what changes without a move (a lobby's seats, a seat handed to the computer, the
        status, the timer, the news)."""
        key = (position.version, position.status, position.seats, position.deadline,
               position.ended, group.noted, lang)
        found = group.shared.get(key)
        if found is None:
            if len(group.shared) > 8:
                group.shared.clear()
            last = group.last[1] if group.last and group.last[0] == position.version else None
            part = public_part(position, lang, group.news, last)
            found = group.shared[key] = json.dumps(part, ensure_ascii=False)[:-1]
        return found

    async def _tell_channel(self, channel_id: int, exclude: int) -> None:
        """The channel's viewers who watch no table of it get its list of tables again."""
        for viewer in list(self.by_channel.get(channel_id, ())):
            if viewer.table is None or viewer.table != exclude:
                viewer.push_json(await self.tables_message(channel_id, viewer.person.lang))

    # -- a viewer's socket ------------------------------------------------------------------
    async def tables_message(self, channel_id: int, lang: str) -> dict[str, Any]:
        """The channel's open tables, for the launcher's list: those whose message is in it
        (playing there or in threads of it), and, for an Activity launched inside a table's
        thread (its channel id is the thread's), that table, which the page then opens."""
        tables = list(await self.manager.tables_in(channel_id))
        threaded = await self.manager.table_of_thread(channel_id)
        if threaded is not None and all(t.table_id != threaded.table_id for t in tables):
            tables.append(threaded)
        found = []
        for table in tables:
            rules = table.rules
            found.append({
                "id": table.table_id, "game": rules.id,
                "title": rules.title(lang),
                "status": table.status, "players": len(table.seats),
                "seats": [seat.name for seat in table.seats], "version": table.version})
        return {"type": "tables", "tables": found}

    def hello(self, person: Person) -> dict[str, Any]:
        """The first message: who the viewer is, their language, the page's own words."""
        return {"type": "hello", "user": {"id": str(person.user_id), "name": person.name},
                "lang": person.lang, "words": _HELLO_WORDS.get(person.lang)
                or _HELLO_WORDS.setdefault(person.lang, client_words(person.lang))}

    def refusal(self, person: Person) -> tuple[str, int] | None:
        """Why a new socket of a person is turned away (its error code and close code), or
        None: it may open, and takes one of the person's opens."""
        if self.count >= SOCKETS_IN_ALL:
            log.warning("a socket of %s is turned away: %s sockets are open", person.user_id,
                        self.count)
            return "full", FULL_CLOSE
        if self.by_person.get(person.user_id, 0) >= SOCKETS_PER_PERSON:
            return "too-many-sockets", POLICY_CLOSE
        opens = self.opens.get(person.user_id)
        if opens is None:
            opens = self.opens[person.user_id] = Bucket(OPENS_RATE, OPENS_BURST, self.clock)
        if not opens.take():
            return "too-many-opens", POLICY_CLOSE
        return None

    async def refuse(self, socket: Any, person: Person, why: tuple[str, int]) -> None:
        """Tell a socket turned away why, and close it (``why``: :meth:`refusal`'s)."""
        viewer = Viewer(person, 0, socket.send_str, socket.close)
        await viewer.shut(*why)

    async def serve(self, socket: Any, person: Person, channel_id: int,
                    valid: Callable[[float], bool] | None = None,
                    admitted: bool = False) -> None:
        """Answer one viewer's socket until it closes (``socket``: aiohttp's
        WebSocketResponse, already prepared; ``valid``: whether the person's session is still
        good at a time, looked at by :meth:`sweep` and before each message; ``admitted``:
        :meth:`refusal` was asked already, and let it open)."""
        from aiohttp import WSMsgType

        why = None if admitted else self.refusal(person)
        if why is not None:
            await self.refuse(socket, person, why)
            return
        viewer = Viewer(person, channel_id, socket.send_str, socket.close,
                        bucket=Bucket(MESSAGE_RATE, MESSAGE_BURST, self.clock))
        if valid is not None:
            viewer.valid = valid
        self.count += 1
        self.by_person[person.user_id] = self.by_person.get(person.user_id, 0) + 1
        viewer.writer = tasks.background(viewer.write(), name="web-viewer")
        self.by_channel.setdefault(channel_id, set()).add(viewer)
        viewer.push_json(self.hello(person))
        try:
            async for frame in socket:
                if not viewer.bucket or not viewer.bucket.take():
                    log.info("a socket of %s sent too fast and is closed", person.user_id)
                    await viewer.shut("too-fast", POLICY_CLOSE)
                elif not viewer.valid(self.wall()):
                    await viewer.shut("signed-out", SIGNED_OUT_CLOSE)
                elif frame.type == WSMsgType.TEXT:
                    await self.receive(viewer, frame.data)
                elif frame.type == WSMsgType.BINARY:
                    viewer.push_json(error("bad-message", person.lang))
                elif frame.type == WSMsgType.ERROR:
                    break
                if viewer.closed:
                    break
                # frames already received are handed out without a pause: let the other
                # sockets, the commands and the timers in between each
                await asyncio.sleep(0)
        finally:
            self.leave(viewer)
            self.count -= 1
            left = self.by_person.get(person.user_id, 1) - 1
            if left > 0:
                self.by_person[person.user_id] = left
            else:
                self.by_person.pop(person.user_id, None)

    def leave(self, viewer: Viewer) -> None:
        """Forget a viewer whose socket closed."""
        viewer.closed = True
        viewer.ready.set()
        self._unwatch(viewer)
        channel = self.by_channel.get(viewer.channel_id)
        if channel is not None:
            channel.discard(viewer)
            if not channel:
                del self.by_channel[viewer.channel_id]

    def _unwatch(self, viewer: Viewer) -> None:
        if viewer.table is None:
            return
        group = self.groups.get(viewer.table)
        viewer.table = None
        if group is not None:
            group.viewers.discard(viewer)
            if not group.viewers and not self.manager.is_open(group.position.table_id):
                self.groups.pop(group.position.table_id, None)

    async def receive(self, viewer: Viewer, data: str) -> None:
        """Answer one message of a viewer."""
        lang = viewer.person.lang
        if len(data.encode("utf-8")) > MAX_MESSAGE:
            viewer.push_json(error("too-big", lang))
            return
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if not isinstance(message, dict) or not isinstance(kind, str):
            viewer.push_json(error("bad-message", lang))
            return
        if kind == "ping":
            viewer.push_json({"type": "pong"})
        elif kind == "tables":
            viewer.push_json(await self.tables_message(viewer.channel_id, lang))
        elif kind == "watch":
            table = await self._table_of(viewer, message)
            if table is not None:
                await self.watch(viewer, table)
        elif kind == "act":
            table = await self._table_of(viewer, message)
            if table is not None:
                await self.act(viewer, table, message)
        elif kind in SOCIAL and self.social is not None:  # a free seat taken, a share
            await self.social.receive(viewer, message, error, refusal_sentence)
        else:
            viewer.push_json(error("bad-message", lang))

    async def _table_of(self, viewer: Viewer, message: dict[str, Any]) -> Position | None:
        """The open table a message names, when it is of the viewer's channel (else the
        error is sent and None returned)."""
        lang = viewer.person.lang
        table_id = message.get("table")
        if not isinstance(table_id, int) or isinstance(table_id, bool):
            viewer.push_json(error("bad-message", lang))
            return None
        try:
            # (the door's check that waits for no move: the one call a move then makes takes
            # the table's lock once)
            table = await self.manager.at(table_id, None, None, viewer.person.user_id)
        except Refusal:  # none of that id is open
            viewer.push_json(error("no-table", lang))
            return None
        if viewer.channel_id not in (table.channel_id, table.thread_id):
            viewer.push_json(error("forbidden", lang))
            return None
        return table

    async def watch(self, viewer: Viewer, table: Position) -> None:
        """Show a viewer a table (instead of the one before): its whole position now (unless
        the model of this very version is still queued for them: a second watch is free)."""
        answering = [(queued, version) for _text, queued, version in viewer.queue]
        if viewer.sending is not None:
            answering.append(viewer.sending)
        table_id = table.table_id
        if viewer.table == table_id and (table_id, table.version) in answering:
            return
        if viewer.table != table_id:
            self._unwatch(viewer)
            group = self.groups.get(table_id)
            if group is None:
                group = self.groups[table_id] = Group(table)
            group.viewers.add(viewer)
            viewer.table = table_id
        self._send_models(self.groups.get(table_id) or Group(table), table, [viewer])

    async def send_position(self, viewer: Viewer, table_id: int) -> None:
        """Queue a viewer the table's whole position now, from their seat or as a spectator."""
        position = await self.manager.position_for(table_id, viewer.person.user_id)
        group = self.groups.get(table_id) or Group(position)
        self._send_models(group, position, [viewer])

    async def act(self, viewer: Viewer, table: Position, message: dict[str, Any]) -> None:
        """A viewer's move: a legal move's index, or the cards of one, at a version, handed to
        the service once (which matches it against the position). A refusal is answered
        with its sentence (the service's real reason), then the position now."""
        lang = viewer.person.lang
        version, index, cards = message.get("version"), message.get("move"), message.get("cards")
        wrong_number = not isinstance(version, int) or isinstance(version, bool)
        choice_given = (index is None) != (cards is None)
        bad_index = index is not None and (not isinstance(index, int) or isinstance(index, bool))
        bad_cards = cards is not None and not (
            isinstance(cards, list) and 0 < len(cards) <= 60
            and all(isinstance(c, str) for c in cards))
        if wrong_number or not choice_given or bad_index or bad_cards:
            viewer.push_json(error("bad-message", lang))
            return
        choice: Choice = Cards(tuple(cards)) if isinstance(cards, list) else int(index or 0)
        try:
            await self.manager.act(table.table_id, viewer.person.user_id, version, choice)
        except Refusal as refusal:
            code, sentence = refusal_sentence(refusal, lang)
            viewer.push_json(error(code, lang, sentence))
            if self.manager.is_open(table.table_id):
                with contextlib.suppress(Refusal):  # closed meanwhile
                    await self.send_position(viewer, table.table_id)

    async def close(self) -> None:
        """Close every socket (the process stops)."""
        viewers = [v for channel in self.by_channel.values() for v in channel]
        for viewer in viewers:
            viewer.closed = True
            viewer.ready.set()
            with contextlib.suppress(Exception):
                await viewer.close()
        for group in self.groups.values():
            if group.task is not None:
                group.task.cancel()
