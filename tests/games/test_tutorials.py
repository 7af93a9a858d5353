"""The guided deals: every tutorial still fits the engine, and the runner answers as promised."""

from __future__ import annotations

import copy
import re

import pytest

from games import tutorials, wording
from games.core import Action, IllegalAction
from games.tutorials.runner import (
    LEARNER,
    MAX_CHOICES,
    NEXT,
    Lesson,
    LessonStep,
    TutorialError,
    parse,
    replay,
)

GAMES = tutorials.ids()


def test_some_games_are_taught() -> None:
    assert GAMES, "no tutorial found"


@pytest.mark.parametrize("game", GAMES)
def test_tutorial_replays_against_the_engine(game: str) -> None:
    """Every computer move and every taught move of the script is legal when it comes."""
    assert replay(tutorials.load(game)) == []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_following_the_steps_reaches_the_summary(game: str, lang: str) -> None:
    lesson = tutorials.lesson(game, lang)
    texts = set()
    while not lesson.done:
        step = lesson.current
        assert step is not None
        texts.add(lesson.text())
        choices = lesson.choices()
        for taught in step.do or (Action(NEXT),):
            assert any(taught.same_as(c) for c in choices), taught
        answer = lesson.act(step.do[0] if step.do else NEXT)
        assert answer.accepted, answer.reason
    assert lesson.step == lesson.tutorial.steps
    assert lesson.text() == lesson.tutorial.summary(lang)
    assert len(texts) == lesson.tutorial.steps  # every step says something of its own
    assert not lesson.act(NEXT).accepted


@pytest.mark.parametrize("game", GAMES)
def test_every_text_is_in_both_languages(game: str) -> None:
    """Every text of a lesson is a key of the lessons' catalogue, translated (not the English
    fallen back to) in Japanese."""
    tutorial = tutorials.load(game)
    texts = [tutorial.title, tutorial.summary]
    for part in tutorial.parts:
        for item in part.script:
            if isinstance(item, LessonStep):
                texts += [text for text in (item.say, item.why) if text is not None]
    for text in texts:
        assert text.key in wording.catalogue("ja"), text.key
        assert text("en") != text("ja")
        assert any(ord(ch) > 0x3000 for ch in text("ja")), text("ja")


def first_untaught(lesson: Lesson, legal: bool) -> Action:
    """Walk ``lesson`` (by its taught moves) to the first step offering a choice it does not
    teach that is legal (or, with ``legal=False``, illegal), and return that choice."""
    while not lesson.done:
        step = lesson.current
        assert step is not None
        allowed = lesson.state.legal_actions(LEARNER)
        for action in lesson.choices():
            is_legal = any(action.same_as(a) for a in allowed)
            if step.do and not step.teaches(action) and is_legal == legal:
                return action
        lesson.act(step.do[0] if step.do else NEXT)
    raise AssertionError(f"no step offers a{'' if legal else 'n il'}legal move it does not teach")


@pytest.mark.parametrize("game", GAMES)
def test_another_legal_move_is_answered_with_the_steps_point(game: str) -> None:
    """At the first step that offers a legal alternative, it is refused with the step's why."""
    lesson = tutorials.lesson(game, "en")
    other = first_untaught(lesson, legal=True)
    step = lesson.current
    assert step is not None and step.why is not None
    before = lesson.view()
    answer = lesson.act(other)
    assert not answer.accepted and answer.reason == step.why("en")
    assert lesson.view() == before and lesson.current is step  # nothing moved


@pytest.mark.parametrize("game", GAMES)
def test_an_illegal_move_is_answered_with_the_engines_reason(game: str) -> None:
    """A card of the hand that cannot be played now gets the engine's own sentence, in the
    learner's language: a Japanese learner reads it in Japanese, not the English of str()."""
    lesson = tutorials.lesson(game, "ja")
    wrong = first_untaught(lesson, legal=False)
    with pytest.raises(IllegalAction) as refused:
        lesson.state.clone().apply(LEARNER, wrong)
    before = lesson.view()
    answer = lesson.act(wrong)
    assert not answer.accepted and answer.reason == refused.value.text("ja")
    assert answer.reason != str(refused.value) and not answer.reason.isascii()
    assert lesson.view() == before


@pytest.mark.parametrize("game", GAMES)
def test_the_learners_legal_moves_are_the_engines(game: str) -> None:
    """lesson.legal() (what a front end marks playable by) is the learner's legal list, each
    step of the way: every taught move is in it, an untaught unplayable card is not."""
    lesson = tutorials.lesson(game, "en")
    steps = 0
    while not lesson.done:
        step = lesson.current
        assert step is not None
        legal = lesson.legal()
        assert legal == lesson.state.legal_actions(LEARNER)
        for action in step.do:
            assert any(action.same_as(a) for a in legal), (lesson.step, action)
        lesson.act(step.do[0] if step.do else NEXT)
        steps += 1
    assert steps == lesson.tutorial.steps
    walked = tutorials.lesson(game, "en")
    wrong = first_untaught(walked, legal=False)  # walks to the step offering it
    assert not any(wrong.same_as(a) for a in walked.legal())


def test_a_reading_step_wants_next() -> None:
    data = {"game": "bhabhi", "title": {"en": "t", "ja": "て"},
            "summary": {"en": "s", "ja": "す"},
            "parts": [{"players": 3, "options": {"dealer": 0},
                       "deck": " ".join(sorted(tutorials.load("bhabhi").parts[0].deck)),
                       "script": [{"say": {"en": "read", "ja": "読む"}}]}]}
    lesson = tutorials.Lesson(parse(data), "en")
    assert lesson.choices() == [Action(NEXT)]
    assert not lesson.act("play:AS").accepted
    assert lesson.act(NEXT).accepted and lesson.done


def test_a_tutorial_that_no_longer_fits_is_caught() -> None:
    """A script whose move the engine refuses is reported, not played on."""
    deck = tutorials.load("bhabhi").parts[0].deck
    raw = {"game": "bhabhi", "title": {"en": "t", "ja": "て"},
           "summary": {"en": "s", "ja": "す"},
           "parts": [{"players": 4, "options": {"dealer": 0},
                      "deck": " ".join(deck),
                      "script": [{"say": {"en": "x", "ja": "え"}, "do": ["play:3S"],
                                  "why": {"en": "y", "ja": "わい"}}]}]}
    problems = replay(parse(raw))
    assert problems and "3S" in problems[0]


@pytest.mark.parametrize("broken", [
    {"parts": []},
    {"parts": [{"players": 4, "deck": "AS", "script": ["0 play:AS"]}]},
    {"parts": [{"players": 4, "deck": "AS", "script": [{"say": {"en": "only english"}}]}]},
    {"parts": [{"players": 4, "deck": "AS", "script": [{"say": {"en": "a", "ja": "あ"},
                                                        "do": ["play:AS"]}]}]},
])
def test_malformed_tutorials_are_refused(broken: dict[str, object]) -> None:
    raw = {"game": "bhabhi", "title": {"en": "t", "ja": "て"}, "summary": {"en": "s", "ja": "す"}}
    with pytest.raises(TutorialError):
        parse({**raw, **broken})


def test_unknown_game_has_no_tutorial() -> None:
    with pytest.raises(KeyError):
        tutorials.load("chess")


def test_every_taught_move_of_a_step_is_replayed() -> None:
    """A step teaching two moves: the rest of the script must fit after either."""
    deck = " ".join(tutorials.load("spar").parts[0].deck)

    def script(second: str) -> dict[str, object]:
        return {"game": "spar", "title": {"en": "t", "ja": "て"},
                "summary": {"en": "s", "ja": "す"},
                "parts": [{"players": 2, "options": {"dealer": 0}, "deck": deck, "script": [
                    "1 play:9H",
                    {"say": {"en": "x", "ja": "え"}, "do": ["play:AH", "play:7H"],
                     "why": {"en": "y", "ja": "わい"}},
                    second]}]}

    # after A♥ the learner leads next; after 7♥ seat 2 does
    lead = {"say": {"en": "lead", "ja": "リード"}, "do": ["play:KS"],
            "why": {"en": "w", "ja": "わ"}}
    problems = replay(parse(script(lead)))
    assert len(problems) == 1 and "(after play:7H)" in problems[0], problems
    problems = replay(parse(script("1 play:8H")))
    assert len(problems) == 1 and "after" not in problems[0], problems
    assert replay(parse(script({"say": {"en": "read", "ja": "読む"}}))) == []


def test_bear_offers_every_bid_its_first_step_names() -> None:
    """The first step says 'bid 40 to 100 in steps of 5 with a game, or Null': its buttons
    offer every one of those numbers, each game and Null (the first twenty legal bids, all
    that fit, stopped at 50)."""
    lesson = tutorials.lesson("bear", "en")
    assert "bid 40 to 100 in steps" in lesson.text()
    assert "40〜100（5刻み）" in tutorials.lesson("bear", "ja").text()
    bids = [a.arg or "" for a in lesson.choices() if a.kind == "bid"]
    assert {int(b.split("-")[0]) for b in bids if b != "null"} == set(range(40, 105, 5))
    assert {b.split("-", 1)[1] for b in bids if b != "null"} == {
        "S", "H", "D", "C", "grand-red", "grand-black"}
    assert "null" in bids and Action("pass") in lesson.choices()
    assert len(lesson.choices()) <= MAX_CHOICES


def test_an_offered_move_that_is_not_legal_is_caught() -> None:
    from games.tutorials.bear import TUTORIAL

    data = copy.deepcopy(TUTORIAL)
    data["parts"][0]["script"][0]["offer"] = "pass bid=35-S"
    assert replay(parse(data)) == ["part 1 entry 1: bid=35-S is not legal"]


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_is_written_alike_in_every_lesson(game: str) -> None:
    """'Seat 2', capitalised, in a lesson's texts and in the moves it shows (Getaway's lesson
    alone wrote 'seat 2 plays')."""
    lesson = tutorials.lesson(game, "en")
    said: list[str] = []
    while not lesson.done:
        step = lesson.current
        assert step is not None
        said += [lesson.text(), *lesson.events]
        lesson.act(step.do[0] if step.do else NEXT)
    said += [lesson.text(), *lesson.events]
    found = [text for text in said if re.search(r"\bseat \d", text)]
    assert not found
    assert any(re.search(r"\bSeat \d", text) for text in said)
