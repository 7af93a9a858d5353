"""The lobby: opening a table, seats, computers, options, timer, level, start and cancel.

Every change is made under the table's lock, stored, then shown (a LobbyChanged event).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from bot import logs
from bot.tables import pace
from bot.tables.computers import Computers
from bot.tables.events import Cancelled, GameStarted, LevelChanged, LobbyChanged, TableOpened
from bot.tables.finish import Results
from bot.tables.limits import Limits
from bot.tables.model import CANCELLED, COMPUTER_LEVELS, LOBBY, PLAYING, Refusal, Seat, Table
from bot.tables.registry import Registry
from games.core import OptionError

log = logging.getLogger("bot.tables")  # the table service's log, whichever part writes


class Lobby:
    """Lobbies under their table's lock: every change stored, then shown; depends on the
    registry, the results (a game decided by its deal) and the computers (started with the
    game)."""

    def __init__(self, registry: Registry, results: Results, computers: Computers,
                 default_level: str, limits: Limits) -> None:
        self.registry = registry
        self.results = results
        self.computers = computers
        #: the servers' caps on open tables per channel and per person
        self.limits = limits
        #: the level a new table's computer players start at
        self.default_level = default_level

    async def open(
        self, guild_id: int, channel_id: int, game_id: str, host_id: int, host_name: str,
        seed: int | None = None,
    ) -> Table:
        """Open a lobby for a game in a channel, its host seated; Refusal when the channel
        holds as many open tables as its server allows ('channel-full') or the host sits at
        as many as it allows a person ('person-full')."""
        try:
            rules = self.registry.rules_for(game_id)
        except KeyError:
            raise Refusal("unknown-game", game=game_id) from None
        seats = [Seat(host_id, host_name)]
        seed = secrets.randbits(62) if seed is None else seed
        async with self.limits.opening:  # the caps counted, then the table open, at once
            try:
                await self.limits.check_open(guild_id, channel_id, host_id)
                table_id = await self.registry.store.create_table(
                    guild_id, channel_id, rules.id, host_id, [s.to_dict() for s in seats], {},
                    seed, "off")
            except Refusal:
                raise
            except Exception as exc:  # the database failed: no table, and the person is told
                log.error("a table could not be opened (%s)", type(exc).__name__,
                          extra=logs.failure(exc))
                raise Refusal("not-saved") from exc
            table = Table(table_id, guild_id, channel_id, rules, host_id, LOBBY, seats, {}, seed,
                          "off", level=self.default_level)
            self.registry.add(table)
        return table

    async def set_thread(self, table_id: int, thread_id: int | None,
                         message_id: int | None = None) -> Table:
        """The table plays in that thread from now on (None: in its channel), stored; with
        ``message_id``, its public message is that one from now on (the one in the thread,
        or back in the channel), in the same save."""
        registry = self.registry
        table = registry.get(table_id)
        async with registry.locked(table):
            registry.get(table_id)  # (closed while its lock was waited for)
            wanted = table.message_id if message_id is None else message_id
            if table.thread_id != thread_id or table.message_id != wanted:
                async with registry.saving(table):
                    table.thread_id, table.message_id = thread_id, wanted
        return table

    def _host(self, table: Table, user_id: int) -> None:
        if user_id != table.host_id:
            raise Refusal("host-only")

    async def set_message(self, table_id: int, message_id: int) -> None:
        """Remember the public message of a table; the first one announces the table."""
        table = self.registry.get(table_id)
        first = table.message_id is None
        async with self.registry.locked(table):
            async with self.registry.saving(table):
                table.message_id = message_id
            if first:
                self.registry.publish(table, TableOpened)

    async def change(self, table_id: int, user_id: int, change: Callable[[Table], None],
                     host_only: bool = True) -> Table:
        """Make one change to a lobby under its lock (by its host only, unless ``host_only``
        is off), then store and show it; ``change`` raises Refusal to refuse, changing
        nothing."""
        registry = self.registry
        table = registry.lobby(table_id)
        async with registry.locked(table):
            registry.lobby(table_id)
            if host_only:
                self._host(table, user_id)
            async with registry.saving(table):
                change(table)
            registry.publish(table, LobbyChanged)
        return table

    async def join(self, table_id: int, user_id: int, name: str) -> Table:
        """Seat a person in the lobby."""
        def seat(table: Table) -> None:
            if table.seat_of(user_id) is not None:
                raise Refusal("already-seated")
            if len(table.seats) >= table.rules.max_players:
                raise Refusal("table-full", most=table.rules.max_players)
            table.seats.append(Seat(user_id, name))
        return await self.change(table_id, user_id, seat, host_only=False)

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Take a person's seat away in the lobby (the host cancels instead)."""
        def unseat(table: Table) -> None:
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if user_id == table.host_id:
                raise Refusal("host-cannot-leave")
            del table.seats[seat]
        return await self.change(table_id, user_id, unseat, host_only=False)

    async def add_computer(self, table_id: int, user_id: int) -> Table:
        """The host adds a computer player."""
        def add(table: Table) -> None:
            if len(table.seats) >= table.rules.max_players:
                raise Refusal("table-full", most=table.rules.max_players)
            number = sum(1 for s in table.seats if s.computer) + 1
            table.seats.append(Seat(None, f"CPU {number}", computer=True))
        return await self.change(table_id, user_id, add)

    async def remove_computer(self, table_id: int, user_id: int) -> Table:
        """The host removes the last computer player."""
        def remove(table: Table) -> None:
            for index in range(len(table.seats) - 1, -1, -1):
                if table.seats[index].computer:
                    del table.seats[index]
                    return
            raise Refusal("no-computer")
        return await self.change(table_id, user_id, remove)

    async def set_option(self, table_id: int, user_id: int, name: str, value: object) -> Table:
        """The host sets one of the game's options (checked against its description)."""
        def set_it(table: Table) -> None:
            try:
                option = table.rules.option(name)
            except KeyError:
                raise Refusal("bad-option", reason=f"unknown option '{name}'") from None
            players = max(len(table.seats), table.rules.min_players)
            try:
                coerced = option.coerce(value, players)
            except OptionError as exc:  # shown in the reader's language (bot.client.tree)
                raise Refusal("bad-option", reason=exc) from None
            if coerced == option.default:
                table.options.pop(name, None)
            else:
                table.options[name] = coerced
        return await self.change(table_id, user_id, set_it)

    async def set_level(self, table_id: int, user_id: int, level: str,
                        can_manage: bool = False) -> Table:
        """The host chooses how strong the table's computer players are: in the lobby, or in
        play (the host or a manager) from the next computer move on."""
        def set_it(table: Table) -> None:
            if level not in COMPUTER_LEVELS:
                raise Refusal("bad-option",
                              reason=f"the level must be one of {', '.join(COMPUTER_LEVELS)}")
            table.level = level
        registry = self.registry
        if registry.get(table_id).status == LOBBY:
            return await self.change(table_id, user_id, set_it)
        table = registry.playing(table_id, None)
        async with registry.locked(table):
            registry.playing(table_id, None)
            if user_id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            if table.level != level:  # an unknown level is never the table's: refused here
                async with registry.saving(table):
                    set_it(table)
                registry.publish(table, LevelChanged)
        return table

    async def set_timer(self, table_id: int, user_id: int, timer: str) -> Table:
        """The host chooses the pace: a live turn timer or a correspondence deadline per
        move (:data:`bot.tables.pace.PACES`); Refusal 'bad-pace' naming them otherwise."""
        def set_it(table: Table) -> None:
            if timer not in pace.PACES:
                raise Refusal("bad-pace", paces=", ".join(pace.PACES))
            table.timer = timer
        return await self.change(table_id, user_id, set_it)

    async def set_on_deadline(self, table_id: int, user_id: int, choice: str) -> Table:
        """The host chooses what a missed correspondence deadline does
        (:data:`bot.tables.pace.DEADLINE_CHOICES`); Refusal 'bad-on-deadline' otherwise."""
        def set_it(table: Table) -> None:
            if choice not in pace.DEADLINE_CHOICES:
                raise Refusal("bad-on-deadline", choices=", ".join(pace.DEADLINE_CHOICES))
            table.on_deadline = choice
        return await self.change(table_id, user_id, set_it)

    async def swap_seats(self, table_id: int, user_id: int, first: int, second: int) -> Table:
        """The host swaps two seats (choosing partners in team games)."""
        def swap(table: Table) -> None:
            count = len(table.seats)
            if not (0 <= first < count and 0 <= second < count) or first == second:
                raise Refusal("bad-seat")
            table.seats[first], table.seats[second] = table.seats[second], table.seats[first]
        return await self.change(table_id, user_id, swap)

    async def start(self, table_id: int, user_id: int) -> Table:
        """The host starts the game when the player count and options are allowed."""
        registry = self.registry
        table = registry.lobby(table_id)
        async with registry.locked(table):
            registry.lobby(table_id)
            self._host(table, user_id)
            rules = table.rules
            count = len(table.seats)
            if count not in rules.player_counts():
                raise Refusal("player-count", least=rules.min_players, most=rules.max_players,
                              seated=count)
            try:
                state = rules.new_game(count, seed=table.seed, options=table.options)
            except OptionError as exc:  # shown in the reader's language (bot.client.tree)
                raise Refusal("bad-option", reason=exc) from None
            except ValueError as exc:
                raise Refusal("bad-option", reason=str(exc)) from None
            async with registry.saving(table):
                table.state = state
                table.status = PLAYING
                table.version = 0
            self.computers.kick(table)  # the first turn's timer is in the position shown
            await self.computers.flush(table)  # and stored before it is shown
            registry.publish(table, GameStarted)
            if table.state.over:  # decided by the deal (a 1234 player with no move drops out)
                await self.results.settle(table)
        return table

    async def cancel(self, table_id: int, user_id: int, can_manage: bool = False) -> Table:
        """The host, or a member who may manage the server, cancels a table."""
        registry = self.registry
        table = registry.get(table_id)
        async with registry.locked(table):
            if table.status not in (LOBBY, PLAYING):
                raise Refusal("no-table")
            if user_id != table.host_id and not can_manage:
                raise Refusal("host-or-manager")
            if table.state is not None and table.state.over:
                raise Refusal("not-started")  # over: its result is being stored, not lost
            async with registry.saving(table):
                table.status = CANCELLED
            registry.close(table)
            registry.publish(table, Cancelled)
        return table

