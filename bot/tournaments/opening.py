"""Opening a round's tables through the table service's door, and reading their results: the
part of :class:`bot.tournaments.runner.Tournaments` that speaks to the tables (see its module's
docstring for the decisions: the host, the seat order, the seeds, who counts as absent)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence

from bot.storage.store import Storage
from bot.tables import Cancelled, GameEnded, Refusal, TableEvent, TableManager
from bot.tournaments.duplicate import seat_keys
from bot.tournaments.model import Occupant
from bot.tournaments.store import EventRow, RoundTableRow, TournamentStore

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
        """Open one table of a round through the door (see the module's docstring)."""
        seats: list[Occupant] = [None if p in dropped else p for p in table.seats]
        people = [p for p in seats if p is not None]
        if not people:  # everyone at it dropped: it never plays
            await self.rows.set_result(row.id, table.round, table.number, None, None,
                                       frozenset(p for p in table.seats if p is not None))
            return
        host = people[0]
        try:
            opened = await self.manager.open(row.guild_id, row.channel_id, row.game, host,
                                             names.get(host, str(host)), seed=table.seed)
        except Refusal as refusal:
            log.warning("tournament %s: round %s table %s could not be opened (%s)", row.id,
                        table.round, table.number, refusal.key)
            await self.rows.set_result(row.id, table.round, table.number, None, None,
                                       frozenset())
            return
        table_id = opened.table_id
        self.by_table[table_id] = (row.id, table.round, table.number)
        await self.rows.set_table(row.id, table.round, table.number, table_id, table.seats)
        try:
            order: list[Occupant] = [host]
            for person in people[1:]:
                await self.manager.join(table_id, person, names.get(person, str(person)))
                order.append(person)
            for _ in range(len(seats) - len(people)):
                await self.manager.add_computer(table_id, host)
                order.append(None)
            for index, wanted in enumerate(seats):
                if order[index] == wanted:
                    continue
                other = next(j for j in range(index + 1, len(order)) if order[j] == wanted)
                await self.manager.swap_seats(table_id, host, index, other)
                order[index], order[other] = order[other], order[index]
            await self.manager.set_timer(table_id, host, row.pace)
            await self.manager.start(table_id, host)
        except Refusal as refusal:  # the lobby refused: the table is called off, never played
            log.warning("tournament %s: round %s table %s could not start (%s)", row.id,
                        table.round, table.number, refusal.key)
            with contextlib.suppress(Refusal):
                await self.manager.cancel(table_id, host, can_manage=True)
            await self.rows.set_result(row.id, table.round, table.number, None, None,
                                       frozenset())

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
