"""The records cog: /leaderboard, /stats, /history, /replay, /privacy forget-me and /season.

/leaderboard shows the running season's board; ``season:<n>`` an earlier season's final table
(its podium in gold), ``season:0`` the all-time board. A server manager's ``/season length``
and ``/season end`` set how long seasons last and end one by hand (the records close a season
whose length is over by themselves, on the service's clock: bot/storage/records.py).

Every finished game is recorded through the table manager's finish hook (and, after a crash,
by :meth:`bot.storage.records.Records.catch_up` when the cog loads). Answers are private to the
caller;
their buttons carry ``dhs:<verb>:...`` custom ids and are routed here.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot import logs
from bot.client.tree import answer_or_refuse, own_component, reply, server_only
from bot.i18n import lang_of, plural, t
from bot.names import plain
from bot.pictures import table_png_async
from bot.storage.ratings import ALL_GAMES
from bot.storage.records import Records
from bot.storage.seasons import SEASON_LENGTHS
from bot.tables import Refusal, results
from bot.tables.replay import replay
from cogs.leaderboards import PREFIX, Leaderboards, guild_of, rating_text, share_text

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: a board's key is its game, and ``.<season>`` for a season's (a game alone: all time)
_ID = re.compile(r"dhs:(lb|rp|fg):([A-Za-z0-9_*.\-]{1,40}):(\d{1,20}):([a-z])")


class StatsCog(commands.Cog):
    """Records of finished games and the commands that show them."""

    def __init__(self, bot: Deckhand, records: Records | None = None) -> None:
        self.bot = bot
        # seasons end on the service's clock (the tests move a manual one)
        self.records = records or Records.for_storage(bot.store, bot.rules_for,
                                                      clock=bot.manager.clock)
        self.boards = Leaderboards(self.records, self.game_name)
        self._commands: list[app_commands.Command[Any, Any, Any] | app_commands.Group] = []

    async def cog_load(self) -> None:
        """Register the commands and the finish hook; record what a crash left unrecorded."""
        self.bot.manager.finish_hooks.append(self.on_finish)
        caught = await self.records.catch_up()
        if caught:
            log.info("recorded %d finished games left unrecorded: %s", len(caught), caught)
        choices = [app_commands.Choice(name=locale_str(self.bot.rules_for(gid).name, game=gid),
                                       value=gid) for gid in self.bot.game_ids()][:25]

        async def leaderboard(interaction: Interaction, game: str | None = None,
                              season: app_commands.Range[int, 0, 1_000_000] | None = None
                              ) -> None:
            self.bot.under_way()
            await self.boards.leaderboard(interaction, game, season)

        async def season_length(interaction: Interaction, length: str) -> None:
            self.bot.under_way()
            await self.boards.season_length(interaction, length)

        async def season_end(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.boards.season_end(interaction)

        async def stats(interaction: Interaction, user: discord.User | None = None) -> None:
            self.bot.under_way()
            await self.stats(interaction, user)

        async def history(interaction: Interaction, user: discord.User | None = None) -> None:
            self.bot.under_way()
            await self.history(interaction, user)

        async def replay_cmd(interaction: Interaction, id: app_commands.Range[int, 1]) -> None:
            self.bot.under_way()
            await self.replay(interaction, id)

        async def forget_me(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.forget_ask(interaction)

        board_cb = app_commands.choices(game=choices)(app_commands.describe(
            game=locale_str("The game (all games when left out)"),
            season=locale_str("A season's number: its final table (0: all time; the running "
                              "season when left out)"))(leaderboard))
        self._commands += [
            app_commands.Command(name=locale_str("leaderboard"), callback=board_cb,
                                 description=locale_str("The best players of this server")),
            app_commands.Command(
                name=locale_str("stats"),
                description=locale_str("Games, wins and ratings of a player in this server"),
                callback=app_commands.describe(
                    user=locale_str("The player (you when left out)"))(stats)),
            app_commands.Command(
                name=locale_str("history"),
                description=locale_str("Recent games of a player in this server"),
                callback=app_commands.describe(
                    user=locale_str("The player (you when left out)"))(history)),
            app_commands.Command(
                name=locale_str("replay"),
                description=locale_str("Step through a finished game move by move"),
                callback=app_commands.describe(
                    id=locale_str("The game's table number"))(replay_cmd)),
        ]
        privacy = app_commands.Group(name=locale_str("privacy"),
                                     description=locale_str("Your data kept by Deckhand"))
        privacy.add_command(app_commands.Command(
            name=locale_str("forget-me"), callback=forget_me,
            description=locale_str("Remove your game records and ratings")))
        self._commands.append(privacy)
        # a choice's name is declared in English; the translator finds its other languages
        lengths = [app_commands.Choice(name=locale_str(t(f"cmd-season-{length}")), value=length)
                   for length in SEASON_LENGTHS]
        season = app_commands.Group(
            name=locale_str("season"), description=locale_str("This server's ranked seasons"),
            default_permissions=discord.Permissions(manage_guild=True))
        season.add_command(app_commands.Command(
            name=locale_str("length"), description=locale_str("How long a season lasts"),
            callback=app_commands.choices(length=lengths)(app_commands.describe(
                length=locale_str("A calendar month, a quarter, or none (ended by hand)"))(
                season_length))))
        season.add_command(app_commands.Command(
            name=locale_str("end"), callback=season_end,
            description=locale_str("End the season now and start the next")))
        self._commands.append(season)
        for command in self._commands:
            server_only(command)
            self.bot.tree.add_command(command)

    async def cog_unload(self) -> None:
        """Take the commands and the hook away and close the records' connection."""
        for command in self._commands:
            self.bot.tree.remove_command(command.name)
        with contextlib.suppress(ValueError):
            self.bot.manager.finish_hooks.remove(self.on_finish)
        async with self.records.lock:
            self.records.close()

    async def on_finish(self, table_id: int) -> None:
        """The table manager's finish hook: record the game (once)."""
        await self.records.record(table_id)

    # -- helpers ----------------------------------------------------------------------------
    def _guild(self, interaction: Interaction) -> int:
        return guild_of(interaction)

    def game_name(self, game: str, lang: str) -> str:
        """A game's name in a language ('all games' for the overall board)."""
        if game == ALL_GAMES:
            return t("st-all-games", lang)
        try:
            rules = self.bot.rules_for(game)
        except KeyError:
            return game
        return rules.title(lang)

    def partnership(self, game: str) -> bool:
        """True for a game played in partnerships at some table size (Finesse, Sugekari 21
        for four)."""
        try:
            rules = self.bot.rules_for(game)
        except KeyError:
            return False
        defaults = {o.name: o.default for o in rules.options}
        return any(rules.teams(n, defaults) for n in rules.player_counts())

    # -- stats and history ------------------------------------------------------------------
    async def stats(self, interaction: Interaction, user: discord.User | None) -> None:
        """/stats: per game — games, wins, win share, rating, best streak, favourite partner."""
        guild_id = self._guild(interaction)
        lang = lang_of(interaction.locale)
        who = user or interaction.user
        found = await self.records.stats(guild_id, who.id)
        name = plain(who.display_name)
        if not found:
            await reply(interaction, t("st-none", lang, name=name))
            return
        embed = discord.Embed(title=t("st-stats-title", lang, name=name))
        for item in found[:25]:
            rating = (rating_text(item.skill.ordinal) if item.skill is not None
                      else t("st-unrated", lang))
            value = t("st-stats-line", lang, games=item.games, wins=item.wins,
                      share=share_text(item.win_share), streak=item.best_streak, rating=rating)
            if self.partnership(item.game):  # a partner only where sides have partners
                partner = (plural("st-partner", item.partner[2], lang, name=plain(item.partner[1]),
                                  games=item.partner[2])
                           if item.partner else t("st-nobody", lang))
                value += "\n" + t("st-stats-partner", lang, partner=partner)
            embed.add_field(name=self.game_name(item.game, lang), inline=False, value=value)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def history(self, interaction: Interaction, user: discord.User | None) -> None:
        """/history: a player's recent games with where they finished."""
        guild_id = self._guild(interaction)
        lang = lang_of(interaction.locale)
        who = user or interaction.user
        found = await self.records.history(guild_id, who.id)
        if not found:
            await reply(interaction, t("st-none", lang, name=plain(who.display_name)))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        lines = []
        for line in found:
            marks = (t("st-rated-mark", lang) if line.rated else "") + (
                t("st-abandoned-mark", lang) if line.abandoned else "")
            lines.append(t("st-history-line", lang, id=line.table_id,
                           game=self.game_name(line.game, lang), place=line.place,
                           players=line.players, score=f"{line.score:g}", marks=marks,
                           when=f"<t:{int(line.finished)}:R>"))
            explained = await self.explained(line.table_id, lang)
            if explained:
                lines.append(f"> {explained}")
        embed = discord.Embed(title=t("st-history-title", lang, name=plain(who.display_name)),
                              description="\n".join(lines)[:4000])
        embed.set_footer(text=t("st-history-hint", lang))
        await interaction.edit_original_response(embed=embed)

    async def explained(self, table_id: int, lang: str) -> str:
        """A recorded game's last deal explained on one line ('' when it cannot be)."""
        record = await self.records.game(table_id)
        if record is None:
            return ""
        try:
            rules = self.bot.rules_for(record.game)
        except KeyError:
            return ""
        try:
            at = await asyncio.to_thread(replay, rules, record, len(record.actions))
        except ValueError:  # a record the rules no longer replay
            log.warning("game %s no longer replays", table_id)
            return ""
        names = [plain(str(s.get("name", ""))) for s in record.seats]
        return results.summary(rules, at, names, lang)

    # -- replay -----------------------------------------------------------------------------
    async def replay(self, interaction: Interaction, table_id: int) -> None:
        """/replay: the deal of a finished game of this server, with buttons to step."""
        guild_id = self._guild(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        kwargs = await self.replay_message(guild_id, table_id, 0, interaction)
        await interaction.edit_original_response(**kwargs)

    async def replay_message(self, guild_id: int, table_id: int, step: int,
                             interaction: Interaction) -> dict[str, Any]:
        """One position of a replay: public view only (text and picture) and step buttons."""
        lang = lang_of(interaction.locale)
        record = await self.records.game(table_id)
        if record is None or record.guild_id != guild_id:
            raise Refusal("st-no-game", id=table_id)
        try:
            rules = self.bot.rules_for(record.game)
        except KeyError:
            raise Refusal("st-no-game", id=table_id) from None
        at = await asyncio.to_thread(replay, rules, record, step)
        names = [str(s.get("name", "")) for s in record.seats]  # the picture's: as typed
        shown = [plain(name) for name in names]  # the words': plain text in Markdown
        view = at.public_view
        lines = []
        if at.step == 0:
            lines.append(t("st-replay-start", lang))
        else:  # each event names its player
            news = [text for e in at.events if (text := rules.event_text(e, lang, shown))]
            lines.append(" ".join(news) or t("st-replay-quiet", lang))
        lines.append("")
        lines.append(rules.view_text(view, lang))
        embed = discord.Embed(title=t("st-replay-title", lang, game=self.game_name(
            record.game, lang), id=table_id), description="\n".join(lines)[:4000])
        if at.tallied or at.at_end:  # a deal ended: explain it
            found = results.last_deal(rules, at, shown, lang)
            if found is not None:
                embed.add_field(name=found[0][:256], value=found[1], inline=False)
        if at.at_end:
            note = results.unrated_text(record.seats, lang, finished=True)
            if note:
                embed.add_field(name=t("rs-ratings", lang), value=note, inline=False)
        embed.set_footer(text=t("st-replay-step", lang, step=at.step, total=at.total))
        files = []
        try:
            picture = await table_png_async(view.to_dict(), names, lang)
        except Exception as exc:  # a game the pictures do not know: the text alone
            log.warning("no picture for a replay of %s (%s)", record.game, type(exc).__name__,
                        extra=logs.failure(exc))
        else:
            embed.set_image(url="attachment://replay.png")
            files.append(discord.File(io.BytesIO(picture), filename="replay.png",
                                      description=rules.view_text(view, lang)[:1024] or None))
        buttons = discord.ui.View(timeout=None)
        for label, target, tag, off in (("st-first", 0, "a", at.step == 0),
                                        ("st-prev", at.step - 1, "b", at.step == 0),
                                        ("st-next", at.step + 1, "c", at.step >= at.total),
                                        ("st-last", at.total, "d", at.step >= at.total)):
            buttons.add_item(discord.ui.Button(
                label=t(label, lang), disabled=off, style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}rp:{table_id}:{max(0, target)}:{tag}"))
        return {"embed": embed, "view": buttons, "attachments": files}

    # -- forget me --------------------------------------------------------------------------
    async def forget_ask(self, interaction: Interaction) -> None:
        """/privacy forget-me: say what it does and ask for a confirming click."""
        lang = lang_of(interaction.locale)
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(
            label=t("st-forget-confirm", lang), style=discord.ButtonStyle.danger,
            custom_id=f"{PREFIX}fg:me:{interaction.user.id}:a"))
        await interaction.response.send_message(t("st-forget-ask", lang), view=view,
                                                ephemeral=True)

    # -- components -------------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Page, step and confirm buttons (custom ids ``dhs:...``); refusals as sentences."""
        custom_id = own_component(interaction, PREFIX)
        if custom_id is None:
            return
        self.bot.under_way()
        await answer_or_refuse(interaction, self.route(interaction, custom_id),
                               f"records component {custom_id}")

    async def route(self, interaction: Interaction, custom_id: str) -> None:
        """Do what one of this cog's buttons asks."""
        found = _ID.fullmatch(custom_id)
        if found is None:
            raise Refusal("unknown-component")
        verb, key, number = found.group(1), found.group(2), int(found.group(3))
        if verb != "fg" and (number > 2**31 or (verb == "rp" and len(key) > 18)):
            raise Refusal("unknown-component")  # no page, step or table is that large
        lang = lang_of(interaction.locale)
        if verb == "fg":
            if number != interaction.user.id:
                raise Refusal("st-not-yours")
            await interaction.response.defer(ephemeral=True, thinking=True)
            count = await self.records.forget(interaction.user.id)
            # the table cog keeps people's settings in memory: it lets theirs go
            self.bot.dispatch("person_forgotten", interaction.user.id)
            await interaction.edit_original_response(
                content=plural("st-forget-done", count, lang, count=count), view=None)
            return
        message = interaction.message
        if message is None or (interaction.guild_id is not None and not message.flags.ephemeral):
            # Leaderboards and replays are private messages; the answer edits the clicked
            # message, so a page button forged onto a public one (a table) would overwrite it.
            raise Refusal("unknown-component")
        guild_id = self._guild(interaction)
        await interaction.response.defer()
        if verb == "lb":
            kwargs = await self.boards.turn_page(interaction, guild_id, key, number)
        else:
            if not key.isdigit():
                raise Refusal("unknown-component")
            kwargs = await self.replay_message(guild_id, int(key), number, interaction)
        await interaction.edit_original_response(**kwargs)


async def setup(bot: Deckhand) -> None:
    """Extension entry point."""
    await bot.add_cog(StatsCog(bot))
