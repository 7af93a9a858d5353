"""One name per thing: no two modules of ``games/``, ``bot/`` and ``cogs/`` define a class of
the same name.

Two classes sharing a name (``games.core.Outcome`` and the service's move result once did) make
a reader, a search and an import guess which one is meant. A pair may stay only where it is
truly one concept in two layers, listed in :data:`ALLOWED` with the reason.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "bot", "cogs")

#: class names defined in more than one module on purpose: name -> (the modules, why).
#: Empty today: every pair found (Outcome, Answer, Board, Entry, Group, Layout, Move, Position,
#: Seen, Step) named two different things and one of each was renamed.
ALLOWED: dict[str, tuple[frozenset[str], str]] = {}


def classes(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, list[str]]:
    """Every top-level class name of the packages, with the modules that define it."""
    found: dict[str, list[str]] = defaultdict(list)
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            module = ".".join(path.relative_to(root).with_suffix("").parts)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef):
                    found[node.name].append(module)
    return found


def twice(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES,
          allowed: dict[str, tuple[frozenset[str], str]] | None = None) -> dict[str, list[str]]:
    """The class names defined in more than one module and not allowed to be."""
    allowed = ALLOWED if allowed is None else allowed
    return {name: modules for name, modules in classes(root, packages).items()
            if len(modules) > 1
            and (name not in allowed or frozenset(modules) != allowed[name][0])}


def test_no_class_name_is_defined_twice_in_games_bot_and_cogs() -> None:
    assert twice() == {}


def test_every_allowed_pair_still_exists_and_says_why() -> None:
    """An allowance outliving its pair would let a new one in unseen."""
    found = classes()
    for name, (modules, why) in ALLOWED.items():
        assert sorted(found.get(name, [])) == sorted(modules), name
        assert why.strip(), name


def test_a_name_defined_twice_is_caught(tmp_path: Path) -> None:
    for module, source in {"one/a.py": "class Outcome:\n    pass\n",
                           "one/sub/b.py": "def f():\n    class Outcome: ...\n",
                           "two/c.py": "class Outcome:\n    x = 1\nclass Other: ...\n"}.items():
        (tmp_path / module).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / module).write_text(source, encoding="utf-8")
    assert twice(tmp_path, ("one", "two"), {}) == {"Outcome": ["one.a", "two.c"]}
    allowed = {"Outcome": (frozenset({"one.a", "two.c"}), "the same result in two layers")}
    assert twice(tmp_path, ("one", "two"), allowed) == {}
