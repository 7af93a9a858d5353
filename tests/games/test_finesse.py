"""Finesse: every rule point, example and option of docs/rules/finesse.md."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

import games
from games import Action, IllegalAction, State
from games.ai import observe
from games.ai.finesse import basic
from games.cards import Card, parse
from games.core import View
from games.finesse import PACK, FinesseState, deal_score, match_winner

RULES = games.get("finesse")

# A fixed deal (dealer 3, so seat 0 leads first). Seat 1 holds no spades.
HANDS = {
    0: "AS KS QS JS TS AH 3H 2D 3D 4D 2C 3C 4C",
    1: "4H 5H 6H 2H 5D 6D 7D 8D 5C 6C 7C 8C 9C",
    2: "9S 8S 7S 7H 8H 9D TD JD QD TC JC QC KC",
    3: "6S 5S 4S 9H TH AD KD AC KC QC JC 3S 2S",
}
TABLES = {0: "KD QD JD", 1: "JH QH KH", 2: "KS QS JS", 3: "JH QH KH"}


def arrange(dealer: int, hands: dict[int, str], tables: dict[int, str]) -> list[str]:
    """A first-deal deck (top card first) giving these hands and table cards; the rest filled
    from the unused cards in pack order."""
    left = Counter(str(c) for c in PACK)
    hand_lists = {s: hands.get(s, "").split() for s in range(4)}
    table_lists = {s: tables.get(s, "").split() for s in range(4)}
    for codes in [*hand_lists.values(), *table_lists.values()]:
        left.subtract(codes)
    assert all(n >= 0 for n in left.values()), "a card is used too often"
    spare = list(left.elements())
    for s in range(4):
        while len(hand_lists[s]) < 13:
            hand_lists[s].append(spare.pop(0))
    for s in range(4):
        while len(table_lists[s]) < 3:
            table_lists[s].append(spare.pop(0))
    first = (dealer + 1) % 4
    pile = [table_lists[(first + j) % 4][j // 4] for j in range(12)]
    rest = [hand_lists[(first + i) % 4][i // 4] for i in range(52)]
    return pile + rest


def fixed(dealer: int = 3, **options: object) -> FinesseState:
    """The fixed deal of HANDS and TABLES."""
    state = RULES.new_game(
        4, seed=1, options={"dealer": dealer, **options}, deck=arrange(dealer, HANDS, TABLES)
    )
    assert isinstance(state, FinesseState)
    return state


def cards(text: str) -> list[Card]:
    """Cards from codes separated by spaces."""
    return [parse(c) for c in text.split()]


def hand(state: State, seat: int) -> list[str]:
    return list(state.view(seat)["hand"])


def play(state: FinesseState, *moves: tuple[int, str]) -> None:
    for seat, move in moves:
        assert state.to_act == (seat,), f"expected seat {seat} to act, not {state.to_act}"
        state.apply(seat, move)


def first_legal_deal(state: FinesseState) -> list[games.Event]:
    """Play the rest of the current deal with each seat's first legal action."""
    events: list[games.Event] = []
    deal = state.deal_number
    while state.deal_number == deal and not state.over:
        seat = state.to_act[0]
        events.extend(state.apply(seat, state.legal_actions(seat)[0]))
    return events


# -- players and cards ------------------------------------------------------------------------
def test_exactly_four_players() -> None:
    assert (RULES.min_players, RULES.max_players) == (4, 4)
    for n in (3, 5):
        with pytest.raises(ValueError):
            RULES.new_game(n)


def test_partners_sit_opposite() -> None:
    assert RULES.teams(4, {}) == [[0, 2], [1, 3]]


def test_pack_is_64_cards_with_a_second_king_queen_jack_of_each_suit() -> None:
    counts = Counter(str(c) for c in PACK)
    assert len(PACK) == 64
    for suit in "SHDC":
        for rank in "KQJ":
            assert counts[rank + suit] == 2
        for rank in "AT98765432":
            assert counts[rank + suit] == 1


def test_identical_cards_are_one_card_object_held_as_repeated_entries() -> None:
    kings = [c for c in PACK if str(c) == "KS"]
    assert kings[0] is kings[1]
    state = RULES.new_game(4, seed=2, options={"dealer": 3},
                           deck=arrange(3, {0: "KS KS QS QS"}, {}))
    assert hand(state, 0).count("KS") == 2
    # One action per distinct card, even with two copies in hand.
    assert [str(a) for a in state.legal_actions(0)].count("play:KS") == 1


# -- deal ---------------------------------------------------------------------------------------
def test_deal_top_twelve_become_table_cards_dealt_face_up_from_the_dealers_left() -> None:
    deck = [str(c) for c in PACK]
    state = RULES.new_game(4, seed=0, options={"dealer": 1}, deck=deck)
    view = state.view(None)
    # Seat 2 is left of the dealer: the top card of the pile and then every fourth.
    assert view["table_cards"][2] == [deck[0], deck[4], deck[8]]
    assert view["table_cards"][1] == [deck[3], deck[7], deck[11]]
    expected_hand = sorted(parse(c) for c in deck[12::4])
    assert hand(state, 2) == [str(c) for c in expected_hand]
    assert view["hand_counts"] == [13, 13, 13, 13]


def test_first_trick_is_led_by_the_dealers_left() -> None:
    for dealer in range(4):
        assert fixed(dealer=dealer).to_act == ((dealer + 1) % 4,)


def test_option_dealer_sets_the_first_dealer() -> None:
    assert RULES.new_game(4, seed=9, options={"dealer": 2}).view(None)["dealer"] == 2
    seen = {RULES.new_game(4, seed=s).view(None)["dealer"] for s in range(30)}
    assert seen == {0, 1, 2, 3}


def test_dealer_rotates_clockwise_each_deal() -> None:
    state = fixed(dealer=3)
    first_legal_deal(state)
    assert state.deal_number == 2
    assert state.view(None)["dealer"] == 0
    assert state.to_act == (1,)
    first_legal_deal(state)
    assert state.view(None)["dealer"] == 1


def test_table_cards_are_public_in_every_view() -> None:
    state = fixed()
    expected = [TABLES[s].split() for s in range(4)]
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["table_cards"] == expected


def test_a_deck_that_is_not_the_pack_is_refused() -> None:
    deck = arrange(3, HANDS, TABLES)
    with pytest.raises(ValueError):
        RULES.new_game(4, deck=[*deck[:-1], "AS"])


# -- lead and trumps ----------------------------------------------------------------------------
def test_lead_from_hand_or_from_the_partners_table_cards_only() -> None:
    state = fixed()
    legal = {str(a) for a in state.legal_actions(0)}
    assert {"table:KS", "table:QS", "table:JS"} <= legal
    assert not any(a.startswith("table:") and a[6:] in ("KD", "QD", "JD", "JH", "QH", "KH")
                   for a in legal)
    with pytest.raises(IllegalAction, match="partner's table cards"):
        state.apply(0, "table:KD")  # own table card
    with pytest.raises(IllegalAction, match="partner's table cards"):
        state.apply(0, "table:JH")  # an opponent's


def test_first_lead_suit_becomes_trumps() -> None:
    state = fixed()
    assert state.view(None)["trumps"] is None
    state.apply(0, "play:3H")
    assert state.view(None)["trumps"] == "H"


def test_an_ace_led_to_the_first_trick_may_declare_no_trumps() -> None:
    state = fixed()
    assert "play=nt:AH" in [str(a) for a in state.legal_actions(0)]
    state.apply(0, "play=nt:AH")
    assert state.view(None)["trumps"] == "NT"


def test_an_ace_led_from_the_partners_table_may_declare_no_trumps() -> None:
    state = RULES.new_game(4, seed=1, options={"dealer": 3},
                           deck=arrange(3, {0: "2S"}, {2: "AD 3S 4S"}))
    assert "table=nt:AD" in [str(a) for a in state.legal_actions(0)]
    state.apply(0, "table=nt:AD")
    assert state.view(None)["trumps"] == "NT"


def test_an_ace_led_without_declaring_makes_its_suit_trumps() -> None:
    state = fixed()
    state.apply(0, "play:AH")
    assert state.view(None)["trumps"] == "H"


def test_no_trumps_only_with_an_ace() -> None:
    state = fixed()
    assert "play=nt:3H" not in [str(a) for a in state.legal_actions(0)]
    with pytest.raises(IllegalAction, match="ace"):
        state.apply(0, "play=nt:3H")


def test_later_leads_never_change_trumps_nor_declare_no_trumps() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    assert state.to_act == (0,)
    assert not any(a.arg == "nt" for a in state.legal_actions(0))
    with pytest.raises(IllegalAction, match="first lead"):
        state.apply(0, "play=nt:AS")
    state.apply(0, "play:AS")
    assert state.view(None)["trumps"] == "H"


# -- who follows --------------------------------------------------------------------------------
def test_after_a_hand_lead_the_others_follow_clockwise_from_the_leaders_left() -> None:
    state = fixed()
    order = []
    state.apply(0, "play:AH")
    while state.view(None)["trick"]:
        seat = state.to_act[0]
        order.append(seat)
        state.apply(seat, state.legal_actions(seat)[0])
    assert order == [1, 2, 3]


def test_after_a_table_lead_the_partner_skips_and_the_leader_plays_third() -> None:
    state = fixed()
    state.apply(0, "table:KS")
    trick = state.view(None)["trick"]
    assert trick == [{"seat": 2, "card": "KS", "from_table": True}]
    order = []
    while state.view(None)["trick"]:
        seat = state.to_act[0]
        order.append(seat)
        state.apply(seat, state.legal_actions(seat)[0])
    assert order == [3, 0, 1]


def test_followers_play_from_hand_only() -> None:
    state = fixed()
    state.apply(0, "table:KS")
    assert all(a.kind == "play" for a in state.legal_actions(3))
    with pytest.raises(IllegalAction, match="hand only"):
        state.apply(3, "table:KH")


def test_followers_must_follow_the_led_suit() -> None:
    state = fixed()
    state.apply(0, "play:2D")
    assert {str(a) for a in state.legal_actions(1)} == {
        "play:5D", "play:6D", "play:7D", "play:8D"}
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(1, "play:5C")


def test_a_follower_who_cannot_follow_may_play_any_card() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    state.apply(0, "play:AS")
    assert len(state.legal_actions(1)) == len(set(hand(state, 1)))


# -- winner -------------------------------------------------------------------------------------
def test_the_highest_trump_wins() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "play:AS"), (1, "play:4H"), (2, "play:9S"), (3, "play:6S"))
    assert state.view(None)["tricks_won"] == [1, 1, 0, 0]
    assert state.to_act == (1,)


def test_without_a_trump_the_highest_card_of_the_led_suit_wins() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "play:2D"), (1, "play:8D"), (2, "play:QD"), (3, "play:AD"))
    assert state.view(None)["tricks_won"] == [1, 0, 0, 1]


def test_in_no_trumps_a_card_off_the_led_suit_cannot_win() -> None:
    state = fixed()
    play(state, (0, "play=nt:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    # Seat 1 has no spades; its heart is no trump in a no-trump deal.
    play(state, (0, "play:TS"), (1, "play:6H"), (2, "play:9S"), (3, "play:6S"))
    assert state.view(None)["tricks_won"] == [2, 0, 0, 0]


def test_of_two_identical_cards_the_earlier_played_wins() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "play:2C"), (1, "play:9C"), (2, "play:QC"), (3, "play:QC"))
    assert state.view(None)["tricks_won"] == [1, 0, 1, 0]


def test_a_winning_table_card_wins_for_the_player_it_lay_in_front_of() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    # Seat 0 leads seat 2's KS; its own KS, played later, is the lower of the two.
    play(state, (0, "table:KS"), (3, "play:6S"), (0, "play:KS"), (1, "play:5D"))
    assert state.view(None)["tricks_won"] == [1, 0, 1, 0]
    assert state.view(None)["last_trick"][0] == {"seat": 2, "card": "KS", "from_table": True}


# -- refill -------------------------------------------------------------------------------------
def test_the_owner_of_a_led_table_card_refills_next_then_the_winner_leads() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "table:JS"), (3, "play:6S"), (0, "play:AS"), (1, "play:5D"))
    assert state.to_act == (2,)
    assert state.view(None)["phase"] == "refill"
    assert {a.kind for a in state.legal_actions(2)} == {"refill"}
    state.apply(2, "refill:9D")
    view = state.view(None)
    assert view["table_cards"][2] == ["KS", "QS", "9D"]
    assert view["hand_counts"] == [11, 11, 11, 11]
    assert state.to_act == (0,)


def test_a_refill_must_come_from_the_owners_hand() -> None:
    state = fixed()
    play(state, (0, "table:JS"), (3, "play:6S"), (0, "play:AS"), (1, "play:5D"))
    with pytest.raises(IllegalAction, match="do not hold"):
        state.apply(2, "refill:AD")
    with pytest.raises(IllegalAction, match="refill"):
        state.apply(2, "play:9D")


def test_only_after_a_table_lead_is_there_a_refill() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    assert state.view(None)["phase"] == "play"
    with pytest.raises(IllegalAction, match="refill only"):
        state.apply(0, "refill:3H")


# -- thirteen tricks, dregs and the deal score --------------------------------------------------
TRICK_TABLE = {7: 2, 8: 5, 9: 10, 10: 20, 11: 10, 12: 5, 13: 2}


def test_thirteen_tricks_empty_the_hands_and_leave_three_dregs_each() -> None:
    state = fixed()
    events = first_legal_deal(state)
    tricks = [e for e in events if e.kind == "trick"]
    assert len(tricks) == 13
    dregs = state.view(None)["last_deal"]["dregs"]
    assert [len(d) for d in dregs] == [3, 3, 3, 3]


@pytest.mark.parametrize("first_lead", ["play:3H", "play=nt:AH", "table:KS"])
def test_a_whole_deal_scores_by_the_table(first_lead: str) -> None:
    state = fixed()
    events = state.apply(0, first_lead)
    events += first_legal_deal(state)
    trumps = next(e.arg for e in events if e.kind == "trumps")
    tricks = [e for e in events if e.kind == "trick"]
    taken = [0, 0]
    for e in tricks:
        taken[(e.seat or 0) % 2] += 1
    last_team = (tricks[-1].seat or 0) % 2
    dregs = state.view(None)["last_deal"]["dregs"]
    for team in (0, 1):
        cards = [parse(c) for c in dregs[team] + dregs[team + 2]]
        if trumps == "NT":
            costly = sum(1 for c in cards if c.rank >= 11)
        else:
            costly = sum(1 for c in cards if c.suit == trumps)
        points = (4 if last_team == team else 0) + TRICK_TABLE.get(taken[team], 0) - 3 * costly
        assert state.view(None)["team_scores"][team] == max(0, points)


def test_trick_points_table() -> None:
    for taken in range(14):
        assert deal_score(False, taken, [], "S") == TRICK_TABLE.get(taken, 0)


def test_winning_the_last_trick_scores_four() -> None:
    assert deal_score(True, 3, [], "S") == 4
    assert deal_score(True, 10, [], "S") == 24


def test_example_last_trick_nine_tricks_two_dreg_trumps_score_eight() -> None:
    dregs = cards("2H 9H 3S 4D 5C 7S")
    assert deal_score(True, 9, dregs, "H") == 4 + 10 - 6 == 8


def test_example_eight_tricks_two_dreg_trumps_score_zero_not_minus_one() -> None:
    dregs = cards("2H 9H 3S 4D 5C 7S")
    assert deal_score(False, 8, dregs, "H") == 0


def test_each_trump_in_the_partnerships_dregs_costs_three() -> None:
    dregs = cards("2H 9S 3S 4D 5C 7S")
    assert deal_score(True, 10, dregs, "S") == 24 - 9
    assert deal_score(True, 10, dregs, "C") == 24 - 3


def test_in_no_trumps_every_ace_king_queen_jack_in_the_dregs_counts() -> None:
    dregs = cards("AH KS QD JC TS 2H")
    assert deal_score(True, 10, dregs, "NT") == 24 - 12


def test_a_deal_score_never_goes_below_zero() -> None:
    dregs = cards("2S 3S 4S 5S 6S 7S")
    assert deal_score(False, 5, dregs, "S") == 0


def test_scores_in_views_are_the_team_score_on_both_partners_seats() -> None:
    state = fixed()
    first_legal_deal(state)
    a, b = state.view(None)["team_scores"]
    assert a + b > 0
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["scores"] == [a, b, a, b]


# -- end of the game ----------------------------------------------------------------------------
def test_end_42_or_more_with_a_lead_of_five_wins() -> None:
    assert match_winner([42, 37], 42, 60) == 0
    assert match_winner([30, 45], 42, 60) == 1


def test_end_a_lead_under_five_plays_on() -> None:
    assert match_winner([44, 40], 42, 60) is None
    assert match_winner([41, 20], 42, 60) is None


def test_end_reaching_the_cap_first_wins_even_by_a_small_lead() -> None:
    assert match_winner([60, 58], 42, 60) == 0


def test_end_both_reaching_the_cap_in_one_deal_the_higher_wins() -> None:
    assert match_winner([61, 63], 42, 60) == 1


def test_end_equal_at_the_cap_plays_on_until_one_leads() -> None:
    assert match_winner([62, 62], 42, 60) is None
    assert match_winner([62, 64], 42, 60) == 1


def _play_match(options: dict[str, object], seed: int) -> FinesseState:
    state = RULES.new_game(4, seed=seed, options=options)
    assert isinstance(state, FinesseState)
    rng = random.Random(seed)
    while not state.over:
        seat = state.to_act[0]
        state.apply(seat, basic(observe(state, seat), rng))
    return state


def _totals_after_each_deal(history: list[tuple[int, int]]) -> list[list[int]]:
    totals, found = [0, 0], []
    for a, b in history:
        totals = [totals[0] + a, totals[1] + b]
        found.append(list(totals))
    return found


def test_option_target_ends_the_match_at_that_score_with_a_lead_of_five() -> None:
    for seed in range(3):
        state = _play_match({"target": 5, "cap": 1000}, seed)
        after = _totals_after_each_deal(state.history)
        final = after[-1]
        winner = state.outcome.winners[0] % 2 if state.outcome else -1
        assert final[winner] >= 5 and final[winner] - final[1 - winner] >= 5
        for totals in after[:-1]:
            assert not (max(totals) >= 5 and abs(totals[0] - totals[1]) >= 5)


def test_option_cap_ends_the_match_for_the_first_to_reach_it() -> None:
    for seed in range(3):
        state = _play_match({"target": 500, "cap": 8}, seed)
        final = _totals_after_each_deal(state.history)[-1]
        winner = state.outcome.winners[0] % 2 if state.outcome else -1
        assert final[winner] >= 8 and final[winner] > final[1 - winner]
        assert state.outcome is not None
        assert state.outcome.places == tuple(1 if s % 2 == winner else 2 for s in range(4))


def test_default_match_runs_to_42() -> None:
    state = _play_match({}, 4)
    final = _totals_after_each_deal(state.history)[-1]
    assert max(final) >= 42 or max(final) >= 60


# -- views, determinize, refusals ---------------------------------------------------------------
def test_views_never_show_another_seats_hand() -> None:
    state = fixed()
    view = state.view(1).to_dict()
    assert view["hand"] == sorted(HANDS[1].split(), key=lambda c: int(parse(c)))
    assert "AS" not in str({k: v for k, v in view.items() if k != "options"})
    assert state.view(None)["hand"] == []


def test_determinize_keeps_table_cards_refills_and_shown_voids() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "table:JS"), (3, "play:6S"), (0, "play:AS"), (1, "play:5D"))
    state.apply(2, "refill:9D")
    # Seat 1 showed no spade when spades were led.
    rng = random.Random(5)
    moved = False
    for _ in range(20):
        sample = state.determinize(0, rng)
        assert sample.view(0) == state.view(0)
        assert sample.view(0)["table_cards"][2] == ["KS", "QS", "9D"]
        assert not any(parse(c).suit == "S" for c in sample.view(1)["hand"])
        moved |= sample.view(3)["hand"] != state.view(3)["hand"]
    assert moved


def test_refused_moves_say_why_and_change_nothing() -> None:
    state = fixed()
    before = state.view(None)
    for seat, move in [(1, "play:4H"), (0, "play:9S"), (0, "pass"), (0, "play:AS,KS"),
                       (0, "play=x:AS"), (0, "refill:AS")]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, move)
        assert str(refused.value).endswith((".", ")."))
    assert state.view(None) == before
    with pytest.raises(IllegalAction):
        state.apply(0, "play:ZZ")


def test_clone_is_independent() -> None:
    state = fixed()
    copy = state.clone()
    copy.apply(0, "play:AH")
    assert state.view(None)["trumps"] is None
    assert hand(state, 0) == sorted(HANDS[0].split(), key=lambda c: int(parse(c)))


def test_same_seed_same_match() -> None:
    a = RULES.new_game(4, seed=11)
    b = RULES.new_game(4, seed=11)
    rng_a, rng_b = random.Random(3), random.Random(3)
    for _ in range(80):
        sa, sb = a.to_act[0], b.to_act[0]
        assert a.apply(sa, a.random_action(sa, rng_a)) == b.apply(sb, b.random_action(sb, rng_b))
    assert a.view(None) == b.view(None)


# -- words --------------------------------------------------------------------------------------
def test_action_text_in_both_languages() -> None:
    assert RULES.action_text(Action.parse("play:TS")) == "Play 10♠"
    assert RULES.action_text(Action.parse("table=nt:AD")) == (
        "Lead A♦ from partner's table, no trumps")
    assert RULES.action_text(Action.parse("refill:2C")) == "Refill with 2♣"
    assert RULES.action_text(Action.parse("play=nt:AH"), "ja") == "A♥を出す(切り札なし宣言)"
    assert "テーブルカード" in RULES.action_text(Action.parse("table:KS"), "ja")
    assert "補充" in RULES.action_text(Action.parse("refill:2C"), "ja")


def test_event_text_for_every_public_event_in_both_languages() -> None:
    state = fixed()
    events = state.apply(0, "table:KS") + first_legal_deal(state)
    kinds = set()
    for event in events:
        public = event.for_seat(None)
        for lang in ("en", "ja"):
            text = RULES.event_text(public, lang)
            if event.kind == "hand":
                assert text is None
            else:
                assert text
        kinds.add(event.kind)
    assert {"lead_table", "play", "trick", "refill", "deal_score", "deal", "trumps"} <= kinds


def test_view_text_shows_the_table_in_both_languages() -> None:
    state = fixed()
    state.apply(0, "play:AH")
    english = RULES.view_text(state.view(1))
    assert "Trumps: hearts" in english and "K♠ Q♠ J♠" in english and "Your hand" in english
    japanese = RULES.view_text(state.view(1), "ja")
    assert "切り札:ハート" in japanese and "手札" in japanese


def test_summaries_and_names() -> None:
    assert RULES.name == "Finesse" and RULES.title("ja") == "フィネス"
    assert "table" in RULES.summary_en and "テーブルカード" in RULES.summary("ja")


# -- the basic player ---------------------------------------------------------------------------
def test_basic_player_does_not_overtake_its_partners_winning_card() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "table:KS"), (3, "play:6S"))
    move = basic(observe(state, 0), random.Random(0))
    assert move.kind == "play" and str(move.cards[0]) != "AS"
    assert parse(str(move.cards[0])).suit == "S"


def test_basic_player_wins_as_cheaply_as_it_can() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "play:2D"), (1, "play:8D"))
    assert str(basic(observe(state, 2), random.Random(0))) == "play:9D"


def test_basic_player_refills_with_a_card_that_is_not_a_trump() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    play(state, (0, "table:JS"), (3, "play:6S"), (0, "play:AS"), (1, "play:5D"))
    move = basic(observe(state, 2), random.Random(0))
    assert move.kind == "refill" and move.cards[0].suit != "H"


def test_basic_player_stops_taking_tricks_at_ten() -> None:
    state = fixed()
    play(state, (0, "play:AH"), (1, "play:2H"), (2, "play:7H"), (3, "play:9H"))
    state.apply(0, "play:AS")
    obs = observe(state, 1)
    # Void in spades, seat 1 ruffs to win the trick...
    assert basic(obs, random.Random(0)).cards[0].suit == "H"
    # ...but with ten tricks already, it throws a card that loses.
    data = obs.view.to_dict()
    data["team_tricks"] = [0, 10]
    full = dataclasses.replace(obs, view=View(data))
    assert basic(full, random.Random(0)).cards[0].suit != "H"


def test_basic_player_always_moves_legally_and_beats_random_play() -> None:
    points = [0, 0]
    for seed in range(12):
        state = RULES.new_game(4, seed=seed, options={"dealer": seed % 4})
        rng = random.Random(seed)
        while state.deal_number == 1:
            seat = state.to_act[0]
            if seat % 2 == 0:
                obs = observe(state, seat)
                move = basic(obs, rng)
                assert move in obs.legal
            else:
                move = rng.choice(state.legal_actions(seat))
            state.apply(seat, move)
        assert isinstance(state, FinesseState)
        points[0] += state.history[-1][0]
        points[1] += state.history[-1][1]
    assert points[0] > points[1]
