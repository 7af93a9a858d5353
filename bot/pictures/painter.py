"""Where pictures are drawn: worker processes, or threads of the bot's own process.

Drawing a table picture takes several milliseconds of Pillow and FreeType work that holds the
GIL. In a thread it still stops the event loop from answering other tables' clicks for that
long; under load (a hundred tables) the bot's one core was mostly drawing and every answer queued
behind the pictures. A :class:`Painter` with ``workers`` > 0 draws in a pool of worker processes
instead: the view (a plain dict) goes to the worker, the PNG bytes come back, and the event loop
only waits.

The pool is a :class:`bot.workers.WorkerPool`: each worker draws a picture before the pool is
used (fonts found and loaded, card faces cached), a pool whose worker died is replaced (that one
picture is drawn in a thread meanwhile), and a worker ends with the bot's process. A worker draws
exactly what :func:`bot.pictures.table_png` and :func:`bot.pictures.hand_png` draw in the bot's own
process: the same functions run there.

Hands have a painter of their own: a player's move is answered with their new hand, and a hand
(a millisecond or two) must not queue behind table pictures. In a thread it fared worst of all:
under load a hand took over a second there, its thread waiting for the GIL again and again
while the event loop ran.

``workers=0`` (the default of a painter made in code, and of tests) draws in threads.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.workers import Pool, WorkerPool

log = logging.getLogger(__name__)

#: modules the forkserver imports once, so that every worker starts with them loaded
PRELOAD = ["bot.workers", "games", "PIL.Image", "PIL.ImageDraw", "PIL.ImageFont", "bot.pictures",
           "bot.pictures.table", "bot.pictures.scenes", "bot.pictures.cards", "bot.pictures.fonts"]

T = TypeVar("T")


def _warm() -> int:
    """Draw one table and one hand in this worker (the start of a game of the registry): fonts,
    card faces and text tiles load now, not during the first player's move. Its process id."""
    import games
    from bot.pictures import hand_png, table_png

    for game_id in games.ids():
        rules = games.get(game_id)
        state = rules.new_game(rules.min_players, seed=0)
        table_png(state.view(None).to_dict(), ["-"] * rules.min_players)
        hand = state.view(0).to_dict()
        hand_png(hand, set(list(hand.get("hand", []))[:1]), rules.name)
    return os.getpid()


class Painter:
    """Draws pictures off the event loop: in worker processes (``workers`` > 0) or threads."""

    def __init__(self, workers: int = 0, nice: int = 0) -> None:
        self.pool = WorkerPool("picture", workers, PRELOAD, _warm, nice=nice)
        #: pictures drawn in a worker
        self.pooled = 0
        #: pictures being drawn now (a message waiting for its picture sends nothing meanwhile)
        self.drawing = 0

    @property
    def workers(self) -> int:
        """How many worker processes draw (0: threads)."""
        return self.pool.workers

    @property
    def restarts(self) -> int:
        """Pools replaced after a worker died."""
        return self.pool.restarts

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers."""
        return self.pool.pids()

    async def start(self) -> None:
        """Start and warm the workers (nothing to do for a painter drawing in threads)."""
        if self.workers:
            await self.pool.ready()

    async def run(self, draw: Callable[..., T], *args: Any) -> T:
        """``draw(*args)`` in a worker process, or in a thread when there are none (or the
        pool failed: that picture is drawn in a thread, the pool replaced)."""
        self.drawing += 1
        try:
            return await self._run(draw, *args)
        finally:
            self.drawing -= 1

    async def _run(self, draw: Callable[..., T], *args: Any) -> T:
        if self.workers and not self.pool.closed:
            pool: Pool | None = None
            try:
                pool = await self.pool.ready()
                found = await asyncio.get_running_loop().run_in_executor(pool, draw, *args)
                self.pooled += 1
                return found
            except (BrokenProcessPool, OSError, RuntimeError) as exc:
                if isinstance(exc, RuntimeError) and self.pool.closed:
                    raise
                log.warning("drawing in a worker failed (%s); this picture is drawn in a "
                            "thread", type(exc).__name__)
                if pool is not None and isinstance(exc, BrokenProcessPool):
                    self.pool.replace(pool)
        return await asyncio.to_thread(draw, *args)

    async def close(self) -> None:
        """Stop the workers (pictures being drawn are finished first)."""
        await self.pool.close()


#: the painters the ``*_async`` drawing functions use, for table pictures and for hands (threads
#: until the bot sets its own)
_current: dict[str, Painter] = {"table": Painter(), "hand": Painter()}


def current(kind: str = "table") -> Painter:
    """The painter in use for a kind of picture ("table" or "hand")."""
    return _current[kind]


def use(painter: Painter, kind: str = "table") -> Painter:
    """Make ``painter`` the one in use for a kind of picture; the one it replaces."""
    previous, _current[kind] = _current[kind], painter
    return previous
