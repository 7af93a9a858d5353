"""Sugekari 21: one test per Decision of the rule book's "Edge cases (Decisions)", each on a
stacked deck."""

from __future__ import annotations

from games.sugekari import SugekariState, is_minus, value
from tests.games.test_sugekari import conserved, deck_for, new


def keep_a_minus_card(state: SugekariState) -> None:
    """Play the current game out: each player plays their highest legal card but never their
    last J, Q or K, and passes otherwise. Nobody can go out, so the game ends stuck."""
    game = state.deal_number
    while state.deal_number == game and not state.over:
        seat = state.to_act[0]
        minus = sum(1 for c in state.hands[seat] if is_minus(c))
        plays = [a for a in state.legal_actions(seat)
                 if a.kind == "play" and (minus > 1 or not is_minus(a.cards[0]))]
        best = max(plays, key=lambda a: value(a.cards[0]), default=None)
        state.apply(seat, best if best is not None else "pass")


def test_decision_two_players_without_a_mode_play_two_decks() -> None:
    # "with 2 players and no mode given, the mode is two-decks."
    deck = deck_for([["KS"], ["KH"]])
    state = new(2, deck=deck, first=0)
    assert state.mode == "two-decks"
    assert [str(c) for c in state.hands[0]] == deck[0:26:2]
    assert [str(c) for c in state.stock] == deck[26:]  # 26 cards wait for the second game


def test_decision_two_decks_stuck_first_game_the_other_player_starts_the_second() -> None:
    # "in two-decks, if nobody went out in the first game, the player who did not start the
    # first game starts the second."
    state = new(2, deck=deck_for([["KS"], ["KH"]]), mode="two-decks", first=0)
    keep_a_minus_card(state)
    assert state.results[0][2] == -1  # nobody went out
    assert state.deal_number == 2 and state.to_act == (1,)
    conserved(state)


def test_decision_best_of_three_the_next_starter_is_left_of_the_last() -> None:
    # "in best_of_three, the starter of each later game is the player to the left of the
    # previous game's starter."
    state = new(deck=deck_for([["KS"], ["KH"], ["KD"], ["KC"]], first=3), best_of_three=True,
                first=3)
    starters = [state.to_act[0]]
    for _ in range(2):
        keep_a_minus_card(state)
        starters.append(state.to_act[0])
    assert starters == [3, 0, 1]


# A first game that ends stuck with 23 cards captured by each side.
EVEN = ["7C 8S AC 2S KH 4S JH AS JD 5C 7S 5D AH", "KD JC AD 3D 5S 9S TC KC TS 2H TH 7D QC",
        "QH 3S 4H 5H JS 2D 8H 6S 7H 4D 9C 6C 9H", "8D 2C 8C KS 9D TD 4C 6D 6H 3H 3C QS QD"]


def test_decision_jokers_equal_captures_and_nobody_out_give_no_extra_card() -> None:
    # "in jokers, if the previous game ended with equal captures and nobody went out, nobody
    # gets an extra card."
    deck = deck_for([hand.split() for hand in EVEN])
    state = new(deck=deck, best_of_three=True, jokers=True, first=0)
    keep_a_minus_card(state)
    assert state.results == [(23, 23, -1)]
    assert state.deal_number == 2 and len(state.pack()) == 54
    assert [len(h) for h in state.hands] == [13] * 4 and len(state.undealt) == 2
    assert state.phase == "play" and state.to_act == (1,)
    conserved(state)
