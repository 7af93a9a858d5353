"""The front ends never touch a game state nor the table service's insides: the cogs, the web
server and the terminal see games only through positions (:mod:`bot.tables.position`), replays
(:mod:`bot.tables.replay`) and lessons' accessors, and the service only through its door
(:class:`bot.tables.TableManager`'s methods), so a front end can be written from the same parts.
Source-level checks over every module of ``cogs/``, ``bot/web/`` and ``bot/terminal.py``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import bot
import cogs

COGS = sorted(Path(cogs.__file__).parent.glob("*.py"))
BOT = Path(bot.__file__).parent
#: every front end: the Discord cogs, the web server, the terminal
FRONT_ENDS = COGS + sorted((BOT / "web").glob("*.py")) + [BOT / "terminal.py"]
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


#: the service's parts (what its door hands each call to): a front end never names one
PARTS = frozenset({"Registry", "Turns", "Computers", "Lobby", "Results", "Hints", "ActionWriter",
                   "Thinker", "EventBus", "Scheduler"})
#: what a front end may not read of the door: the live tables and the parts behind it
INSIDE = frozenset({"tables", "live", "live_in", "turns", "lobby", "registry", "computers",
                    "thinker", "hints", "results", "writer", "bus", "scheduler"})


def _names_the_manager(node: ast.expr) -> bool:
    """``manager``, ``self.manager``, ``bot.manager``, ``self.bot.manager``..."""
    return ((isinstance(node, ast.Name) and node.id == "manager")
            or (isinstance(node, ast.Attribute) and node.attr == "manager"))


#: the service's modules a front end may import besides its door (``bot.tables``): the
#: positions it reads and the words and replays made from them, all frozen values, and the
#: paces a host may choose with a person's quiet hours (pure values and checks)
READING = frozenset({"bot.tables", "bot.tables.position", "bot.tables.results",
                     "bot.tables.replay", "bot.tables.review", "bot.tables.hints",
                     "bot.tables.pace"})


def reaches_inside(source: str) -> list[str]:
    """Where a module's source goes around the service's door, one line per place."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        where = getattr(node, "lineno", 0)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot"):
            module = node.module or ""
            found += [f"{where}: imports the part {alias.name}"
                      for alias in node.names if alias.name in PARTS]
            found += [f"{where}: imports the live Table"
                      for alias in node.names if alias.name == "Table"]
            if module.startswith("bot.tables") and module not in READING:
                found.append(f"{where}: imports from {module}")
        elif (isinstance(node, ast.Attribute) and _names_the_manager(node.value)
              and (node.attr in INSIDE or node.attr.startswith("_"))):
            found.append(f"{where}: reads manager.{node.attr}")
    return found


def test_the_door_check_finds_each_way_around_it() -> None:
    """Each way around the door is caught (so the check below is not vacuous)."""
    caught = "\n".join(reaches_inside("""
from bot.tables.registry import Registry
from bot.tables.thinking import Thinker, best_player
tables = list(bot.manager.tables.values())
queue = self.bot.manager.thinker.scheduler
table = manager._registry.get(1)
manager.turns.after.append(kick)
from bot.tables.model import Table
from bot.tables.lobby import TIMERS
"""))
    for what in ("2: imports the part Registry", "3: imports the part Thinker",
                 "4: reads manager.tables", "5: reads manager.thinker",
                 "6: reads manager._registry", "7: reads manager.turns",
                 "8: imports the live Table", "8: imports from bot.tables.model",
                 "9: imports from bot.tables.lobby"):
        assert what in caught, (what, caught)
    # the door's own calls are not caught
    assert reaches_inside("""
from bot.tables import Position, TableManager
from bot.tables.results import position_results
figures = bot.manager.status(guild_id)
positions = await self.manager.open_tables()
here = await manager.table_in(channel_id)
if self.manager.is_open(table_id):
    pass
tables = self.tables
""") == []


def test_every_front_end_is_checked() -> None:
    names = {f"{path.parent.name}/{path.stem}" for path in FRONT_ENDS}
    assert {"cogs/board", "cogs/admin", "cogs/panels", "web/viewers", "web/app",
            "bot/terminal"} <= names


@pytest.mark.parametrize("path", FRONT_ENDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_front_end_goes_around_the_door(path: Path) -> None:
    """No front end reads the live tables (``manager.tables``), a part of the service
    (``manager.thinker``, ``manager._registry``...), imports a part's class, the live
    ``Table`` or a module of the service but its door and what it reads: it asks the door,
    which answers with positions and frozen values."""
    assert reaches_inside(path.read_text(encoding="utf-8")) == [], path.name


@pytest.mark.parametrize("path", FRONT_ENDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_no_front_end_touches_a_game_state(path: Path) -> None:
    """The web server and the terminal keep to positions as the cogs do."""
    assert touches(path.read_text(encoding="utf-8")) == [], path.name
