"""Clicks before background work: an event loop that runs a click's steps first.

A person who clicks waits for the answer (Discord shows "thinking" and gives up after three
seconds); nobody waits in that way on a table message's edit, a turn alert, a panel's picture
or a computer's move. All of them run on one event loop, and asyncio runs what is ready in the
order it became ready. Under a burst (a hundred tables whose people all move within a few
seconds) a click's frame waited in the bot's socket for the loop's turn under way, then behind
every callback queued before the socket was looked at; the gateway's reader then woke behind
the callbacks queued meanwhile, and the click's task took its first step behind those queued
after that: three turns of a busy loop before the answer.

:class:`PriorityLoop` keeps a second queue, run before anything else that is ready:

- **Urgent steps.** A callback whose context is marked urgent (:func:`mark_urgent`) goes
  there. The gateway's reader marks itself once it has read an interaction; the tasks it starts
  for the interaction (the click's handler), and what those start and await, inherit the mark
  (it is a context variable). Work that no one waits on is started with :func:`background`,
  without the mark, even from a click.
- **Sockets first.** What the loop finds to read or write on its sockets runs before the
  callbacks queued earlier, so an interaction's frame is read at the loop's next look at its
  sockets.

Within each queue the order is asyncio's own (first come, first run), and one task's steps
never change order. Background work runs whenever no click is ready, so it is delayed, never
dropped; it is the table message, which is edited at most once a second anyway, that shows a
burst's moves a little later.

Otherwise this is asyncio's own selector loop; :func:`run` runs a coroutine on it (as
:func:`asyncio.run`: the bot's start-up and the benchmark's bot use it).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar, TypeVarTuple, Unpack

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

#: whether the current task works for someone waiting on a click (inherited by its tasks)
URGENT: contextvars.ContextVar[bool] = contextvars.ContextVar("deckhand_urgent", default=False)
#: callbacks that were ready before a turn of the loop and run in it, at most; the loop looks
#: at its sockets (a click's frame) again after them
BATCH = 16


def mark_urgent() -> None:
    """From now on the current task's steps, and the tasks and callbacks it starts, go
    before background work."""
    URGENT.set(True)


def background(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Start a task of background work: not urgent, even when a click's task starts it."""
    return _start(coro, False, name)


def urgent(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Start an urgent task whoever starts it: work clicks wait on (the store of the moves,
    whose commit a move's click awaits)."""
    return _start(coro, True, name)


def _start(coro: Coroutine[Any, Any, T], mark: bool, name: str | None) -> asyncio.Task[T]:
    context = contextvars.copy_context()
    context.run(URGENT.set, mark)
    return asyncio.get_running_loop().create_task(coro, name=name, context=context)


class FirstLock(asyncio.Lock):
    """A lock that clicks take (a table's, the database's): its holder goes first on the loop
    while it waits for it and while it holds it, so a click that waits for the lock waits for
    the holder's work, not for the holder's turns behind background work (a computer's move
    being stored, a finished game's records, a table message's drawing)."""

    def __init__(self) -> None:
        super().__init__()
        self._token: contextvars.Token[bool] | None = None

    async def __aenter__(self) -> None:
        token = URGENT.set(True)
        try:
            await self.acquire()
        except BaseException:
            URGENT.reset(token)
            raise
        self._token = token

    async def __aexit__(self, *exc: object) -> None:
        token, self._token = self._token, None
        self.release()
        if token is not None:
            URGENT.reset(token)


class PriorityLoop(asyncio.SelectorEventLoop):
    """asyncio's selector event loop, with urgent callbacks and socket reads run first and
    the sockets looked at after every :data:`BATCH` callbacks.

    asyncio keeps what is ready in one queue (``_ready``) and, in each turn, looks at its
    sockets, then runs everything that queue held. Here that queue holds at most a batch of
    the oldest callbacks; the newer ones wait, in their order, in a second queue (``_later``)
    that refills it at the start of each turn. Every callback in the first queue is older than
    every one in the second, so callbacks still run in the order they were queued.
    """

    def __init__(self) -> None:
        super().__init__()
        self._later: deque[asyncio.Handle] = deque()
        self._urgent: deque[asyncio.Handle] = deque()
        self._draining: asyncio.Handle | None = None  # the urgent queue's drain, queued

    def call_soon(self, callback: Callable[[Unpack[Ts]], object], *args: *Ts,
                  context: contextvars.Context | None = None) -> asyncio.Handle:
        urgent = context.get(URGENT, False) if context is not None else URGENT.get()
        if not urgent:
            return super().call_soon(callback, *args, context=context)
        self._check_closed()  # type: ignore[attr-defined]
        handle = asyncio.Handle(callback, args, self, context)
        self._urgent.append(handle)
        if self._draining is None:
            self._drain_first()
        return handle

    def _drain_first(self) -> None:
        """Queue the urgent queue's drain in front of everything else that is ready."""
        self._draining = asyncio.Handle(self._drain, (), self, None)
        self._ready.appendleft(self._draining)  # type: ignore[attr-defined]

    def _call_soon(self, callback: Callable[..., object], args: tuple[Any, ...],
                   context: contextvars.Context | None) -> asyncio.Handle:
        """A callback that is not urgent: behind every one queued before it."""
        handle = asyncio.Handle(callback, args, self, context)
        if self._later:
            self._later.append(handle)
        else:
            self._ready.append(handle)  # type: ignore[attr-defined]
        return handle

    def call_soon_threadsafe(self, callback: Callable[[Unpack[Ts]], object],
                             *args: *Ts,
                             context: contextvars.Context | None = None) -> asyncio.Handle:
        """A callback from another thread: the end of work done there (a database call, a
        worker process's answer), which only hands its result to whoever awaits it. It goes
        first; whoever it wakes then runs in their own turn, urgent or not."""
        self._check_closed()  # type: ignore[attr-defined]
        handle = asyncio.Handle(callback, args, self, context)
        self._ready.appendleft(handle)  # type: ignore[attr-defined]
        self._write_to_self()  # type: ignore[attr-defined]
        return handle

    def _drain(self) -> None:
        """Run the urgent callbacks, those they make ready included, in their order."""
        try:
            while self._urgent:
                handle = self._urgent.popleft()
                if not handle.cancelled():
                    handle._run()
        finally:
            self._draining = None
            if self._urgent:  # (only if a callback raised through Handle._run: never)
                self._drain_first()

    def _run_once(self) -> None:
        """One turn: a batch of the oldest callbacks (the rest wait for the next turns),
        then asyncio's own turn: a look at the sockets, then that batch."""
        ready: deque[asyncio.Handle] = self._ready  # type: ignore[attr-defined]
        later = self._later
        while len(ready) > BATCH:
            later.appendleft(ready.pop())
        while later and len(ready) < BATCH:
            ready.append(later.popleft())
        super()._run_once()  # type: ignore[misc]

    def _add_callback(self, handle: asyncio.Handle) -> None:
        """A socket's read or write callback: before the callbacks queued earlier."""
        if not handle.cancelled():
            self._ready.appendleft(handle)  # type: ignore[attr-defined]

    def close(self) -> None:
        self._later.clear()
        self._urgent.clear()
        super().close()


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a new :class:`PriorityLoop` (as :func:`asyncio.run`)."""
    with asyncio.Runner(loop_factory=PriorityLoop) as runner:
        return runner.run(main)
