"""/learn: a guided deal of a game, private to the learner, against computer players.

A thin adapter over :mod:`games.tutorials`: the lesson (a pure runner) says what to show; this
cog shows it in one private message (ephemeral, or a DM for those who chose DMs) and edits that
message after every accepted move. Buttons carry ``dh:learn:<lesson>:<step>:<choice>``, so a
click on an older step, another person's lesson or a lesson lost in a restart is refused with a
sentence.
"""

from __future__ import annotations

import io
import itertools
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.client.tree import refusal_text, reply
from bot.i18n import lang_of, t
from bot.pictures import hand_alt, hand_png_async, playable_cards
from bot.storage.store import UserSettings
from bot.tables import Refusal
from cogs import ids
from cogs.views import COG as PLAY_COG
from cogs.views import HAND_FILE, StaticView
from games import tutorials
from games.tutorials.runner import NEXT, Lesson

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: lessons kept at once (the oldest is forgotten first); each is a few kilobytes
KEPT = 500
#: lines of "what happened" shown above a step
EVENT_LINES = 12


@dataclass
class Learner:
    """A lesson in progress and whose it is."""

    lesson: Lesson
    user_id: int
    #: whether the lesson's message is in a server channel (ephemeral), where a table can open
    in_server: bool


COG = "LearnCog"


class LearnCog(commands.Cog, name=COG):
    """The /learn command and its private lesson message."""

    def __init__(self, bot: Deckhand) -> None:
        self.bot = bot
        self.lessons: dict[int, Learner] = {}
        self._ids = itertools.count(1)
        self._command: app_commands.Command[Any, Any, Any] | None = None

    async def cog_load(self) -> None:
        """Register /learn with a choice for every game that has a tutorial."""
        taught = [gid for gid in self.bot.game_ids() if gid in tutorials.ids()]
        choices = [app_commands.Choice(name=locale_str(self.bot.rules_for(gid).name, game=gid),
                                       value=gid) for gid in taught][:25]

        async def learn(interaction: Interaction, game: str) -> None:
            self.bot.under_way()
            await self.learn(interaction, game)

        described = app_commands.describe(game=locale_str("The game to learn"))(learn)
        self._command = app_commands.Command(
            name=locale_str("learn"),
            description=locale_str("Learn a game: a guided deal against computer players"),
            callback=app_commands.choices(game=choices)(described))
        self.bot.tree.add_command(self._command)
        self.bot.add_dynamic_items(LearnButton)

    async def cog_unload(self) -> None:
        """Take the command and the buttons away again."""
        if self._command is not None:
            self.bot.tree.remove_command(self._command.name)
        self.bot.remove_dynamic_items(LearnButton)

    # -- the command ------------------------------------------------------------------------
    async def learn(self, interaction: Interaction, game: str) -> None:
        """/learn: start a lesson and show its first step privately."""
        lang = lang_of(interaction.locale)
        try:
            lesson = tutorials.lesson(game, lang)
        except KeyError:
            raise Refusal("unknown-game", game=game) from None
        number = next(self._ids)
        in_server = interaction.guild_id is not None
        user = await self.bot.store.user_settings(interaction.user.id)
        wants_dm = in_server and user.dm
        learner = self.lessons[number] = Learner(lesson, interaction.user.id, not wants_dm)
        while len(self.lessons) > KEPT:
            del self.lessons[next(iter(self.lessons))]
        if wants_dm:
            try:
                await interaction.user.send(**await self.screen(number, lang, user))
            except discord.HTTPException:
                learner.in_server = True
                await reply(interaction, t("no-dm", lang))
                await interaction.followup.send(**await self.screen(number, lang, user),
                                                ephemeral=True)
            else:
                await reply(interaction, t("learn-in-dm", lang))
            return
        learner.in_server = in_server
        await interaction.response.send_message(**await self.screen(number, lang, user),
                                                ephemeral=True)

    async def screen(self, number: int, lang: str, user: UserSettings,
                     edit: bool = False) -> dict[str, Any]:
        """The lesson message: what happened, the step's text, the table, the hand (a picture,
        its playable cards ringed, drawn as the learner chose), the moves."""
        learner = self.lessons[number]
        lesson = learner.lesson
        rules = lesson.tutorial.rules
        embed = discord.Embed(title=lesson.tutorial.title(lang))
        if lesson.events:
            shown = lesson.events[-EVENT_LINES:]
            embed.add_field(name=t("learn-happened", lang), value="\n".join(shown)[:1024],
                            inline=False)
        embed.description = lesson.text()[:4000]
        view = StaticView()
        files: list[discord.File] = []
        if lesson.done:
            if not learner.in_server:  # a table opens in a server channel, not here
                embed.set_footer(text=t("learn-play-in-server", lang))
            else:
                view.add_item(LearnButton(discord.ui.Button(
                    label=t("learn-play", lang, game=_name(rules, lang)),
                    style=discord.ButtonStyle.primary,
                    custom_id=ids.make("lplay", number, lesson.step, lesson.tutorial.game))))
        else:
            seen = lesson.view()
            table = rules.view_text(seen, lang)
            embed.add_field(name=t("learn-table", lang), value=table[:1024], inline=False)
            if seen["hand"]:
                playable = playable_cards(
                    str(a) for a in lesson.legal() if a.kind != NEXT)
                picture = await hand_png_async(seen.to_dict(), playable,
                                               four_colour=user.four_colour)
                files = [discord.File(io.BytesIO(picture), filename=HAND_FILE,
                                      description=hand_alt(seen.to_dict(), playable, lang))]
                embed.set_image(url=f"attachment://{HAND_FILE}")
            embed.set_footer(text=t("learn-step", lang, step=lesson.step + 1,
                                    steps=lesson.tutorial.steps))
            for index, action in enumerate(lesson.choices()):
                view.add_item(LearnButton(discord.ui.Button(
                    label=lesson.label(action)[:80],
                    style=(discord.ButtonStyle.primary if action.kind == NEXT
                           else discord.ButtonStyle.secondary),
                    custom_id=ids.make("learn", number, lesson.step, index))))
            if lesson.hint() is not None:  # hints are always on in a lesson
                view.add_item(LearnButton(discord.ui.Button(
                    label=t("learn-hint", lang), style=discord.ButtonStyle.secondary,
                    custom_id=ids.make("lhint", number, lesson.step))))
        if edit:
            return {"embed": embed, "view": view, "attachments": files}
        return {"embed": embed, "view": view, "files": files}

    # -- the buttons ------------------------------------------------------------------------
    async def click(self, interaction: Interaction, cid: ids.ComponentId) -> None:
        """A lesson's button: refusals (stale, foreign, wrong move) as private sentences."""
        self.bot.under_way()
        try:
            await self._click(interaction, cid)
        except Exception as error:
            if not isinstance(error, Refusal):
                log.error("lesson click failed (%s)", type(error).__name__, exc_info=error)
            try:
                await reply(interaction, refusal_text(error, interaction.locale))
            except discord.HTTPException:
                log.warning("could not tell a learner why their click failed")

    async def _click(self, interaction: Interaction, cid: ids.ComponentId) -> None:
        learner = self.lessons.get(cid.table)
        if learner is None:
            raise Refusal("learn-gone")
        if learner.user_id != interaction.user.id:
            raise Refusal("learn-not-yours")
        lesson = learner.lesson
        if cid.version != lesson.step:
            raise Refusal("learn-stale")
        if cid.verb == "lplay":
            await self._open_table(interaction, lesson.tutorial.game)
            return
        if cid.verb == "lhint":  # the move this step teaches, and why: privately
            found = lesson.hint()
            if found is None:
                raise Refusal("learn-stale")
            move, why = found
            await reply(interaction, t("learn-hint-answer", lesson.lang,
                                       move=lesson.label(move), why=why))
            return
        choices = lesson.choices()
        if not cid.arg.isdigit() or int(cid.arg) >= len(choices):
            raise Refusal("learn-stale")
        answer = lesson.act(choices[int(cid.arg)])
        if not answer.accepted:
            await reply(interaction, answer.reason or t("error", lesson.lang))
            return
        user = await self.bot.store.user_settings(interaction.user.id)
        await interaction.response.edit_message(
            **await self.screen(cid.table, lesson.lang, user, edit=True))

    async def _open_table(self, interaction: Interaction, game: str) -> None:
        """A real table of the game in the channel, as /play opens it."""
        if interaction.guild_id is None:
            raise Refusal("learn-play-in-server")
        play = getattr(self.bot.get_cog(PLAY_COG), "play", None)
        if play is None:
            raise Refusal("error")
        await play(interaction, game)


def _name(rules: Any, lang: str) -> str:
    return str(rules.title(lang))


class LearnButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=ids.LEARN_TEMPLATE):
    """A lesson's button, rebuilt from its custom id (it works after the message is edited)."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)
        found = ids.LEARN_TEMPLATE.fullmatch(self.custom_id)
        assert found is not None, self.custom_id
        self.cid = ids.from_match(found)

    @classmethod
    async def from_custom_id(cls, interaction: Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> LearnButton:
        """The button of a click (the custom id already matched the template)."""
        return cls(item)  # type: ignore[arg-type]

    async def callback(self, interaction: Interaction) -> None:
        """Hand the click to the cog."""
        get_cog = getattr(interaction.client, "get_cog", None)
        cog = get_cog(COG) if get_cog is not None else None
        if isinstance(cog, LearnCog):
            await cog.click(interaction, self.cid)
        else:
            await reply(interaction, t("learn-gone", lang_of(interaction.locale)))


async def setup(bot: Deckhand) -> None:
    """Extension entry point."""
    await bot.add_cog(LearnCog(bot))
