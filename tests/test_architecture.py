"""docs/architecture.md stays true: every module, class and function it names exists."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"
NAME = re.compile(r"`((?:games|bot|cogs)(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`")


def named() -> list[str]:
    return sorted(set(NAME.findall(PAGE.read_text(encoding="utf-8"))))


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)  # AttributeError: the page names what is gone
        return found
    raise ModuleNotFoundError(dotted)


def test_the_page_walks_through_real_code() -> None:
    names = named()
    assert len(names) >= 40, names  # the walks name the code they walk through
    for layer in ("games.", "bot.", "cogs."):
        assert any(n.startswith(layer) for n in names), layer


@pytest.mark.parametrize("dotted", named())
def test_every_name_on_the_page_exists(dotted: str) -> None:
    assert resolve(dotted) is not None


def test_a_name_that_is_gone_is_caught() -> None:
    with pytest.raises(AttributeError):
        resolve("bot.tables.turns.Turns.no_such_method")
    with pytest.raises(AttributeError):
        resolve("cogs.no_such_module.Thing")
