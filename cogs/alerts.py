"""Turn alerts: a short new message that mentions the person whose turn has come.

Discord notifies nobody of a mention added by editing a message, so the table message's
"it's your turn" reaches no one; a new message does. A table with a thread of its own
(:mod:`cogs.threads`) has its alerts there; one playing in its channel has them in the
channel, as a reply to the table message. Either stays readable: a table has
at most one alert at a time (the previous one is deleted before the next is posted, and as
soon as nobody it names is still to act), computers and seats the computer keeps get none,
and neither do people who get their hands by direct message (the DM is their alert) or who
turned alerts off (``/settings alerts``). An alert mentions only the people it is for
(allowed mentions), replies to the table message (a tap leads there) and carries a Hand
button: a way back to a live panel whose token has run out.

Rate limits: per human turn one message posted and one deleted in the table's channel, one
request at a time per table. In a thread the alert is a follow-up of the latest interaction
there while its token is fresh, and deleted through that token (:mod:`cogs.tokens`): Discord
does not count those against the bot's global limit of 50 requests a second, which the alerts
took two of every three counted requests of a move before. A follow-up replies to no message,
so an alert in the table's channel (no thread) goes by the bot's token.

A restart pings nobody again. Each table's alert is stored (``bot_state``: its message, where
it is, whom it names and the deadline it shows; :class:`StoredAlert`), and Discord keeps the
message while the bot is down. The first time a process hears of a table it had at its start,
the stored alert is looked at: one that names exactly the people who would be alerted now is
kept (its words edited, which notifies nobody, when the deadline moved by the downtime); one
that does not (someone moved for a person at a deadline that had passed, a thread the table
left) is deleted and the alert that is due posted, as at any change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot import lane, logs, tasks
from bot.i18n import t
from bot.tables import LOBBY, PLAYING, Position, Refusal, TableManager
from cogs import discord_errors, ids
from cogs.discord_errors import gone_reason
from cogs.prefs import Preferences
from cogs.tokens import KeptInteraction, Tokens
from cogs.views import StaticView, button_item, game_name

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)


def shown_deadline(table: Position) -> int | None:
    """The deadline an alert of the table shows now (None: none, or not this turn's)."""
    deadline = table.deadline  # the turn's deadline as the service keeps it (any pace)
    return None if deadline is None or deadline[0] != table.version else int(deadline[1])


@dataclass(frozen=True)
class StoredAlert:
    """A table's alert as stored for the next process: enough to tell whether it still says
    the right thing then, without asking Discord."""

    message_id: int
    channel_id: int | None  # None: stored by an older bot (where the table plays)
    named: frozenset[int] | None  # None: stored by an older bot (not known)
    deadline: int | None = None  # the deadline its words show

    def text(self) -> str:
        """The stored form."""
        return json.dumps({"m": self.message_id, "c": self.channel_id,
                           "who": sorted(self.named or ()), "at": self.deadline})

    @staticmethod
    def read(value: str | None) -> StoredAlert | None:
        """The stored form read (None: no alert, or one that cannot be read)."""
        if not value:
            return None
        if value.isdigit():  # an older bot's: the message alone
            return StoredAlert(int(value), None, None)
        try:
            found = json.loads(value)
            at = found.get("at")
            return StoredAlert(int(found["m"]), int(found["c"]),
                               frozenset(int(u) for u in found["who"]),
                               None if at is None else int(at))
        except (ValueError, TypeError, KeyError, AttributeError):
            log.warning("a stored turn alert could not be read (%r)", value[:80])
            return None


@dataclass(eq=False)
class TableAlert:
    """The alert of one table: who is due, who still needs one, and the message posted."""

    due: frozenset[int] = frozenset()  # people the table waits for now
    fresh: set[int] = field(default_factory=set)  # whose turn began, not yet alerted
    message_id: int | None = None
    mentioned: frozenset[int] = frozenset()
    task: asyncio.Task[None] | None = None
    version: int = 0
    #: the table's public position at its last news (what the alert says and links to)
    position: Position | None = None
    #: where the posted alert is: the table's thread, or its channel
    channel_id: int | None = None
    #: the deadline the posted alert shows
    shown: int | None = None
    #: whether the alert a process before this one stored for the table was looked at
    looked: bool = True
    #: the interaction whose follow-up the posted alert is (None: posted by the bot's token)
    via: KeptInteraction | None = None


class Alerts:
    """Every table's alert."""

    def __init__(self, bot: Deckhand, manager: TableManager, public_lang: Callable[[Position], str],
                 prefs: Preferences, tokens: Tokens | None = None) -> None:
        self.bot = bot
        #: interactions at each table: an alert goes as a follow-up of one, outside Discord's
        #: global limit, when there is one (None: always by the bot's token)
        self.tokens = tokens
        self.manager = manager
        self.public_lang = public_lang  # the language of a table's server
        self.prefs = prefs
        self.tables: dict[int, TableAlert] = {}
        self.posted = 0
        self.deleted = 0
        self.kept = 0  # alerts of a process before this one kept at a restart
        #: until the tables resumed at the start are all heard of: a table first heard of
        #: meanwhile may have an alert stored by the process before
        self.restarting = True
        #: told when the table's thread refuses its alert for good (table, thread, why): the
        #: table then plays in its channel (:meth:`cogs.threads.TableThreads.left`)
        self.thread_lost: Callable[[int, int, str], Awaitable[None]] | None = None
        #: waits while the table's thread is being opened; whether it was
        #: (:meth:`cogs.threads.TableThreads.opened`): the alert goes there, not the channel
        self.thread_opened: Callable[[int], Awaitable[bool]] | None = None

    async def idle(self, table_id: int) -> None:
        """Wait until a table's alert is as it should be (its task done)."""
        entry = self.tables.get(table_id)
        while entry is not None and entry.task is not None and not entry.task.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(entry.task)
            entry = self.tables.get(table_id)

    def changed(self, position: Position) -> None:
        """The service's news (quick): the table's public position now; note whose turn
        began, and start the table's alert task if there is something to post or delete."""
        entry = self.tables.get(position.table_id)
        if entry is None:  # (a lobby never had an alert)
            entry = self.tables[position.table_id] = TableAlert(
                looked=not self.restarting or position.status == LOBBY)
        entry.position = position
        due = position.people_due
        entry.fresh |= due - entry.due
        entry.fresh &= due
        entry.due = due
        entry.version = position.version
        if self._work(entry) and (entry.task is None or entry.task.done()):
            entry.task = tasks.background(self._run(position, entry))
        elif position.status != PLAYING and entry.message_id is None and (
                entry.task is None or entry.task.done()):
            self.tables.pop(position.table_id, None)

    @staticmethod
    def _work(entry: TableAlert) -> bool:
        """Whether the alert must change: someone to alert, an alert nobody needs, or one
        stored before a restart to look at."""
        return not entry.looked or bool(entry.fresh) or (
            entry.message_id is not None and not entry.mentioned & entry.due)

    async def _wants(self, user_id: int) -> bool:
        """Whether a person wants alerts: on, and hands not by direct message."""
        chosen = await self.prefs.of(user_id)
        return chosen.alerts and not chosen.dm

    async def _run(self, table: Position, entry: TableAlert) -> None:
        """Delete the alert nobody needs, then post the one that is due; one at a time, in
        the background lane (:mod:`bot.lane`)."""
        refused = 0  # changes Discord refused for now in a row
        try:
            while self._work(entry):
                if self.thread_opened is not None and await self.thread_opened(table.table_id):
                    # (no lane slot held meanwhile) the position now names the thread
                    entry.position = await self.manager.latest(table.table_id) or entry.position
                try:
                    async with self.bot.lane.slot(lane.ALERT):  # one change at a time
                        await self._step(entry.position or table, entry)
                    if refused:
                        log.info("table %s: its turn alert is as it should be again",
                                 table.table_id)
                    refused = 0
                except Exception as exc:
                    if not discord_errors.for_now(exc) or refused >= len(discord_errors.RETRIES):
                        raise
                    # the change is still due (_step keeps it): made again a little later
                    if not refused:
                        log.warning("table %s: Discord refused a turn alert's change (%s);"
                                    " trying again", table.table_id, discord_errors.described(exc))
                    await asyncio.sleep(discord_errors.RETRIES[refused])
                    refused += 1
        except Exception as exc:  # an alert lost must not stop the game
            if discord_errors.for_now(exc):
                log.warning("table %s: Discord refused a turn alert's change %d times (%s)",
                            table.table_id, refused + 1, discord_errors.described(exc))
            else:
                log.warning("table %s: could not post or delete a turn alert (%s)", table.table_id,
                            type(exc).__name__, extra=logs.failure(exc))
        finally:
            if (entry.position or table).status != PLAYING and entry.message_id is None:
                self.tables.pop(table.table_id, None)

    async def _step(self, table: Position, entry: TableAlert) -> None:
        """One change of a table's alert: the one nobody needs deleted, the due one posted."""
        if not entry.looked and await self._adopt(table, entry):
            return  # the alert from before the restart still says the right thing: kept
        if entry.message_id is not None:
            found, named = entry.message_id, entry.mentioned
            entry.message_id, entry.mentioned = None, frozenset()
            try:
                # (a thread deleted or locked meanwhile: its alert goes, or stays, with it)
                with contextlib.suppress(discord.NotFound, discord.Forbidden):
                    await self._delete(table, entry, found)
            except Exception:  # still there: deleted at the next change
                entry.message_id, entry.mentioned = found, named
                raise
            self.deleted += 1
            await self._remember(table.table_id, None)
        fresh, entry.fresh = entry.fresh & entry.due, set()
        wanted = sorted([u for u in fresh if await self._wants(u)])
        wanted = [u for u in wanted if u in entry.due]  # may have moved meanwhile
        if not wanted or table.status != PLAYING or table.message_id is None:
            return  # (a table whose message is being posted again: none to reply to)
        thread = table.thread_id
        target = thread or table.channel_id
        try:
            message, via = await self._post(table, target, wanted)
        except Exception as exc:  # not posted: still due to whoever is still to act
            entry.fresh |= set(wanted)
            reason = gone_reason(exc) if thread is not None else None
            if reason is None or thread is None or self.thread_lost is None:
                raise
            # the thread is gone for good: the table carries on in its channel, where the
            # next round posts this alert (the position it is drawn from changed)
            await self.thread_lost(table.table_id, thread, reason)
            if entry.position is not None and entry.position.thread_id == thread:
                raise
            return
        entry.message_id, entry.mentioned = message.id, frozenset(wanted)
        entry.channel_id, entry.shown, entry.via = target, shown_deadline(table), via
        self.posted += 1
        await self._remember(table.table_id, StoredAlert(message.id, target, entry.mentioned,
                                                         entry.shown))

    async def _post(self, table: Position, target: int,
                    wanted: list[int]) -> tuple[discord.Message, KeptInteraction | None]:
        """Post the alert in ``target``: a follow-up of the latest interaction there while
        its token is fresh (not counted against Discord's global limit), else by the bot's
        token; and the interaction it went through."""
        words = self._message(table, wanted)
        tokens = self.tokens
        # (a follow-up cannot reply: an alert in the table's channel replies to its message)
        seen = None if tokens is None or "reference" in words else tokens.in_channel(
            table.table_id, target)
        if tokens is not None and seen is not None:
            sent, message = await tokens.attempt(
                table.table_id, seen, lambda i: i.followup.send(wait=True, **words), "its alert")
            if sent and message is not None:
                return message, seen
        return await self.bot.get_partial_messageable(target).send(**words), None

    async def _delete(self, table: Position, entry: TableAlert, message_id: int) -> None:
        """Delete the posted alert: through the token it was posted by while that is fresh."""
        via, tokens = entry.via, self.tokens
        if via is not None and tokens is not None and tokens.fresh(via):
            # (refused for now: raised with ``entry.via`` kept, tried again through it)
            deleted, _ = await tokens.attempt(
                table.table_id, via, lambda i: i.followup.delete_message(message_id),
                "deleting its alert", keep=(discord.NotFound,))
            if deleted:
                entry.via = None
                return
        entry.via = None
        where = self.bot.get_partial_messageable(entry.channel_id or table.channel_id)
        await where.get_partial_message(message_id).delete()

    async def _adopt(self, table: Position, entry: TableAlert) -> bool:
        """The first news of a table the process had at its start: the alert the process
        before stored for it, kept when it names exactly the people who would be alerted
        now, where the table plays now; otherwise noted to be deleted. Whether kept."""
        entry.looked = True
        try:
            stored = StoredAlert.read(await self.bot.store.state(f"alert:{table.table_id}"))
        except Exception as exc:  # as if none: at worst an alert is posted a second time
            log.warning("table %s: could not read its stored turn alert (%s)", table.table_id,
                        type(exc).__name__, extra=logs.failure(exc))
            return False
        if stored is None or entry.message_id is not None:
            return False
        here = table.thread_id or table.channel_id
        wanted = frozenset([u for u in entry.due if await self._wants(u)])
        if table.status == PLAYING and wanted and stored.named == wanted and (
                stored.channel_id == here):
            entry.message_id, entry.mentioned, entry.channel_id = stored.message_id, wanted, here
            entry.shown = stored.deadline
            entry.fresh = set()  # each person due is named, or wants no alert
            if stored.deadline != shown_deadline(table):
                await self._redate(table, entry)
            if entry.message_id is not None:
                self.kept += 1
                return True
            return False
        entry.message_id, entry.channel_id = stored.message_id, stored.channel_id or here
        entry.mentioned = frozenset()  # deleted at once, whoever it names
        return False

    async def _redate(self, table: Position, entry: TableAlert) -> None:
        """A kept alert's words show the deadline the table has now (the downtime was added
        to it): an edit, which notifies nobody."""
        assert entry.message_id is not None and entry.channel_id is not None
        alert = self.bot.get_partial_messageable(entry.channel_id).get_partial_message(
            entry.message_id)
        words = self._message(table, sorted(entry.mentioned))
        try:
            await alert.edit(content=words["content"], allowed_mentions=words["allowed_mentions"])
        except discord.NotFound:  # deleted while the bot was down: the alert is posted again
            entry.message_id, entry.mentioned = None, frozenset()
            entry.fresh = set(entry.due)
            await self._remember(table.table_id, None)
            return
        except Exception as exc:  # kept all the same: its deadline is a little early
            log.warning("table %s: could not show the moved deadline on its turn alert (%s)",
                        table.table_id, type(exc).__name__, extra=logs.failure(exc))
            return
        entry.shown = shown_deadline(table)
        await self._remember(table.table_id, StoredAlert(entry.message_id, entry.channel_id,
                                                         entry.mentioned, entry.shown))

    async def _remember(self, table_id: int, alert: StoredAlert | None) -> None:
        """Store a table's alert (or that it has none), for the process after this one."""
        try:
            await self.bot.store.set_state(f"alert:{table_id}",
                                           "" if alert is None else alert.text())
        except Exception as exc:  # the alert still works; only a restart would miss it
            log.warning("table %s: could not store its turn alert (%s)", table_id,
                        type(exc).__name__, extra=logs.failure(exc))

    async def resumed(self, tables: list[Position]) -> None:
        """After a restart (the table messages refreshed): every resumed table's stored alert
        looked at by the table's alert task, kept or replaced (:meth:`_adopt`); a table heard
        of since the start has had its look already. A table closed meanwhile loses its
        alert."""
        await self.bot.wait_until_ready()
        try:
            for table in tables:
                if table.table_id in self.tables:
                    continue
                if not self.manager.is_open(table.table_id):
                    await self._drop_stored(table)
                    continue
                with contextlib.suppress(Refusal):  # closed meanwhile: no alert
                    self.changed(await self.manager.position(table.table_id))
        finally:
            self.restarting = False

    async def _drop_stored(self, table: Position) -> None:
        """A table closed by the time its alert is looked at: the stored alert deleted."""
        try:
            stored = StoredAlert.read(await self.bot.store.state(f"alert:{table.table_id}"))
            if stored is None:
                return
            channel = self.bot.get_partial_messageable(stored.channel_id or table.thread_id
                                                       or table.channel_id)
            with contextlib.suppress(discord.NotFound, discord.Forbidden):
                await channel.get_partial_message(stored.message_id).delete()
            self.deleted += 1
            await self._remember(table.table_id, None)
        except Exception as exc:
            log.warning("table %s: could not delete its old turn alert (%s)", table.table_id,
                        type(exc).__name__, extra=logs.failure(exc))

    def _message(self, table: Position, users: list[int]) -> dict[str, Any]:
        """The alert: the people named, the game, the timer as a relative time, a Hand
        button."""
        lang = self.public_lang(table)
        who = ", ".join(f"<@{u}>" for u in users)
        deadline = shown_deadline(table)
        if deadline is None:
            text = t("alert", lang, who=who, game=game_name(table, lang))
        else:
            text = t("alert-timer", lang, who=who, game=game_name(table, lang),
                     when=f"<t:{deadline}:R>")
        view = StaticView()
        view.add_item(button_item(t("hand", lang), ids.make("hand", table.table_id, table.version),
                                  discord.ButtonStyle.primary, 0))
        found: dict[str, Any] = {
            "content": text, "view": view,
            "allowed_mentions": discord.AllowedMentions(
                users=[discord.Object(u) for u in users], everyone=False, roles=False,
                replied_user=False)}
        if table.message_id is not None and table.thread_id is None:
            # a reply leads to the table message in its channel (a thread starts from it:
            # no reply there, which Discord refuses across channels)
            found["reference"] = discord.MessageReference(
                message_id=table.message_id, channel_id=table.channel_id,
                fail_if_not_exists=False)
            found["mention_author"] = False
        return found

    async def close(self) -> None:
        """Stop the alert tasks (at unload)."""
        tasks = [e.task for e in self.tables.values() if e.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
