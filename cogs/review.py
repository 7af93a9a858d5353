"""The review after a game: the "My review" button of a finished table, and ``/review``.

A thin adapter over :mod:`bot.tables.review`. Only a person who played the game gets a review, their
own, privately: an ephemeral answer, or a direct message for those who chose DMs. The review
is computed in the background, in the computers' spare time; the press is answered at once
("being prepared", or "later" when the computers are busy with live games) and the review
follows through the interaction's token while it is valid (15 minutes), else by direct
message, else it is kept and shown on the next press. A second press while it is computed
starts nothing new. Buttons carry ``dhr:rv:<table>``.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

import games
from bot import logs, tasks
from bot.client.tree import answer_or_refuse, own_component, refusal_text, reply, server_only
from bot.i18n import lang_of, t
from bot.pictures import hand_alt, hand_png_async
from bot.tables import FINISHED, Position, Refusal
from bot.tables.review import Key, Reviewer, game_of, own_moves, seat_of, shown, summary
from games.ai.review import Review

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
PREFIX = "dhr:"
_ID = re.compile(r"dhr:rv:(\d{1,18})")
#: seconds an interaction's token takes follow-ups (Discord: 15 minutes), with a margin
TOKEN_LIFE = 14 * 60.0


def reviewable(position: Position) -> bool:
    """Whether a finished table offers reviews: a game of the registry (the search knows it)
    that a person played, with moves made (not decided by the deal alone)."""
    return position.version > 0 and position.game_id in games.ids() \
        and any(not seat.computer for seat in position.seats)


def review_button(table_id: int, lang: str) -> discord.ui.Button[Any]:
    """The "My review" button of a finished table's message."""
    return discord.ui.Button(label=t("rv-button", lang), style=discord.ButtonStyle.secondary,
                             custom_id=f"{PREFIX}rv:{table_id}")


class ReviewCog(commands.Cog):
    """Reviews after a game, asked for privately."""

    def __init__(self, bot: Deckhand, reviewer: Reviewer | None = None) -> None:
        self.bot = bot
        self.reviewer = reviewer or bot.manager.reviewer()
        #: where each review under way goes when done: the newest press (and when it came)
        self.targets: dict[Key, tuple[Interaction, float, str, bool]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._command: app_commands.Command[Any, Any, Any] | None = None
        #: the clock of the tokens' life (tests move it on)
        self.clock: Callable[[], float] = time.monotonic

    async def cog_load(self) -> None:
        """Register /review."""
        async def review_cmd(interaction: Interaction, id: app_commands.Range[int, 1]) -> None:
            self.bot.under_way()
            try:
                await self.press(interaction, id)
            except Refusal as refusal:
                await reply(interaction, refusal_text(refusal, interaction.locale))

        self._command = server_only(app_commands.Command(
            name=locale_str("review"),
            description=locale_str("Your review of a finished game: your three costliest "
                                   "decisions"),
            callback=app_commands.describe(id=locale_str("The game's table number"))(
                review_cmd)))
        self.bot.tree.add_command(self._command)

    async def cog_unload(self) -> None:
        """Take the command away and stop the reviews under way."""
        if self._command is not None:
            self.bot.tree.remove_command(self._command.name)
        await self.reviewer.close()
        for task in list(self._tasks):
            task.cancel()

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """The "My review" button (``dhr:rv:<table>``)."""
        custom_id = own_component(interaction, PREFIX)
        if custom_id is None:
            return
        self.bot.under_way()
        await answer_or_refuse(interaction, self._pressed(interaction, custom_id),
                               "the review button")

    async def _pressed(self, interaction: Interaction, custom_id: str) -> None:
        found = _ID.fullmatch(custom_id)
        if found is None:
            raise Refusal("unknown-component")
        await self.press(interaction, int(found.group(1)))

    # -- a press --------------------------------------------------------------------------------
    async def press(self, interaction: Interaction, table_id: int) -> None:
        """Answer a request for a review: the review when kept, else start (or join) it."""
        lang = lang_of(interaction.locale)
        store = self.bot.store
        row = await store.table(table_id)
        if row is None or row.status != FINISHED or row.guild_id != interaction.guild_id:
            raise Refusal("rv-no-game", id=table_id)
        seat = seat_of(row, interaction.user.id)
        if seat is None:
            raise Refusal("rv-not-seated")
        key = (table_id, seat)
        settings = await store.user_settings(interaction.user.id)
        by_dm = settings.dm
        kept = self.reviewer.kept(key)
        if kept is not None:
            if by_dm and await self._dm(interaction.user, kept, table_id, row.game, lang):
                await reply(interaction, t("rv-in-dm", lang))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(**await self.message(kept, table_id, row.game,
                                                                 lang), ephemeral=True)
            return
        busy = self.reviewer.busy()
        self.targets[key] = (interaction, self.clock(), lang, by_dm)
        if key in self.reviewer.running:
            await reply(interaction, t("rv-again", lang))
            return
        actions = await store.actions(table_id)
        task, _ = self.reviewer.start(key, game_of(row, actions), own_moves(actions, seat))
        await reply(interaction, t("rv-in-dm" if by_dm else "rv-later" if busy else
                                   "rv-working", lang))
        follow = tasks.background(
            self._deliver(key, task, table_id, row.game))
        self._tasks.add(follow)
        follow.add_done_callback(self._tasks.discard)

    async def _deliver(self, key: Key, task: asyncio.Task[Review], table_id: int,
                       game: str) -> None:
        """Send a review when it is done: through the newest press's token while valid, else
        by direct message, else keep it for the next press."""
        try:
            review = await task
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.error("table %s: a review failed (%s)", table_id, type(exc).__name__,
                      extra=logs.failure(exc))
            target = self.targets.pop(key, None)
            if target is not None and self.clock() - target[1] < TOKEN_LIFE:
                await _quietly(target[0].followup.send(t("rv-failed", target[2]),
                                                       ephemeral=True))
            return
        target = self.targets.pop(key, None)
        if target is None:
            return
        interaction, asked, lang, by_dm = target
        if not by_dm and self.clock() - asked < TOKEN_LIFE:
            try:
                await interaction.followup.send(**await self.message(review, table_id, game,
                                                                     lang), ephemeral=True)
                return
            except discord.HTTPException as exc:
                log.warning("a review could not follow its press (%s); sending it by DM",
                            type(exc).__name__)
        if not await self._dm(interaction.user, review, table_id, game, lang):
            log.info("table %s: a review is kept for its next press", table_id)

    async def _dm(self, user: discord.User | discord.Member, review: Review, table_id: int,
                  game: str, lang: str) -> bool:
        """Send a review by direct message; False when it could not be sent."""
        try:
            await user.send(**await self.message(review, table_id, game, lang))
        except discord.HTTPException:
            return False
        return True

    # -- the message ----------------------------------------------------------------------------
    async def message(self, review: Review, table_id: int, game: str,
                      lang: str) -> dict[str, Any]:
        """The review as a message: a summary, then each costly decision with the hand as the
        person saw it (a picture, the computer's move ringed)."""
        rules = self.bot.rules_for(game)
        name = rules.title(lang)
        embeds: list[discord.Embed] = []
        files: list[discord.File] = []
        movers = [action.seat for action in await self.bot.store.actions(table_id)]
        for number, one in enumerate(shown(review, lang, movers), 1):
            embed = discord.Embed(title=one.title[:256], description=one.body[:4000])
            try:
                picture = await hand_png_async(one.view, one.ringed, t("rv-hand", lang))
            except Exception as exc:  # a hand the pictures cannot draw: the text alone
                log.warning("no picture for a review of %s (%s)", game, type(exc).__name__,
                            extra=logs.failure(exc))
            else:
                filename = f"review{number}.png"
                embed.set_image(url=f"attachment://{filename}")
                files.append(discord.File(io.BytesIO(picture), filename=filename,
                                          description=hand_alt(one.view, one.ringed,
                                                               lang)[:1024]))
            embeds.append(embed)
        return {"content": summary(review, name, table_id, lang)[:2000], "embeds": embeds,
                "files": files}


async def _quietly(sending: Any) -> None:
    try:
        await sending
    except discord.HTTPException:
        log.warning("could not tell a user their review failed")


async def setup(bot: Deckhand) -> None:
    """Extension entry point."""
    await bot.add_cog(ReviewCog(bot))
