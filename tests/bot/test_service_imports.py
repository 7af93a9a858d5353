"""The table service is Discord-free: importing it loads neither discord.py nor aiohttp.

The service (``bot.tables`` and the parts it composes) is meant to be driven by any front end
— the terminal, the web, a test — so what it needs of the bot's words (:mod:`bot.i18n`) and of
people's names (:mod:`bot.names`) must not pull in the Discord client. Each check imports in a
fresh interpreter, since this test process has long loaded discord.py for other tests.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from discord.utils import escape_markdown, escape_mentions

from bot.names import plain

ROOT = Path(__file__).resolve().parents[2]
#: the table service's door and every part it composes or words with
_PARTS = ("manager", "registry", "turns", "computers", "lobby", "hints", "finish", "results",
          "events", "position", "writer", "replay", "thinking", "scheduler", "review", "model")
SERVICE = (*(f"bot.tables.{part}" for part in _PARTS),
           "bot.tables", "bot.storage.store", "bot.i18n", "bot.names")
#: the libraries of the Discord and web front ends
FRONT_END_LIBRARIES = ("discord", "aiohttp")

#: run in the fresh interpreter: import a module, print which front-end libraries came with it
#: and, for each, the first module that imported it (found by watching every import)
_PROBE = """
import builtins, json, sys
watched = {libraries!r}
first = {{}}
real = builtins.__import__
def spy(name, globals=None, locals=None, fromlist=(), level=0):
    top = name.partition(".")[0]
    if top in watched and top not in first and name not in sys.modules:
        first[top] = (globals or {{}}).get("__name__", "?")
    return real(name, globals, locals, fromlist, level)
builtins.__import__ = spy
import {modules}
loaded = sorted({{m.partition(".")[0] for m in sys.modules}} & set(watched))
print(json.dumps({{top: first.get(top, "?") for top in loaded}}))
"""


def loaded_with(*modules: str) -> dict[str, str]:
    """The front-end libraries importing ``modules`` loads, each with the module that
    imported it first, in a fresh interpreter."""
    probe = _PROBE.format(libraries=FRONT_END_LIBRARIES, modules=", ".join(modules))
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    found: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def test_importing_the_table_service_loads_no_discord_nor_aiohttp() -> None:
    # one interpreter importing them all loads every library any of them loads alone: when
    # it loads none, none does (an interpreter a module takes half a second to start)
    if not loaded_with(*SERVICE):
        return
    found = {module: loaded_with(module) for module in SERVICE}  # which one, for the message
    assert {module: libs for module, libs in found.items() if libs} == {}


def test_the_terminal_front_end_loads_no_discord_nor_aiohttp() -> None:
    """The terminal plays on the service alone: a refusal is worded by the service
    (``Refusal.text``), not by the Discord client's command tree."""
    assert loaded_with("bot.terminal") == {}


def test_the_probe_sees_discord_where_it_is_loaded() -> None:
    """The check above could fail: the Discord client's command tree does load discord.py,
    and the probe names the module that imported it."""
    found = loaded_with("bot.client.tree")
    assert found["discord"] == "bot.client.tree"
    assert "aiohttp" in found


NAMES = ["Ann", "**bold**", "__under__", "`code`", "~~gone~~", "||spoiler||", "a\\b",
         "[prize](https://example.com)", "<https://example.com>", "https://a.b/c_d",
         "> quote", ">>> quotes", "# title", "### small", " - item", "-dash", "@everyone",
         "@here", "<@123456789012345678>", "@!123456789012345678", "@&123456789012345678",
         "@1234", "e@mail.jp", "山田_花子", "*", "x" * 40, "[a](b) [c](d)", "\n- two\n# lines"]


@pytest.mark.parametrize("name", NAMES)
def test_a_name_is_escaped_as_discord_py_escapes_it(name: str) -> None:
    """bot.names writes out discord.py's escaping: the same text for every name."""
    assert plain(name) == escape_mentions(escape_markdown(name, ignore_links=False))


def test_random_names_are_escaped_as_discord_py_escapes_them() -> None:
    marks = "_\\~|*`>#-[]()@ \nab1<:/.&!"
    draw = random.Random(49)
    for _ in range(3000):
        name = "".join(draw.choice(marks) for _ in range(draw.randint(0, 14)))
        name += draw.choice(["", "@everyone", "@" + "1" * 18, "](x)"])
        assert plain(name) == escape_mentions(escape_markdown(name, ignore_links=False)), name
