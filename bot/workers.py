"""A pool of worker processes for work that holds the GIL (searching computers, pictures).

Workers start from a forkserver (never ``fork`` from a running event loop with threads), are
warmed up before the pool is used, and a pool whose worker died is replaced in the background.
Every worker ends when the bot's process is gone (:mod:`bot.orphans`), even if the bot was
killed. :class:`bot.tables.thinking.Thinker` and :class:`bot.pictures.painter.Painter` each keep
one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot import orphans

log = logging.getLogger(__name__)

Pool = concurrent.futures.ProcessPoolExecutor

#: where the kernel shows the control groups (a container sees its own group as the root)
CGROUP_ROOT = Path("/sys/fs/cgroup")
#: the groups this process belongs to, one line per hierarchy ("0::/path" for cgroup v2)
OWN_CGROUPS = Path("/proc/self/cgroup")


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _share(quota: str | None, period: str | None) -> float | None:
    """CPUs a quota of ``quota`` microseconds per ``period`` gives (None: no limit)."""
    try:
        used, every = int(quota or ""), int(period or "")
    except ValueError:  # "max" (no limit), or nothing to read
        return None
    return used / every if used > 0 and every > 0 else None


def cpu_quota(root: Path | None = None, own: Path | None = None) -> float | None:
    """The CPUs this process's control group may use by its CPU quota (1.5: one and a half
    CPUs' time), the tightest of its group and the groups above it; None when unlimited.

    cgroup v2 writes ``cpu.max`` ("150000 100000", or "max 100000"); v1 writes
    ``cpu.cfs_quota_us`` (-1: none) and ``cpu.cfs_period_us`` under its ``cpu`` hierarchy. A
    container's own group is its root, seen from inside; a service's group is named in
    ``/proc/self/cgroup``. ``root`` and ``own`` stand in for those two (tests)."""
    root = CGROUP_ROOT if root is None else root
    found: list[float] = []
    paths = {Path("/")}
    for line in (_read(OWN_CGROUPS if own is None else own) or "").splitlines():
        number, _, rest = line.partition(":")
        controllers, _, name = rest.partition(":")
        if number == "0" or "cpu" in controllers.split(","):
            paths.add(Path(name or "/"))
    for path in paths:
        for folder in [path, *path.parents]:
            relative = folder.relative_to("/")
            v2 = _read(root / relative / "cpu.max")
            if v2 is not None:
                quota, _, period = v2.partition(" ")
                found.append(_share(quota, period) or math.inf)
            for v1 in ("cpu", "cpu,cpuacct", "cpuacct,cpu"):
                hierarchy = root / v1 / relative
                share = _share(_read(hierarchy / "cpu.cfs_quota_us"),
                               _read(hierarchy / "cpu.cfs_period_us"))
                if share is not None:
                    found.append(share)
    limited = [share for share in found if share != math.inf]
    return min(limited) if limited else None


def usable_cpus(affinity: Callable[[int], set[int]] | None = None, root: Path | None = None,
                own: Path | None = None) -> int:
    """The CPUs this process may use: those it may run on (``os.sched_getaffinity``: a
    ``taskset`` or a container's ``--cpuset-cpus``), no more than its CPU quota allows (a
    container's ``--cpus``, rounded up: 1.5 CPUs' time is spread over two), at least one.
    Not ``os.cpu_count()``, which counts the host's cores: in a container limited to 2 CPUs
    on a 32-core host, pools sized by it made 63 processes."""
    where = affinity or getattr(os, "sched_getaffinity", None)
    try:
        count = len(where(0)) if where is not None else os.cpu_count() or 1
    except OSError:
        count = os.cpu_count() or 1
    quota = cpu_quota(root, own)
    if quota is not None:
        count = min(count, math.ceil(quota))
    return max(1, count)


def _start_worker(bot_pid: int, setup: Callable[..., None] | None,
                  args: tuple[Any, ...], nice: int = 0) -> None:
    """In a new worker: end with the bot's process, lower its priority by ``nice``, then the
    pool's own set-up. A terminal's Ctrl-C reaches every process of the job: a worker leaves it
    to the bot, which ends its workers as part of its stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    orphans.watch(bot_pid)
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    if setup is not None:
        setup(*args)


class WorkerPool:
    """``workers`` processes, started on first need; ``what`` names them in the logs.

    ``nice`` lowers the workers' scheduling priority (work nobody waits on, like the table
    pictures, yields a busy core to the bot's event loop first)."""

    def __init__(self, what: str, workers: int, preload: Sequence[str],
                 warm: Callable[[], object], setup: Callable[..., None] | None = None,
                 setup_args: tuple[Any, ...] = (), nice: int = 0) -> None:
        self.what = what
        self.nice = nice
        self.workers = max(0, workers)
        self.preload = list(preload)
        self.warm = warm
        self.setup = setup
        self.setup_args = setup_args
        self._pool: Pool | None = None
        self._starting: asyncio.Task[Pool] | None = None
        self.closed = False
        self._tasks: set[asyncio.Task[None]] = set()
        #: pools replaced after a worker died
        self.restarts = 0

    def pids(self) -> list[int]:
        """The process ids of the running workers."""
        processes = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    def _new(self) -> Pool:
        """A started pool, every worker warmed up (blocking: run it in a thread)."""
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(self.preload)
        pool = Pool(max_workers=self.workers, mp_context=context, initializer=_start_worker,
                    initargs=(os.getpid(), self.setup, self.setup_args, self.nice))
        for future in [pool.submit(self.warm) for _ in range(self.workers)]:
            future.result()
        return pool

    async def ready(self) -> Pool:
        """The running pool, started (and warmed) first if need be; RuntimeError once closed."""
        if self._pool is not None:
            return self._pool
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(
                asyncio.to_thread(self._new))
        pool = await asyncio.shield(self._starting)
        if self.closed:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
            raise RuntimeError(f"the {self.what} pool is closed")
        self._pool = pool
        return pool

    def replace(self, broken: Pool) -> None:
        """A worker died: drop the broken pool and start a fresh one in the background."""
        if self._pool is not broken:
            return  # another call has replaced it already
        self._pool = None
        self._starting = None
        self.restarts += 1
        log.warning("a %s worker process died; starting a new one", self.what)

        async def renew() -> None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(broken.shutdown, True, cancel_futures=True)
            if not self.closed:
                with contextlib.suppress(Exception):
                    await self.ready()

        task = asyncio.get_running_loop().create_task(renew())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop the workers (work under way is finished first)."""
        self.closed = True
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        pool, self._pool = self._pool, None
        starting, self._starting = self._starting, None
        if pool is None and starting is not None:
            with contextlib.suppress(BaseException):
                pool = await starting
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
