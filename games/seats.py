"""Seat arithmetic: one home for who sits left of whom (seats are numbered clockwise)."""

from __future__ import annotations

from collections.abc import Iterator

CLOCKWISE = 1
COUNTER_CLOCKWISE = -1


def left(seat: int, players: int) -> int:
    """The next seat clockwise (the player's left)."""
    return (seat + 1) % players


def right(seat: int, players: int) -> int:
    """The previous seat (the player's right)."""
    return (seat - 1) % players


def step(seat: int, players: int, direction: int = CLOCKWISE) -> int:
    """The next seat in a direction (+1 clockwise, -1 counter-clockwise)."""
    return (seat + direction) % players


def iter_from(start: int, players: int, direction: int = CLOCKWISE) -> Iterator[int]:
    """Every seat once, starting with ``start`` and going round in ``direction``."""
    for i in range(players):
        yield (start + i * direction) % players


def partner(seat: int, players: int = 4) -> int:
    """The seat opposite (partnership games: 0 with 2, 1 with 3)."""
    return (seat + players // 2) % players


def next_in(seat: int, players: int, live: list[bool] | tuple[bool, ...],
            direction: int = CLOCKWISE) -> int:
    """The next seat after ``seat`` in ``direction`` that is live; ``seat`` itself if none."""
    s = seat
    for _ in range(players):
        s = (s + direction) % players
        if live[s]:
            return s
    return seat
