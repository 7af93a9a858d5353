"""Getaway (Bhabhi): every example and Decision of docs/rules/bhabhi.md, and every option."""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from games import Action, Event, IllegalAction, ai
from games.ai import observe
from games.ai.analysis import analyse
from games.ai.bhabhi import basic
from games.bhabhi import RULES, BhabhiState
from games.cards import parse, parse_many, standard_deck


def deck_for(players: int, dealer: int, wanted: dict[int, str]) -> list[str]:
    """A deck (top first) dealing ``wanted`` cards to those seats, the rest filled in order."""
    sizes = {(dealer + i) % players: len(range(i, 52, players)) for i in range(players)}
    hands = {s: parse_many(wanted.get(s, "")) for s in range(players)}
    used = {c for h in hands.values() for c in h}
    rest = [c for c in standard_deck() if c not in used]
    for s in range(players):
        while len(hands[s]) < sizes[s]:
            hands[s].append(rest.pop(0))
        assert len(hands[s]) == sizes[s]
    order: list[str] = []
    for i in range(52):
        order.append(str(hands[(dealer + i) % players].pop(0)))
    return order


def game(players: int = 4, dealer: int = 0, wanted: dict[int, str] | None = None,
         **opts: Any) -> BhabhiState:
    """A new game with a chosen first deal."""
    state = RULES.new_game(players, seed=1, options={"dealer": dealer, **opts},
                           deck=deck_for(players, dealer, wanted or {}))
    assert isinstance(state, BhabhiState)
    return state


def position(players: int, hands: dict[int, str], leader: int,
             discards: str | None = None, **opts: Any) -> BhabhiState:
    """A mid-game position (round 2 or later): seats not named are already safe."""
    state = RULES.new_game(players, seed=3, options=opts)
    assert isinstance(state, BhabhiState)
    state.hands = [sorted(parse_many(hands.get(s, ""))) for s in range(players)]
    state.live = [bool(h) for h in state.hands]
    state.safe_at = [-1 if live else 0 for live in state.live]
    state.steps = 0 if all(state.live) else 1
    state.known = [[] for _ in range(players)]
    held = {c for h in state.hands for c in h}
    rest = [c for c in standard_deck() if c not in held]
    if discards is None:
        state.discards, state.out = rest, []
    else:
        chosen = parse_many(discards)
        state.discards = chosen
        state.out = [c for c in rest if c not in chosen]
    state.round_no = 2
    state.leader = state.turn = leader
    return state


def kinds(events: list[games.Event]) -> list[str]:
    return [e.kind for e in events]


def suit(ranks: str, letter: str) -> list[str]:
    return [r + letter for r in ranks]


def codes(text: str) -> list[str]:
    return text.split()


def two_player_game(hands: tuple[list[str], list[str]], seed: int = 1,
                    **opts: object) -> BhabhiState:
    """Two players, seat 0 dealing: the deck alternates between the two hands."""
    deck = [card for pair in zip(*hands, strict=True) for card in pair]
    state = RULES.new_game(2, seed=seed, options={"dealer": 0, **opts}, deck=deck)
    assert isinstance(state, BhabhiState)
    return state


def rounds(state: BhabhiState, pairs: list[tuple[str, str]]) -> list[Event]:
    """Seat 0 leads and seat 1 plays, round after round; the events of the last round."""
    events: list[Event] = []
    for lead, reply in pairs:
        state.apply(0, f"play:{lead}")
        events = state.apply(1, f"play:{reply}")
    return events


# Seat 0 wins every followed round and picks up twice (2S with 2H, 2C with 2D) when seat 1 is
# out of the led suit; at the end it leads 3D and seat 1 beats it with KD, its last card.
# Seat 0 is left with the four twos; 46 cards lie in the discards to be turned.
TWOS = (codes("AS KS QS JS TS 9S 2S AH KH QH JH TH 9H AC KC QC JC TC 9C 2C AD QD JD TD 9D 3D"),
        codes("3S 4S 5S 6S 7S 8S 2H 3H 4H 5H 6H 7H 8H 3C 4C 5C 6C 7C 8C 4D 5D 6D 7D 8D 2D KD"))
TWOS_PLAY = [*zip(suit("AKQJT9", "S"), suit("345678", "S"), strict=True), ("2S", "2H"),
             *zip(suit("AKQJT9", "H"), suit("345678", "H"), strict=True),
             *zip(suit("AKQJT9", "C"), suit("345678", "C"), strict=True), ("2C", "2D"),
             *zip(suit("AQJT9", "D"), suit("45678", "D"), strict=True), ("3D", "KD")]


def follow_the_turned_cards(state: BhabhiState) -> int:
    """Seat 0 follows each turned card from hand while it can; how many it played."""
    played = 0
    while not state.over:
        turned = state.table_cards[0]
        mine = [c for c in state.hands[0] if c.suit == turned.suit]
        assert mine, "seed chosen so that seat 0 can always follow"
        state.apply(0, Action("play", None, (mine[0],)))
        played += 1
    return played


def shuffled_game(seed: int, **opts: object) -> BhabhiState:
    """Three players on a deck stacked by shuffling the pack with ``seed``."""
    deck = [str(c) for c in standard_deck()]
    random.Random(seed).shuffle(deck)
    state = RULES.new_game(3, seed=1, options={"dealer": 0, **opts}, deck=deck)
    assert isinstance(state, BhabhiState)
    return state


# -- players, cards and the deal ---------------------------------------------------------------

def test_name_and_player_counts() -> None:
    assert RULES.name == "Getaway (Bhabhi)"
    assert games.get("bhabhi") is RULES
    assert (RULES.min_players, RULES.max_players) == (2, 7)
    with pytest.raises(ValueError):
        RULES.new_game(8)
    with pytest.raises(ValueError):
        RULES.new_game(1)


def test_deal_whole_deck_one_at_a_time_starting_with_the_dealer() -> None:
    deck = [str(c) for c in standard_deck()]
    state = RULES.new_game(4, seed=0, options={"dealer": 2}, deck=deck)
    assert isinstance(state, BhabhiState)
    for i, code in enumerate(deck):
        assert parse(code) in state.hands[(2 + i) % 4]
    assert sum(len(h) for h in state.hands) == 52


def test_example_five_players_dealer_and_left_hold_eleven() -> None:
    state = RULES.new_game(5, seed=4, options={"dealer": 3})
    assert isinstance(state, BhabhiState)
    assert [len(h) for h in state.hands] == [10, 10, 10, 11, 11]


def test_option_dealer_chooses_who_is_dealt_first() -> None:
    deck = [str(c) for c in standard_deck()]
    first = RULES.new_game(3, seed=0, options={"dealer": 1}, deck=deck)
    assert isinstance(first, BhabhiState)
    assert first.dealer == 1 and parse(deck[0]) in first.hands[1]
    assert first.view(None)["dealer"] == 1
    assert [len(h) for h in first.hands] == [17, 18, 17]


# -- rounds ----------------------------------------------------------------------------------

def test_ace_of_spades_holder_leads_it_first() -> None:
    state = game(wanted={2: "AS"})
    assert state.to_act == (2,)
    assert [str(a) for a in state.legal_actions(2)] == ["play:AS"]
    other = next(c for c in state.hands[2] if c != parse("AS"))
    with pytest.raises(IllegalAction, match="ace of spades"):
        state.apply(2, f"play:{other}")
    with pytest.raises(IllegalAction, match="not your turn"):
        state.apply(1, f"play:{state.hands[1][0]}")
    state.apply(2, "play:AS")
    assert state.to_act == (3,)


def test_players_must_follow_suit() -> None:
    state = game(wanted={0: "AS", 1: "2S 2H"})
    state.apply(0, "play:AS")
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(1, "play:2H")
    assert all(str(a).endswith("S") for a in state.legal_actions(1))
    state.apply(1, "play:2S")


def test_example_second_player_fails_round_ends_with_two_cards_on_the_table() -> None:
    hearts = " ".join(f"{r}H" for r in "23456789TJQKA")
    state = game(wanted={0: "AS", 1: hearts})
    state.apply(0, "play:AS")
    events = state.apply(1, "play:2H")
    assert kinds(events) == ["play", "fail", "pick_up"]
    # Seats 2 and 3 never played; seat 0 took both cards and leads again.
    assert len(state.hands[2]) == 13 and len(state.hands[3]) == 13
    assert parse("AS") in state.hands[0] and parse("2H") in state.hands[0]
    assert state.to_act == (0,)
    for seat in (None, 0, 1, 2, 3):
        assert state.view(seat)["known"][0] == ["AS", "2H"]


def test_example_ace_then_failure_after_two_cards_leader_takes_both() -> None:
    clubs = " ".join(f"{r}C" for r in "23456789TJQKA")
    state = game(wanted={0: "AS", 1: clubs})
    state.apply(0, "play:AS")
    state.apply(1, "play:8C")
    assert sorted(state.hands[0]).count(parse("8C")) == 1
    assert len(state.hands[0]) == 14
    assert state.view(None)["last_taker"] == 0


def test_example_ace_queen_then_failure_leader_takes_three() -> None:
    diamonds = " ".join(f"{r}D" for r in "23456789TJQKA")
    state = game(wanted={0: "AS", 1: "QS", 2: diamonds})
    state.apply(0, "play:AS")
    state.apply(1, "play:QS")
    events = state.apply(2, "play:8D")
    assert events[-1].kind == "pick_up" and events[-1].seat == 0
    assert set(events[-1].cards) == set(parse_many("AS QS 8D"))
    assert len(state.hands[0]) == 15 and len(state.hands[3]) == 13


def test_everyone_followed_cards_are_discarded_and_highest_leads() -> None:
    state = position(4, {0: "5H 2C", 1: "KH 3C", 2: "2H 4C", 3: "3H 5C"}, leader=0,
                     discards="")
    for seat, card in ((0, "5H"), (1, "KH"), (2, "2H"), (3, "3H")):
        events = state.apply(seat, f"play:{card}")
    assert events[-1].kind == "discard" and events[-1].seat == 1
    assert sorted(state.discards) == sorted(parse_many("5H KH 2H 3H"))
    assert state.to_act == (1,)
    assert state.view(None)["discarded"] == 4
    assert state.view(None)["known"] == [[], [], [], []]


def test_safe_players_leave_and_a_safe_taker_passes_the_lead_left() -> None:
    state = position(3, {0: "AH", 1: "KH 2C", 2: "2H 3C"}, leader=0)
    state.apply(0, "play:AH")
    state.apply(1, "play:KH")
    events = state.apply(2, "play:2H")
    assert ("safe", 0) in [(e.kind, e.seat) for e in events]
    assert events[-1].kind == "lead" and events[-1].seat == 1
    assert state.live == [False, True, True]
    assert state.to_act == (1,)
    assert state.legal_actions(0) == []


def test_leaderboard_places_follow_the_order_of_going_safe() -> None:
    state = position(4, {0: "AH", 1: "2H", 2: "3H 5C", 3: "4H 6C 7C"}, leader=0)
    for seat, card in ((0, "AH"), (1, "2H"), (2, "3H"), (3, "4H")):
        state.apply(seat, f"play:{card}")
    assert state.to_act == (2,)
    state.apply(2, "play:5C")
    events = state.apply(3, "play:6C")
    assert state.over
    assert events[-1].kind == "last" and events[-1].seat == 3
    assert state.outcome is not None
    assert state.outcome.places == (1, 1, 3, 4)
    assert state.outcome.winners == (0, 1)
    assert state.view(None)["loser"] == 3
    assert "Seat 4: the last player" in RULES.view_text(state.view(None), "en")
    assert "最後のプレイヤー" in RULES.view_text(state.view(0), "ja")


def test_decision_everyone_running_out_together_is_a_draw() -> None:
    state = position(4, {0: "AH", 1: "2H", 2: "3H"}, leader=0)
    state.apply(0, "play:AH")
    state.apply(1, "play:2H")
    events = state.apply(2, "play:3H")
    assert events[-1].kind == "draw_game"
    assert state.over and state.outcome is not None
    # Seat 3 was safe before; the other three share the next place and nobody is last.
    assert state.outcome.places == (2, 2, 2, 1)
    assert state.view(None)["loser"] is None


def test_last_player_message_never_says_bhabhi() -> None:
    event = games.Event("last", 2)
    text = RULES.event_text(event, "en")
    assert text is not None and "the last player" in text and "Bhabhi" not in text
    assert RULES.event_text(event, "ja")


def test_determinize_keeps_picked_up_cards_and_voids() -> None:
    hearts = " ".join(f"{r}H" for r in "23456789TJQKA")
    state = game(wanted={0: "AS", 1: hearts})
    state.apply(0, "play:AS")
    state.apply(1, "play:2H")
    rng = random.Random(5)
    for _ in range(20):
        for seat in (None, 2):
            sample = state.determinize(seat, rng)
            assert parse("AS") in sample.hands[0] and parse("2H") in sample.hands[0]
            assert not any(c.suit == "S" for c in sample.hands[1])
            assert sample.view(seat) == state.view(seat)


# -- options ---------------------------------------------------------------------------------

def test_option_first_round_full_everyone_plays_and_all_is_discarded() -> None:
    hearts = " ".join(f"{r}H" for r in "23456789TJQKA")
    wanted = {0: "AS", 1: hearts, 2: "KS", 3: "QS"}
    state = game(wanted=wanted, first_round_full=True)
    state.apply(0, "play:AS")
    assert kinds(state.apply(1, "play:2H")) == ["play"]
    assert state.to_act == (2,)
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(2, f"play:{next(c for c in state.hands[2] if c.suit != 'S')}")
    state.apply(2, "play:KS")
    events = state.apply(3, "play:QS")
    assert events[-1].kind == "discard"
    assert len(state.discards) == 4 and len(state.hands[0]) == 12
    assert state.to_act == (0,)
    # Without the option the failure ends the first round at once.
    plain = game(wanted=wanted)
    plain.apply(0, "play:AS")
    assert kinds(plain.apply(1, "play:2H")) == ["play", "fail", "pick_up"]


def test_option_take_hand_left_offers_takes_to_players_not_to_act() -> None:
    state = game(wanted={0: "AS"}, take_hand="left")
    assert state.to_act == (0,)
    assert [str(a) for a in state.legal_actions(2) if a.kind == "take"] == ["take=3"]
    with pytest.raises(IllegalAction, match="left"):
        state.apply(2, "take=0")
    events = state.apply(2, "take=3")
    assert kinds(events)[:2] == ["take", "safe"]
    assert len(state.hands[2]) == 26 and not state.live[3]
    assert state.view(3)["known"][2], "the player who gave the hand knows where it went"
    assert state.view(1)["known"][2] == []
    # Take again from the new left neighbour: seat 0, who held AS, so seat 2 leads it now.
    events = state.apply(2, "take=0")
    assert state.to_act == (2,) and events[-1].kind == "lead"
    assert [str(a) for a in state.legal_actions(2) if a.kind == "play"] == ["play:AS"]
    state.apply(2, "play:AS")
    with pytest.raises(IllegalAction, match="between rounds"):
        state.apply(1, "take=2")
    assert not [a for a in state.legal_actions(1) if a.kind == "take"]
    assert state.outcome is None
    plain = game(wanted={0: "AS"})
    with pytest.raises(IllegalAction, match="not part"):
        plain.apply(2, "take=3")


def test_option_take_hand_any_and_a_taken_leader_passes_the_lead() -> None:
    state = position(4, {0: "2H 3H", 1: "4H 5H", 2: "6H 7H", 3: "8H 9H"}, leader=1,
                     take_hand="any")
    assert [str(a) for a in state.legal_actions(0) if a.kind == "take"] == [
        "take=1", "take=2", "take=3"]
    events = state.apply(3, "take=1")
    assert state.to_act == (2,) and events[-1].kind == "lead"
    assert state.outcome is None and state.safe_at[1] == 0 and not state.live[1]
    rng = random.Random(2)
    for _ in range(10):
        sample = state.determinize(1, rng)
        assert {parse("4H"), parse("5H")} <= set(sample.hands[3])


def test_option_take_hand_last_two_taker_becomes_the_last_player() -> None:
    state = position(3, {0: "2H 3H", 1: "4H"}, leader=0, take_hand="left")
    events = state.apply(0, "take=1")
    assert state.over and events[-1].kind == "last" and events[-1].seat == 0


def test_option_interject_play_picks_up_everything() -> None:
    hands = {0: "5H 2D", 1: "2C 3C", 2: "3H AD", 3: "AH 4D"}
    state = position(4, hands, leader=0, interject=True)
    state.apply(0, "play:5H")
    events = state.apply(1, "play:2C")
    assert kinds(events) == ["play", "fail"]
    assert state.to_act == (2,)
    assert [str(a) for a in state.legal_actions(2)] == ["play:3H", "decline"]
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(2, "play:AD")
    events = state.apply(2, "play:3H")
    assert events[0].kind == "interject" and events[-1].kind == "pick_up"
    assert events[-1].seat == 2 and len(state.hands[2]) == 4
    assert state.to_act == (2,)


def test_option_interject_decline_resolves_as_usual() -> None:
    hands = {0: "5H 2D", 1: "2C 3C", 2: "3H AD", 3: "AH 4D"}
    state = position(4, hands, leader=0, interject=True)
    state.apply(0, "play:5H")
    state.apply(1, "play:2C")
    events = state.apply(2, "decline")
    assert events[-1].kind == "pick_up" and events[-1].seat == 0
    plain = position(4, hands, leader=0)
    plain.apply(0, "play:5H")
    assert plain.apply(1, "play:2C")[-1].kind == "pick_up"
    with pytest.raises(IllegalAction):
        plain.apply(2, "decline")


def test_option_shootout_turned_card_lower_follower_is_last() -> None:
    state = position(3, {0: "AH", 1: "5H 9C 4D"}, leader=0, discards="3C", shootout=True)
    state.apply(0, "play:AH")
    events = state.apply(1, "play:5H")
    assert "shootout" in kinds(events)
    assert state.to_act == (1,) and state.view(1)["phase"] == "shootout"
    assert state.view(None)["trick"] == [{"seat": 0, "card": "3C"}]
    assert [str(a) for a in state.legal_actions(1)] == ["play:9C"]
    events = state.apply(1, "play:9C")
    assert state.over and events[-1].kind == "last" and events[-1].seat == 1
    assert state.outcome is not None and state.outcome.places == (2, 3, 1)


def test_option_shootout_follower_who_cannot_follow_makes_the_shooter_last() -> None:
    state = position(3, {0: "AH", 1: "5H 9C 4D"}, leader=0, discards="3S", shootout=True)
    state.apply(0, "play:AH")
    state.apply(1, "play:5H")
    events = state.apply(1, "play:4D")
    assert state.over and events[-1].kind == "last" and events[-1].seat == 0


def test_option_shootout_higher_turned_card_goes_out_and_another_is_turned() -> None:
    state = position(3, {0: "AH", 1: "5H 2C 3D 9S"}, leader=0, discards="KC QD",
                     shootout=True)
    state.apply(0, "play:AH")
    state.apply(1, "play:5H")
    turned = parse(state.view(None)["trick"][0]["card"])
    mine = parse("2C") if turned.suit == "C" else parse("3D")
    events = state.apply(1, f"play:{mine}")
    assert "out_of_play" in kinds(events) and not state.over
    assert {turned, mine} <= set(state.out)
    second = parse(state.view(None)["trick"][0]["card"])
    assert second != turned and second in parse_many("KC QD")
    reply = parse("2C") if second.suit == "C" else parse("3D")
    events = state.apply(1, f"play:{reply}")
    # Nothing is left to turn: the shooter stays safe and the follower is the last player.
    assert state.over and events[-1].kind == "last" and events[-1].seat == 1


def test_without_shootout_a_winning_last_card_is_simply_safe() -> None:
    state = position(3, {0: "AH", 1: "5H 9C 4D"}, leader=0, discards="3C")
    state.apply(0, "play:AH")
    events = state.apply(1, "play:5H")
    assert state.over and events[-1].kind == "last" and events[-1].seat == 1


def test_option_taker_stays_draws_from_a_player_and_leads_it() -> None:
    state = position(3, {0: "AH", 1: "2H 5C 7C", 2: "3H 6C 8D"}, leader=0, taker_stays=True)
    state.apply(0, "play:AH")
    state.apply(1, "play:2H")
    events = state.apply(2, "play:3H")
    assert "safe" not in kinds(events)
    assert state.live == [True, True, True] and state.to_act == (0,)
    assert state.view(0)["phase"] == "draw"
    assert [str(a) for a in state.legal_actions(0)] == ["draw=discards", "draw=1", "draw=2"]
    events = state.apply(0, "draw=1")
    assert kinds(events)[:2] == ["draw", "play"]
    drawn = events[1].cards[0]
    assert drawn in parse_many("5C 7C") and len(state.hands[1]) == 1
    assert state.to_act == (1,) and state.live == [True, True, True]


def test_option_taker_stays_a_one_card_hand_is_not_drawn_from() -> None:
    # A player goes safe only by playing their last card: a hand of one card cannot be drawn
    # from while the discards hold cards or another player still in holds two or more.
    state = position(3, {0: "AH", 1: "2H 5C", 2: "3H 6C 8D"}, leader=0, taker_stays=True)
    for card in ("AH", "2H", "3H"):
        state.apply(state.to_act[0], f"play:{card}")
    assert [str(a) for a in state.legal_actions(0)] == ["draw=discards", "draw=2"]
    with pytest.raises(IllegalAction, match="last card"):
        state.apply(0, "draw=1")
    state.out += state.discards  # the discards empty: seat 2's two cards are still there
    state.discards = []
    assert [str(a) for a in state.legal_actions(0)] == ["draw=2"]
    with pytest.raises(IllegalAction, match="last card"):
        state.apply(0, "draw=1")


def test_option_taker_stays_one_card_hands_while_the_discards_hold_cards() -> None:
    state = position(3, {0: "AH", 1: "2H 5C", 2: "3H 6C"}, leader=0, discards="",
                     taker_stays=True)
    for card in ("AH", "2H", "3H"):
        state.apply(state.to_act[0], f"play:{card}")
    assert [str(a) for a in state.legal_actions(0)] == ["draw=discards"]
    events = state.apply(0, "draw=discards")
    assert events[1].cards[0] in parse_many("AH 2H 3H")


def test_option_taker_stays_draw_from_the_discards() -> None:
    state = position(3, {0: "AH", 1: "2H 5C", 2: "3H 6C"}, leader=0, discards="",
                     taker_stays=True)
    state.apply(0, "play:AH")
    state.apply(1, "play:2H")
    state.apply(2, "play:3H")
    pile = set(state.discards)
    events = state.apply(0, "draw=discards")
    assert events[1].kind == "play" and events[1].cards[0] in pile
    assert len(state.discards) == 2
    with pytest.raises(IllegalAction):
        state.apply(0, "draw=discards")


def test_decision_shootout_and_taker_stays_cannot_both_be_on() -> None:
    with pytest.raises(ValueError, match="shootout") as refused:
        RULES.new_game(4, options={"shootout": True, "taker_stays": True})
    assert "taker_stays" in str(refused.value)
    RULES.new_game(4, options={"shootout": True})
    RULES.new_game(4, options={"taker_stays": True})


def test_refused_actions_leave_the_state_unchanged() -> None:
    state = game(wanted={0: "AS"})
    before = state.view(None)
    for bad in ("draw=discards", "decline", "take=1", "play:AS,KS", "play=1:AS", "jump"):
        with pytest.raises(IllegalAction):
            state.apply(0, bad)
    assert state.view(None) == before


# -- the basic player and the words ----------------------------------------------------------

def test_basic_player_stays_under_the_highest_card() -> None:
    state = position(3, {0: "TH 2C", 1: "AH 9H 4H 3C", 2: "5H 6C"}, leader=0)
    state.apply(0, "play:TH")
    action = basic(observe(state, 1), random.Random(0))
    assert str(action) == "play:9H"


def test_basic_player_dumps_the_highest_card_when_void() -> None:
    state = position(3, {0: "TH 2C", 1: "AS 9D 4C", 2: "5H 6C"}, leader=0)
    state.apply(0, "play:TH")
    action = basic(observe(state, 1), random.Random(0))
    assert str(action) == "play:AS"


def test_basic_player_leads_low_from_a_short_suit() -> None:
    state = position(3, {0: "KH 2H 5H 9C QC", 1: "AH 3C", 2: "5D 6C"}, leader=0)
    action = basic(observe(state, 0), random.Random(0))
    assert str(action) == "play:9C"


def test_basic_player_declines_to_interject() -> None:
    hands = {0: "5H 2D", 1: "2C 3C", 2: "3H AD", 3: "AH 4D"}
    state = position(4, hands, leader=0, interject=True)
    state.apply(0, "play:5H")
    state.apply(1, "play:2C")
    assert str(basic(observe(state, 2), random.Random(0))) == "decline"


def test_basic_player_draws_from_the_discards() -> None:
    state = position(3, {0: "AH", 1: "2H 5C", 2: "3H 6C"}, leader=0, taker_stays=True)
    for seat, card in ((0, "AH"), (1, "2H"), (2, "3H")):
        state.apply(seat, f"play:{card}")
    assert str(basic(observe(state, 0), random.Random(0))) == "draw=discards"


def test_computer_players_and_hints_draw_only_where_the_rules_allow() -> None:
    # taker_stays: with the discards empty, the one-card hand of seat 1 is not offered while
    # seat 2 holds two cards; every level, and a hint, picks among the draws allowed.
    state = position(3, {0: "AH", 1: "2H 5C", 2: "3H 6C 8D"}, leader=0, discards="",
                     taker_stays=True)
    for card in ("AH", "2H", "3H"):
        state.apply(state.to_act[0], f"play:{card}")
    state.out += state.discards
    state.discards = []
    for level in ai.LEVELS:
        chosen = ai.get_player(level, "bhabhi").choose(observe(state, 0), random.Random(1))
        assert str(chosen) == "draw=2", level
    state = position(4, {0: "AH", 1: "2H 5C", 2: "3H 6C 8D", 3: "4H 7C 9D TD"}, leader=0,
                     taker_stays=True)
    for card in ("AH", "2H", "3H", "4H"):
        state.apply(state.to_act[0], f"play:{card}")
    analysis = analyse(observe(state, 0), random.Random(1), iterations=24)
    assert {str(m.action) for m in analysis.moves} == {"draw=discards", "draw=2", "draw=3"}


def test_words_in_both_languages() -> None:
    state = position(3, {0: "KH 2H", 1: "AH 3C", 2: "5D 6C"}, leader=0)
    for lang in ("en", "ja"):
        assert RULES.action_text(games.Action.parse("play:KH"), lang)
        assert RULES.action_text(games.Action.parse("take=2"), lang)
        assert RULES.action_text(games.Action.parse("draw=discards"), lang)
        text = RULES.view_text(state.view(0), lang)
        assert "K" in text
        for event in state.apply(0, "play:KH") if lang == "en" else []:
            assert RULES.event_text(event.for_seat(None), lang)
    assert "Getaway" in RULES.summary_en and RULES.summary("ja") and RULES.title("ja")


def test_whole_games_with_basic_players_end() -> None:
    from games.ai import get_player

    for seed in range(5):
        state = RULES.new_game(5, seed=seed, options={"take_hand": "any", "interject": True})
        player = get_player("normal", "bhabhi")
        rng = random.Random(seed)
        steps = 0
        while not state.over:
            seat = state.to_act[0]
            state.apply(seat, player.choose(observe(state, seat), rng))
            steps += 1
            assert steps < 5000
        assert state.outcome is not None and len(state.outcome.places) == 5


# -- rules of the options that play out late in a game ------------------------------------------
def test_option_shootout_started_by_a_last_card_played_as_a_follow() -> None:
    # shootout: "when one plays their last card (leading or following) and the other has
    # played a card of the same suit, and the last card was the higher": here seat 1 follows
    # seat 0's 3D with KD, its last card.
    state = two_player_game(TWOS, shootout=True)
    rounds(state, TWOS_PLAY[:-1])
    state.apply(0, "play:3D")
    events = state.apply(1, "play:KD")
    assert kinds(events) == ["play", "discard", "out_of_play", "shootout", "turn"]
    assert events[2].cards == (parse("3D"), parse("KD"))  # the two cards leave play
    assert events[3].seat == 1 and state.to_act == (0,)
    assert state.view(0)["phase"] == "shootout" and state.view(None)["trick"][0]["seat"] == 1
    assert len(state.discards) == 45  # the 46 discards less the card turned up


def test_option_shootout_follower_who_runs_out_over_a_lower_card_is_last() -> None:
    # shootout: "If the turned card is lower, the player who followed from hand is the
    # Bhabhi", even when that was their last card. Seat 0 ends with 2S 2H 2C AD (it picked
    # AD up instead of 2D); with seed 7 a spade, a heart and a club are turned before a diamond.
    hands = (codes("AS KS QS JS TS 9S 2S AH KH QH JH TH 9H AC KC QC JC TC 9C 2C QD JD TD 9D 8D 3D"),
             codes("3S 4S 5S 6S 7S 8S 2H 3H 4H 5H 6H 7H 8H 3C 4C 5C 6C 7C 8C 7D 6D 5D 4D 2D KD AD"))
    state = two_player_game(hands, seed=7, shootout=True)
    plays = [*TWOS_PLAY[:19], ("2C", "AD"),  # spades, hearts and clubs as before
             *zip(suit("QJT98", "D"), suit("76542", "D"), strict=True), ("3D", "KD")]
    rounds(state, plays)
    assert sorted(str(c) for c in state.hands[0]) == ["2C", "2H", "2S", "AD"]
    assert follow_the_turned_cards(state) == 4 and state.hands[0] == []
    assert state.over and state.view(None)["loser"] == 0


def test_option_interject_not_offered_when_the_last_player_fails() -> None:
    # interject: "the next player (to their left) may ... play one more card": when the one
    # who failed to follow was the last to play, the next player is the leader, who has played.
    state = game(3, wanted={0: "AS", 1: "KS", 2: "2H 3H"}, interject=True)
    assert not any(c.suit == "S" for c in state.hands[2])  # the rest of the deal: no spade
    state.apply(0, "play:AS")
    state.apply(1, "play:KS")
    events = state.apply(2, "play:2H")
    assert kinds(events) == ["play", "fail", "pick_up"] and events[-1].seat == 0
    assert state.to_act == (0,) and "decline" not in [str(a) for a in state.legal_actions(0)]


def test_option_taker_stays_draws_the_last_card_of_one_of_several_players_in() -> None:
    # taker_stays, and its Decision: with the discards empty and every other player still in
    # holding one card, the taker draws a last card; that player, left with none, goes safe at
    # the end of the round, and with three in the round goes on without them.
    state = position(3, {0: "AH", 1: "2H 5C", 2: "3H 6C"}, leader=0, taker_stays=True)
    for card in ("AH", "2H", "3H"):
        state.apply(state.to_act[0], f"play:{card}")
    state.out += state.discards
    state.discards = []
    assert [str(a) for a in state.legal_actions(0)] == ["draw=1", "draw=2"]
    events = state.apply(0, "draw=1")
    assert kinds(events) == ["draw", "play"] and events[1].cards == (parse("5C"),)
    assert state.hands[1] == [] and state.live[1]  # not safe before the round ends
    assert state.to_act == (2,)  # the empty hand is skipped
    events = state.apply(2, "play:6C")
    assert ("safe", 1) in [(e.kind, e.seat) for e in events]
    # Seat 2 took the round with its last card and stays; seat 0 ran out with a lower card.
    assert state.live == [False, False, True]
    assert state.over and state.outcome is not None and state.outcome.places[2] == 3
