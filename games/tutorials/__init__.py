"""Guided deals, one per game: the tutorials' data and the runner that plays them.

Each game's tutorial is a data module here (``TUTORIAL``, a plain dict); :mod:`.runner` turns it
into a :class:`~games.tutorials.runner.Tutorial` and plays it against the engine.
"""

from __future__ import annotations

import importlib
import importlib.util

from games.tutorials.runner import Lesson, Tutorial, parse

# game id -> data module, in the order of games.ids()
_MODULES: dict[str, str] = {
    "twenty-two": "twenty_two",
    "1234": "one_two_three_four",
    "bhabhi": "bhabhi",
    "finesse": "finesse",
    "sugekari-21": "sugekari",
    "bear": "bear",
    "spar": "spar",
}


def ids() -> list[str]:
    """The games that have a tutorial."""
    return [gid for gid, mod in _MODULES.items() if importlib.util.find_spec(
        f"{__name__}.{mod}") is not None]


def load(game: str) -> Tutorial:
    """The tutorial of a game; KeyError when there is none."""
    if game not in ids():
        raise KeyError(game)
    module = importlib.import_module(f"{__name__}.{_MODULES[game]}")
    return parse(module.TUTORIAL)


def lesson(game: str, lang: str = "en") -> Lesson:
    """A new lesson of a game's tutorial in a language."""
    return Lesson(load(game), lang)


__all__ = ["Lesson", "Tutorial", "ids", "lesson", "load", "parse"]
