"""The shared pieces of the rules interface: cards, actions, options, outcomes, seats, tricks."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import games
from games import Action, IllegalAction, cards, seats, tricks
from games.core import Event, Option, Outcome, check_deck, seat_option


def test_card_codes_round_trip_for_every_card() -> None:
    for c in cards.all_cards():
        assert cards.parse(str(c)) is c
        assert str(c) == c.code


def test_card_rank_and_suit() -> None:
    ten = cards.parse("TS")
    assert (ten.rank, ten.suit, ten.is_joker) == (10, "S", False)
    assert cards.parse("ah").rank == 14
    assert cards.parse("10H") is cards.parse("TH")
    assert cards.parse("RJ").is_joker and cards.parse("BJ").suit == "B"


@pytest.mark.parametrize("bad", ["", "1S", "TX", "ZZ", "AS2", "joker"])
def test_malformed_card_codes_are_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        cards.parse(bad)


def test_cards_survive_copy_and_pickle_as_the_same_object() -> None:
    c = cards.parse("QD")
    assert copy.deepcopy(c) is c and copy.copy(c) is c
    assert pickle.loads(pickle.dumps([c, c])) == [c, c]
    assert pickle.loads(pickle.dumps(c)) is c


def test_standard_deck_has_52_distinct_cards() -> None:
    deck = cards.standard_deck()
    assert len(deck) == 52 == len(set(deck))


def test_pretty_uses_suit_symbols() -> None:
    assert cards.pretty(cards.parse("TS")) == "10\u2660"
    assert cards.pretty(cards.parse("AH")) == "A\u2665"


@pytest.mark.parametrize(
    "text", ["play:TS,TH", "pass", "bid=45-S", "take=2", "play=nt:AS", "exchange", "draw=discards"]
)
def test_action_text_round_trips(text: str) -> None:
    assert str(Action.parse(text)) == text
    assert Action.parse(str(Action.parse(text))) == Action.parse(text)


def test_action_parts() -> None:
    action = Action.parse("play=7:RJ")
    assert action.kind == "play" and action.arg == "7" and action.cards == (cards.parse("RJ"),)


@pytest.mark.parametrize("bad", ["", ":TS", "play:", "play:XX", "pl ay", "bid=", "PLAY!"])
def test_malformed_actions_raise_illegal_action(bad: str) -> None:
    with pytest.raises(IllegalAction):
        Action.parse(bad)


def test_same_as_ignores_card_order() -> None:
    assert Action.parse("play:TS,TH").same_as(Action.parse("play:TH,TS"))
    assert not Action.parse("play:TS,TH").same_as(Action.parse("play:TS"))


def test_private_events_hide_cards_from_other_seats() -> None:
    drawn = Event("draw", 1, tuple(cards.parse_many("AS KS")), private=True)
    assert drawn.for_seat(1) == drawn
    hidden = drawn.for_seat(0)
    assert hidden.cards == () and hidden.hidden == 2
    assert drawn.for_seat(None).cards == ()
    public = Event("play", 1, (cards.parse("AS"),))
    assert public.for_seat(0) == public


def test_outcome_places_from_keys_share_ties() -> None:
    outcome = Outcome.from_keys([3, 1, 1, 7], [0, 5, 5, 0])
    assert outcome.places == (3, 1, 1, 4)
    assert outcome.winners == (1, 2)


def test_option_coercion_and_messages() -> None:
    flag = Option("rebuy", "bool", False, "Rebuy")
    assert flag.coerce("yes", 4) is True and flag.coerce(False, 4) is False
    with pytest.raises(ValueError, match="rebuy"):
        flag.coerce("sometimes", 4)
    number = Option("target", "int", 42, "Target", minimum=1, maximum=99)
    assert number.coerce("7", 4) == 7
    with pytest.raises(ValueError, match="target"):
        number.coerce(0, 4)
    with pytest.raises(ValueError, match="target"):
        number.coerce(True, 4)
    choice = Option("mode", "choice", "teams", "Mode", choices=("teams", "refill"))
    assert choice.coerce(" refill ", 2) == "refill"
    with pytest.raises(ValueError, match="mode"):
        choice.coerce("solo", 2)
    dealer = seat_option("dealer", "Dealer")
    assert dealer.coerce("random", 4) is None and dealer.coerce(3, 4) == 3
    with pytest.raises(ValueError, match="dealer"):
        dealer.coerce(4, 4)


def test_check_deck_names_what_is_wrong() -> None:
    pack = cards.standard_deck()
    assert check_deck(list(reversed(pack)), pack) == list(reversed(pack))
    with pytest.raises(ValueError, match="missing"):
        check_deck(pack[1:], pack)
    with pytest.raises(ValueError, match="repeated"):
        check_deck([pack[1], *pack[1:]], pack)


def test_seat_arithmetic() -> None:
    assert seats.left(3, 4) == 0 and seats.right(0, 4) == 3
    assert list(seats.iter_from(2, 4)) == [2, 3, 0, 1]
    assert list(seats.iter_from(2, 4, seats.COUNTER_CLOCKWISE)) == [2, 1, 0, 3]
    assert seats.partner(1) == 3
    assert seats.next_in(0, 4, [True, False, False, True]) == 3
    assert seats.next_in(3, 4, [True, False, False, True], seats.COUNTER_CLOCKWISE) == 0


def test_trick_winner_trumps_led_suit_and_earlier_of_equals() -> None:
    c = cards.parse
    plays = [(0, c("TH")), (1, c("AS")), (2, c("KH")), (3, c("2C"))]
    assert tricks.winner(plays, lambda x: x.rank, led="H") == 2
    assert tricks.winner(plays, lambda x: x.rank, led="H", trump="C") == 3
    twins = [(0, c("KH")), (1, c("KH"))]
    assert tricks.winner(twins, lambda x: x.rank, led="H") == 0
    assert tricks.winner(plays, lambda x: x.rank, led="H", can_win=lambda i: i != 2) == 0
    assert tricks.playable([c("2H"), c("3S")], "H") == [c("2H")]
    assert tricks.playable([c("3S")], "H") == [c("3S")]


def test_unknown_game_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        games.get("poker")


def test_random_player_only_picks_legal_actions() -> None:
    from games.ai import Observation, RandomPlayer

    legal = (Action.parse("pass"), Action.parse("play:TS"))
    obs = Observation("x", 0, games.View({}), legal, lambda rng: None)  # type: ignore[arg-type,return-value]
    rng = random.Random(1)
    assert {RandomPlayer().choose(obs, rng) for _ in range(50)} == set(legal)


def test_view_to_dict_is_an_independent_deep_copy() -> None:
    from games.core import View

    class Odd:  # not plain data: copied the general way
        def __init__(self) -> None:
            self.items = [1]

    data = {"hand": ["AS", "KD"], "trick": [(0, ["5C"])], "nested": {"a": [1, {"b": 2}]},
            "odd": Odd(), "none": None, "flag": True, "x": 1.5}
    view = View(data)
    copied = view.to_dict()
    assert copied["hand"] == ["AS", "KD"] and copied["trick"] == [(0, ["5C"])]
    copied["hand"].append("2H")
    copied["trick"][0][1].append("6C")
    copied["nested"]["a"][1]["b"] = 3
    copied["odd"].items.append(2)
    assert data["hand"] == ["AS", "KD"]
    assert data["trick"] == [(0, ["5C"])]
    assert data["nested"] == {"a": [1, {"b": 2}]}
    assert data["odd"].items == [1]
    assert type(copied["trick"][0]) is tuple


def test_view_to_dict_equals_a_deep_copy_for_every_game() -> None:
    for gid in games.ids():
        rules = games.get(gid)
        state = rules.new_game(rules.usual_players, seed=5)
        rng = random.Random(5)
        for _ in range(20):
            if state.over:
                break
            for seat in (None, *range(state.players)):
                view = state.view(seat)
                assert view.to_dict() == copy.deepcopy(view._data)
            seat = rng.choice(state.to_act)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
