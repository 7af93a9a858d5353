"""Table pictures as a player sees them, for every game, seat count, state and language:
readable at phone size, nothing hiding anything, each game's numbers in its own words and
never cut, tricks in front of their players, and a finished game's result in the middle."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest

import games
from bot.pictures import cards, collisions, faces, fonts, table, table_png
from bot.pictures.__main__ import SAMPLE_NAMES, gallery_states
from bot.pictures.scenes import scene_for

PHONE = 400  # px: how wide Discord shows a table picture on a phone
SCALE = PHONE / table.WIDTH
SMALLEST_TEXT_AT_PHONE = 8.0  # px: the bar every text on a table picture clears
SMALLEST_RANK_AT_PHONE = 8.0  # px: a card's rank, the smallest card drawn


@functools.cache
def cases() -> list[tuple[str, int, str, dict[str, Any]]]:
    """(game, seat count, state, public view) for every game, seat count and state."""
    found = []
    for gid in games.ids():
        for players in games.get(gid).player_counts():
            for label, state in gallery_states(gid, players=players):
                found.append((gid, players, label, state.view(None).to_dict()))
    return found


def every_picture() -> Iterator[tuple[str, int, str, str, dict[str, Any]]]:
    for gid, players, label, view in cases():
        for lang in ("en", "ja"):
            yield gid, players, label, lang, view


class Recorder:
    """Stands in for the fonts module: records every text drawn (size and words)."""

    def __init__(self) -> None:
        self.drawn: list[tuple[str, int]] = []

    def draw_text(self, image: Any, xy: tuple[int, int], text: str, size: int,
                  *args: Any, **kwargs: Any) -> int:
        self.drawn.append((text, size))
        return fonts.draw_text(image, xy, text, size, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(fonts, name)


def test_every_text_and_card_rank_is_readable_on_a_phone(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    recorder = Recorder()
    monkeypatch.setattr(table, "fonts", recorder)
    monkeypatch.setattr(faces, "fonts", recorder)
    card_heights: list[int] = []
    real_card = cards.card

    def card(code: str | None, w: int, h: int, *args: Any, **kwargs: Any) -> Any:
        card_heights.append(h)
        return real_card(code, w, h, *args, **kwargs)

    monkeypatch.setattr(table.cards, "card", card)
    faces.initials_tile.cache_clear()
    for gid, players, label, lang, view in every_picture():
        recorder.drawn.clear()
        card_heights.clear()
        table_png(view, SAMPLE_NAMES[:players], lang, computers=[players - 1])
        assert recorder.drawn, (gid, players, label)
        text, size = min(recorder.drawn, key=lambda d: d[1])
        assert size * SCALE >= SMALLEST_TEXT_AT_PHONE, (gid, players, label, lang, text, size)
        for h in card_heights:  # a card face's rank is drawn at 30 % of its height
            assert int(h * 0.30) * SCALE >= SMALLEST_RANK_AT_PHONE, (gid, players, label, h)
    faces.initials_tile.cache_clear()


def marks_of(view: dict[str, Any], names: list[str], lang: str = "en") -> list[Any]:
    """Where each part of a view's table picture went (see ``table.MARKS``)."""
    table.MARKS = []
    try:
        table_png(view, names, lang)
        return table.MARKS
    finally:
        table.MARKS = None


def _owner(what: str) -> str:
    return what.rsplit(":", 1)[-1]


def test_nothing_on_a_table_hides_anything_else() -> None:
    """The gallery's pictures break none of the layout's rules (``collisions.problems``: no
    text over text or a badge, no card over another card's index, nothing off the picture)."""
    for gid, players, label, lang, view in every_picture():
        marks = marks_of(view, SAMPLE_NAMES[:players], lang)
        assert any(what.startswith("seat:") for what, _ in marks)
        assert not collisions.problems(marks), (gid, players, label, lang)


def test_seat_numbers_and_corner_lines_are_never_cut() -> None:
    """No number a seat or the corner shows is shortened with an ellipsis (only a name too
    long for its box, or the title, may be)."""
    for gid, players, label, lang, view in every_picture():
        scene = scene_for(view, SAMPLE_NAMES[:players], lang)
        for seat in scene.seats:
            lines = table._wrap(seat.lines)
            joined = " · ".join(lines)
            assert all(part in joined for part in seat.lines), (gid, players, label, seat)
            for i, line in enumerate(lines):
                assert fonts.text_width(line, table.TEXT) <= table.LINE_WIDTHS[min(i, 1)], \
                    (gid, players, label, lang, line)
        for line in scene.corner:
            assert fonts.text_width(line, table.TEXT) <= 330, (gid, players, label, lang, line)


def _scene(gid: str, label: str, lang: str = "en", players: int | None = None) -> Any:
    state = dict(gallery_states(gid, players=players))[label]
    return scene_for(state.view(None).to_dict(), SAMPLE_NAMES[: state.players], lang), state


def test_each_game_shows_its_own_numbers_in_its_own_words() -> None:
    bear, state = _scene("bear", "mid")
    assert state.view(None).to_dict()["contract"]["bid"] == 100
    assert "Contract: 100 Grand (black)" in bear.corner
    for seat in bear.seats:
        assert any(line.endswith("tricks") or line == "1 trick" for line in seat.lines)
    auction = scene_for({**state.view(None).to_dict(), "phase": "auction",
                         "bids": ["95-grand-black", "pass", None]}, SAMPLE_NAMES[:3], "en")
    assert "bid 95 Grand (black)" in auction.seats[0].lines
    assert auction.lines == ["Highest bid: 95 Grand (black)"]
    assert "passed" in auction.seats[1].lines
    japanese = scene_for({**state.view(None).to_dict(), "phase": "auction",
                          "bids": ["95-grand-black", "pass", None]}, SAMPLE_NAMES[:3], "ja")
    assert "ビッド 95 グランド(黒)" in japanese.seats[0].lines
    assert not any("grand-black" in line for s in japanese.seats for line in s.lines)

    one, _ = _scene("1234", "mid")
    assert all(any(line.endswith(" chips") for line in s.lines) for s in one.seats)
    assert not any("pts" in line for s in one.seats for line in s.lines)
    for gid in ("bhabhi", "sugekari-21"):
        for label in ("start", "mid", "end"):
            scene, _ = _scene(gid, label)
            assert not any("pts" in line for s in scene.seats for line in s.lines), gid
    suge, _ = _scene("sugekari-21", "end")
    assert all(any("captured" in line for line in s.lines) for s in suge.seats)


def test_badges_mean_what_the_game_means() -> None:
    suge, state = _scene("sugekari-21", "end")
    assert not any(kind == "out" for s in suge.seats for kind, _ in s.badges)
    assert all(s.live for s in suge.seats)  # nobody goes out in Sugekari: nobody greyed
    assert not any("Total" in line for line in suge.lines)
    winners = set(state.outcome.winners)
    assert {i for i, s in enumerate(suge.seats) if ("winner", "winner") in s.badges} == winners

    one, state = _scene("1234", "end")
    for w in state.outcome.winners:
        assert one.seats[w].live and ("winner", "winner") in one.seats[w].badges

    bhabhi, state = _scene("bhabhi", "end")
    loser = state.view(None).to_dict()["loser"]
    assert ("loser", "Bhabhi") in bhabhi.seats[loser].badges
    assert all(("safe", "safe") in s.badges for i, s in enumerate(bhabhi.seats) if i != loser)

    bear, state = _scene("bear", "mid")
    declarer = state.view(None).to_dict()["declarer"]
    acting = state.to_act[0]
    kinds = {kind for kind, _ in bear.seats[declarer].badges}
    assert "declarer" in kinds
    if acting == declarer:
        assert kinds >= {"declarer", "turn"}


def test_a_finished_game_shows_its_result_in_the_middle() -> None:
    for gid in games.ids():
        for lang in ("en", "ja"):
            scene, state = _scene(gid, "end", lang)
            assert scene.result, gid
            assert scene.result[0] == ("Game over" if lang == "en" else "ゲーム終了")
            names = SAMPLE_NAMES[: state.players]
            for name in names:
                assert any(name in line for line in scene.result[1:]), (gid, name)
            first = min(range(state.players), key=lambda s: state.outcome.places[s])
            assert names[first] in scene.result[1]


def _centre(rect: table.Rect) -> tuple[float, float]:
    return (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2


def test_each_trick_card_lies_in_front_of_the_seat_that_played_it() -> None:
    seen = 0
    for gid, players, label, lang, view in every_picture():
        if lang != "en" or not view.get("trick") or view.get("over"):
            continue
        marks = marks_of(view, SAMPLE_NAMES[:players], lang)
        boxes = {int(_owner(w)): _centre(r) for w, r in marks if w.startswith("seat:")}
        trick = [(int(_owner(w)), _centre(r)) for w, r in marks if w.startswith("trick:")]
        # one mark per card, in the order played
        assert [s for s, _ in trick] == [p["seat"] for p in view["trick"]
                                         for _ in (p.get("cards") or [p.get("card")])]
        for seat, (x, y) in trick:
            nearest = min(boxes, key=lambda s: (boxes[s][0] - x) ** 2 + (boxes[s][1] - y) ** 2)
            assert nearest == seat, (gid, players, label, seat, nearest)
        leads = [w for w, _ in marks if w.startswith("badge:lead:")]
        assert leads == [f"badge:lead:{view['trick'][0]['seat']}"], (gid, players, label)
        seen += 1
    assert seen >= 10


def test_the_previous_trick_is_shown_with_who_took_it() -> None:
    scene, state = _scene("spar", "mid")
    view = state.view(None).to_dict()
    assert scene.trick and scene.last_trick
    assert [s for s, _ in scene.last_trick] == [p["seat"] for p in view["last_trick"]]
    taker = view["trick_winners"][-1]["seat"]
    assert scene.last_label == f"Last trick: {SAMPLE_NAMES[taker]}"
    assert any(w == "previous" for w, _ in marks_of(view, SAMPLE_NAMES[: state.players]))


def test_games_without_tricks_show_their_own_middle() -> None:
    twenty_two, state = _scene("twenty-two", "mid")
    assert twenty_two.trick  # 22's cards played this trick, each with its player
    one, state = _scene("1234", "mid")
    view = state.view(None).to_dict()
    assert f"Number to beat: {view['number_to_beat']}" in one.lines
    assert one.rows[0][1] == view["last_play"]["cards"]
    suge, state = _scene("sugekari-21", "mid")
    view = state.view(None).to_dict()
    assert suge.rows[0][1] == [p["card"] for p in view["round"]]
    assert f"Total: {view['total']} / 21" in suge.lines


def test_a_computer_and_an_avatar_change_the_picture_and_initials_stand_in() -> None:
    view = gallery_states("spar")[0][1].view(None).to_dict()
    names = SAMPLE_NAMES[:4]
    plain = table_png(view, names)
    assert table_png(view, names, computers=[3]) != plain
    assert table_png(view, names, avatars=[b"not an image", None]) == plain
    assert faces.initials("山田 太郎") == "山太" and faces.initials("Zoë") == "Z"
    assert faces.initials("🎉") == "?"
