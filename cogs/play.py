"""The table cog: /play, /games, /rules, /settings, /help, and every component of a table.

A thin adapter: it turns interactions into :class:`bot.tables.TableManager` calls and the
manager's news into what people see. It is composed of parts, each given what it uses: the
public table message (:mod:`cogs.board`), people's settings (:mod:`cogs.prefs`), private hands
(:mod:`cogs.hands`), live panels (:mod:`cogs.panels`), turn alerts (:mod:`cogs.alerts`), DM
turns (:mod:`cogs.dm`), and the controls of the lobby (:mod:`cogs.lobby`), the turn
(:mod:`cogs.turn`) and hints (:mod:`cogs.hints`). Here are the commands, the listener that
hands the manager's news to the parts, and the routing of a click by its custom id to the
part that answers it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot import logs
from bot.client.tree import refusal_text, reply, server_only
from bot.i18n import lang_of, t
from bot.pictures import avatars
from bot.pictures.warmup import warm_up
from bot.tables import DealEnded, Position, Refusal, TableEvent, TableOpened
from cogs import discord_errors, ids
from cogs.activity import ActivityControls
from cogs.alerts import Alerts
from cogs.board import BOARD_KEPT as BOARD_KEPT  # re-exported
from cogs.board import Board as Board  # re-exported
from cogs.board import Interaction, TableMessages
from cogs.dm import DirectTurns
from cogs.hands import Hands
from cogs.hints import HintControls
from cogs.lobby import LobbyControls
from cogs.panels import Panels
from cogs.prefs import Preferences
from cogs.reminders import Reminders
from cogs.rules_text import rules_answer
from cogs.threads import TableThreads
from cogs.time_prefs import AWAY_DAYS, TimeSettings, days_text, hour_text
from cogs.tokens import Tokens
from cogs.turn import TurnControls
from cogs.views import COG
from cogs.yours import YourTables

if TYPE_CHECKING:
    from bot.client.deckhand import Deckhand

log = logging.getLogger(__name__)
#: a component's handler: (interaction, table, its custom id, values chosen, language)
Handler = Callable[[Interaction, Position, ids.ComponentId, list[str], str], Awaitable[None]]


class PlayCog(commands.Cog, name=COG):
    """Slash commands and components for tables."""

    def __init__(self, bot: Deckhand) -> None:
        self.bot = bot
        self.manager = bot.manager
        #: the people of the latest interactions, whose avatars need no user fetched
        self.people = avatars.SeenUsers()
        # seats' faces on table pictures, afresh
        avatars.CACHE.use(avatars.client_fetch(bot, self.people))
        self.prefs = Preferences(bot.store)  # people's settings, read once
        #: the latest interactions at each table: requests through their tokens are not
        #: counted against Discord's global limit
        self.tokens = Tokens()
        self.messages = TableMessages(bot, self.tokens)
        self.hands = Hands(self.manager, self.messages, self.prefs)
        self.panels = Panels(bot.lane, self.manager, self.hands)
        self.alerts = Alerts(bot, self.manager, self.messages.public_lang, self.prefs,
                             self.tokens)
        self.threads = TableThreads(bot, self.manager, self.messages, self.alerts)
        self.alerts.thread_lost = self.threads.left
        self.alerts.thread_opened = self.threads.opened
        self.dms = DirectTurns(bot, self.hands, self.prefs)
        self.turn = TurnControls(self.manager, self.hands, self.panels, self.prefs)
        self.hints = HintControls(self.manager)
        self.lobby = LobbyControls(self.manager, self.messages, self.prefs, self.threads)
        self.activity = ActivityControls(bot)
        self.yours = YourTables(bot, self.manager, self.hands, self.turn)
        self.reminders = Reminders(bot, self.messages.public_lang, self.prefs)
        self.time = TimeSettings(self.manager, self.prefs)
        self._commands: list[app_commands.Command[Any, Any, Any] | app_commands.Group] = []
        #: each verb of a table component, and the part of the cog that answers it
        self.handlers: dict[str, Handler] = {
            **dict.fromkeys(("join", "leave", "addc", "remc", "start"), self.lobby.on_seats),
            "cancel": self.lobby.on_cancel,
            "opts": self.lobby.on_options,
            **dict.fromkeys(("opt", "timer", "ondl", "swap", "level", "hints"),
                          self.lobby.on_option),
            "hand": self.turn.on_hand,
            **dict.fromkeys(("act", "pick", "set", "part", "page", "view"), self.turn.on_panel),
            "hint": self.hints.on_hint,
            "back": self.turn.on_back,
            "manage": self.turn.on_manage,
            "over": self.turn.on_over,
            "open": self.activity.on_open,
            "mine": self.yours.on_mine,
        }

    # -- setup ------------------------------------------------------------------------------
    async def cog_load(self) -> None:
        """Register the commands (choices from the registry as it is now) and the listener."""
        choices = [app_commands.Choice(name=locale_str(self.bot.rules_for(gid).name, game=gid),
                                       value=gid) for gid in self.bot.game_ids()][:25]

        async def play(interaction: Interaction, game: str) -> None:
            self.bot.under_way()
            await self.play(interaction, game)

        async def rules(interaction: Interaction, game: str) -> None:
            self.bot.under_way()
            await self.rules(interaction, game)

        async def games_list(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.games(interaction)

        async def dm(interaction: Interaction, enabled: bool) -> None:
            self.bot.under_way()
            await self.settings_dm(interaction, enabled)

        async def four_colour(interaction: Interaction, enabled: bool) -> None:
            self.bot.under_way()
            await self.settings_four_colour(interaction, enabled)

        async def alerts(interaction: Interaction, enabled: bool) -> None:
            self.bot.under_way()
            await self.settings_alerts(interaction, enabled)

        async def help_command(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.help(interaction)

        async def tables(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.yours.tables(interaction)

        for callback, name, desc, param in (
            (play, "play", "Open a table for a card game in this channel", "The game to play"),
            (rules, "rules", "Show a game's rules", "The game whose rules to show"),
        ):
            described = app_commands.describe(game=locale_str(param))(callback)
            chosen = app_commands.choices(game=choices)(described)
            made: app_commands.Command[Any, Any, Any] = app_commands.Command(
                name=locale_str(name), description=locale_str(desc), callback=chosen)
            self._commands.append(server_only(made) if name == "play" else made)
        self._commands.append(app_commands.Command(
            name=locale_str("games"), description=locale_str("List the games I can host"),
            callback=games_list))
        self._commands.append(app_commands.Command(
            name=locale_str("help"),
            description=locale_str("How to use Deckhand: start, join, play, settings"),
            callback=help_command))
        group = app_commands.Group(name=locale_str("settings"),
                                   description=locale_str("Your Deckhand settings"))
        group.add_command(app_commands.Command(
            name=locale_str("dm"),
            description=locale_str("Get your hands by direct message (or not)"),
            callback=app_commands.describe(
                enabled=locale_str("Send hands by direct message"))(dm)))
        group.add_command(app_commands.Command(
            name=locale_str("four-colour"),
            description=locale_str("Four suit colours in your hand pictures (or not)"),
            callback=app_commands.describe(
                enabled=locale_str("Use four suit colours"))(four_colour)))
        group.add_command(app_commands.Command(
            name=locale_str("alerts"),
            description=locale_str("Mention me in the channel when it is my turn (or not)"),
            callback=app_commands.describe(
                enabled=locale_str("Mention me when it is my turn"))(alerts)))
        self._time_commands(group)
        self._commands.append(group)
        self._commands.append(server_only(app_commands.Command(
            name=locale_str("tables"),
            description=locale_str("Your open tables in this server: whose turn, time left"),
            callback=tables)))
        for command in self._commands:
            self.bot.tree.add_command(command)
        self.manager.subscribe(self.on_update)
        self.manager.subscribe(self.reminders.on_event)
        self.manager.subscribe_person(self.reminders.on_person)
        self.bot.before_disconnect.append(self.messages.settle_messages)
        await self._warm_up()

    def _time_commands(self, group: app_commands.Group) -> None:
        """/settings away, back, quiet, timezone and digest: the settings of long games."""
        timing = self.time

        @app_commands.describe(days=locale_str("Days to pause your clocks"))
        @app_commands.choices(days=[app_commands.Choice(name=locale_str(days_text(n)), value=n)
                                    for n in AWAY_DAYS])
        async def away(interaction: Interaction, days: int) -> None:
            self.bot.under_way()
            await timing.away(interaction, days)

        async def back(interaction: Interaction) -> None:
            self.bot.under_way()
            await timing.back(interaction)

        hours = [app_commands.Choice(name=locale_str(hour_text(h)), value=h)
                 for h in range(24)]

        @app_commands.rename(start=locale_str("from"), end=locale_str("to"))
        @app_commands.describe(start=locale_str("The hour quiet begins (both left out: off)"),
                               end=locale_str("The hour quiet ends"))
        @app_commands.choices(start=hours, end=hours)
        async def quiet(interaction: Interaction, start: int | None = None,
                        end: int | None = None) -> None:
            self.bot.under_way()
            await timing.quiet(interaction, start, end)

        @app_commands.describe(name=locale_str("Your time zone, like Europe/Paris"))
        @app_commands.autocomplete(name=timing.zones)
        async def timezone(interaction: Interaction, name: str) -> None:
            self.bot.under_way()
            await timing.timezone(interaction, name)

        @app_commands.rename(enabled=locale_str("on"))
        @app_commands.describe(enabled=locale_str("Send me the daily digest"))
        async def digest(interaction: Interaction, enabled: bool) -> None:
            self.bot.under_way()
            await timing.digest(interaction, enabled)

        for callback, name, desc in (
            (away, "away", "Away for some days: your clocks pause at all your tables"),
            (back, "back", "Back from away: your clocks run again"),
            (quiet, "quiet", "Hours with no reminders, in your time zone"),
            (timezone, "timezone", "Your time zone (for quiet hours and the digest)"),
            (digest, "digest", "A daily DM listing the tables where it is your move"),
        ):
            group.add_command(app_commands.Command(
                name=locale_str(name), description=locale_str(desc), callback=callback))

    async def _warm_up(self) -> None:
        """Draw one picture before going online: fonts load once, not during the first game."""
        try:
            await warm_up(self.bot.rules_for(self.bot.game_ids()[0]))
        except Exception as exc:
            log.info("no picture drawn at start (%s)", type(exc).__name__,
                     extra=logs.failure(exc))

    async def cog_unload(self) -> None:
        """Take the commands and the listener away."""
        for command in self._commands:
            self.bot.tree.remove_command(command.name)
        self.manager.unsubscribe(self.on_update)
        self.manager.unsubscribe(self.reminders.on_event)
        self.manager.unsubscribe_person(self.reminders.on_person)
        with contextlib.suppress(ValueError):
            self.bot.before_disconnect.remove(self.messages.settle_messages)
        await self.panels.close()
        await self.alerts.close()
        await self.threads.close()
        self.messages.close()

    @commands.Cog.listener()
    async def on_tables_resumed(self, tables: list[Position]) -> None:
        """The bot resumed these tables at its start."""
        for table in tables:  # a thread deleted while the bot was away is heard of by name
            self.threads.known(table)

        async def refresh() -> None:  # the alerts reply to the table messages: those first
            await self.messages.refresh(tables)
            await self.alerts.resumed(tables)

        self.bot.loop.create_task(refresh())

    @commands.Cog.listener()
    async def on_person_forgotten(self, user_id: int) -> None:
        """/privacy forget-me removed a person's settings: the ones kept here go too."""
        self.prefs.forget(user_id)
        self.people.forget(user_id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: a table playing there carries on in its channel."""
        await self.threads.thread_deleted(payload.thread_id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread changed: one archived and locked by a moderator is left by its table."""
        await self.threads.thread_updated(payload.thread_id, dict(payload.data))

    async def on_update(self, update: TableEvent) -> None:
        """The service's news (no lock held): the table message's events and edit, then the
        turn's DM hands, panels and alerts (each in a task of its own); a deal's result and
        the game's go to the table's thread."""
        self.threads.changed(update)
        if isinstance(update, DealEnded):  # its move's MoveApplied came first: shown there
            return
        if isinstance(update, TableOpened):  # its message is the one this cog just posted
            return
        self.messages.note(update)
        if update.position.closed:  # (its last edits may still go through them)
            asyncio.get_running_loop().call_later(BOARD_KEPT, self.tokens.forget,
                                                  update.position.table_id)
        self.panels.changed(update.position)
        self.alerts.changed(update.position)
        self.dms.changed(update.position)

    # -- commands ---------------------------------------------------------------------------
    async def play(self, interaction: Interaction, game: str) -> None:
        """/play: a lobby in this channel (a lesson's last button opens one too)."""
        await self.lobby.play(interaction, game)

    async def games(self, interaction: Interaction) -> None:
        """/games: every registered game with its player counts."""
        lang = lang_of(interaction.locale)
        lines = []
        for gid in self.bot.game_ids():
            rules = self.bot.rules_for(gid)
            lines.append(t("games-line", lang, name=rules.title(lang),
                           id=gid, least=rules.min_players, most=rules.max_players))
        embed = discord.Embed(title=t("games-title", lang), description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def rules(self, interaction: Interaction, game: str) -> None:
        """/rules: a game's summary and options in the user's language."""
        lang = lang_of(interaction.locale)
        try:
            rules = self.bot.rules_for(game)
        except KeyError:
            raise Refusal("unknown-game", game=game) from None
        await interaction.response.send_message(**await rules_answer(rules, lang), ephemeral=True)

    async def _change_settings(self, interaction: Interaction, **changes: Any) -> str:
        """Store some of a user's settings (the others kept); the user's language."""
        lang = lang_of(interaction.locale)
        await self.prefs.change(interaction.user.id, locale=lang, **changes)
        return lang

    async def settings_dm(self, interaction: Interaction, enabled: bool) -> None:
        """/settings dm: hands by direct message, or in the channel."""
        lang = await self._change_settings(interaction, dm=enabled)
        await reply(interaction, t("dm-on" if enabled else "dm-off", lang))

    async def settings_four_colour(self, interaction: Interaction, enabled: bool) -> None:
        """/settings four-colour: the private hand picture in four suit colours, or two."""
        lang = await self._change_settings(interaction, four_colour=enabled)
        await reply(interaction, t("four-colour-on" if enabled else "four-colour-off", lang))

    async def settings_alerts(self, interaction: Interaction, enabled: bool) -> None:
        """/settings alerts: a mention in the channel when it is your turn, or none."""
        lang = await self._change_settings(interaction, alerts=enabled)
        await reply(interaction, t("alerts-on" if enabled else "alerts-off", lang))

    async def help(self, interaction: Interaction) -> None:
        """/help: a short private guide in the user's language."""
        lang = lang_of(interaction.locale)
        embed = discord.Embed(title=t("help-title", lang), description=t("help-body", lang))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # -- components -------------------------------------------------------------------------
    async def component(self, interaction: Interaction, cid: ids.ComponentId) -> None:
        """One click or choice on a table component: routed, refusals as sentences.

        Called by :meth:`on_interaction`, once for each click on a table's component.
        """
        raw = dict(interaction.data or {}).get("values")
        values = [str(v) for v in raw] if isinstance(raw, list) else []
        self.bot.under_way()
        try:
            await self.route(interaction, cid, values)
            self.tokens.seen(cid.table, interaction)
        except Exception as error:
            await self._refuse(interaction, error, cid.verb)

    async def _refuse(self, interaction: Interaction, error: BaseException, verb: str) -> None:
        if discord_errors.too_late(error):  # (Discord refused the answer till its 3 s ran out)
            log.warning("component %s: Discord no longer takes its answer (%s); what the click"
                        " did stands", verb, discord_errors.described(error))
            return
        if not isinstance(error, Refusal):  # its message may name a card of a hand
            log.error("component %s failed (%s)", verb, type(error).__name__,
                      extra=logs.failure(error))
        try:
            await reply(interaction, refusal_text(error, interaction.locale))
        except discord.HTTPException:
            log.warning("could not tell a user why their click failed")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Every click on a table's component, routed by its custom id; any other component
        nobody takes is answered too: never left unanswered.

        A table's buttons and menus are plain components, not discord.py's dynamic items: a
        click needs nothing but its custom id, so the clicked message is never rebuilt into a
        view (``View.from_message``), work every click waited on. A lesson's buttons are
        dynamic items (``cogs.learn.LearnButton``): discord.py hands such a click to the item
        when the clicked message carries it; the records' and reviews' ``dhs:`` and ``dhr:``
        ids are answered by their cogs.

        Every interaction's person is kept for their avatar first (``avatars.SeenUsers``).
        """
        self.people.saw(interaction.user)
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if custom_id.startswith(("dhs:", "dhr:")):  # the records' and reviews' own buttons
            return
        if ids.LEARN_TEMPLATE.fullmatch(custom_id) and _carries(
                interaction.message, custom_id, data.get("component_type")):
            return  # a LearnButton answers it
        parsed = ids.parse(custom_id)
        if parsed is not None and parsed.verb in ids.TOURNAMENT_VERBS:
            return  # a tournament's sign-up button: cogs/tournaments.py answers it
        if parsed is None:
            await self._refuse(interaction, Refusal("unknown-component"), "?")
        else:  # a table's click (whatever message it came on: the handlers check that)
            await self.component(interaction, parsed)

    async def route(self, interaction: Interaction, cid: ids.ComponentId,
                    values: list[str]) -> None:
        """Do what a component asks: its verb's handler, with the table it names."""
        handler = self.handlers.get(cid.verb)
        if handler is None:  # a lesson's id, on a message that does not carry it
            raise Refusal("unknown-component")
        if interaction.guild_id is None and cid.verb not in ids.SEAT_VERBS:
            raise Refusal("unknown-component")  # no hand by DM carries it
        try:
            if cid.verb in ids.SEAT_VERBS:
                # the clicker's own seat alone (its handler checks it): from a DM, or from
                # any channel of the table's server, where /tables or a reminder showed it
                table = await self.manager.at(cid.table, None, None)
                if interaction.guild_id not in (None, table.guild_id):
                    log.warning("a request from server %s named table %s of server %s: "
                                "refused", interaction.guild_id, cid.table, table.guild_id)
                    raise Refusal("foreign-table")
            else:
                # the table of the server and channel clicked in: a manager's power, a host's
                # choice, a seat, reach no other server's table, whatever id a click names
                table = await self.manager.at(cid.table, interaction.guild_id,
                                              interaction.channel_id)
        except Refusal as refusal:
            if cid.verb == "open" and refusal.key == "no-table":  # ended: said so
                raise Refusal("open-gone") from None
            if cid.verb in ("hand", "mine") and refusal.key == "no-table":
                # an old alert's or list's button: how the game ended
                await reply(interaction, await self.yours.ended(
                    cid.table, lang_of(interaction.locale)))
                return
            raise
        await handler(interaction, table, cid, values, lang_of(interaction.locale))


def _carries(message: discord.Message | None, custom_id: str, component_type: object) -> bool:
    """Whether a message has a component with that custom id and type (as discord.py looks)."""
    if message is None:
        return False
    stack: list[Any] = list(message.components)
    while stack:
        found = stack.pop()
        if getattr(found, "custom_id", None) == custom_id and \
                getattr(found.type, "value", None) == component_type:
            return True
        stack.extend(getattr(found, "children", None) or ())
        stack.extend(getattr(found, "components", None) or ())
    return False


async def setup(bot: Deckhand) -> None:
    """Extension entry point."""
    await bot.add_cog(PlayCog(bot))
