"""1234: one test per Decision of the rule book's "Edge cases (Decisions)", each on a stacked
deck."""

from __future__ import annotations

import pytest

from tests.games.test_one_two_three_four import RULES, deck_for, new, shorten_stock


def test_decision_stock_out_longer_hand_wins_when_it_matches_the_highest_cards() -> None:
    # "when one hand matches the other's highest cards and has more cards, the longer hand
    # wins."
    hands = {2: "2S 2H 3S 3H KS", 1: "KD 9S 5C 3D 2D", 0: "QC 8H 7D 6C 4H"}
    state = new(3, 0, hands, "TC", stock="9D", games=1)
    shorten_stock(state, 1)
    state.apply(2, "pass:2S,2H,3S,3H")  # two pairs; draws 9D, the last card: K 9 against
    assert state.over and state.outcome is not None
    assert state.view(None)["last_game"]["hands"][2] == ["KS", "9D"]
    assert state.outcome.winners == (1,)  # K 9 5 3 2 holds K 9 and more


# Four players, dealer 0: seat 3 plays first and takes the last stock card; seats 1 and 2
# hold equal hands (K 9 5 3 2); seat 3 is left with 15 in hand, seat 0 with 31.
SHARED = {3: "AS 2H 3D 4C 2S", 2: "KC 9C 5H 3S 2C", 1: "KD 9S 5C 3H 2D", 0: "QS 8H 6D 4D AD"}


@pytest.mark.parametrize(("scoring", "points"), [
    ("chips", [70.0, 122.0, 122.0, 86.0]),  # 15 // 2 = 7 and 31 // 2 = 15 from the payers
    ("winner", [0.0, 22.0, 22.0, 0.0]),  # each total split on its own: 7 + 15
])
def test_decision_shared_win_splits_each_payment_rounded_down_and_first_in_turn_deals(
        scoring: str, points: list[float]) -> None:
    # "where several players share a game's win, each non-winner's payment (chips) or total
    # (winner) is split equally among them, rounded down (an odd chip stays with the payer),
    # and the first of them in turn order deals the next game."
    state = new(4, 0, SHARED, "QH", stock="4S", scoring=scoring)
    shorten_stock(state, 1)
    state.apply(3, "pass:AS")
    last = state.view(None)["last_game"]
    assert last["winners"] == [1, 2] and last["totals"] == [31, 32, 32, 15]
    assert state.scores() == points
    assert state.view(None)["dealer"] == 2  # turn order from seat 3: 3, 2, 1, 0


def test_decision_chips_and_target_only_under_their_own_scoring() -> None:
    # "chips may differ from 100 only under scoring = "chips", and target only under
    # scoring = "winner"; otherwise the option is refused, since it would have no effect."
    deck = deck_for(3, 0, {}, "TC")
    for refused, options in [("chips", {"chips": 50, "scoring": "penalty"}),
                             ("chips", {"chips": 50, "scoring": "winner"}),
                             ("target", {"target": 50}),
                             ("target", {"target": 50, "scoring": "penalty"})]:
        with pytest.raises(ValueError, match=refused):
            RULES.new_game(3, seed=1, options=options, deck=deck)
    for options in [{"chips": 50}, {"target": 50, "scoring": "winner"},
                    {"chips": 100, "target": 100, "scoring": "penalty"}]:
        state = RULES.new_game(3, seed=1, options=options, deck=deck)
        assert state.view(None)["number_to_beat"] == 10
