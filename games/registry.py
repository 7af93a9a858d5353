"""The registry of games: ids in the order players see them, loaded on first use."""

from __future__ import annotations

import importlib
import importlib.util

from games.core import Rules

# id -> module defining RULES. The order is the order of games.ids().
_MODULES: dict[str, str] = {
    "twenty-two": "games.twenty_two",
    "1234": "games.one_two_three_four",
    "bhabhi": "games.bhabhi",
    "finesse": "games.finesse",
    "sugekari-21": "games.sugekari",
    "bear": "games.bear",
    "spar": "games.spar",
}
_LOADED: dict[str, Rules] = {}


def ids() -> list[str]:
    """The ids of every registered game."""
    return [gid for gid, mod in _MODULES.items() if _present(mod)]


def _present(module: str) -> bool:
    return module in _loaded_modules() or importlib.util.find_spec(module) is not None


def _loaded_modules() -> set[str]:
    return {type(r).__module__ for r in _LOADED.values()}


def get(game_id: str) -> Rules:
    """The rules of a game; KeyError for an unknown id."""
    found = _LOADED.get(game_id)
    if found is not None:
        return found
    module = _MODULES.get(game_id) if isinstance(game_id, str) else None
    if module is None or not _present(module):
        raise KeyError(game_id)
    rules = importlib.import_module(module).RULES
    if not isinstance(rules, Rules):
        raise TypeError(f"{module}.RULES is not a Rules")
    _LOADED[game_id] = rules
    return rules


def all_rules() -> list[Rules]:
    """The rules of every registered game, in registry order."""
    return [get(gid) for gid in ids()]
