"""One resolve() for every form a choice takes (issue #49, item 3): a legal move's index, a
move, its text, its cards, cards and a kind; each refusal with its real reason, worded from the
catalogues in the reader's language; and through the service's one ``act``."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client.tree import refusal_text
from bot.tables import Cards, Refusal, TableManager
from bot.tables.turns import resolve
from games import wording
from games.cards import parse
from games.core import Action, View
from tests.bot.conftest import Recorder
from tests.bot.test_service import mover, two_people
from tests.bot.test_tables import BOB, HOST, live


class Stub:
    """Just what resolve reads of a state: a seat's legal moves and its hand."""

    def __init__(self, legal: list[str], hand: list[str]) -> None:
        self.legal = [Action.parse(a) for a in legal]
        self.hand = hand

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self.legal)

    def view(self, seat: int | None) -> View:
        return View({"hand": list(self.hand)})


#: a seat holding four cards that may play one, or exchange two (TS and 9H make both)
STATE = Stub(["play:TS", "play:9H", "play:2C", "exchange:TS,9H", "play:TS,9H", "pass"],
             ["TS", "9H", "2C", "KD"])


def refused(choice: Any, state: Stub = STATE) -> Refusal:
    with pytest.raises(Refusal) as caught:
        resolve(state, 0, choice)  # type: ignore[arg-type]
    return caught.value


def test_an_index_names_that_legal_move() -> None:
    assert resolve(STATE, 0, 2) == Action.parse("play:2C")  # type: ignore[arg-type]
    assert resolve(STATE, 0, 5) == Action.parse("pass")  # type: ignore[arg-type]
    for wrong in (-1, 6, True):
        assert refused(wrong).key == "no-such-choice"


def test_a_move_and_a_text_are_the_move_they_say() -> None:
    move = Action.parse("play:KD")  # not legal now: the rules say why when it is applied
    assert resolve(STATE, 0, move) is move  # type: ignore[arg-type]
    assert resolve(STATE, 0, "play:9H") == Action.parse("play:9H")  # type: ignore[arg-type]
    bad = refused("play:ZZ")
    assert bad.key == "illegal" and bad.params["reason"] == wording.msg(
        "move-not-a-card", code="ZZ")


def test_cards_name_the_one_move_made_of_them_in_any_order() -> None:
    assert resolve(STATE, 0, ["2C"]) == Action.parse("play:2C")  # type: ignore[arg-type]
    assert resolve(STATE, 0, [parse("2C")]) == Action.parse(  # type: ignore[arg-type]
        "play:2C")
    assert resolve(STATE, 0, Cards(("9H",))) == Action.parse(  # type: ignore[arg-type]
        "play:9H")


def test_cards_with_their_kind_name_that_kind_of_move() -> None:
    found = resolve(STATE, 0, Cards(("9H", "TS"), kind="exchange"))  # type: ignore[arg-type]
    assert found == Action.parse("exchange:TS,9H")
    found = resolve(STATE, 0, Cards(("9H", "TS"), kind="play"))  # type: ignore[arg-type]
    assert found == Action.parse("play:TS,9H")


def test_cards_of_several_moves_are_refused_saying_so() -> None:
    which = refused(["9H", "TS"])
    assert which.key == "which-move" and which.params["cards"] == (parse("9H"), parse("TS"))


def test_cards_not_held_are_refused_naming_them() -> None:
    missing = refused(["TS", "AS"])
    assert missing.key == "not-in-hand" and missing.params["cards"] == (parse("AS"),)
    assert refused(Cards(("QC",), kind="play")).key == "not-in-hand"


def test_a_code_that_is_no_card_is_refused_saying_so() -> None:
    bad = refused(["TS", "ZZ"])
    assert bad.key == "illegal" and bad.params["reason"] == wording.msg(
        "move-not-a-card", code="ZZ")
    for nothing in ([], (), [3]):
        assert refused(nothing).key == "no-such-choice"


def test_held_cards_that_make_no_move_of_the_kind_asked_are_not_a_set() -> None:
    note = refused(Cards(("TS", "2C"), kind="exchange"))
    assert note.key == "not-a-set"
    assert note.params == {"move": wording.msg("move-exchange"),
                           "cards": (parse("TS"), parse("2C"))}
    assert refused(Cards(("TS",), kind="bid")).key == "no-such-choice"  # no move of the kind


def test_held_cards_of_no_move_are_left_to_the_rules_when_one_kind_takes_cards() -> None:
    state = Stub(["play:TS", "play:9H"], ["TS", "9H", "KD"])
    assert resolve(state, 0, ["KD"]) == Action.parse("play:KD")  # type: ignore[arg-type]
    assert refused(["KD"]).key == "no-such-choice"  # play or exchange: not said which


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_refusal_is_worded_in_the_readers_language(lang: str) -> None:
    cards = (parse("TS"), parse("AS"))
    for refusal, key in ((refused(["AS"]), "not-in-hand"), (refused(["9H", "TS"]), "which-move"),
                         (refused(Cards(("TS", "2C"), kind="exchange")), "not-a-set")):
        assert refusal.key == key and key in wording.catalogue(lang)
        text = refusal_text(refusal, lang)
        assert "{" not in text and text == wording.text(key, lang, **{
            k: v.text(lang) if isinstance(v, wording.Msg) else v
            for k, v in refusal.params.items()})
    assert "10♠" in wording.text("which-move", lang, cards=cards[:1])


Manager = tuple[TableManager, Recorder]


async def test_the_service_says_not_your_turn_before_what_the_choice_names(
        manager: Manager) -> None:
    m, _ = manager
    # strict turns, two people
    table = live(m, await m.open(100, 10, "spar", HOST, "Host", seed=5))
    await m.join(table.id, BOB, "Bob")
    await m.start(table.id, HOST)
    assert table.state is not None
    seat, _ = mover(table)
    waiting = table.seats[1 - seat].user_id
    assert not table.state.legal_actions(1 - seat)
    for choice in (99, ["AS"], "play:ZZ"):
        with pytest.raises(Refusal) as caught:
            await m.act(table.id, waiting, 0, choice)  # type: ignore[arg-type]
        assert caught.value.key == "not-your-turn", choice
    assert table.version == 0


async def test_the_service_refuses_cards_not_held_and_a_stale_version(manager: Manager) -> None:
    m, _ = manager
    table = await two_people(m)
    seat, user = mover(table)
    assert table.state is not None
    hand = {str(c) for c in table.state.view(seat)["hand"]}
    absent = next(c for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S") if c not in hand)
    with pytest.raises(Refusal) as caught:
        await m.act(table.id, user, 0, [absent])
    assert caught.value.key == "not-in-hand" and caught.value.params["cards"] == (
        parse(absent),)
    with pytest.raises(Refusal) as caught:
        await m.act(table.id, user, 5, 0)
    assert caught.value.key == "stale" and table.version == 0
