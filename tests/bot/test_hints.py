"""Hints outside Discord: thought in a worker process, worded in each game's terms in English
and Japanese, counted with the game and making it unrated; the table's option stored."""

from __future__ import annotations

import dataclasses
import os
import pickle
import re
from pathlib import Path

import pytest

import games
from bot.i18n import t
from bot.storage.ratings import unrated_reason
from bot.storage.store import Storage
from bot.tables import Refusal, TableManager
from bot.tables.hints import Hint, hint_text, measures
from bot.tables.results import unrated_text
from bot.tables.thinking import Thinker
from games.ai.analysis import Analysis, MoveValue, Outlook, analyse_pickled
from games.core import Action
from tests.bot.fakegame import lookup
from tests.bot.test_tables import live

HOST, GUEST = 1, 2
RAW_CODE = re.compile(r"\b(?:[2-9TJQKA][SHDC]|10[SHDC])\b")


def made_up(game: str, outlooks: list[Outlook], actions: list[Action]) -> Analysis:
    moves = tuple(MoveValue(a, 0.6 - 0.1 * i, 0.02, 40, o)
                  for i, (a, o) in enumerate(zip(actions, outlooks, strict=True)))
    return Analysis(0, actions[0], moves, 400, 120, outlooks[0])


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_words_of_each_game(lang: str) -> None:
    play = [Action.parse("play:9C"), Action.parse("play:7D")]
    spar = games.get("spar")
    text = hint_text(spar, 2, {}, Hint(made_up("spar", [Outlook(0.78, 1.0, 0.4),
                                                        Outlook(0.2, 0.5, 0.3)], play), 1),
                     lang)
    first, second, footer = text.splitlines()
    if lang == "en":
        assert first == ("Hint: **Play 9♣** — wins this trick in 78%, and you win the deal "
                         "(the last trick) in 40% of the deals consistent with what you have "
                         "seen.")
        # the runner-up in the same measures, though it mostly loses the trick
        assert second.startswith("Next best: Play 7♦ — wins this trick in 20%, and you win")
        assert footer == ("Judged from your own view only, over 120 deals that fit it. Hints "
                          "you used in this game: 1 (the game is unrated).")
    else:
        assert first.startswith("ヒント：**9♣を出す** — あなたから見てありうる配り方のうち、78%で")
        assert "120通り" in footer and "1回" in footer
    # a move that mostly lets the trick go is explained by the deal alone
    low = Outlook(0.1, 1.0, 0.4)
    assert measures("spar", low, "hint-goal-spar") == ("goal",)
    assert measures("finesse", low, None) == ("points",)
    assert measures("finesse", Outlook(0.9, 2.0, None), None) == ("trick",)
    finesse = games.get("finesse")
    partner = hint_text(finesse, 4, {}, Hint(made_up("finesse", [Outlook(0.9, 2.0, None)] * 2,
                                                     play), 3), lang)
    assert (("your side wins this trick in 90%" in partner) if lang == "en"
            else ("90%でこのトリックをあなたの側が取ります" in partner))
    points = hint_text(games.get("1234"), 4, {}, Hint(made_up(
        "1234", [Outlook(None, -2.5, None)] * 2, play), 1), lang)
    assert ("worth −2.5 points" in points) if lang == "en" else ("平均−2.5です" in points)
    bear = games.get("bear")
    for declarer, words in (
            (0, ("you make your contract in 55%", "55%で契約を達成します")),
            (1, ("the declarer fails in 55%", "55%でデクレアラーの契約が失敗します"))):
        said = hint_text(bear, 3, {}, Hint(made_up("bear", [Outlook(0.2, 0.0, 0.55)] * 2, play),
                                           1, {"declarer": declarer}), lang)
        assert words[0 if lang == "en" else 1] in said
    forced = hint_text(spar, 2, {}, Hint(made_up("spar", [Outlook(0.5, 0, 0.5)], play[:1]), 2),
                       lang)
    assert t("hint-forced", lang) in forced and "\n" + t("hint-next", lang)[:4] not in forced
    for said in (text, partner, points, forced):
        assert not RAW_CODE.search(said.replace("♣", "").replace("♦", "")), said


def test_a_runner_up_that_measured_better_is_not_shown() -> None:
    play = [Action.parse("play:9C"), Action.parse("play:7D")]
    analysis = made_up("spar", [Outlook(0.5, 0.0, 0.2), Outlook(0.6, 0.0, 0.3)], play)
    better = dataclasses.replace(analysis.moves[1], value=0.9)
    turned = Analysis(0, play[0], (analysis.moves[0], better), 400, 120, analysis.detail)
    text = hint_text(games.get("spar"), 2, {}, Hint(turned, 1), "en")
    assert "Next best" not in text and text.startswith("Hint: **Play 9♣**")


def test_hints_make_a_game_unrated_and_say_so() -> None:
    people = [{"user_id": 1, "computer": False}, {"user_id": 2, "computer": False}]
    assert unrated_reason(people) is None
    hinted = [people[0], {**people[1], "hints": 2}]
    assert unrated_reason(hinted) == "hints"
    assert unrated_text(hinted, "en", finished=True) == "This game was unrated: hints were used."
    assert unrated_text(hinted, "en", finished=False) == "Unrated: a hint was used."
    assert unrated_text(hinted, "ja", finished=True) == (
        "この対局はレート対象外でした：ヒントが使われました。")
    # a computer stays the reason given when both apply
    assert unrated_reason([hinted[1], {"user_id": None, "computer": True}]) == "computer"


async def test_the_option_and_the_count_are_stored_and_refusals(tmp_path: Path) -> None:
    store = await Storage.open(str(tmp_path / "h.sqlite3"))
    m = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="normal")
    try:
        table = live(m, await m.open(100, 200, "high-card", HOST, "Host", seed=3))
        await m.join(table.id, GUEST, "Guest")
        with pytest.raises(Refusal) as refused:
            await m.set_hints(table.id, GUEST, True)
        assert refused.value.key == "host-only"
        with pytest.raises(Refusal) as refused:
            await m.hint(table.id, HOST, 0)
        assert refused.value.key == "hints-off"
        await m.set_hints(table.id, HOST, True)
        assert (await store.table(table.id)).hints  # type: ignore[union-attr]
        with pytest.raises(Refusal) as refused:
            await m.hint(table.id, HOST, 0)
        assert refused.value.key == "not-started"
        await m.start(table.id, HOST)
        assert m.thinker.scheduler is not None
        m.thinker.scheduler.full = 0.1
        state = table.state
        assert state is not None
        seat = state.to_act[0]
        person = table.seats[seat].user_id
        waiting = table.seats[1 - seat].user_id
        assert person is not None and waiting is not None
        with pytest.raises(Refusal) as refused:
            await m.hint(table.id, waiting, table.version)
        assert refused.value.key == "hint-not-your-turn"
        with pytest.raises(Refusal) as refused:
            await m.hint(table.id, person, table.version + 1)
        assert refused.value.key == "hint-stale"
        hint = await m.hint(table.id, person, table.version)
        assert hint.count == 1 and hint.analysis.best in state.legal_actions(seat)
        hint = await m.hint(table.id, person, table.version)
        assert hint.count == 2 and table.seats[seat].hints == 2
        row = await store.table(table.id)
        assert row is not None and row.hints and row.seats[seat]["hints"] == 2
        # workers that cannot fit a hint in time: it is refused, not counted
        m.thinker.scheduler.patience = 0.0
        with pytest.raises(Refusal) as refused:
            await m.hint(table.id, person, table.version)
        assert refused.value.key == "hint-busy" and table.seats[seat].hints == 2
        assert t("hint-busy", "en").startswith("The computer players are busy")
        # a restart keeps both
        await m.close()
        m = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="normal")
        [again] = await m.resume()
        assert again.hints and again.seats[seat].hints == 2
    finally:
        await m.close()
        await store.close()


async def test_a_hint_is_thought_in_a_worker_from_the_seats_view_only() -> None:
    thinker = Thinker("hard", workers=1, budget=0.1)
    try:
        rules = games.get("spar")
        state = rules.new_game(2, seed=11)
        seat = state.to_act[0]
        blob = pickle.dumps(state)
        found = await thinker.offload(analyse_pickled, blob, seat, 7, label="hint")
        assert found is not None and found.best in state.legal_actions(seat)
        assert thinker.worker_pids() and os.getpid() not in thinker.worker_pids()
        assert found.seat == seat and {m.action for m in found.moves} <= set(
            state.legal_actions(seat))
        assert all(0.0 <= m.value <= 1.0 for m in found.moves)
    finally:
        await thinker.close()


async def test_a_hint_whose_count_cannot_be_stored_is_refused_and_not_counted(
        tmp_path: Path) -> None:
    """A hint makes the game unrated, so its count is stored before the hint is shown: with
    the database down the hint is refused as not saved, the count stays as stored, and once
    the database answers the same hint is shown and counted once."""
    store = await Storage.open(str(tmp_path / "h.sqlite3"))
    m = TableManager(store, rules_for=lookup, ai_delay=0.0, ai_level="normal")
    try:
        table = live(m, await m.open(100, 200, "high-card", HOST, "Host", seed=3))
        await m.join(table.id, GUEST, "Guest")
        await m.set_hints(table.id, HOST, True)
        await m.start(table.id, HOST)
        assert m.thinker.scheduler is not None
        m.thinker.scheduler.full = 0.1
        state = table.state
        assert state is not None
        seat = state.to_act[0]
        person = table.seats[seat].user_id
        assert person is not None
        real = store.save_table

        async def down(*args: object, **kwargs: object) -> None:
            raise OSError("the database is down")

        store.save_table = down  # type: ignore[method-assign]
        with pytest.raises(Refusal) as refused:
            await m.hint(table.id, person, table.version)
        assert refused.value.key == "not-saved" and table.seats[seat].hints == 0
        store.save_table = real  # type: ignore[method-assign]
        hint = await m.hint(table.id, person, table.version)
        assert hint.count == 1
        row = await store.table(table.id)
        assert row is not None and row.seats[seat]["hints"] == 1
    finally:
        await m.close()
        await store.close()
