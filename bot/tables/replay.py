"""A finished game replayed from its record, one move at a time, as a front end may see it.

``/replay`` steps through a recorded game and ``/history`` explains its last deal. Both need
the game rebuilt from its seed, options and moves; that is game logic, so it is done here and
the front end is handed a frozen :class:`Replayed`: the public view, the step's public news and
the finished deals, never a game state or anybody's hidden cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.storage.records import Record
from bot.tables.results import hidden_now
from games.core import Event, Outcome, Rules, Tally, View


@dataclass(frozen=True, eq=False)
class Replayed:
    """A recorded game after ``step`` of its ``total`` moves, as a spectator sees it."""

    rules: Rules = field(repr=False)
    step: int
    total: int
    #: the seat that made move ``step`` (None at the start)
    seat: int | None
    #: what move ``step`` did, as everybody may know it (``Event.for_seat(None)``)
    events: tuple[Event, ...]
    #: True when move ``step`` ended a deal (its tally is the last of ``tallies``)
    tallied: bool
    #: the public view (``state.view(None).to_dict()``)
    public: dict[str, Any]
    players: int
    #: the game's options in play, defaults included
    game_options: Mapping[str, Any]
    over: bool
    outcome: Outcome | None
    #: every deal finished so far explained, oldest first (``state.breakdown()``)
    tallies: tuple[Tally, ...]
    #: cards in someone's hand that the public view does not show (never to be named: an old
    #: deal's card back in a hand)
    hidden: frozenset[str]

    @property
    def public_view(self) -> View:
        """The public view as the rules' wording takes it (``rules.view_text``)."""
        return View(self.public)

    @property
    def at_end(self) -> bool:
        """Whether this is the last recorded move of a game that ended."""
        return self.step == self.total and self.over


def replay(rules: Rules, record: Record, step: int) -> Replayed:
    """The game of a record replayed from its seed and options up to move ``step`` (clamped
    to the recorded moves). Raises ``ValueError`` (the rules' ``IllegalAction``) for a record
    the rules no longer replay."""
    state = rules.new_game(len(record.seats), seed=record.seed, options=record.options)
    total = len(record.actions)
    step = min(max(0, step), total)
    events: list[Event] = []
    seat: int | None = None
    tallied = False
    for index, (mover, action) in enumerate(record.actions[:step]):
        before = len(state.breakdown())
        happened = state.apply(mover, action)
        if index == step - 1:
            seat, events = mover, happened
            tallied = len(state.breakdown()) > before
    return Replayed(rules, step, total, seat, tuple(e.for_seat(None) for e in events), tallied,
                    state.view(None).to_dict(), state.players, dict(state.options), state.over,
                    state.outcome, tuple(state.breakdown()), hidden_now(state))
