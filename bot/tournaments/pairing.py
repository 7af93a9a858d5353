"""Seating the rounds of a tournament: Swiss for any seat count, and elimination.

Decisions:

- **Every table has the event's seat count** (``size``, chosen per event among the game's
  seat counts: 4 for 22, say). ``n`` players take ``ceil(n / size)`` tables; the players are
  spread as evenly as possible (bigger tables first, so table 1 is full) and the seats left
  over are filled by computers, at most one more at one table than at another. So 13 players
  at four seats sit 4 + 3 + 3 + 3 with a computer at each of the last three tables. Tables of
  another size (13 as 4 + 4 + 5 where the game takes five) were not chosen: the seat count
  changes the game (22's hand and decks), the points a place is worth, and a duplicate round
  needs one seat count for every table.
- **Computers** fill seats only, take places at their table, and count for nobody (see
  :mod:`bot.tournaments.standings`). In a Swiss round the short tables start as the lowest ones,
  and a player who already sat with a computer is kept off a short table where possible (the
  cost below), so the computers go round.
- **Swiss, three seats and more** (:func:`swiss_round`): players in standings order (points,
  then the tie-breaks, then the seeding) are cut into tables in that order, then improved by
  swapping two players of different tables while that lowers the cost
  ``1000 × (pairs at a table who met before, counted per earlier meeting)
  + 100 × (earlier computer tables of each player at a short table)
  + 10 × (at each table, its best points − its worst points)``. Repeat opponents go first,
  score groups second. The descent starts from the standings order and from eight orders
  shuffled by the seed; the cheapest wins (the earliest among equals). The tables are then
  numbered by their best-ranked player, so the leaders sit together at table 1, and each
  table's seat order is shuffled by the seed (who deals first is the game's own draw).
- **Swiss, two seats**: the FIDE Dutch system of ``caissify-pairings`` (pure Python,
  Apache-2.0, no network: it was checked against bbpPairings, the engine lichess uses). Seat 0
  is its "white"; its pairing-allocated bye is a table against a computer. The bbpPairings
  binary itself would need a C++ build the project cannot ship through its package locks.
- **Deterministic**: the same entrants, results, seed and round give the same tables.
- **Elimination** (:func:`elimination_round`, :func:`advancing`, :func:`bracket`): tables of
  ``size`` seats, the best ``advance`` players of each table go through (computers never do; a
  tie on place goes to the better seed), until a final table of at most ``size`` players.
  Players are dealt to tables in a snake by seed (1, 2, 3 to tables 1, 2, 3, then 4 to table
  3 …) so the strong are spread, or with ``together`` the top seeds share table 1. The next
  round's seeding is by place at the table, then by the earlier seeding.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.model import Occupant, Seating, TableResult
from bot.tournaments.standings import round_gains, standings

#: the cost of seating two players together once more per time they met before
REPEAT_COST = 1000.0
#: the cost of a short (computer) table for a player per computer table they had before
BYE_COST = 100.0
#: the cost per point between a table's best and worst points
SPREAD_COST = 10.0
#: the descent's extra starts, shuffled by the seed
RESTARTS = 8


def table_counts(players: int, size: int, least: int = 2) -> tuple[int, ...]:
    """Players per table for ``players`` at tables of ``size`` seats: ``ceil(players/size)``
    tables, spread evenly, bigger first. ValueError when a table would hold fewer than
    ``least`` players (a game needs people to play against, not only computers)."""
    if size < 2:
        raise ValueError(f"a table has at least 2 seats, not {size}")
    if players < 1:
        raise ValueError("no players to seat")
    tables = math.ceil(players / size)
    base, extra = divmod(players, tables)
    counts = tuple(base + 1 if i < extra else base for i in range(tables))
    if min(counts) < min(least, players):
        raise ValueError(f"{players} players at {size} seats leave a table of {min(counts)}")
    return counts


def meetings(past: Sequence[Sequence[TableResult]]) -> Counter[frozenset[int]]:
    """How often each pair of players sat at one table (absent players met nobody)."""
    met: Counter[frozenset[int]] = Counter()
    for results in past:
        for table in results:
            for a, b in itertools.combinations(table.present(), 2):
                met[frozenset((a, b))] += 1
    return met


def computer_tables(past: Sequence[Sequence[TableResult]]) -> Counter[int]:
    """How many tables with a computer seat each player played at."""
    had: Counter[int] = Counter()
    for results in past:
        for table in results:
            if table.seating.computers:
                for player in table.present():
                    had[player] += 1
    return had


def _rng(seed: int, *parts: int) -> random.Random:
    # a text seed is hashed by SHA-512, the same on every run and machine
    return random.Random("/".join(str(p) for p in (seed, *parts)))


def _seated(number: int, members: Sequence[int], size: int, seed: int,
            round_number: int) -> Seating:
    seats: list[Occupant] = [*members, *([None] * (size - len(members)))]
    _rng(seed, round_number, number).shuffle(seats)
    return Seating(number, tuple(seats))


class _Cost:
    """The cost of a table, from the meetings, computer tables and points before the round."""

    def __init__(self, met: Mapping[frozenset[int], int], byes: Mapping[int, int],
                 points: Mapping[int, float], size: int) -> None:
        self.met = met
        self.byes = byes
        self.points = points
        self.size = size

    def table(self, members: Sequence[int]) -> float:
        repeats = sum(self.met.get(frozenset(pair), 0)
                      for pair in itertools.combinations(members, 2))
        short = len(members) < self.size
        byes = sum(self.byes.get(p, 0) for p in members) if short else 0
        spread = max(self.points[p] for p in members) - min(self.points[p] for p in members)
        return REPEAT_COST * repeats + BYE_COST * byes + SPREAD_COST * spread

    def descend(self, tables: list[list[int]]) -> tuple[float, list[list[int]]]:
        """Swap players between tables while a swap lowers the total; the local minimum."""
        costs = [self.table(t) for t in tables]
        improved = True
        while improved:
            improved = False
            for i, j in itertools.combinations(range(len(tables)), 2):
                for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                    left, right = list(tables[i]), list(tables[j])
                    left[a], right[b] = right[b], left[a]
                    new_left, new_right = self.table(left), self.table(right)
                    if new_left + new_right < costs[i] + costs[j] - 1e-9:
                        tables[i], tables[j] = left, right
                        costs[i], costs[j] = new_left, new_right
                        improved = True
        return sum(costs), tables


def swiss_round(
    entrants: Sequence[int],
    active: Collection[int],
    past: Sequence[Sequence[TableResult]],
    *,
    size: int,
    seed: int,
    rounds_total: int,
    gains: Sequence[Mapping[int, float]] | None = None,
) -> tuple[Seating, ...]:
    """The tables of the next Swiss round.

    ``entrants``: everyone who entered, in seeding order; ``active``: those who play this round
    (not dropped); ``past``: the earlier rounds' results; ``size``: the event's seat count;
    ``gains``: a duplicate event's matchpoints per round (see :func:`standings`).
    """
    playing = set(active)
    if not playing <= set(entrants):
        raise ValueError(f"players who did not enter: {sorted(playing - set(entrants))}")
    rows = standings(entrants, past, gains=gains)
    ranked = [row.player for row in rows if row.player in playing]
    points = {row.player: row.points for row in rows}
    round_number = len(past) + 1
    if size == 2:
        return _dutch(entrants, ranked, past, points, round_number, rounds_total, gains)
    counts = table_counts(len(ranked), size)
    cost = _Cost(meetings(past), computer_tables(past), points, size)

    def cut(order: Sequence[int]) -> list[list[int]]:
        starts = [0, *itertools.accumulate(counts)]
        return [list(order[a:b]) for a, b in itertools.pairwise(starts)]

    best_total, best = cost.descend(cut(ranked))
    shuffler = _rng(seed, round_number, 0)
    for _ in range(RESTARTS):
        order = list(ranked)
        shuffler.shuffle(order)
        total, tables = cost.descend(cut(order))
        if total < best_total - 1e-9:
            best_total, best = total, tables
    rank = {p: i for i, p in enumerate(ranked)}
    # numbered by the best-ranked player: the leaders at table 1
    best.sort(key=lambda t: min(rank[p] for p in t))
    return tuple(_seated(number, sorted(members, key=rank.__getitem__), size, seed,
                         round_number)
                 for number, members in enumerate(best, start=1))


def _dutch(entrants: Sequence[int], ranked: Sequence[int],
           past: Sequence[Sequence[TableResult]], points: Mapping[int, float],
           round_number: int, rounds_total: int,
           gains: Sequence[Mapping[int, float]] | None) -> tuple[Seating, ...]:
    """Two-seat tables by the FIDE Dutch system (caissify-pairings)."""
    from caissify_pairings import generate_pairings  # type: ignore[import-untyped]

    number = {p: i + 1 for i, p in enumerate(entrants)}
    by_number = {i: p for p, i in number.items()}
    before: dict[int, float] = dict.fromkeys(entrants, 0.0)
    colours: dict[int, list[str]] = {p: [] for p in entrants}
    floats: dict[int, list[str]] = {p: [] for p in entrants}
    byes: Counter[int] = Counter()
    pairs: set[tuple[int, int]] = set()
    for index, results in enumerate(past):
        seen: set[int] = set()
        for table in results:
            present = table.present()
            for seat, player in enumerate(table.seating.seats):
                if player is None or player not in present:
                    continue
                seen.add(player)
                rivals = [o for o in present if o != player]
                if not rivals:  # a table against a computer: the bye
                    byes[player] += 1
                    colours[player].append("none")
                    floats[player].append("down")
                    continue
                rival = rivals[0]
                colours[player].append("white" if seat == 0 else "black")
                mine, theirs = before[player], before[rival]
                floats[player].append("down" if mine > theirs else "up" if mine < theirs
                                      else "none")
                pairs.add((min(number[player], number[rival]), max(number[player],
                                                                   number[rival])))
        for player in entrants:
            if player not in seen:
                colours[player].append("none")
                floats[player].append("none")
        gained = round_gains(results) if gains is None else gains[index]
        for player, value in gained.items():
            before[player] += value
    players = [{
        "id": number[p], "name": str(p), "score": float(points[p]),
        # the seeding decides within a score group: the first entrant rates highest
        "rating": len(entrants) - number[p], "starting_number": number[p],
        "color_hist": colours[p], "float_history": floats[p], "bye_count": byes[p],
    } for p in ranked]
    found: list[dict[str, object]] = generate_pairings(
        system="dutch", players=players, previous_pairings=pairs,
        round_number=round_number, total_rounds=max(rounds_total, round_number))
    tables: list[Seating] = []
    for entry in sorted(found, key=lambda e: (bool(e.get("bye")), _whole(e["table"]))):
        white = by_number[_whole(entry["white_id"])]
        black = entry.get("black_id")
        tables.append(Seating(len(tables) + 1, (
            white, None if black is None else by_number[_whole(black)])))
    return tuple(tables)


def _whole(value: object) -> int:
    if not isinstance(value, int):
        raise TypeError(f"the pairing engine answered {value!r} where a number belongs")
    return value


# -- elimination ---------------------------------------------------------------------------


def elimination_plan(entrants: int, size: int, advance: int) -> tuple[int, ...]:
    """Players at each round until the final table (the last number, at most ``size``): 10
    at four seats with two through is (10, 6, 4). ValueError when a round would not shrink."""
    if not 1 <= advance < size:
        raise ValueError(f"{advance} of each table of {size} cannot go through")
    plan = [entrants]
    while plan[-1] > size:
        counts = table_counts(plan[-1], size)
        through = sum(min(advance, c) for c in counts)
        if through >= plan[-1]:
            raise ValueError(f"{plan[-1]} players at {size} seats with {advance} through "
                             "would not shrink")
        plan.append(through)
    return tuple(plan)


def elimination_round(seeded: Sequence[int], *, size: int, seed: int, round_number: int,
                      together: bool = False) -> tuple[Seating, ...]:
    """The tables of an elimination round for players in seeding order (best first): a snake
    by seed, or with ``together`` the top seeds at table 1, the next at table 2 …"""
    counts = table_counts(len(seeded), size)
    tables: list[list[int]] = [[] for _ in counts]
    if together:
        starts = [0, *itertools.accumulate(counts)]
        tables = [list(seeded[a:b]) for a, b in itertools.pairwise(starts)]
    else:
        forward = list(range(len(counts)))
        lanes = itertools.cycle(forward + forward[::-1])
        for player in seeded:
            lane = next(t for t in lanes if len(tables[t]) < counts[t])
            tables[lane].append(player)
    return tuple(_seated(number, members, size, seed, round_number)
                 for number, members in enumerate(tables, start=1))


def advancing(results: Sequence[TableResult], advance: int,
              seeded: Sequence[int]) -> tuple[int, ...]:
    """Who goes through: the best ``advance`` players present at each table (places, then the
    better seed), in the next round's seeding order (rank among the table's players, then the
    earlier seeding)."""
    seed_of = {p: i for i, p in enumerate(seeded)}
    through: list[tuple[int, int, int]] = []
    for table in results:
        if table.places is None:
            continue
        places = table.places
        present = sorted(table.present(),
                         key=lambda p: (places[table.seating.seat_of(p)], seed_of[p]))
        # the rank among the players: a computer placed above them does not push them down
        for rank, player in enumerate(present[:advance], start=1):
            through.append((rank, seed_of[player], player))
    return tuple(p for _, _, p in sorted(through))


@dataclass(frozen=True)
class Bracket:
    """An elimination event as data: the plan of players per round, each round's tables so
    far, who went through each finished round, and the champion once the final is played."""

    size: int
    advance: int
    plan: tuple[int, ...]
    rounds: tuple[tuple[Seating, ...], ...]
    through: tuple[tuple[int, ...], ...]
    champion: int | None


def bracket(seeded: Sequence[int], results: Sequence[Sequence[TableResult]], *, size: int,
            advance: int, seed: int, together: bool = False) -> Bracket:
    """The bracket after ``results`` (one entry per finished round): the tables played, who
    went through, and the next round's tables (the last of ``rounds``) until the final is
    played. The final's winner is its best player by place, then seed."""
    plan = elimination_plan(len(seeded), size, advance)
    rounds: list[tuple[Seating, ...]] = []
    through: list[tuple[int, ...]] = []
    field = tuple(seeded)
    champion: int | None = None
    for number, played in enumerate(results, start=1):
        if number > len(plan):
            raise ValueError(f"{len(results)} rounds played; the plan has {len(plan)}")
        rounds.append(tuple(t.seating for t in played))
        if number == len(plan):
            best = advancing(played, 1, field)
            champion = best[0] if best else None
            through.append(best)
            break
        field = advancing(played, advance, field)
        through.append(field)
    else:
        rounds.append(elimination_round(field, size=size, seed=seed,
                                        round_number=len(rounds) + 1, together=together))
    return Bracket(size, advance, plan, tuple(rounds), tuple(through), champion)
