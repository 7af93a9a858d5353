"""The tournament cog: /tournament create|standings|drop|pause|resume|cancel|start, the sign-up
message with its Join / Leave / Check in buttons, and the service's news shown in the channel.

A thin adapter over :class:`bot.tournaments.runner.Tournaments` (``bot.tournaments``): every
decision (who may do what, when a round starts, who is dropped) is the service's; a refusal
is its :class:`~bot.tables.Refusal`, said as one private sentence. Here:

- the sign-up message, posted by /tournament create and edited on each
  ``TournamentChanged`` (who signed up, who checked in);
- a round's tables: the service opens them through the table door with no interaction, so no
  /play posts their messages. Each gets a message in the channel and a thread opened from it
  (the table service is told both, so the table cog edits that message and alerts in that
  thread, as for a table of /play); then one message announces the round with a link to each
  table's thread (to its message where no thread could open);
- standings after every round, with a picture (:mod:`bot.pictures.standings`) and the
  tie-breaks named and explained, and the bracket of an elimination.

Public messages speak the server's language; private answers the clicker's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.client.tree import refusal_text, reply, server_only
from bot.i18n import lang_of, t
from bot.names import plain
from bot.tables import Refusal
from bot.tables.pace import PACES, seconds
from bot.tasks import background
from bot.tournaments import STAGE, TIE_BREAKS, Seating
from bot.tournaments.runner import (
    PlayerDropped,
    RoundEnded,
    RoundStarted,
    TournamentChanged,
    TournamentEnded,
    TournamentNews,
    TournamentView,
)
from cogs import discord_errors, ids
from cogs.tournament_standings import StandingsBoard, names_of

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
#: a button's verb and the service's call it makes
VERB_KEYS = {"tjoin": "tournament-join", "tleave": "tournament-leave",
             "tcheck": "tournament-check-in"}
#: the longest Discord takes for a thread's name
NAME_MOST = 100
NO_MENTIONS = discord.AllowedMentions.none()


def when_of(text: str) -> float:
    """A start typed as ``YYYY-MM-DD HH:MM`` (UTC) as epoch seconds; refused when unreadable."""
    try:
        found = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise Refusal("tournament-bad-time", text=text[:40]) from None
    return found.timestamp()


class TournamentsCog(commands.Cog):
    """Tournaments on Discord: the commands, the sign-up message and the service's news."""

    def __init__(self, bot: Deckhand) -> None:
        self.bot = bot
        self.service = bot.tournaments
        self._commands: list[app_commands.Group] = []
        #: the standings and bracket messages
        self.board = StandingsBoard(self.service, self.game_title)
        #: each tournament's news being shown: the next waits for it (the news keeps its order)
        self._showing: dict[int, asyncio.Task[None]] = {}

    # -- setup ------------------------------------------------------------------------------
    async def cog_load(self) -> None:
        """Register /tournament and the service's news listener."""
        choices = [app_commands.Choice(name=locale_str(self.bot.rules_for(gid).name, game=gid),
                                       value=gid) for gid in self.bot.game_ids()][:25]
        formats = [app_commands.Choice(name=locale_str(t(f"cmd-tournament-fmt-{f}")), value=f)
                   for f in ("swiss", "elimination")]
        paces = [app_commands.Choice(name=locale_str(t(f"cmd-tournament-pace-{pace}")),
                                     value=pace) for pace in PACES
                 if seconds(pace) is not None][:25]  # a round needs a clock: never "off"
        group = app_commands.Group(name=locale_str("tournament"),
                                   description=locale_str("Tournaments in this channel"))

        @app_commands.describe(
            game=locale_str("The game of the tournament"),
            format=locale_str("Swiss (every round for everyone) or elimination"),
            start=locale_str("When it starts: YYYY-MM-DD HH:MM, UTC"),
            rounds=locale_str("Rounds of a Swiss"),
            size=locale_str("Seats at each table (the game's usual count when left out)"),
            advance=locale_str("Players of each table who go through (elimination)"),
            duplicate=locale_str(
                "Finesse and Bear only: every table of a round plays the same deals"),
            checkin=locale_str("Minutes before the start when check-in opens"),
            pace=locale_str("Time for each move"))
        @app_commands.choices(game=choices, format=formats, pace=paces)
        async def create(interaction: Interaction, game: str, format: str, start: str,
                         rounds: app_commands.Range[int, 1, 100] = 3,
                         size: app_commands.Range[int, 2, 8] | None = None,
                         advance: app_commands.Range[int, 1, 7] = 1,
                         duplicate: bool = False,
                         checkin: app_commands.Range[int, 0, 1440] = 10,
                         pace: str = "normal") -> None:
            self.bot.under_way()
            await self.create(interaction, game, format, start, rounds, size, advance,
                              duplicate, checkin, pace)

        async def standings(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.show_standings(interaction)

        @app_commands.describe(user=locale_str("The player to drop"))
        async def drop(interaction: Interaction, user: discord.User) -> None:
            self.bot.under_way()
            await self.manage(interaction, "drop", user.id)

        async def pause(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.manage(interaction, "pause")

        async def resume(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.manage(interaction, "resume")

        async def cancel(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.manage(interaction, "cancel")

        async def start_now(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.manage(interaction, "start")

        for callback, name, desc in (
            (create, "create", "Announce a tournament in this channel"),
            (standings, "standings", "The standings of this channel's tournament"),
            (drop, "drop", "Drop a player from the tournament (organiser)"),
            (pause, "pause", "Pause the tournament: no new round starts (organiser)"),
            (resume, "resume", "Resume a paused tournament (organiser)"),
            (cancel, "cancel", "Cancel the tournament (organiser)"),
            (start_now, "start", "Start the tournament now (organiser)"),
        ):
            group.add_command(app_commands.Command(
                name=locale_str(name), description=locale_str(desc), callback=callback))
        self._commands.append(server_only(group))
        self.bot.tree.add_command(group)
        self.service.subscribe(self.on_news)

    async def cog_unload(self) -> None:
        """Take the commands away."""
        for command in self._commands:
            self.bot.tree.remove_command(command.name)

    # -- helpers ----------------------------------------------------------------------------
    def server_lang(self, guild_id: int) -> str:
        """The language of a server (its public messages)."""
        guild = self.bot.get_guild(guild_id)
        return lang_of(guild.preferred_locale if guild is not None else None)

    def game_title(self, game: str, lang: str) -> str:
        """A game's name in a language."""
        try:
            return self.bot.rules_for(game).title(lang)
        except KeyError:
            return game

    async def _here(self, interaction: Interaction) -> TournamentView:
        """The tournament of the interaction's channel; refused where there is none."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("tournament-none-here")
        found = await self.service.in_channel(interaction.channel_id)
        if found is None:
            raise Refusal("tournament-none-here")
        return found

    def names(self, view: TournamentView) -> dict[int, str]:
        """Each entrant's name as shown (plain: no Markdown)."""
        return names_of(view)

    # -- commands ---------------------------------------------------------------------------
    async def create(self, interaction: Interaction, game: str, fmt: str, start: str,
                     rounds: int, size: int | None, advance: int, duplicate: bool,
                     checkin: int, pace: str) -> None:
        """/tournament create: the service makes it (or refuses), then the sign-up message is
        posted as the command's public answer and its id kept."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("tournament-none-here")
        try:
            rules = self.bot.rules_for(game)
        except KeyError:
            raise Refusal("unknown-game", game=game) from None
        # the start as typed is a wall-clock time; the service counts on its own clock
        clock = self.bot.manager.clock
        starts_at = clock.now() + (when_of(start) - clock.wall(clock.now()))
        view = await self.service.create(
            interaction.guild_id, interaction.channel_id, interaction.user.id, game, fmt,
            rounds, size or rules.usual_players, advance, duplicate, starts_at, checkin, pace)
        lang = self.server_lang(interaction.guild_id)
        await interaction.response.send_message(**self.signup(view, lang),
                                                allowed_mentions=NO_MENTIONS)
        message = await interaction.original_response()
        await self.service.set_message(view.id, message.id)

    async def show_standings(self, interaction: Interaction) -> None:
        """/tournament standings: privately, in the caller's language, with the picture; the
        channel's newest event, an ended one's final standings until a new one is created."""
        if interaction.channel_id is None:
            raise Refusal("tournament-none-here")
        view = await self.service.last_in_channel(interaction.channel_id)
        if view is None:
            raise Refusal("tournament-none-here")
        lang = lang_of(interaction.locale)
        await interaction.response.defer(ephemeral=True, thinking=True)
        rows = await self.service.standings(view.id)
        kwargs = await self.board.standings_message(view, rows, lang,
                                                    final=view.status == "finished")
        # an edit takes its new files as ``attachments``
        await interaction.edit_original_response(embeds=kwargs["embeds"],
                                                 attachments=kwargs["files"])

    async def manage(self, interaction: Interaction, what: str, user_id: int = 0) -> None:
        """An organiser's command on this channel's tournament (the service checks who)."""
        view = await self._here(interaction)
        lang = lang_of(interaction.locale)
        can_manage = bool(interaction.permissions.manage_guild)
        by = interaction.user.id
        if what == "drop":
            await self.service.drop(view.id, by, user_id, can_manage)
        elif what == "pause":
            await self.service.pause(view.id, by, can_manage)
        elif what == "resume":
            await self.service.resume(view.id, by, can_manage)
        elif what == "cancel":
            await self.service.cancel(view.id, by, can_manage)
        else:
            await self.service.start_now(view.id, by, can_manage)
        await reply(interaction, t(f"tournament-done-{what}", lang))

    # -- the sign-up message ----------------------------------------------------------------
    def signup(self, view: TournamentView, lang: str) -> dict[str, Any]:
        """The sign-up message: what, when, who, and the buttons (none once it began)."""
        game = self.game_title(view.game, lang)
        title = t("tournament-title", lang, game=game, fmt=t(f"tournament-fmt-{view.fmt}", lang))
        lines = [t("tournament-when", lang, start=f"<t:{int(self._wall(view.starts_at))}:F>",
                   relative=f"<t:{int(self._wall(view.starts_at))}:R>",
                   checkin=view.checkin_minutes)]
        if view.fmt == "swiss":
            lines.append(t("tournament-swiss-about", lang, rounds=view.rounds, size=view.size))
        else:
            lines.append(t("tournament-elimination-about", lang, size=view.size,
                           advance=view.advance))
        if view.duplicate:
            lines.append(t("tournament-duplicate-about", lang))
        lines.append(self.status_text(view, lang))
        entrants = [t("tournament-entrant-in" if e.checked_in else "tournament-entrant", lang,
                      name=plain(e.name)) for e in view.entrants]
        embed = discord.Embed(title=title[:256], description="\n".join(lines)[:4000])
        embed.add_field(name=t("tournament-entrants", lang, count=len(entrants)),
                        value=("\n".join(entrants) or t("tournament-nobody", lang))[:1024],
                        inline=False)
        embed.set_footer(text=t("tournament-organiser-footer", lang, id=view.id))
        buttons = discord.ui.View(timeout=None)
        if view.status == "signup":
            for verb, style in (("tjoin", discord.ButtonStyle.success),
                                ("tleave", discord.ButtonStyle.secondary),
                                ("tcheck", discord.ButtonStyle.primary)):
                buttons.add_item(discord.ui.Button(
                    label=t(VERB_KEYS[verb], lang), style=style,
                    custom_id=ids.make(verb, view.id)))
        return {"embed": embed, "view": buttons}

    def status_text(self, view: TournamentView, lang: str) -> str:
        """Where the event stands: sign-up, check-in (its window open), under way, paused,
        finished, or why it was cancelled."""
        if view.status == "signup" and view.checkin_minutes and (
                self.bot.manager.clock.now() >= view.checkin_opens):
            return t("tournament-status-checkin", lang)
        if view.status == "running" and view.paused:
            return t("tournament-status-paused", lang)
        if view.status == "cancelled" and view.ended is not None:
            return t(f"tournament-ended-{view.ended}", lang)
        return t(f"tournament-status-{view.status}", lang)

    def _wall(self, instant: float) -> float:
        return float(self.bot.manager.clock.wall(instant))

    async def on_button(self, interaction: Interaction, cid: ids.ComponentId) -> None:
        """Join, Leave or Check in on a sign-up message: the clicker's own entry, then the
        message edited to the tournament as it is now."""
        view = await self.service.view(cid.table)
        if (interaction.guild_id, interaction.channel_id) != (view.guild_id, view.channel_id):
            log.warning("a click from server %s channel %s named tournament %s: refused",
                        interaction.guild_id, interaction.channel_id, cid.table)
            raise Refusal("tournament-foreign")
        user = interaction.user
        if cid.verb == "tjoin":
            view = await self.service.join(view.id, user.id, user.display_name)
        elif cid.verb == "tleave":
            view = await self.service.leave(view.id, user.id)
        else:
            view = await self.service.check_in(view.id, user.id)
        await interaction.response.edit_message(**self.signup(view, self.server_lang(
            view.guild_id)), allowed_mentions=NO_MENTIONS)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """The sign-up buttons (``dh:tjoin|tleave|tcheck:<tournament>:0:``); refusals as
        sentences in the clicker's language."""
        if interaction.type is not discord.InteractionType.component:
            return
        cid = ids.parse(str(dict(interaction.data or {}).get("custom_id", "")))
        if cid is None or cid.verb not in ids.TOURNAMENT_VERBS:
            return
        self.bot.under_way()
        try:
            await self.on_button(interaction, cid)
        except Exception as error:
            if discord_errors.too_late(error):
                return
            if not isinstance(error, Refusal):
                log.error("tournament button %s failed", cid.verb, exc_info=error)
            with contextlib.suppress(discord.HTTPException):
                await reply(interaction, refusal_text(error, interaction.locale))

    # -- the service's news -----------------------------------------------------------------
    async def on_news(self, news: TournamentNews) -> None:
        """The service's news, shown in the tournament's channel in the background: the
        service tells it holding the tournament's lock, and the Discord work (messages,
        threads, pictures) must not hold the next round up. One tournament's news is shown in
        the order told."""
        tid = news.view.id
        self._showing[tid] = background(self._show_after(self._showing.get(tid), news),
                                        name=f"tournament-{tid}-news")

    async def _show_after(self, previous: asyncio.Task[None] | None,
                          news: TournamentNews) -> None:
        """Show one piece of news once the one before it is shown; a failure is logged, the
        tournament goes on."""
        if previous is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(previous)
        try:
            # news told at a restart (a round announced again) comes before the bot is
            # connected: a round's threads open from messages of the cached channel, which
            # a partial channel cannot stand in for (its message has no server)
            await self.bot.wait_until_ready()
            await self._show(news)
        except Exception as exc:
            log.warning("tournament news %s not shown (%s)", type(news).__name__,
                        discord_errors.described(exc) if isinstance(exc, discord.HTTPException)
                        else type(exc).__name__, exc_info=exc)

    async def _show(self, news: TournamentNews) -> None:
        view = news.view
        lang = self.server_lang(view.guild_id)
        channel = self.bot.get_partial_messageable(view.channel_id)
        if isinstance(news, TournamentChanged):
            await self._edit_signup(view, lang)
            if view.status == "cancelled" and view.ended is not None:
                await channel.send(t(f"tournament-ended-{view.ended}", lang),
                                   allowed_mentions=NO_MENTIONS)
        elif isinstance(news, RoundStarted):
            await self._edit_signup(view, lang)
            await self._round(view, news.round, news.tables, lang)
        elif isinstance(news, PlayerDropped):
            name = self.names(view).get(news.user_id, str(news.user_id))
            await channel.send(t(f"tournament-dropped-{news.reason}", lang, name=name),
                               allowed_mentions=NO_MENTIONS)
        elif isinstance(news, RoundEnded) and view.status != "finished":
            # (the last round's standings are the final ones, shown on TournamentEnded)
            await channel.send(**await self.board.standings_message(
                view, news.standings, lang, round_number=news.round),
                allowed_mentions=NO_MENTIONS)
        elif isinstance(news, TournamentEnded):
            await self._edit_signup(view, lang)
            kwargs = await self.board.standings_message(view, news.standings, lang, final=True)
            await channel.send(**kwargs, allowed_mentions=NO_MENTIONS)

    async def _edit_signup(self, view: TournamentView, lang: str) -> None:
        if view.message_id is None:
            return
        channel = self.bot.get_partial_messageable(view.channel_id)
        await channel.get_partial_message(view.message_id).edit(
            **self.signup(view, lang), allowed_mentions=NO_MENTIONS)

    async def _round(self, view: TournamentView, number: int,
                     tables: tuple[tuple[int, Seating], ...], lang: str) -> None:
        """A round's tables: a message and a thread each (the table service told), then the
        round's announcement linking them."""
        # the cached channel where there is one: a message sent through it knows its server,
        # which opening a thread from it needs (a partial channel's message does not)
        cached = self.bot.get_channel(view.channel_id)
        channel = (cached if isinstance(cached, discord.TextChannel)
                   else self.bot.get_partial_messageable(view.channel_id))
        names = self.names(view)
        game = self.game_title(view.game, lang)
        links = []
        for table_id, seating in tables:
            seats = ", ".join(names.get(p, str(p)) if p is not None
                              else t("tournament-computer", lang) for p in seating.seats)
            line = t("tournament-table-line", lang, number=seating.number, seats=seats)
            message = await channel.send(t("tournament-table-message", lang, game=game,
                                           round=number, line=line),
                                         allowed_mentions=NO_MENTIONS)
            link = message.jump_url
            name = t("tournament-thread-name", lang, game=game, round=number,
                     table=seating.number)
            try:
                thread = await message.create_thread(name=name[:NAME_MOST],
                                                     auto_archive_duration=10080)
            except discord.HTTPException as exc:  # the table plays in the channel
                log.warning("tournament %s table %s: no thread (%s)", view.id, table_id,
                            discord_errors.described(exc))
            else:
                link = thread.mention
                with contextlib.suppress(Refusal):  # a table already over
                    await self.bot.manager.set_thread(table_id, thread.id)
            # the thread first: the table is announced (its first message edit, its alerts)
            # where it plays
            with contextlib.suppress(Refusal):  # a table already over keeps its news
                await self.bot.manager.set_message(table_id, message.id)
            mentions = " ".join(f"<@{p}>" for p in seating.players)
            links.append(t("tournament-round-table", lang, line=line, link=link,
                           mentions=mentions))
        await channel.send(t("tournament-round-started", lang, round=number,
                             tables="\n".join(links))[:2000],
                           allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                                    roles=False))


#: the tie-breaks the standings name (each worded as ``tournament-reason-<key>``)
REASONS = ("first", "points", *TIE_BREAKS, STAGE)


async def setup(bot: Deckhand) -> None:
    """Extension entry point."""
    await bot.add_cog(TournamentsCog(bot))
