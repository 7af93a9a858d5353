"""Table and hand pictures: goldens per game, public pictures from public views only."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import games
from bot.pictures import cards as card_art
from bot.pictures import fonts, hand_alt, hand_png, playable_cards, table_png, table_png_async
from bot.pictures.__main__ import SAMPLE_NAMES, SHEET_H, SHEET_W, gallery_states, main, sheet_png
from bot.pictures.order import sort_hand
from bot.pictures.scenes import scene_for
from games.cards import show_codes

GOLDEN = Path(__file__).parent / "golden"


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _difference(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ noticeably."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 40 else 0)
    histogram = diff.histogram()
    return histogram[255] / (a.width * a.height)


def _cases() -> list[tuple[str, str]]:
    return [(gid, label) for gid in games.ids() for label in ("start", "mid", "end")]


@pytest.mark.parametrize(("gid", "label"), _cases())
def test_table_picture_matches_its_golden(gid: str, label: str) -> None:
    states = dict(gallery_states(gid))
    state = states[label]
    picture = _image(table_png(state.view(None).to_dict(), SAMPLE_NAMES[: state.players]))
    golden_path = GOLDEN / f"{gid}-{label}.png"
    assert golden_path.exists(), f"no golden for {gid} {label}: run scripts/regen-goldens"
    golden = Image.open(golden_path).convert("RGB")
    assert picture.size == golden.size == (1200, 675)
    assert _difference(picture, golden) < 0.002, f"{gid} {label} differs from its golden"


@pytest.mark.parametrize("gid", games.ids())
def test_contact_sheet_matches_its_golden(gid: str) -> None:
    """Every seat count, start/middle/end, English and Japanese, at phone size: a change to
    any of them shows here (redraw with scripts/regen-goldens after looking)."""
    golden_path = GOLDEN / "sheets" / f"{gid}.png"
    assert golden_path.exists(), f"no golden sheet for {gid}: run scripts/regen-goldens"
    sheet = _image(sheet_png(gid))
    golden = Image.open(golden_path).convert("RGB")
    rows = len(games.get(gid).player_counts())
    assert sheet.size == golden.size
    assert sheet.height > rows * SHEET_H and sheet.width > 6 * SHEET_W
    assert _difference(sheet, golden) < 0.002, f"{gid}'s contact sheet differs from its golden"


@pytest.mark.parametrize("gid", games.ids())
def test_changing_hidden_cards_changes_no_public_picture(gid: str) -> None:
    rng = random.Random(5)
    for _label, state in gallery_states(gid):
        names = SAMPLE_NAMES[: state.players]
        public = table_png(state.view(None).to_dict(), names)
        for _ in range(3):
            other = state.determinize(None, rng)
            assert other.zones() != state.zones() or state.over
            assert table_png(other.view(None).to_dict(), names) == public


@pytest.mark.parametrize("gid", games.ids())
def test_table_picture_size_and_weight(gid: str) -> None:
    for _label, state in gallery_states(gid):
        data = table_png(state.view(None).to_dict(), SAMPLE_NAMES[: state.players], lang="ja")
        assert _image(data).size == (1200, 675)
        assert len(data) <= 200_000


def test_sample_names_in_every_script_have_glyphs() -> None:
    names = [*SAMPLE_NAMES, "ソフィア", "김민준", "محمد", "👩‍🚀 Ada"]
    for name in names:
        assert fonts.missing(name) == [], f"{name!r} would draw boxes"


def test_names_fall_back_per_character() -> None:
    kinds = {face.path for face, _ in fonts.runs("Alice 山田 สมชาย राम 🎉") if face}
    assert len(kinds) >= 4


def test_hand_is_drawn_sorted_and_its_alt_text_names_only_its_own_cards() -> None:
    view = {"game": "bhabhi", "hand": ["2S", "AH", "KS", "3C"]}
    assert hand_png(view, {"AH"}) == hand_png({**view, "hand": ["KS", "2S", "AH", "3C"]}, {"AH"})
    alt = hand_alt(view, {"AH"}, "en")
    assert alt == "Your hand, 4 cards: K♠ 2♠ A♥ 3♣. You may play: A♥."
    assert hand_alt(view, None, "ja") == "あなたの手札 4枚: K♠ 2♠ A♥ 3♣。"
    assert hand_alt({"game": "sugekari-21", "hand": ["RJ", "5C"]}, None, "ja") == (
        "あなたの手札 2枚: 赤ジョーカー 5♣。")
    assert hand_alt({"game": "sugekari-21", "hand": ["5C", "BJ"]}, None, "en") == (
        "Your hand, 2 cards: Black Joker 5♣.")
    for gid in games.ids():
        for _label, state in gallery_states(gid)[:2]:
            seat = state.to_act[0] if state.to_act else 0
            own = state.view(seat).to_dict()
            text = hand_alt(own, None, "en")
            named = text.split(": ", 1)[1].rstrip(".")
            assert named == show_codes(sort_hand(own, own["hand"])) or (
                named == "—" and not own["hand"]), gid


def test_hand_rings_playable_cards_and_dims_the_rest() -> None:
    view = {"hand": ["2S", "3S", "AH"]}
    picture = _image(hand_png(view, {"AH"}))
    gold = (255, 200, 0)
    pixels = picture.load()
    assert pixels is not None

    def has_gold(x0: int, x1: int) -> bool:
        return any(pixels[x, y] == gold for x in range(x0, x1) for y in range(picture.height))

    assert has_gold(24 + 2 * 56, 24 + 2 * 56 + 84)
    assert not has_gold(24, 24 + 50)


def test_four_colour_deck_paints_diamonds_blue_and_clubs_green() -> None:
    def colours(code: str, four: bool) -> set[tuple[int, int, int]]:
        pixels = card_art.face(code, 90, 126, four).get_flattened_data()
        return {p[:3] for p in pixels if p[3] == 255}

    assert (20, 70, 200) in colours("5D", True) and (200, 20, 30) in colours("5D", False)
    assert (20, 130, 40) in colours("5C", True)


def test_face_down_cards_and_jokers_are_drawn() -> None:
    assert card_art.card(None, 62, 87).size == (62, 87)
    assert card_art.face("RJ", 62, 87).tobytes() != card_art.face("BJ", 62, 87).tobytes()
    assert card_art.card(None, 62, 87).tobytes() != card_art.back(62, 87).tobytes()


def test_card_images_are_drawn_once() -> None:
    assert card_art.face("QH", 77, 99) is card_art.face("QH", 77, 99)


def test_playable_cards_from_action_texts() -> None:
    assert playable_cards(["play:TS,TH", "pass", "table=nt:AS"]) == {"TS", "TH", "AS"}


def test_rendering_off_the_event_loop_gives_the_same_picture() -> None:
    gid = games.ids()[0]
    state = gallery_states(gid)[0][1]
    view = state.view(None).to_dict()
    names = SAMPLE_NAMES[: state.players]
    assert asyncio.run(table_png_async(view, names)) == table_png(view, names)


def test_gallery_command_writes_pictures(tmp_path: Path) -> None:
    assert main(["gallery", str(tmp_path), "--no-sheets"]) == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    for gid in games.ids():
        assert f"{gid}-start-table.png" in written and f"{gid}-end-table.png" in written
        assert f"{gid}-sheet.png" not in written


def test_gallery_command_writes_a_contact_sheet_per_game(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games, "ids", lambda: ["bear"])  # one game is enough to see the file
    assert main(["gallery", str(tmp_path)]) == 0
    sheet = tmp_path / "bear-sheet.png"
    assert sheet.exists()
    with Image.open(sheet) as picture:
        assert picture.height > SHEET_H and picture.width > 6 * SHEET_W


def test_22_shows_its_final_trick_until_the_next_deals_first_play() -> None:
    from bot.pictures import collisions
    rules = games.get("twenty-two")
    state = rules.new_game(4, seed=5)
    shown_final = shown_trick = False
    while not state.over and not (shown_final and shown_trick):
        view = state.view(None).to_dict()
        trick = [codes for _, codes in scene_for(view, SAMPLE_NAMES[:4]).trick]
        if view["final"] and not view["trick"] and not view["last_trick"]:
            assert trick == [[p["card"]] for p in view["final"]]  # the deal just played out
            shown_final = True
        elif view["trick"]:
            assert trick == [p["cards"] for p in view["trick"]]  # never the last deal's final
            shown_trick |= bool(view["final"])
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert shown_final and shown_trick
    # a position once drawn with the previous deal's final over the trick being played
    view = list(collisions.game_views("twenty-two", 8, 710745189))[5]
    assert view["final"] and view["trick"]
    assert [codes for _, codes in scene_for(view, SAMPLE_NAMES).trick] == [
        p["cards"] for p in view["trick"]]
