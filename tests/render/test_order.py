"""Hands drawn in each game's hand order (``Rules.hand_key``): suits with colours alternating,
each from high to low in the game's own rank order, trumps together and first."""

from __future__ import annotations

from bot.pictures.order import sort_hand


def test_twenty_two_sorts_by_rank_alone_so_sets_sit_together() -> None:
    view = {"game": "twenty-two"}
    assert sort_hand(view, ["3S", "KH", "3D", "AC", "KS"]) == ["AC", "KS", "KH", "3S", "3D"]


def test_1234_counts_the_king_highest_and_the_ace_lowest() -> None:
    assert sort_hand({"game": "1234"}, ["AS", "KS", "2S", "QH"]) == ["KS", "2S", "AS", "QH"]


def test_bhabhi_groups_suits_with_the_ace_high_and_colours_alternating() -> None:
    hand = ["TS", "AH", "2S", "AS", "5D", "KC"]
    assert sort_hand({"game": "bhabhi"}, hand) == ["AS", "TS", "2S", "AH", "KC", "5D"]


def test_finesse_puts_the_trumps_first_and_keeps_the_colours_alternating() -> None:
    view = {"game": "finesse", "trumps": "D"}
    assert sort_hand(view, ["AS", "2D", "KH", "AD", "3C"]) == ["AD", "2D", "AS", "KH", "3C"]
    assert sort_hand({**view, "trumps": "H"}, ["AS", "2D", "KH", "3C"]) == [
        "KH", "AS", "2D", "3C"]
    assert sort_hand({**view, "trumps": "NT"}, ["2D", "AS"]) == ["AS", "2D"]


def test_bear_puts_every_trump_first_in_the_contracts_trump_order() -> None:
    # Grand black: the black honours lead the trumps (A♠ A♥ K♠ K♥ Q♠ Q♥ J♠ J♥).
    honours = ["AS", "AH", "KS", "KH", "QS", "QH", "JS", "JH"]
    view = {"game": "bear", "trumps": "grand-black", "trump_order": honours}
    hand = ["TS", "QH", "7C", "7S", "8S", "7H", "JH", "KS", "AH", "8D"]
    assert sort_hand(view, hand) == ["AH", "KS", "QH", "JH", "TS", "8S", "7S", "7H", "7C", "8D"]
    # A suit game: that suit's low cards join the honours as trumps.
    clubs = {"game": "bear", "trumps": "C",
             "trump_order": [*honours, "TC", "9C", "8C", "7C"]}
    assert sort_hand(clubs, ["TC", "AS", "9C", "TS", "JH", "8D"]) == [
        "AS", "JH", "TC", "9C", "TS", "8D"]  # after black trumps: ♥ ♠ ♦


def test_spar_follows_its_members_own_rank_order() -> None:
    mali = {"game": "spar", "variant": "agram-mali"}  # A K T Q 9 8 J 7, high to low
    assert sort_hand(mali, ["7S", "JS", "TS", "QS", "AS"]) == ["AS", "TS", "QS", "JS", "7S"]
    plain = {"game": "spar", "variant": "spar"}
    assert sort_hand(plain, ["6H", "AS", "TH"]) == ["AS", "TH", "6H"]


def test_sugekari_orders_by_the_number_a_card_counts_jokers_first() -> None:
    assert sort_hand({"game": "sugekari-21"}, ["KS", "AH", "TS", "JD", "BJ", "5C"]) == [
        "BJ", "TS", "5C", "AH", "JD", "KS"]


def test_an_unknown_game_or_card_keeps_a_sensible_order() -> None:
    assert sort_hand({"game": "other"}, ["2H", "AS"]) == ["AS", "2H"]
    assert sort_hand({"game": "bear", "trump_order": []}, ["??", "AS"]) == ["??", "AS"]
