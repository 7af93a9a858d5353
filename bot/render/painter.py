"""Where pictures are drawn: worker processes, or threads of the bot's own process.

Drawing a table picture takes several milliseconds of Pillow and FreeType work that holds the
GIL. In a thread it still stops the event loop from answering other tables' clicks for that
long; under load (a hundred tables) the bot's one core was mostly drawing and every answer queued
behind the pictures. A :class:`Painter` with ``workers`` > 0 draws in a pool of worker processes
instead: the view (a plain dict) goes to the worker, the PNG bytes come back, and the event loop
only waits.

Workers start from a forkserver (never ``fork`` from a running event loop with threads), each
draws a picture before the pool is used (fonts found and loaded, card faces cached), and a pool
whose worker died is replaced; that one picture is drawn in a thread meanwhile. A worker ends
when the bot's process is gone (:mod:`bot.orphans`), even if the bot was killed. A worker draws
exactly what :func:`bot.render.table_png` and :func:`bot.render.hand_png` draw in the bot's own
process: the same functions run there.

Hands have a painter of their own: a player's move is answered with their new hand, and a hand
(a millisecond or two) must not queue behind table pictures. In a thread it fared worst of all:
under load a hand took over a second there, its thread waiting for the GIL again and again
while the event loop ran.

``workers=0`` (the default of a painter made in code, and of tests) draws in threads.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot import orphans

log = logging.getLogger(__name__)

#: modules the forkserver imports once, so that every worker starts with them loaded
PRELOAD = ["bot.orphans", "games", "PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", "bot.render",
           "bot.render.table", "bot.render.scenes", "bot.render.cards", "bot.render.fonts"]

T = TypeVar("T")


def default_workers() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def _warm() -> int:
    """Draw one table and one hand in this worker (the start of a game of the registry): fonts,
    card faces and text tiles load now, not during the first player's move. Its process id."""
    import games
    from bot.render import hand_png, table_png

    for game_id in games.ids():
        rules = games.get(game_id)
        state = rules.new_game(rules.min_players, seed=0)
        table_png(state.view(None).to_dict(), ["-"] * rules.min_players)
        hand = state.view(0).to_dict()
        hand_png(hand, set(list(hand.get("hand", []))[:1]), rules.name)
    return os.getpid()


class Painter:
    """Draws pictures off the event loop: in worker processes (``workers`` > 0) or threads."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = max(0, workers)
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[concurrent.futures.ProcessPoolExecutor] | None = None
        self._closed = False
        self._tasks: set[asyncio.Task[None]] = set()
        #: pools replaced after a worker died; pictures drawn in a worker
        self.restarts = 0
        self.pooled = 0

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers."""
        processes = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]

    # -- the pool -----------------------------------------------------------------------------
    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        """A started pool, every worker warmed up (blocking: run it in a thread)."""
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=orphans.watch,
            initargs=(os.getpid(),))
        for future in [pool.submit(_warm) for _ in range(self.workers)]:
            future.result()
        return pool

    async def start(self) -> None:
        """Start and warm the workers (nothing to do for a painter drawing in threads)."""
        if self.workers:
            await self._ready_pool()

    async def _ready_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is not None:
            return self._pool
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(
                asyncio.to_thread(self._new_pool))
        pool = await asyncio.shield(self._starting)
        if self._closed:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
            raise RuntimeError("the painter is closed")
        self._pool = pool
        return pool

    def _replace(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        """A worker died: drop the broken pool and start a fresh one in the background."""
        if self._pool is not broken:
            return  # another picture has replaced it already
        self._pool = None
        self._starting = None
        self.restarts += 1
        log.warning("a picture worker process died; starting a new one")

        async def renew() -> None:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(broken.shutdown, True, cancel_futures=True)
            if not self._closed:
                with contextlib.suppress(Exception):
                    await self._ready_pool()

        task = asyncio.get_running_loop().create_task(renew())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- drawing ------------------------------------------------------------------------------
    async def run(self, draw: Callable[..., T], *args: Any) -> T:
        """``draw(*args)`` in a worker process, or in a thread when there are none (or the
        pool failed: that picture is drawn in a thread, the pool replaced)."""
        if self.workers and not self._closed:
            pool: concurrent.futures.ProcessPoolExecutor | None = None
            try:
                pool = await self._ready_pool()
                found = await asyncio.get_running_loop().run_in_executor(pool, draw, *args)
                self.pooled += 1
                return found
            except (BrokenProcessPool, OSError, RuntimeError) as exc:
                if isinstance(exc, RuntimeError) and self._closed:
                    raise
                log.warning("drawing in a worker failed (%s); this picture is drawn in a "
                            "thread", type(exc).__name__)
                if pool is not None and isinstance(exc, BrokenProcessPool):
                    self._replace(pool)
        return await asyncio.to_thread(draw, *args)

    async def close(self) -> None:
        """Stop the workers (pictures being drawn are finished first)."""
        self._closed = True
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


#: the painters the ``*_async`` drawing functions use, for table pictures and for hands (threads
#: until the bot sets its own)
_current: dict[str, Painter] = {"table": Painter(), "hand": Painter()}
KINDS = tuple(_current)


def current(kind: str = "table") -> Painter:
    """The painter in use for a kind of picture ("table" or "hand")."""
    return _current[kind]


def use(painter: Painter, kind: str = "table") -> Painter:
    """Make ``painter`` the one in use for a kind of picture; the one it replaces."""
    previous, _current[kind] = _current[kind], painter
    return previous
