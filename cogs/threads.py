"""A table in its own thread: the thread opened from the table message, its commentary, its
end, and the table's way back to the channel when the thread goes.

``/play`` posts the table message in the channel and opens a public thread from it, so any
number of tables share a channel without talking over each other: the channel keeps one
compact message per table (its buttons, whose turn, the result at the end), the thread gets
the turn alerts (:mod:`cogs.alerts`), a line per deal result and the final result, and is
archived at the end. The service knows the thread (``TableManager.set_thread``), so a click
from inside it is the table's own.

Where the bot may not open a thread or write in one (the channel's permissions), the table
plays in the channel as before and its host is told once which permission to grant. A thread
a moderator deletes, or archives and locks, mid-game is left: the table carries on in the
channel, and its message says why.

Rate limits: per deal one message in the thread, at the end one message and one edit (the
archive); one request at a time per table, in the background lane.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot import lane, logs, tasks
from bot.i18n import lang_of, t
from bot.names import plain
from bot.tables import Cancelled, DealEnded, GameEnded, Position, Refusal, TableEvent
from bot.tables.results import deal_title, points_text
from cogs import discord_errors
from cogs.discord_errors import gone_reason
from cogs.views import Payload, game_name, result_text

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand
    from bot.tables import TableManager
    from cogs.alerts import Alerts
    from cogs.board import TableMessages

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: minutes of quiet before Discord archives a thread on its own: the longest it offers (a
#: week), since a correspondence game may wait days for a move; the bot's next post in an
#: archived (not locked) thread opens it again anyway
AUTO_ARCHIVE: Literal[10080] = 10080
#: the longest name Discord takes for a thread
NAME_MOST = 100
#: the longest a turn alert waits for its table's thread being opened (seconds)
OPENING_MOST = 15.0


@dataclass(eq=False)
class TableThread:
    """What the bot still has to say in one table's thread, in order."""

    thread_id: int
    pending: deque[tuple[str, str]] = field(default_factory=deque)  # (kind, text)
    task: asyncio.Task[None] | None = None
    archive: bool = False  # archive the thread once everything pending is said


class TableThreads:
    """Every table's thread: opened at /play, written in as the game goes, archived at the end,
    left when a moderator takes it away."""

    def __init__(self, bot: Deckhand, manager: TableManager, messages: TableMessages,
                 alerts: Alerts) -> None:
        self.bot = bot
        self.manager = manager
        self.messages = messages
        self.alerts = alerts
        self.tables: dict[int, TableThread] = {}
        #: each known thread's table (a gateway event about a thread names the thread alone)
        self.by_thread: dict[int, int] = {}
        #: (host, channel) told already that the channel lacks a thread permission
        self.told: set[tuple[int, int]] = set()
        #: the tables whose thread is being opened, each set once it is (or cannot be)
        self.opening: dict[int, asyncio.Event] = {}
        self.posted = 0
        self.archived = 0

    # -- opening ----------------------------------------------------------------------------
    @staticmethod
    def missing(interaction: Interaction) -> list[str]:
        """The thread permissions the bot lacks in the interaction's channel (message keys)."""
        have = interaction.app_permissions
        return [key for key, held in (
            ("perm-create-public-threads", have.create_public_threads),
            ("perm-send-messages-in-threads", have.send_messages_in_threads)) if not held]

    async def open(self, interaction: Interaction, table: Position,
                   message: discord.Message) -> None:
        """After /play posted the table message: open the table's thread from it, or tell
        the host (once) which permission the channel lacks. The table plays in its channel
        when no thread opens."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            return  # a thread, a voice channel's chat: a thread cannot start there
        missing = self.missing(interaction)
        if missing:
            await self._tell_host(interaction, missing)
            return
        done = self.opening[table.table_id] = asyncio.Event()
        try:
            await self._open(interaction, table, message)
        finally:
            done.set()
            self.opening.pop(table.table_id, None)

    async def opened(self, table_id: int) -> bool:
        """Wait, up to :data:`OPENING_MOST` seconds, while the table's thread is being opened;
        whether it was being opened (then the table's position, which names its thread once it
        is open, is worth reading again). A table started at once, while Discord's global
        limit holds the thread's requests back, would otherwise have its first turn alert
        posted in the channel, among the other tables' messages, instead of in the table's
        thread with the rest of the table (at 1,000 tables, 964 tables' first alerts)."""
        done = self.opening.get(table_id)
        if done is None:
            return False
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(OPENING_MOST):
                await done.wait()
        return True

    async def _open(self, interaction: Interaction, table: Position,
                    message: discord.Message) -> None:
        """:meth:`open`, the bot allowed to open the thread."""
        lang = lang_of(interaction.guild_locale)
        name = t("thread-name", lang, game=game_name(table, lang), id=table.table_id)
        try:
            thread = await message.create_thread(name=name[:NAME_MOST],
                                                 auto_archive_duration=AUTO_ARCHIVE)
        except discord.HTTPException as exc:  # the table plays in the channel
            log.warning("table %s: could not open its thread (%s)", table.table_id,
                        discord_errors.described(exc))
            if isinstance(exc, discord.Forbidden):
                await self._tell_host(interaction, ["perm-create-public-threads"])
            return
        self.by_thread[thread.id] = table.table_id
        posted = await self._post_board(table.table_id, thread)
        try:
            await self.manager.set_thread(table.table_id, thread.id,
                                          None if posted is None else posted[0].id)
        except Refusal:  # cancelled meanwhile: its thread has nothing to say
            self.by_thread.pop(thread.id, None)
            return
        self.messages.into_thread(table.table_id, None if posted is None else posted[1])
        now = await self.manager.latest(table.table_id)
        if now is not None:  # what changed meanwhile; the channel's message turns compact
            self.messages.mark(now)

    async def _post_board(self, table_id: int, thread: discord.Thread
                          ) -> tuple[discord.Message, Payload] | None:
        """The whole table's message, posted in its new thread (None: it could not be: the
        whole table then stays in the channel's message, as before threads held it)."""
        position = await self.manager.latest(table_id)
        if position is None:
            return None
        payload = self.messages.render(position)
        try:
            message = await thread.send(**payload.send(), files=await payload.files(),
                                        allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("table %s: could not post the table in its thread (%s)", table_id,
                        discord_errors.described(exc))
            return None
        return message, payload

    async def _tell_host(self, interaction: Interaction, missing: list[str]) -> None:
        """The host learns, privately and once per channel, what the server should grant."""
        told = (interaction.user.id, interaction.channel_id or 0)
        if told in self.told:
            return
        self.told.add(told)
        lang = lang_of(interaction.locale)
        text = t("thread-permission", lang,
                 permissions=", ".join(t(key, lang) for key in missing))
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not tell a host which thread permission is missing (%s)",
                        discord_errors.described(exc))

    # -- the game's news --------------------------------------------------------------------
    def known(self, position: Position) -> None:
        """Note a table's thread (a table's news, or a table resumed at start)."""
        if position.thread_id is not None:
            self.by_thread[position.thread_id] = position.table_id

    def changed(self, update: TableEvent) -> None:
        """The service's news (quick): a deal's result, the game's result or its cancelling
        is said in the table's thread, and the thread archived at the end."""
        position = update.position
        self.known(position)
        if position.thread_id is None:
            return
        if isinstance(update, DealEnded):
            line = self._deal_line(position, update.deal)
            if line:
                self._say(position, "deal", line)
        elif isinstance(update, GameEnded):
            self._say(position, "end", self._end_line(position), archive=True)
        elif isinstance(update, Cancelled):
            self._say(position, "end", t(position.ended or "cancelled",
                                         self.messages.public_lang(position)), archive=True)

    def _deal_line(self, position: Position, deal: int) -> str:
        """A deal's result: its title and what each seat gained (no card: nothing hidden)."""
        lang = self.messages.public_lang(position)
        tally = next((x for x in reversed(position.tallies) if x.deal == deal),
                     position.tallies[-1] if position.tallies else None)
        if tally is None:
            return ""
        names = [plain(seat.name) for seat in position.seats]
        gains = " · ".join(
            t("thread-gain", lang, name=names[s], points=points_text(tally.gains[s]),
              total=points_text(tally.totals[s]).lstrip("+"))
            for s in range(min(len(names), len(tally.gains), len(tally.totals))))
        return t("thread-deal", lang, title=deal_title(position.rules, tally, lang),
                 gains=gains)

    def _end_line(self, position: Position) -> str:
        lang = self.messages.public_lang(position)
        return t("finished", lang, result=result_text(position, lang))

    def _say(self, position: Position, kind: str, text: str, archive: bool = False) -> None:
        assert position.thread_id is not None
        entry = self.tables.get(position.table_id)
        if entry is None or entry.thread_id != position.thread_id:
            entry = self.tables[position.table_id] = TableThread(position.thread_id)
        entry.pending.append((kind, text))
        entry.archive = entry.archive or archive
        if entry.task is None or entry.task.done():
            entry.task = tasks.background(self._run(position.table_id, entry))

    async def _run(self, table_id: int, entry: TableThread) -> None:
        """Say what is pending, then archive the thread if the table is over; what Discord
        refuses for now is tried again a little later, a thread taken away is left."""
        refused = 0
        try:
            while entry.pending or entry.archive:
                try:
                    async with self.bot.lane.slot(lane.ALERT):
                        if entry.pending:
                            await self._post(entry, entry.pending[0][1])
                            entry.pending.popleft()
                            self.posted += 1
                            refused = 0
                            continue
                    # its last alert and its messages' last edits go before the archive
                    await self.alerts.idle(table_id)
                    await self.messages.idle(table_id)
                    async with self.bot.lane.slot(lane.ALERT):
                        await self._archive(entry.thread_id)
                    entry.archive = False
                    self.archived += 1
                except Exception as exc:
                    reason = gone_reason(exc)
                    if reason is not None:
                        entry.pending.clear()
                        entry.archive = False
                        await self.left(table_id, entry.thread_id, reason)
                        return
                    if not discord_errors.for_now(exc) or refused >= len(discord_errors.RETRIES):
                        raise
                    await asyncio.sleep(discord_errors.RETRIES[refused])
                    refused += 1
        except Exception as exc:  # a line lost must not stop the game
            log.warning("table %s: could not write in its thread (%s)", table_id,
                        discord_errors.described(exc), extra=logs.failure(exc))
        finally:
            if self.tables.get(table_id) is entry and not entry.pending:
                self.tables.pop(table_id, None)

    async def _post(self, entry: TableThread, text: str) -> None:
        thread = self.bot.get_partial_messageable(entry.thread_id)
        await thread.send(content=text[:2000], allowed_mentions=discord.AllowedMentions.none())

    async def _archive(self, thread_id: int) -> None:
        """Archive the thread (the bot started it: no moderator's permission needed)."""
        found = self.bot.get_channel(thread_id)
        if not isinstance(found, discord.Thread):
            fetched = await self.bot.fetch_channel(thread_id)
            if not isinstance(fetched, discord.Thread):
                return
            found = fetched
        if not found.archived:
            await found.edit(archived=True)
        self.by_thread.pop(thread_id, None)

    # -- a thread taken away ----------------------------------------------------------------
    async def left(self, table_id: int, thread_id: int, reason: str) -> None:
        """The table's thread is gone (deleted, locked, or no longer writable): the table
        carries on in its channel, whose message says why."""
        self.by_thread.pop(thread_id, None)
        if not self.manager.is_open(table_id):
            return  # over: its result is in the channel message already
        position = await self.manager.latest(table_id)
        if position is None or position.thread_id != thread_id:
            return  # left already
        log.info("table %s: its thread is gone (%s); it plays in its channel", table_id, reason)
        with contextlib.suppress(Refusal):  # closed meanwhile
            # the channel's message (the thread's starter: the same id) shows the whole
            # table again
            await self.manager.set_thread(table_id, None, thread_id)
        self.messages.out_of_thread(table_id)
        await self.messages.notice(table_id, reason)
        now = await self.manager.latest(table_id)
        if now is not None:
            self.messages.mark(now)
            self.alerts.changed(now)  # its next alert goes to the channel

    async def thread_deleted(self, thread_id: int) -> None:
        """Gateway: a thread was deleted."""
        table_id = self.by_thread.get(thread_id)
        if table_id is not None:
            await self.left(table_id, thread_id, "thread-deleted")

    async def thread_updated(self, thread_id: int, data: dict[str, Any]) -> None:
        """Gateway: a thread changed; archived and locked (a moderator's doing: the bot can
        no longer write there) it is left. Archived alone it opens again at the next post."""
        table_id = self.by_thread.get(thread_id)
        meta = data.get("thread_metadata") or {}
        if table_id is not None and meta.get("archived") and meta.get("locked"):
            await self.left(table_id, thread_id, "thread-locked")

    async def close(self) -> None:
        """Stop the thread tasks (at unload)."""
        running = [e.task for e in self.tables.values() if e.task is not None]
        for task in running:
            task.cancel()
        for task in running:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
