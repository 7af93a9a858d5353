"""The pictures' words live in the catalogues (games/locales/*/render.po), none in the render
code: every key the code names is there, every key there is named, and no string the render
code draws is written in a language of its own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot.pictures import scenes
from bot.pictures.__main__ import SAMPLE_NAMES
from games import wording

RENDER = Path(scenes.__file__).parent
# the sample players' names of the gallery (people's names, not words) are left out
CODE = [p for p in sorted(RENDER.glob("*.py")) if p.name != "__main__.py"]
PICTURE_KEYS = {k for k in wording.keys("en") if k.startswith("pic-")}


def _strings(path: Path) -> list[str]:
    """The string constants of a module, its docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in docs]


def test_every_key_the_pictures_name_is_in_the_catalogues_and_every_one_is_named() -> None:
    named = {s for path in CODE for s in _strings(path) if s.startswith("pic-")}
    assert named, "the pictures name no catalogue key"
    assert named - {"pic-suit-"} <= PICTURE_KEYS, sorted(named - PICTURE_KEYS)
    unused = {k for k in PICTURE_KEYS - named if not k.startswith("pic-suit-")}
    assert not unused, sorted(unused)


def test_no_word_of_a_language_is_written_in_the_render_code() -> None:
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana and kanji (not brackets)
    # the English sentences (single words such as "turn" are also the badges' kinds)
    english = {wording.template(k, "en") for k in PICTURE_KEYS} | {"Seat", "Seat {n}"}
    english = {s for s in english if " " in s or "{" in s or s == "Seat"}
    for path in CODE:
        for s in _strings(path):
            assert not japanese.search(s), (path.name, s)
            assert s not in english, (path.name, s)


def test_a_seat_without_a_name_is_named_in_the_readers_language() -> None:
    view = {"game": "a-game-of-its-own", "players": 3, "hand_counts": [1, 1, 1], "to_act": [2],
            "leader": 2, "last_trick": [{"seat": 2, "cards": ["AS"]}], "trick": []}
    assert scenes.scene_for(view, SAMPLE_NAMES[:2], "ja").last_label == "前のトリック: 席3"
    assert scenes.scene_for(view, SAMPLE_NAMES[:2], "en").last_label == "Last trick: Seat 3"


def test_a_trump_suit_and_a_bid_are_worded_from_the_catalogue() -> None:
    assert scenes.bid_word("ja", "95-grand-black") == "95 グランド(黒)"
    assert scenes.suit_word("en", "NT") == "no trumps"
    assert scenes.suit_word("ja", "unknown-game") == "unknown-game"  # an id without a word
