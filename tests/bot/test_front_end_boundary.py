"""The Discord front end never touches a game state: the cogs see games only through positions
(:mod:`bot.position`), replays (:mod:`bot.replay`) and lessons' accessors, so a second front end
can be written from the same parts. A source-level check over every module of ``cogs/``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import cogs

COGS = sorted(Path(cogs.__file__).parent.glob("*.py"))
#: methods that drive or question a game state
GAME_CALLS = frozenset({"new_game", "apply", "legal_actions"})


def touches(source: str) -> list[str]:
    """Where a module's source touches a game state, one line per place ('line: what')."""
    found: list[str] = []
    tree = ast.parse(source)
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    for node in ast.walk(tree):
        where = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games"):
            found += [f"{where}: imports State from {node.module}"
                      for alias in node.names if alias.name == "State"]
        elif isinstance(node, ast.Attribute) and node.attr == "State":
            found.append(f"{where}: names a State")
        elif isinstance(node, ast.Call):
            func = node.func
            name = (func.attr if isinstance(func, ast.Attribute)
                    else func.id if isinstance(func, ast.Name) else "")
            if name in GAME_CALLS:
                found.append(f"{where}: calls {name}()")
            if (name == "getattr" and len(node.args) > 1
                    and isinstance(node.args[1], ast.Constant) and node.args[1].value == "state"):
                found.append(f"{where}: reads .state by getattr")
        elif (isinstance(node, ast.Attribute) and node.attr == "state"
              and id(node) not in called):
            # A game state is only ever an attribute (``table.state``, ``lesson.state``); a
            # method *called* state is something else: the storage's key-value lookup
            # ``bot.store.state(key)`` (cogs/alerts.py keeps a table's alert message id there).
            found.append(f"{where}: reads .state")
    return found


def test_the_check_finds_each_way_of_touching_a_state() -> None:
    """Each forbidden form is caught (so the check below is not vacuous)."""
    caught = touches("""
from games.core import Event, State
import games.core
x = games.core.State
state = rules.new_game(4, seed=1)
state.apply(0, action)
moves = lesson.state.legal_actions(0)
view = table.state.view(None)
over = getattr(table, "state").over
""")
    text = "\n".join(caught)
    for what in ("2: imports State from games.core", "4: names a State", "5: calls new_game()",
                 "6: calls apply()", "7: calls legal_actions()", "7: reads .state",
                 "8: reads .state", "9: reads .state by getattr"):
        assert what in text, (what, text)
    # the forms a front end does use are not caught
    assert touches("""
from games.core import Action, Event
view = position.public_view
found = await self.bot.store.state(f"alert:{table.id}")
legal = lesson.legal()
at = replay(rules, record, 3)
""") == []


def test_every_cog_module_is_checked() -> None:
    names = {path.stem for path in COGS}
    assert {"stats", "learn", "play", "board", "alerts", "review"} <= names


@pytest.mark.parametrize("path", COGS, ids=lambda p: p.stem)
def test_no_cog_touches_a_game_state(path: Path) -> None:
    """No module of cogs/ imports State, makes a game, moves in one, asks its legal moves or
    reads a ``.state``: game logic lives in bot/ and games/."""
    assert touches(path.read_text(encoding="utf-8")) == [], path.name
