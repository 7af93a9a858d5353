"""Computer players' thinking, kept off the event loop.

The cheap levels (random, easy, normal: a fraction of a millisecond a move) choose inline. A
search player (the ``hard`` level, ``best`` when the game has one) thinks for up to a second
and holds the GIL while it does, so it runs in a pool of worker processes: the bot keeps
answering every other table's clicks meanwhile. A worker receives the pickled state and the
seat, makes the seat's :func:`games.ai.observe` itself and hands only that observation to the
player, so the player never sees more than the seat may know.

The pool is a :class:`bot.workers.WorkerPool`: workers are warmed up before the first move,
replaced when one dies (that one move is then thought in a thread), and end with the bot's
process. ``workers=0`` thinks in a thread, as tests do.

The search moves of all tables share the workers through a :class:`bot.tables.scheduler.Scheduler`
(one slot per worker, one for the thread): served in turn order, each move's budget shrinking
as the queue grows, a stale move dropped before it is searched, and a move that would wait too
long played at the ``normal`` level instead. ``scheduler=False`` (the setting
``DECKHAND_AI_SCHEDULER=off``, read by :mod:`bot.config`) turns it off: every search move gets
the full budget and waits for a worker as long as it takes.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import logging
import os
import pickle
import random
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

import games
from bot import logs
from bot.tables.scheduler import Dropped, Scheduler
from bot.workers import Pool, WorkerPool
from games import ai
from games.core import Action, IllegalAction, State

log = logging.getLogger(__name__)
T = TypeVar("T")

#: modules the forkserver imports once, so that every worker starts with them loaded
PRELOAD = ["games", "games.ai", "games.ai.search", "games.ai.playouts", "games.ai.analysis"]
#: how much lower the searching workers run than the bot: a search spends a fixed time, and a
#: click's answer on the bot's event loop should not wait for a core behind it (an idle core
#: still goes whole to the search)
SEARCH_NICE = 5
#: the level a search move is played at when the workers cannot keep up
FALLBACK_LEVEL = "normal"


def best_player(game_id: str, level: str = "best") -> ai.Player:
    """The computer player of ``level`` for a game, or the strongest one below it that the
    game has ("best": the strongest of all); random when the game has none."""
    levels = list(ai.LEVELS)
    top = len(levels) if level == "best" or level not in levels else levels.index(level) + 1
    for name in reversed(levels[:top]):
        try:
            return ai.get_player(name, game_id)
        except (ImportError, KeyError, AttributeError, ValueError):
            continue
    return ai.RandomPlayer()


def is_cheap(player: object) -> bool:
    """Whether a player chooses in well under a millisecond (it may run on the event loop)."""
    return isinstance(player, (ai.RandomPlayer, ai.BasicPlayer))


def searches(player: object) -> bool:
    """Whether a player is the search player (a worker can rebuild it from game and level)."""
    from games.ai.search import SearchPlayer

    return isinstance(player, SearchPlayer)


def choose_safely(player: ai.Player, obs: ai.Observation, rng: random.Random) -> Action:
    """The player's choice; a random legal one (logged) if the player fails."""
    try:
        return player.choose(obs, rng)
    except Exception as exc:  # its message may name a card of the hand it was choosing from
        log.error("the %s computer player failed (%s); playing at random", obs.game,
                  type(exc).__name__, extra=logs.failure(exc))
        return rng.choice(obs.legal)


# -- inside a worker process ----------------------------------------------------------------
_worker_level = "best"
_worker_players: dict[tuple[str, str], ai.Player] = {}


def _init_worker(level: str, budget: float | None) -> None:
    """Set a worker up: the level it plays and, when given, the search budget per move."""
    global _worker_level
    _worker_level = level
    if budget is not None:
        ai.HARD_BUDGET = budget
    _worker_players.clear()


#: iterations of the search each worker makes per game as it starts (its tables built once)
WARM_ITERATIONS = 4


def _warm() -> int:
    """Build every game's player of the bot's level once (imports, search hooks) and let a
    search player search a few iterations of a new game (tables that a first search would
    build on a table's time, such as 1234's passes); the worker's pid."""
    for game_id in games.ids():
        player = _worker_player(game_id, _worker_level)
        if searches(player):
            rules = games.get(game_id)
            state = rules.new_game(rules.usual_players, seed=0)
            player.iterations = WARM_ITERATIONS  # type: ignore[attr-defined]
            try:
                choose_safely(player, ai.observe(state, state.to_act[0]), random.Random(0))
            finally:
                player.iterations = None  # type: ignore[attr-defined]
    return os.getpid()


def _worker_player(game_id: str, level: str) -> ai.Player:
    player = _worker_players.get((game_id, level))
    if player is None:
        player = _worker_players[game_id, level] = best_player(game_id, level)
    return player


def _think_in_worker(blob: bytes, seat: int, seed: str, level: str,
                     budget: float | None = None, until: float | None = None) -> str:
    """The action (as text) a seat's computer player of ``level`` chooses, searching
    ``budget`` seconds when given, and ending by ``until`` (``time.monotonic``, the bot's clock
    too) however late the move reached this worker; only its observation reaches the player,
    never the state."""
    state: State = pickle.loads(blob)
    obs = ai.observe(state, seat)
    del state
    player = _worker_player(obs.game, level)
    if budget is not None and searches(player):
        if until is not None:
            budget = max(0.0, min(budget, until - time.monotonic()))
        player.budget = budget  # type: ignore[attr-defined]
    return str(choose_safely(player, obs, random.Random(seed)))


def _with_budget(player: ai.Player, budget: float | None) -> ai.Player:
    """The player searching ``budget`` seconds a move (a copy: threads may share it)."""
    if budget is None or not searches(player):
        return player
    found = copy.copy(player)
    found.budget = budget  # type: ignore[attr-defined]
    return found


# -- in the bot -------------------------------------------------------------------------------
class Thinker:
    """Chooses computer moves: cheap players inline, search players in worker processes."""

    def __init__(self, level: str = "best", workers: int = 0,
                 budget: float | None = None, *, scheduler: bool = True) -> None:
        #: the level of a move that names none (a table chooses its own, see ``choose``)
        self.level = level
        self.workers = max(0, workers)
        self.budget = budget
        #: the player of each game and level in this process (inline, or in a thread as a
        #: fallback)
        self.players: dict[tuple[str, str], ai.Player] = {}
        self.pool = WorkerPool("computer player", self.workers, PRELOAD, _warm,
                               setup=_init_worker, setup_args=(level, budget), nice=SEARCH_NICE)
        #: moves thought in a worker
        self.pooled_moves = 0
        #: shares the workers among the search moves waiting (None: off, every move waits
        #: for a worker with the full budget); one slot per worker, or the one thread
        self.scheduler: Scheduler | None = None
        if scheduler:
            self.scheduler = Scheduler(max(1, self.workers), budget or ai.HARD_BUDGET)

    @property
    def restarts(self) -> int:
        """Pools replaced after a worker died."""
        return self.pool.restarts

    def player(self, game_id: str, level: str | None = None) -> ai.Player:
        """The player of this process for a game at ``level`` (None: the bot's level)."""
        level = level or self.level
        found = self.players.get((game_id, level))
        if found is None:
            found = self.players[game_id, level] = best_player(game_id, level)
        if self.budget is not None and searches(found):
            found.budget = self.budget  # type: ignore[attr-defined]
        return found

    def pooled(self, game_id: str, level: str | None = None) -> bool:
        """Whether a game's computer moves at ``level`` go to the worker processes."""
        return self.workers > 0 and searches(self.player(game_id, level))

    def worker_pids(self) -> list[int]:
        """The process ids of the running workers."""
        return self.pool.pids()

    async def start(self) -> None:
        """Start and warm the workers if some game's computer player searches."""
        if self.workers and any(self.pooled(game_id) for game_id in games.ids()):
            await self.pool.ready()

    # -- choosing -----------------------------------------------------------------------------
    async def choose(self, state: State, seat: int, seed: str,
                     level: str | None = None, *, current: Callable[[], bool] | None = None,
                     started: float | None = None, pause: float = 0.0) -> Action:
        """The move of a computer player of ``level`` (None: the bot's level) for ``seat``
        (one of its legal actions).

        ``state`` may change as soon as this awaits: everything needed is taken from it first.
        A search move waits its turn in the scheduler: ``current()`` says whether the position
        asked about still stands (when it no longer does the move is not searched, and a cheap
        one is returned for the caller to discard); ``started``, when the turn began (the
        scheduler's clock, ``time.monotonic``), orders the queue, and with ``pause`` (the
        computer's pause since then) starts the move's time (see :class:`Scheduler`).
        """
        game_id = state.rules.id
        level = level or self.level
        player = self.player(game_id, level)
        rng = random.Random(seed)
        if is_cheap(player):
            return choose_safely(player, ai.observe(state, seat), rng)
        pooled = self.pooled(game_id, level)
        # taken now: the state may move on while the move waits
        blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL) if pooled else None
        legal = state.legal_actions(seat)
        seen: list[ai.Observation] = [] if pooled else [ai.observe(state, seat)]

        def observation() -> ai.Observation:
            if not seen:
                assert blob is not None
                seen.append(ai.observe(pickle.loads(blob), seat))
            return seen[0]

        def cheap() -> Action:
            return choose_safely(self.player(game_id, FALLBACK_LEVEL), observation(),
                                 random.Random(seed))

        async def search(budget: float | None) -> Action:
            if blob is not None:
                # the search ends by the time granted, counted from now: a late hand-over to
                # the worker shortens it rather than the move's deadline passing
                until = None if budget is None else time.monotonic() + budget
                found = await self._in_worker(blob, legal, seat, seed, level, budget, until)
                if found is not None:
                    return found
            return await asyncio.to_thread(choose_safely, _with_budget(player, budget),
                                           observation(), rng)

        if self.scheduler is None:
            return await search(None)
        try:
            return await self.scheduler.think(search, cheap, current=current, started=started,
                                              pause=pause, label=game_id)
        except Dropped:
            return cheap()

    async def offload(self, work: Callable[..., T], *args: object,
                      current: Callable[[], bool] | None = None, label: str = "") -> T | None:
        """A search that is not a move (a hint): ``work(*args, budget)``, a function of a
        module the workers can import, in a worker process (in a thread without workers, or
        when the worker fails) once the scheduler grants it a slot and a budget (the full
        budget without the scheduler). The work's own budget is the grant less the hand-over the
        scheduler expects (a person waits for the whole of it, not for the search alone), at
        least the scheduler's floor. None when the workers cannot fit it in time; Dropped when
        ``current()`` turns False before it is searched."""
        async def search(granted: float | None) -> T | None:
            budget = granted
            if granted is not None and self.scheduler is not None:
                budget = max(self.scheduler.floor, granted - self.scheduler.overhead)
            return await self._off_the_loop(functools.partial(work, *args, budget), label)

        if self.scheduler is None:
            return await search(self.budget or ai.HARD_BUDGET)
        return await self.scheduler.think(search, lambda: None, current=current, label=label)

    def applied(self, seconds: float) -> None:
        """A searched move took ``seconds`` from its choice to being applied (see
        :meth:`Scheduler.applied`)."""
        if self.scheduler is not None:
            self.scheduler.applied(seconds)

    async def _in_worker(self, blob: bytes, legal: list[Action], seat: int, seed: str,
                         level: str, budget: float | None,
                         until: float | None = None) -> Action | None:
        """A search move (``budget`` seconds; None: the worker's own) in a worker process;
        None when the worker failed (the caller thinks it in a thread)."""
        pool: Pool | None = None
        try:
            pool = await self.pool.ready()
            loop = asyncio.get_running_loop()
            text = await loop.run_in_executor(pool, _think_in_worker, blob, seat, seed, level,
                                              budget, until)
            action = Action.parse(text)
            self.pooled_moves += 1
            for candidate in legal:
                if candidate.same_as(action):
                    return candidate
            log.error("a worker chose a move that is not legal; playing at random")
            return random.Random(seed).choice(legal)
        except (BrokenProcessPool, OSError, RuntimeError, IllegalAction) as exc:
            if isinstance(exc, RuntimeError) and self.pool.closed:
                raise
            log.warning("thinking in a worker failed (%s); this move is thought in a "
                        "thread", type(exc).__name__, extra=logs.failure(exc))
            if pool is not None and isinstance(exc, BrokenProcessPool):
                self.pool.replace(pool)
            return None

    # -- background work --------------------------------------------------------------------------
    async def in_spare_time(self, work: Callable[[], T], *, expect: float,
                            label: str = "") -> T:
        """``work()`` (picklable: a top-level function or a partial of one) in a worker when no
        computer move wants the slot (:meth:`Scheduler.spare`); in a thread without workers,
        or when a worker fails. ``expect``: its seconds."""
        async def run(_granted: float) -> T:
            return await self._off_the_loop(work, label or "background work")

        if self.scheduler is None:
            return await run(expect)
        return await self.scheduler.spare(run, expect=expect, label=label)

    async def _off_the_loop(self, work: Callable[[], T], what: str) -> T:
        """``work()`` in a worker process; in a thread without workers, or when the worker
        fails (``what`` names it in the log)."""
        if self.workers:
            pool: Pool | None = None
            try:
                pool = await self.pool.ready()
                return await asyncio.get_running_loop().run_in_executor(pool, work)
            except (BrokenProcessPool, OSError) as exc:
                log.warning("%s in a worker failed (%s); thought in a thread", what,
                            type(exc).__name__, extra=logs.failure(exc))
                if pool is not None and isinstance(exc, BrokenProcessPool):
                    self.pool.replace(pool)
        return await asyncio.to_thread(work)

    async def close(self) -> None:
        """Stop the workers (a move being thought is finished first, at most one budget)."""
        if self.scheduler is not None:
            self.scheduler.close()
        await self.pool.close()
