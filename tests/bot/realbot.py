"""The real ``python -m bot`` in a child process, against the simulated Discord or none.

    bot = RealBot(tmp_path, sim)          # sim: a running SimulatedDiscord, or None
    await bot.start()                     # spawn; wait for "shard connected"
    status, seconds = await bot.stop(signal.SIGTERM)

The child is the production entry point, unchanged: ``tests/bot/simsite/sitecustomize.py``
points discord.py at the simulator. It logs JSON lines (``DECKHAND_LOG_FORMAT=json``), read
back as dicts in :attr:`RealBot.lines`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tests.discord_sim import SimulatedDiscord
from tests.discord_sim.server import API_PREFIX

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(__file__).resolve().parent / "simsite"
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else "python3"
#: a REST base and gateway where nothing listens (port 9 is "discard", closed here)
NOWHERE = ("http://127.0.0.1:9" + API_PREFIX, "ws://127.0.0.1:9/gateway")
#: a token the simulator does not accept
WRONG_TOKEN = "MTAxMDEwMTAxMDEwMTAxMDEw.GxXxXx.wrong-wrong-wrong-wrong-wrong-wrong1"


def environment(tmp_path: Path, sim: SimulatedDiscord | None, **extra: str) -> dict[str, str]:
    """The child's environment: the process's own without any Deckhand setting, a database in
    ``tmp_path``, one worker of each kind, JSON logs, Discord = ``sim`` (or nowhere)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DECKHAND_", "DISCORD_TOKEN"))}
    base, gateway = (sim.base_url + API_PREFIX, str(sim.gateway_url)) if sim else NOWHERE
    env.update({
        "DISCORD_TOKEN": sim.token if sim else "sim-token",
        "DECKHAND_DB": str(tmp_path / "deckhand.sqlite3"),
        "DECKHAND_AI_DELAY": "0",
        "DECKHAND_AI_WORKERS": "1",
        "DECKHAND_RENDER_WORKERS": "1",
        "DECKHAND_LOG_FORMAT": "json",
        "DECKHAND_SIM_BASE": base,
        "DECKHAND_SIM_GATEWAY": gateway,
        "PYTHONPATH": f"{SITE}{os.pathsep}{ROOT}",
    })
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None and v != "<unset>"}



def descendants(pid: int) -> list[int]:
    """The process ids of a process's descendants now, read from /proc (Linux)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            with contextlib.suppress(OSError):
                kids = [int(k) for k in (task / "children").read_text().split()]
                found += kids
                todo += kids
    return found

class RealBot:
    """One ``python -m bot`` (or ``prefix + python -m bot``) child process."""

    def __init__(self, tmp_path: Path, sim: SimulatedDiscord | None, *args: str,
                 prefix: Sequence[str] = (), **env: str) -> None:
        self.command = [*prefix, PYTHON, "-m", "bot", *args]
        self.env = environment(tmp_path, sim, **env)
        self.proc: asyncio.subprocess.Process | None = None
        self.stderr: list[str] = []
        self.lines: list[dict[str, Any]] = []
        self._seen = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self.began = 0.0

    async def spawn(self) -> None:
        """Start the child in a session of its own (as a terminal's foreground job is)."""
        self.began = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            *self.command, env=self.env, cwd=str(ROOT), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            start_new_session=True)
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        async for raw in self.proc.stderr:
            text = raw.decode(errors="replace").rstrip("\n")
            self.stderr.append(text)
            with contextlib.suppress(ValueError):
                found = json.loads(text)
                if isinstance(found, dict):
                    self.lines.append(found)
            self._seen.set()

    async def wait_for(self, test: Callable[[dict[str, Any]], bool],
                       timeout: float = 60.0) -> dict[str, Any]:
        """The first log line that passes ``test`` (waiting for it)."""
        limit = time.monotonic() + timeout
        while True:
            for line in self.lines:
                if test(line):
                    return line
            assert self.proc is not None
            if self.proc.returncode is not None and self._reader is not None \
                    and self._reader.done():
                raise AssertionError("the bot ended first:\n" + "\n".join(self.stderr[-20:]))
            left = limit - time.monotonic()
            if left <= 0:
                raise TimeoutError("no such log line:\n" + "\n".join(self.stderr[-20:]))
            self._seen.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._seen.wait(), min(left, 0.5))

    async def start(self, timeout: float = 60.0) -> None:
        """Spawn and wait until its shard is ready."""
        await self.spawn()
        await self.wait_for(lambda line: line.get("event") == "shard connected", timeout)

    async def wait(self, timeout: float = 30.0) -> tuple[int, float]:
        """The exit status and the seconds since ``since`` (default: the spawn); the child
        is killed (and the test fails) if it does not end within ``timeout``."""
        assert self.proc is not None
        try:
            status = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.kill()
            await self.proc.wait()
            raise AssertionError(f"the bot did not end within {timeout} s:\n"
                                 + "\n".join(self.stderr[-20:])) from None
        ended = time.monotonic()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5.0)
        return status, ended

    async def stop(self, signum: int = signal.SIGTERM, *, group: bool = False,
                   pid: int | None = None) -> tuple[int, float]:
        """Send ``signum`` (to the whole process group with ``group``, as a terminal's Ctrl-C
        does; to ``pid`` when given); the exit status and the seconds the stop took."""
        assert self.proc is not None
        sent = time.monotonic()
        if group:
            os.killpg(self.proc.pid, signum)
        else:
            os.kill(pid or self.proc.pid, signum)
        status, ended = await self.wait()
        return status, ended - sent

    async def run(self, timeout: float = 30.0) -> tuple[int, float]:
        """Spawn and wait for the end: the exit status and the seconds it ran."""
        await self.spawn()
        status, ended = await self.wait(timeout)
        return status, ended - self.began

    def kill(self) -> None:
        """SIGKILL the child's whole session."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    def errors(self) -> list[dict[str, Any]]:
        """The ERROR and CRITICAL lines."""
        return [line for line in self.lines if line.get("level") in ("ERROR", "CRITICAL")]

    def children(self) -> list[int]:
        """The process ids of the child's descendants now (its workers, the forkserver)."""
        assert self.proc is not None
        return descendants(self.proc.pid)
