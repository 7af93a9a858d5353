"""The Spar family: one test per Decision of the rule book's "Edge cases (Decisions)", each on
a stacked deck."""

from __future__ import annotations

import random

import pytest

from games import IllegalAction
from games.ai import LEVELS, get_player, observe
from games.ai.analysis import analyse
from games.ai.review import Game, decisions, review
from games.spar import VARIANTS, pack_of
from tests.games.test_spar import RULES, deck_for, new, peek_table, play


def test_decision_agram_is_a_game_of_deals_and_targets_are_project_defaults() -> None:
    # "Agram is played as a game of `deals` deals (default 5) for the table, where the
    # originals treat one deal as the game; the points members' `target` defaults are project
    # choices."
    state = new(3, 0, {}, variant="agram")
    assert state.view(None)["deals"] == 5 and state.view(None)["target"] is None
    rng = random.Random(4)
    while not state.over:
        assert state.deal_number <= 5
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.deal_number == 5 and sum(state.scores()) == 5  # one point per deal won
    assert state.outcome is not None and state.scores() == [
        float(x) for x in state.view(None)["deals_won"]]
    for variant, target in {"spar": 30, "benin": 24, "sipa": 10, "fapfap": 10}.items():
        assert new(4, 0, {}, variant=variant).view(0)["target"] == target


@pytest.mark.parametrize(("variant", "most"), [
    ("benin", 6), ("sipa", 6), ("agram", 5), ("fapfap", 5), ("agram-mali", 5)])
def test_decision_player_counts_are_capped_by_the_pack(variant: str, most: int) -> None:
    # "player counts are capped by the pack: Benin and Sipa at 6 players (5 cards each from
    # 31), Agram, Fapfap (6 each from 35) and Agram (Mali) (6 each from 31) at 5."
    state = new(most, 0, {}, variant=variant)
    size = sum(VARIANTS[variant].packets)
    assert state.view(None)["hand_counts"] == [size] * most
    deck = [str(c) for c in pack_of(VARIANTS[variant])]
    with pytest.raises(ValueError, match="variant"):
        RULES.new_game(most + 1, seed=1, options={"variant": variant}, deck=deck)


def test_decision_player_counts_sink_sink_is_not_capped_below_seven() -> None:
    # The cap is the pack's: Sink-Sink deals 5 cards each from 35, so 7 players still fit.
    state = new(7, 0, {}, variant="sink-sink")
    assert state.view(None)["hand_counts"] == [5] * 7


# -- peek ------------------------------------------------------------------------------------

def test_decision_peek_answers_come_in_play_order_from_the_asker() -> None:
    # "the others answer in play order from the asker"
    state = peek_table()
    state.apply(0, "peek")
    assert state.view(None)["peek_waiting"] == [1, 2]
    assert state.to_act == (1,)
    state.apply(1, "peek_agree")
    assert state.to_act == (2,)
    state.apply(2, "peek_agree")
    assert state.view(None)["peeked"] is not None


def test_decision_peek_a_refused_ask_cannot_be_made_again_by_that_player() -> None:
    # "a refused ask cannot be made again by the same player in that deal"
    state = peek_table()
    state.apply(2, "peek")
    state.apply(0, "peek_refuse")
    assert all(a.kind != "peek" for a in state.legal_actions(2))
    with pytest.raises(IllegalAction, match="refused"):
        state.apply(2, "peek")
    # another player may still ask, and with everybody's agreement the card is shown
    assert "peek" in [str(a) for a in state.legal_actions(0)]
    state.apply(0, "peek")
    state.apply(1, "peek_agree")
    state.apply(2, "peek_agree")
    assert state.view(None)["peeked"] == str(state.stock[-1])


def test_decision_peek_a_refusal_holds_for_that_deal_only() -> None:
    hands = {1: "AH KH QH JH 6S", 0: "6D 7D 8D 9D TD"}
    state = new(2, 0, hands, peek=True, target=99)
    play(state, "AH", "6D", "KH", "7D", "QH", "8D")
    state.apply(1, "peek")
    state.apply(0, "peek_refuse")
    play(state, "JH", "9D", "6S", "TD")  # seat 1 wins the deal and deals the next
    assert state.deal_number == 2 and state.view(None)["peek_refused"] == []
    while state.trick_number < state.hand_size - 1:
        seat = state.to_act[0]
        state.apply(seat, next(a for a in state.legal_actions(seat) if a.kind == "play"))
    assert "peek" in [str(a) for a in state.legal_actions(1)]


def test_decision_peek_once_shown_nobody_asks_again() -> None:
    # "once the card is shown nobody asks again"
    state = peek_table()
    state.apply(1, "peek")
    state.apply(2, "peek_agree")
    state.apply(0, "peek_agree")
    for seat in range(3):
        assert all(a.kind != "peek" for a in state.legal_actions(seat))
        with pytest.raises(IllegalAction):
            state.apply(seat, "peek")


@pytest.mark.parametrize("level", LEVELS)
def test_decision_peek_computer_players_agree(level: str) -> None:
    # "Computer players agree."
    state = peek_table()
    state.apply(2, "peek")
    for seat in (0, 1):
        player = get_player(level, "spar")
        assert str(player.choose(observe(state, seat), random.Random(seat))) == "peek_agree"
        state.apply(seat, "peek_agree")
    assert state.view(None)["peeked"] is not None


def test_decision_peek_nobody_plays_while_the_answers_are_awaited() -> None:
    # "While the answers are awaited nobody plays."
    state = peek_table()
    leader = state.to_act[0]
    state.apply(0, "peek")
    assert state.view(None)["phase"] == "peek"
    assert state.legal_actions(leader) == [] or all(
        a.kind.startswith("peek_") for a in state.legal_actions(leader))
    for seat in range(3):
        assert all(a.kind != "play" for a in state.legal_actions(seat))
    with pytest.raises(IllegalAction, match="answering"):
        state.apply(leader, "play:JH")
    state.apply(1, "peek_agree")
    state.apply(2, "peek_agree")
    assert state.to_act == (leader,)
    state.apply(leader, "play:JH")


def test_decision_peek_a_person_who_does_not_answer_in_time_refuses() -> None:
    # In Discord, a person who lets the turn timer run out refuses the request.
    state = peek_table()
    assert RULES.timeout_action(state, 1) is None  # a card to play: the computer moves
    state.apply(1, "peek")
    assert str(RULES.timeout_action(state, 2)) == "peek_refuse"


# -- hints and reviews of the peek moves ------------------------------------------------------

def test_analysis_weighs_both_answers_to_a_peek_request() -> None:
    # A hint on the answer: both answers are weighed, the question never crashes the search.
    state = peek_table()
    state.apply(2, "peek")
    analysis = analyse(observe(state, 0), random.Random(1), iterations=24)
    assert {str(m.action) for m in analysis.moves} == {"peek_agree", "peek_refuse"}
    assert str(analysis.best) in ("peek_agree", "peek_refuse")


def test_review_judges_a_game_with_peek_requests_and_answers() -> None:
    options = {"dealer": 0, "peek": True, "target": 3}
    deck = deck_for(3, 0, {1: "AH KH QH JH 6S", 2: "6D 7D 8D 9D TD", 0: "6C 7C 8C 9C TC"},
                    peek=True)
    moves = [(1, "play:AH"), (2, "play:6D"), (0, "play:6C"), (1, "play:KH"), (2, "play:7D"),
             (0, "play:7C"), (1, "play:QH"), (2, "play:8D"), (0, "play:8C"),
             (2, "peek"), (0, "peek_agree"), (1, "peek_refuse"), (0, "peek"),
             (1, "peek_agree"), (2, "peek_agree")]
    game = Game("spar", 3, 1, options, tuple(moves), tuple(deck))
    state = game.start()
    for seat, move in moves:
        state.apply(seat, move)
    assert state.view(None)["peeked"] is not None
    indices = decisions(game, 0)
    # the answer is a decision; asking out of turn is the seat's only listed move (not asking
    # is no move), so like any single move it is not judged
    assert 10 in indices and 12 not in indices
    found = review(game, 0, iterations=(8, 8))
    assert found.decisions == len(indices)
