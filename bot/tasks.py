"""Background tasks on asyncio's own event loop.

Work nobody waits on (a table message's edit, a turn alert, a panel's picture, a computer's
move, a timer) runs in tasks of its own so that a click's handler returns as soon as the click
is answered. asyncio keeps only a weak reference to a task, so one that nobody awaits could be
garbage-collected in the middle of its work: :func:`background` keeps each task until it ends,
and logs a failure nobody would otherwise see.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)

_running: set[asyncio.Task[Any]] = set()


def background(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Start ``coro`` as a task of its own, kept until it ends."""
    task = asyncio.get_running_loop().create_task(coro, name=name)
    _running.add(task)
    task.add_done_callback(_ended)
    return task


def _ended(task: asyncio.Task[Any]) -> None:
    _running.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("a background task failed: %s", task.get_name(), exc_info=task.exception())
