"""Cards are named in the reader's language wherever a person reads them: a joker is 'Red Joker'
in English and '赤ジョーカー' in Japanese, in results, lessons, the panel and the pictures' alt
texts alike."""

from __future__ import annotations

import random

import games
from bot.pictures import hand_alt
from bot.tables import results
from games import tutorials
from games.cards import BLACK_JOKER, RED_JOKER, pretty
from games.core import State, Tally

ENGLISH_JOKER = ("Red Joker", "Black Joker", "Joker")
JA_JOKERS = (pretty(RED_JOKER, "ja"), pretty(BLACK_JOKER, "ja"))
OPTIONS = {"jokers": True, "best_of_three": True}


def jokers_in_play(until: str, seed: int = 0) -> State:
    """A Sugekari match with the jokers spice, played at random until ``until`` holds: 'hand'
    (seat 0 may play a joker face up now) or 'tally' (a finished game counted a captured joker)."""
    rules = games.get("sugekari-21")
    for attempt in range(40):
        state = rules.new_game(4, seed=seed + attempt, options=OPTIONS)
        rng = random.Random(seed + attempt)
        while not state.over:
            if until == "hand" and 0 in state.to_act and any(
                    a.kind == "play" and a.cards[0].is_joker for a in state.legal_actions(0)):
                return state
            if until == "tally" and any(t.find("jokers") for t in state.breakdown()):
                return state
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError(f"no position with {until} in 40 matches")


def test_a_japanese_result_names_the_jokers_in_japanese() -> None:
    state = jokers_in_play("tally")
    rules = state.rules
    tally: Tally = next(t for t in state.breakdown() if t.find("jokers"))
    names = ["あかり", "ぼたん", "ちえ", "だいち"]
    ja = "\n".join(results.tally_lines(rules, tally, names, "ja"))
    en = "\n".join(results.tally_lines(rules, tally, names, "en"))
    jokers = tally.find("jokers")[0].cards
    assert all(pretty(c, "ja") in ja and pretty(c, "en") in en for c in jokers), (ja, en)
    assert not any(word in ja for word in ENGLISH_JOKER), ja
    shown = results.last_deal(rules, state, names, "ja")  # the table message's result
    assert shown is not None and shown[0] == "第2ゲーム", shown
    # (the next game deals the jokers again: back in a hand, they are counted, not named)
    assert "ジョーカー" in shown[1] and "Joker" not in shown[1], shown


def test_a_japanese_lesson_step_names_a_joker_in_japanese() -> None:
    lesson = tutorials.lesson("sugekari-21", "ja")
    lesson.state = jokers_in_play("hand")  # a step of the lesson with jokers in the hand
    view = lesson.view()
    jokers = [c for c in lesson.state.view(0)["hand"] if c in ("RJ", "BJ")]
    assert jokers
    labels = [lesson.label(a) for a in lesson.choices() if any(c.is_joker for c in a.cards)]
    assert labels and all(any(name in label for name in JA_JOKERS) for label in labels), labels
    table = lesson.tutorial.rules.view_text(view, "ja")
    alt = hand_alt(view.to_dict(), None, "ja")  # the lesson's hand picture, described
    for text in (*labels, table, alt):
        assert not any(word in text for word in ENGLISH_JOKER), text
    assert all(pretty(RED_JOKER if c == "RJ" else BLACK_JOKER, "ja") in alt for c in jokers)
    # the events the learner reads after a joker is played
    joker_move = next(a for a in lesson.choices() if a.kind == "play" and a.cards[0].is_joker)
    lesson.events = []
    lesson._apply(0, joker_move)
    said = "\n".join(lesson.events)
    assert any(name in said for name in JA_JOKERS), said
    assert not any(word in said for word in ENGLISH_JOKER), said
