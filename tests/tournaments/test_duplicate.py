"""Duplicate rounds: the same seed gives every table the same deals (checked by playing whole
games between computers of different levels), and matchpoints compare seat with seat."""

from __future__ import annotations

import random

import games
from bot.tournaments import (
    SAME_DEALS,
    DuplicateTable,
    Seating,
    deal_seed,
    matchpoints,
    seat_keys,
    shared_deals,
    standings,
)
from games import ai

Deal = dict[str, list[str]]


def _deals(game_id: str, seed: int, levels: list[str]) -> dict[int, Deal]:
    """Every deal's cards where they lie when it is dealt, for a whole game between computer
    players of ``levels`` (a fixed generator each, so the game is the same every run)."""
    rules = games.get(game_id)
    state = rules.new_game(len(levels), seed=seed)
    players = [ai.get_player(level, game_id) for level in levels]
    rng = random.Random("/".join(levels))
    deals: dict[int, Deal] = {}
    while True:
        if state.deal_number not in deals:
            deals[state.deal_number] = {zone: sorted(str(c) for c in cards)
                                        for zone, cards in state.zones().items()}
        if state.over:
            return deals
        seat = state.to_act[0] if len(state.to_act) == 1 else min(state.to_act)
        state.apply(seat, players[seat].choose(ai.observe(state, seat), rng))


TABLES = (["random"] * 4, ["easy"] * 4, ["normal"] * 4, ["random", "easy", "normal", "easy"])


def test_finesse_tables_of_one_seed_get_every_deal_alike() -> None:
    seed = deal_seed(2024, 1, 4)
    runs = [_deals("finesse", seed, levels) for levels in TABLES]
    # the games differ (the levels play differently) ...
    assert len({len(r) for r in runs}) > 1 or any(r != runs[0] for r in runs)
    common = min(len(r) for r in runs)
    assert common >= 3
    # ... but every deal they all reached holds the same cards seat by seat
    for deal in range(1, common + 1):
        for run in runs[1:]:
            assert run[deal] == runs[0][deal], f"deal {deal}"
    assert "finesse" in SAME_DEALS and shared_deals("finesse") is None


def test_twenty_two_shares_only_its_first_deal() -> None:
    seed = deal_seed(2024, 1, 4)
    runs = [_deals("twenty-two", seed, levels) for levels in TABLES]
    for run in runs[1:]:
        assert run[1] == runs[0][1]
    # the second deal depends on the first one's play: the penalty cards leave the pack and
    # the loser deals, so the tables' second deals part
    assert any(run[2] != runs[0][2] for run in runs[1:])
    assert "twenty-two" not in SAME_DEALS and shared_deals("twenty-two") == 1


def test_deal_seed_is_one_per_round_and_seat_count() -> None:
    assert deal_seed(7, 1, 4) == deal_seed(7, 1, 4)
    assert len({deal_seed(7, 1, 4), deal_seed(7, 2, 4), deal_seed(7, 1, 5),
                deal_seed(8, 1, 4)}) == 4
    assert 0 <= deal_seed(7, 1, 4) < 2 ** 63


def test_matchpoints_compare_the_same_seat() -> None:
    seed = deal_seed(1, 1, 3)
    a = DuplicateTable(Seating(1, (1, 2, 3)), seed, seat_keys((1, 2, 3), (10, 5, 0)))
    b = DuplicateTable(Seating(2, (4, 5, None)), seed, seat_keys((2, 1, 3), (6, 9, 0)))
    c = DuplicateTable(Seating(3, (6, 7, 8)), seed, seat_keys((1, 2, 3), (10, 4, 0)),
                       absent=frozenset({8}))
    points = matchpoints([a, b, c])
    # seat 0: 1 and 6 both first with 10 (tie ½ each, and above 4's second: 1);
    # seat 1: 5 was first (1 + 1), 2 beat 7 on score (5 against 4) and lost to 5;
    # seat 2: all third with 0 (½ + ½), 8 did not show, the computer earns nothing
    assert points == {1: 1.5, 2: 1.0, 3: 1.0, 4: 0.0, 5: 2.0, 6: 1.5, 7: 0.0, 8: 0.0}
    rows = standings([1, 2, 3, 4, 5, 6, 7, 8],
                     [[]], gains=[points])
    assert [r.player for r in rows][:3] == [5, 1, 6]


def test_lower_score_is_better_where_the_game_says_so() -> None:
    # 22 counts penalties: direction -1, so the smaller score wins between equal places
    assert seat_keys((2, 2), (10, 3), -1) == ((-2.0, -10.0), (-2.0, -3.0))
    seed = deal_seed(1, 1, 2)
    a = DuplicateTable(Seating(1, (1, 2)), seed, seat_keys((1, 2), (3, 10), -1))
    b = DuplicateTable(Seating(2, (3, 4)), seed, seat_keys((1, 2), (5, 8), -1))
    other = DuplicateTable(Seating(3, (5, 6)), seed + 1, seat_keys((1, 2), (0, 1), -1))
    assert matchpoints([a, b, other]) == {1: 1.0, 2: 0.0, 3: 0.0, 4: 1.0, 5: 0.0, 6: 0.0}
