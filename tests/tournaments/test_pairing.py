"""Seating rounds: a 13-person Swiss of 22 at four seats, two-seat Dutch pairings, and a
10-person Spar elimination with two of each table going through."""

from __future__ import annotations

import itertools

import pytest

import games
from bot.tournaments import (
    Seating,
    TableResult,
    advancing,
    bracket,
    elimination_plan,
    elimination_round,
    place_points,
    standings,
    swiss_round,
    table_counts,
)
from bot.tournaments.pairing import meetings


def _places(seating: Seating) -> tuple[int, ...]:
    """A table's places by strength: a smaller id plays better; computers are weakest."""
    order = sorted(range(len(seating.seats)),
                   key=lambda s: (seating.seats[s] is None, seating.seats[s] or 0))
    places = [0] * len(order)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    return tuple(places)


def test_thirteen_at_four_seats_sit_four_three_three_three() -> None:
    assert table_counts(13, 4) == (4, 3, 3, 3)
    assert table_counts(8, 4) == (4, 4)
    assert table_counts(5, 4) == (3, 2)
    with pytest.raises(ValueError):
        table_counts(0, 4)
    with pytest.raises(ValueError):
        table_counts(5, 4, least=3)


def test_swiss_of_22_thirteen_players_three_rounds() -> None:
    rules = games.get("twenty-two")
    assert rules.min_players <= 4 <= rules.max_players
    entrants = list(range(1, 14))
    past: list[list[TableResult]] = []
    for round_number in (1, 2, 3):
        tables = swiss_round(entrants, entrants, past, size=4, seed=51, rounds_total=3)
        # everyone seated once, every table of four seats, one computer at the last three
        seated = [p for t in tables for p in t.players]
        assert sorted(seated) == entrants
        assert [len(t.seats) for t in tables] == [4, 4, 4, 4]
        assert sorted(t.computers for t in tables) == [0, 1, 1, 1]
        assert [t.number for t in tables] == [1, 2, 3, 4]
        # deterministic
        assert swiss_round(entrants, entrants, past, size=4, seed=51, rounds_total=3) == tables
        if round_number > 1:
            # the leader of the standings sits at table 1
            leader = standings(entrants, past)[0].player
            assert leader in tables[0].players
        past.append([TableResult(t, _places(t)) for t in tables])
    # nobody met anyone twice in three rounds (it is possible, so the cost finds it)
    assert max(meetings(past).values()) == 1
    # one computer at each of the last three tables every round: nine computer seats, none
    # of them counted in the standings
    rows = standings(entrants, past)
    assert sum(t.seating.computers for r in past for t in r) == 9
    assert sorted(r.player for r in rows) == entrants
    assert sum(r.points for r in rows) == sum(
        p for r in past for t in r for s, p in enumerate(place_points(t.places or ()))
        if t.seating.seats[s] is not None)


def test_swiss_round_two_groups_by_score() -> None:
    entrants = list(range(1, 9))
    first = swiss_round(entrants, entrants, [], size=4, seed=3, rounds_total=3)
    # round 1: in seeding order, the top four together
    assert set(first[0].players) == {1, 2, 3, 4}
    past = [[TableResult(t, _places(t)) for t in first]]
    second = swiss_round(entrants, entrants, past, size=4, seed=3, rounds_total=3)
    # each new table must take two players of each earlier table (no way round one repeat
    # per table); the winners (1 and 5) and the seconds (2 and 6) sit together at table 1
    assert set(second[0].players) == {1, 2, 5, 6}
    met = meetings([*past, [TableResult(t, _places(t)) for t in second]])
    assert {pair for pair, count in met.items() if count > 1} == {
        frozenset({1, 2}), frozenset({5, 6}), frozenset({3, 4}), frozenset({7, 8})}


def test_swiss_leaves_out_the_dropped() -> None:
    entrants = list(range(1, 10))
    active = [p for p in entrants if p != 4]
    tables = swiss_round(entrants, active, [], size=4, seed=1, rounds_total=2)
    assert sorted(p for t in tables for p in t.players) == active
    assert [t.computers for t in tables] == [0, 0]
    with pytest.raises(ValueError, match="did not enter"):
        swiss_round(entrants, [*active, 99], [], size=4, seed=1, rounds_total=2)


def test_two_seats_by_the_dutch_system() -> None:
    entrants = list(range(101, 108))  # seven: one bye against a computer each round
    past: list[list[TableResult]] = []
    byes: list[int] = []
    for _ in range(3):
        tables = swiss_round(entrants, entrants, past, size=2, seed=9, rounds_total=3)
        assert sorted(p for t in tables for p in t.players) == entrants
        assert all(len(t.seats) == 2 for t in tables)
        bye = [t for t in tables if t.computers]
        assert len(bye) == 1 and bye[0] is tables[-1]
        byes.append(bye[0].players[0])
        past.append([TableResult(t, _places(t)) for t in tables])
    # no rematch, and no second bye, in three rounds of seven
    assert max(meetings(past).values()) == 1
    assert len(set(byes)) == 3


def test_elimination_of_spar_ten_players_two_through() -> None:
    rules = games.get("spar")
    assert (rules.min_players, rules.max_players) == (2, 7)
    seeded = list(range(1, 11))
    assert elimination_plan(10, 4, 2) == (10, 6, 4)
    first = elimination_round(seeded, size=4, seed=5, round_number=1)
    # a snake by seed: 1 2 3 | 3 2 1 | 1 2 3 with the third and second tables full at three
    assert [set(t.players) for t in first] == [{1, 6, 7, 10}, {2, 5, 8}, {3, 4, 9}]
    assert [t.computers for t in first] == [0, 1, 1]
    # results: by strength, except that at table 3 the computer wins and seed 9 beats seed 4
    results1 = []
    for t in first:
        places = list(_places(t))
        if t.number == 3:
            ranking = [None, 3, 9, 4]
            places = [ranking.index(p) + 1 for p in t.seats]
        results1.append(TableResult(t, tuple(places)))
    through1 = advancing(results1, 2, seeded)
    # the best two players of each table, table winners first (3 first among the players of
    # table 3), then by seed; the computer never goes through
    assert through1 == (1, 2, 3, 5, 6, 9)
    state = bracket(seeded, [results1], size=4, advance=2, seed=5)
    assert state.plan == (10, 6, 4)
    assert state.through == (through1,)
    assert len(state.rounds) == 2 and state.champion is None
    second = state.rounds[1]
    assert [set(t.players) for t in second] == [{1, 6, 5}, {2, 3, 9}]
    results2 = [TableResult(t, _places(t)) for t in second]
    state = bracket(seeded, [results1, results2], size=4, advance=2, seed=5)
    final = state.rounds[2]
    assert len(final) == 1 and set(final[0].players) == {1, 5, 2, 3}
    assert final[0].computers == 0
    results3 = [TableResult(final[0], _places(final[0]))]
    done = bracket(seeded, [results1, results2, results3], size=4, advance=2, seed=5)
    assert done.champion == 1 and len(done.rounds) == 3
    assert done.through[-1] == (1,)


def test_elimination_refuses_what_cannot_shrink() -> None:
    with pytest.raises(ValueError):
        elimination_plan(10, 4, 4)
    with pytest.raises(ValueError):
        elimination_plan(5, 2, 2)


def test_together_seats_the_top_seeds_at_table_one() -> None:
    tables = elimination_round(list(range(1, 9)), size=4, seed=0, round_number=1, together=True)
    assert [set(t.players) for t in tables] == [{1, 2, 3, 4}, {5, 6, 7, 8}]
    assert all(len(list(itertools.chain(t.seats))) == 4 for t in tables)
