"""The container and the deployment guide, checked without a Docker engine: the Dockerfile's
instructions, the files it copies, the fonts, the health check run for real, the invite
link's permissions and the settings reference."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import discord

from bot.client.deckhand import Deckhand
from bot.config import Settings
from bot.storage.store import Storage
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import game_ids
from tests.discord_sim import SimulatedDiscord

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "deploy.md"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile as (INSTRUCTION, arguments), continuation lines joined."""
    joined = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        found.append((word.upper(), " ".join(rest.split())))
    return found


def final_stage() -> list[tuple[str, str]]:
    """The instructions of the last stage (the image that runs)."""
    steps = instructions()
    last = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last:]


def test_the_image_runs_as_a_user_without_privileges_from_a_slim_base() -> None:
    steps = instructions()
    # Python's slim image, and Node's slim image for the stage that builds the Activity's
    # client only (its output is copied; nothing of Node is in the final image)
    bases = [args.split() for word, args in steps if word == "FROM"]
    assert all(base[0] == "python:3.11-slim" or (base[0] == "node:20-slim" and base[-1] == "web")
               for base in bases)
    assert bases[-1][0] == "python:3.11-slim"
    stage = final_stage()
    users = [args for word, args in stage if word == "USER"]
    assert users and users[-1] not in ("root", "0", "0:0")
    assert "useradd" in " ".join(args for word, args in stage if word == "RUN")
    words = [word for word, _ in stage]
    assert words.index("USER") < words.index("ENTRYPOINT")
    assert stage[-1] == ("ENTRYPOINT", '["deckhand"]')
    for word, args in steps:
        if word == "RUN" and "pip install" in args:
            assert all("--no-cache-dir" in part for part in args.split("&&")
                       if "pip install" in part)


def test_the_database_lives_on_the_volume() -> None:
    stage = final_stage()
    assert ("VOLUME", '["/data"]') in stage
    env = " ".join(args for word, args in stage if word == "ENV")
    assert "DECKHAND_DB=/data/deckhand.sqlite3" in env
    assert "DECKHAND_HEARTBEAT=/tmp/" in env
    assert "chown deckhand:deckhand /data" in " ".join(a for w, a in stage if w == "RUN")


def test_every_copied_file_exists_and_is_not_ignored() -> None:
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    copied = 0
    for word, args in instructions():
        if word != "COPY" or args.startswith("--from"):
            continue
        *sources, _target = args.split()
        for source in sources:
            assert (ROOT / source).exists(), source
            assert source not in ignored and source.split("/")[0] not in ignored, source
            copied += 1
    assert copied >= 4
    # the build installs the package: everything its packaging needs is copied
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    everything = " ".join(args for word, args in instructions() if word == "COPY")
    assert project["project"]["readme"] in everything
    for package in project["tool"]["setuptools"]["packages"]["find"]["include"]:
        assert package.rstrip("*") in everything


def group(pattern: str, text: str) -> str:
    """The first group of a pattern that must match."""
    found = re.search(pattern, text)
    assert found is not None, pattern
    return found.group(1)


def test_the_image_installs_the_fonts_and_text_layout_scripts_setup_installs() -> None:
    setup = (ROOT / "scripts" / "setup").read_text()
    wanted = set(group(r'fonts="([^"]+)"', setup).split())
    assert "fontconfig" in group(r"\$fonts (fontconfig)", setup)
    wanted.add("fontconfig")
    shaping = set(group(r'shaping="([^"]+)"', setup).split())
    assert {"libraqm0", "libfribidi0"} <= shaping
    wanted |= shaping
    runs = " ".join(args for word, args in final_stage() if word == "RUN")
    installed = set(group(r"--no-install-recommends (.*?) &&", runs).split())
    assert installed == wanted
    assert "rm -rf /var/lib/apt/lists/*" in runs


def test_the_health_check_is_the_bot_own_check() -> None:
    checks = [args for word, args in final_stage() if word == "HEALTHCHECK"]
    assert len(checks) == 1
    assert checks[0].endswith('CMD ["deckhand", "--health"]')
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["deckhand"] == "bot.__main__:main"


def health(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``deckhand --health`` as the container runs it."""
    return subprocess.run([sys.executable, "-m", "bot", "--health"], capture_output=True,
                          text=True, timeout=60, check=False,
                          env={**os.environ, **env}, cwd=ROOT)


async def test_the_health_check_follows_the_heartbeat_of_a_running_bot(tmp_path: Path) -> None:
    beat = tmp_path / "deckhand.heartbeat"
    env = {"DECKHAND_HEARTBEAT": str(beat)}
    done = await asyncio.to_thread(health, env)
    assert done.returncode == 1 and "no heartbeat yet" in done.stdout
    async with SimulatedDiscord() as sim:
        sim.add_guild("Test Server")
        settings = Settings(token="sim-token", db_path=str(tmp_path / "d.sqlite3"),
                            ai_delay=0.0, heartbeat_path=str(beat))
        bot = Deckhand(settings, await Storage.open(settings.db_path), rules_for=lookup,
                       game_ids=game_ids)
        await sim.start(bot)
        for _ in range(500):  # the first heartbeat follows READY and a database query
            if beat.exists():
                break
            await asyncio.sleep(0.01)
        assert json.loads(beat.read_text())["shards"] == [0]
        done = await asyncio.to_thread(health, env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.startswith("deckhand: healthy")
        await sim.stop_bot(graceful=True)  # a stopped bot leaves no heartbeat behind
        await bot.store.close()
    done = await asyncio.to_thread(health, env)
    assert done.returncode == 1
    beat.write_text(json.dumps({"time": time.time() - 600, "shards": [0], "tables": 0}))
    done = await asyncio.to_thread(health, env)
    assert done.returncode == 1 and "600 s old" in done.stdout
    beat.write_text("not json")
    done = await asyncio.to_thread(health, env)
    assert done.returncode == 1 and "unreadable" in done.stdout


#: what the bot does in a server's channels, and the permission each needs
NEEDED = {
    "View Channels": "view_channel",
    "Send Messages": "send_messages",
    "Embed Links": "embed_links",
    "Attach Files": "attach_files",
    "Create Public Threads": "create_public_threads",
    "Send Messages in Threads": "send_messages_in_threads",
}


def test_the_invite_link_asks_for_exactly_the_listed_permissions() -> None:
    guide = GUIDE.read_text()
    link = re.search(r"https://discord\.com/oauth2/authorize\?\S+", guide)
    assert link is not None
    query = dict(part.split("=", 1) for part in link.group(0).split("?", 1)[1].split("&"))
    assert query["scope"].replace("%20", "+").split("+") == ["bot", "applications.commands"]
    expected = discord.Permissions(**dict.fromkeys(NEEDED.values(), True))
    assert int(query["permissions"]) == expected.value == 309237697536
    for name in NEEDED:
        assert f"**{name}**" in guide, name


def test_every_setting_the_code_reads_is_in_the_reference() -> None:
    read = set()
    for folder in ("bot", "cogs", "games"):
        for path in (ROOT / folder).rglob("*.py"):
            read |= set(re.findall(r"\b(DECKHAND_[A-Z_]+|DISCORD_TOKEN(?:_FILE)?)\b",
                                   path.read_text()))
    reference = GUIDE.read_text().split("## Settings", 1)[1]
    missing = sorted(name for name in read if f"`{name}`" not in reference)
    assert not missing, f"document these in docs/deploy.md's settings reference: {missing}"


def test_docker_run_takes_the_token_from_the_environment() -> None:
    for text in (GUIDE.read_text(), (ROOT / "README.md").read_text()):
        runs = [line for line in text.splitlines() if "docker run" in line]
        assert runs
        for line in runs:
            assert "DISCORD_TOKEN=" not in line
        assert any("-e DISCORD_TOKEN " in line and "-v deckhand-data:/data" in line
                   for line in runs)


def test_the_guide_promises_the_stop_the_code_makes() -> None:
    from bot.client.deckhand import DRAIN_SECONDS, STOP_SECONDS

    guide = " ".join(GUIDE.read_text().split())
    assert f"for up to {DRAIN_SECONDS:g} s" in guide
    assert f"All of it takes at most {STOP_SECONDS:g} s, well inside Docker's 10 s grace" in guide
    assert STOP_SECONDS < 10  # docker stop's default grace before SIGKILL
    stage = final_stage()
    assert ("STOPSIGNAL", "SIGTERM") in stage
    entry = [args for word, args in stage if word == "ENTRYPOINT"][-1]
    assert entry.startswith("["), "exec form: deckhand itself is PID 1 and gets the signal"


def test_the_guide_lists_the_exit_statuses_the_code_returns() -> None:
    from bot import lifecycle

    rows = dict(re.findall(r"^\| (\d) \| (.+) \|$", GUIDE.read_text(), re.MULTILINE))
    assert set(rows) == {str(lifecycle.OK), str(lifecycle.UNREACHABLE),
                         str(lifecycle.BAD_SETTING)}
    assert "stopped as asked" in rows[str(lifecycle.OK)]
    assert "cannot be reached" in rows[str(lifecycle.UNREACHABLE)]
    assert "log level" in rows[str(lifecycle.BAD_SETTING)]


def test_the_restore_step_gives_the_file_to_the_image_user_and_group() -> None:
    guide = GUIDE.read_text()
    run = " ".join(a for w, a in final_stage() if w == "RUN")
    pinned_group = re.search(r"(groupadd|useradd)[^&]*--gid 10001", run) is not None
    assert "chown 10001:10001" not in guide or pinned_group
    assert "chown deckhand:deckhand /data/deckhand.sqlite3" in guide
    assert "--uid 10001" in run and "uid 10001" in guide


def test_the_readme_commands_run_from_a_clone() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "`.venv/bin/python -m games play twenty-two --players 4`" in readme
    assert "`.venv/bin/python -m bot.pictures gallery DIR`" in (
        ROOT / "docs" / "architecture.md").read_text()
    bare = re.findall(r"(?<![/\w.])python -m \S+", readme)
    assert bare == [], f"run these with .venv/bin/python: {bare}"
