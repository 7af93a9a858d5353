"""Opening a round's tables through the table service's door, and reading their results: the
part of :class:`bot.tournaments.runner.Tournaments` that speaks to the tables (see its module's
docstring for the decisions: the host, the seat order, the seeds, who counts as absent).

Opening a table is several calls (open, join, computers, swaps, pace, start), and the bot may
die between two of them. So the seating is done from the seats the lobby holds (people seated
already are not joined again), and a lobby whose id was not stored yet is recognised at the
restart by its deal seed: every table of every round is stored with a seed of its own before
it is opened, and the lobby is opened with it."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence

from bot.storage.store import Storage
from bot.tables import LOBBY, Cancelled, GameEnded, Refusal, TableEvent, TableManager
from bot.tournaments.duplicate import seat_keys
from bot.tournaments.model import Occupant, Seating
from bot.tournaments.store import EntrantRow, EventRow, RoundTableRow, TournamentStore

log = logging.getLogger("bot.tournaments.runner")


class RoundTables:
    """A round's tables at the table service: opened, and their results stored once."""

    def __init__(self, manager: TableManager, rows: TournamentStore, storage: Storage,
                 by_table: dict[int, tuple[int, int, int]]) -> None:
        self.manager = manager
        self.rows = rows
        self.storage = storage
        #: service table id -> (event, round, table number), shared with the runner
        self.by_table = by_table

    async def open(self, row: EventRow, table: RoundTableRow, dropped: set[int],
                    names: Mapping[int, str]) -> None:
        """Open one table of a round through the door (see the module's docstring), or
        finish one a crash left half-made: its lobby found again (:meth:`half_made`) is
        seated and started from where it stood, not opened a second time."""
        seats: list[Occupant] = [None if p in dropped else p for p in table.seats]
        people = [p for p in seats if p is not None]
        if not people:  # everyone at it dropped: it never plays
            await self.rows.set_result(row.id, table.round, table.number, None, None,
                                       frozenset(p for p in table.seats if p is not None))
            return
        host = people[0]
        table_id = table.table_id
        if table_id is None:
            table_id = await self.half_made(row, table)
        if table_id is None:
            try:
                opened = await self.manager.open(row.guild_id, row.channel_id, row.game, host,
                                                 names.get(host, str(host)), seed=table.seed)
            except Refusal as refusal:
                log.warning("tournament %s: round %s table %s could not be opened (%s)",
                            row.id, table.round, table.number, refusal.key)
                await self.rows.set_result(row.id, table.round, table.number, None, None,
                                           frozenset())
                return
            table_id = opened.table_id
        self.by_table[table_id] = (row.id, table.round, table.number)
        if table.table_id is None:
            await self.rows.set_table(row.id, table.round, table.number, table_id, table.seats)
        try:
            await self._seat(table_id, host, seats, names, row.pace)
        except Refusal as refusal:  # the lobby refused: the table is called off, never played
            log.warning("tournament %s: round %s table %s could not start (%s)", row.id,
                        table.round, table.number, refusal.key)
            with contextlib.suppress(Refusal):
                await self.manager.cancel(table_id, host, can_manage=True)
            await self.rows.set_result(row.id, table.round, table.number, None, None,
                                       frozenset())

    async def _seat(self, table_id: int, host: int, seats: Sequence[Occupant],
                    names: Mapping[int, str], pace: str) -> None:
        """Seat a lobby as the pairing says and start it, from the seats it holds now (all
        but the host's still to fill when just opened; some already, when a crash stopped
        this half-way): the people missing join, computers fill the rest, the seats are
        swapped into the pairing's order, the pace is set and the game started. A table
        already started is left as it is."""
        position = await self.manager.position(table_id)
        if position.status != LOBBY:
            return
        order: list[Occupant] = [None if s.computer else s.user_id for s in position.seats]
        for index in reversed(range(len(order))):  # someone dropped since it was half-made
            person = order[index]
            if person is not None and person != host and person not in seats:
                await self.manager.leave(table_id, person)
                del order[index]
        for person in seats:
            if person is not None and person not in order:
                await self.manager.join(table_id, person, names.get(person, str(person)))
                order.append(person)
        for _ in range(len(seats) - len(order)):
            await self.manager.add_computer(table_id, host)
            order.append(None)
        for index, wanted in enumerate(seats):
            if order[index] == wanted:
                continue
            other = next(j for j in range(index + 1, len(order)) if order[j] == wanted)
            await self.manager.swap_seats(table_id, host, index, other)
            order[index], order[other] = order[other], order[index]
        await self.manager.set_timer(table_id, host, pace)
        await self.manager.start(table_id, host)

    async def half_made(self, row: EventRow, table: RoundTableRow) -> int | None:
        """The lobby a crash left behind for a round's table whose id was never stored: the
        open lobby of the event's channel and game opened with the table's own deal seed
        (each table of each round has a seed of its own, stored before it is opened), or
        None."""
        for position in await self.manager.tables_in(row.channel_id):
            if (position.status != LOBBY or position.game_id != row.game
                    or position.table_id in self.by_table):
                continue
            stored = await self.storage.table(position.table_id)
            if stored is not None and stored.seed == table.seed:
                log.info("tournament %s: round %s table %s found half-made as table %s",
                         row.id, table.round, table.number, position.table_id)
                return position.table_id
        return None

    async def unfinished(self, table: RoundTableRow) -> bool:
        """Whether a round's table with a stored id is still a lobby at the table service (a
        crash stopped its seating half-way: :meth:`open` finishes it)."""
        if table.table_id is None or table.done or not self.manager.is_open(table.table_id):
            return False
        return (await self.manager.position(table.table_id)).status == LOBBY

    async def resumed(self, row: EventRow,
                      entrants: Sequence[EntrantRow]) -> tuple[tuple[int, Seating], ...]:
        """At a restart, the event's lock held: the current round's tables that a crash left
        half-made with their id stored are finished; answers the round's open tables never
        announced (they have no table message: the crash came before the round's news was
        told or shown), to be announced now. None while a table of the round is still to
        open: its opening announces every table of the round."""
        dropped = {e.user_id for e in entrants if e.dropped is not None}
        names = {e.user_id: e.name for e in entrants}
        for table in await self.rows.tables(row.id):
            if table.round == row.round and await self.unfinished(table):
                await self.open(row, table, dropped, names)
        current = [t for t in await self.rows.tables(row.id) if t.round == row.round]
        if any(t.table_id is None and not t.done for t in current):
            return ()
        found = []
        for table in current:
            if table.table_id is None or table.done or not self.manager.is_open(table.table_id):
                continue
            if (await self.manager.position(table.table_id)).message_id is None:
                found.append((table.table_id, Seating(table.number, table.seats)))
        return tuple(found)

    async def gone_while_down(self, tid: int, table: RoundTableRow) -> None:
        """A round's table no longer open at a restart: its stored result, or none."""
        assert table.table_id is not None
        result = await self.storage.result(table.table_id)
        stored = await self.storage.table(table.table_id)
        if result is None or stored is None:
            await self.rows.set_result(tid, table.round, table.number, None, None, frozenset())
            return
        outcome = result["outcome"]
        seated = [(s.get("user_id"), bool(s.get("computer"))) for s in result["seats"]]
        await self.record(tid, table, tuple(outcome["places"]),
                           tuple(float(x) for x in outcome["scores"]), seated)

    async def record(self, tid: int, table: RoundTableRow, places: Sequence[int] | None,
                      scores: Sequence[float] | None,
                      seated: Sequence[tuple[int | None, bool]]) -> None:
        """Store a table's result once: places, the duplicate keys, and who was absent (a
        pairing's player the computer played for, or who never moved while it did)."""
        assert table.table_id is not None
        absent: set[int] = set()
        for index, player in enumerate(table.seats):
            if player is None:
                continue
            if index >= len(seated) or seated[index][1] or seated[index][0] != player:
                absent.add(player)
        if places is not None:
            moved: dict[int, set[str]] = {}
            for action in await self.storage.actions(table.table_id):
                moved.setdefault(action.seat, set()).add(action.how)
            for index, player in enumerate(table.seats):
                hows = moved.get(index, set())
                if player is not None and hows and "player" not in hows:
                    absent.add(player)
        keys = None
        if places is not None and scores is not None:
            event = await self.rows.event(tid)
            assert event is not None
            rules = self.manager.rules_for(event.game)
            direction = rules.new_game(len(places), seed=table.seed).score_direction()
            keys = seat_keys(places, scores, direction)
        await self.rows.set_result(tid, table.round, table.number,
                                   None if places is None else tuple(places), keys,
                                   frozenset(absent))

    async def ended(self, event: TableEvent) -> int | None:
        """A round's table finished or was cancelled: its result stored once; the event's id
        (None: not a round's table, or its result was in already)."""
        if not isinstance(event, (GameEnded, Cancelled)):
            return None
        where = self.by_table.get(event.table_id)
        if where is None:
            return None
        tid, round_number, number = where
        table = next((t for t in await self.rows.tables(tid)
                      if t.round == round_number and t.number == number), None)
        if table is None or table.done:
            return None
        position = event.position
        outcome = position.outcome if isinstance(event, GameEnded) else None
        seated = [(s.user_id, s.computer) for s in position.seats]
        await self.record(tid, table, None if outcome is None else outcome.places,
                          None if outcome is None else outcome.scores, seated)
        return tid
