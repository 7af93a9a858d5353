"""The shape of the code: no import circles, and no class too big to read.

Each folder (``bot``, ``cogs``, ``games``) is checked on its own, so a failure names the
folder that has to change. Every import counts — at the top, inside a function, or only for
type checking (``if TYPE_CHECKING:``): each still ties the modules together for a reader. A
module importing its own package (``bot.pictures.painter`` using ``bot.pictures``) is not a circle:
a package loads its modules by design. A class counts its own lines and those of every project
class it inherits from (a chain of mixins is one class to read).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs", "games")
#: the folders whose classes must stay readable
SIZED = ("bot", "cogs")
#: the most lines a class may have, its project bases included
MOST_LINES = 400


def modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages, by dotted name."""
    found = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement may refer to (the most precise first)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        anchor = package[: len(package) - node.level + 1]
        base = ".".join([*anchor, base] if base else anchor)
    return [*(f"{base}.{alias.name}" for alias in node.names), base]


def _type_only(node: ast.AST) -> bool:
    """Whether a node is an ``if TYPE_CHECKING:`` block."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(tree: ast.AST, typing: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of a module (``typing``: those made only for type checking
    too)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif not typing and _type_only(node):
            assert isinstance(node, ast.If)
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def imports_of(name: str, path: Path, known: dict[str, Path], typing: bool = True) -> set[str]:
    """The project's modules ``name`` imports, anywhere in it (``typing``: type-checking
    imports too)."""
    found: set[str] = set()
    for node in _statements(ast.parse(path.read_text()), typing):
        for target in _targets(name, path, node):
            while target and target not in known:
                target = target.rpartition(".")[0]
            # importing its own package (its __init__, a re-export) is no circle
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def graph(known: dict[str, Path]) -> dict[str, set[str]]:
    """Each module and the project's modules it imports."""
    return {name: imports_of(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return groups


@dataclass(frozen=True)
class ClassDef:
    """A class of the project: where it is, its own length and its bases' names."""

    module: str
    name: str
    lines: int
    bases: tuple[str, ...]


def classes(known: dict[str, Path]) -> list[ClassDef]:
    """Every class of the modules, nested ones included."""
    found = []
    for module, path in known.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = tuple(b.id if isinstance(b, ast.Name) else b.attr
                              for b in node.bases if isinstance(b, (ast.Name, ast.Attribute)))
                end = node.end_lineno or node.lineno
                found.append(ClassDef(module, node.name, end - node.lineno + 1, bases))
    return found


def sizes(found: list[ClassDef], edges: dict[str, set[str]]) -> dict[ClassDef, int]:
    """Each class's lines with those of the project classes it inherits from (a base is
    looked up in the class's own module, then in the modules it imports)."""
    by_name: dict[str, list[ClassDef]] = {}
    for cls in found:
        by_name.setdefault(cls.name, []).append(cls)

    def base_of(cls: ClassDef, name: str) -> ClassDef | None:
        candidates = by_name.get(name, [])
        for where in ([cls.module], sorted(edges.get(cls.module, ()))):
            for candidate in candidates:
                if candidate.module in where and candidate is not cls:
                    return candidate
        return None

    def size(cls: ClassDef, seen: frozenset[ClassDef]) -> int:
        total = cls.lines
        for name in cls.bases:
            base = base_of(cls, name)
            if base is not None and base not in seen:
                total += size(base, seen | {base})
        return total

    return {cls: size(cls, frozenset({cls})) for cls in found}


@pytest.fixture(scope="module")
def project() -> tuple[dict[str, Path], dict[str, set[str]]]:
    known = modules()
    return known, graph(known)


def test_the_client_and_the_cogs_do_not_import_each_other(
        project: tuple[dict[str, Path], dict[str, set[str]]]) -> None:
    known, edges = project
    client = edges["bot.client.deckhand"]
    assert not any(m.startswith("cogs") for m in client), client
    # the cogs name the client's type only for type checking: never loaded from them
    loaded = imports_of("cogs.play", known["cogs.play"], known, typing=False)
    assert "bot.client.deckhand" not in loaded


@pytest.mark.parametrize("folder", PACKAGES)
def test_no_import_circles(folder: str,
                           project: tuple[dict[str, Path], dict[str, set[str]]]) -> None:
    _, edges = project
    circles = [group for group in cycles(edges)
               if any(m == folder or m.startswith(folder + ".") for m in group)]
    assert circles == []


@pytest.mark.parametrize("folder", SIZED)
def test_no_class_over_400_lines_with_its_bases(
        folder: str, project: tuple[dict[str, Path], dict[str, set[str]]]) -> None:
    known, edges = project
    big = sorted(f"{cls.module}.{cls.name}: {lines} lines"
                 for cls, lines in sizes(classes(known), edges).items()
                 if lines > MOST_LINES and cls.module.split(".")[0] == folder)
    assert big == []


# -- the checks themselves work -------------------------------------------------------------
def test_a_circle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def write(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return modules(root, ("pkg",))


def test_a_type_checking_import_closes_a_circle_and_a_package_import_does_not(
        tmp_path: Path) -> None:
    known = write(tmp_path, {
        "pkg/__init__.py": "from pkg.a import A\n",
        "pkg/a.py": "from pkg import b\nclass A: ...\n",
        "pkg/b.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from pkg.a import A\n"),
        "pkg/c.py": "from pkg import A\n",  # the package's re-export: no circle with it
    })
    assert cycles(graph(known)) == [["pkg.a", "pkg.b"]]
    assert "pkg.a" not in imports_of("pkg.b", known["pkg.b"], known, typing=False)


def test_a_class_counts_the_lines_of_its_bases(tmp_path: Path) -> None:
    body = "    x = 1\n" * 150
    known = write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": f"class First:\n{body}",
        "pkg/b.py": f"from pkg.a import First\nclass Second(First):\n{body}",
        "pkg/c.py": f"import pkg.b\nclass Third(pkg.b.Second):\n{body}",
    })
    found = sizes(classes(known), graph(known))
    assert sorted((c.name, n) for c, n in found.items()) == [
        ("First", 151), ("Second", 302), ("Third", 453)]
