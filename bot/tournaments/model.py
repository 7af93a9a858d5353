"""The values a tournament is made of, shared by pairing, standings and duplicate scoring.

A player is an ``int`` (a Discord user id, or any id the caller keeps); a computer seat is
``None``. Computer seats fill tables that the players do not (a bye): they play, they take
places at their table like anyone, and they count for nobody (no standing, no points, no
opponent in a tie-break). Everything here is frozen: the storage and the runner keep these
values as they are and hand them back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: a seat's occupant: a player's id, or None for a computer filling the seat
Occupant = int | None


@dataclass(frozen=True)
class Seating:
    """One table of a round: its number (1 is the leaders' table) and who sits in each seat,
    in the game's seat order (seat 0 first)."""

    number: int
    seats: tuple[Occupant, ...]

    @property
    def players(self) -> tuple[int, ...]:
        """The players at the table, in seat order (computers left out)."""
        return tuple(p for p in self.seats if p is not None)

    @property
    def computers(self) -> int:
        """How many seats a computer fills."""
        return sum(1 for p in self.seats if p is None)

    def seat_of(self, player: int) -> int:
        """The seat ``player`` sits in; ValueError when not at this table."""
        return self.seats.index(player)


@dataclass(frozen=True)
class TableResult:
    """A finished (or abandoned) table: its seating and the game's places per seat as
    :class:`games.core.Outcome` gives them (1 = best, tied seats share the better number).

    ``places`` None: the table never played (every player failed to show, or the organiser
    cancelled it); its players score nothing that round. ``absent``: players who did not show
    (the runner put a computer in their seat): they score nothing, and the seat's place goes
    to nobody.
    """

    seating: Seating
    places: tuple[int, ...] | None
    absent: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.places is not None and len(self.places) != len(self.seating.seats):
            raise ValueError(
                f"table {self.seating.number}: {len(self.places)} places for "
                f"{len(self.seating.seats)} seats")
        stray = self.absent - set(self.seating.players)
        if stray:
            raise ValueError(f"table {self.seating.number}: absent players not seated: "
                             f"{sorted(stray)}")

    def present(self) -> tuple[int, ...]:
        """The players who played at this table (seated and not absent)."""
        return tuple(p for p in self.seating.players if p not in self.absent)


#: one round: every table's result
RoundResults = tuple[TableResult, ...]
