"""Getaway (Bhabhi): one test per Decision of the rule book's "Edge cases (Decisions)", each on
a stacked deck."""

from __future__ import annotations

import pytest

from games import IllegalAction
from tests.games.test_bhabhi import (
    TWOS,
    TWOS_PLAY,
    follow_the_turned_cards,
    game,
    kinds,
    position,
    rounds,
    suit,
    two_player_game,
)


def test_decision_shootout_with_nothing_left_to_turn_the_turner_is_safe() -> None:
    # "if nothing is left to turn, the player turning cards is safe and the other is the
    # Bhabhi." Seat 1 holds no spade or heart, so every round is picked up by seat 0 and
    # nothing is ever discarded; seat 1 keeps AD and plays it on seat 0's 2D as its last card.
    spades_hearts = suit("AKQJT98765432", "S") + suit("AKQJT98765432", "H")
    clubs_diamonds = suit("23456789TJQKA", "C") + suit("23456789TJQK", "D") + ["AD"]
    state = two_player_game((spades_hearts, clubs_diamonds), shootout=True)
    rounds(state, [("AS" if i == 0 else "KH", card) for i, card in enumerate(clubs_diamonds[:-1])])
    assert state.discards == [] and len(state.hands[0]) == 51 and state.hands[1] != []
    events = rounds(state, [("2D", "AD")])
    assert kinds(events) == ["play", "discard", "out_of_play", "shootout", "safe", "last"]
    assert state.over and state.outcome is not None
    assert state.outcome.places == (2, 1)  # seat 1 turned cards and is safe


def test_decision_shootout_follower_runs_out_under_a_higher_card_is_a_draw() -> None:
    # "if the player following from hand plays their own last card and the turned card is
    # higher, nobody is left with cards: the game is drawn between the two." With seed 3 the
    # first four turned cards are of four different suits, each above seat 0's two.
    state = two_player_game(TWOS, seed=3, shootout=True)
    events = rounds(state, TWOS_PLAY)
    assert "shootout" in kinds(events) and len(state.hands[0]) == 4
    assert follow_the_turned_cards(state) == 4
    assert state.over and state.outcome is not None
    assert state.view(None)["loser"] is None and state.outcome.places == (1, 1)


def test_decision_taker_stays_draws_only_from_hands_of_two_or_more() -> None:
    # "a taker may draw from another player's hand only if that player holds two or more
    # cards, since a player goes safe only by playing their last card"
    state = position(4, {0: "AH", 1: "2H 5C", 2: "3H 6C 7C", 3: "4H 8C 9C 2D"}, leader=0,
                     taker_stays=True)
    for card in ("AH", "2H", "3H", "4H"):
        state.apply(state.to_act[0], f"play:{card}")
    assert [str(a) for a in state.legal_actions(0)] == ["draw=discards", "draw=2", "draw=3"]
    with pytest.raises(IllegalAction):
        state.apply(0, "draw=1")
    state.apply(0, "draw=3")
    assert len(state.hands[3]) == 2 and state.live[3]


def test_decision_taker_stays_drawing_the_last_card_of_the_only_other_player() -> None:
    # "Only when the discards are empty and every other player still in holds a single card
    # may the taker draw a last card: that player, left with none, goes safe at the end of
    # that round; if they were the only other one still in, the drawer is the Bhabhi."
    state = position(2, {0: "AH", 1: "2H 5C"}, leader=0, taker_stays=True)
    state.apply(0, "play:AH")
    state.apply(1, "play:2H")
    assert [str(a) for a in state.legal_actions(0)] == ["draw=discards"]
    state.out += state.discards
    state.discards = []
    assert [str(a) for a in state.legal_actions(0)] == ["draw=1"]
    events = state.apply(0, "draw=1")
    assert kinds(events) == ["draw", "play", "discard", "safe", "last"]
    assert events[3].seat == 1 and events[4].seat == 0
    assert state.over and state.view(None)["loser"] == 0


def test_decision_take_hand_is_open_to_everyone_but_only_the_leader_is_asked() -> None:
    # "a take is open to every player still in, but only the player due to lead is asked for a
    # move; the others may take at that moment through their own actions."
    state = game(4, wanted={2: "AS"}, take_hand="any")
    assert state.to_act == (2,)
    for seat in (0, 1, 3):
        takes = [str(a) for a in state.legal_actions(seat)]
        assert takes == [f"take={t}" for t in range(4) if t != seat]
    events = state.apply(0, "take=3")  # seat 0 takes without being asked
    assert kinds(events) == ["take", "safe"] and state.to_act == (2,)
    state.apply(2, "play:AS")  # the lead closes the window
    assert not [a for a in state.legal_actions(1) if a.kind == "take"]
