"""The typical positions /rules pictures: each replays against the engine from its tutorial's
deal, and shows what its caption says (a rule change that breaks one fails here)."""

from __future__ import annotations

import pytest

import games
from games import positions
from games.core import Action
from games.positions import PositionError, position_of


def _cards(actions: list[Action]) -> set[str]:
    return {str(card) for action in actions for card in action.cards}


def test_every_game_has_a_position() -> None:
    assert sorted(positions.ids()) == sorted(games.ids())


@pytest.mark.parametrize("game", positions.ids())
def test_a_position_replays_and_is_still_under_way(game: str) -> None:
    position = positions.build(game)
    view = position.view()
    assert view["game"] == game and not view["over"]
    assert position.state.to_act, "the game waits for someone"
    assert position.ring <= {str(c) for c in view["hand"]}


def test_finesse_a_void_is_trumped() -> None:
    view = positions.build("finesse").view()
    trick = [play["card"] for play in view["trick"]]
    assert view["trumps"] == "S" and trick == ["KD", "2S"]
    # the seat shown is the one that trumped: it holds no diamond
    assert view["seat"] == view["trick"][1]["seat"]
    assert not any(str(card).endswith("D") for card in view["hand"])


def test_spar_the_last_trick_is_won_with_a_six() -> None:
    position = positions.build("spar")
    view = position.view()
    assert view["trick_number"] == view["tricks_per_deal"]
    assert [play["card"] for play in view["trick"]] == ["6C"]
    # the other seat cannot follow clubs: whatever it plays, the 6 takes the last trick
    legal = position.state.legal_actions(position.seat)
    assert not any(card.endswith("C") for card in _cards(legal))
    after = position.state.clone()
    after.apply(position.seat, legal[0])
    assert after.view(0)["last_deal"] == {"deal": 1, "winner": 0, "value": 3}


def test_bear_the_auction_and_the_kitty() -> None:
    game = positions.POSITIONS["bear"]
    before = position_of("bear", {**game, "moves": game["moves"][:-1], "ring": []})
    assert before.view()["kitty_count"] == 2
    position = positions.build("bear")
    view = position.view()
    assert view["phase"] == "discard" and view["declarer"] == position.seat
    assert view["bids"] == ["60-S", "pass", "pass"] and view["kitty_count"] == 0
    # the ringed cards are exactly the kitty's, now in the declarer's hand
    gained = {str(c) for c in view["hand"]} - {str(c) for c in before.view()["hand"]}
    assert gained == set(position.ring) and len(gained) == 2


def test_sugekari_the_ringed_card_makes_exactly_21() -> None:
    position = positions.build("sugekari-21")
    assert position.view()["total"] == 15 and position.ring == {"6D"}
    after = position.state.clone()
    after.apply(position.seat, Action.parse("play:6D"))
    view = after.view(position.seat)
    assert view["captured_counts"][0] == 5 and not view.get("round")


def test_1234_the_play_beats_the_number_by_one_to_four() -> None:
    game = positions.POSITIONS["1234"]
    before = position_of("1234", {**game, "moves": game["moves"][:-1]}).view()
    view = positions.build("1234").view()
    played = view["last_play"]["cards"]
    rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
    total = sum(rank.get(c[0]) or int(c[0]) for c in played)
    assert view["number_to_beat"] == total
    assert 1 <= total - before["number_to_beat"] <= 4


def test_twenty_two_the_ringed_cards_are_the_allowed_ones() -> None:
    position = positions.build("twenty-two")
    view = position.view()
    assert view["to_beat"] == ["6D"]
    legal = position.state.legal_actions(position.seat)
    assert _cards(legal) == set(position.ring)
    order = "23456789TJQKA"
    lowest = min(view["hand"], key=lambda c: order.index(c[0]))
    # the lowest card is allowed though it does not beat 6, and so is an equal one
    assert lowest in position.ring and order.index(lowest[0]) < order.index("6")
    assert "6C" in position.ring


def test_bhabhi_a_void_ends_the_round_and_the_taker_picks_up() -> None:
    view = positions.build("bhabhi").view()
    last = view["last_trick"]
    assert [play["card"] for play in last] == ["KC", "KH"]
    assert view["last_taker"] == last[0]["seat"] == 3
    assert sorted(view["known"][3]) == ["KC", "KH"]
    assert not any(str(card).endswith("C") for card in view["hand"])


def test_a_position_that_no_longer_fits_is_refused() -> None:
    game = positions.POSITIONS["spar"]
    with pytest.raises(PositionError, match="move 2"):
        position_of("spar", {**game, "moves": ["1 play:9H", "1 play:8H"]})
    with pytest.raises(PositionError, match="not in seat"):
        position_of("spar", {**game, "ring": ["AS"]})
    with pytest.raises(PositionError, match="seat"):
        position_of("spar", {**game, "moves": ["play:9H"]})
