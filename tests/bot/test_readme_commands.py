"""The commands the README's "Playing in Discord" table lists are the bot's own, with their
real subcommand and option names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from discord import app_commands

from tests.bot.sim_helpers import world

README = Path(__file__).resolve().parents[2] / "README.md"
ROW = re.compile(r"^\| `/([^`]+)` \|")


def listed() -> list[str]:
    """The command cells of the table under "## Playing in Discord"."""
    section = README.read_text().split("## Playing in Discord", 1)[1].split("\n## ", 1)[0]
    return [m.group(1) for line in section.splitlines() if (m := ROW.match(line))]


async def test_the_readme_lists_registered_commands_and_options(tmp_path: Path) -> None:
    rows = listed()
    assert {"help", "settings dm enabled:<true/false>",
            "settings four-colour enabled:<true/false>"} <= set(rows), rows
    async with world(tmp_path, people=1) as w:
        tree = w.bot.tree
        for row in rows:
            words = row.split()
            names = [x for x in words if ":" not in x]
            options = [x.split(":", 1)[0] for x in words if ":" in x]
            found: Any = tree.get_command(names[0])
            assert found is not None, f"/{names[0]} is not a command"
            for name in names[1:]:
                assert isinstance(found, app_commands.Group), f"/{row}: {name}"
                found = found.get_command(name)
                assert found is not None, f"/{row}: no subcommand {name}"
            assert isinstance(found, app_commands.Command), f"/{row} is a group"
            parameters = {p.name for p in found.parameters}
            assert set(options) <= parameters, f"/{row}: options {sorted(parameters)}"
