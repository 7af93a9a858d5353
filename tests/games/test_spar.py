"""The Spar family: every member, rule and Decision of docs/rules/spar.md, and every option."""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from games import IllegalAction, seats
from games.ai import get_player, observe
from games.spar import VARIANTS, SparState, pack_of

RULES = games.get("spar")


def deck_for(players: int, dealer: int, hands: dict[int, str], stock: str = "",
             **options: Any) -> list[str]:
    """A first-deal deck: packets from the first player in the variant's direction, then stock.

    Hands are given in the order the cards are dealt (first packet, then second).
    """
    v = VARIANTS[options.get("variant", "spar")]
    packets = (3, 4) if options.get("hand") == "7" else v.packets
    given = {s: h.split() for s, h in hands.items()}
    used = {c for h in given.values() for c in h} | set(stock.split())
    spare = [str(c) for c in pack_of(v, bool(options.get("spade_ace"))) if str(c) not in used]
    for s in range(players):
        while len(given.setdefault(s, [])) < sum(packets):
            given[s].append(spare.pop(0))
    first = seats.step(dealer, players, v.direction)
    order: list[str] = []
    pos = 0
    for size in packets:
        for s in seats.iter_from(first, players, v.direction):
            order += given[s][pos:pos + size]
        pos += size
    return [*order, *stock.split(), *spare]


def new(players: int, dealer: int, hands: dict[int, str], stock: str = "",
        **options: Any) -> SparState:
    state = RULES.new_game(players, seed=1, options={"dealer": dealer, **options},
                           deck=deck_for(players, dealer, hands, stock, **options))
    assert isinstance(state, SparState)
    return state


def play(state: SparState, *cards: str) -> list[Any]:
    """Play cards in turn order, whoever is to act."""
    events: list[Any] = []
    for code in cards:
        events += state.apply(state.to_act[0], f"play:{code}")
    return events


# -- Spar --------------------------------------------------------------------------------------

def test_spar_pack_is_35_cards_without_the_ace_of_spades() -> None:
    pack = {str(c) for c in RULES.new_game(4, seed=1).pack()}
    assert len(pack) == 35 and "AS" not in pack and "AH" in pack and "6C" in pack
    assert not any(c[0] in "2345" for c in pack)


def test_spar_deals_three_then_two_clockwise_from_dealers_left() -> None:
    deck = [str(c) for c in pack_of(VARIANTS["spar"])]
    state = RULES.new_game(3, seed=1, options={"dealer": 0}, deck=deck)
    assert state.view(1)["hand"] == deck[0:3] + deck[9:11]
    assert state.view(2)["hand"] == deck[3:6] + deck[11:13]
    assert state.view(0)["hand"] == deck[6:9] + deck[13:15]
    assert state.view(None)["stock"] == 35 - 15
    assert state.to_act == (1,)  # the dealer's left leads


def test_follow_suit_if_you_can_else_any_card() -> None:
    state = new(2, 0, {1: "AH KH QH JH 6S", 0: "7H 8H 9D TD 7D"})
    state.apply(1, "play:AH")
    with pytest.raises(IllegalAction, match="follow suit"):
        state.apply(0, "play:9D")
    assert {str(a) for a in state.legal_actions(0)} == {"play:7H", "play:8H"}
    state.apply(0, "play:7H")
    play(state, "KH", "8H", "QH")
    assert {str(a) for a in state.legal_actions(0)} == {"play:9D", "play:TD", "play:7D"}


def test_highest_card_of_the_led_suit_wins_and_leads() -> None:
    state = new(3, 0, {1: "9H 6C 7C 8C 6D", 2: "KS 7D 8D 9D TD", 0: "TH JC QC KC AC"})
    play(state, "9H", "KS", "TH")  # the king of spades is off suit
    assert state.view(None)["tricks_won"] == [1, 0, 0]
    assert state.to_act == (0,)


def test_last_trick_with_a_six_scores_three_from_each_other_player() -> None:
    state = new(3, 0, {1: "AH KH QH JH 6S", 2: "7H 8H 9H 7D 8D", 0: "TH 9C 8C 7C 9D"})
    play(state, "AH", "7H", "TH", "KH", "8H", "9C", "QH", "9H", "8C", "JH", "7D", "7C",
         "6S", "8D", "9D")
    assert state.scores() == [0.0, 6.0, 0.0]  # 3 from each of two others
    assert state.view(None)["dealer"] == 1  # the winner deals next
    assert state.deal_number == 2


@pytest.mark.parametrize(("last", "value"), [("6S", 3), ("7S", 2), ("8S", 1), ("AH", 1)])
def test_spar_last_trick_values(last: str, value: int) -> None:
    others = [c for c in ("KH", "QH", "JH", "TH") if c != last]
    hand = " ".join([*others[:4], last][-5:]) if last != "AH" else "KH QH JH TH AH"
    state = new(2, 0, {1: hand, 0: "6D 7D 8D 9D TD"})
    while state.deal_number == 1 and not state.over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.scores() == [0.0, float(value)]


def test_first_to_target_wins_the_match() -> None:
    state = new(2, 0, {1: "AH KH QH JH 6S", 0: "6D 7D 8D 9D TD"}, target=3)
    play(state, "AH", "6D", "KH", "7D", "QH", "8D", "JH", "9D", "6S", "TD")
    assert state.over and state.outcome is not None
    assert state.outcome.winners == (1,) and state.outcome.places == (2, 1)


# -- Spar options ------------------------------------------------------------------------------

def test_option_spade_ace_adds_the_ace_of_spades() -> None:
    pack = RULES.new_game(4, seed=1, options={"spade_ace": True}).pack()
    assert len(pack) == 36 and "AS" in {str(c) for c in pack}


def test_option_hand_seven_deals_three_then_four() -> None:
    deck = [str(c) for c in pack_of(VARIANTS["spar"])]
    state = RULES.new_game(2, seed=1, options={"dealer": 0, "hand": "7"}, deck=deck)
    assert state.view(1)["hand"] == deck[0:3] + deck[6:10]
    assert state.view(None)["tricks_per_deal"] == 7
    with pytest.raises(ValueError, match="hand"):
        RULES.new_game(6, options={"hand": "7"})
    RULES.new_game(5, options={"hand": "7"})


def test_option_under_ten_redeal_and_keep() -> None:
    hands = {1: "6S 7S 8S 9S 6H", 0: "AH KH QH JH TH"}
    state = new(2, 0, hands, stock="AD KD QD JD TD", under_ten=True)
    assert state.to_act == (1,)
    assert {str(a) for a in state.legal_actions(1)} == {"redeal", "keep"}
    with pytest.raises(IllegalAction):
        state.apply(1, "play:6S")
    events = state.apply(1, "redeal")
    assert state.view(1)["hand"] == ["AD", "KD", "QD", "JD", "TD"]
    assert events[0].for_seat(0).cards == ()  # the new cards are private
    assert state.view(0)["thrown"] == [0, 5]
    assert state.view(None)["phase"] == "play" and state.to_act == (1,)  # seat 0 not entitled
    kept = new(2, 0, hands, stock="AD KD QD JD TD", under_ten=True)
    kept.apply(1, "keep")
    assert kept.view(1)["hand"] == ["6S", "7S", "8S", "9S", "6H"]
    plain = new(2, 0, hands, stock="AD KD QD JD TD")
    assert plain.view(None)["phase"] == "play"


def peek_table(**options: Any) -> SparState:
    """Three players, seat 1 leading every trick; after three tricks the 4th (second-to-last)."""
    hands = {1: "AH KH QH JH 6S", 2: "6D 7D 8D 9D TD", 0: "6C 7C 8C 9C TC"}
    state = new(3, 0, hands, peek=True, **options)
    play(state, "AH", "6D", "6C", "KH", "7D", "7C", "QH", "8D", "8C")
    return state


def test_option_peek_shows_the_bottom_card_only_if_every_other_player_agrees() -> None:
    # "a player may ask to see the bottom card of the undealt cards. Every other player then
    # answers, agree or refuse; only if all agree is the card shown to everybody."
    state = new(3, 0, {1: "AH KH QH JH 6S", 2: "6D 7D 8D 9D TD", 0: "6C 7C 8C 9C TC"},
                peek=True)
    bottom = state.zones()["stock"][-1]
    play(state, "AH", "6D", "6C", "KH", "7D", "7C")
    assert all(a.kind != "peek" for s in range(3) for a in state.legal_actions(s))
    play(state, "QH", "8D", "8C")  # the 4th trick, the second-to-last, begins
    assert [str(a) for a in state.legal_actions(2)] == ["peek"]  # anyone, not only the leader
    assert "peek" in [str(a) for a in state.legal_actions(1)]
    events = state.apply(2, "peek")
    assert [e.kind for e in events] == ["peek_ask"] and state.view(None)["peeked"] is None
    assert state.to_act == (0,)  # the others answer in play order from the asker: 0, then 1
    assert [str(a) for a in state.legal_actions(0)] == ["peek_agree", "peek_refuse"]
    events = state.apply(0, "peek_agree")
    assert [e.kind for e in events] == ["peek_agree"] and state.view(None)["peeked"] is None
    assert state.to_act == (1,)
    events = state.apply(1, "peek_agree")
    assert [e.kind for e in events] == ["peek_agree", "peek"]
    assert events[-1].seat == 2 and events[-1].cards == (bottom,)
    for seat in range(3):
        assert state.view(seat)["peeked"] == str(bottom)  # shown to everybody
    assert state.to_act == (1,) and state.view(None)["phase"] == "play"  # the leader plays on
    sampled = state.determinize(0, random.Random(2))
    assert sampled.zones()["stock"][-1] == bottom


def test_option_peek_a_refusal_keeps_the_card_hidden() -> None:
    state = peek_table()
    state.apply(2, "peek")
    state.apply(0, "peek_agree")
    events = state.apply(1, "peek_refuse")
    assert [(e.kind, e.seat, e.arg) for e in events] == [("peek_refuse", 1, "2")]
    assert events[0].cards == ()
    view = state.view(None)
    assert view["peeked"] is None and view["phase"] == "play" and state.to_act == (1,)
    assert all(view["peek_waiting"] == [] for view in [state.view(s) for s in range(3)])


def test_option_peek_the_first_refusal_ends_the_request() -> None:
    state = peek_table()
    state.apply(2, "peek")
    events = state.apply(0, "peek_refuse")
    assert [e.kind for e in events] == ["peek_refuse"]
    assert state.view(None)["peeked"] is None and state.to_act == (1,)
    assert state.legal_actions(1)[0].kind == "play"  # seat 1 is not asked any more


def test_option_peek_off_refuses_every_peek_move() -> None:
    state = new(2, 0, {1: "AH KH QH JH 6S", 0: "6D 7D 8D 9D TD"})
    play(state, "AH", "6D", "KH", "7D", "QH", "8D")
    for move in ("peek", "peek_agree", "peek_refuse"):
        with pytest.raises(IllegalAction):
            state.apply(0, move)


def test_option_peek_answers_only_from_the_player_asked() -> None:
    state = peek_table()
    with pytest.raises(IllegalAction):
        state.apply(0, "peek_agree")  # nobody has asked
    state.apply(2, "peek")
    with pytest.raises(IllegalAction):
        state.apply(1, "peek_agree")  # seat 0 answers first
    with pytest.raises(IllegalAction):
        state.apply(2, "peek_agree")  # the asker does not answer
    with pytest.raises(IllegalAction):
        state.apply(0, "peek")  # one request at a time
    with pytest.raises(IllegalAction):
        state.apply(0, "peek_agree:AH")
    assert state.to_act == (0,) and state.view(None)["peek_asker"] == 2


@pytest.mark.parametrize(("last_two", "value", "plain"),
                         [("6S 6C", 9, 3), ("7S 6C", 8, 3), ("6S 7C", 7, 2), ("7S 7C", 6, 2)])
def test_option_essilfy_scores_the_last_two_tricks(last_two: str, value: int, plain: int) -> None:
    # Essilfy adds 6 (two sixes), 5 (a six and a seven) or 4 (two sevens) to the last trick's
    # own 3 or 2: 9 for 6-6, 8 for a seven then a six, 7 for a six then a seven, 6 for 7-7.
    hand = "AH KH QH " + last_two
    for essilfy, expected in ((True, value), (False, plain)):
        state = new(2, 0, {1: hand, 0: "8H 9H TH 8D 9D"}, essilfy=essilfy)
        a, b = last_two.split()
        play(state, "AH", "8H", "KH", "9H", "QH", "TH", a, "8D", b, "9D")
        assert state.scores() == [0.0, float(expected)]


def test_option_essilfy_scores_from_each_other_player() -> None:
    hands = {1: "AH KH QH 7S 6C", 2: "8H 9H TH 8D 9D", 0: "JH 7H 6H TD JD"}
    state = new(3, 0, hands, essilfy=True)
    play(state, "AH", "8H", "JH", "KH", "9H", "7H", "QH", "TH", "6H")
    play(state, "7S", "8D", "TD", "6C", "9D", "JD")  # 7S, then 6C: seat 1 wins both
    assert state.scores() == [0.0, 16.0, 0.0]  # 8 (a seven then a six) from each of two others
    assert state.view(None)["last_deal"]["value"] == 8


def test_essilfy_needs_both_last_tricks() -> None:
    state = new(2, 0, {1: "AH KH QH 8S 6C", 0: "9H TH JH 9S 9D"}, essilfy=True)
    play(state, "AH", "9H", "KH", "TH", "QH", "JH", "8S", "9S", "9D", "6C")
    # Seat 0 won trick 4 with 9S and led the last trick, 9D; seat 1's 6C cannot follow.
    assert state.scores() == [1.0, 0.0]


def test_spar_only_options_are_refused_for_other_variants() -> None:
    for variant in VARIANTS:
        if variant == "spar":
            continue
        for name, value in (("spade_ace", True), ("hand", "7"), ("under_ten", True),
                            ("peek", True), ("essilfy", True)):
            with pytest.raises(ValueError, match=f"'{name}' belongs to Spar only"):
                RULES.new_game(4, options={"variant": variant, name: value})
    with pytest.raises(ValueError, match="deals"):
        RULES.new_game(4, options={"deals": 3})
    with pytest.raises(ValueError, match="target"):
        RULES.new_game(4, options={"variant": "agram", "target": 3})


# -- Jeu de Carte (Benin) ----------------------------------------------------------------------

def test_benin_pack_and_face_down_when_unable_to_follow() -> None:
    pack = RULES.new_game(4, seed=1, options={"variant": "benin"}).pack()
    assert len(pack) == 31 and not any(c.rank == 6 for c in pack)
    state = new(2, 0, {1: "AH KH QH JH 7S", 0: "8H 9H TH 8D 9D"}, variant="benin")
    events = play(state, "AH", "8H")
    assert state.view(0)["last_trick"][1]["card"] == "8H"  # following stays face up
    play(state, "KH", "9H", "QH", "TH", "JH")
    events = play(state, "8D")
    assert events[0].arg == "down" and events[0].for_seat(1).cards == ()
    assert state.view(1)["last_trick"][1] == {"seat": 0, "card": None}
    assert state.view(0)["last_trick"][1] == {"seat": 0, "card": None}
    assert "8D" not in str(state.view(1).to_dict()["pile"])


def test_benin_last_trick_with_a_seven_scores_two() -> None:
    state = new(2, 0, {1: "AH KH QH JH 7S", 0: "8H 9H TH 8D 9D"}, variant="benin")
    play(state, "AH", "8H", "KH", "9H", "QH", "TH", "JH", "8D", "7S", "9D")
    assert state.scores() == [0.0, 2.0]


def test_benin_face_down_cards_are_unknown_to_determinize() -> None:
    state = new(3, 0, {1: "AH KH QH JH 7S", 2: "8H 9H TH JD 9D", 0: "7C 8C 9C TC JC"},
                variant="benin")
    play(state, "AH", "8H", "7C")  # seat 0 cannot follow: face down, and void in hearts
    seen = state.view(1)
    found = set()
    for k in range(12):
        sampled = state.determinize(1, random.Random(k))
        assert sampled.view(1) == seen
        assert not any(c.suit == "H" for c in sampled.hands[0])  # the void is kept
        found.add(str(sampled.pile[2]))
        assert sampled.pile[2].suit != "H"
    assert len(found) > 1  # the face-down card is re-dealt


# -- Sipa --------------------------------------------------------------------------------------

def test_sipa_counter_clockwise_and_dealers_right_leads() -> None:
    deck = [str(c) for c in pack_of(VARIANTS["sipa"])]
    state = RULES.new_game(3, seed=1, options={"dealer": 0, "variant": "sipa"}, deck=deck)
    assert state.view(2)["hand"] == deck[0:3] + deck[9:11]  # dealer's right first
    assert state.view(1)["hand"] == deck[3:6] + deck[11:13]
    assert state.to_act == (2,)
    state.apply(2, state.legal_actions(2)[0])
    assert state.to_act == (1,)


def test_sipa_card_that_does_not_beat_goes_face_down() -> None:
    state = new(3, 0, {2: "TH KH QH JH 7S", 1: "8H AH 9D TD JD", 0: "9H 8D 7D 8C 9C"},
                variant="sipa")
    events = play(state, "TH", "8H")
    assert events[-1].arg == "down"  # follows but lower than the 10
    events = play(state, "9H")
    assert events[0].arg == "down"
    assert state.view(None)["last_trick"] == [
        {"seat": 2, "card": "TH"}, {"seat": 1, "card": None}, {"seat": 0, "card": None}]
    events = play(state, "KH", "AH")
    assert events[-1].arg is None  # the ace beats the king: face up


@pytest.mark.parametrize(("hand", "value"), [
    ("AH KH 7S 7C 7D", 6), ("AH KH 8S 7C 7D", 4), ("AH KH 7S 8C 7D", 2), ("AH KH 7S 7C 8D", 1)])
def test_sipa_scores_for_sevens(hand: str, value: int) -> None:
    state = new(2, 0, {1: hand, 0: "8H 9H TH JH QH"}, variant="sipa")
    while state.deal_number == 1 and not state.over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.view(None)["last_deal"]["winner"] == 1
    assert state.scores() == [0.0, float(value)]


# -- Agram family ------------------------------------------------------------------------------

def test_agram_pack_order_deal_and_deals_won() -> None:
    state = RULES.new_game(3, seed=1, options={"variant": "agram", "dealer": 0})
    pack = {str(c) for c in state.pack()}
    assert len(pack) == 35 and "AS" not in pack and not any(c[0] in "KQJ2" for c in pack)
    assert all(n == 6 for n in state.view(None)["hand_counts"])
    hands = {2: "AH 3C 4C 9S 5S 6S", 1: "TH 3D 4D 5D 6D 7D", 0: "9H 3H 4H 5H 6H 7H"}
    state = new(3, 0, hands, variant="agram", deals=1)
    assert state.to_act == (2,)
    play(state, "AH", "TH", "9H")
    assert state.view(None)["tricks_won"][2] == 1  # A beats T beats 9
    while not state.over:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.scores() == [float(x) for x in state.view(None)["deals_won"]]
    assert sum(state.scores()) == 1


def test_option_deals_sets_the_agram_game_length() -> None:
    for count in (1, 3):
        state = RULES.new_game(3, seed=2, options={"variant": "agram", "deals": count})
        rng = random.Random(1)
        while not state.over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.deal_number == count and sum(state.scores()) == count


def test_sink_sink_deals_three_then_two() -> None:
    deck = [str(c) for c in pack_of(VARIANTS["sink-sink"])]
    state = RULES.new_game(2, seed=1, options={"dealer": 0, "variant": "sink-sink"}, deck=deck)
    assert state.view(1)["hand"] == deck[0:3] + deck[6:8]


def test_fapfap_deals_agrams_six_cards_three_then_three_counter_clockwise() -> None:
    deck = [str(c) for c in pack_of(VARIANTS["fapfap"])]
    state = RULES.new_game(3, seed=1, options={"dealer": 0, "variant": "fapfap"}, deck=deck)
    assert len(deck) == 35
    assert state.view(2)["hand"] == deck[0:3] + deck[9:12]  # the dealer's right first
    assert state.view(1)["hand"] == deck[3:6] + deck[12:15]
    assert state.view(0)["hand"] == deck[6:9] + deck[15:18]
    assert state.view(None)["tricks_per_deal"] == 6 and state.to_act == (2,)


@pytest.mark.parametrize(("hand", "value"), [
    ("AH TH 9H 8H 3S 3C", 4), ("AH TH 9H 8H 4S 3C", 2), ("AH TH 9H 8H 3S 4C", 1)])
def test_fapfap_scores_the_fifth_and_sixth_tricks(hand: str, value: int) -> None:
    state = new(2, 0, {1: hand, 0: "4H 5H 6H 7H 7D 8D"}, variant="fapfap")
    won = []
    while state.deal_number == 1 and not state.over:
        seat = state.to_act[0]
        events = state.apply(seat, state.legal_actions(seat)[0])
        won += [(e.seat, str(e.cards[0])) for e in events if e.kind == "trick"]
    assert won[4:] == [(1, c) for c in hand.split()[4:]]  # the 5th and 6th tricks
    assert state.scores() == [0.0, float(value)]


def test_agram_mali_order_and_three_then_three() -> None:
    deck = [str(c) for c in pack_of(VARIANTS["agram-mali"])]
    state = RULES.new_game(2, seed=1, options={"dealer": 0, "variant": "agram-mali"}, deck=deck)
    assert state.view(1)["hand"] == deck[0:3] + deck[6:9]
    assert state.view(0)["hand"] == deck[3:6] + deck[9:12]
    assert state.view(None)["tricks_per_deal"] == 6
    for lead, follow, leader_wins in (("8H", "JH", True), ("TH", "QH", True), ("7H", "JH", False),
                                      ("KH", "AH", False)):
        state = new(2, 0, {1: f"{lead} 7S 8S 9S TS JS", 0: f"{follow} 7D 8D 9D TD JD"},
                    variant="agram-mali")
        play(state, lead, follow)
        assert (state.view(None)["tricks_won"][1] == 1) is leader_wins


# -- views, texts and the basic player --------------------------------------------------------

def test_texts_in_both_languages() -> None:
    state = new(2, 0, {1: "AH KH QH JH 7S", 0: "8H 9H TH 8D 9D"}, variant="benin")
    events = play(state, "AH", "8H")
    for lang in ("en", "ja"):
        assert RULES.action_text(games.Action.parse("play:AH"), lang)
        for move in ("peek", "peek_agree", "peek_refuse"):
            assert RULES.action_text(games.Action.parse(move), lang) != move
        assert all(RULES.event_text(e.for_seat(None), lang) for e in events)
        assert RULES.view_text(state.view(0), lang)


@pytest.mark.parametrize("variant", ["spar", "agram"])
def test_basic_player_beats_random_players(variant: str) -> None:
    wins = 0
    games_played = 24
    for seed in range(games_played):
        opts = {"variant": variant, **({"target": 9} if variant == "spar" else {})}
        state = RULES.new_game(4, seed=seed, options=opts)
        rng = random.Random(seed)
        players = [get_player("normal" if s == 0 else "random", "spar") for s in range(4)]
        while not state.over:
            seat = state.to_act[0]
            action = players[seat].choose(observe(state, seat), rng)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
        assert state.outcome is not None
        wins += 0 in state.outcome.winners
    assert wins > games_played / 4


def test_under_ten_needs_enough_undealt_cards() -> None:
    # Seven players take all 35 cards: nobody can change a hand, however low.
    state = new(7, 0, {1: "6S 7S 8S 9S 6H"}, under_ten=True)
    assert state.view(None)["stock"] == 0
    assert state.view(None)["phase"] == "play" and state.to_act == (1,)


def test_option_dealer_sets_the_first_dealer() -> None:
    state = RULES.new_game(4, seed=3, options={"dealer": 2})
    assert state.view(None)["dealer"] == 2 and state.to_act == (3,)
    state = RULES.new_game(4, seed=3, options={"dealer": 2, "variant": "agram"})
    assert state.to_act == (1,)


# -- rules shared by the family ----------------------------------------------------------------

@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_winner_of_a_deal_deals_the_next_in_every_member(variant: str) -> None:
    # Spar: "later the winner of the previous deal" deals; Agram: "The winner deals next";
    # the other members play "As Spar" or "As Agram".
    long_game = {"deals": 9} if VARIANTS[variant].scoring == "deals" else {"target": 99}
    state = new(3, 0, {}, variant=variant, **long_game)
    winners = []
    while state.deal_number < 4:
        seat = state.to_act[0]
        events = state.apply(seat, state.legal_actions(seat)[0])
        won = [e.seat for e in events if e.kind == "deal-won"]
        if won:
            winners.append(won[0])
            assert state.view(None)["dealer"] == won[0]
            assert [e.seat for e in events if e.kind == "deal"] == won
    assert len(winners) == 3


def test_option_peek_with_seven_cards_opens_in_the_sixth_trick() -> None:
    # "peek: during the second-to-last trick, any player may ask to see the bottom card":
    # with hand = 7 that is the 6th trick.
    hands = {1: "AH KH QH JH TH 9H 6S", 0: "6D 7D 8D 9D TD JD QD"}
    state = new(2, 0, hands, hand="7", peek=True)
    for lead, follow in [("AH", "6D"), ("KH", "7D"), ("QH", "8D"), ("JH", "9D"), ("TH", "TD")]:
        assert all(a.kind != "peek" for a in state.legal_actions(0) + state.legal_actions(1))
        play(state, lead, follow)
    assert state.view(None)["trick_number"] == 6
    assert [str(a) for a in state.legal_actions(0)] == ["peek"]
    state.apply(0, "peek")
    state.apply(1, "peek_agree")
    assert state.view(None)["peeked"] == str(state.zones()["stock"][-1])


def test_tied_totals_share_a_place() -> None:
    # "Players ranked by total score (Agram family: deals won), ties sharing a place."
    hands = {1: "AH KH QH JH TH", 2: "6D 7D 8D 9D TD", 0: "6C 7C 8C 9C TC"}
    state = new(3, 0, hands, target=2)
    play(state, "AH", "6D", "6C", "KH", "7D", "7C", "QH", "8D", "8C", "JH", "9D", "9C",
         "TH", "TD", "TC")
    assert state.over and state.outcome is not None
    assert state.scores() == [0.0, 2.0, 0.0]
    assert state.outcome.places == (2, 1, 2)

