"""Nothing on a table picture covers anything, over random positions of every game at every
seat count in both languages (a sample here; ``benchmarks/layout.py`` runs 20,000 per game),
checked from the renderer's own record of what it placed; and the rules of that check, each
shown to catch what it is for."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

import games
from bot.pictures import collisions, faces, hand_png, table
from bot.pictures.__main__ import SAMPLE_NAMES
from bot.pictures.scenes import scene_for
from tests.render.test_table_layout import Recorder

LANG_NAMES = {"en": SAMPLE_NAMES, "ja": [f"席{n}" for n in range(1, 9)]}  # /rules' seat names
PER_GAME = 280  # positions per game in the suite, spread over its seat counts and languages


def _card(what: str, x: int, y: int, w: int = 62, h: int = 86) -> list[tuple[str, Any]]:
    return [(what, (x, y, x + w, y + h)), (f"index:{what}", table.index_rect(x, y, w, h))]


def test_the_check_catches_each_kind_of_problem() -> None:
    seat = ("seat:0", (0, 500, 300, 600))
    assert not collisions.problems([seat, ("badge:turn:0", (200, 484, 280, 516))])
    assert collisions.problems([seat, ("badge:turn:1", (200, 484, 280, 516))])  # not its own
    assert collisions.problems([seat, ("text:corner:0", (100, 590, 200, 620))])
    assert collisions.problems([("badge:lead:0", (0, 0, 50, 30)),
                                ("badge:turn:1", (40, 0, 90, 30))])
    assert collisions.problems([("text:title", (1150, 0, 1210, 30))])  # off the picture
    fanned = _card("trick:0", 100, 100) + _card("trick:0", 100 + table.index_width(62), 100)
    assert not collisions.problems(fanned)  # fanned on purpose: the index stays visible
    assert collisions.problems(_card("trick:0", 100, 100) + _card("trick:1", 120, 110))
    assert collisions.problems([*_card("cards:2", 100, 100), ("text:last", (90, 90, 200, 120))])


def _cases() -> list[tuple[str, int, str]]:
    return [(gid, players, lang) for gid in games.ids()
            for players in games.get(gid).player_counts() for lang in ("en", "ja")]


@pytest.mark.parametrize("gid", games.ids())
def test_random_positions_break_no_rule(gid: str) -> None:
    cases = [c for c in _cases() if c[0] == gid]
    each = max(8, PER_GAME // len(cases))
    finished = 0
    found = []
    for _, players, lang in cases:
        names = LANG_NAMES[lang][:players]
        for view in collisions.random_views(gid, players, each, seed=7):
            finished += bool(view.get("over"))
            for problem in collisions.check(view, names, lang):
                found.append(f"{players} seats {lang}: {problem}")
    assert finished, gid  # the results were checked too
    assert not found, f"{len(found)} problems, first: {found[:5]}"


# The most crowded table: 22 at eight seats, penalty cards in front of the seats and the final
# trick's eight plays. About 6 positions in 1,000 once found no room (benchmarks/layout.py): this
# many make such a regression likely to show here.
CROWDED = 400
# Positions of 22 at eight seats that once broke a rule (a trick card over a seat's penalty
# cards' corner, or over another play's): (the game's seed, the view's number), as
# collisions.game_views makes them.
ONCE_BROKEN = [(710745189, 5), (845503494, 5), (1066238458, 4), (1066238458, 5),
               (515773982, 4), (22250770, 4), (525776308, 2), (525776308, 3), (525776308, 4),
               (580253334, 5), (540904802, 5), (215407687, 5), (168786651, 2),
               (168786651, 3), (168786651, 4), (168786651, 5), (56645492, 3), (56645492, 4),
               (56645492, 5), (527710685, 5), (139417524, 3), (139417524, 4),
               (953071716, 4), (953071716, 5), (418301131, 5), (920993581, 5),
               # plays of four cards by two neighbours, and a previous trick of 32 cards
               (894804615, 5), (617786324, 1), (993508644, 3)]


def test_the_most_crowded_table_breaks_no_rule() -> None:
    found = []
    for view in collisions.random_views("twenty-two", 8, CROWDED, seed=11):
        found += collisions.check(view, LANG_NAMES["en"], "en")
    assert not found, f"{len(found)} problems, first: {found[:5]}"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_positions_that_once_broke_a_rule(lang: str) -> None:
    for game_seed, number in ONCE_BROKEN:
        view = list(collisions.game_views("twenty-two", 8, game_seed))[number]
        assert view["final"] and any(view["penalties"]), "not the position meant"
        assert not collisions.check(view, LANG_NAMES[lang], lang), (game_seed, number)


@pytest.mark.parametrize("gid", games.ids())
def test_every_finished_game_lists_every_player(gid: str, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    recorder = Recorder()
    monkeypatch.setattr(table, "fonts", recorder)
    for players in games.get(gid).player_counts():
        state = games.get(gid).new_game(players, seed=3)
        while not state.over:
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[-1])
        view = state.view(None).to_dict()
        for lang, names in LANG_NAMES.items():
            scene = scene_for(view, names[:players], lang)
            assert len(scene.result) == players + 1, (gid, players, lang)
            assert not collisions.result_problems(view, names[:players], lang)
            recorder.drawn.clear()
            table.draw_scene(scene)
            drawn = [text for text, _ in recorder.drawn]
            for line in scene.result:  # each place drawn whole, none left out or shortened
                assert line in drawn, (gid, players, lang, line)


def _pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def test_a_hand_is_greyed_only_when_a_card_is_to_be_chosen() -> None:
    rules = games.get("bear")
    state = rules.new_game(3, seed=1)
    seat = state.to_act[0]
    view = state.view(seat).to_dict()
    assert view["phase"] != "play"  # the auction: a bid or a pass, no card to choose
    legal = {str(a) for a in state.legal_actions(seat)}
    from bot.pictures import playable_cards
    assert playable_cards(legal) == set()
    plain = hand_png(view, None)
    assert hand_png(view, playable_cards(legal)) == plain  # nothing greyed
    one = {view["hand"][0]}
    assert hand_png(view, one) != plain  # a card to choose: the others greyed


def test_seat_discs_have_a_mark_and_a_colour_of_their_own() -> None:
    assert table.seat_marks(LANG_NAMES["ja"]) == [str(n) for n in range(1, 9)]
    assert table.seat_marks(SAMPLE_NAMES) == [faces.initials(n) for n in SAMPLE_NAMES]
    assert table.seat_marks(["Anna", "Bob", "Alex"]) == ["1", "B", "3"]
    centres = {faces.initials_tile("席1", 48, str(seat + 1), seat).getpixel((24, 6))
               for seat in range(8)}
    assert len(centres) == 8


def test_the_rules_pictures_seats_are_told_apart() -> None:
    from bot.pictures.rules_pictures import draw
    picture = _pixels(draw("spar", "ja"))
    discs = set()
    for what, rect in _marks_of_rules("spar", "ja"):
        if what.startswith("seat:"):
            discs.add(picture.getpixel((rect[0] + 12 + 24, rect[1] + 10 + 4)))
    assert len(discs) == len([w for w, _ in _marks_of_rules("spar", "ja")
                              if w.startswith("seat:")])


def _marks_of_rules(game: str, lang: str) -> list[tuple[str, table.Rect]]:
    from bot.pictures.rules_pictures import _drawing
    view, names, lang, _, _ = _drawing(game, lang)
    return table.layout_scene(scene_for(view, names, lang)).marks


def test_bears_picture_marks_the_play_the_rules_say_is_winning() -> None:
    # Bear's honours outrank its suits, so only the rules know who is taking the trick; the
    # view says so (``winning``) and the picture rings that play, checked against the seat
    # that really takes each trick once it is complete.
    rules = games.get("bear")
    checked = 0
    for seed in range(6):
        state = rules.new_game(3, seed=seed)
        rng = random.Random(seed)
        while not state.over and checked < 400:
            seat = state.to_act[0]
            view = state.view(None).to_dict()
            if view["trick"]:
                scene = scene_for(view, ["A", "B", "C"], "en")
                marked = scene.trick[scene.trick_best][0]
                assert marked == view["winning"]
                if len(view["trick"]) == 2:  # the last play decides: it takes or it does not
                    copy = state.clone()
                    action = rng.choice(copy.legal_actions(seat))
                    events = copy.apply(seat, action)
                    taker = next(e.seat for e in events if e.kind == "trick")
                    state.apply(seat, action)
                    checked += 1
                    assert taker in (marked, seat)
                    continue
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert checked >= 100
