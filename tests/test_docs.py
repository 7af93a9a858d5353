"""The README and docs/ agree with the code: the settings the bot reads, the scripts and
benchmarks they name and the options those commands pass, the design notes' index, and the two
commands at the top of the README that CI and a newcomer run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
SETTING = re.compile(r"\b(DECKHAND_[A-Z_]+|DISCORD_(?:TOKEN|CLIENT_ID|CLIENT_SECRET)(?:_FILE)?)\b")


def section(text: str, heading: str) -> str:
    """The text under a ``## heading``, up to the next heading of that level."""
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def settings_read_by_the_code() -> set[str]:
    found: set[str] = set()
    for folder in ("bot", "cogs", "games"):
        for path in (ROOT / folder).rglob("*.py"):
            found |= set(SETTING.findall(path.read_text(encoding="utf-8")))
    return found


def test_the_readme_starts_with_the_two_commands_for_a_fresh_machine() -> None:
    first_block = README.read_text(encoding="utf-8").split("```sh\n", 1)[1].split("```", 1)[0]
    assert first_block.splitlines() == [
        "DISCORD_TOKEN=your-bot-token bash scripts/run-bot   "
        "# set up and run the bot (SQLite file ./deckhand.sqlite3)",
        "bash scripts/test                                   "
        "# set up and run every check and test",
    ]


def settings_rows(path: Path) -> set[str]:
    table = section(path.read_text(encoding="utf-8"), "Settings")
    return set(re.findall(r"^\| `([A-Z_]+)` \|", table, re.MULTILINE))


def test_the_deploy_guides_settings_table_is_exactly_what_the_code_reads() -> None:
    rows = settings_rows(ROOT / "docs" / "deploy.md")
    read = settings_read_by_the_code()
    assert read <= rows, f"add to docs/deploy.md's settings: {sorted(read - rows)}"
    assert rows <= read, f"the code reads none of these: {sorted(rows - read)}"


def test_the_readme_shows_the_settings_most_often_set_and_only_real_ones() -> None:
    rows = settings_rows(README)
    assert rows <= settings_read_by_the_code(), "the README names a setting nobody reads"
    assert {"DISCORD_TOKEN", "DECKHAND_DB", "DISCORD_CLIENT_ID", "DECKHAND_WEB_PORT"} <= rows


def named_files(pattern: str) -> set[str]:
    names: set[str] = set()
    for doc in [README, *DOCS]:
        names |= set(re.findall(pattern, doc.read_text(encoding="utf-8")))
    return names


def test_the_scripts_and_benchmarks_the_docs_name_exist() -> None:
    named = named_files(r"\b(scripts/[a-z][a-z-]*)\b") | named_files(
        r"\b(benchmarks/[a-z_]+\.py)\b")
    assert {"scripts/run-bot", "scripts/test", "benchmarks/bot.py"} <= named
    missing = sorted(name for name in named if not (ROOT / name).is_file())
    assert missing == []


def test_every_benchmark_script_has_its_entry_in_the_benchmarks_page() -> None:
    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    headings = "\n".join(line for line in page.splitlines() if line.startswith("## "))
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        if script.name == "__init__.py":
            continue
        if "ArgumentParser" in script.read_text(encoding="utf-8"):
            assert f"`benchmarks/{script.name}`" in headings or f"`{script.name}`" in headings, (
                f"{script.name}: give it a section in docs/benchmarks.md")
        else:
            assert f"`benchmarks/{script.name}`" in page, f"{script.name}: name the helper"


def test_the_benchmark_commands_in_the_docs_pass_options_their_scripts_take() -> None:
    checked = 0
    for doc in [README, *DOCS]:
        text = doc.read_text(encoding="utf-8")
        for command in re.findall(r"`\.venv/bin/python (benchmarks/[a-z_]+\.py[^`]*)`", text):
            script, _, arguments = command.partition(" ")
            source = (ROOT / script).read_text(encoding="utf-8")
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", arguments):
                assert f'"{option}"' in source, f"{doc.name}: {script} has no {option}"
            checked += 1
    assert checked >= 10


def test_the_design_index_lists_every_note_and_each_link_is_a_note() -> None:
    folder = ROOT / "docs" / "design"
    index = (folder / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([a-z0-9-]+\.md)\)", index))
    notes = {path.name for path in folder.glob("*.md")} - {"README.md"}
    assert notes and linked == notes
