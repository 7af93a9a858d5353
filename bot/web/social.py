"""The web table's social requests (#53 item 5), beside the moves of bot/web/viewers.py:

- ``{"type": "join", "table"}``: a spectator takes a free seat in the lobby, the same call as
  the chat's Join (:meth:`bot.tables.TableManager.join`); the service's events then bring every
  viewer the table with the new seat, and the chat's table message shows it too;
- ``{"type": "share", "table"}``: the table's picture for Discord's share-a-moment dialog.
  The Embedded App SDK's ``openShareMomentDialog`` takes only a Discord CDN address, and the
  picture the bot already draws is an attachment of the table's message on Discord's CDN: the
  answer, ``{"type": "share", "table", "url"}``, is that attachment's address, read from the
  message with the bot's token (a fresh, signed address each time it is read).

The page's own parts (the presence through ``setActivity``, joining from it, the invite dialog)
need nothing of the server beyond the table's model.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.tables import Position, Refusal, TableManager
from games import wording

log = logging.getLogger(__name__)

#: the messages this part answers
KINDS = frozenset({"join", "share"})
#: how long a table's shared picture address is kept (seconds): a page's second tap, or a
#: table's other viewers, cost no new call to Discord
KEPT_SECONDS = 60.0
#: the most addresses kept at once (emptied when full)
MOST_KEPT = 1000
#: the sentence of a share that found no picture (the table message not posted or drawn yet,
#: or Discord not answering)
NO_PICTURE = "web-share-unavailable"

#: where the table's picture is: the (channel or thread, message) the whole table is shown in
#: → the address of its picture on Discord's CDN, or None
PictureOf = Callable[[int, int], Awaitable[str | None]]


class Asker(Protocol):
    """What this part needs of a socket (bot.web.viewers.Viewer)."""

    @property
    def channel_id(self) -> int: ...

    @property
    def person(self) -> Any: ...

    def push_json(self, message: dict[str, Any]) -> None: ...


class Social:
    """Answers a viewer's ``join`` and ``share``."""

    def __init__(self, manager: TableManager, picture_of: PictureOf,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.manager = manager
        self.picture_of = picture_of
        self.clock = clock
        self._kept: dict[tuple[int, int], tuple[float, str]] = {}

    async def receive(self, viewer: Asker, message: dict[str, Any],
                      error: Callable[..., dict[str, Any]],
                      refused: Callable[[Refusal, str], tuple[str, str]]) -> None:
        """Answer one of :data:`KINDS` (``error`` and ``refused`` word the socket's errors as
        bot.web.viewers does)."""
        lang = viewer.person.lang
        table_id = message.get("table")
        if not isinstance(table_id, int) or isinstance(table_id, bool):
            viewer.push_json(error("bad-message", lang))
            return
        # a finished table is still shared (its last position is kept a while)
        table = await self.manager.latest(table_id)
        if table is None:
            viewer.push_json(error("no-table", lang))
            return
        if viewer.channel_id not in (table.channel_id, table.thread_id):
            viewer.push_json(error("forbidden", lang))
            return
        if message["type"] == "join":
            try:
                await self.manager.join(table_id, viewer.person.user_id, viewer.person.name)
            except Refusal as refusal:
                code, sentence = refused(refusal, lang)
                viewer.push_json(error(code, lang, sentence))
            return
        url = await self.picture(table)
        if url is None:
            viewer.push_json(error("share", lang, wording.text(NO_PICTURE, lang)))
            return
        viewer.push_json({"type": "share", "table": table_id, "url": url})

    async def picture(self, table: Position) -> str | None:
        """The address of the table's picture now, kept a minute per version."""
        where = table.board_at
        if where is None:
            return None
        key = (table.table_id, table.version)
        now = self.clock()
        kept = self._kept.get(key)
        if kept is not None and kept[0] > now:
            return kept[1]
        try:
            url = await self.picture_of(*where)
        except Exception as exc:  # (TryLater, a broken connection: no picture now)
            log.info("the table's picture could not be read for sharing (%s)",
                     type(exc).__name__)
            return None
        if url is not None:
            if len(self._kept) >= MOST_KEPT:
                self._kept.clear()
            self._kept[key] = (now + KEPT_SECONDS, url)
        return url
