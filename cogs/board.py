"""The public table message: its recent events, and edits coalesced one writer at a time.

A table in a thread has two public messages: the whole table (picture, log, buttons) in its
thread, and a compact one in the channel (:func:`cogs.views.overview_payload`), the thread's
starter; ``Position.board_at`` and ``overview_at`` say where each is. Both are edited by the
same coalesced writer; the compact one only when what it shows changes.

A part of the table cog (:class:`cogs.play.PlayCog`), given to the parts that show the table's
news (the hands' recent lines) or answer a click on the public message (the lobby) with the
table as it is now.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import lane, logs, tasks
from bot.i18n import lang_of, t
from bot.names import plain
from bot.tables import CANCELLED, FINISHED, LOBBY, Position, TableEvent
from cogs import discord_errors
from cogs.guards import is_private
from cogs.tokens import Tokens
from cogs.views import Payload, card_words, overview_payload, table_payload

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)
#: the bot_state name (+ the table's id) of why a table left its thread
NOTICE = "thread-left:"
#: least seconds between two edits of a table's compact message in the channel, unless the
#: table's status changes (it starts, ends): whose turn there may lag the thread's message by
#: this much. Each such edit counts against Discord's global request limit (docs/deploy.md),
#: and at a live table the turn changes every move or two: edited at every turn it doubled
#: the table edits per move (benchmarks/bot.py: 1.00 -> 1.99)
OVERVIEW_GAP = 10.0
#: seconds the log of a finished or cancelled table is kept after its last edit
BOARD_KEPT = 60.0
Interaction = discord.Interaction[Any]


@dataclass
class Board:
    """What the cog keeps per table: recent public events and the last message it sent."""

    log: deque[tuple[str, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=6))
    sent: tuple[Any, ...] | None = None
    sent_overview: tuple[Any, ...] | None = None  # the compact message's, in the channel
    #: when the compact message was last edited, and the table's phase it showed (its status,
    #: or "over" from the game's end on)
    overview_edited: float = -math.inf
    overview_status: str = ""
    overview_timer: asyncio.TimerHandle | None = None  # its edit put off until its gap is over
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    dm_turns: dict[int, int] = field(default_factory=dict)  # seat -> the version last DMed
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one writer of the message
    hidden: tuple[frozenset[str], list[str]] | None = None  # (hidden cards, their words)
    edited: float = -math.inf  # when the message was last edited (the event loop's clock)
    status: str = ""  # the table's status as last marked (a closed table's edit has no gap)
    #: why the table left its thread (a message key), said in its message; None: it did not
    notice: str | None = None


class TableMessages:
    """The public message of each table: its recent events, and edits coalesced."""

    def __init__(self, bot: Deckhand, tokens: Tokens | None = None) -> None:
        self.bot = bot
        self.manager = bot.manager
        #: interactions at each table: an edit goes through one's token when there is one
        #: (None: always by the bot's token)
        self.tokens = tokens
        self.boards: dict[int, Board] = {}
        self.hurry = asyncio.Event()  # set at a stop: pending edits go out without their gap

    async def settle_messages(self) -> None:
        """At a stop: make the edits still waiting for their gap now, and wait for them, so
        every table message shows the position as stored."""
        self.hurry.set()
        self.bot.lane.widen(len(self.boards) + 1)  # no clicks now: every edit goes at once
        for table_id, board in list(self.boards.items()):  # the compact edits put off: now
            if board.overview_timer is not None:
                board.overview_timer.cancel()
                board.overview_timer = None
                position = await self.manager.latest(table_id)
                if position is not None:
                    self._mark(position)
        pending = [board.task for board in self.boards.values()
                   if board.task is not None and not board.task.done()]
        if pending:
            await asyncio.wait(pending)

    async def refresh(self, tables: list[Position]) -> None:
        """Once the bot is ready: post again the message of each resumed table that has none,
        and refresh the others."""
        await self.bot.wait_until_ready()
        left: dict[str, str] = {}
        try:  # why a table left its thread, said in its message (threads.TableThreads.left)
            if any(table.thread_id is None and not table.closed for table in tables):
                left = await self.bot.store.states(NOTICE)
        except Exception as exc:  # the tables are shown without it
            log.warning("could not read why tables left their threads (%s)",
                        type(exc).__name__, extra=logs.failure(exc))
        for table in tables:
            reason = left.get(f"{NOTICE}{table.table_id}")
            if reason and table.thread_id is None and not table.closed:
                self.board(table.table_id).notice = reason
            if table.message_id is None:
                await self._repost(table)
            else:
                self._mark(table)

    async def _repost(self, table: Position) -> None:
        """A resumed table with no message (the bot stopped between storing the table and
        posting its lobby, or before storing the posted message's id) gets a new public
        message; without one nobody could join, play or cancel it, and it would hold the
        channel."""
        board = self.board(table.table_id)
        try:
            async with board.lock:
                position = await self.manager.latest(table.table_id)
                if (position is None or position.message_id is not None
                        or not self.manager.is_open(table.table_id)):
                    return
                payload = self.render(position)  # (drawn from the position: no lock needed)
                channel = self.bot.get_partial_messageable(table.channel_id)
                message = await channel.send(
                    **payload.send(), files=await payload.files(),
                    allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                             roles=False))
                await self.manager.set_message(table.table_id, message.id)
                board.sent = payload.key()
        except Exception as exc:  # the table stays; a click on an old message adopts it
            log.warning("table %s: could not post its message again (%s)", table.table_id,
                        type(exc).__name__, extra=logs.failure(exc))

    # -- helpers ----------------------------------------------------------------------------
    @property
    def activity(self) -> bool:
        """Whether the table messages offer Open table (the Activity is configured)."""
        return self.bot.activity_configured

    def public_lang(self, table: Position) -> str:
        """The language of a table's server."""
        guild = self.bot.get_guild(table.guild_id)
        return lang_of(guild.preferred_locale if guild is not None else None)

    def board(self, table_id: int) -> Board:
        """The cog's memory of a table."""
        found = self.boards.get(table_id)
        if found is None:
            found = self.boards[table_id] = Board()
        return found

    def log_lines(self, position: Position, lang: str, last: int | None = None) -> list[str]:
        """Recent public events, leaving out any that names a card now hidden in a hand
        (an earlier deal's play once the cards are dealt again); ``last``: only the newest
        so many (a panel shows two: the older ones are not worded at all)."""
        lines: list[str] = []
        board = self.board(position.table_id)
        hidden: frozenset[str] = frozenset()
        words: list[str] = []
        if position.hidden and any(kind == "event" for kind, _ in board.log):
            if board.hidden is None or board.hidden[0] != position.hidden:
                board.hidden = (position.hidden, card_words(set(position.hidden)))
            hidden, words = board.hidden
        # each line names its player once, as plain text in the message's Markdown
        names = [plain(seat.name) for seat in position.seats]
        for kind, params in reversed(board.log):  # newest first, reversed at the end
            if last is not None and len(lines) >= last:
                break
            if kind == "event":
                event = params["event"]
                if hidden and any(str(c) in hidden for c in event.cards):
                    continue
                text = position.rules.event_text(event, lang, names)
                if text and words and any(word in text for word in words):
                    continue
                if text:
                    lines.append(text)
            elif kind == "level-changed":  # the level's name in the message's language
                lines.append(t(kind, lang, level=t("level-" + params["level"], lang)))
            else:
                lines.append(t(kind, lang, **params))
        lines.reverse()
        return lines

    def render(self, position: Position) -> Payload:
        """The public message of a table at a position."""
        lang = self.public_lang(position)
        payload = table_payload(position, lang, self.log_lines(position, lang), self.activity)
        notice = self.board(position.table_id).notice
        if notice is not None and not position.closed:  # why the thread's news comes here
            payload = dataclasses.replace(payload, content=(
                payload.content + "\n" + t(notice, lang)).strip())
        return payload

    def render_overview(self, position: Position) -> Payload:
        """The compact message in the channel of a table in a thread."""
        return overview_payload(position, self.public_lang(position), self.activity)

    def into_thread(self, table_id: int, posted: Payload | None) -> None:
        """The whole table went to its thread (``posted``: as sent there; None: it stays in
        the channel's message): what the channel's message shows is now the compact one's."""
        if posted is not None:
            board = self.board(table_id)
            board.sent_overview, board.sent = board.sent, posted.key()

    def out_of_thread(self, table_id: int) -> None:
        """The table left its thread: the channel's message, compact until now, is edited to
        the whole table at the next edit."""
        board = self.board(table_id)
        board.sent = board.sent_overview = None

    async def notice(self, table_id: int, key: str) -> None:
        """A table's message says this from now on (a message key): why it left its thread;
        stored, so a restart says it too."""
        self.board(table_id).notice = key
        try:
            await self.bot.store.set_state(f"{NOTICE}{table_id}", key)
        except Exception as exc:  # said until the next restart
            log.warning("table %s: could not store why it left its thread (%s)", table_id,
                        type(exc).__name__, extra=logs.failure(exc))

    def mark(self, table: Position) -> None:
        """Edit a table's message to the table as it is now (coalesced)."""
        self._mark(table)

    async def _send_edit(self, table: Position, payload: Payload) -> None:
        where = table.board_at
        if where is None:
            return
        files = await payload.files()
        # the gap runs from the edit's sending, not from before its picture was drawn: a slow
        # drawing then a quick one would otherwise send two edits closer than the gap
        self.board(table.table_id).edited = asyncio.get_running_loop().time()
        await self._edit(table, where, content=payload.content, embed=payload.embed,
                         view=payload.view, attachments=files)

    async def _send_overview(self, table: Position, payload: Payload) -> None:
        where = table.overview_at
        assert where is not None
        # (the lobby's embed is the lobby's; a table in play shows no embed here)
        await self._edit(table, where, content=payload.content, embed=payload.embed,
                         view=payload.view, attachments=[])

    async def _edit(self, table: Position, where: tuple[int, int], **fields: Any) -> None:
        """Edit one of the table's messages (channel, message): through the token of an
        interaction whose original response it is while that is fresh (Discord does not count
        it against the bot's global limit), else by the bot's token."""
        fields["allowed_mentions"] = discord.AllowedMentions(users=True, everyone=False,
                                                             roles=False)
        tokens = self.tokens
        seen = None if tokens is None else tokens.of_message(table.table_id, where[1])
        if tokens is not None and seen is not None:
            edited, _ = await tokens.attempt(
                table.table_id, seen, lambda i: i.edit_original_response(**fields),
                "its message")
            if edited:
                return
        message = self.bot.get_partial_messageable(where[0]).get_partial_message(where[1])
        await message.edit(**fields)

    async def idle(self, table_id: int) -> None:
        """Wait until a table's messages show it as it is (its edits made): before its thread
        is archived, since Discord refuses an edit in an archived thread."""
        board = self.boards.get(table_id)
        while board is not None and board.task is not None and not board.task.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(board.task)
            board = self.boards.get(table_id)

    def close(self) -> None:
        """At unload: the compact edits put off are not made by this cog any more."""
        for board in self.boards.values():
            if board.overview_timer is not None:
                board.overview_timer.cancel()
                board.overview_timer = None

    def _overview_due(self, table: Position) -> None:
        """A compact message's put-off edit is due (a timer, not a task: nothing runs till
        then); the flush edits what changed."""
        self.board(table.table_id).overview_timer = None
        self._mark(table)

    def _mark(self, table: Position) -> None:
        board = self.board(table.table_id)
        board.dirty = True
        board.status = table.status
        if board.task is None or board.task.done():
            board.task = tasks.background(self._flush(table))

    async def _flush(self, table: Position) -> None:
        """Edit the public message until it shows the latest position (edits coalesce)."""
        board = self.board(table.table_id)
        gap = self.bot.settings.edit_gap
        refused = 0  # edits Discord refused for now in a row
        while board.dirty:
            wait = board.edited + gap - asyncio.get_running_loop().time()
            if wait > 0 and board.status not in (FINISHED, CANCELLED) and not self.hurry.is_set():
                # what happens meanwhile is shown in the same edit (a stop: at once)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.hurry.wait(), wait)
            retry = 0.0
            # paid for before the lane slot (table edits wait in the budget after anything
            # else, and must not hold a slot meanwhile: bot/budget.py), then the slot taken
            # ahead of the jobs waiting (the request is soon sent after it was paid for);
            # what waits meanwhile is shown by this edit
            spent = self.bot.budget
            paid = contextlib.nullcontext() if spent is None else spent.prepaid(lane.TABLE)
            async with paid, self.bot.lane.slot(lane.TABLE, ahead=spent is not None), \
                    board.lock:
                board.dirty = False  # a change from here on is shown by the next round
                position = await self.manager.latest(table.table_id)
                if position is None:  # closed long ago: its last edit was made
                    break
                board.status = position.status
                payload = self.render(position)  # (drawn from the position: no lock needed)
                key = payload.key()
                overview = (None if position.overview_at is None
                            else self.render_overview(position))
                if key == board.sent and (overview is None
                                          or overview.key() == board.sent_overview):
                    continue
                edits: list[tuple[str, Any, Payload]] = []
                if key != board.sent:
                    edits.append(("sent", self._send_edit, payload))
                if overview is not None and overview.key() != board.sent_overview:
                    later = (board.overview_edited + OVERVIEW_GAP
                             - asyncio.get_running_loop().time())
                    phase = "over" if position.over or position.closed else position.status
                    if (later > 0 and phase == board.overview_status and phase != LOBBY
                            and not self.hurry.is_set()):
                        if board.overview_timer is None:  # edited once its gap is over
                            board.overview_timer = asyncio.get_running_loop().call_later(
                                later, self._overview_due, position)
                    else:
                        board.overview_edited = asyncio.get_running_loop().time()
                        board.overview_status = phase
                        edits.append(("sent_overview", self._send_overview, overview))
                failed: Exception | None = None
                for attr, send, shown in edits:  # one failing does not stop the other
                    try:
                        await send(position, shown)
                        setattr(board, attr, shown.key())
                    except Exception as exc:
                        failed = failed or exc
                if failed is None:
                    if refused:
                        log.info("table %s: its message shows the table again", table.table_id)
                    refused = 0
                else:  # a failed edit must not stop later ones
                    # what Discord refused for now is tried again here, since nothing else
                    # may edit the message (after a game's last move); not at a stop, whose
                    # restart shows every table again
                    if (discord_errors.for_now(failed) and refused < len(discord_errors.RETRIES)
                            and not self.hurry.is_set()):
                        retry, board.dirty = discord_errors.RETRIES[refused], True
                        if not refused:
                            log.warning("table %s: Discord refused its message's edit (%s);"
                                        " trying again", table.table_id,
                                        discord_errors.described(failed))
                        refused += 1
                    elif discord_errors.for_now(failed):
                        log.warning("table %s: Discord refused its message's edit %d times"
                                    " (%s); it shows the table again at its next edit",
                                    table.table_id, refused + 1, discord_errors.described(failed))
                    else:
                        log.warning("table %s: could not edit its message (%s)", table.table_id,
                                    type(failed).__name__, extra=logs.failure(failed))
            if retry:  # (a stop ends the wait, and the tries)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.hurry.wait(), retry)
        if board.status in (FINISHED, CANCELLED):
            # forgotten a little later: the click that ended the table (a Start whose deal
            # decided the game) may still be answered with the table's log
            asyncio.get_running_loop().call_later(BOARD_KEPT, self.boards.pop, table.table_id, None)

    def note(self, update: TableEvent) -> None:
        """Keep an event's public moves for the table message, and edit it."""
        table = update.position  # the table as the event left it
        board = self.board(table.table_id)
        for move in update.moves:
            name = plain(table.seats[move.seat].name)
            if move.how == "timeout":
                key = "now-away" if table.seats[move.seat].away else "timed-out"
                board.log.append((key, {"name": name}))
            for event in move.events:
                board.log.append(("event", {"event": event.for_seat(None)}))
        if update.kind == "away" and update.seat is not None:
            board.log.append(("handed-over", {"name": plain(table.seats[update.seat].name)}))
        if update.kind == "back" and update.seat is not None:
            board.log.append(("returned", {"name": plain(table.seats[update.seat].name)}))
        if update.kind == "level":
            board.log.append(("level-changed", {"level": table.level}))
        if update.kind == "finish" and table.version == 0:  # e.g. a 1234 player dropped out
            board.log.append(("decided-by-deal", {}))
        self._mark(update.position)

    async def answer_public(self, interaction: Interaction, table: Position) -> None:
        """Answer a click on the public message by editing it to the table as it is now.

        While a move is being applied and stored (the table's lock is held) the position may
        not be shown yet: the click is acknowledged at once and the coalesced edit, which waits
        for the lock, shows the table.
        """
        board = self.board(table.table_id)
        now = self.manager.settled(table.table_id)
        if now is None:  # a move is being applied and stored: shown by the coalesced edit
            await interaction.response.defer()
            self._mark(table)
            await self._adopt(interaction, table)
            return
        overview = now.overview_at
        clicked = None if interaction.message is None else interaction.message.id
        if overview is not None and clicked == overview[1]:  # the compact one, in the channel
            compact = self.render_overview(now)
            async with board.lock:
                await interaction.response.edit_message(
                    content=compact.content, embed=compact.embed, view=compact.view,
                    attachments=[],
                    allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                             roles=False))
            board.sent_overview = compact.key()
            self._mark(now)  # the thread's message shows the change too
            return
        payload = self.render(now)
        embed = payload.embed
        if payload.picture is not None and embed is not None:
            # a picture takes a moment to draw: answer with the words now, and let the
            # coalesced edit add the picture
            embed = discord.Embed.from_dict(embed.to_dict())
            embed.set_image(url=None)
        async with board.lock:  # taken before the first await: no coalesced edit overtakes
            await interaction.response.edit_message(
                content=payload.content, embed=embed, view=payload.view, attachments=[],
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False))
        if payload.picture is None:
            board.sent = payload.key()
        else:
            board.sent = None
            self._mark(table)
        if overview is not None:
            self._mark(now)  # the channel's message shows the change too
        await self._adopt(interaction, table)

    async def _adopt(self, interaction: Interaction, table: Position) -> None:
        """A table whose message was never stored (the bot stopped between posting the lobby
        and storing its id) takes the public message its buttons were clicked on; otherwise
        its message would never show a move again."""
        message = interaction.message
        if (table.message_id is None and message is not None
                and not is_private(interaction) and self.manager.is_open(table.table_id)):
            await self.manager.set_message(table.table_id, message.id)
            self._mark(table)

