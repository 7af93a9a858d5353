"""The played last parts of the lessons on an option (Getaway's shootout, Sugekari's jokers):
each starts late in a game through its prelude, and the learner really plays the option."""

from __future__ import annotations

from typing import Any

import pytest

from games import tutorials
from games.core import Action
from games.tutorials.runner import LEARNER, NEXT, Lesson, TutorialError, parse, replay


def _to_last_part(game: str, lang: str = "en") -> Lesson:
    lesson = tutorials.lesson(game, lang)
    last = len(lesson.tutorial.parts) - 1
    while lesson.part < last:
        step = lesson.current
        assert step is not None
        assert lesson.act(step.do[0] if step.do else NEXT).accepted
    return lesson


def test_getaway_the_learner_plays_the_shootout_and_wins_it() -> None:
    lesson = _to_last_part("bhabhi")
    assert lesson.tutorial.parts[-1].options["shootout"] is True
    view = lesson.view()
    assert view["hand_counts"][1] == 0 and view["trick"][0]["card"] == "JC"
    step = lesson.current
    assert step is not None
    assert lesson.act(step.do[0]).accepted
    assert lesson.view()["phase"] == "shootout"  # seat 2's last card won: a shootout
    assert any("Shootout" in event for event in lesson.events)
    followed = 0
    while lesson.view()["phase"] == "shootout":
        step = lesson.current
        assert step is not None and step.do
        assert lesson.act(step.do[0]).accepted
        followed += 1
    assert followed == 3 and lesson.done
    # seat 2 could not follow the last turned card: the learner is safe, seat 2 the last
    assert list(lesson.state.view(LEARNER)["outcome"]["winners"]) == [LEARNER]


def test_getaway_beating_the_last_card_is_answered_with_why_the_shootout_matters() -> None:
    lesson = _to_last_part("bhabhi", "ja")
    step = lesson.current
    assert step is not None and step.why is not None
    answer = lesson.act("play:AC")  # legal, but it would end the game at once
    assert not answer.accepted and answer.reason == step.why("ja")
    answer = lesson.act("play:QS")  # not a club: the engine's own reason
    assert not answer.accepted and answer.reason != step.why("ja")


@pytest.mark.parametrize("way", ["play=5:BJ", "play=4:BJ", "play=half:BJ"])
def test_sugekari_the_learner_plays_a_joker_either_way(way: str) -> None:
    lesson = _to_last_part("sugekari-21")
    assert lesson.state.deal_number == 2  # the jokers come in game 2
    view = lesson.view()
    assert "BJ" in view["hand"] and view["total"] == 16
    step = lesson.current
    assert step is not None and step.teaches(Action.parse(way))
    assert lesson.act(way).accepted
    after = lesson.view()
    assert "BJ" not in after["hand"]
    if way == "play=5:BJ":  # exactly 21 takes the round: 3 cards, and −5 for the joker
        assert after["captured_counts"][0] == -2 and not after.get("round")
    else:
        assert after["round"][-1]["card"] == "BJ"
        assert after["total"] == (20 if way == "play=4:BJ" else 8)
    assert lesson.act(NEXT).accepted and lesson.done


def test_sugekari_a_joker_is_the_point_of_its_step() -> None:
    lesson = _to_last_part("sugekari-21")
    step = lesson.current
    assert step is not None and step.why is not None
    answer = lesson.act("play:2H")  # legal, but not the joker
    assert not answer.accepted and answer.reason == step.why("en")
    answer = lesson.act("play:BJ")  # a joker says how it is played
    assert not answer.accepted and "joker" in (answer.reason or "").lower()
    # the joker is offered only in the ways it can be played, each named in words
    labels = [lesson.label(a) for a in lesson.choices()]
    jokers = [label for label in labels if "Joker" in label]
    assert jokers == ["Play Black Joker as 5", "Play Black Joker as 4",
                      "Play Black Joker: halve the total"], labels


def test_a_prelude_that_no_longer_fits_is_caught() -> None:
    raw: dict[str, Any] = {
        "game": "bhabhi", "title": {"en": "t", "ja": "て"}, "summary": {"en": "s", "ja": "す"},
        "parts": [{"players": 4, "options": {"dealer": 0},
                   "deck": " ".join(tutorials.load("bhabhi").parts[0].deck),
                   "prelude": "0/play:AS 1/play:AS",
                   "script": [{"say": {"en": "read", "ja": "読む"}}]}]}
    problems = replay(parse(raw))
    assert problems and "prelude move 2" in problems[0]
    with pytest.raises(TutorialError, match="prelude move 1"):
        parse({**raw, "parts": [{**raw["parts"][0], "prelude": "0 play:AS"}]})
