"""22: one test per Decision of the rule book's "Edge cases (Decisions)", each on a stacked deck."""

from __future__ import annotations

import pytest

from tests.games.test_twenty_two import TIE_HANDS, keep_all, new, play_lowest, rebuy_game


def test_decision_rebuy_three_players_first_elimination_ends_the_game() -> None:
    # "rebuy never offers a rebuy once only 3 players remain; at a 3-player table the option
    # only makes the first elimination end the game."
    state = rebuy_game(3)  # seats 0 and 1 tie with kings; seat 0 starts at 15
    keep_all(state)
    play_lowest(state)
    assert state.phase == "over" and state.over and state.outcome is not None
    # No rebuy was asked for; seats 1 (K = 10) and 2 (0) remain: the lowest total wins the pot.
    assert state.outcome.winners == (2,)
    assert state.outcome.places == (3, 2, 1)
    assert state.view(None)["chips"] == [-1.0, -1.0, 2.0]


@pytest.mark.parametrize("rebuy", [False, True])
def test_decision_cucumber_scoring_with_or_without_rebuy(rebuy: bool) -> None:
    # "scoring = "cucumber" is accepted with or without rebuy."
    hands = {**TIE_HANDS, 2: ["QD", "2D", "3D", "4D", "5D", "6D", "7D"]}
    state = new(3, hands, scoring="cucumber", rebuy=rebuy)
    assert state.view(None)["limit"] == 30
    keep_all(state)
    play_lowest(state)
    view = state.view(None)
    assert view["scores"] == [13.0, 13.0, 0.0]  # the kings lose 13 each on the Cucumber scale
    assert view["hand_size"] == 13 and ("pot" in view) == rebuy
