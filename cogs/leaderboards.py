"""The leaderboard's part of the records cog: /leaderboard and its pages (all time, the running
season's, a past season's final table with its podium in gold) and a manager's /season length
and /season end. Given the records and the cog's way of naming a game; it never imports the cog.
"""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Callable
from typing import Any

import discord
from PIL import Image, ImageDraw

from bot.i18n import lang_of, plural, t
from bot.names import plain
from bot.pictures.fonts import draw_text, fit, text_tile, text_width
from bot.pictures.table import png
from bot.storage.ratings import ALL_GAMES
from bot.storage.records import LeaderboardPage, Records
from bot.storage.seasons import SEASON_LENGTHS, Season
from bot.tables import Refusal

Interaction = discord.Interaction[Any]
#: the records cog's custom ids begin so (a board's page buttons among them)
PREFIX = "dhs:"
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


def guild_of(interaction: Interaction) -> int:
    """The server a records command is used in (refused in a DM)."""
    if interaction.guild_id is None:
        raise Refusal("st-guild-only")
    return interaction.guild_id


class Leaderboards:
    """The boards and the seasons' commands of the records cog."""

    def __init__(self, records: Records, game_name: Callable[[str, str], str]) -> None:
        self.records = records
        #: a game's name in a language ('all games' for the overall board): the cog's
        self.game_name = game_name

    # -- leaderboard ------------------------------------------------------------------------
    async def leaderboard(self, interaction: Interaction, game: str | None,
                          season: int | None = None) -> None:
        """/leaderboard: the first page, privately, with the caller's own rank: the running
        season's, a past season's final table (``season``), or all time (``season`` 0)."""
        guild_id = guild_of(interaction)
        seasons = await self.records.seasons.all(guild_id)
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
        guild_id = guild_of(interaction)
        if not interaction.permissions.manage_guild:
            raise Refusal("se-manager-only")
        return guild_id

    async def season_length(self, interaction: Interaction, length: str) -> None:
        """/season length: how long this server's seasons last from now on."""
        guild_id = self._manager(interaction)
        if length not in SEASON_LENGTHS:  # a choice Discord checks; an old client's guess
            raise Refusal("se-bad-length")
        lang = lang_of(interaction.locale)
        season = await self.records.seasons.set_length(guild_id, length)
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
        ended, new = await self.records.seasons.end(guild_id)
        podium = await self.records.leaderboard(guild_id, ALL_GAMES, 0, None, 3, ended.number)
        places = ", ".join(t("se-podium-place", lang, rank=row.rank, name=plain(row.name))
                           for row in podium.rows) or t("se-podium-empty", lang)
        kwargs = await self.board_message(guild_id, ALL_GAMES, 0, interaction, ended)
        kwargs["content"] = t("se-ended", lang, number=ended.number, podium=places,
                              next=new.number)
        await interaction.edit_original_response(**kwargs)

    async def turn_page(self, interaction: Interaction, guild_id: int, key: str,
                        page: int) -> dict[str, Any]:
        """A board's page button (``key``: a game, and ``.<season>`` for a season's board)."""
        game, _, which = key.partition(".")
        season = None
        if which:  # a season's board: its number, as the records keep it
            seasons = await self.records.seasons.all(guild_id)
            if not which.isdigit() or not 1 <= int(which) <= len(seasons):
                raise Refusal("unknown-component")
            season = seasons[int(which) - 1]
        return await self.board_message(guild_id, game, page, interaction, season)
