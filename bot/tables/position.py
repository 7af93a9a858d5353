"""A table as a front end may see it: a frozen snapshot for one seat, or for a spectator.

The front ends (the Discord cogs, a web table) draw and answer from positions only; they never
hold a game state. The table service builds a position under the table's lock
(:meth:`bot.tables.TableManager.position`, and the public one every event carries), so it never
shows a move that is not stored yet. Everything in it is either the table's own data (seats,
options, timer) or taken from the game's views: a seat's position holds that seat's view and
the public one, never another seat's hidden cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.tables.model import CANCELLED, FINISHED, PLAYING, Table
from games.core import Action, Outcome, Rules, State, Tally, View


@dataclass(frozen=True)
class SeatShown:
    """One seat as anybody may see it."""

    name: str
    user_id: int | None
    computer: bool
    away: bool
    hints: int = 0  # hints this seat's person was shown in this game
    #: the (wall-clock) instant the person's away period ends: their correspondence clocks
    #: stand still until then (None: not away)
    away_until: float | None = None

    @property
    def auto(self) -> bool:
        """True when the computer moves for this seat."""
        return self.computer or self.away


@dataclass(frozen=True)
class LegalMove:
    """One move the viewing seat may make now: its index in the seat's list of legal moves
    (what a panel's control sends back to :meth:`bot.tables.TableManager.act`), the move, and
    its text form."""

    index: int
    action: Action

    @property
    def text(self) -> str:
        """The move's text form ('play:TS'), made when asked: a panel with 22's hundred
        sets reads few of them."""
        return str(self.action)


@dataclass(frozen=True, eq=False)
class Position:
    """A table at one version, for one seat (``seat``) or a spectator (``seat`` None)."""

    table_id: int
    guild_id: int
    channel_id: int
    message_id: int | None
    host_id: int
    rules: Rules = field(repr=False)
    status: str  # lobby, playing, finished, cancelled
    version: int
    seats: tuple[SeatShown, ...]
    #: the options the host set (defaults left out), as stored
    options: Mapping[str, Any]
    timer: str
    #: (version, wall-clock time) when the running turn timer runs out, or None (live and
    #: correspondence alike: the time left is ``deadline[1]`` less the time now)
    deadline: tuple[int, float] | None
    level: str
    hints: bool
    seat: int | None = None
    #: the game's options in play, defaults included (empty in the lobby)
    game_options: Mapping[str, Any] = field(default_factory=dict)
    #: the public view (``state.view(None).to_dict()``); None before the game starts
    public: dict[str, Any] | None = None
    #: the seat's own view (``state.view(seat).to_dict()``); None for a spectator
    own: dict[str, Any] | None = None
    to_act: tuple[int, ...] = ()
    #: user ids of the people the game waits for (no computer plays or keeps their seat)
    people_due: frozenset[int] = frozenset()
    #: people who may act although the game is not waiting for them (Getaway's take)
    optional: tuple[int, ...] = ()
    over: bool = False
    outcome: Outcome | None = None
    #: every finished deal explained, oldest first (``state.breakdown()``)
    tallies: tuple[Tally, ...] = ()
    #: the seat's legal moves now (none for a spectator, or outside play)
    moves: tuple[LegalMove, ...] = ()
    #: what the snapshots of this position share (the hidden cards are worked out from it
    #: when first asked: see :attr:`hidden`)
    shared: Seen | None = field(default=None, repr=False)
    #: why the table was ended without a result (a message key), e.g. its moves no longer
    #: replay under the game's corrected rules
    ended: str | None = None
    #: the thread the table plays in (None: in its channel); ``channel_id`` stays the channel
    #: where the table message is, the thread's parent
    thread_id: int | None = None
    #: what a missed correspondence deadline does: ``computer`` or ``drop`` (bot.tables.pace)
    on_deadline: str = "computer"

    @property
    def game_id(self) -> str:
        """The game's registry id."""
        return self.rules.id

    @property
    def game_name(self) -> str:
        """The game's English name (``rules.title(lang)`` words it in a reader's language)."""
        return self.rules.name

    @property
    def public_view(self) -> View | None:
        """The public view as the rules' wording takes it (``rules.view_text``)."""
        return None if self.public is None else View(self.public)

    @property
    def own_view(self) -> View | None:
        """The seat's own view as the rules take it (``rules.sorted_hand``, ``hand_key``)."""
        return None if self.own is None else View(self.own)

    @property
    def hidden(self) -> frozenset[str]:
        """Cards in someone's hand that the public view does not show (never to be named in
        public: an old deal's card back in a hand)."""
        return frozenset() if self.shared is None else self.shared.hidden

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.seats)

    @property
    def started(self) -> bool:
        """Whether the game has started (a state exists)."""
        return self.public is not None

    @property
    def closed(self) -> bool:
        """Finished or cancelled: nothing more happens at this table."""
        return self.status in (FINISHED, CANCELLED)

    @property
    def may_act(self) -> bool:
        """Whether the viewing seat's person may act now (their turn, or a move offered out
        of turn)."""
        if self.seat is None or self.status != PLAYING or self.over:
            return False
        return not self.seats[self.seat].auto and (self.seat in self.to_act or bool(self.moves))

    @property
    def board_at(self) -> tuple[int, int] | None:
        """Where the whole table is shown (picture, log, buttons): (channel or thread id,
        message id), or None before its message is posted. A table in a thread shows it in
        the thread (``message_id`` is then a message of the thread); a table in its channel,
        and one whose thread was opened before the thread held the table (``message_id`` is
        the thread's starter message), in its channel."""
        if self.message_id is None:
            return None
        if self.overview_at is not None:
            assert self.thread_id is not None
            return self.thread_id, self.message_id
        return self.channel_id, self.message_id

    @property
    def overview_at(self) -> tuple[int, int] | None:
        """Where a table in a thread keeps its compact message in the channel: (channel id,
        message id), or None. A thread started from a message takes the message's id, so
        the channel's message is the thread's starter, ``thread_id``."""
        if self.thread_id is None or self.message_id in (None, self.thread_id):
            return None
        return self.channel_id, self.thread_id

    def is_public_message(self, message_id: int) -> bool:
        """Whether a message is one of the table's public messages (its board or, for a
        table in a thread, its compact message in the channel)."""
        overview = self.overview_at
        return message_id == self.message_id or (
            overview is not None and message_id == overview[1])

    def seat_of(self, user_id: int) -> int | None:
        """The seat a person holds here, or None."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and not seat.computer:
                return index
        return None


@dataclass
class Seen:
    """What every snapshot of one position of a table shares, worked out once: after a move
    the event, the mover's answer, every panel and the table message each take a position of
    the same version (and under a burst of clicks a person's Hand and their partner's come at
    the same version too). Snapshots share the public dict and the moves: nobody changes a
    view."""

    key: tuple[int, int]  # (the table's version, the state's id)
    public: dict[str, Any]
    held: frozenset[str]  # every card code in the seats' hands
    seen_by: list[View]  # each seat's view, as the rules gave it (to find the held cards)
    legal: dict[int, tuple[Action, ...]] = field(default_factory=dict)  # by seat, as asked
    views: dict[int, dict[str, Any]] = field(default_factory=dict)  # by seat, as asked
    _hidden: frozenset[str] | None = None

    @property
    def hidden(self) -> frozenset[str]:
        """The held cards the public view does not show. Worked out when first asked, from
        the public dict and the held cards taken with it (neither changes afterwards, so
        this is right at any time): most positions of a busy table are never shown in
        public (its message is edited at most once a second) and need no search."""
        if self._hidden is None:
            self._hidden = (frozenset(self.held - _codes_in(self.public, set()))
                            if self.held else frozenset())
        return self._hidden

    def moves(self, state: State, seat: int) -> tuple[Action, ...]:
        """A seat's legal moves at this position (the rules list them once)."""
        found = self.legal.get(seat)
        if found is None:
            found = self.legal[seat] = tuple(state.legal_actions(seat))
        return found

    def view(self, seat: int) -> dict[str, Any]:
        """What a seat sees at this position, as data (made once)."""
        found = self.views.get(seat)
        if found is None:
            found = self.views[seat] = self.seen_by[seat].to_dict()
        return found


def _seen(table: Table, state: State) -> Seen:
    """The shared part of the table's position now (made at the first snapshot of it)."""
    key = (table.version, id(state))
    seen = table.seen
    if isinstance(seen, Seen) and seen.key == key:
        return seen
    public = state.view(None).to_dict()
    seen_by = [state.view(s) for s in range(state.players)]
    held = frozenset(str(c) for view in seen_by for c in view["hand"])
    table.seen = seen = Seen(key, public, held, seen_by)
    return seen


def _codes_in(value: Any, found: set[str]) -> set[str]:
    """Every string in a view (card codes among them)."""
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _codes_in(item, found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _codes_in(item, found)
    return found


def position_of(table: Table, seat: int | None = None) -> Position:
    """The table now, for ``seat`` (None: a spectator); called with the table's lock held."""
    state = table.state
    seats = tuple(SeatShown(s.name, s.user_id, s.computer, s.away, s.hints, s.away_until)
                  for s in table.seats)
    if state is None:
        return Position(table.id, table.guild_id, table.channel_id, table.message_id,
                        table.host_id, table.rules, table.status, table.version, seats,
                        dict(table.options), table.timer, table.deadline, table.level,
                        table.hints, seat, ended=table.ended, thread_id=table.thread_id,
                        on_deadline=table.on_deadline)
    seen = _seen(table, state)
    over = state.over
    playing = table.status == PLAYING and not over
    due = state.to_act if playing else ()
    optional: tuple[int, ...] = ()
    if playing:
        optional = tuple(s for s, info in enumerate(table.seats)
                         if s not in due and info.user_id is not None and not info.auto
                         and seen.moves(state, s))
    moves: tuple[LegalMove, ...] = ()
    own = None
    if seat is not None:
        own = seen.view(seat)
        if playing:
            moves = tuple(LegalMove(i, a) for i, a in enumerate(seen.moves(state, seat)))
    # made once with every field (not a bare one copied with the game's fields replaced)
    return Position(table.id, table.guild_id, table.channel_id, table.message_id,
                    table.host_id, table.rules, table.status, table.version, seats,
                    dict(table.options), table.timer, table.deadline, table.level, table.hints,
                    seat, game_options=dict(state.options), public=seen.public, own=own,
                    to_act=tuple(state.to_act), people_due=table.people_due(),
                    optional=optional, over=over, outcome=state.outcome,
                    tallies=state.breakdown(), moves=moves, shared=seen,
                    ended=table.ended, thread_id=table.thread_id,
                    on_deadline=table.on_deadline)
