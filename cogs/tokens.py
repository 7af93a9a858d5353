"""Interaction tokens kept per table: a way to Discord outside its global request limit.

Discord counts every request of a bot against its global limit of 50 a second (docs/deploy.md,
:mod:`bot.budget`) but those made through an interaction's token: its callback, and for 15
minutes follow-up messages (posted, edited, deleted) and edits of its original response. So the
table's requests go through a token when one is at hand:

- a turn alert is a follow-up of the latest interaction at the table in the alert's channel
  (the table's thread), and is deleted through the same token while it is fresh;
- a table's message is edited through the token of an interaction whose original response is
  that message: the /play that posted the channel's message, or a click on a table message
  answered by editing it.

A token is used for :data:`FRESH` seconds, a minute short of Discord's 15, so a request never
meets an expired token (an invalid request for Discord). After that, or when Discord refuses
the token, the bot's own token does it as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from cogs import discord_errors

log = logging.getLogger(__name__)
T = TypeVar("T")

Interaction = discord.Interaction[Any]
#: seconds a token is used for: Discord takes it for 15 minutes from the interaction
FRESH = 14 * 60.0
#: every so many interactions seen, the tokens run out are dropped
SWEEP = 512
#: the answers whose message is the interaction's original response: an edit of the clicked
#: message (the deferral of one), or a message posted in answer
_UPDATES = (discord.InteractionResponseType.message_update,
            discord.InteractionResponseType.deferred_message_update)


@dataclass
class KeptInteraction:
    """An interaction at a table, answered."""

    interaction: Interaction
    at: float  # when it came (the event loop's clock)
    channel_id: int | None
    original: int | None  # the message its original response is (None: not a table's)


class Tokens:
    """The latest answered interactions of each table, for requests Discord does not count."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock or (lambda: asyncio.get_running_loop().time())
        #: table -> the latest interaction in each channel, and per message the latest whose
        #: original response it is
        self.by_channel: dict[int, dict[int, KeptInteraction]] = {}
        self.by_message: dict[int, dict[int, KeptInteraction]] = {}
        self._seen = 0
        self.used = 0  # requests made through a kept token
        self.refused = 0  # kept tokens Discord refused (then the bot's own token went)

    def seen(self, table_id: int, interaction: Interaction, original: int | None = None) -> None:
        """An interaction at the table was answered; ``original``: the message its original
        response is, when the caller knows (/play's channel message); otherwise a click
        answered by editing its message has that message."""
        kind = interaction.response.type
        if kind is None or kind == discord.InteractionResponseType.deferred_channel_message:
            return  # not answered, or its first follow-up would fill the "thinking" message
        if original is None and kind in _UPDATES and interaction.message is not None:
            original = interaction.message.id
        self._seen += 1
        if self._seen % SWEEP == 0:
            self._sweep()
        entry = KeptInteraction(interaction, self.clock(), interaction.channel_id, original)
        self.by_channel.setdefault(table_id, {})[entry.channel_id or 0] = entry
        if original is not None:
            self.by_message.setdefault(table_id, {})[original] = entry

    def fresh(self, entry: KeptInteraction | None) -> bool:
        """Whether a kept interaction's token may still be used."""
        return entry is not None and self.clock() - entry.at < FRESH

    def in_channel(self, table_id: int, channel_id: int) -> KeptInteraction | None:
        """A fresh interaction at the table in this channel (its follow-ups go there)."""
        entry = self.by_channel.get(table_id, {}).get(channel_id)
        return entry if self.fresh(entry) else None

    def of_message(self, table_id: int, message_id: int) -> KeptInteraction | None:
        """A fresh interaction whose original response is this message (it edits it)."""
        entry = self.by_message.get(table_id, {}).get(message_id)
        return entry if self.fresh(entry) else None

    async def attempt(self, table_id: int, seen: KeptInteraction,
                      request: Callable[[Interaction], Awaitable[T]], what: str,
                      keep: tuple[type[Exception], ...] = ()) -> tuple[bool, T | None]:
        """Make a request through a kept interaction: (True, its answer), or (False, None)
        when Discord no longer takes the token (expired, or the message is not its own): the
        token is not used again and the caller's bot token goes instead. What Discord refused
        for now (and the errors in ``keep``) is raised: the caller tries again later."""
        try:
            answer = await request(seen.interaction)
        except discord.HTTPException as exc:
            if isinstance(exc, keep) or discord_errors.for_now(exc):
                raise
            self.spent(table_id, seen)
            log.info("table %s: an interaction's token was refused for %s (%s)", table_id,
                     what, discord_errors.described(exc))
            return False, None
        self.used += 1
        return True, answer

    def spent(self, table_id: int, spent: KeptInteraction) -> None:
        """Discord refused this token: it is not used again."""
        self.refused += 1
        for kept in (self.by_channel, self.by_message):
            here = kept.get(table_id, {})
            for key, entry in list(here.items()):
                if entry.interaction is spent.interaction:
                    del here[key]

    def _sweep(self) -> None:
        """Drop the tokens run out: an idle table keeps no interaction in memory."""
        for kept in (self.by_channel, self.by_message):
            for table_id, here in list(kept.items()):
                for key, entry in list(here.items()):
                    if not self.fresh(entry):
                        del here[key]
                if not here:
                    del kept[table_id]

    def forget(self, table_id: int) -> None:
        """The table is over: its tokens are not needed."""
        self.by_channel.pop(table_id, None)
        self.by_message.pop(table_id, None)
