"""Standings checked by hand: place points with ties, the tie-breaks, no-shows and drops."""

from __future__ import annotations

import pytest

from bot.tournaments import (
    TIE_BREAKS,
    Seating,
    TableResult,
    by_stage,
    place_points,
    round_gains,
    standings,
)


def test_place_points_share_tied_places() -> None:
    assert place_points((1, 2, 3, 4)) == (3.0, 2.0, 1.0, 0.0)
    # two seats tied for first cover places 1 and 2: (3 + 2) / 2 each
    assert place_points((1, 1, 3, 4)) == (2.5, 2.5, 1.0, 0.0)
    assert place_points((2, 1, 3, 3)) == (2.0, 3.0, 0.5, 0.5)
    assert place_points((1, 2)) == (1.0, 0.0)
    assert place_points((1, 1)) == (0.5, 0.5)


def _hand_made() -> list[list[TableResult]]:
    # players 1..5; None is a computer filling a seat
    first = [TableResult(Seating(1, (1, 2, 3, None)), (1, 2, 3, 4)),
             TableResult(Seating(2, (4, 5, None, None)), (2, 1, 3, 3))]
    second = [TableResult(Seating(1, (1, 5, None, 4)), (2, 1, 4, 2)),
              TableResult(Seating(2, (2, 3, None, None)), (1, 1, 3, 4))]
    return [first, second]


def test_standings_by_hand() -> None:
    rows = standings([1, 2, 3, 4, 5], _hand_made())
    # points: 1: 3 + 1.5; 2: 2 + 2.5; 3: 1 + 2.5; 4: 2 + 1.5; 5: 3 + 3
    # opponents (mean final points of the players met at each table, summed):
    #   1: (4.5 + 3.5)/2 + (6 + 3.5)/2 = 8.75     2: (4.5 + 3.5)/2 + 3.5 = 7.5
    #   3: (4.5 + 4.5)/2 + 4.5 = 9.0              4: 6 + (4.5 + 6)/2 = 11.25
    #   5: 3.5 + (4.5 + 3.5)/2 = 7.5
    # beaten (mean of points × 1 above / ½ tied / 0 below, summed):
    #   1: (4.5 + 3.5)/2 + (0 + 3.5/2)/2 = 4.875  2: (0 + 3.5)/2 + 3.5/2 = 3.5
    #   3: 0 + 4.5/2 = 2.25                       4: 0 + (4.5/2 + 0)/2 = 1.125
    #   5: 3.5 + (4.5 + 3.5)/2 = 7.5
    expected = [(5, 6.0, 7.5, 7.5, 2, "first"), (1, 4.5, 8.75, 4.875, 1, "points"),
                (2, 4.5, 7.5, 3.5, 1, "opponents"), (4, 3.5, 11.25, 1.125, 0, "points"),
                (3, 3.5, 9.0, 2.25, 1, "opponents")]
    assert [(r.player, r.points, r.opponents, r.beaten, r.wins, r.reason) for r in rows] \
        == expected
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5]
    assert all(r.played == 2 and r.no_shows == 0 and not r.dropped for r in rows)


def test_seed_separates_a_perfect_tie() -> None:
    # a two-seat circle: everyone won once and lost once against a one-point player
    rounds = [[TableResult(Seating(1, (1, 2)), (1, 2)), TableResult(Seating(2, (3, 4)), (1, 2))],
              [TableResult(Seating(1, (4, 1)), (1, 2)), TableResult(Seating(2, (2, 3)), (1, 2))]]
    rows = standings([1, 2, 3, 4], rounds)
    assert [r.player for r in rows] == [1, 2, 3, 4]
    assert [r.reason for r in rows] == ["first", "seed", "seed", "seed"]
    assert {(r.points, r.opponents, r.beaten, r.wins) for r in rows} == {(1.0, 2.0, 1.0, 1)}


def test_no_show_scores_nothing_and_meets_nobody() -> None:
    table = TableResult(Seating(1, (1, 2, 3, 4)), (1, 2, 3, 4), absent=frozenset({1}))
    # the absent player's seat was played by a computer: its place goes to nobody
    assert round_gains([table]) == {1: 0.0, 2: 2.0, 3: 1.0, 4: 0.0}
    rows = {r.player: r for r in standings([1, 2, 3, 4], [[table]], dropped={1})}
    assert rows[1].no_shows == 1 and rows[1].played == 0 and rows[1].dropped
    assert rows[1].points == 0.0 and rows[1].rank == 4
    # player 2 met 3 and 4 only: (1 + 0) / 2
    assert rows[2].opponents == 0.5
    assert not rows[2].dropped


def test_table_never_played_scores_nothing() -> None:
    table = TableResult(Seating(1, (1, 2)), None, absent=frozenset({1, 2}))
    rows = standings([1, 2], [[table]])
    assert [(r.points, r.played, r.no_shows) for r in rows] == [(0.0, 0, 1), (0.0, 0, 1)]


def test_bad_results_are_refused() -> None:
    with pytest.raises(ValueError, match="places"):
        TableResult(Seating(1, (1, 2, 3)), (1, 2))
    with pytest.raises(ValueError, match="absent"):
        TableResult(Seating(1, (1, 2)), (1, 2), absent=frozenset({9}))
    with pytest.raises(ValueError, match="did not enter"):
        standings([1], [[TableResult(Seating(1, (1, 2)), (1, 2))]])


def test_an_elimination_ranks_by_the_bracket_first() -> None:
    # round 1: two tables; 1, 2, 4 and 5 go through... only 1 and 5 reach "the final"
    rows = standings([1, 2, 3, 4, 5], _hand_made())
    by_points = [r.player for r in rows]
    stage = {1: 5, 5: 4, 2: 2, 3: 2, 4: 2}  # 1 won the final, 5 lost it, the rest out before
    ranked = by_stage(rows, stage)
    assert [r.player for r in ranked][:2] == [1, 5]
    assert [r.rank for r in ranked] == [1, 2, 3, 4, 5]
    assert [r.reason for r in ranked][:3] == ["first", "stage", "stage"]
    # those who got as far keep the points order among themselves, and its reasons
    rest = [p for p in by_points if p in (2, 3, 4)]
    assert [r.player for r in ranked][2:] == rest
    again = {r.player: r for r in rows}
    for row in ranked[3:]:
        assert row.reason in ("points", *TIE_BREAKS)
        assert again[row.player].points <= again[ranked[2].player].points
    # nothing else of a row changes
    assert {(r.player, r.points, r.wins) for r in ranked} == {
        (r.player, r.points, r.wins) for r in rows}
    # a player left out of the stages ranks last
    alone = by_stage(rows, {2: 1})
    assert alone[0].player == 2 and alone[1].reason == "stage"
    assert [r.player for r in alone[1:]] == [p for p in by_points if p != 2]
