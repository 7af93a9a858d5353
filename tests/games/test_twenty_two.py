"""22 (docs/rules/twenty-two.md): every example, every decision and every option's effect."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import games
from games import Action, IllegalAction
from games.ai import observe
from games.ai.twenty_two import basic
from games.cards import parse, standard_deck
from games.twenty_two import RULES, TwentyTwoState, beats

PACK = [str(c) for c in standard_deck()]


def build_deck(players: int, dealer: int, hands: dict[int, list[str]],
               stock: list[str] | None = None, decks: int = 1) -> list[str]:
    """A first-deal deck: hands dealt one at a time from the dealer's left, then the stock."""
    order = [(dealer + i) % players for i in range(1, players + 1)]
    size = len(hands[order[0]])
    deck = [hands[s][i] for i in range(size) for s in order]
    deck += stock or []
    rest = Counter(PACK * decks) - Counter(deck)
    return deck + [c for c in PACK * decks if rest[c] and not rest.subtract([c])]


def new(players: int, hands: dict[int, list[str]], dealer: int | None = None,
        stock: list[str] | None = None, **options: Any) -> TwentyTwoState:
    """A game whose first deal is exactly ``hands`` (dealer defaults to the last seat)."""
    dealer = players - 1 if dealer is None else dealer
    decks = 2 if players >= 7 else 1
    deck = build_deck(players, dealer, hands, stock, decks)
    state = RULES.new_game(players, seed=1, options={"dealer": dealer, **options}, deck=deck)
    assert isinstance(state, TwentyTwoState)
    return state


def keep_all(state: TwentyTwoState) -> None:
    """Everyone keeps their hand in the exchange."""
    while state.phase == "exchange":
        state.apply(state.turn, "exchange")


def play_lowest(state: TwentyTwoState) -> list[games.Event]:
    """Every player leads or follows with their lowest card until the deal ends."""
    deal = state.deal_number
    events: list[games.Event] = []
    while state.deal_number == deal and not state.over and state.phase == "play":
        seat = state.turn
        lowest = state.view(seat)["hand"][: max(1, len(state.view(seat)["to_beat"]))]
        events += state.apply(seat, Action.of("play", [parse(c) for c in lowest]))
    return events


def ranks(action: Action) -> list[int]:
    return sorted(c.rank for c in action.cards)


# -- the examples of the original -----------------------------------------------------------
EXAMPLE_HANDS = {0: ["6S", "6H", "6D", "2H", "3H", "4H", "TS"],
                 1: ["TH", "9S", "7S", "2D", "3D", "4D", "5D"],
                 2: ["KS", "9H", "8S", "QS", "QH", "JS", "JH"],
                 3: ["KH", "KD", "6C", "3C", "3S", "2C", "2S"]}


def test_example_single_lead_cannot_beat_king_plays_lowest() -> None:
    hands = {0: ["TS", "2H", "3H", "4H", "5H", "7H", "9H"],
             1: ["KS", "2D", "3D", "4D", "5D", "7D", "9D"],
             2: ["QS", "JS", "8S", "8H", "6S", "5S", "2S"],
             3: ["AC", "KC", "QC", "JC", "TC", "9C", "8C"]}
    state = new(4, hands)
    keep_all(state)
    state.apply(0, "play:TS")
    state.apply(1, "play:KS")
    assert [str(a) for a in state.legal_actions(2)] == ["play:2S"]
    with pytest.raises(IllegalAction, match="lowest"):
        state.apply(2, "play:QS")
    state.apply(2, "play:2S")


def test_example_set_lead_six_six_six_then_k_9_8_becomes_cards_to_beat() -> None:
    hands = {0: ["6S", "6H", "6D", "2H", "3H", "4H", "5H"],
             1: ["TS", "9S", "7S", "2D", "3D", "4D", "5D"],
             2: ["KS", "9H", "8S", "QS", "QH", "JS", "JH"],
             3: ["KH", "KD", "6C", "3C", "3S", "2C", "2S"]}
    state = new(4, hands)
    keep_all(state)
    state.apply(0, "play:6S,6H,6D")
    assert any(a.same_as(Action.parse("play:TS,9S,7S")) for a in state.legal_actions(1))
    state.apply(1, "play:TS,9S,7S")
    assert beats([parse(c) for c in ("KS", "9H", "8S")], [parse(c) for c in ("TS", "9S", "7S")])
    state.apply(2, "play:KS,9H,8S")
    assert sorted(state.view(None)["to_beat"]) == ["8S", "9H", "KS"]


def test_example_k_k_6_3_3_2_2_against_k_9_8_must_play_2_2_3() -> None:
    hands = {0: ["6S", "6H", "6D", "2H", "3H", "4H", "5H"],
             1: ["TS", "9S", "7S", "2D", "3D", "4D", "5D"],
             2: ["KS", "9H", "8S", "QS", "QH", "JS", "JH"],
             3: ["KH", "KD", "6C", "3C", "3S", "2C", "2S"]}
    state = new(4, hands)
    keep_all(state)
    for seat, play in ((0, "play:6S,6H,6D"), (1, "play:TS,9S,7S"), (2, "play:KS,9H,8S")):
        state.apply(seat, play)
    legal = state.legal_actions(3)
    assert legal and all(ranks(a) == [2, 2, 3] for a in legal)
    assert len(legal) == 2  # either three
    with pytest.raises(IllegalAction):
        state.apply(3, "play:KH,KD,6C")


# -- players and cards ----------------------------------------------------------------------
def test_decision_two_to_six_players_use_one_deck_seven_and_eight_use_two() -> None:
    assert len(RULES.new_game(6, seed=1).pack()) == 52
    assert len(RULES.new_game(7, seed=1).pack()) == 104
    assert len(RULES.new_game(8, seed=1).pack()) == 104


def test_decision_two_decks_allow_sets_of_up_to_eight_but_keep_a_card() -> None:
    hands: dict[int, list[str]] = {s: [] for s in range(7)}
    hands[0] = ["AS", "AS", "AH", "AH", "AD", "AD", "AC"]
    spare = [c for c in PACK if c[0] != "A"] * 2
    for s in range(1, 7):
        hands[s] = spare[(s - 1) * 7: s * 7]
    state = new(7, hands)
    keep_all(state)
    sizes = {len(a.cards) for a in state.legal_actions(0)}
    assert sizes == {1, 2, 3, 4, 5, 6}
    with pytest.raises(IllegalAction, match="at least one card"):
        state.apply(0, "play:AS,AS,AH,AH,AD,AD,AC")
    state.apply(0, "play:AS,AS,AH,AH,AD,AD")
    assert state.view(0)["hand"] == ["AC"]


# -- the deal and the exchange ----------------------------------------------------------------
def test_deck_is_dealt_one_at_a_time_from_the_dealers_left_then_stock() -> None:
    deck = PACK[:]
    state = RULES.new_game(4, seed=3, options={"dealer": 2}, deck=deck)
    assert state.view(3)["hand"] == sorted(deck[0:28:4], key=lambda c: parse(c).rank * 128
                                           + int(parse(c)))
    assert set(state.view(0)["hand"]) == set(deck[1:28:4])
    assert state.view(None)["stock_count"] == 24
    assert state.to_act == (3,)
    events = state.apply(3, "exchange:" + deck[0])
    drawn = next(e for e in events if e.kind == "draw")
    assert [str(c) for c in drawn.cards] == [deck[28]]


def test_first_dealer_is_random_without_the_dealer_option() -> None:
    dealers = {RULES.new_game(4, seed=s).view(None)["dealer"] for s in range(30)}
    assert len(dealers) > 1


def test_option_dealer_fixes_the_first_dealer() -> None:
    for seat in range(4):
        state = RULES.new_game(4, seed=9, options={"dealer": seat})
        assert state.view(None)["dealer"] == seat
        assert state.to_act == ((seat + 1) % 4,)


def test_exchange_discards_are_private_and_out_of_play() -> None:
    state = RULES.new_game(4, seed=5, options={"dealer": 3})
    hand = state.view(0)["hand"]
    events = state.apply(0, f"exchange:{hand[-1]},{hand[-2]}")
    for event in events:
        seen = event.for_seat(1)
        assert seen.cards == () and seen.hidden == 2
    assert state.view(0)["my_exchange"] == [hand[-1], hand[-2]]
    assert state.view(1)["my_exchange"] == []
    assert state.view(None)["exchanged"] == [2, 0, 0, 0]
    assert hand[-1] not in state.view(0)["hand"]
    assert hand[-1] not in state.view(None)["discards"]
    assert sorted(state.zones()["exchanged0"]) == sorted(parse(c) for c in hand[-2:])


def test_decision_nobody_discards_more_than_the_stock_holds() -> None:
    state = RULES.new_game(6, seed=2, options={"dealer": 5})  # 42 dealt, stock 10
    assert state.view(None)["stock_count"] == 10
    hand0 = state.view(0)["hand"]
    state.apply(0, "exchange:" + ",".join(hand0))  # 7 cards, stock 3
    hand1 = state.view(1)["hand"]
    with pytest.raises(IllegalAction, match="only 3"):
        state.apply(1, "exchange:" + ",".join(hand1[:4]))
    assert max(len(a.cards) for a in state.legal_actions(1)) == 3
    state.apply(1, "exchange:" + ",".join(hand1[:3]))
    # Once the stock is empty there are no more exchanges: play begins at the dealer's left.
    assert state.view(None)["phase"] == "play"
    assert state.to_act == (0,)


# -- tricks ---------------------------------------------------------------------------------
def test_decision_follower_may_play_lowest_even_when_able_to_beat() -> None:
    hands = {0: ["5S", "2H", "3H", "4H", "6H", "7H", "8H"],
             1: ["AS", "2D", "3D", "4D", "6D", "7D", "8D"],
             2: ["KS", "2S", "3S", "4S", "6S", "7S", "8S"],
             3: ["KH", "2C", "3C", "4C", "6C", "7C", "8C"]}
    state = new(4, hands)
    keep_all(state)
    state.apply(0, "play:5S")
    legal = {str(a) for a in state.legal_actions(1)}
    assert legal == {"play:AS", "play:2D", "play:6D", "play:7D", "play:8D"}
    state.apply(1, "play:2D")
    assert state.view(None)["to_beat"] == ["5S"]


def test_decision_trick_winner_is_the_last_of_the_highest_rank() -> None:
    hands = {0: ["5S", "2H", "3H", "4H", "6H", "7H", "8H"],
             1: ["AS", "2D", "3D", "4D", "6D", "7D", "8D"],
             2: ["AH", "2S", "3S", "4S", "6S", "7S", "8S"],
             3: ["KH", "2C", "3C", "4C", "6C", "7C", "8C"]}
    state = new(4, hands)
    keep_all(state)
    for seat, card in ((0, "5S"), (1, "AS"), (2, "AH")):
        state.apply(seat, f"play:{card}")
    events = state.apply(3, "play:2C")
    assert [e.seat for e in events if e.kind == "trick"] == [2]
    assert state.to_act == (2,)
    assert sorted(state.view(None)["discards"]) == sorted(["5S", "AS", "AH", "2C"])
    assert state.view(1)["last_trick"][2]["cards"] == ["AH"]


def test_decision_lowest_cards_with_the_top_rank_still_win_the_trick() -> None:
    hands = {0: ["6S", "6H", "2H", "3H", "4H", "5H", "7H"],
             1: ["AS", "2S", "3S", "4S", "5S", "7S", "8S"],
             2: ["9H", "8H", "9D", "8D", "9C", "8C", "TC"],
             3: ["AH", "AD", "AC", "KH", "KD", "KC", "QH"]}
    state = new(4, hands)
    keep_all(state)
    state.apply(0, "play:6S,6H")
    state.apply(1, "play:2S,3S")  # cannot beat 6 6 with A 8? it can; the lowest is allowed
    state.apply(2, "play:8H,8D")
    events = state.apply(3, "play:KH,KD")
    assert [e.seat for e in events if e.kind == "trick"] == [3]


def test_set_lead_must_be_one_rank_and_follow_must_match_the_count() -> None:
    state = new(4, EXAMPLE_HANDS)
    keep_all(state)
    with pytest.raises(IllegalAction, match="one rank"):
        state.apply(0, "play:6S,TS")
    state.apply(0, "play:6S,6H")
    with pytest.raises(IllegalAction, match="exactly 2"):
        state.apply(1, "play:TH")
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(2, "play:QS,QH")


# -- the final trick, elimination, the next deal --------------------------------------------
TIE_HANDS = {0: ["KS", "2S", "3S", "4S", "5S", "6S", "7S"],
             1: ["KH", "2H", "3H", "4H", "5H", "6H", "7H"]}


def test_decision_final_trick_is_automatic_and_all_tied_highest_lose() -> None:
    state = new(2, TIE_HANDS)
    keep_all(state)
    events = play_lowest(state)
    finals = [(e.seat, str(e.cards[0])) for e in events if e.kind == "final"]
    assert sorted(finals) == [(0, "KS"), (1, "KH")]
    assert [e.seat for e in events if e.kind == "penalty"] == [0, 1]
    view = state.view(None)
    assert view["scores"] == [10.0, 10.0]
    assert view["penalties"] == [["KS"], ["KH"]]
    assert view["deal"] == 2
    # The next dealer is one of the losers; the hand size is the losing card's value.
    assert view["dealer"] in (0, 1)
    assert view["hand_size"] == 10
    assert state.view(0)["hand_counts"] == [10, 10]
    # Penalty cards leave the deck: 50 cards remain for the deal.
    assert sum(view["hand_counts"]) + view["stock_count"] == 50
    assert Counter(state.zones()["penalty0"]) == Counter([parse("KS")])


def test_decision_next_hand_size_is_capped_by_what_the_deck_gives_equally() -> None:
    hands: dict[int, list[str]] = {s: [] for s in range(6)}
    highs = ["AS", "QS", "QH", "QD", "QC", "JS"]
    lows = [c for c in PACK if c[0] in "23456789T"]
    for s in range(6):
        hands[s] = [highs[s], *lows[s * 6: s * 6 + 6]]
    state = new(6, hands)
    keep_all(state)
    play_lowest(state)
    view = state.view(None)
    assert view["scores"][0] == 11.0
    assert view["dealer"] == 0
    assert view["hand_size"] == 51 // 6  # A asks for 11, 51 cards give 8 each
    assert view["stock_count"] == 51 - 48


def test_decision_player_at_22_is_out_and_the_last_one_in_wins() -> None:
    state = new(2, {0: ["AS", "2S", "3S", "4S", "5S", "6S", "7S"],
                    1: ["KH", "2H", "3H", "4H", "5H", "6H", "7H"]})
    state.totals[0] = 11
    keep_all(state)
    events = play_lowest(state)
    assert [e.seat for e in events if e.kind == "out"] == [0]
    assert state.over and state.outcome is not None
    assert state.outcome.winners == (1,)
    assert state.outcome.places == (2, 1)
    assert state.outcome.scores == (22.0, 0.0)


def test_decision_loser_out_means_a_random_live_dealer() -> None:
    hands = {0: ["AS", "2S", "3S", "4S", "5S", "6S", "7S"],
             1: ["KH", "2H", "3H", "4H", "5H", "6H", "7H"],
             2: ["KD", "2D", "3D", "4D", "5D", "6D", "7D"]}
    dealers = set()
    for seed in range(12):
        deck = build_deck(3, 2, hands)
        state = RULES.new_game(3, seed=seed, options={"dealer": 2}, deck=deck)
        assert isinstance(state, TwentyTwoState)
        state.totals[0] = 15
        keep_all(state)
        play_lowest(state)
        assert state.view(None)["live"] == [False, True, True]
        dealers.add(state.view(None)["dealer"])
    assert dealers == {1, 2}


def test_next_dealer_is_the_loser_still_in_when_another_loser_is_out() -> None:
    # Step 7: "If several lost, one of them at random. If the loser is out, a random live
    # player." Of two losers, the one still in deals, whatever the seed.
    hands = {**TIE_HANDS, 2: ["QD", "2D", "3D", "4D", "5D", "6D", "7D"]}
    for seed in range(8):
        state = RULES.new_game(3, seed=seed, options={"dealer": 2},
                               deck=build_deck(3, 2, hands))
        assert isinstance(state, TwentyTwoState)
        state.totals[0] = 15
        keep_all(state)
        play_lowest(state)
        view = state.view(None)
        assert view["losers"] == [0, 1] and view["live"] == [False, True, True]
        assert view["dealer"] == 1


def test_a_deal_of_one_card_each_goes_straight_to_the_final_trick() -> None:
    # Step 2 caps the hand size at what the deck gives equally; step 5: "When every live
    # player holds exactly one card, all of them play it at once (no choice, no lead)."
    # No real game gets that short, so the deal is started by hand with two cards.
    state = new(2, TIE_HANDS)
    state.hand_size = 1
    events = state._start_deal([parse("9S"), parse("4H")])
    kinds = [e.kind for e in events]
    assert kinds[:6] == ["deal", "hand", "hand", "final", "penalty", "final"]
    assert events[0].arg == "1" and "play" not in kinds and "exchange" not in kinds
    assert state.totals == [9, 0] and state.view(None)["penalties"][0] == ["9S"]


@pytest.mark.parametrize(("last_out", "winners", "places"),
                         [("shared", (0, 1), (1, 1)), ("lowest", (0,), (1, 2))])
def test_option_last_out_when_everyone_left_goes_out_together(
        last_out: str, winners: tuple[int, ...], places: tuple[int, ...]) -> None:
    state = new(2, TIE_HANDS, last_out=last_out)
    state.totals[0], state.totals[1] = 12, 14
    keep_all(state)
    play_lowest(state)
    assert state.over and state.outcome is not None
    assert state.outcome.winners == winners
    assert state.outcome.places == places


def test_decision_places_rank_later_outs_higher_and_same_deal_by_lower_penalty() -> None:
    hands = {0: ["KS", "2S", "3S", "4S", "5S", "6S", "7S"],
             1: ["KH", "2H", "3H", "4H", "5H", "6H", "7H"],
             2: ["QD", "2D", "3D", "4D", "5D", "6D", "7D"],
             3: ["QC", "2C", "3C", "4C", "5C", "6C", "7C"]}
    state = new(4, hands)
    state.totals[0], state.totals[1] = 14, 12
    keep_all(state)
    play_lowest(state)
    assert state.view(None)["live"] == [False, False, True, True]
    rng = random.Random(4)
    while not state.over:
        seat = state.to_act[0]
        state.apply(seat, state.random_action(seat, rng))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.places[1] == 3 and outcome.places[0] == 4
    assert sorted(outcome.places[2:]) == [1, 2]


# -- options --------------------------------------------------------------------------------
def test_option_scoring_cucumber_values_and_out_at_thirty() -> None:
    state = new(2, TIE_HANDS, scoring="cucumber")
    state.totals[0] = 17
    keep_all(state)
    play_lowest(state)
    view = state.view(None)
    assert view["scores"] == [30.0, 13.0]  # K = 13
    assert state.over and state.outcome is not None and state.outcome.winners == (1,)
    other = new(2, TIE_HANDS, scoring="cucumber")
    other.totals[0] = 16
    keep_all(other)
    play_lowest(other)
    assert not other.over and other.view(None)["hand_size"] == 13


def rebuy_game(players: int = 4) -> TwentyTwoState:
    suits = "SHDC"
    hands = {s: [f"K{suits[s]}" if s < 2 else f"Q{suits[s]}",
                 *[f"{r}{suits[s]}" for r in "234567"]] for s in range(players)}
    if players == 3:
        hands[2][0] = "QD"
    state = new(players, hands, rebuy=True)
    state.totals[0] = 15
    return state


def test_option_rebuy_pays_a_stake_and_resets_the_penalty_once() -> None:
    state = rebuy_game()
    assert state.view(None)["pot"] == 4
    keep_all(state)
    play_lowest(state)
    assert state.to_act == (0,)
    assert [str(a) for a in state.legal_actions(0)] == ["rebuy", "out"]
    with pytest.raises(IllegalAction):
        state.apply(1, "rebuy")
    events = state.apply(0, "rebuy")
    assert [e.kind for e in events if e.seat == 0][:2] == ["rebuy", "stay"]
    view = state.view(None)
    assert view["scores"][0] == 15.0 and view["penalties"][0] == []
    assert view["pot"] == 5 and view["chips"][0] == -2.0 and view["rebought"][0]
    assert view["live"] == [True] * 4 and view["deal"] == 2
    assert len(state.pack()) == 52 and sum(view["hand_counts"]) + view["stock_count"] == 51
    # Once per game: the next time seat 0 would go out, it is simply out.
    state.totals[0] = 21
    rng = random.Random(6)
    while state.view(None)["live"][0]:
        assert state.phase != "rebuy"
        seat = state.to_act[0]
        state.apply(seat, state.random_action(seat, rng))
    assert 0 in state.last_losers and state.view(None)["chips"][0] == -2.0


def test_option_rebuy_can_be_declined() -> None:
    state = rebuy_game()
    keep_all(state)
    play_lowest(state)
    events = state.apply(0, "out")
    assert [e.kind for e in events if e.seat == 0][:2] == ["decline", "out"]
    assert state.view(None)["live"] == [False, True, True, True]
    assert not state.over


def test_option_rebuy_none_once_a_bigger_table_is_down_to_three() -> None:
    # "No rebuys once only 3 players remain. From then, as soon as any one player goes out,
    # the game ends."
    state = rebuy_game(4)
    keep_all(state)
    play_lowest(state)
    state.apply(0, "out")  # seat 0 declines its rebuy: three players remain
    assert state.view(None)["live"] == [False, True, True, True]
    for seat in (1, 2, 3):
        state.totals[seat] = 21  # whoever loses the next deal goes out
    rng = random.Random(3)
    while not state.over:
        assert state.phase != "rebuy"
        seat = state.to_act[0]
        state.apply(seat, state.random_action(seat, rng))
    assert state.deal_number == 2 and state.outcome is not None
    assert all(state.live[s] == (s in state.outcome.winners) for s in (1, 2, 3))
    assert not any(state.view(None)["rebought"])


def test_option_rebuy_tie_for_lowest_at_the_end_shares_the_pot() -> None:
    # "the remaining player with the lowest penalty total wins the pot (ties share)."
    state = rebuy_game(3)
    state.totals[2] = 10  # seat 1 will reach 10 with its king
    keep_all(state)
    play_lowest(state)
    assert state.over and state.outcome is not None
    assert state.outcome.winners == (1, 2) and state.outcome.places == (3, 1, 1)
    assert state.view(None)["chips"] == [-1.0, 0.5, 0.5]


def test_option_rebuy_needs_three_players() -> None:
    with pytest.raises(ValueError, match="rebuy"):
        RULES.new_game(2, options={"rebuy": True})


# -- the engine interface -------------------------------------------------------------------
def test_random_action_is_legal_and_uniform_over_exchanges() -> None:
    state = RULES.new_game(6, seed=2, options={"dealer": 5})
    hand0 = state.view(0)["hand"]
    state.apply(0, "exchange:" + ",".join(hand0[:7]))  # stock now 3
    rng = random.Random(0)
    legal = state.legal_actions(1)
    sizes: Counter[int] = Counter()
    for _ in range(3000):
        action = state.random_action(1, rng)
        assert any(action.same_as(a) for a in legal)
        sizes[len(action.cards)] += 1
    # 1 + 7 + 21 + 35 subsets of sizes 0..3
    assert abs(sizes[3] / 3000 - 35 / 64) < 0.04
    assert abs(sizes[1] / 3000 - 7 / 64) < 0.03


def test_determinize_keeps_what_a_lowest_play_revealed() -> None:
    hands = {0: ["5S", "2H", "3H", "4H", "6H", "7H", "8H"],
             1: ["AS", "2D", "3D", "9D", "TD", "JD", "QD"],
             2: ["KS", "2S", "3S", "4S", "6S", "7S", "8S"],
             3: ["KH", "2C", "3C", "4C", "6C", "7C", "8C"]}
    state = new(4, hands)
    keep_all(state)
    state.apply(0, "play:5S")
    state.apply(1, "play:2D")  # did not beat: the rest of seat 1's hand is 2 or higher
    state.apply(2, "play:2S")
    state.apply(3, "play:2C")
    rng = random.Random(3)
    for _ in range(20):
        sample = state.determinize(0, rng)
        assert sample.view(0) == state.view(0)
        assert len(sample.hands[1]) == 6


def test_views_hide_other_hands_and_list_the_public_table() -> None:
    state = RULES.new_game(4, seed=8, options={"dealer": 0})
    view = state.view(2)
    for key in ("to_beat", "penalties", "discards", "stock_count", "hand_size", "live",
                "hand_counts", "phase", "dealer", "trick", "scores"):
        assert key in view
    others = set().union(*(state.view(s)["hand"] for s in (0, 1, 3)))
    assert not others & set(str(v) for v in view.to_dict().values())
    assert state.view(None)["hand"] == []
    assert "pot" not in view


def test_basic_player_plays_whole_games_and_exchanges_high_cards() -> None:
    rng = random.Random(1)
    for seed in range(3):
        state = RULES.new_game(4, seed=seed, options={"rebuy": True})
        while not state.over:
            seat = state.to_act[0]
            obs = observe(state, seat)
            action = basic(obs, rng)
            assert any(action.same_as(a) for a in obs.legal)
            if obs.view["phase"] == "exchange":
                high = {c for c in obs.view["hand"] if parse(c).rank >= 10}
                assert {str(c) for c in action.cards} == high or \
                    len(action.cards) == obs.view["stock_count"]
            state.apply(seat, action)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_texts_in_both_languages(lang: str) -> None:
    state = RULES.new_game(4, seed=4, options={"dealer": 3})
    rng = random.Random(2)
    for _ in range(40):
        if state.over:
            break
        seat = state.to_act[0]
        action = state.random_action(seat, rng)
        assert RULES.action_text(action, lang)
        for event in state.apply(seat, action):
            text = RULES.event_text(event.for_seat(None), lang)
            assert text is None or text.strip()
    assert RULES.view_text(state.view(0), lang).count("\n") >= 4
    assert RULES.action_text(Action("exchange"), lang)
    assert RULES.action_text(Action("rebuy"), lang) != RULES.action_text(Action("out"), lang)


def test_registry_knows_twenty_two() -> None:
    rules = games.get("twenty-two")
    assert rules.name == "22" and rules.min_players == 2 and rules.max_players == 8
