"""Bear (docs/rules/bear.md): every rule point, every Decision and every option's effect."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

import games
from games import Action, IllegalAction
from games.ai import observe
from games.ai.bear import basic, choose_bid, choose_discard, null_hand
from games.bear import (
    BIG_BOND,
    BOND,
    PACK,
    POINTS,
    SCORE_TABLE,
    TABLES,
    TRUMP,
    BearState,
    bond_bonus,
    card_points,
)
from games.cards import Card, parse, parse_many

RULES = games.get("bear")


def cards(text: str) -> list[Card]:
    """Cards from codes."""
    return parse_many(text)


def deck_for(hands: dict[int, str], kitty: str, dealer: int = 0) -> list[str]:
    """The deck order of docs/rules/bear.md: 3 each from the dealer's left, kitty 2, 4, 3."""
    order = [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
    held = {s: hands[s].split() for s in hands}
    deck: list[str] = []
    for s in order:
        deck += held[s][0:3]
    deck += kitty.split()
    for s in order:
        deck += held[s][3:7]
    for s in order:
        deck += held[s][7:10]
    return deck


def start(hands: dict[int, str], kitty: str, dealer: int = 0, **opts: object) -> BearState:
    """A match whose first deal is exactly these hands and kitty."""
    state = RULES.new_game(3, seed=1, options={"dealer": dealer, **opts},
                           deck=deck_for(hands, kitty, dealer))
    assert isinstance(state, BearState)
    return state


def act(state: BearState, *moves: str) -> list[games.Event]:
    """Apply moves in turn, each by the seat to act."""
    events: list[games.Event] = []
    for move in moves:
        events += state.apply(state.to_act[0], move)
    return events


def play_first_legal(state: BearState) -> list[games.Event]:
    """Play the current deal to its end, each seat choosing its first legal action."""
    deal = state.deal_number
    events: list[games.Event] = []
    while not state.over and state.deal_number == deal:
        seat = state.to_act[0]
        events += state.apply(seat, state.legal_actions(seat)[0])
    return events


# Seat 1 leads; seat 2 holds every trump of a spade game; seat 0 has hearts T–5 but no honour.
TRUMP_HANDS = {
    1: "AS AH KS KH 9D 8D 7D 6D 5D TD",
    2: "QS JS QH JH TS 9S 8S 7S 6S 5S",
    0: "TH 9H 8H 7H 6H 5H TC 9C 8C 7C",
}
TRUMP_KITTY = "6C 5C"

# Seat 2 bids; seat 0 holds both queens and both jacks.
EARLY_HANDS = {
    1: "AS AH KS KH 9H 8H 7H 6H 5H TH",
    2: "5S 6S 7S 8S 9S TS 9C 8C 7C 6C",
    0: "QS JS QH JH TC 5C TD 9D 8D 7D",
}
EARLY_KITTY = "6D 5D"

# Seat 1 holds every honour and the top spades: it takes every trick of a spade game.
STRONG_HANDS = {
    1: "AS AH KS KH QS QH JS JH TS 9S",
    2: "8S 7S TH 9H 8H 7H 6H 5H TC 9C",
    0: "6S 5S 8C 7C 6C TD 9D 8D 7D 6D",
}
STRONG_KITTY = "5C 5D"


# -- cards -------------------------------------------------------------------------------------


def test_pack_is_32_cards_worth_80_points() -> None:
    assert len(PACK) == 32 and len(set(PACK)) == 32
    assert card_points(list(PACK)) == 80
    assert Counter(c.suit for c in PACK) == {"S": 10, "H": 10, "C": 6, "D": 6}


def test_decision_hearts_keep_their_honours() -> None:
    honours = {str(c) for c in PACK if c.rank >= 11}
    assert honours == {"AS", "KS", "QS", "JS", "AH", "KH", "QH", "JH"}
    assert not any(c.suit in "CD" and c.rank > 10 for c in PACK)


def test_card_points() -> None:
    expected = {"KS": 5, "QH": 3, "JS": 2, "TC": 10, "5D": 5, "AS": 0, "9H": 0, "6C": 0}
    assert {code: POINTS[parse(code)] for code in expected} == expected


def test_bond_for_queen_and_jack_of_one_suit() -> None:
    assert bond_bonus(set(cards("QS JS 5C"))) == BOND == 5
    assert bond_bonus(set(cards("QH JH"))) == 5
    assert bond_bonus(set(cards("QS JH"))) == 0


def test_decision_big_bond_replaces_the_two_bonds() -> None:
    assert bond_bonus(set(cards("QS JS QH JH"))) == BIG_BOND == 20
    # so the most a player can make is 80 card points + 20 = 100, the top bid
    assert card_points(list(PACK)) + bond_bonus(set(PACK)) == 100


# -- deal ----------------------------------------------------------------------------------------


def test_deal_order_three_kitty_four_three_from_the_dealers_left() -> None:
    deck = [str(c) for c in PACK]
    state = RULES.new_game(3, seed=1, options={"dealer": 1}, deck=deck)
    assert isinstance(state, BearState)
    # dealer 1: seat 2 first, then seat 0, then the dealer
    assert state.hands[2] == cards(" ".join(deck[0:3] + deck[11:15] + deck[23:26]))
    assert state.hands[0] == cards(" ".join(deck[3:6] + deck[15:19] + deck[26:29]))
    assert state.hands[1] == cards(" ".join(deck[6:9] + deck[19:23] + deck[29:32]))
    assert state.kitty == cards(" ".join(deck[9:11]))
    assert all(len(h) == 10 for h in state.hands)


def test_a_deck_that_is_not_the_bear_pack_is_refused() -> None:
    deck = [str(c) for c in PACK]
    with pytest.raises(ValueError, match="32"):
        RULES.new_game(3, seed=1, deck=[*deck[:-1], "AC"])


def test_first_dealer_is_random_then_clockwise() -> None:
    dealers = {RULES.new_game(3, seed=s).view(None)["dealer"] for s in range(30)}
    assert dealers == {0, 1, 2}
    state = start(STRONG_HANDS, STRONG_KITTY, dealer=2)
    play_first_legal(state)
    assert state.dealer == 0


def test_option_dealer_sets_the_first_dealer() -> None:
    for dealer in range(3):
        state = RULES.new_game(3, seed=9, options={"dealer": dealer})
        assert state.view(None)["dealer"] == dealer
        assert state.to_act == ((dealer + 1) % 3,)


# -- auction -------------------------------------------------------------------------------------


def test_auction_is_one_lap_from_the_dealers_left() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    assert state.to_act == (1,)
    act(state, "bid=40-S")
    assert state.to_act == (2,)
    act(state, "bid=45-H")
    assert state.to_act == (0,)
    act(state, "pass")
    # one lap only: the highest bidder declares at once
    assert state.declarer == 2 and state.game == "H" and state.phase == "discard"


def test_bid_must_be_higher_than_any_before_it() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "bid=50-S")
    for text in ("bid=50-H", "bid=45-C"):
        with pytest.raises(IllegalAction, match="higher"):
            state.apply(2, text)
    assert "bid=50-C" not in [str(a) for a in state.legal_actions(2)]
    assert "bid=55-C" in [str(a) for a in state.legal_actions(2)]


def test_bids_are_at_least_40_in_steps_of_5() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    for text in ("bid=35-S", "bid=42-S", "bid=105-S", "bid=45-X", "bid=45"):
        with pytest.raises(IllegalAction):
            state.apply(1, text)
    numbers = {int(a.arg.split("-")[0]) for a in state.legal_actions(1)
               if a.kind == "bid" and a.arg and a.arg != "null"}
    assert numbers == set(range(40, 101, 5))


def test_bid_ranking_puts_null_between_95_and_100() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "bid=95-S", "bid=null")
    assert [str(a) for a in state.legal_actions(0)] == [
        "pass", "bid=100-S", "bid=100-H", "bid=100-D", "bid=100-C",
        "bid=100-grand-red", "bid=100-grand-black"]
    act(state, "bid=100-C")
    assert state.declarer == 0 and state.game == "C"


def test_null_outbids_95() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "bid=95-S", "bid=null", "pass")
    assert state.declarer == 2 and state.game == "null"


def test_after_100_only_a_pass_is_left() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "bid=100-grand-red")
    assert [str(a) for a in state.legal_actions(2)] == ["pass"]
    with pytest.raises(IllegalAction):
        state.apply(2, "bid=null")


def test_all_pass_plays_a_slop_round_by_default() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    events = act(state, "pass", "pass", "pass")
    assert any(e.kind == "slop" for e in events)
    assert state.game == "slop" and state.declarer is None and state.phase == "play"
    # In a Slop round the kitty stays closed and belongs to nobody.
    assert state.kitty == cards(TRUMP_KITTY)
    assert state.view(None)["kitty_count"] == 2


def test_option_all_pass_redeal_by_the_same_dealer() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY, dealer=0, all_pass="redeal")
    before = [list(h) for h in state.hands]
    events = act(state, "pass", "pass", "pass")
    assert [e.kind for e in events] == ["pass", "pass", "pass", "redeal", "deal"]
    assert state.dealer == 0 and state.phase == "bid" and state.to_act == (1,)
    assert state.hands != before and state.deals_played == 0


# -- trumps --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "order"), [
    ("S", "AS AH KS KH QS QH JS JH TS 9S 8S 7S 6S 5S"),
    ("C", "AS AH KS KH QS QH JS JH TC 9C 8C 7C 6C 5C"),
    ("H", "AH AS KH KS QH QS JH JS TH 9H 8H 7H 6H 5H"),
    ("D", "AH AS KH KS QH QS JH JS TD 9D 8D 7D 6D 5D"),
    ("grand-red", "AH AS KH KS QH QS JH JS"),
    ("grand-black", "AS AH KS KH QS QH JS JH"),
])
def test_table_of_trump_orders(game: str, order: str) -> None:
    table = TABLES[game]
    assert table.trumps == tuple(cards(order))
    strengths = [table.power(c) for c in cards(order)]
    assert strengths == sorted(strengths, reverse=True)
    assert {c for c in PACK if table.suit_of(c) == TRUMP} == set(cards(order))


def test_all_eight_honours_belong_to_the_trump_suit() -> None:
    for game in ("S", "H", "D", "C", "grand-red", "grand-black"):
        for code in ("AS", "KS", "QS", "JS", "AH", "KH", "QH", "JH"):
            assert TABLES[game].suit_of(parse(code)) == TRUMP, (game, code)
    # and the heart suit of a spade game is only hearts T–5
    assert {c for c in PACK if TABLES["S"].suit_of(c) == "H"} == set(cards("TH 9H 8H 7H 6H 5H"))


def test_null_and_slop_have_no_trumps_and_natural_order() -> None:
    for game in ("null", "slop"):
        table = TABLES[game]
        assert table.trump is None and table.trumps == ()
        assert all(table.suit_of(c) == c.suit for c in PACK)
        assert table.power(parse("AS")) > table.power(parse("KS")) > table.power(parse("5S"))


def test_leading_the_king_of_hearts_in_spades_is_a_trump_lead() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-S", "pass", "discard:6C,5C", "play:KH")
    act(state, "play:5S")  # seat 2 must answer with a trump; all its cards are
    # Seat 0 holds hearts T–5 but no trump: the heart suit is not what was led.
    assert sorted(a.cards[0] for a in state.legal_actions(0)) == sorted(state.hands[0])
    act(state, "play:TC")
    assert state.tricks_won[1] == 1  # KH outranks 5S, the TC does not count


def test_follow_suit_heart_low_cards_are_trumps_when_hearts_are_trumps() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-H", "pass", "discard:6C,5C", "play:KH", "play:QS")
    assert sorted(str(a.cards[0]) for a in state.legal_actions(0)) == sorted(
        ["TH", "9H", "8H", "7H", "6H", "5H"])
    with pytest.raises(IllegalAction, match="follow trumps"):
        state.apply(0, "play:TC")


def test_follow_suit_in_grand_black_the_low_hearts_are_a_side_suit() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-grand-black", "pass", "discard:6C,5C", "play:KH")
    # seat 2 must answer the trump lead with an honour: 5S is a plain spade here
    with pytest.raises(IllegalAction):
        state.apply(2, "play:5S")
    act(state, "play:QS")
    assert len(state.legal_actions(0)) == 10


def test_follow_suit_in_null_the_king_of_hearts_is_a_heart() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=null", "pass", "discard:6C,5C", "play:KH")
    assert [str(a) for a in state.legal_actions(2)] == ["play:QH", "play:JH"]


def test_the_trump_order_decides_between_the_aces() -> None:
    hands = {1: "AH KS KH 9D 8D 7D 6D 5D TD 9C",
             2: "AS QS JS QH JH TS 9S 8S 7S 6S",
             0: "TH 9H 8H 7H 6H 5H TC 8C 7C 5S"}
    for game, taker in (("S", 2), ("H", 1), ("grand-red", 1), ("grand-black", 2)):
        state = start(hands, "6C 5C")
        act(state, "pass", f"bid=40-{game}", "pass", "discard:6C,5C", "play:AH", "play:AS")
        act(state, str(state.legal_actions(0)[0]))
        assert state.last_trick is not None
        assert state.leader == taker, game


def test_a_side_suit_led_is_won_by_a_trump() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-S", "pass", "discard:6C,5C", "play:TD", "play:5S", "play:TC")
    assert state.leader == 2 and state.points_taken[2] == 25


# -- kitty ---------------------------------------------------------------------------------------


def test_declarer_takes_the_kitty_unseen_also_in_null() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    events = act(state, "pass", "bid=null", "pass")
    assert len(state.hands[2]) == 12 and set(cards(TRUMP_KITTY)) <= set(state.hands[2])
    kitty = next(e for e in events if e.kind == "kitty")
    assert kitty.private and kitty.for_seat(0).cards == () and kitty.for_seat(0).hidden == 2
    assert state.to_act == (2,) and state.view(0)["hand_counts"][2] == 12


def test_discards_are_private_and_their_points_count_for_the_declarer() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    events = act(state, "pass", "bid=40-S", "pass", "discard:TS,5S")
    discard = next(e for e in events if e.kind == "discard")
    assert discard.private and discard.for_seat(1).cards == ()
    assert state.view(2)["discards"] == ["TS", "5S"]
    assert state.view(1)["discards"] is None and state.view(None)["discards"] is None
    assert state.declarer_total() == 15


def test_random_action_draws_a_legal_discard() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-S", "pass")
    rng = random.Random(3)
    legal = state.legal_actions(2)
    for _ in range(20):
        action = state.random_action(2, rng)
        assert any(action.same_as(a) for a in legal)


def test_discard_refusals() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-S", "pass")
    for text in ("discard:TS", "discard:TS,TS", "discard:TS,AS", "discard:TS,5S,6S", "play:TS"):
        with pytest.raises(IllegalAction):
            state.apply(2, text)
    assert len(state.hands[2]) == 12
    assert len(state.legal_actions(2)) == 66


def test_the_dealers_left_leads_the_first_trick_not_the_declarer() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-S", "pass", "discard:6C,5C")
    assert state.to_act == (1,) and state.declarer == 2


# -- early end -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["S", "grand-black"])
def test_early_end_when_failure_is_certain(game: str) -> None:
    # "The deal ends ... as soon as the declarer's failure is certain", in a suit game as in a
    # Grand game. In Grand black only the honours are trumps: seat 2's spades T–5 are a side
    # suit there, so its 5S is thrown on the ace of spades rather than followed.
    state = start(EARLY_HANDS, EARLY_KITTY)
    act(state, "pass", f"bid=80-{game}", "pass", "discard:6D,5D")
    events = act(state, "play:AS", "play:5S", "play:QS")
    # taken 0 + discards 5 + 67 still in hands + heart Bond 5 = 77 < 80
    ends = [e for e in events if e.kind == "deal-ends"]
    assert ends and ends[0].arg is not None and ends[0].arg.startswith("early")
    assert state.deals_played == 1 and state.match_scores == [0, 0, -80]


def test_early_end_counts_the_bond_still_possible() -> None:
    state = start(EARLY_HANDS, EARLY_KITTY)
    act(state, "pass", "bid=75-S", "pass", "discard:6D,5D")
    act(state, "play:AS", "play:5S", "play:QS")
    # 77 ≥ 75 only thanks to the heart Bond: the deal goes on
    assert state.deals_played == 0 and state.phase == "play"


def test_early_end_no_big_bond_once_a_queen_is_lost() -> None:
    state = start(EARLY_HANDS, EARLY_KITTY)
    act(state, "pass", "bid=85-S", "pass", "discard:6D,5D")
    # with the Big Bond still counted it would be 72 + 20 = 92 ≥ 85
    act(state, "play:AS", "play:5S", "play:QS")
    assert state.deals_played == 1


def test_null_made_when_the_declarer_takes_no_trick() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=null", "pass", "discard:6C,5C")
    act(state, "play:9D", "play:QS", "play:TC")
    # nobody followed diamonds: the leader takes it, the Null goes on
    assert state.phase == "play" and state.leader == 1
    act(state, "play:AS", "play:5S", "play:TH")  # seat 1 again
    assert state.deals_played == 0
    act(state, "play:5D", "play:6S", "play:9H")
    assert state.deals_played == 0
    act(state, "play:KH", "play:QH", "play:8H")
    assert state.deals_played == 0
    act(state, "play:AH", "play:JH", "play:7H")
    assert state.deals_played == 0
    act(state, "play:KS", "play:JS", "play:6H")
    assert state.deals_played == 0
    act(state, "play:6D", "play:TS", "play:5H")
    assert state.deals_played == 0
    act(state, "play:7D", "play:9S", "play:9C")
    assert state.deals_played == 0
    act(state, "play:8D", "play:8S", "play:8C")
    assert state.deals_played == 0
    events = act(state, "play:TD", "play:7S", "play:7C")
    # all ten tricks lost: the Null is made
    assert state.deals_played == 1 and state.match_scores == [0, 0, 100]
    assert any(e.kind == "deal-ends" and e.arg == "0,0,100" for e in events)


def test_null_declarer_taking_a_trick_ends_the_deal_at_once() -> None:
    hands = {1: "5S 6S 7S 8S 9S TS 9C 8C 7C 6C",
             2: "AS AH KS KH 9H 8H 7H 6H 5H TH",
             0: "QS JS QH JH TC 5C TD 9D 8D 7D"}
    state = start(hands, "6D 5D")
    act(state, "pass", "bid=null", "pass", "discard:6D,5D")
    events = act(state, "play:5S", "play:AS", "play:QS")
    assert state.deals_played == 1 and state.match_scores == [0, 0, -100]
    assert any(e.kind == "deal-ends" and (e.arg or "").startswith("early") for e in events)


# -- scoring (Decision) --------------------------------------------------------------------------


def test_decision_score_table_is_one_table() -> None:
    assert SCORE_TABLE.null_value == 100
    assert SCORE_TABLE.contract == {
        ("declarer", True): (1, 0), ("declarer", False): (-1, 0),
        ("opponents", True): (1, 0), ("opponents", False): (0, 1),
    }


def test_decision_made_contract_scores_plus_the_bid() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "bid=100-S", "pass", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.last_result is not None and state.last_result["total"] == 100
    assert state.match_scores == [0, 100, 0]


def test_decision_big_bond_counts_toward_the_bid() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "bid=85-S", "pass", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.last_result is not None and state.last_result["made"]
    assert state.match_scores == [0, 85, 0]


def test_decision_failed_contract_scores_minus_the_bid() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "pass", "bid=60-H", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.last_result is not None and not state.last_result["made"]
    assert state.match_scores == [0, 0, -60]


def test_decision_opponents_score_nothing_in_a_contract_deal() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "pass", "bid=60-H", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.match_scores[0] == state.match_scores[1] == 0


def test_option_failed_opponents_gives_each_opponent_the_bid() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY, failed="opponents")
    act(state, "pass", "bid=60-H", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.match_scores == [60, 60, 0]


def test_option_failed_opponents_null_is_worth_100_each() -> None:
    hands = {1: "5S 6S 7S 8S 9S TS 9C 8C 7C 6C",
             2: "AS AH KS KH 9H 8H 7H 6H 5H TH",
             0: "QS JS QH JH TC 5C TD 9D 8D 7D"}
    state = start(hands, "6D 5D", failed="opponents")
    act(state, "pass", "bid=null", "pass", "discard:6D,5D", "play:5S", "play:AS", "play:QS")
    assert state.match_scores == [100, 100, 0]


def test_option_failed_opponents_made_still_pays_the_declarer() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY, failed="opponents")
    act(state, "bid=100-S", "pass", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.match_scores == [0, 100, 0]


def test_decision_slop_scores_highest_total_minus_own() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "pass", "pass", "pass")
    events = play_first_legal(state)
    taken: dict[int, list[Card]] = {0: [], 1: [], 2: []}
    for e in events:
        if e.kind == "trick":
            assert e.seat is not None
            taken[e.seat] += list(e.cards)
    totals = [card_points(taken[s]) + bond_bonus(set(taken[s])) for s in range(3)]
    assert sum(card_points(taken[s]) for s in range(3)) == 80 - card_points(
        cards(STRONG_KITTY))  # the closed kitty belongs to nobody
    expected = [max(totals) - t for t in totals]
    assert state.match_scores == expected
    assert max(expected) > 0 and min(expected) == 0


def test_slop_has_no_early_end() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "pass", "pass", "pass")
    events = play_first_legal(state)
    assert sum(1 for e in events if e.kind == "trick") == 10


# -- end of the game -----------------------------------------------------------------------------


def test_option_deals_ends_the_game_after_that_many_deals() -> None:
    for deals in (1, 2):
        state = RULES.new_game(3, seed=4, options={"deals": deals, "all_pass": "slop"})
        assert isinstance(state, BearState)
        count = 0
        while not state.over:
            play_first_legal(state)
            count += 1
        assert count == deals == state.deals_played


def test_option_target_ends_the_game_when_reached() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY, target=100)
    act(state, "bid=100-S", "pass", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.over and state.outcome is not None and state.outcome.winners == (1,)
    assert state.deals_played == 1


def test_default_game_goes_on_below_the_target() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY)
    act(state, "bid=100-S", "pass", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert not state.over and state.deal_number == 2 and state.dealer == 1


def test_equal_totals_share_the_win() -> None:
    state = start(STRONG_HANDS, STRONG_KITTY, failed="opponents", deals=1)
    act(state, "pass", "bid=60-H", "pass", "discard:5C,5D")
    play_first_legal(state)
    assert state.outcome is not None
    assert state.outcome.winners == (0, 1) and state.outcome.places == (1, 1, 3)


# -- refusals, views, determinize ----------------------------------------------------------------


def test_refusals_say_why_and_change_nothing() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    before = state.view(None)
    for seat, text in ((2, "pass"), (1, "play:AS"), (1, "pass=1"), (1, "discard:AS,AH")):
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, text)
        assert str(refused.value).endswith(".")
    assert state.view(None) == before
    act(state, "pass", "bid=40-S", "pass", "discard:6C,5C")
    with pytest.raises(IllegalAction, match="do not hold"):
        state.apply(1, "play:TH")


def test_views_hide_other_hands_and_the_kitty() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    for seat in (None, 0, 1, 2):
        data = state.view(seat).to_dict()
        text = json.dumps({k: v for k, v in data.items() if k != "hand"})
        assert "6C" not in text and "5C" not in text
        if seat is not None:
            assert data["hand"] == [str(c) for c in state.hands[seat]]


def test_determinize_keeps_own_hand_and_revealed_voids() -> None:
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    act(state, "pass", "bid=40-S", "pass", "discard:6C,5C", "play:KH", "play:5S", "play:TC")
    # seat 0 showed it holds no trump
    rng = random.Random(5)
    for _ in range(20):
        sample = state.determinize(1, rng)
        assert sample.hands[1] == state.hands[1]
        assert not any(TABLES["S"].suit_of(c) == TRUMP for c in sample.hands[0])
        assert sample.view(1) == state.view(1)


# -- computer player -----------------------------------------------------------------------------


def test_basic_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    legal = tuple(RULES.new_game(3, seed=1).legal_actions(RULES.new_game(3, seed=1).to_act[0]))
    strong = choose_bid(cards(STRONG_HANDS[1]), legal)
    assert strong.kind == "bid" and strong.arg is not None and strong.arg.endswith("-S")
    weak = choose_bid(cards("6S 7H 8H 9C 8C 7C 9D 8D TH 6C"), legal)
    assert weak.kind == "pass" or weak.arg == "null"
    assert null_hand(cards("5S 6S 5H 6H 7H 5C 6C 5D 6D 7D"))
    assert not null_hand(cards(STRONG_HANDS[1]))


def test_the_hard_level_bids_five_points_closer_to_its_estimate() -> None:
    from games.ai import get_player
    from games.ai.bear import BOLD_MARGIN, MARGIN, bold

    state = RULES.new_game(3, seed=1)
    legal = tuple(state.legal_actions(state.to_act[0]))
    hand = cards(STRONG_HANDS[1])
    assert MARGIN - BOLD_MARGIN == 5
    assert choose_bid(hand, legal).arg == "75-S"
    assert choose_bid(hand, legal, BOLD_MARGIN).arg == "80-S"
    # the search player's auction follows the bolder rule, without a search
    hard: Any = get_player("hard", "bear")
    assert hard.prior is bold and hard.prior_decides is not None
    seat = state.to_act[0]
    obs = observe(state, seat)
    assert hard.choose(obs, random.Random(1)) == bold(obs, random.Random(1))


def test_basic_discards_side_points_in_a_trump_game() -> None:
    action = choose_discard(cards("AS AH KS TC 5D 9H 8H 7H 6H 9D 8C 7C"), "S")
    assert sorted(str(c) for c in action.cards) == ["5D", "TC"]


def test_basic_smears_points_to_the_partner_of_the_moment() -> None:
    # seat 1 declares diamonds; seat 2 and seat 0 defend
    state = start({1: TRUMP_HANDS[2], 2: TRUMP_HANDS[1], 0: TRUMP_HANDS[0]}, TRUMP_KITTY)
    act(state, "bid=40-D", "pass", "pass", "discard:6C,5C", "play:5S", "play:AS")
    choice = basic(observe(state, 0), random.Random(1))
    # the other defender's ace of spades wins: throw the most points (TH or TC)
    assert choice.cards[0] in cards("TH TC")


def test_basic_always_picks_a_legal_action_through_a_match() -> None:
    state = RULES.new_game(3, seed=11, options={"deals": 2})
    rng = random.Random(2)
    while not state.over:
        seat = state.to_act[0]
        obs = observe(state, seat)
        action = basic(obs, rng)
        assert any(action.same_as(a) for a in obs.legal)
        state.apply(seat, action)


# -- words ---------------------------------------------------------------------------------------


def test_texts_in_english_and_japanese() -> None:
    assert RULES.title("ja") == "ベア"
    assert RULES.action_text(Action.parse("bid=45-S")) == "45 spades"
    assert RULES.action_text(Action.parse("bid=null"), "ja") == "ヌル"
    assert RULES.action_text(Action.parse("play:TS")) == "Play 10♠"
    assert "捨てる" in RULES.action_text(Action.parse("discard:TS,5H"), "ja")
    state = start(TRUMP_HANDS, TRUMP_KITTY)
    events = act(state, "pass", "bid=40-S", "pass", "discard:6C,5C", "play:KH")
    for lang in ("en", "ja"):
        for e in events:
            text = RULES.event_text(e.for_seat(0), lang)
            assert text
            assert "6♣" not in text
        table = RULES.view_text(state.view(0), lang)
        assert ("Declarer seat 3" in table) if lang == "en" else ("デクレアラー 席3" in table)
