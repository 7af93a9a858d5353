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
import functools
import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands
from PIL import Image, ImageDraw

from bot import logs
from bot.client.tree import answer_or_refuse, own_component, reply, server_only
from bot.i18n import lang_of, plural, t
from bot.names import plain
from bot.pictures import table_png_async
from bot.pictures.fonts import draw_text, fit, text_tile, text_width
from bot.pictures.table import png
from bot.storage.ratings import ALL_GAMES
from bot.storage.records import SEASON_LENGTHS, LeaderboardPage, Records, Season
from bot.tables import Refusal, results
from bot.tables.replay import replay

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
PREFIX = "dhs:"
#: a board's key is its game, and ``.<season>`` for a season's (a game alone: all time)
_ID = re.compile(r"dhs:(lb|rp|fg):([A-Za-z0-9_*.\-]{1,40}):(\d{1,20}):([a-z])")
PER_PAGE = 10

# picture colours (the tables' felt green)
BG, ROW, ROW_ALT, HEAD = (24, 94, 56), (30, 110, 66), (26, 100, 60), (12, 48, 28)
GOLD, WHITE, MUTED, MINE = (255, 200, 0), (255, 255, 255), (190, 210, 195), (60, 140, 90)
WIDTH, TOP, LINE = 900, 96, 48


def rating_text(ordinal: float) -> str:
    """A rating as shown: the conservative estimate to one decimal."""
    return f"{ordinal:.1f}"


def share_text(share: float) -> str:
    """A win share as a percentage."""
    return f"{round(share * 100)}%"


@functools.lru_cache(maxsize=256)
def _char_width(ch: str, size: int) -> int:
    return text_width(ch, size)


def number(image: Image.Image, xy: tuple[int, int], text: str, fill: tuple[int, int, int],
           anchor: str = "l", size: int = 24) -> None:
    """Draw a short number (digits, sign, point, %) from cached tiles of its characters."""
    widths = [_char_width(ch, size) for ch in text]
    x, y = xy
    total = sum(widths)
    x -= total // 2 if anchor == "m" else total if anchor == "r" else 0
    for ch, width in zip(text, widths, strict=True):
        tile = text_tile(ch, size, fill)
        image.paste(tile, (x, y - tile.height // 2), tile)
        x += width


def board_png(board: LeaderboardPage, title: str, headers: tuple[str, str, str, str, str],
              mine_id: int | None = None) -> bytes:
    """The leaderboard page as a PNG: rank, name, rating, games and win share per line."""
    rows = len(board.rows) or 1
    image = Image.new("RGB", (WIDTH, TOP + LINE * rows + 16), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 52), fill=HEAD)
    draw_text(image, (24, 26), fit(title, 28, WIDTH - 48, bold=True), 28, GOLD, bold=True)
    columns = (40, 110, 600, 720, 830)
    for x, text, anchor in zip(columns, headers, ("m", "l", "r", "r", "r"), strict=True):
        draw_text(image, (x, 74), text, 18, MUTED, anchor=anchor)
    for i, row in enumerate(board.rows):
        y = TOP + LINE * i
        fill = MINE if row.user_id == mine_id else (ROW if i % 2 == 0 else ROW_ALT)
        draw.rectangle((12, y, WIDTH - 12, y + LINE - 4), fill=fill)
        middle = y + (LINE - 4) // 2
        colour = GOLD if row.rank <= 3 else WHITE
        # numbers from cached one-character tiles (a fresh string costs a FreeType render)
        number(image, (columns[0], middle), str(row.rank), colour, "m")
        draw_text(image, (columns[1], middle), fit(row.name, 24, 460), 24, WHITE)
        number(image, (columns[2], middle), rating_text(row.ordinal), colour, "r")
        number(image, (columns[3], middle), str(row.games), WHITE, "r")
        number(image, (columns[4], middle), share_text(row.win_share), WHITE, "r")
    return png(image)


class StatsCog(commands.Cog):
    """Records of finished games and the commands that show them."""

    def __init__(self, bot: Deckhand, records: Records | None = None) -> None:
        self.bot = bot
        # seasons end on the service's clock (the tests move a manual one)
        self.records = records or Records.for_storage(bot.store, bot.rules_for,
                                                      clock=bot.manager.clock)
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
            await self.leaderboard(interaction, game, season)

        async def season_length(interaction: Interaction, length: str) -> None:
            self.bot.under_way()
            await self.season_length(interaction, length)

        async def season_end(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.season_end(interaction)

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
        if interaction.guild_id is None:
            raise Refusal("st-guild-only")
        return interaction.guild_id

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

    # -- leaderboard ------------------------------------------------------------------------
    async def leaderboard(self, interaction: Interaction, game: str | None,
                          season: int | None = None) -> None:
        """/leaderboard: the first page, privately, with the caller's own rank: the running
        season's, a past season's final table (``season``), or all time (``season`` 0)."""
        guild_id = self._guild(interaction)
        seasons = await self.records.seasons(guild_id)
        if season is not None and season > len(seasons):  # numbered 1, 2, …: the last runs
            raise Refusal("se-no-season", number=season, last=len(seasons))
        await interaction.response.defer(ephemeral=True, thinking=True)
        chosen = seasons[-1] if season is None else None if season == 0 else seasons[season - 1]
        kwargs = await self.board_message(guild_id, game or ALL_GAMES, 0, interaction, chosen)
        await interaction.edit_original_response(**kwargs)

    def season_text(self, season: Season, lang: str) -> str:
        """A season's number and when it ends (or ended), for a board's footer."""
        if season.ended is not None:
            return t("se-ended-on", lang, number=season.number, start=self._when(season.started),
                     end=self._when(season.ended))
        if season.ends is None:
            return t("se-running-by-hand", lang, number=season.number,
                     start=self._when(season.started))
        return t("se-running-until", lang, number=season.number,
                 start=self._when(season.started), end=self._when(season.ends))

    def _when(self, instant: float) -> str:
        """A Discord date (each reader sees it in their own time zone) of a clock instant."""
        return f"<t:{int(self.records.clock.wall(instant))}:D>"

    async def board_message(self, guild_id: int, game: str, page: int,
                            interaction: Interaction, season: Season | None = None
                            ) -> dict[str, Any]:
        """The text, picture and page buttons of one leaderboard page: all time, or of a
        season (an ended one's is its final table)."""
        lang = lang_of(interaction.locale)
        user_id = interaction.user.id
        number = None if season is None else season.number
        board = await self.records.leaderboard(guild_id, game, page, user_id, PER_PAGE, number)
        title = t("st-board-title", lang, game=self.game_name(game, lang))
        if season is None:
            title = t("se-title-all-time", lang, title=title)
        elif season.ended is None:
            title = t("se-title-running", lang, title=title, number=season.number)
        else:
            title = t("se-title-final", lang, title=title, number=season.number)
        lines = [plural("st-board-line", r.games, lang, rank=r.rank,
                        name=plain(r.name), rating=rating_text(r.ordinal),
                        games=r.games, share=share_text(r.win_share))
                 for r in board.rows] or [t("st-board-empty", lang)]
        if board.mine is not None:
            you = t("st-board-you", lang, rank=board.mine.rank, total=board.total,
                    rating=rating_text(board.mine.ordinal))
        else:
            you = t("st-board-you-none", lang)
        embed = discord.Embed(title=title, description="\n".join(lines)[:4000])
        embed.add_field(name=t("st-you", lang), value=you, inline=False)
        embed.add_field(name=t("se-season", lang), inline=False,
                        value=(t("se-all-time", lang) if season is None
                               else self.season_text(season, lang)))
        embed.set_footer(text=t("st-page", lang, page=board.page + 1, pages=board.pages))
        files = []
        if board.rows:
            headers = (t("st-col-rank", lang), t("st-col-player", lang),
                       t("st-col-rating", lang), t("st-col-games", lang),
                       t("st-col-wins", lang))
            picture = await asyncio.to_thread(board_png, board, title, headers, user_id)
            files.append(discord.File(io.BytesIO(picture), filename="leaderboard.png",
                                      description=title))
            embed.set_image(url="attachment://leaderboard.png")
        view = discord.ui.View(timeout=None)
        last = board.pages - 1
        key = game if season is None else f"{game}.{season.number}"
        for label, target, tag, off in (("st-first", 0, "a", board.page == 0),
                                        ("st-prev", board.page - 1, "b", board.page == 0),
                                        ("st-next", board.page + 1, "c", board.page >= last),
                                        ("st-last", last, "d", board.page >= last)):
            view.add_item(discord.ui.Button(
                label=t(label, lang), disabled=off, style=discord.ButtonStyle.secondary,
                custom_id=f"{PREFIX}lb:{key}:{max(0, target)}:{tag}"))
        return {"embed": embed, "view": view, "attachments": files}

    # -- seasons ----------------------------------------------------------------------------
    def _manager(self, interaction: Interaction) -> int:
        """The server of a manager's command: refused for anyone without Manage Server (a
        server may have opened the command to everyone in its settings)."""
        guild_id = self._guild(interaction)
        if not interaction.permissions.manage_guild:
            raise Refusal("se-manager-only")
        return guild_id

    async def season_length(self, interaction: Interaction, length: str) -> None:
        """/season length: how long this server's seasons last from now on."""
        guild_id = self._manager(interaction)
        if length not in SEASON_LENGTHS:  # a choice Discord checks; an old client's guess
            raise Refusal("se-bad-length")
        lang = lang_of(interaction.locale)
        season = await self.records.set_season_length(guild_id, length)
        key = "se-length-none" if season.ends is None else "se-length-set"
        await interaction.response.send_message(
            t(key, lang, length=t(f"cmd-season-{length}", lang), number=season.number,
              end=self._when(season.ends or 0.0)), ephemeral=True)

    async def season_end(self, interaction: Interaction) -> None:
        """/season end: the running season ends now; its final table is shown, the next one
        begins from everyone's ratings softly reset."""
        guild_id = self._manager(interaction)
        lang = lang_of(interaction.locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        ended, new = await self.records.end_season(guild_id)
        podium = await self.records.leaderboard(guild_id, ALL_GAMES, 0, None, 3, ended.number)
        places = ", ".join(t("se-podium-place", lang, rank=row.rank, name=plain(row.name))
                           for row in podium.rows) or t("se-podium-empty", lang)
        kwargs = await self.board_message(guild_id, ALL_GAMES, 0, interaction, ended)
        kwargs["content"] = t("se-ended", lang, number=ended.number, podium=places,
                              next=new.number)
        await interaction.edit_original_response(**kwargs)

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
            game, _, which = key.partition(".")
            season = None
            if which:  # a season's board: its number, as the records keep it
                seasons = await self.records.seasons(guild_id)
                if not which.isdigit() or not 1 <= int(which) <= len(seasons):
                    raise Refusal("unknown-component")
                season = seasons[int(which) - 1]
            kwargs = await self.board_message(guild_id, game, number, interaction, season)
        else:
            if not key.isdigit():
                raise Refusal("unknown-component")
            kwargs = await self.replay_message(guild_id, int(key), number, interaction)
        await interaction.edit_original_response(**kwargs)


async def setup(bot: Deckhand) -> None:
    """Extension entry point."""
    await bot.add_cog(StatsCog(bot))
