"""Standings: points per table, tie-breaks named and explained, a frozen row per player.

Decisions:

- **Points per table** (:func:`place_points`): at a table of ``n`` seats, place ``p`` (1 =
  best) is worth ``n − p`` points: 3/2/1/0 at four seats, 1/0 at two. Seats that tie share the
  places they cover, averaged: two seats tied for first at four seats take (3 + 2) / 2 = 2.5
  each. At two seats that is chess's 1 / ½ / 0. Partners of a partnership game share a place
  (the game gives both the same), so both take the same points. Computers take places like
  anyone (a player placed under a computer loses that point), but their points go to nobody.
- **No-shows**: a player in :attr:`TableResult.absent` scores 0 for that round and counts one
  no-show; a table whose places are None scores 0 for all its players.
- **Dropped players** (left, or dropped by the organiser) keep their rows, points and rank; the
  row says ``dropped`` and pairing leaves them out (the runner passes the active ones).
- **Tie-breaks**, in this order, each over every round a player played, counting only the
  *players* met (never computers, never absent players), with final points (after the last
  round):

  1. ``opponents`` (Buchholz-like): for each table, the mean final points of the players met
     there, summed over rounds. The mean, not the sum, so a table with a computer seat or
     one of five seats weighs as much as one of four.
  2. ``beaten`` (Sonneborn–Berger-like): for each table, the mean over the players met of
     (their final points × 1 if placed above them, ½ if tied, 0 if below), summed over rounds.
     At two seats this is chess's Sonneborn–Berger exactly.
  3. ``wins``: tables where the player's place was 1.
  4. ``seed``: the order the players were given in (the event's seeding: ratings or sign-up);
     it always separates two players, so ranks are never shared.

- **Explanation key** (:attr:`Standing.reason`): what put a player below the one ranked just
  above: ``points``, one of the tie-break names, or ``first`` for rank 1. Words come from the
  catalogues (``tournament-reason-<key>``), not from here.

- **Elimination** (:func:`by_stage`): how far a player got in the bracket comes before
  points: a player who reached a later round (or went through the one both reached, or won
  the final) ranks above one who did not, whatever their points; within one stage the order
  above holds. Its explanation key is ``stage``.

The points of a duplicate event are matchpoints instead (:mod:`bot.tournaments.duplicate`):
:func:`standings` takes them as ``gains`` and computes the same tie-breaks from them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.tournaments.model import TableResult

#: the tie-breaks in the order they are applied (their names are the explanation keys)
TIE_BREAKS = ("opponents", "beaten", "wins", "seed")
#: the explanation key of an elimination's row below a player who got further (by_stage)
STAGE = "stage"


@dataclass(frozen=True)
class Standing:
    """One player's row: rank (1 = first, never shared), points, the tie-breaks, and why they
    are below the row above (``reason``: ``first``, ``points`` or a tie-break's name)."""

    player: int
    rank: int
    points: float
    opponents: float
    beaten: float
    wins: int
    played: int
    no_shows: int
    dropped: bool
    reason: str


def place_points(places: Sequence[int]) -> tuple[float, ...]:
    """Points per seat for a table's places (1 = best; tied seats share the better number):
    ``n − place`` with ties averaged over the places they cover."""
    n = len(places)
    found: list[float] = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        covered = range(place, place + tied)
        found.append(sum(n - q for q in covered) / tied)
    return tuple(found)


def round_gains(results: Sequence[TableResult]) -> dict[int, float]:
    """What each seated player gained in one round from the places (absent: 0)."""
    gains: dict[int, float] = {}
    for table in results:
        points = None if table.places is None else place_points(table.places)
        for seat, player in enumerate(table.seating.seats):
            if player is None:
                continue
            won = points is not None and player not in table.absent
            gains[player] = points[seat] if won and points is not None else 0.0
    return gains


def _share(mine: int, theirs: int) -> float:
    """The head-to-head share of a place against another's: 1 above, ½ tied, 0 below."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def standings(
    players: Sequence[int],
    rounds: Sequence[Sequence[TableResult]],
    *,
    dropped: Collection[int] = (),
    gains: Sequence[Mapping[int, float]] | None = None,
) -> tuple[Standing, ...]:
    """Every player's row, best first.

    ``players``: everyone who entered, in seeding order (the last tie-break). ``rounds``: the
    results so far. ``gains``: each round's points per player instead of the place points (a
    duplicate event's matchpoints); by default :func:`round_gains` of each round.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if gains is not None and len(gains) != len(rounds):
        raise ValueError(f"{len(gains)} rounds of gains for {len(rounds)} rounds")
    each = [round_gains(r) for r in rounds] if gains is None else list(gains)
    points = {p: 0.0 for p in players}
    for gained in each:
        for player, value in gained.items():
            if player not in points:
                raise ValueError(f"player {player} played but did not enter")
            points[player] += value
    opponents = dict.fromkeys(players, 0.0)
    beaten = dict.fromkeys(players, 0.0)
    wins = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    no_shows = dict.fromkeys(players, 0)
    for results in rounds:
        for table in results:
            for player in table.absent:
                no_shows[player] += 1
            if table.places is None:
                continue
            present = table.present()
            place_of = {p: table.places[table.seating.seat_of(p)] for p in present}
            for player in present:
                played[player] += 1
                wins[player] += place_of[player] == 1
                met = [o for o in present if o != player]
                if not met:
                    continue
                opponents[player] += sum(points[o] for o in met) / len(met)
                beaten[player] += sum(points[o] * _share(place_of[player], place_of[o])
                                      for o in met) / len(met)
    seed = {p: i for i, p in enumerate(players)}

    def key(p: int) -> tuple[float, float, float, int, int]:
        # rounded: sums of thirds and halves must compare equal when they are equal
        return (-round(points[p], 9), -round(opponents[p], 9), -round(beaten[p], 9),
                -wins[p], seed[p])

    order = sorted(players, key=key)
    rows: list[Standing] = []
    for rank, player in enumerate(order, start=1):
        reason = "first"
        if rank > 1:
            above, mine = key(order[rank - 2]), key(player)
            names = ("points", *TIE_BREAKS)
            reason = next(n for n, a, b in zip(names, above, mine, strict=True) if a != b)
        rows.append(Standing(player, rank, points[player], opponents[player], beaten[player],
                             wins[player], played[player], no_shows[player],
                             player in set(dropped), reason))
    return tuple(rows)


def _key(row: Standing) -> tuple[float, float, float, int]:
    """A row's points and tie-breaks as compared (the seed is the order given)."""
    return (-round(row.points, 9), -round(row.opponents, 9), -round(row.beaten, 9), -row.wins)


def by_stage(rows: Sequence[Standing], stage: Mapping[int, int]) -> tuple[Standing, ...]:
    """An elimination's standings: ``rows`` (as :func:`standings` ordered them) reordered by
    each player's ``stage`` (larger: further in the bracket; a player left out is at 0), the
    ranks numbered again and each row's ``reason`` said again against its new neighbour."""
    order = sorted(rows, key=lambda r: (-stage.get(r.player, 0), r.rank))
    found: list[Standing] = []
    for rank, row in enumerate(order, start=1):
        reason = "first"
        if rank > 1:
            above = order[rank - 2]
            if stage.get(above.player, 0) != stage.get(row.player, 0):
                reason = STAGE
            else:
                names = ("points", *TIE_BREAKS[:-1])
                reason = next((n for n, a, b in zip(names, _key(above), _key(row), strict=True)
                               if a != b), "seed")
        found.append(replace(row, rank=rank, reason=reason))
    return tuple(found)
