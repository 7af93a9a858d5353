"""Live private panels: one ephemeral message per person and table that follows the game.

A press of Hand answers with an ephemeral panel; every later click on it answers by editing it
(callback type 7). The token of each such interaction lets the bot edit the panel for 15
minutes (``PATCH /webhooks/{application}/{token}/messages/@original``), so the bot keeps the
latest one. When a person may act (their turn, or a move offered out of turn such as
Getaway's take), the bot edits their panel to the new hand and the moves allowed now; when it
stops being their turn in some other way (a timeout, a move from a direct message, the game's
end) it takes the old controls away. A minute before the token runs out the panel says so and
offers a fresh one (Keep following: a click, so a new token); the turn alert's Hand button is
always a way back.

Rate limits: one edit at a time per panel (edits that pile up while one is under way are
coalesced into the next), and an edit only when the person may act or stops being able to, so
a token sees about one request per turn of its person. Nothing on its way to Discord holds up
a click on the panel, neither an edit nor the answer to the click before: the click is worked
out under the panel's lock, its answer is sent without it, and should an older edit or answer
have been made after that answer, the panel is edited once more (only then a second request).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import lane, logs, tasks
from bot.i18n import t
from bot.lane import Lane
from bot.tables import PLAYING, Position, TableManager
from cogs.hands import Hands, Shown, shows
from cogs.views import Payload

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: how long Discord lets an interaction's token edit its message (seconds)
TOKEN_LIFE = 15 * 60.0
#: how long before the token runs out the panel offers a fresh one (seconds)
WARN_BEFORE = 60.0


@dataclass(eq=False)
class Panel:
    """A person's live panel at a table: the interaction whose token edits it, and what it
    shows."""

    table_id: int
    user_id: int
    seat: int
    lang: str = "en"
    interaction: Interaction | None = None  # None: no token to edit it with (any more)
    since: float = 0.0  # when that interaction came (the event loop's clock)
    shown: Shown | None = None
    #: held while the panel is being answered or edited: one writer at a time
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    task: asyncio.Task[None] | None = None  # an edit under way
    dirty: bool = False
    #: an edit sent through an older token may have landed after the latest answer: the
    #: panel is edited again even though what it should show did not change
    repair: bool = False
    answers: int = 0  # clicks answered on it so far (counted as each begins, under the lock)
    adopted: int = 0  # the latest of those whose answer made it the live panel
    expiry: asyncio.Task[None] | None = None


class Panels:
    """Every live panel of the process, by table and person."""

    def __init__(self, lane: Lane, manager: TableManager, hands: Hands) -> None:
        self.lane = lane
        self.manager = manager
        self.hands = hands
        self.by_table: dict[int, dict[int, Panel]] = {}
        #: the latest public position of each table with panels (the news it came with): what
        #: a panel should show is looked at there, without waiting for the table's lock
        self.latest: dict[int, Position] = {}
        self.token_life = TOKEN_LIFE
        self.warn_before = WARN_BEFORE
        self.edits = 0  # panels edited through a token when their person may act
        self.pictures = 0  # pictures added to panels answered with words first
        self._background: set[asyncio.Task[None]] = set()

    def get(self, table: Position, user_id: int, seat: int) -> Panel:
        """The panel of a person at a table (made, with no token yet, if there is none)."""
        here = self.by_table.setdefault(table.table_id, {})
        found = here.get(user_id)
        if found is None or found.seat != seat:
            found = here[user_id] = Panel(table.table_id, user_id, seat)
        return found

    def adopt(self, panel: Panel, interaction: Interaction, lang: str,
              shown: Shown) -> None:
        """The message this interaction answered is now the person's live panel: its token
        edits it from now on."""
        if interaction.guild_id is None:  # a direct message: the DM turns show the hand
            return
        panel.interaction = interaction
        panel.lang = lang
        panel.since = asyncio.get_running_loop().time()
        panel.shown = shown
        if panel.expiry is not None and panel.expiry is not asyncio.current_task():
            panel.expiry.cancel()
        panel.expiry = tasks.background(self._expire(panel, panel.since))
        if shown[2]:
            self._drop(panel)

    def answered(self, panel: Panel, interaction: Interaction, lang: str,
                 shown: Shown, ticket: int) -> None:
        """A click's answer (the ``ticket``-th click on the panel) has gone out, without the
        panel's lock: it is the live panel now, unless a later click's answer went out first.
        Then Discord may have shown this older answer last: the panel is edited once more,
        through the later token, to what it should show."""
        if ticket < panel.adopted:
            panel.repair = panel.dirty = True
            table = self._open_table(panel.table_id)
            if table is not None:
                self._edit_soon(panel, table)
            return
        panel.adopted = ticket
        self.adopt(panel, interaction, lang, shown)

    def changed(self, position: Position) -> None:
        """The service's news (quick, no waiting): the table's public position now; edit the
        panels that show a position their person can no longer act on, or that should now
        show their move."""
        table = position
        here = self.by_table.get(table.table_id, {})
        if here:
            self.latest[table.table_id] = position
        for panel in list(here.values()):
            if panel.interaction is None:
                continue
            if self._stale(panel, position):
                panel.dirty = True
                self._edit_soon(panel, table)
        if position.status != PLAYING and not any(
                p.interaction is not None for p in self.by_table.get(table.table_id, {}).values()):
            self._forget(table.table_id)

    def _forget(self, table_id: int) -> None:
        self.by_table.pop(table_id, None)
        self.latest.pop(table_id, None)

    @staticmethod
    def _stale(panel: Panel, position: Position | None) -> bool:
        """Whether a panel should be edited: it shows controls no longer right, or the person
        may act at a position it does not show, or the game ended."""
        if position is None or panel.seat >= len(position.seats):
            return False
        now = shows(position, panel.seat)
        if now == panel.shown:
            return False
        shown_act = panel.shown is not None and panel.shown[1]
        return now[1] or now[2] or shown_act

    async def _edit(self, panel: Panel, table: Position) -> None:
        """Edit a panel until it shows what it should (edits coalesce). Only the last look
        before the request is made under the panel's lock, and nothing in it waits: the
        position (which may wait for the table's lock), the picture's drawing and the request
        are not, so a click on the panel meanwhile never waits for the edit. The edit is sent
        only if nothing answered the panel before it went, and made again if something
        answered it while it was on its way."""
        while panel.dirty:
            panel.dirty = False
            interaction, before = panel.interaction, panel.shown
            latest = self.latest.get(panel.table_id)
            if interaction is None or not (panel.repair or self._stale(panel, latest)):
                continue
            try:
                # in the background lane: a panel's edit waits for the clicks being answered
                # and goes with a few other jobs at a time, never ahead of a person's answer
                async with self.lane.slot(lane.PANEL):
                    payload, shown = await self.hands.panel_for(table, panel.seat, panel.lang,
                                                              panel.user_id)
                    files = await payload.files()
                    async with panel.lock:
                        latest = self.latest.get(panel.table_id, latest)
                        if panel.interaction is not interaction or panel.shown != before \
                                or (latest is not None and shows(latest, panel.seat) != shown):
                            panel.dirty = True  # answered or moved on meanwhile: look again
                            continue
                        panel.shown, panel.repair = shown, False
                    await self._send(panel, interaction, **payload.edit(picture=bool(files)),
                                     attachments=files)
                self.edits += 1
                if panel.interaction is interaction and shown[2]:
                    self._drop(panel)
            except discord.HTTPException as exc:  # a dismissed panel, a spent token
                log.info("table %s: a panel could not be edited (%s)", table.table_id,
                         type(exc).__name__)
                if panel.interaction is interaction:
                    panel.interaction = None
                    self._drop(panel)
                return
            except Exception as exc:
                log.warning("table %s: a panel could not be edited (%s)", table.table_id,
                            type(exc).__name__, extra=logs.failure(exc))
                return

    async def _send(self, panel: Panel, interaction: Interaction, **edit: Any) -> None:
        """Edit a panel through a token, without its lock. When the panel was answered while
        the edit was on its way (a click: a new token), Discord may have made the edit after
        that answer: the panel is edited once more, to what it should show now (once that
        click is answered: the edit waits for the panel's lock)."""
        answers = panel.answers
        await interaction.edit_original_response(**edit)
        if panel.answers != answers or (panel.interaction is not interaction
                                        and panel.interaction is not None):
            panel.repair = panel.dirty = True
            table = self._open_table(panel.table_id)
            # (called from the panel's edit task, that task simply goes round once more)
            if table is not None:
                self._edit_soon(panel, table)

    def _open_table(self, table_id: int) -> Position | None:
        """A panel's table while it is open; None once it is closed (the panel stops)."""
        if not self.manager.is_open(table_id):
            return None
        # (while a move is being stored, the position of the last news stands for it: the
        # edit takes the seat's position now anyway)
        return self.manager.settled(table_id) or self.latest.get(table_id)

    def _edit_soon(self, panel: Panel, table: Position) -> None:
        """Start editing a panel that is due an edit (``dirty``), unless an edit is under way:
        that one goes round once more."""
        if panel.task is None or panel.task.done():
            panel.task = tasks.background(self._edit(panel, table))

    def picture_later(self, panel: Panel, interaction: Interaction, payload: Payload,
                      shown: Shown) -> None:
        """Add the hand's picture to a panel just answered with words and controls, unless
        the panel has moved on by the time it is drawn."""
        if payload.picture is None:
            return

        async def add() -> None:
            try:
                files = await payload.files()
                # the slot first: the panel must not move on between the look and the edit
                async with self.lane.slot(lane.PICTURE):
                    async with panel.lock:
                        current = panel.interaction is interaction or (
                            panel.interaction is None and shown[2])
                        if not current or panel.shown not in (shown, None):
                            return
                    await self._send(panel, interaction, **payload.with_picture(),
                                     attachments=files)
                self.pictures += 1
            except Exception as exc:  # the panel keeps its words and controls
                log.warning("table %s: a panel's picture could not be added (%s)",
                            panel.table_id, type(exc).__name__, extra=logs.failure(exc))

        task = tasks.background(add())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _expire(self, panel: Panel, since: float) -> None:
        """A minute before its token runs out, the panel offers a fresh one; then it stops."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, since + self.token_life - self.warn_before - loop.time()))
        async with panel.lock:
            table = self._open_table(panel.table_id)
            interaction = panel.interaction
            if interaction is not None and panel.since == since and table is not None:
                try:
                    payload, _ = await self.hands.panel_for(
                        table, panel.seat, panel.lang, panel.user_id,
                        note=t("panel-expiring", panel.lang), keep=True)
                    files = await payload.files()
                    await interaction.edit_original_response(
                        **payload.edit(picture=bool(files)), attachments=files)
                    self.edits += 1
                except discord.HTTPException:
                    log.info("table %s: a panel could not be told its end", panel.table_id)
        await asyncio.sleep(max(0.0, since + self.token_life - loop.time()))
        if panel.since == since:
            panel.interaction = None  # its token is spent: a click gives a fresh one

    def _drop(self, panel: Panel) -> None:
        """Forget a panel (the game is over, or its message is gone)."""
        here = self.by_table.get(panel.table_id, {})
        if here.get(panel.user_id) is panel:
            del here[panel.user_id]
        if not here:
            self._forget(panel.table_id)
        if panel.expiry is not None and panel.expiry is not asyncio.current_task():
            panel.expiry.cancel()

    async def close(self) -> None:
        """Stop the panels' timers (at unload)."""
        tasks = [p.expiry for here in self.by_table.values() for p in here.values()
                 if p.expiry is not None]
        tasks += [p.task for here in self.by_table.values() for p in here.values()
                  if p.task is not None]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.by_table.clear()
        self.latest.clear()
