"""Turns: a move resolved against the rules, applied, stored, then announced.

Every move — a person's, a computer's, a timeout's — goes through :meth:`Turns.apply` with the
table's lock held: applied to the state, stored (committed) before anyone is told, the version
bumped, a game that ended concluded (:class:`bot.tables.finish.Results`), and its events queued for
delivery once the lock is let go.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot import logs, tasks
from bot.tables.events import DealEnded, MoveApplied, TableEvent
from bot.tables.finish import Results
from bot.tables.model import CONCLUDE_RETRY_MOST, Move, Refusal, Table
from bot.tables.position import Position, position_of
from bot.tables.registry import Registry
from bot.tables.writer import ActionWriter
from games import wording
from games.cards import Card
from games.cards import parse as parse_card
from games.core import Action, IllegalAction, State
from games.wording import msg


@dataclass(frozen=True)
class Cards:
    """A choice made of cards: the one legal move of the seat made of exactly these cards (in
    any order), of ``kind`` when given (a panel's menu of one kind of move), else of whatever
    kind they make. A card is a :class:`Card` or its code ('TS')."""

    cards: tuple[Card | str, ...]
    kind: str | None = None


#: what a person picked: a move's index in the seat's legal moves (as a panel lists them),
#: a move, its text form ('play:TS'), its cards (the one legal move made of them), or
#: :class:`Cards` (cards, and the kind of move they are for)
Choice = int | Action | str | Cards | Sequence[Card | str]

log = logging.getLogger("bot.tables")  # the table service's log, whichever part writes


@dataclass(frozen=True)
class Played:
    """What a person's move did: the version stored, the events it made (its move first),
    and the seat's position right after it (the answer to the click). Named apart from
    :class:`games.core.Outcome`, a finished game's result."""

    version: int
    events: tuple[TableEvent, ...]
    position: Position

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves applied (the person's)."""
        return tuple(m for e in self.events for m in e.moves)


def resolve(state: State, seat: int, choice: Choice,
            legal: Sequence[Action] | None = None) -> Action:
    """The move a choice names for a seat, the one place any front end's choice is matched
    against the rules (``legal``: the seat's legal moves, when the caller has them already).

    Refusal with the real reason when it names none: 'no-such-choice' (an index past the
    moves, or cards of no move), 'illegal' with the rules' reason (a text that is no move, a
    code that is no card), 'not-in-hand' (cards the seat does not hold), 'which-move' (cards
    that make several moves), 'not-a-set' (held cards that make no move of the kind asked).
    A move (or a text) not legal now is returned as it is: the rules refuse it when it is
    applied, with their own reason (a card not followed...)."""
    if isinstance(choice, bool):
        raise Refusal("no-such-choice")
    if legal is None:
        legal = state.legal_actions(seat)
    if isinstance(choice, int):
        if not 0 <= choice < len(legal):
            raise Refusal("no-such-choice")
        return legal[choice]
    if isinstance(choice, Action):
        return choice
    if isinstance(choice, str):
        try:
            return Action.parse(choice)
        except IllegalAction as exc:
            raise Refusal("illegal", reason=exc.message) from None
    if isinstance(choice, Cards):
        return _of_cards(state, seat, legal, choice.cards, choice.kind)
    return _of_cards(state, seat, legal, choice, None)


def _of_cards(state: State, seat: int, legal: Sequence[Action],
              given: Sequence[Card | str], kind: str | None) -> Action:
    """The one legal move (of ``kind``, when given) made of exactly the cards given."""
    if isinstance(given, str) or not given:  # a move without cards is chosen otherwise
        raise Refusal("no-such-choice")
    cards: list[Card] = []
    for card in given:
        if isinstance(card, Card):
            cards.append(card)
            continue
        if not isinstance(card, str):
            raise Refusal("no-such-choice")
        try:
            cards.append(parse_card(card))
        except ValueError:
            raise Refusal("illegal", reason=msg("move-not-a-card", code=card[:8])) from None
    wanted = sorted(cards)
    found = [a for a in legal
             if (kind is None or a.kind == kind) and sorted(a.cards) == wanted]
    if len(found) == 1:
        return found[0]
    if found:  # the same cards make several moves: which one is meant is not said
        raise Refusal("which-move", cards=tuple(cards))
    held = Counter(str(c) for c in state.view(seat).get("hand", ()))
    missing = Counter(str(c) for c in cards) - held
    if missing:
        raise Refusal("not-in-hand",
                      cards=tuple(c for c in cards if str(c) in missing))
    if kind is not None:  # a panel's menu of one kind: the note says so, nothing applied
        if not any(a.kind == kind for a in legal):
            raise Refusal("no-such-choice")
        word = f"move-{kind}"
        raise Refusal("not-a-set", move=msg(word if wording.has(word) else "move-any"),
                      cards=tuple(cards))
    kinds = {a.kind for a in legal if a.cards}
    if len(kinds) != 1:  # no kind of move with cards now, or several it could be
        raise Refusal("no-such-choice")
    # the rules refuse it with their own sentence (a card not followed...)
    return Action.of(kinds.pop(), cards)


class Turns:
    """A person's move, and the one way every move is applied; depends on the registry, the
    action writer and the results."""

    def __init__(self, registry: Registry, writer: ActionWriter, results: Results) -> None:
        self.registry = registry
        self.writer = writer
        self.results = results
        #: called after every move, the lock held, before its events are taken: what the
        #: new position needs starts there (the computers, the turn timer shown with it)
        self.after: list[Callable[[Table], None]] = []
        #: awaited after those, the lock held, before the move is told to anyone: the new
        #: turn's deadline stored (bot.tables.timing), so a restart never applies the old
        #: turn's deadline to the new turn
        self.after_stored: list[Callable[[Table], Awaitable[None]]] = []
        #: per table, the task deleting a move that failed to store should it be on disk after
        #: all (:meth:`bot.tables.writer.ActionWriter.mend`), tried again until the database answers
        self.mending: dict[int, asyncio.Task[None]] = {}
        #: the first wait before that task tries (doubling each time, to CONCLUDE_RETRY_MOST)
        self.retry = 0.5

    async def act(self, table_id: int, user_id: int, version: int | None,
                  choice: Choice) -> Played:
        """A seated person's move at a state version; Refusal saying why when it cannot
        apply ('no-table', 'not-started', 'stale', 'not-seated', 'away', 'not-your-turn', or
        the reason :func:`resolve` or the rules give: 'no-such-choice', 'illegal',
        'not-in-hand', 'which-move', 'not-a-set'). Every front end calls this once for a
        move, with the choice as given: the table's lock is taken once, and the choice is
        matched against the position only here.

        The move is stored before anyone hears of it; its events reach the subscribers
        before this returns, unless another delivery of the table's events is under way
        (that one delivers them too, in order)."""
        registry = self.registry
        table = registry.playing(table_id, version)
        async with registry.locked(table):
            table = registry.playing(table_id, version)
            seat = table.seat_of(user_id)
            if seat is None:
                raise Refusal("not-seated")
            if table.seats[seat].away:
                raise Refusal("away")
            state = table.state
            assert state is not None
            legal = state.legal_actions(seat)
            if seat not in state.to_act and not legal:  # nothing to choose from: said first
                raise Refusal("not-your-turn")
            action = resolve(state, seat, choice, legal)
            if seat not in state.to_act and not any(action.same_as(a) for a in legal):
                raise Refusal("not-your-turn")
            table.seats[seat].timeouts = 0
            events = await self.apply(table, seat, action, user_id, "player")
            return Played(table.version, events, position_of(table, seat))

    async def apply(self, table: Table, seat: int, action: Action, user_id: int | None,
                    how: str) -> tuple[TableEvent, ...]:
        """Apply, store, bump the version, conclude a game that ended, and queue the events
        (called with the table's lock held); the events queued, in order.

        The move is applied to a copy of the state, which becomes the table's only once the
        move is stored: when storing fails the table is exactly as it was (Refusal
        'not-stored': the move did not count and may be played again), never rebuilt from the
        database that just failed."""
        state = table.state
        assert state is not None
        deals = len(state.breakdown())
        after = state.clone()
        try:
            happened = after.apply(seat, action)
        except IllegalAction as exc:
            raise Refusal("illegal", reason=exc.message) from None
        try:
            await self.writer.add(table.id, table.version, seat, str(action), user_id, how)
        except Exception as exc:
            log.error("table %s: a move could not be stored (%s); it did not count",
                      table.id, type(exc).__name__, extra=logs.failure(exc))
            self._mend_later(table)
            raise Refusal("not-stored") from exc
        table.state = state = after
        table.version += 1
        for hook in self.after:
            hook(table)
        for stored in self.after_stored:
            await stored(table)
        move = Move(seat, action, how, tuple(happened))
        events: list[TableEvent] = [MoveApplied(position_of(table), (move,))]
        tallies = state.breakdown()
        if len(tallies) > deals:
            events.append(DealEnded(events[0].position, tallies[-1].deal))
        for event in events:
            self.registry.bus.add(event)
        if state.over:
            ended = await self.results.conclude(table)
            if ended is None:
                self.results.later(table)
            else:
                events.append(ended)
        return tuple(events)

    def _mend_later(self, table: Table) -> None:
        """Until the database answers again, keep trying to delete what may be on disk of a
        move that failed to store (its person was told it did not count): a restart before
        the table's next move must not bring it back. The table's next move does it too."""
        running = self.mending.get(table.id)
        if self.registry.closed or (running is not None and not running.done()):
            return

        async def mend() -> None:
            delay = self.retry
            while not self.registry.closed and table.id in self.writer.unsure:
                await asyncio.sleep(delay)
                async with table.lock:
                    try:
                        await self.writer.mend(table.id)
                    except Exception as exc:
                        log.warning("table %s: the database still fails (%s); trying again",
                                    table.id, type(exc).__name__)
                    else:
                        return
                delay = min(delay * 2, CONCLUDE_RETRY_MOST)

        self.mending[table.id] = tasks.background(mend())
