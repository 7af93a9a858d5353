"""bot.tables.replay: a recorded game rebuilt up to a move, handed over as a frozen snapshot that
shows
and explains exactly what the game state itself would (the same public view, news, deals and
results wording), with no game state in it."""

from __future__ import annotations

import dataclasses
import random

import pytest

import games
from bot.storage.records import Record
from bot.tables import results
from bot.tables.replay import Replayed, replay
from games.ai import get_player, observe
from games.core import IllegalAction, Rules, State

NAMES = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"]


def played(game_id: str, seed: int) -> tuple[Rules, Record, list[State]]:
    """A game played by computers, its record, and its state after each move (0..total)."""
    rules = games.get(game_id)
    players = rules.usual_players
    state = rules.new_game(players, seed=seed)
    states = [state.clone()]
    actions: list[tuple[int, str]] = []
    player = get_player("normal", game_id)
    rng = random.Random(seed)
    while not state.over:
        seat = state.to_act[0]
        action = player.choose(observe(state, seat), rng)
        state.apply(seat, action)
        actions.append((seat, str(action)))
        states.append(state.clone())
    seats = [{"name": NAMES[s], "user_id": 100 + s, "computer": False}
             for s in range(players)]
    record = Record(1, 7, game_id, {}, seed, seats, [], [], True, 0.0, 1.0, actions)
    return rules, record, states


@pytest.mark.parametrize("game_id", ["spar", "finesse", "bear", "1234"])
def test_a_replayed_step_shows_and_explains_what_the_state_does(game_id: str) -> None:
    rules, record, states = played(game_id, seed=3)
    total = len(record.actions)
    ended = [i for i in range(1, total + 1)
             if len(states[i].breakdown()) > len(states[i - 1].breakdown())]
    assert ended, "some deal ended"
    kept_back = 0  # deals explained while some of their cards are back in hands
    for step in sorted({0, 1, total // 2, *ended, total}):
        at = replay(rules, record, step)
        state = states[step]
        assert (at.step, at.total) == (step, total)
        assert at.public == state.view(None).to_dict()
        assert at.public_view == state.view(None)
        assert at.tallies == tuple(state.breakdown())
        assert at.hidden == results.hidden_now(state)
        kept_back += bool(at.hidden) and at.tallied
        assert at.tallied == (step in ended)
        assert at.over == state.over and at.at_end == (step == total)
        assert at.players == state.players and dict(at.game_options) == dict(state.options)
        assert at.seat == (record.actions[step - 1][0] if step else None)
        for lang in ("en", "ja"):
            assert results.last_deal(rules, at, NAMES, lang) == \
                results.last_deal(rules, state, NAMES, lang)
            assert results.summary(rules, at, NAMES, lang) == \
                results.summary(rules, state, NAMES, lang)
    assert kept_back, "the hidden cards were put to the test"
    last = replay(rules, record, total)
    assert last.outcome is not None and last.outcome == states[-1].outcome
    assert results.last_deal(rules, last, NAMES, "en") is not None


def test_a_steps_news_is_the_public_news_of_that_move() -> None:
    rules, record, states = played("spar", seed=5)
    for step in (1, 2, len(record.actions)):
        again = states[step - 1].clone()
        seat, action = record.actions[step - 1]
        news = tuple(e.for_seat(None) for e in again.apply(seat, action))
        assert replay(rules, record, step).events == news


def test_steps_outside_the_record_are_clamped() -> None:
    rules, record, states = played("twenty-two", seed=2)
    start = replay(rules, record, -4)
    assert (start.step, start.seat, start.events, start.tallied) == (0, None, (), False)
    assert start.public == states[0].view(None).to_dict() and not start.over
    past = replay(rules, record, len(record.actions) + 9)
    assert past.step == len(record.actions) and past.at_end


def test_the_snapshot_holds_no_game_state_and_cannot_be_changed() -> None:
    rules, record, _ = played("finesse", seed=1)
    at = replay(rules, record, len(record.actions) // 2)
    for item in dataclasses.fields(Replayed):
        assert not isinstance(getattr(at, item.name), State), item.name
    with pytest.raises(dataclasses.FrozenInstanceError):
        at.step = 0  # type: ignore[misc]


def test_a_record_the_rules_no_longer_replay_is_refused() -> None:
    """/history leaves such a game unexplained (it catches ValueError)."""
    rules, record, _ = played("spar", seed=4)
    seat, _action = record.actions[0]
    broken = dataclasses.replace(record, actions=[(seat, "play:ZZ"), *record.actions[1:]])
    with pytest.raises(IllegalAction):
        replay(rules, broken, 3)
    assert issubclass(IllegalAction, ValueError)


async def test_the_replay_message_words_each_step_as_the_state_would(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """/replay's message, made from the snapshot: the step's news, the public view's text and
    picture, and a deal's explanation exactly at the moves that end one (and at the end)."""
    from types import SimpleNamespace
    from typing import Any

    import discord

    from bot.i18n import t
    from cogs import stats
    from cogs.stats import StatsCog

    rules, record, states = played("finesse", seed=2)
    names = NAMES[:len(record.seats)]
    pictured: list[dict[str, Any]] = []

    async def picture(view: dict[str, Any], names: list[str], lang: str) -> bytes:
        pictured.append(view)
        return b"png"

    async def game(table_id: int) -> Record:
        return record

    monkeypatch.setattr(stats, "table_png_async", picture)
    cog: Any = SimpleNamespace(bot=SimpleNamespace(rules_for=games.get),
                               records=SimpleNamespace(game=game))
    cog.game_name = lambda game_id, lang: StatsCog.game_name(cog, game_id, lang)
    total = len(record.actions)
    ended = [i for i in range(1, total + 1)
             if len(states[i].breakdown()) > len(states[i - 1].breakdown())]
    for lang, locale in (("en", discord.Locale.american_english),
                         ("ja", discord.Locale.japanese)):
        asked: Any = SimpleNamespace(locale=locale)
        for step in sorted({0, 1, ended[0] - 1, *ended[:3], total}):
            state = states[step]
            shown = await StatsCog.replay_message(cog, 7, 1, step, asked)
            embed = shown["embed"]
            described = embed.description
            assert rules.view_text(state.view(None), lang) in described
            if step == 0:
                assert described.startswith(t("st-replay-start", lang))
            else:
                seat, action = record.actions[step - 1]
                news = [text for e in states[step - 1].clone().apply(seat, action)
                        if (text := rules.event_text(e.for_seat(None), lang, names))]
                assert described.startswith(" ".join(news) or t("st-replay-quiet", lang))
            assert pictured[-1] == state.view(None).to_dict()
            found = {f.name: f.value for f in embed.fields}
            deal = results.last_deal(rules, state, names, lang)
            if step in ended or step == total:
                assert deal is not None and found[deal[0]] == deal[1], (step, found)
            else:
                assert not found, (step, found)
            assert embed.footer.text == t("st-replay-step", lang, step=step, total=total)
