"""The service's time news made into messages: a turn's reminder, a missed deadline, and the
daily digest.

A reminder (``TurnReminder``, at 80 % of a correspondence deadline, out of the person's quiet
hours) is a mention in the table's thread, or its channel when it plays there, or a DM for
those who get their hands by DM. A missed deadline (``DeadlineMissed``) is said where the
table plays. The digest (``DigestDue``, once a day) is a DM listing the tables where it is the
person's move. Each carries a button that opens the person's own hand at the table (custom id
``mine``): a fresh interaction, so a fresh token, whenever it is clicked; a click once the
table has ended is told how it ended (:mod:`cogs.yours`).

Rate limits: one message per reminder, notice or digest, each posted once in a task of its
own; a failure is logged and the game goes on.

A digest whose hour came while the bot was down is sent once, soon after the start: the
service schedules each person's next digest after its start, so it would otherwise be lost.
Which were missed is told by the instant the service was last alive before the start (its
last heartbeat, as the service found it when it resumed: ``TableManager.down_since``, read
once the bot is ready; the store's heartbeat is the new process's by then): a person's latest
09:00 after it fell in the downtime. Each digest sent is stored with its local day
(``bot_state`` ``digest:<user>``), so a day's digest is never sent twice, whatever the
restarts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot import logs, tasks
from bot.i18n import lang_of, t
from bot.names import plain
from bot.tables import (
    PLAYING,
    DeadlineMissed,
    DigestDue,
    Position,
    Refusal,
    TableEvent,
    TurnReminder,
)
from bot.tables.pace import DAY, next_digest, zone
from cogs.controls import open_button
from cogs.prefs import Preferences
from cogs.views import StaticView, game_name
from cogs.yours import list_payload, mine_button, table_link, time_left

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)


def last_digest(now: float, tz: str) -> float:
    """A person's latest digest instant at or before ``now`` (09:00 local in ``tz``)."""
    found = when = next_digest(now - 2 * DAY, tz)
    while when <= now:
        found, when = when, next_digest(when, tz)
    return found


def digest_day(instant: float, tz: str) -> str:
    """The local day of a digest, as it is stored (``2031-03-04``)."""
    return datetime.fromtimestamp(instant, zone(tz)).date().isoformat()


def where_it_plays(position: Position) -> int:
    """The channel a table's news goes to: its thread, else its channel."""
    thread = getattr(position, "thread_id", None)
    return int(thread) if thread is not None else position.channel_id


class Reminders:
    """Posts reminders, missed deadlines' notices and digests."""

    def __init__(self, bot: Deckhand, public_lang: Callable[[Position], str],
                 prefs: Preferences) -> None:
        self.bot = bot
        self.public_lang = public_lang  # the language of a table's server
        self.prefs = prefs
        self.sent = 0  # messages posted (reminders, notices, digests)
        # made before the service resumes its tables (the cog is loaded first): the catch-up
        # waits for the resume (a command sync alone sends nothing)
        if not getattr(bot, "only_sync", False):
            tasks.background(self._catch_up())

    async def on_event(self, update: TableEvent) -> None:
        """A table's news (quick): a reminder or a missed deadline, each sent in a task."""
        if isinstance(update, TurnReminder):
            tasks.background(self._guarded(self.remind(update), update.table_id))
        elif isinstance(update, DeadlineMissed):
            tasks.background(self._guarded(self.missed(update), update.table_id))

    async def on_person(self, news: object) -> None:
        """A person's news (quick): the daily digest, sent in a task."""
        if isinstance(news, DigestDue):
            tasks.background(self._guarded(self.digest(news), None))

    async def _guarded(self, work: Any, table_id: int | None) -> None:
        try:
            await work
        except Exception as exc:  # a message lost must not stop the game
            log.warning("table %s: could not send a reminder, notice or digest (%s)", table_id,
                        type(exc).__name__, extra=logs.failure(exc))

    async def remind(self, event: TurnReminder) -> None:
        """A turn's reminder: in a DM for those who chose DMs, else a mention where the table
        plays."""
        position, user_id = event.position, event.user_id
        chosen = await self.prefs.of(user_id)
        left = time_left(position) or "?"
        if chosen.dm:
            lang = lang_of(chosen.locale)
            view = StaticView()
            view.add_item(mine_button(position, lang, 0))
            text = t("remind-dm", lang, game=game_name(position, lang), when=left,
                     link=table_link(position))
            await self._dm(user_id, content=text, view=view)
            return
        lang = self.public_lang(position)
        view = StaticView()
        view.add_item(mine_button(position, lang, 0))
        if self.bot.activity_configured:  # the live web table, opened where the table plays
            view.add_item(open_button(position.table_id, lang, 0))
        channel = self.bot.get_partial_messageable(where_it_plays(position))
        await channel.send(
            t("remind", lang, who=f"<@{user_id}>", game=game_name(position, lang), when=left),
            view=view, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(user_id)], everyone=False, roles=False))
        self.sent += 1

    async def missed(self, event: DeadlineMissed) -> None:
        """A missed deadline, said where the table plays (no mention: the news is public)."""
        position, seat = event.position, event.seat
        lang = self.public_lang(position)
        name = plain(position.seats[seat].name) if seat < len(position.seats) else "?"
        key = "deadline-dropped" if event.dropped else "deadline-moved"
        view = StaticView()
        if not event.dropped:  # still their seat: a way back to their hand
            view.add_item(mine_button(position, lang, 0))
        channel = self.bot.get_partial_messageable(where_it_plays(position))
        await channel.send(t(key, lang, name=name, game=game_name(position, lang)), view=view,
                           allowed_mentions=discord.AllowedMentions.none())
        self.sent += 1

    async def digest(self, news: DigestDue, day: str | None = None) -> None:
        """The daily digest: the tables where it is the person's move, in a DM; stored as
        sent for its local day (``day``; None: today's, in the person's time zone)."""
        positions = tuple(news.positions)
        if not positions:
            return
        chosen = await self.prefs.of(news.user_id)
        lang = lang_of(chosen.locale)
        if day is None:
            day = digest_day(self.bot.manager.clock.now(), chosen.tz)
        _, embed, view = list_payload(positions, news.user_id, lang)
        await self._dm(news.user_id, content=t("digest-title", lang, count=len(positions)),
                       embed=embed, view=view)
        try:
            await self.bot.store.set_state(f"digest:{news.user_id}", day)
        except Exception as exc:  # sent; only a restart today could send it again
            log.warning("could not store a digest as sent (%s)", type(exc).__name__,
                        extra=logs.failure(exc))

    async def _catch_up(self) -> None:
        """At the start: each digest that fell due while the bot was down, sent once."""
        await self.bot.wait_until_ready()  # the tables resumed: how long it was down is known
        last = self.bot.manager.down_since
        if last is None:
            return  # a first start
        now = self.bot.manager.clock.now()
        for user_id, tz in (await self.bot.store.digest_people()).items():
            try:
                zone(tz)
            except Refusal:  # a zone no longer known: UTC, as the service takes it
                tz = "UTC"
            await self._guarded(self._missed_digest(user_id, tz, last, now), None)

    async def _missed_digest(self, user_id: int, tz: str, last: float, now: float) -> None:
        """A person's digest, when its latest hour came after the bot was last alive (the
        service was down at it) and none was sent that day."""
        due = last_digest(now, tz)
        if due <= last:  # the bot was alive then: sent, or nothing waited
            return
        day = digest_day(due, tz)
        if await self.bot.store.state(f"digest:{user_id}") == day:
            return  # sent then, and the heartbeat missed it
        waiting = tuple(p for p in await self.bot.manager.tables_of(user_id, None)
                        if p.status == PLAYING and user_id in p.people_due)
        await self.digest(DigestDue(user_id, waiting), day)

    async def _dm(self, user_id: int, **message: Any) -> None:
        user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        await user.send(**message)
        self.sent += 1
