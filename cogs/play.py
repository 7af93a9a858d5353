"""The table cog: /play, /games, /rules, /settings, and every component of a table.

A thin adapter: it turns interactions into :class:`bot.tables.TableManager` calls and the
manager's updates into edits of the public table message (coalesced, in place).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot import avatars, logs
from bot.i18n import lang_of, t
from bot.render import table_png_async
from bot.storage import UserSettings
from bot.tables import CANCELLED, FINISHED, LOBBY, PLAYING, Refusal, Table, Update
from bot.tree import refusal_text, reply, server_only
from cogs import ids
from cogs.views import (
    COG,
    Payload,
    TableButton,
    TableSelect,
    card_words,
    confirm_payload,
    game_name,
    hand_payload,
    hidden_cards,
    lobby_payload,
    manage_payload,
    optional_seats,
    options_payload,
    table_payload,
)

if TYPE_CHECKING:
    from bot.client import Deckhand

log = logging.getLogger(__name__)
#: seconds the log of a finished or cancelled table is kept after its last edit
BOARD_KEPT = 60.0
Interaction = discord.Interaction[Any]


@dataclass
class Board:
    """What the cog keeps per table: recent public events and the last message it sent."""

    log: deque[tuple[str, dict[str, Any]]] = field(default_factory=lambda: deque(maxlen=6))
    sent: tuple[Any, ...] | None = None
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    dm_turns: dict[int, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one writer of the message
    hidden: tuple[int, set[str], list[str]] | None = None  # (version, cards, their words)
    edited: float = -math.inf  # when the message was last edited (the event loop's clock)


class PlayCog(commands.Cog, name=COG):
    """Slash commands and components for tables."""

    def __init__(self, bot: Deckhand) -> None:
        self.bot = bot
        self.manager = bot.manager
        self.boards: dict[int, Board] = {}
        self.prefs: dict[int, UserSettings] = {}  # users' settings, read once
        self._commands: list[app_commands.Command[Any, Any, Any] | app_commands.Group] = []
        self.hurry = asyncio.Event()  # set at a stop: pending edits go out without their gap
        avatars.CACHE.use(avatars.client_fetch(bot))  # seats' faces on table pictures, afresh

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

        async def help_command(interaction: Interaction) -> None:
            self.bot.under_way()
            await self.help(interaction)

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
        self._commands.append(group)
        for command in self._commands:
            self.bot.tree.add_command(command)
        self.manager.listeners.append(self.on_update)
        self.bot.add_dynamic_items(TableButton, TableSelect)
        self.bot.before_disconnect.append(self.settle_messages)
        await self._warm_up()

    async def _warm_up(self) -> None:
        """Draw one picture before going online: fonts load once, not during the first game."""
        try:
            rules = self.bot.rules_for(self.bot.game_ids()[0])
            state = rules.new_game(rules.min_players, seed=0)
            await table_png_async(state.view(None).to_dict(), ["-"] * rules.min_players)
        except Exception as exc:
            log.info("no picture drawn at start (%s)", type(exc).__name__,
                     extra=logs.failure(exc))

    async def cog_unload(self) -> None:
        """Take the commands and the listener away."""
        for command in self._commands:
            self.bot.tree.remove_command(command.name)
        self.bot.remove_dynamic_items(TableButton, TableSelect)
        with contextlib.suppress(ValueError):
            self.manager.listeners.remove(self.on_update)
        with contextlib.suppress(ValueError):
            self.bot.before_disconnect.remove(self.settle_messages)

    @commands.Cog.listener()
    async def on_tables_resumed(self, tables: list[Table]) -> None:
        """The bot resumed these tables at its start."""
        self.refresh_later(tables)

    async def settle_messages(self) -> None:
        """At a stop: make the edits still waiting for their gap now, and wait for them, so
        every table message shows the position as stored."""
        self.hurry.set()
        pending = [board.task for board in self.boards.values()
                   if board.task is not None and not board.task.done()]
        if pending:
            await asyncio.wait(pending)

    def refresh_later(self, tables: list[Table]) -> None:
        """After a restart: refresh each resumed table's message once the bot is ready."""

        async def run() -> None:
            await self.bot.wait_until_ready()
            for table in tables:
                if table.message_id is None:
                    await self._repost(table)
                else:
                    self._mark(table)

        self.bot.loop.create_task(run())

    async def _repost(self, table: Table) -> None:
        """A resumed table with no message (the bot stopped between storing the table and
        posting its lobby, or before storing the posted message's id) gets a new public
        message; without one nobody could join, play or cancel it, and it would hold the
        channel."""
        board = self.board(table.id)
        try:
            async with board.lock:
                async with table.lock:
                    if table.message_id is not None or table.id not in self.manager.tables:
                        return
                    payload = self.render(table)
                channel = self.bot.get_partial_messageable(table.channel_id)
                message = await channel.send(
                    **payload.send(), files=await payload.files(),
                    allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                             roles=False))
                await self.manager.set_message(table.id, message.id)
                board.sent = payload.key()
        except Exception as exc:  # the table stays; a click on an old message adopts it
            log.warning("table %s: could not post its message again (%s)", table.id,
                        type(exc).__name__, extra=logs.failure(exc))

    # -- helpers ----------------------------------------------------------------------------
    def public_lang(self, table: Table) -> str:
        """The language of a table's server."""
        guild = self.bot.get_guild(table.guild_id)
        return lang_of(guild.preferred_locale if guild is not None else None)

    def board(self, table_id: int) -> Board:
        """The cog's memory of a table."""
        found = self.boards.get(table_id)
        if found is None:
            found = self.boards[table_id] = Board()
        return found

    async def settings_of(self, user_id: int) -> UserSettings:
        """A user's settings (read once, then kept; this cog is their only writer)."""
        found = self.prefs.get(user_id)
        if found is None:
            found = self.prefs[user_id] = await self.bot.store.user_settings(user_id)
        return found

    async def wants_dm(self, user_id: int) -> bool:
        """The user's DM preference."""
        return (await self.settings_of(user_id)).dm

    async def hand_for(self, table: Table, seat: int, lang: str, user_id: int,
                       **more: Any) -> Payload:
        """A seat's private hand, drawn as its player chose (four colours or two)."""
        chosen = await self.settings_of(user_id)
        async with table.lock:  # never a position half applied (shown before it is stored)
            return hand_payload(table, seat, lang, four_colour=chosen.four_colour, **more)

    def _log_lines(self, table: Table, lang: str) -> list[str]:
        """Recent public events, leaving out any that names a card now hidden in a hand
        (an earlier deal's play once the cards are dealt again)."""
        lines = []
        board = self.board(table.id)
        hidden: set[str] = set()
        words: list[str] = []
        if table.state is not None and any(kind == "event" for kind, _ in board.log):
            if board.hidden is None or board.hidden[0] != table.version:
                found = hidden_cards(table.state)
                board.hidden = (table.version, found, card_words(found))
            _, hidden, words = board.hidden
        names = [seat.name for seat in table.seats]  # each line names its player once
        for kind, params in board.log:
            if kind == "event":
                event = params["event"]
                if hidden and any(str(c) in hidden for c in event.cards):
                    continue
                text = table.rules.event_text(event, lang, names)
                if text and words and any(word in text for word in words):
                    continue
                if text:
                    lines.append(text)
            elif kind == "level-changed":  # the level's name in the message's language
                lines.append(t(kind, lang, level=t("level-" + params["level"], lang)))
            else:
                lines.append(t(kind, lang, **params))
        return lines

    def render(self, table: Table) -> Payload:
        """The public message of a table now (call with the table's lock held: a move is
        applied, then stored, and only then may it be shown)."""
        lang = self.public_lang(table)
        return table_payload(table, lang, self._log_lines(table, lang))

    async def _send_edit(self, table: Table, payload: Payload) -> None:
        if table.message_id is None:
            return
        channel = self.bot.get_partial_messageable(table.channel_id)
        message = channel.get_partial_message(table.message_id)
        await message.edit(content=payload.content, embed=payload.embed, view=payload.view,
                           attachments=await payload.files(),
                           allowed_mentions=discord.AllowedMentions(users=True, everyone=False,
                                                                    roles=False))

    def _mark(self, table: Table) -> None:
        board = self.board(table.id)
        board.dirty = True
        if board.task is None or board.task.done():
            board.task = asyncio.get_running_loop().create_task(self._flush(table))

    async def _flush(self, table: Table) -> None:
        """Edit the public message until it shows the latest position (edits coalesce)."""
        board = self.board(table.id)
        gap = self.bot.settings.edit_gap
        while board.dirty:
            wait = board.edited + gap - asyncio.get_running_loop().time()
            if wait > 0 and table.status not in (FINISHED, CANCELLED) and not self.hurry.is_set():
                # what happens meanwhile is shown in the same edit (a stop: at once)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.hurry.wait(), wait)
            async with board.lock:
                async with table.lock:
                    board.dirty = False
                    payload = self.render(table)
                key = payload.key()
                if key == board.sent:
                    continue
                try:
                    board.edited = asyncio.get_running_loop().time()
                    await self._send_edit(table, payload)
                    board.sent = key
                except Exception as exc:  # a failed edit must not stop later ones
                    log.warning("table %s: could not edit its message (%s)", table.id,
                                type(exc).__name__, extra=logs.failure(exc))
        if table.status in (FINISHED, CANCELLED):
            # forgotten a little later: the click that ended the table (a Start whose deal
            # decided the game) may still be answered with the table's log
            asyncio.get_running_loop().call_later(BOARD_KEPT, self.boards.pop, table.id, None)

    async def on_update(self, update: Update) -> None:
        """The manager's news: keep public events, then refresh the message (in a task)."""
        table = update.table
        board = self.board(table.id)
        for move in update.moves:
            name = table.seats[move.seat].name
            if move.how == "timeout":
                key = "now-away" if table.seats[move.seat].away else "timed-out"
                board.log.append((key, {"name": name}))
            for event in move.events:
                board.log.append(("event", {"event": event.for_seat(None)}))
        if update.kind == "away" and update.seat is not None:
            board.log.append(("handed-over", {"name": table.seats[update.seat].name}))
        if update.kind == "back" and update.seat is not None:
            board.log.append(("returned", {"name": table.seats[update.seat].name}))
        if update.kind == "level":
            board.log.append(("level-changed", {"level": table.level}))
        if update.kind == "finish" and table.version == 0:  # e.g. a 1234 player dropped out
            board.log.append(("decided-by-deal", {}))
        self._mark(table)
        if table.status == PLAYING and table.state is not None:
            due = [(seat, False) for seat in table.state.to_act]
            due += [(seat, True) for seat in optional_seats(table)]
            for seat, out_of_turn in due:
                info = table.seats[seat]
                if info.auto or info.user_id is None:
                    continue
                if board.dm_turns.get(seat) == table.version:
                    continue
                board.dm_turns[seat] = table.version
                asyncio.get_running_loop().create_task(
                    self._dm_turn(table, seat, table.version, out_of_turn))

    async def _dm_turn(self, table: Table, seat: int, version: int,
                       out_of_turn: bool = False) -> None:
        """Send a player who chose DMs their hand when they may act: their turn, or a move
        offered out of turn (Bhabhi's take)."""
        user_id = table.seats[seat].user_id
        if user_id is None or not await self.wants_dm(user_id):
            return
        if table.version != version or table.status != PLAYING:
            return
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            lang = lang_of(user and (await self.settings_of(user_id)).locale)
            guild = self.bot.get_guild(table.guild_id)
            channel = self.bot.get_channel(table.channel_id)
            where = {"guild": guild.name if guild else "?",
                     "channel": getattr(channel, "name", "?")}
            note = t("dm-may-act" if out_of_turn else "dm-turn", lang,
                     game=game_name(table, lang), **where)
            payload = await self.hand_for(table, seat, lang, user_id, dm=True, note=note,
                                          guild=where["guild"], channel=where["channel"])
            await user.send(**payload.send(), files=await payload.files())
        except discord.HTTPException:
            log.info("table %s: could not DM seat %s", table.id, seat)

    # -- commands ---------------------------------------------------------------------------
    async def play(self, interaction: Interaction, game: str) -> None:
        """/play: open a lobby in this channel."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("guild-only")
        table = await self.manager.open(interaction.guild_id, interaction.channel_id, game,
                                        interaction.user.id, interaction.user.display_name)
        lang = lang_of(interaction.guild_locale)
        payload = lobby_payload(table, lang)
        await interaction.response.send_message(**payload.send())
        message = await interaction.original_response()
        self.board(table.id).sent = payload.key()
        await self.manager.set_message(table.id, message.id)
        await self._check_dm(interaction, table)

    async def games(self, interaction: Interaction) -> None:
        """/games: every registered game with its player counts."""
        lang = lang_of(interaction.locale)
        lines = []
        for gid in self.bot.game_ids():
            rules = self.bot.rules_for(gid)
            lines.append(t("games-line", lang, name=rules.name_ja if lang == "ja" else rules.name,
                           id=gid, least=rules.min_players, most=rules.max_players))
        embed = discord.Embed(title=t("games-title", lang), description="\n".join(lines)[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def rules(self, interaction: Interaction, game: str) -> None:
        """/rules: a game's summary in the user's language."""
        lang = lang_of(interaction.locale)
        try:
            rules = self.bot.rules_for(game)
        except KeyError:
            raise Refusal("unknown-game", game=game) from None
        name = rules.name_ja if lang == "ja" else rules.name
        summary = rules.summary_ja if lang == "ja" else rules.summary_en
        embed = discord.Embed(title=t("rules-title", lang, name=name),
                              description=(summary or "-")[:4000])
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _change_settings(self, interaction: Interaction, **changes: Any) -> str:
        """Store some of a user's settings (the others kept); the user's language."""
        lang = lang_of(interaction.locale)
        user_id = interaction.user.id
        chosen = dataclasses.replace(await self.bot.store.user_settings(user_id), locale=lang,
                                     **changes)
        await self.bot.store.set_user_settings(user_id, chosen)
        self.prefs[user_id] = chosen
        return lang

    async def settings_dm(self, interaction: Interaction, enabled: bool) -> None:
        """/settings dm: hands by direct message, or in the channel."""
        lang = await self._change_settings(interaction, dm=enabled)
        await reply(interaction, t("dm-on" if enabled else "dm-off", lang))

    async def settings_four_colour(self, interaction: Interaction, enabled: bool) -> None:
        """/settings four-colour: the private hand picture in four suit colours, or two."""
        lang = await self._change_settings(interaction, four_colour=enabled)
        await reply(interaction, t("four-colour-on" if enabled else "four-colour-off", lang))

    async def help(self, interaction: Interaction) -> None:
        """/help: a short private guide in the user's language."""
        lang = lang_of(interaction.locale)
        embed = discord.Embed(title=t("help-title", lang), description=t("help-body", lang))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def _check_dm(self, interaction: Interaction, table: Table) -> None:
        """At join time: a player who chose DMs gets one now, or is told it cannot reach them."""
        if not await self.wants_dm(interaction.user.id):
            return
        lang = lang_of(interaction.locale)
        guild = interaction.guild.name if interaction.guild else "?"
        channel = getattr(interaction.channel, "name", "?")
        try:
            await interaction.user.send(t("dm-check", lang, game=game_name(table, lang),
                                          guild=guild, channel=channel))
        except discord.HTTPException:
            await reply(interaction, t("no-dm", lang))

    # -- components -------------------------------------------------------------------------
    async def component(self, interaction: Interaction, cid: ids.ComponentId) -> None:
        """One click or choice on a table component: routed, refusals as sentences.

        Called by :class:`cogs.views.TableButton` / :class:`cogs.views.TableSelect` (the
        registered dynamic items) and by the fallback listener, never both for one interaction.
        """
        raw = dict(interaction.data or {}).get("values")
        values = [str(v) for v in raw] if isinstance(raw, list) else []
        self.bot.under_way()
        try:
            await self.route(interaction, cid, values)
        except Exception as error:
            await self._refuse(interaction, error, cid.verb)

    async def _refuse(self, interaction: Interaction, error: BaseException, verb: str) -> None:
        if not isinstance(error, Refusal):  # its message may name a card of a hand
            log.error("component %s failed (%s)", verb, type(error).__name__,
                      extra=logs.failure(error))
        try:
            await reply(interaction, refusal_text(error, interaction.locale))
        except discord.HTTPException:
            log.warning("could not tell a user why their click failed")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """The fallback for components no dynamic item takes: never left unanswered.

        discord.py hands a click to a registered dynamic item only when its custom id matches
        the item's template *and* the clicked message carries that component; exactly the
        other clicks are answered here (the records cog answers its own ``dhs:`` ids).
        """
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if custom_id.startswith("dhs:"):  # the records cog's buttons (cogs/stats.py)
            return
        if ids.templated(custom_id) and _carries(interaction.message, custom_id,
                                                 data.get("component_type")):
            return  # a TableButton / TableSelect answers it
        parsed = ids.parse(custom_id)
        if parsed is None:
            await self._refuse(interaction, Refusal("unknown-component"), "?")
        else:  # one of our ids on a message that does not carry it: checked like any click
            await self.component(interaction, parsed)

    async def route(self, interaction: Interaction, cid: ids.ComponentId,
                    values: list[str]) -> None:
        """Do what a component asks."""
        m = self.manager
        user = interaction.user
        verb = cid.verb
        table = m.get(cid.table)
        lang = lang_of(interaction.locale)
        if verb in ("join", "leave", "addc", "remc", "start"):
            self._own_message(interaction, table)
            if verb == "join":
                await m.join(table.id, user.id, user.display_name)
            elif verb == "leave":
                await m.leave(table.id, user.id)
            elif verb == "addc":
                await m.add_computer(table.id, user.id)
            elif verb == "remc":
                await m.remove_computer(table.id, user.id)
            else:
                await m.start(table.id, user.id)
            await self._answer_public(interaction, table)
            if verb == "join":
                await self._check_dm(interaction, table)
        elif verb == "cancel":
            if not self._is_private(interaction):
                self._own_message(interaction, table)
            can_manage = bool(interaction.permissions.manage_guild) if interaction.guild else False
            await m.cancel(table.id, user.id, can_manage)
            if interaction.message is not None and interaction.message.id == table.message_id:
                await self._answer_public(interaction, table)
            else:
                await interaction.response.edit_message(content=t("done", lang), embed=None,
                                                        view=None)
        elif verb == "opts":
            if user.id != table.host_id:
                raise Refusal("host-only")
            if table.status != LOBBY:
                raise Refusal("already-started")
            page = int(cid.arg or 0)
            payload = options_payload(table, lang, page)
            if cid.arg:
                self._private_only(interaction, table)
                await interaction.response.edit_message(content=payload.content, view=payload.view)
            else:
                await interaction.response.send_message(**payload.send(), ephemeral=True)
        elif verb == "level" and table.status != LOBBY:
            # the host's menu in play: the computers' level from their next move on
            self._private_only(interaction, table)
            if not values:
                raise Refusal("no-such-choice")
            can_manage = bool(interaction.permissions.manage_guild) if interaction.guild else False
            await m.set_level(table.id, user.id, values[0], can_manage)
            payload = manage_payload(table, lang)
            await interaction.response.edit_message(content=payload.content, view=payload.view)
        elif verb in ("opt", "timer", "swap", "level"):
            self._private_only(interaction, table)
            if not values:
                raise Refusal("no-such-choice")
            if verb == "opt":
                value: object = None if values[0] == "random" else values[0]
                await m.set_option(table.id, user.id, cid.arg, value)
            elif verb == "timer":
                await m.set_timer(table.id, user.id, values[0])
            elif verb == "level":
                await m.set_level(table.id, user.id, values[0])
            else:
                first, _, second = values[0].partition("-")
                if not (first.isdigit() and second.isdigit()):
                    raise Refusal("bad-seat")
                await m.swap_seats(table.id, user.id, int(first), int(second))
            payload = options_payload(table, lang)
            await interaction.response.edit_message(content=payload.content, view=payload.view)
        elif verb == "hand":
            seat = self._seat(table, user.id)
            self._playing(table)
            payload = await self.hand_for(table, seat, lang, user.id)
            await interaction.response.send_message(**payload.send(), files=await payload.files(),
                                                    ephemeral=True)
        elif verb == "back":
            await m.back(table.id, user.id)
            await reply(interaction, t("returned", lang, name=user.display_name))
        elif verb == "manage":
            can_manage = bool(interaction.permissions.manage_guild) if interaction.guild else False
            if user.id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            payload = manage_payload(table, lang)
            await interaction.response.send_message(**payload.send(), ephemeral=True)
        elif verb == "over":
            can_manage = bool(interaction.permissions.manage_guild) if interaction.guild else False
            self._private_only(interaction, table)
            if not values or not values[0].isdigit():
                raise Refusal("bad-seat")
            await m.hand_to_computer(table.id, user.id, int(values[0]), can_manage)
            await interaction.response.edit_message(content=t("done", lang), view=None)
        elif verb in ("act", "pick", "set", "page", "view"):
            await self._hand_component(interaction, table, cid, values, lang)
        else:  # pragma: no cover - the templates and ids.parse admit only known verbs
            raise Refusal("unknown-component")

    @staticmethod
    def _is_private(interaction: Interaction) -> bool:
        """Whether the clicked message is an ephemeral one or in a DM."""
        message = interaction.message
        return message is not None and (interaction.guild_id is None
                                        or message.flags.ephemeral)

    @staticmethod
    def _own_message(interaction: Interaction, table: Table) -> None:
        """A table's public buttons act only on its own message: the answer edits the clicked
        message into the table, which would overwrite another table's message."""
        message = interaction.message
        if message is not None and table.message_id is not None \
                and message.id != table.message_id:
            raise Refusal("unknown-component")

    @staticmethod
    def _private_only(interaction: Interaction, table: Table) -> None:
        """Controls of private messages (a hand, a confirmation, a host's menu) never act on a
        public message: the answer edits the clicked message, and would show everyone a hand."""
        message = interaction.message
        if message is not None and (message.id == table.message_id or (
                interaction.guild_id is not None and not message.flags.ephemeral)):
            raise Refusal("unknown-component")

    def _seat(self, table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("not-seated")
        return seat

    def _playing(self, table: Table) -> None:
        if table.status != PLAYING or table.state is None:
            raise Refusal("not-started")

    async def _answer_public(self, interaction: Interaction, table: Table) -> None:
        """Answer a click on the public message by editing it to the table as it is now.

        While a move is being applied and stored (the table's lock is held) the position may
        not be shown yet: the click is acknowledged at once and the coalesced edit, which waits
        for the lock, shows the table.
        """
        board = self.board(table.id)
        if table.lock.locked():
            await interaction.response.defer()
            self._mark(table)
            await self._adopt(interaction, table)
            return
        payload = self.render(table)  # no await since the lock was seen free: nothing moves
        embed = payload.embed
        if payload.picture is not None and embed is not None:
            # a picture takes a moment to draw: answer with the words now, and let the
            # coalesced edit add the picture
            embed = discord.Embed.from_dict(embed.to_dict())
            embed.set_image(url=None)
        async with board.lock:  # taken before the first await: no coalesced edit overtakes
            await interaction.response.edit_message(
                content=payload.content, embed=embed, view=payload.view, attachments=[],
                allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False))
        if payload.picture is None:
            board.sent = payload.key()
        else:
            board.sent = None
            self._mark(table)
        await self._adopt(interaction, table)

    async def _adopt(self, interaction: Interaction, table: Table) -> None:
        """A table whose message was never stored (the bot stopped between posting the lobby
        and storing its id) takes the public message its buttons were clicked on; otherwise
        its message would never show a move again."""
        message = interaction.message
        if (table.message_id is None and message is not None
                and not self._is_private(interaction) and table.id in self.manager.tables):
            await self.manager.set_message(table.id, message.id)
            self._mark(table)

    async def _hand_component(self, interaction: Interaction, table: Table,
                              cid: ids.ComponentId, values: list[str], lang: str) -> None:
        """Moves and navigation in a player's private hand."""
        self._private_only(interaction, table)
        seat = self._seat(table, interaction.user.id)
        self._playing(table)
        if cid.version != table.version:
            raise Refusal("stale")
        state = table.state
        assert state is not None
        legal = state.legal_actions(seat)
        if not legal and seat not in state.to_act:
            raise Refusal("not-your-turn")
        if cid.verb in ("page", "view"):
            group, _, page = cid.arg.partition(".")
            where = (int(group), int(page)) if group.isdigit() and page.isdigit() else (0, 0)
            payload = await self.hand_for(table, seat, lang, interaction.user.id,
                                          group_page=where)
            await interaction.response.edit_message(**payload.edit())
            return
        if cid.verb == "set":
            chosen = sorted(values)
            matches = [i for i, a in enumerate(legal)
                       if a.kind == cid.arg and sorted(str(c) for c in a.cards) == chosen]
            if not matches:
                raise Refusal("illegal", reason=t("no-such-choice", lang))
            index = matches[0]
            payload = confirm_payload(table, seat, lang, index, legal[index])
            await interaction.response.edit_message(content=payload.content, embed=None,
                                                    view=payload.view)
            return
        raw = cid.arg if cid.verb == "act" else (values[0] if values else "")
        if not raw.isdigit() or int(raw) >= len(legal):
            raise Refusal("no-such-choice")
        index = int(raw)
        action = legal[index]
        if cid.verb == "pick" and len(action.cards) > 1:
            payload = confirm_payload(table, seat, lang, index, action)
            await interaction.response.edit_message(content=payload.content, embed=None,
                                                    view=payload.view)
            return
        await self.manager.act(table.id, interaction.user.id, cid.version, action)
        if table.status in (PLAYING, FINISHED) and table.state is not None:
            payload = await self.hand_for(table, seat, lang, interaction.user.id)
            await interaction.response.edit_message(**payload.edit(),
                                                    attachments=await payload.files())


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
