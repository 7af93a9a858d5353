"""Sugekari 21: every example and Decision of docs/rules/sugekari-21.md, each mode and spice."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest

import games
from games import Action, IllegalAction, cards
from games.ai import get_player, observe
from games.ai.sugekari import basic
from games.sugekari import SugekariState, capture_value, value

RULES = games.get("sugekari-21")
ALL = [str(c) for c in cards.standard_deck()]


def deck_for(hands: list[list[str]], first: int = 0, stock: tuple[str, ...] = ()) -> list[str]:
    """A deck that deals these hands (topped up to 13 from unused cards), ``first`` first."""
    n = len(hands)
    named = {c for h in hands for c in h} | set(stock)
    spare = [c for c in ALL if c not in named]
    full = []
    for hand in hands:
        hand = list(hand)
        while len(hand) < 13:
            hand.append(spare.pop(0))
        full.append(hand)
    deck = [full[(first + i) % n][k] for k in range(13) for i in range(n)]
    return deck + list(stock) + spare


def new(players: int = 4, deck: list[str] | None = None, **options: object) -> SugekariState:
    state = RULES.new_game(players, seed=11, options=options, deck=deck)
    assert isinstance(state, SugekariState)
    return state


def arrange(state: SugekariState, hands: list[list[str]], turn: int | None = None) -> None:
    """Give the seats exactly these hands at a round's start; other hand cards leave play."""
    wanted = [[cards.parse(c) for c in h] for h in hands]
    named = {c for h in wanted for c in h}
    loose = [c for h in state.hands for c in h] + state.out_of_play
    assert named <= set(loose), "arrange only moves cards from hands or out of play"
    state.out_of_play = [c for c in loose if c not in named]
    state.hands = wanted
    if turn is not None:
        state.turn = turn
        state._to_act = (turn,)


def give_captured(state: SugekariState, side: int, codes: list[str]) -> None:
    """Move some out-of-play cards to a side's captured pile."""
    for code in codes:
        card = cards.parse(code)
        state.out_of_play.remove(card)
        state.captured[side].append(card)
    state.cap_value[side] += capture_value([cards.parse(c) for c in codes])


def go_out_now(state: SugekariState, keep: int = 2) -> None:
    """Arrange a game so that its starter goes out with a lone number card."""
    starter = state.to_act[0]
    hands = [[str(c) for c in h[:keep]] for h in state.hands]
    number = next(c for c in state.hands[starter] if value(c) > 0)
    hands[starter] = [str(number)]
    arrange(state, hands, turn=starter)
    state.apply(starter, f"play:{number}")


def legal(state: SugekariState, seat: int) -> set[str]:
    return {str(a) for a in state.legal_actions(seat)}


def conserved(state: SugekariState) -> None:
    held: Counter[cards.Card] = Counter()
    for pile in state.zones().values():
        held.update(pile)
    assert held == Counter(state.pack())


def snapshot(state: SugekariState) -> bytes:
    return pickle.dumps(state.__dict__)


# -- cards and the basic round ------------------------------------------------------------
def test_values_a_is_1_numbers_as_printed_j_q_k_are_minus() -> None:
    assert [value(cards.parse(c)) for c in ["AS", "2H", "9D", "TC", "JS", "QH", "KD"]] == [
        1, 2, 9, 10, -1, -2, -3]


def test_teams_mode_is_default_with_partners_opposite() -> None:
    state = new()
    assert state.mode == "teams"
    assert RULES.teams(4, state.options) == [[0, 2], [1, 3]]
    assert RULES.teams(2, {"mode": "refill"}) is None
    assert [len(h) for h in state.hands] == [13, 13, 13, 13]
    assert state.view(0)["sides"] == [[0, 2], [1, 3]]


def test_example_after_7_and_6_only_cards_up_to_8_and_not_7_or_6() -> None:
    third = ["8S", "9S", "TS", "7S", "6H", "AS", "2S", "3S", "4S", "5S", "JS", "QS", "KS"]
    state = new(deck=deck_for([["7H"], ["6S"], third, []]), first=0)
    state.apply(0, "play:7H")
    state.apply(1, "play:6S")
    assert state.total == 13
    assert legal(state, 2) == {"play:8S", "play:AS", "play:2S", "play:3S", "play:4S",
                               "play:5S", "play:JS", "play:QS", "play:KS", "pass"}
    events = state.apply(2, "play:8S")
    assert [e.kind for e in events] == ["play", "take"]
    assert state.captured[0] == [cards.parse(c) for c in ["7H", "6S", "8S"]]
    assert state.to_act == (2,) and state.round_cards == []


def test_example_10_9_a_leaves_only_j_q_k() -> None:
    fourth = ["AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "JS", "QS", "KS", "2H", "3H"]
    state = new(deck=deck_for([["TS"], ["9S"], ["AS"], fourth]), first=0)
    for seat, code in [(0, "TS"), (1, "9S"), (2, "AS")]:
        state.apply(seat, f"play:{code}")
    assert state.total == 20
    assert legal(state, 3) == {"play:JS", "play:QS", "play:KS", "pass"}


def test_example_18_with_every_low_rank_used_nobody_can_play_and_the_8_takes() -> None:
    hands = [["TS", "KS"], ["AS", "2S"], ["JS", "QS"], ["3S", "8S"]]
    state = new(deck=deck_for(hands), first=0)
    for i, code in enumerate(["TS", "AS", "JS", "3S", "KS", "2S", "QS", "8S"]):
        state.apply(i % 4, f"play:{code}")
    assert state.total == 18
    for seat in (0, 1, 2):
        assert legal(state, seat) == {"pass"}
        events = state.apply(seat, "pass")
    assert events[-1].kind == "take" and events[-1].seat == 3
    assert len(state.captured[1]) == 8 and state.to_act == (3,)


def test_total_may_never_pass_21() -> None:
    state = new(deck=deck_for([["TS"], ["9S"], ["3H"], []]), first=0)
    state.apply(0, "play:TS")
    state.apply(1, "play:9S")
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="may not pass 21"):
        state.apply(2, "play:3H")
    assert snapshot(state) == before


def test_no_rank_twice_in_a_round() -> None:
    state = new(deck=deck_for([["7S"], ["7H"], [], []]), first=0)
    state.apply(0, "play:7S")
    assert "play:7H" not in legal(state, 1)
    with pytest.raises(IllegalAction, match="already played"):
        state.apply(1, "play:7H")


def test_no_going_out_on_a_minus_card() -> None:
    state = new(first=0)
    arrange(state, [["KS"], ["5H", "6H"], ["2C", "3C"], ["9D", "8D"]], turn=3)
    state.apply(3, "play:9D")
    assert legal(state, 0) == {"pass"}
    with pytest.raises(IllegalAction, match="J, Q or K"):
        state.apply(0, "play:KS")


def test_a_player_may_pass_at_will_and_play_on_a_later_lap() -> None:
    state = new(deck=deck_for([["2S"], ["3S", "4S"], [], ["9C"]]), first=0)
    state.apply(0, "play:2S")
    assert "play:3S" in legal(state, 1)
    state.apply(1, "pass")
    state.apply(2, "pass")
    state.apply(3, "play:9C")
    state.apply(0, "pass")
    assert "play:4S" in legal(state, 1)
    state.apply(1, "play:4S")
    assert state.last == 1


def test_the_starter_may_not_pass_and_others_wait_their_turn() -> None:
    state = new(first=1)
    with pytest.raises(IllegalAction, match="may not pass"):
        state.apply(1, "pass")
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(2, "pass")


def test_round_ends_after_every_other_player_passed_in_succession() -> None:
    state = new(deck=deck_for([["2S"], [], [], ["3S"]]), first=0)
    state.apply(0, "play:2S")
    state.apply(1, "pass")
    state.apply(2, "pass")
    state.apply(3, "play:3S")  # a card restarts the count of passes
    state.apply(0, "pass")
    state.apply(1, "pass")
    assert state.round_cards
    events = state.apply(2, "pass")
    assert events[-1].kind == "take" and events[-1].seat == 3


def test_captured_piles_are_public_and_counted() -> None:
    state = new(deck=deck_for([["7H"], ["6S"], ["8S"], []]), first=0)
    for seat, code in [(0, "7H"), (1, "6S"), (2, "8S")]:
        state.apply(seat, f"play:{code}")
    for viewer in (None, 0, 1, 2, 3):
        view = state.view(viewer)
        assert view["captured"][0] == ["7H", "6S", "8S"]
        assert view["captured_counts"] == [3, 0]
        assert view["scores"] == [3.0, 0.0, 3.0, 0.0]


def test_deck_is_dealt_one_at_a_time_clockwise_from_first() -> None:
    deck = list(reversed(ALL))
    state = new(deck=deck, first=1)
    assert [str(c) for c in state.hands[1]] == deck[0:52:4]
    assert [str(c) for c in state.hands[2]] == deck[1:52:4]
    assert [str(c) for c in state.hands[0]] == deck[3:52:4]


def test_option_first_sets_the_starter_and_random_start_comes_from_the_seed() -> None:
    assert new(first=2).to_act == (2,)
    starters = {RULES.new_game(4, seed=s).to_act for s in range(30)}
    assert len(starters) > 1
    assert RULES.new_game(4, seed=4).to_act == RULES.new_game(4, seed=4).to_act


# -- Decisions ----------------------------------------------------------------------------
def test_decision_starter_who_cannot_play_passes_the_start_clockwise() -> None:
    state = new(first=0)
    arrange(state, [["TS", "KS"], ["QH"], ["AH", "2H"], ["3D", "4D"]], turn=0)
    state.apply(0, "play:TS")
    assert legal(state, 1) == {"pass"}
    state.apply(1, "pass")
    state.apply(2, "pass")
    events = state.apply(3, "pass")
    # Seat 0 takes the round but holds a lone K; seat 1 a lone Q: seat 2 starts.
    assert [e.kind for e in events][-2:] == ["take", "start_passes"]
    assert events[-1].seat == 2 and state.to_act == (2,)


def test_decision_going_out_replaces_round_winning_even_at_21() -> None:
    state = new(first=0)
    arrange(state, [["TS", "4S"], ["6S", "2H"], ["5H"], ["9D", "8D"]], turn=0)
    state.apply(0, "play:TS")
    state.apply(1, "play:6S")
    events = state.apply(2, "play:5H")
    assert "take" not in [e.kind for e in events]
    out = next(e for e in events if e.kind == "out")
    # Half of the final round rounded up: 2 of 3; the rest and every hand is out of play.
    assert out.seat == 2 and len(out.cards) == 2
    assert state.over and state.side_scores() == [2, 0]
    assert len(state.out_of_play) == 52 - 3 - 4 + 1
    assert state.outcome is not None and state.outcome.winners == (0, 2)


def test_decision_nobody_can_ever_play_ends_the_game_with_nobody_out() -> None:
    state = new(first=0)
    arrange(state, [["5S", "KS"], ["QH"], ["JD"], ["KC"]], turn=0)
    events = state.apply(0, "play:5S")
    assert [e.kind for e in events][:2] == ["play", "stuck"]
    assert state.over and state.results == [(0, 0, -1)]
    assert cards.parse("5S") in state.out_of_play and state.captured == [[], []]
    assert state.outcome is not None and state.outcome.winners == (0, 1, 2, 3)  # a draw


def test_decision_stuck_table_still_counts_the_captured_cards() -> None:
    state = new(first=0)
    arrange(state, [["5S", "KS"], ["QH"], ["JD"], ["KC"]], turn=0)
    give_captured(state, 1, ["2C", "3C"])
    state.apply(0, "play:5S")
    assert state.outcome is not None and state.outcome.winners == (1, 3)


def test_winner_has_more_captured_cards_and_a_tie_goes_to_the_side_that_went_out() -> None:
    state = new(first=0)
    arrange(state, [["5S"], ["2H", "6H"], ["3C", "4C"], ["9D", "8D"]], turn=0)
    give_captured(state, 1, ["2C"])
    state.apply(0, "play:5S")
    assert state.side_scores() == [1, 1]
    assert state.outcome is not None and state.outcome.winners == (0, 2)


# -- two players ----------------------------------------------------------------------------
def test_two_decks_second_game_from_the_stock_started_by_who_did_not_go_out() -> None:
    state = new(2, mode="two-decks", first=0)
    assert len(state.stock) == 26
    stock = set(state.stock)
    go_out_now(state, keep=3)
    assert [e for e in state.results] == [(1, 0, 0)]
    assert state.deal_number == 2 and not state.over
    assert set(state.hands[0]) | set(state.hands[1]) == stock
    assert len(state.set_aside[1]) == 3  # the other player's hand is out of play
    assert state.to_act == (1,)
    assert state.side_scores() == [1, 0]
    conserved(state)


def test_two_decks_a_round_ends_after_one_pass() -> None:
    state = new(2, deck=deck_for([["5S", "7S"], ["6S", "8S"]]), mode="two-decks", first=0)
    state.apply(0, "play:5S")
    events = state.apply(1, "pass")
    assert events[-1].kind == "take" and events[-1].seat == 0 and state.to_act == (0,)


def test_two_decks_tie_goes_to_the_player_who_went_out_in_the_first_game() -> None:
    state = new(2, mode="two-decks", first=0)
    go_out_now(state)
    go_out_now(state)
    assert state.over and state.side_scores() == [1, 1]
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_refill_draws_back_to_13_takers_first_and_shows_the_cards() -> None:
    state = new(2, deck=deck_for([["5S"], ["6S"]], stock=("9H", "8H")), mode="refill",
                first=0)
    state.apply(0, "play:5S")
    state.apply(1, "play:6S")
    events = state.apply(0, "pass")
    draws = [e for e in events if e.kind == "draw"]
    assert [(e.seat, [str(c) for c in e.cards]) for e in draws] == [(1, ["9H"]), (0, ["8H"])]
    assert all(not e.private for e in draws)
    assert [len(h) for h in state.hands] == [13, 13]
    assert state.view(0)["shown"] == [["8H"], ["9H"]]
    sampled = state.determinize(0, random.Random(3))
    assert cards.parse("9H") in sampled.hands[1]
    assert state.to_act == (1,)


def test_refill_stock_running_out_means_no_more_drawing() -> None:
    state = new(2, deck=deck_for([["5S"], ["6S"]]), mode="refill", first=0)
    state.out_of_play.extend(state.stock[1:])
    state.stock = state.stock[:1]
    top = state.stock[0]
    state.apply(0, "play:5S")
    state.apply(1, "play:6S")
    events = state.apply(0, "pass")
    assert [(e.seat, e.cards) for e in events if e.kind == "draw"] == [(1, (top,))]
    assert [len(h) for h in state.hands] == [12, 13] and state.stock == []
    conserved(state)


def test_refill_game_ends_when_a_hand_is_empty() -> None:
    state = new(2, mode="refill", first=0)
    state.stock, spare = [], state.stock
    state.out_of_play.extend(spare)
    arrange(state, [["5S", "6S"], ["9H", "2D"]], turn=0)
    state.apply(0, "play:5S")
    state.apply(1, "pass")
    state.apply(0, "play:6S")
    assert state.over and state.results[-1][2] == 0


def test_decision_refill_tie_goes_to_the_player_who_went_out() -> None:
    state = new(2, mode="refill", first=1)
    state.out_of_play.extend(state.stock)
    state.stock = []
    arrange(state, [["5S", "6S"], ["9H"]], turn=1)
    give_captured(state, 0, ["2C"])
    state.apply(1, "play:9H")
    assert state.side_scores() == [1, 1]
    assert state.outcome is not None and state.outcome.winners == (1,)


# -- spices ---------------------------------------------------------------------------------
def test_exchange_choices_are_simultaneous_and_hidden_until_everyone_chose() -> None:
    state = new(exchange="rotate", first=0)
    assert state.phase == "exchange" and state.to_act == (0, 1, 2, 3)
    assert len(state.legal_actions(2)) == 286
    trio = state.hands[0][:3]
    events = state.apply(0, Action("exchange", None, tuple(trio)))
    assert events[0].private and events[0].for_seat(1).cards == ()
    assert list(state.to_act) == [1, 2, 3]
    assert state.view(0)["exchange_chosen"] == [str(c) for c in trio]
    assert state.view(1)["exchange_chosen"] == []
    hidden = str(state.view(1).to_dict())
    assert not any(f"'{c}'" in hidden for c in trio)
    assert state.legal_actions(0) == []
    for seat in (3, 1, 2):
        state.apply(seat, Action("exchange", None, tuple(state.hands[seat][:3])))
    assert state.phase == "play" and list(state.to_act) == [0]
    assert set(trio) <= set(state.hands[1])  # the first game passes to the left
    assert all(len(h) == 13 for h in state.hands)
    assert state.view(0)["passed"] == {"to": 1, "cards": [str(c) for c in trio]}
    assert set(trio) <= set(state.determinize(0, random.Random(1)).hands[1])


def test_exchange_rotate_goes_left_right_across_none_by_game_number() -> None:
    state = new(exchange="rotate")
    offsets = []
    for game in (1, 2, 3, 4, 5):
        state.deal_number = game
        offsets.append(state.exchange_offset())
    assert offsets == [1, 3, 2, 0, 1]


def test_exchange_partner_passes_to_the_partner() -> None:
    state = new(exchange="partner")
    trios = {s: tuple(state.hands[s][:3]) for s in range(4)}
    for seat in range(4):
        state.apply(seat, Action("exchange", None, trios[seat]))
    for seat in range(4):
        assert set(trios[(seat + 2) % 4]) <= set(state.hands[seat])


def test_exchange_refuses_bad_choices_without_change() -> None:
    state = new(exchange="partner")
    before = snapshot(state)
    for bad in ["exchange:" + ",".join(str(c) for c in state.hands[0][:2]),
                "exchange:" + ",".join(str(c) for c in state.hands[1][:3]),
                "play:" + str(state.hands[0][0])]:
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
    assert snapshot(state) == before


def test_exchange_partner_needs_teams_and_three_players_are_refused() -> None:
    with pytest.raises(ValueError, match=r"exchange.*partner.*'rotate' or 'none'"):
        RULES.new_game(2, options={"mode": "refill", "exchange": "partner"})
    with pytest.raises(ValueError, match="not 3"):
        RULES.new_game(3)
    with pytest.raises(ValueError, match=r"mode.*teams.*needs 4"):
        RULES.new_game(2, options={"mode": "teams"})
    with pytest.raises(ValueError, match=r"mode.*refill.*2 players"):
        RULES.new_game(4, options={"mode": "refill"})
    with pytest.raises(ValueError, match=r"best_of_three.*two-decks"):
        RULES.new_game(2, options={"mode": "two-decks", "best_of_three": True})


def test_exchange_rotate_with_two_players_passes_to_the_opponent() -> None:
    state = new(2, mode="refill", exchange="rotate")
    trios = [tuple(state.hands[s][:3]) for s in range(2)]
    state.apply(1, Action("exchange", None, trios[1]))
    state.apply(0, Action("exchange", None, trios[0]))
    assert set(trios[0]) <= set(state.hands[1]) and set(trios[1]) <= set(state.hands[0])


def test_best_of_three_plays_three_games_and_adds_the_scores() -> None:
    state = new(best_of_three=True, first=0)
    go_out_now(state)
    assert state.deal_number == 2 and state.to_act == (1,) and not state.over
    assert [len(h) for h in state.hands] == [13] * 4
    go_out_now(state)
    assert state.deal_number == 3 and state.to_act == (2,)
    assert state.view(0)["scores"] == [1.0, 1.0, 1.0, 1.0]
    go_out_now(state)
    assert state.over and state.side_scores() == [2, 1]
    assert state.outcome is not None and state.outcome.winners == (0, 2)


def test_best_of_three_tie_goes_to_the_side_that_went_out_more_often() -> None:
    state = new(best_of_three=True, first=0)
    go_out_now(state)  # side 0: 1
    arrange(state, [["4C", "7C"], ["AH", "5H"], ["2H", "6H"], ["3H"]], turn=1)
    state.apply(1, "play:AH")
    state.apply(2, "play:2H")
    state.apply(3, "play:3H")  # side 1 goes out and takes 2 of 3
    go_out_now(state)  # side 0: 1 more
    assert state.side_scores() == [2, 2]
    assert state.outcome is not None and state.outcome.winners == (0, 2)


def test_jokers_need_best_of_three() -> None:
    with pytest.raises(ValueError, match=r"jokers.*best_of_three"):
        RULES.new_game(4, options={"jokers": True})


def test_jokers_join_in_game_two_with_an_extra_card_for_the_trailing_side() -> None:
    state = new(best_of_three=True, jokers=True, first=0)
    assert len(state.pack()) == 52
    go_out_now(state)  # side 0 leads 1-0
    assert len(state.pack()) == 54 and state.deal_number == 2
    assert [len(h) for h in state.hands] == [13, 14, 13, 14]
    assert state.phase == "discard" and state.to_act == (1, 3)
    assert legal(state, 0) == set()
    card = state.hands[3][0]
    events = state.apply(3, Action("discard", None, (card,)))
    assert events[0].private and events[0].for_seat(0).cards == ()
    assert state.view(0)["discard_counts"] == [0, 0, 0, 1]
    assert state.view(3)["discarded"] == [str(card)]
    state.apply(1, Action("discard", None, (state.hands[1][0],)))
    assert state.phase == "play" and list(state.to_act) == [1]
    assert [len(h) for h in state.hands] == [13] * 4
    conserved(state)


def test_jokers_a_tie_gives_the_extra_card_to_the_side_that_did_not_go_out() -> None:
    state = new(best_of_three=True, jokers=True, first=1)
    arrange(state, [["2C", "3C"], ["5S"], ["4C", "6C"], ["7C", "8C"]], turn=1)
    give_captured(state, 0, ["9C"])
    state.apply(1, "play:5S")
    assert state.results == [(1, 1, 1)]
    assert state.to_act == (0, 2) and [len(h) for h in state.hands] == [14, 13, 14, 13]


def game_two_with_jokers() -> SugekariState:
    state = new(best_of_three=True, jokers=True, first=0)
    arrange(state, [["5S", "KS"], ["QH"], ["JD"], ["KC"]], turn=0)
    state.apply(0, "play:5S")  # a stuck first game: game 2 starts at seat 1, no extras
    state.out_of_play += state.undealt
    state.undealt = []
    return state


def test_joker_copies_a_number_card_of_the_round_but_keeps_the_21_limit() -> None:
    state = game_two_with_jokers()
    arrange(state, [["2C", "3C"], ["7H", "BJ", "8H"], ["RJ", "4C"], ["9D", "8D"]], turn=1)
    assert "play=7:BJ" not in legal(state, 1)
    state.apply(1, "play:7H")
    assert {"play=7:RJ"} <= legal(state, 2) and "play=8:RJ" not in legal(state, 2)
    state.apply(2, "play=7:RJ")  # the same-rank rule is waived for the joker
    assert state.total == 14
    state.apply(3, "pass")
    state.apply(0, "pass")
    assert legal(state, 1) == {"play=7:BJ", "play=half:BJ", "pass"}
    with pytest.raises(IllegalAction, match="No 9"):
        state.apply(1, "play=9:BJ")
    events = state.apply(1, "play=7:BJ")
    assert events[-1].kind == "take" and events[-1].seat == 1


def test_joker_halves_an_even_total() -> None:
    state = game_two_with_jokers()
    arrange(state, [["2C", "3C"], ["8H", "5H", "2D"], ["6C", "4C"], ["RJ", "BJ", "9D"]], turn=1)
    state.apply(1, "play:8H")
    state.apply(2, "play:6C")
    assert "play=half:RJ" in legal(state, 3)
    events = state.apply(3, "play=half:RJ")
    assert events[0].arg == "half" and state.total == 7
    state.apply(0, "play:3C")
    assert state.total == 10
    state.apply(1, "play:5H")
    assert state.total == 15 and "play=half:BJ" not in legal(state, 3)


def test_decision_joker_halves_a_total_of_0() -> None:
    # "as the original says, 0 is even too: a joker played at a total of 0 halves it to 0."
    state = game_two_with_jokers()
    arrange(state, [["2C", "3C"], ["3H", "5H"], ["KC", "4C"], ["RJ", "9D"]], turn=1)
    state.apply(1, "play:3H")
    state.apply(2, "play:KC")
    assert state.total == 0 and "play=half:RJ" in legal(state, 3)
    events = state.apply(3, "play=half:RJ")
    assert events[0].arg == "half" and state.total == 0
    assert state.to_act == (0,) and state.round_cards[-1] == cards.parse("RJ")


def test_joker_halves_a_negative_total() -> None:
    # "if the round's total is even, it halves the total (−4 becomes −2)."
    state = game_two_with_jokers()
    arrange(state, [["2C", "3C"], ["KH", "5H"], ["JC", "4C"], ["RJ", "9D"]], turn=1)
    state.apply(1, "play:KH")
    state.apply(2, "play:JC")
    assert state.total == -4 and "play=half:RJ" in legal(state, 3)
    state.apply(3, "play=half:RJ")
    assert state.total == -2


def test_stuck_with_hands_of_jokers_only_ends_the_game_with_nobody_out() -> None:
    # Rule 4's Decision: "If no player can ever play again ..., the game ends with nobody going
    # out and the final round's cards out of play." A joker cannot open a round, and at 19
    # it can neither halve (odd) nor copy the 10 or the 9 (the total would pass 21).
    state = new(2, mode="refill", best_of_three=True, jokers=True, first=0)
    state.out_of_play.extend(state.stock)
    state.stock = []
    go_out_now(state)  # game 2 with the jokers; seat 1 trails and gets the extra card
    state.apply(1, Action("discard", None, (state.hands[1][0],)))
    state.out_of_play.extend(state.stock)
    state.stock = []
    arrange(state, [["9H", "RJ"], ["TC", "BJ"]], turn=0)
    state.apply(0, "play:9H")
    events = state.apply(1, "play:TC")
    assert [e.kind for e in events][:3] == ["play", "stuck", "game_over"]
    assert events[1].cards == (cards.parse("9H"), cards.parse("TC"))  # out of play
    assert state.results[-1] == (0, 0, -1) and state.deal_number == 3


def test_jokers_extra_card_is_discarded_before_the_exchange() -> None:
    # Spice jokers: "those two players each discard one card face down, out of play", and
    # then the game goes on as after the deal, so the exchange comes after the discards.
    state = new(best_of_three=True, jokers=True, exchange="rotate", first=0)
    for _ in range(4):  # the first game's exchange: any three cards each
        seat = next(s for s in range(4) if state.pending[s] is None)
        state.apply(seat, state.legal_actions(seat)[0])
    go_out_now(state)
    assert state.deal_number == 2 and state.phase == "discard" and state.to_act == (1, 3)
    assert legal(state, 0) == set()  # nobody exchanges yet
    for seat in (1, 3):
        state.apply(seat, Action("discard", None, (state.hands[seat][0],)))
    assert state.phase == "exchange" and [len(h) for h in state.hands] == [13] * 4
    assert all(len(a.cards) == 3 for a in state.legal_actions(1))
    conserved(state)


def test_joker_that_can_be_played_neither_way_cannot_be_played() -> None:
    state = game_two_with_jokers()
    arrange(state, [["2C", "3C"], ["RJ", "8H"], ["6C", "4C"], ["9D", "5D"]], turn=1)
    assert legal(state, 1) == {"play:8H"}  # opening: no card on the table to copy or halve
    with pytest.raises(IllegalAction, match="halves the total only"):
        state.apply(1, "play=half:RJ")
    with pytest.raises(IllegalAction, match="Say how to play the joker"):
        state.apply(1, "play:RJ")


def test_captured_joker_counts_minus_five() -> None:
    state = game_two_with_jokers()
    arrange(state, [["2C", "3C"], ["8H", "5H"], ["RJ", "4C"], ["9D", "5D"]], turn=1)
    state.apply(1, "play:8H")
    state.apply(2, "play=8:RJ")
    for seat in (3, 0, 1):
        state.apply(seat, "pass")
    assert state.captured[0] == [cards.parse("8H"), cards.parse("RJ")]
    assert state.game_scores() == [1 - 5, 0]


def test_final_round_joker_must_be_in_the_half_of_who_went_out() -> None:
    state = game_two_with_jokers()
    arrange(state, [["2C", "3C"], ["8H", "AH"], ["RJ"], ["9D", "5D"]], turn=1)
    state.apply(1, "play:8H")
    events = state.apply(2, "play=8:RJ")
    out = next(e for e in events if e.kind == "out")
    assert out.cards == (cards.parse("RJ"),)
    assert state.results[-1][:2] == (-5, 0)  # the 8 went out of play, not to side 0
    assert state.deal_number == 3


def test_refill_with_jokers_gives_the_trailing_player_an_extra_card() -> None:
    state = new(2, mode="refill", best_of_three=True, jokers=True, first=0)
    state.out_of_play.extend(state.stock)
    state.stock = []
    go_out_now(state)
    assert state.deal_number == 2 and state.to_act == (1,) and state.phase == "discard"
    assert [len(h) for h in state.hands] == [13, 14] and len(state.stock) == 27


# -- input, views, text ---------------------------------------------------------------------
def test_bad_input_is_refused_with_a_sentence_and_no_change() -> None:
    state = new(first=0)
    before = snapshot(state)
    other = state.hands[1][0]
    mine = state.hands[0][0]
    for bad in [f"play:{other}", "play", f"play:{mine},{state.hands[0][1]}", "pass=x",
                f"play=7:{mine}", "discard:" + str(mine), "shout"]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(0, bad)
        assert str(refused.value)[0].isupper()
    assert snapshot(state) == before


def test_views_hide_other_hands_and_determinize_keeps_what_a_seat_knows() -> None:
    state = new(first=0)
    view = state.view(1).to_dict()
    assert view["hand"] == [str(c) for c in state.hands[1]]
    text = str(view)
    assert not any(f"'{c}'" in text for c in state.hands[0])
    sampled = state.determinize(1, random.Random(2))
    assert sampled.hands[1] == state.hands[1] and sampled.view(1) == state.view(1)
    assert sampled.hands[0] != state.hands[0]


def test_texts_in_english_and_japanese() -> None:
    state = new(first=0)
    card = state.hands[0][0]
    assert RULES.action_text(Action("play", None, (card,)), "en").startswith("Play")
    assert RULES.action_text(Action("pass"), "ja") == "パス"
    joker = Action("play", "7", (cards.RED_JOKER,))
    assert "as 7" in RULES.action_text(joker, "en") and "7として" in RULES.action_text(joker, "ja")
    events = state.apply(0, Action("play", None, (card,)))
    assert "plays" in (RULES.event_text(events[0], "en") or "")
    assert "席1" in (RULES.event_text(events[0], "ja") or "")
    assert "Game 1" in RULES.view_text(state.view(0), "en")
    assert "第1ゲーム" in RULES.view_text(state.view(0), "ja")
    assert RULES.title("ja") == "菅刈21"
    assert "21" in RULES.summary_en and "21" in RULES.summary("ja")


# -- the basic player -----------------------------------------------------------------------
def test_basic_player_makes_21_when_it_can() -> None:
    state = new(first=0)
    arrange(state, [["7H", "2C"], ["6S", "3C"], ["8S", "5S", "4C"], ["9D", "TD"]], turn=0)
    state.apply(0, "play:7H")
    state.apply(1, "play:6S")
    assert str(basic(observe(state, 2), random.Random(1))) == "play:8S"


def test_basic_player_does_not_leave_an_easy_21() -> None:
    state = new(first=3)
    arrange(state, [["AS", "5S", "9S"], ["2C", "3C"], ["4C", "6C"], ["TS", "8D"]], turn=3)
    state.apply(3, "play:TS")
    assert str(basic(observe(state, 0), random.Random(1))) == "play:AS"


def test_basic_player_lets_its_partners_round_ride() -> None:
    state = new(first=0)
    arrange(state, [["4H", "2C"], ["3C", "5C"], ["6S", "7S"], ["9D", "TD"]], turn=0)
    state.apply(0, "play:4H")
    state.apply(1, "pass")
    assert str(basic(observe(state, 2), random.Random(1))) == "pass"


def test_basic_player_keeps_a_number_card_to_go_out_with() -> None:
    state = new(first=3)
    arrange(state, [["KS", "5S"], ["2C", "3C"], ["6C", "7C"], ["4H", "8D"]], turn=3)
    state.apply(3, "play:4H")
    assert str(basic(observe(state, 0), random.Random(1))) == "play:KS"


@pytest.mark.parametrize(("players", "options"), [
    (4, {}), (2, {"mode": "two-decks"}), (2, {"mode": "refill"}),
    (4, {"best_of_three": True, "jokers": True, "exchange": "rotate"}),
])
def test_basic_player_finishes_whole_matches_with_legal_moves(
    players: int, options: dict[str, object]
) -> None:
    player = get_player("normal", "sugekari-21")
    for seed in range(3):
        state = RULES.new_game(players, seed=seed, options=options)
        rng = random.Random(seed)
        while not state.over:
            seat = state.to_act[0]
            action = player.choose(observe(state, seat), rng)
            assert any(action.same_as(a) for a in state.legal_actions(seat))
            state.apply(seat, action)
        assert isinstance(state, SugekariState)
        conserved(state)


def test_random_exchange_is_one_of_the_legal_exchanges() -> None:
    state = new(exchange="rotate")
    rng = random.Random(5)
    listed = state.legal_actions(1)
    picks = {str(state.random_action(1, rng)) for _ in range(200)}
    assert len(picks) > 100
    assert all(any(Action.parse(p).same_as(a) for a in listed) for p in picks)


def test_match_end_names_the_winning_seats() -> None:
    state = new(first=0)
    arrange(state, [["5S"], ["2H", "6H"], ["3C", "4C"], ["9D", "8D"]], turn=0)
    events = state.apply(0, "play:5S")
    assert events[-1].kind == "match_over" and events[-1].arg == "0+2"
    assert RULES.event_text(events[-1], "en") == "Seats 1 and 3 win"
    assert RULES.event_text(events[-1], "ja") == "席1・席3の勝ち"
