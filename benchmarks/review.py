"""How long the review of a whole game takes, per game.

    .venv/bin/python benchmarks/review.py [--game ID ...] [--seconds S] [--seed N] [--bot]

For each game, a whole match is played by the basic players at the game's usual table size
(seed ``--seed``, default options), then the review of seat 1 is made as the bot makes it:
every decision screened, the largest losses sharpened (``games.ai.review``, ``--seconds`` of
search in all, default the bot's). Printed per game: the moves, the decisions judged, the
costly ones found, the wall time of the review and its replays' share.

``--bot`` makes it through the bot's path instead: :class:`bot.tables.review.Reviewer` with two
worker processes behind the thinking scheduler, which gives a review one of them (the other
stays free for live moves): the time from asking to the review in hand, worker start-up
included (the pool is started first and not counted).

The issue's target: a whole game's review within 30 s of its end on an idle 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from games import ai
from games.ai import review as rv


def whole_game(gid: str, seed: int) -> rv.Game:
    """A match played to its end by the basic players."""
    rules = games.get(gid)
    players = rules.usual_players
    state = rules.new_game(players, seed=seed)
    rng = random.Random(seed)
    player = ai.get_player("normal", gid)
    moves: list[tuple[int, str]] = []
    while not state.over and len(moves) < 5000:
        to_act = state.to_act
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        action = player.choose(ai.observe(state, seat), rng)
        state.apply(seat, action)
        moves.append((seat, str(action)))
    return rv.Game(gid, players, seed, {}, tuple(moves))


async def through_the_bot(game: rv.Game, seconds: float) -> tuple[rv.Review, float]:
    """The review made by the bot's Reviewer (two workers, the scheduler's spare slot)."""
    from bot.tables.review import Reviewer
    from bot.tables.thinking import Thinker

    thinker = Thinker("normal", workers=2)
    await thinker.pool.ready()
    reviewer = Reviewer(thinker, seconds=seconds)
    began = time.perf_counter()
    task, _ = reviewer.start((1, 0), game, set(range(len(game.actions))))
    review = await task
    took = time.perf_counter() - began
    await thinker.close()
    return review, took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", nargs="*", default=games.ids())
    parser.add_argument("--seconds", type=float, default=rv.SECONDS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", action="store_true")
    args = parser.parse_args(argv)
    print(f"review of seat 1, {args.seconds:g} s of search planned, "
          f"{'through the bot (2 workers)' if args.bot else 'in this process'}")
    print(f"{'game':12} {'moves':>6} {'judged':>6} {'costly':>6} {'review s':>9} {'replay s':>9}")
    for gid in args.game:
        game = whole_game(gid, args.seed)
        began = time.perf_counter()
        points = rv.decisions(game, 0)
        replay = time.perf_counter() - began
        if args.bot:
            review, took = asyncio.run(through_the_bot(game, args.seconds))
        else:
            began = time.perf_counter()
            review = rv.review(game, 0, seconds=args.seconds)
            took = time.perf_counter() - began
        assert review.decisions == len(points)
        print(f"{gid:12} {len(game.actions):6d} {review.decisions:6d} "
              f"{len(review.costliest):6d} {took:9.1f} {replay:9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
