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
"""

from __future__ import annotations

import asyncio
import logging
import os
import pickle
import random
from concurrent.futures.process import BrokenProcessPool

import games
from bot import logs
from bot.workers import Pool, WorkerPool
from games import ai
from games.core import Action, IllegalAction, State

log = logging.getLogger(__name__)

#: modules the forkserver imports once, so that every worker starts with them loaded
PRELOAD = ["games", "games.ai", "games.ai.search", "games.ai.playouts"]


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


def _warm() -> int:
    """Build every game's player of the bot's level once (imports, search hooks); the
    worker's pid."""
    for game_id in games.ids():
        _worker_player(game_id, _worker_level)
    return os.getpid()


def _worker_player(game_id: str, level: str) -> ai.Player:
    player = _worker_players.get((game_id, level))
    if player is None:
        player = _worker_players[game_id, level] = best_player(game_id, level)
    return player


def _think_in_worker(blob: bytes, seat: int, seed: str, level: str) -> str:
    """The action (as text) a seat's computer player of ``level`` chooses; only its
    observation reaches the player, never the state."""
    state: State = pickle.loads(blob)
    obs = ai.observe(state, seat)
    del state
    return str(choose_safely(_worker_player(obs.game, level), obs, random.Random(seed)))


# -- in the bot -------------------------------------------------------------------------------
class Thinker:
    """Chooses computer moves: cheap players inline, search players in worker processes."""

    def __init__(self, level: str = "best", workers: int = 0,
                 budget: float | None = None) -> None:
        #: the level of a move that names none (a table chooses its own, see ``choose``)
        self.level = level
        self.workers = max(0, workers)
        self.budget = budget
        #: the player of each game and level in this process (inline, or in a thread as a
        #: fallback)
        self.players: dict[tuple[str, str], ai.Player] = {}
        self.pool = WorkerPool("computer player", self.workers, PRELOAD, _warm,
                               setup=_init_worker, setup_args=(level, budget))
        #: moves thought in a worker
        self.pooled_moves = 0

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
                     level: str | None = None) -> Action:
        """The move of a computer player of ``level`` (None: the bot's level) for ``seat``
        (one of its legal actions).

        ``state`` may change as soon as this awaits: everything needed is taken from it first.
        """
        game_id = state.rules.id
        level = level or self.level
        player = self.player(game_id, level)
        rng = random.Random(seed)
        if is_cheap(player):
            return choose_safely(player, ai.observe(state, seat), rng)
        legal = state.legal_actions(seat)
        if self.pooled(game_id, level):
            blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
            pool: Pool | None = None
            try:
                pool = await self.pool.ready()
                loop = asyncio.get_running_loop()
                text = await loop.run_in_executor(pool, _think_in_worker, blob, seat, seed,
                                                  level)
                action = Action.parse(text)
                self.pooled_moves += 1
                for candidate in legal:
                    if candidate.same_as(action):
                        return candidate
                log.error("a worker chose %s, which is not legal; playing at random", game_id)
                return rng.choice(legal)
            except (BrokenProcessPool, OSError, RuntimeError, IllegalAction) as exc:
                if isinstance(exc, RuntimeError) and self.pool.closed:
                    raise
                log.warning("thinking in a worker failed (%s); this move is thought in a "
                            "thread", type(exc).__name__, extra=logs.failure(exc))
                if pool is not None and isinstance(exc, BrokenProcessPool):
                    self.pool.replace(pool)
                state = pickle.loads(blob)
        obs = ai.observe(state, seat)
        return await asyncio.to_thread(choose_safely, player, obs, rng)

    async def close(self) -> None:
        """Stop the workers (a move being thought is finished first, at most one budget)."""
        await self.pool.close()
