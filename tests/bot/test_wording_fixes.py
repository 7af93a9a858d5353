"""Wordings players found odd, fixed: a review's decision numbered among the person's own
moves, no '± 0' beside a cost, an honest wait for a review, sentences joined the way each
language joins them; a hint at a forced move does not make the game unrated."""

from __future__ import annotations

from pathlib import Path

import pytest

import games
from bot.i18n import t
from bot.storage.ratings import unrated_reason
from bot.storage.store import Storage
from bot.tables import TableManager
from bot.tables.hints import Hint, hint_text
from bot.tables.review import own_move, shown, summary
from games.ai import review as rv
from games.ai.analysis import Outlook
from games.core import Action
from tests.bot.fakegame import lookup
from tests.bot.test_hints import made_up
from tests.bot.test_tables import live
from tests.games.test_review import played

HOST, GUEST = 1, 2


def judged_at(game: rv.Game, index: int, error: float) -> rv.Judged:
    """A decision at the game's move ``index``, costing 19 points of 100 ± ``error``."""
    state = game.start()
    for mover, action in game.actions[:index]:
        state.apply(mover, Action.parse(action))
    seat, made = game.actions[index][0], Action.parse(game.actions[index][1])
    other = next(a for a in state.legal_actions(seat) if not a.same_as(made))
    return rv.Judged(index, 1, state.view(seat).to_dict(), len(state.legal_actions(seat)),
                     made, other, 0.19, error)


def decision(game: rv.Game, seat: int, nth: int) -> int:
    """The game's move number of the seat's ``nth`` move (1: its first) with a choice."""
    state = game.start()
    found = 0
    for index, (mover, action) in enumerate(game.actions):
        if mover == seat and len(state.legal_actions(seat)) > 1:
            found += 1
            if found == nth:
                return index
        state.apply(mover, Action.parse(action))
    raise AssertionError("the game has no such decision")


def test_a_decision_is_numbered_among_the_persons_own_moves() -> None:
    assert own_move([0, 1, 2, 0, 1, 2, 0], 0, 6) == 3
    assert own_move([0, 1, 2, 0, 1, 2, 0], 1, 4) == 2
    game = played("twenty-two", seed=3)
    movers = [seat for seat, _ in game.actions]
    index = decision(game, 1, 3)
    assert index > 3, "the test needs a decision after other seats moved"
    own = own_move(movers, 1, index)
    assert own < index + 1  # the game's own count would say more
    review = rv.Review("twenty-two", 1, 5, (judged_at(game, index, 0.04),))
    [en] = shown(review, "en", movers)
    [ja] = shown(review, "ja", movers)
    assert en.title == f"1. Your move {own} (deal 1)"
    assert ja.title == f"1. あなたの{own}手目（第1ディール）"


def test_a_cost_shows_its_margin_only_when_there_is_one() -> None:
    game = played("twenty-two", seed=3)
    movers = [seat for seat, _ in game.actions]
    index = decision(game, 0, 2)
    for error, en_cost, ja_cost in (
            (0.04, "Estimated cost: **19** points (± 4)", "推定損失：**19** 点（± 4）"),
            (0.004, "Estimated cost: **19** points", "推定損失：**19** 点")):
        review = rv.Review("twenty-two", 0, 5, (judged_at(game, index, error),))
        [en] = shown(review, "en", movers)
        [ja] = shown(review, "ja", movers)
        assert en.body.splitlines()[-1] == en_cost
        assert ja.body.splitlines()[-1] == ja_cost
        assert "± 0" not in en.body + ja.body


def test_the_wait_for_a_review_is_said_honestly() -> None:
    # a review takes 10 to 14 seconds when the computers are free
    assert t("rv-working", "en") == (
        "Your review is being prepared; it will appear here in about 15 seconds.")
    assert "15秒ほど" in t("rv-working", "ja") and "数秒" not in t("rv-working", "ja")


def test_sentences_are_joined_as_each_language_joins_them() -> None:
    none = rv.Review("twenty-two", 0, 2)
    assert summary(none, "22", 5, "en").splitlines()[1] == (
        "2 of your decisions were judged, each from what you could see at the time (never "
        "from the cards hidden from you). None of them was costly: wherever the computer "
        "preferred another move, the difference was within what its estimate can tell apart.")
    assert "。損失の大きい手は" in summary(none, "22", 5, "ja")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_answer_to_a_hint_at_a_forced_move_says_it_does_not_count(lang: str) -> None:
    analysis = made_up("spar", [Outlook(0.5, 0.0, 0.5)], [Action.parse("play:9C")])
    text = hint_text(games.get("spar"), 2, {}, Hint(analysis, 0, counted=False), lang)
    first, footer = text.splitlines()
    assert t("hint-forced", lang) in first
    assert footer == t("hint-footer-forced", lang, count=0)
    assert ("does not count" in footer) if lang == "en" else ("数えません" in footer)
    assert "unrated" not in text and "レート対象外" not in text


async def test_a_hint_at_a_forced_move_is_not_counted_and_the_game_stays_rated(
        tmp_path: Path) -> None:
    store = await Storage.open(str(tmp_path / "h.sqlite3"))
    m = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="normal")
    try:
        table = live(m, await m.open(100, 200, "high-card", HOST, "Host", seed=3))
        await m.join(table.id, GUEST, "Guest")
        await m.set_option(table.id, HOST, "hand", 2)
        await m.set_hints(table.id, HOST, True)
        await m.start(table.id, HOST)
        assert m.thinker.scheduler is not None
        m.thinker.scheduler.full = 0.1
        state = table.state
        assert state is not None
        # the first trick: two cards in hand, a real choice; the hint counts
        seat = state.to_act[0]
        person = table.seats[seat].user_id
        assert person is not None and len(state.legal_actions(seat)) == 2
        hint = await m.hint(table.id, person, table.version)
        assert hint.counted and hint.count == 1 and table.seats[seat].hints == 1
        # a second table: the last card is the only move; its hint does not count
        other = live(m, await m.open(101, 201, "high-card", HOST, "Host", seed=4))
        await m.join(other.id, GUEST, "Guest")
        await m.set_option(other.id, HOST, "hand", 1)
        await m.set_hints(other.id, HOST, True)
        await m.start(other.id, HOST)
        assert other.state is not None
        seat = other.state.to_act[0]
        person = other.seats[seat].user_id
        assert person is not None and len(other.state.legal_actions(seat)) == 1
        hint = await m.hint(other.id, person, other.version)
        assert not hint.counted and hint.count == 0
        assert other.seats[seat].hints == 0
        row = await store.table(other.id)
        assert row is not None and not row.seats[seat].get("hints")
        assert unrated_reason(row.seats) is None
    finally:
        await m.close()
        await store.close()
