"""The event loop the bot runs on: uvloop where it is installed, asyncio's own otherwise.

uvloop implements asyncio's public event-loop API in C on libuv; discord.py, aiohttp, asyncpg
and aiosqlite run on it unchanged, and nothing in Deckhand touches a loop's private parts. On
the bot's benchmark it does the same work for less of the one core the event loop has, so a
burst of clicks (every table starting at once) queues less (figures: docs/benchmarks.md). Its
wheels cover Linux and macOS, where the bot runs (the container included); elsewhere, or with
``DECKHAND_EVENT_LOOP=asyncio``, the bot runs on asyncio's own loop and behaves the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol, TypeVar

from bot.config import ConfigError

T = TypeVar("T")

#: the values of DECKHAND_EVENT_LOOP: the default takes uvloop when it is installed
CHOICES = ("auto", "uvloop", "asyncio")


class Runner(Protocol):
    """Runs a coroutine on a new event loop to its end (``asyncio.run``, ``uvloop.run``)."""

    def __call__(self, main: Coroutine[Any, Any, T], /) -> T: ...


def runner(env: Mapping[str, str]) -> Runner:
    """What runs the bot's main coroutine, as ``DECKHAND_EVENT_LOOP`` asks (ConfigError for
    a value it cannot be, or for uvloop asked by name where it is not installed)."""
    choice = env.get("DECKHAND_EVENT_LOOP", "").strip().lower() or "auto"
    if choice not in CHOICES:
        raise ConfigError(
            f"DECKHAND_EVENT_LOOP must be {', '.join(CHOICES[:-1])} or {CHOICES[-1]}, "
            f"not {choice!r}.")
    if choice != "asyncio":
        try:
            import uvloop
        except ImportError:
            if choice == "uvloop":
                raise ConfigError("DECKHAND_EVENT_LOOP=uvloop, but uvloop is not installed "
                                  "(pip install uvloop; it has no build for Windows).") from None
        else:
            return uvloop.run
    return asyncio.run


def name(run: Callable[..., Any]) -> str:
    """The loop a runner runs on, for the start's log line."""
    return "uvloop" if run.__module__.startswith("uvloop") else "asyncio"
