"""Adding a game: every place a registered game must appear, checked for every real game, and
the skeleton game (tests/example_duel.py) played through the registry, the table service, the
Discord front end and a picture.

The checklist below is the one of docs/engine.md ("Adding a game"), as code: each part names the
file a new game is added to, and :func:`missing` words what a game lacks, so a test fails with
"game 'x' has no lesson in games/tutorials" rather than somewhere deep in another test.
"""

from __future__ import annotations

import dataclasses
import io
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from PIL import Image

import games
from bot.pictures import table_png
from bot.pictures.scenes import SCENES, scene_for
from bot.tables.hints import GOAL_GAMES
from games import positions, registry, tutorials, wording
from games.ai import basic_policy, get_player, observe
from tests import example_duel
from tests.bot.sim_helpers import button, world
from tests.bot.test_e2e_games import make_a_move
from tests.games.test_conformance import check_finished, play_out

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "ja")


@dataclass(frozen=True)
class Places:
    """Where the parts of the registered games are looked up (the real places by default; a
    test replaces one to show what a game lacking it is told)."""

    modules: Mapping[str, str]  # game id -> its rules module (games/registry.py)
    lessons: frozenset[str]  # games/tutorials
    rules_pictures: frozenset[str]  # games/positions.py
    layouts: frozenset[str]  # bot/pictures/scenes.py
    catalogue: Callable[[str], Mapping[str, str]]  # a language's messages
    read: Callable[[str], str | None]  # a file of the repository, None when there is none
    has_basic: Callable[[str], bool]  # games/ai/<module>.py's basic player


def _read(path: str) -> str | None:
    found = ROOT / path
    return found.read_text(encoding="utf-8") if found.is_file() else None


def _has_basic(game: str) -> bool:
    try:
        return callable(basic_policy(game))
    except (ImportError, AttributeError, KeyError):
        return False


def real_places() -> Places:
    """The places as the repository has them now."""
    return Places(modules=dict(registry._MODULES), lessons=frozenset(tutorials.ids()),
                  rules_pictures=frozenset(positions.ids()), layouts=frozenset(SCENES),
                  catalogue=wording.catalogue, read=_read, has_basic=_has_basic)


def _module(game: str, places: Places) -> str:
    return places.modules[game].rsplit(".", 1)[-1]


def _page(game: str, lang: str, places: Places) -> list[str]:
    folder = "docs/rules" if lang == "en" else f"docs/rules/{lang}"
    problems = []
    if places.read(f"{folder}/{game}.md") is None:
        problems.append(f"no rules page {folder}/{game}.md")
    index = places.read(f"{folder}/README.md") or ""
    if f"({game}.md)" not in index:
        problems.append(f"no line in {folder}/README.md")
    return problems


def _keys(game: str, lang: str, places: Places, prefix: str) -> bool:
    return any(key.startswith(prefix) for key in places.catalogue(lang))


#: the checklist: (what, a check returning what is missing) — in docs/engine.md's order
CHECKS: list[tuple[str, Callable[[str, Places], list[str]]]] = [
    ("engine tests", lambda g, p: [] if p.read(f"tests/games/test_{_module(g, p)}.py")
     else [f"no tests in tests/games/test_{_module(g, p)}.py"]),
    ("computer player", lambda g, p: [] if p.has_basic(g)
     else [f"no basic computer player in games/ai/{_module(g, p)}.py"]),
    ("rule book", lambda g, p: [m for lang in LANGS for m in _page(g, lang, p)]),
    ("lesson", lambda g, p: [] if g in p.lessons else ["no lesson in games/tutorials"]),
    ("lesson wording", lambda g, p: [
        f"no lesson title in games/locales/{lang}/tutorials.po" for lang in LANGS
        if g in p.lessons and not _lesson_title(g, lang, p)]),
    ("rules picture", lambda g, p: [] if g in p.rules_pictures
     else ["no typical position in games/positions.py"]),
    ("rules picture caption", lambda g, p: [
        f"no caption rules-picture-{g} in games/locales/{lang}/rules.po" for lang in LANGS
        if f"rules-picture-{g}" not in p.catalogue(lang)]),
    ("picture layout", lambda g, p: [] if g in p.layouts
     else ["no picture layout in bot/pictures/scenes.py (SCENES)"]),
    ("catalogue words", lambda g, p: [
        f"no {what} {key} in games/locales/{lang}/game_text.po" for lang in LANGS
        for what, key in _game_words(g) if key not in p.catalogue(lang)]),
    ("result wording", lambda g, p: [
        f"no result wording rs-{g}-… in games/locales/{lang}/results.po" for lang in LANGS
        if not _keys(g, lang, p, f"rs-{g}-")]),
    ("hint goal", lambda g, p: [
        f"no hint goal hint-goal-{g} in games/locales/{lang}/hints.po" for lang in LANGS
        if g in GOAL_GAMES and f"hint-goal-{g}" not in p.catalogue(lang)]),
    ("README", lambda g, p: [] if f"**{games.get(g).name}" in (p.read("README.md") or "")
     else [f"no mention of {games.get(g).name} in README.md's list of games"]),]


def _game_words(game: str) -> list[tuple[str, str]]:
    """The catalogue keys of a game's own words: its name, its summary, each option's help
    (games/core.py's Rules.title, Rules.summary, Rules.option_help read them)."""
    return [("catalogue name", f"game-name-{game}"), ("summary", f"game-summary-{game}"),
            *[("option help", f"game-option-{game}-{option.name}")
              for option in games.get(game).options]]


def _lesson_title(game: str, lang: str, places: Places) -> bool:
    """Whether the catalogue has the lesson's title (tests/games/test_tutorials.py checks
    every step's words once the lesson exists)."""
    return tutorials.load(game).title.key in places.catalogue(lang)


def missing(game: str, places: Places | None = None) -> list[str]:
    """Every part a registered game lacks, as sentences naming the game and the file."""
    where = places or real_places()
    return [f"game {game!r} has {problem}" for _, check in CHECKS for problem in check(game,
                                                                                        where)]


@pytest.mark.parametrize("game", games.ids())
def test_every_registered_game_has_every_part(game: str) -> None:
    assert missing(game) == []


def _catalogue_without(prefix: str) -> Callable[[str], Mapping[str, str]]:
    return lambda lang: {k: v for k, v in wording.catalogue(lang).items()
                         if not k.startswith(prefix)}


def _files_without(hidden: str = "", unlisted: str = "") -> Callable[[str], str | None]:
    """The repository's files with one ``hidden`` and the text ``unlisted`` taken out of
    every other."""
    def read(path: str) -> str | None:
        text = None if path == hidden else _read(path)
        return text.replace(unlisted, "") if text is not None and unlisted else text
    return read


#: each part taken away from Spar, and what the check then says
WITHOUT: dict[str, tuple[dict[str, object], str]] = {
    "engine tests": ({"read": _files_without(hidden="tests/games/test_spar.py")},
                     "game 'spar' has no tests in tests/games/test_spar.py"),
    "computer player": ({"has_basic": lambda g: g != "spar"},
                        "game 'spar' has no basic computer player in games/ai/spar.py"),
    "rule book": ({"read": _files_without(hidden="docs/rules/ja/spar.md")},
                  "game 'spar' has no rules page docs/rules/ja/spar.md"),
    "lesson": ({"lessons": frozenset(tutorials.ids()) - {"spar"}},
               "game 'spar' has no lesson in games/tutorials"),
    "lesson wording": ({"catalogue": _catalogue_without("tut-spar-title")},
                       "game 'spar' has no lesson title in games/locales/ja/tutorials.po"),
    "rules picture": ({"rules_pictures": frozenset(positions.ids()) - {"spar"}},
                      "game 'spar' has no typical position in games/positions.py"),
    "rules picture caption": ({"catalogue": _catalogue_without("rules-picture-spar")},
                              "game 'spar' has no caption rules-picture-spar in "
                              "games/locales/ja/rules.po"),
    "picture layout": ({"layouts": frozenset(SCENES) - {"spar"}},
                       "game 'spar' has no picture layout in bot/pictures/scenes.py (SCENES)"),
    "catalogue words": ({"catalogue": _catalogue_without("game-name-spar")},
                        "game 'spar' has no catalogue name game-name-spar in "
                        "games/locales/ja/game_text.po"),
    "result wording": ({"catalogue": _catalogue_without("rs-spar-")},
                       "game 'spar' has no result wording rs-spar-… in "
                       "games/locales/ja/results.po"),
    "hint goal": ({"catalogue": _catalogue_without("hint-goal-spar")},
                  "game 'spar' has no hint goal hint-goal-spar in games/locales/ja/hints.po"),
    "README": ({"read": _files_without(unlisted="**Spar**")},
               "game 'spar' has no mention of Spar in README.md's list of games"),}


def test_every_part_of_the_checklist_is_shown_missing() -> None:
    assert list(WITHOUT) == [name for name, _ in CHECKS]


@pytest.mark.parametrize("part", list(WITHOUT))
def test_a_game_lacking_a_part_is_told_which_and_where(part: str) -> None:
    changes, sentence = WITHOUT[part]
    places = dataclasses.replace(real_places(), **changes)  # type: ignore[arg-type]
    found = missing("spar", places)
    assert sentence in found, found
    assert missing("bear", places) == []  # the other games lack nothing


@pytest.fixture
def duel_registered(monkeypatch: pytest.MonkeyPatch) -> str:
    """Duel in the registry, as adding a game does (one line in games/registry.py's
    _MODULES), for this test only."""
    monkeypatch.setitem(registry._MODULES, example_duel.RULES.id, example_duel.__name__)
    monkeypatch.setattr(registry, "_LOADED", dict(registry._LOADED))
    return example_duel.RULES.id


def test_the_skeleton_alone_is_told_every_part_it_lacks(duel_registered: str) -> None:
    assert duel_registered in games.ids() and games.get(duel_registered) is example_duel.RULES
    found = missing(duel_registered)
    for sentence in ["game 'duel' has no lesson in games/tutorials",
                     "game 'duel' has no picture layout in bot/pictures/scenes.py (SCENES)",
                     "game 'duel' has no rules page docs/rules/duel.md",
                     "game 'duel' has no rules page docs/rules/ja/duel.md",
                     "game 'duel' has no typical position in games/positions.py",
                     "game 'duel' has no mention of Duel in README.md's list of games",
                     "game 'duel' has no catalogue name game-name-duel in "
                     "games/locales/ja/game_text.po"]:
        assert sentence in found, found
    # its computer player is found where a registered module's is (here: the module itself)
    assert not [m for m in found if "computer player" in m]


PNG = b"\x89PNG\r\n\x1a\n"


async def test_the_skeleton_is_played_through_the_service_discord_and_a_picture(
        tmp_path: Path, duel_registered: str) -> None:
    """Duel through every layer: the registry finds it, /play opens a table of it, Bob joins,
    the host starts, each person plays from their hand panel until the game is over, the
    result is stored, and the table message carries its picture."""
    async with world(tmp_path, people=2) as w:
        alice, bob = w.users[:2]
        r = await w.sim.slash(alice, w.channel, "play", {"game": duel_registered})
        assert r.status == "ok", r
        await w.sim.settle()
        assert "Duel" in w.table_message().text
        r = await w.sim.click(bob, w.table_message(),
                              button(w.table_message(), "join")["custom_id"])
        assert r.status == "ok", r
        r = await w.sim.click(alice, w.table_message(),
                              button(w.table_message(), "start")["custom_id"])
        assert r.status == "ok", r
        moves, rng = 0, random.Random(5)
        for _ in range(40):
            await w.sim.settle(idle=0.01)
            table = w.table_message()
            if "game is over" in table.content:
                break
            [user] = [u for u in (alice, bob) if f"<@{u.id}>" in table.content]
            r = await w.sim.click(user, table, button(table, "hand")["custom_id"])
            hand = r.message
            assert hand is not None and hand.ephemeral
            moves += await make_a_move(w, user, hand, rng)  # a card chosen as a person does
        await w.sim.settle()
        final = w.table_message()
        assert "game is over" in final.content and moves == 6  # three rounds of two cards
        result = await w.bot.store.result(1)  # the first table of a fresh database
        assert result is not None and result["game"] == duel_registered
        [attachment] = final.attachments
        assert attachment["filename"] == "table.png" and attachment["bytes"].startswith(PNG)


def test_the_skeleton_is_drawn(duel_registered: str) -> None:
    """bot/pictures draws a Duel table from its view: its name as the title, a seat per player
    with its cards, the trick in the middle (the shared parts: no layout of its own yet)."""
    state = games.get(duel_registered).new_game(2, seed=3)
    player, rng = get_player("basic", duel_registered), random.Random(3)
    seat = state.to_act[0]
    state.apply(seat, player.choose(observe(state, seat), rng))
    view = state.view(None).to_dict()
    scene = scene_for(view, ["Alice", "Bob"], "en")
    assert scene.title == "Duel"
    assert [s.hand_count for s in scene.seats] == view["hand_counts"] == [2, 3]  # 0 led
    with Image.open(io.BytesIO(table_png(view, ["Alice", "Bob"], "en"))) as picture:
        assert picture.format == "PNG" and picture.width > 0


def test_the_page_lists_every_part_the_test_checks() -> None:
    """docs/engine.md's checklist names, for each row checked here, the part's name in
    parentheses after this file: the page and the checks stay one list."""
    page = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    named = {name.strip() for found in re.findall(r"`tests/test_adding_a_game\.py` \(([^)]*)\)",
                                                  page) for name in found.split(",")}
    assert named == {name for name, _ in CHECKS}
    assert "tests/example_duel.py" in page


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_skeleton_keeps_the_engines_invariants(duel_registered: str, seed: int) -> None:
    """What tests/games/test_conformance.py checks of every registered game, for Duel: random
    play to the end with every refusal and view checked, a finished state, a replay that
    gives the same events, a spectator's determinized state re-dealt."""
    rules = games.get(duel_registered)
    state, log, events = play_out(rules, 2, {}, seed, seed ^ 0x5EED, check_every=1)
    check_finished(state)
    replay = rules.new_game(2, seed=seed)
    assert [replay.apply(s, a) for s, a in log] == events
    fresh = rules.new_game(2, seed=seed)
    rng = random.Random(seed)
    assert any(fresh.determinize(None, rng).zones() != fresh.zones() for _ in range(5))
