"""The bot in a child process against the simulated Discord in this one.

    from benchmarks.botproc import ProcDiscord, BotProcess

    async with ProcDiscord(validate=True) as sim:
        guild = sim.add_guild("Bench")
        ...
        bot = BotProcess(sim, db="/tmp/x.sqlite3", ai_delay=0.02)
        seconds = await bot.start()      # spawn to "ready" (setup_hook, resume, READY)
        ... sim.slash(...), sim.click(...)
        bot.kill()                       # SIGKILL: no cleanup at all
        await bot.wait()

The child runs the production start-up path (``bot.config.load`` from the environment, then
``Deckhand.create``) with discord.py's ``http.Route.BASE`` and
``gateway.DiscordWebSocket.DEFAULT_GATEWAY`` pointed at the simulator's address, so the bot is
a separate OS process: it can be killed, and its CPU time and memory are its own. Its log lines
come back on stderr; ERROR lines are collected in ``BotProcess.errors``.

Shards: ``ProcDiscord(shards=n)`` (the simulator's own shard routing) with several
``BotProcess(..., shards="0/2")`` children.

The child is started as ``python -c "from benchmarks.botproc import child; child()"`` from the
repository's root (so that ``bot`` is the package, not ``benchmarks/bot.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.discord_sim import SimulatedDiscord  # noqa: E402
from tests.discord_sim.server import API_PREFIX  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable


class ProcDiscord(SimulatedDiscord):
    """The simulated Discord for a bot in another process.

    ``validate=False`` skips the OpenAPI check of every request (the simulator's own cost, not
    the bot's); ``quick=True`` makes each interaction return as soon as its callback came,
    without waiting for global quiet (with hundreds of tables the bot is never quiet).
    """

    def __init__(self, *args: Any, validate: bool = True, quick: bool = False,
                 **kwargs: Any) -> None:
        if quick:
            kwargs.setdefault("result_idle", 0.0)
        super().__init__(*args, **kwargs)
        self.validate = validate
        self.quick = quick

    async def __aenter__(self) -> ProcDiscord:
        await super().__aenter__()
        if not self.validate and self._validator is not None:
            self._validator.validate = lambda *a, **k: []  # type: ignore[method-assign]
            self._validator.validate_query = lambda *a, **k: []  # type: ignore[method-assign]
        return self

    async def settle(self, idle: float = 0.05, timeout: float = 10.0) -> None:
        """With ``quick``, the per-interaction wait (idle 0) returns at once."""
        if self.quick and idle == 0.0:
            return
        await super().settle(idle=idle, timeout=timeout)

    def connected_shards(self) -> list[tuple[int, int]]:
        """The (shard, count) of every identified, open session."""
        return [s.shard or (0, 1) for s in self._gateways if s.identified and not s.ws.closed]


class BotProcess:
    """One bot process on a database, connected to a :class:`ProcDiscord`."""

    def __init__(self, sim: SimulatedDiscord, db: str, *, ai_delay: float = 0.0,
                 ai_level: str = "normal", shards: str | None = None,
                 env: dict[str, str] | None = None, log_level: str = "WARNING") -> None:
        self.sim = sim
        self.db = db
        self.ai_delay = ai_delay
        self.ai_level = ai_level
        self.shards = shards
        self.extra_env = dict(env or {})
        self.log_level = log_level
        self.proc: asyncio.subprocess.Process | None = None
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.log: list[str] = []
        self.ready = asyncio.Event()
        self._readers: list[asyncio.Task[None]] = []

    @property
    def pid(self) -> int:
        """The child's process id."""
        assert self.proc is not None
        return self.proc.pid

    def environment(self) -> dict[str, str]:
        """The child's environment: the production settings, pointed at the simulator."""
        env = dict(os.environ)
        env.update({
            "DISCORD_TOKEN": self.sim.token,
            "DECKHAND_DB": self.db,
            "DECKHAND_AI_DELAY": str(self.ai_delay),
            "DECKHAND_AI_LEVEL": self.ai_level,
            "DECKHAND_LOG_LEVEL": self.log_level,
            "DECKHAND_SIM_BASE": self.sim.base_url + API_PREFIX,
            "DECKHAND_SIM_GATEWAY": str(self.sim.gateway_url),
            "PYTHONPATH": str(ROOT),
        })
        env.pop("DECKHAND_DEV_GUILD", None)
        if self.shards is not None:
            env["DECKHAND_SHARDS"] = self.shards
        env.update(self.extra_env)
        return env

    async def start(self, timeout: float = 60.0) -> float:
        """Spawn the child; return the seconds from spawn until it said it is ready."""
        self.ready = asyncio.Event()
        began = time.perf_counter()
        self.proc = await asyncio.create_subprocess_exec(
            PYTHON, "-c", "import sys; from benchmarks.botproc import child; sys.exit(child())",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=self.environment(), cwd=str(ROOT), preexec_fn=_die_with_parent)
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [asyncio.create_task(self._read_out(self.proc.stdout)),
                         asyncio.create_task(self._read_err(self.proc.stderr))]
        waiter = asyncio.create_task(self.ready.wait())
        exited = asyncio.create_task(self.proc.wait())
        done, _ = await asyncio.wait({waiter, exited}, timeout=timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        exited.cancel()
        if waiter not in done:
            self.kill()
            await self.wait()
            tail = "\n".join(self.log[-30:])
            raise RuntimeError(f"the bot process did not become ready:\n{tail}")
        return time.perf_counter() - began

    async def _read_out(self, stream: asyncio.StreamReader) -> None:
        async for raw in stream:
            if raw.decode(errors="replace").strip() == "ready":
                self.ready.set()

    async def _read_err(self, stream: asyncio.StreamReader) -> None:
        current: list[str] | None = None
        async for raw in stream:
            line = raw.decode(errors="replace").rstrip("\n")
            self.log.append(line)
            if line.startswith(("ERROR|", "CRITICAL|")):
                self.errors.append(line)
                current = self.errors
            elif line.startswith("WARNING|"):
                self.warnings.append(line)
                current = None
            elif line.startswith(("INFO|", "DEBUG|")):
                current = None
            elif current is not None and current:
                current[-1] += "\n" + line  # a traceback belongs to its error line

    def kill(self) -> None:
        """SIGKILL: the process dies at once, mid-write or not."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGKILL)

    async def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM: the bot closes itself (computers and timers stopped, tables stored)."""
        if self.proc is None or self.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            self.kill()
        await self.wait()

    async def wait(self) -> int:
        """Wait for the child to exit and its output to be read; its exit status."""
        assert self.proc is not None
        code = await self.proc.wait()
        for reader in self._readers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(reader, 5.0)
        return code

    def cpu_seconds(self) -> float:
        """User + system CPU seconds the child has used so far (from /proc)."""
        return _cpu_of(self.pid)

    def helpers_cpu_seconds(self) -> float:
        """User + system CPU seconds of the child's own child processes (its picture and
        computer-player workers, the forkserver) running now."""
        total = 0.0
        todo = [self.pid]
        seen: set[int] = set()
        while todo:
            pid = todo.pop()
            kids: list[str] = []
            for task in Path(f"/proc/{pid}/task").glob("*"):  # a thread's own children each
                with contextlib.suppress(OSError):
                    kids += (task / "children").read_text().split()
            for kid in map(int, kids):
                if kid in seen:
                    continue
                seen.add(kid)
                todo.append(kid)
                with contextlib.suppress(OSError):
                    total += _cpu_of(kid)
        return total

    def rss_bytes(self) -> int:
        """The child's resident memory now."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        return 0


def _cpu_of(pid: int) -> float:
    """User + system CPU seconds a process has used so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _die_with_parent() -> None:
    """In the child before it runs: SIGKILL it when the benchmark process dies (Linux)."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def stamp_responses(path: str) -> None:
    """Append ``<interaction id> <time.monotonic()>`` to ``path`` as the bot issues the first
    callback request of each interaction (the measuring point of the bot's latency: the
    simulator's dispatch stamp uses the same clock, so the two give arrival → response without
    the simulator's own delay in reading the request)."""
    from discord.webhook import async_ as webhook

    out = open(path, "a", buffering=1)  # noqa: SIM115 - open as long as the process
    seen: set[int] = set()
    original = webhook.AsyncWebhookAdapter.create_interaction_response

    def stamped(self: Any, interaction_id: int, token: str, **kwargs: Any) -> Any:
        if interaction_id not in seen:
            seen.add(interaction_id)
            out.write(f"{interaction_id} {time.monotonic()}\n")
        return original(self, interaction_id, token, **kwargs)

    webhook.AsyncWebhookAdapter.create_interaction_response = stamped  # type: ignore[method-assign]


def read_stamps(path: str) -> dict[str, float]:
    """What :func:`stamp_responses` wrote: interaction id → monotonic seconds."""
    found: dict[str, float] = {}
    with contextlib.suppress(FileNotFoundError), open(path) as lines:
        for line in lines:
            parts = line.split()
            if len(parts) == 2:
                found.setdefault(parts[0], float(parts[1]))
    return found


def child() -> int:
    """The child: the production bot with discord.py pointed at the simulator."""
    import logging

    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = os.environ["DECKHAND_SIM_BASE"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["DECKHAND_SIM_GATEWAY"])

    if os.environ.get("DECKHAND_BENCH_STAMPS"):
        stamp_responses(os.environ["DECKHAND_BENCH_STAMPS"])
    if os.environ.get("DECKHAND_BENCH_LOOP"):
        from benchmarks.loopwatch import watch_loop

        watch_loop(os.environ["DECKHAND_BENCH_LOOP"])
        # the watch instruments asyncio's own loop: uvloop's callbacks are out of its sight
        os.environ["DECKHAND_EVENT_LOOP"] = "asyncio"

    from bot import eventloop
    from bot.client.deckhand import Deckhand
    from bot.config import load

    settings = load()
    logging.basicConfig(level=settings.log_level, stream=sys.stderr,
                        format="%(levelname)s|%(name)s|%(message)s")

    async def run() -> None:
        client = await Deckhand.create(settings)
        if os.environ.get("DECKHAND_BENCH_WAITS"):
            from benchmarks.waits import stamp_waits

            stamp_waits(client.manager, os.environ["DECKHAND_BENCH_WAITS"])
        # the simulator sends every GUILD_CREATE right after READY: no 2 s wait for more
        client._connection.guild_ready_timeout = 0.05
        loop = asyncio.get_running_loop()
        if os.environ.get("DECKHAND_BENCH_LOOP"):
            from benchmarks.loopwatch import probe_lag, sample_answers

            probing = [loop.create_task(probe_lag()),  # noqa: F841 - as long as the bot
                       loop.create_task(sample_answers())]
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(client.close()))

        async def announce() -> None:
            await client.wait_until_ready()
            print("ready", flush=True)

        async with client:
            announcing = loop.create_task(announce())
            try:
                await client.start(settings.token)
            finally:
                announcing.cancel()

    with contextlib.suppress(KeyboardInterrupt):
        # on the loop the bot runs on (bot/__main__.py)
        eventloop.runner(os.environ)(run())
    return 0


if __name__ == "__main__":
    print(__doc__)
