"""How long a hint takes, per game, at the hard level's budget.

    .venv/bin/python benchmarks/hints.py [--game ID] [--hints 12] [--budget 1.0] [--seed 2026]
                                         [--workers N]

For each game, one match is played by the basic players from a fixed seed; at its decisions
with more than one legal move (every third one, until ``--hints`` are taken) a hint is worked
out as a worker does it (:func:`bot.tables.hints.analyse_pickled`: the pickled state in, the seat's
observation made, the hard player's choice and the paired measurements within ``--budget``
seconds). Printed per game: the hints, the time of each (p50, p99, max; the issue's target is
p99 within 1 s at the hard budget), the measuring playouts and the deals sampled per hint.

The time is the analysis itself, in this process; in the bot a hint also waits for a worker in
the thinking scheduler, which gives it less than the full budget when the workers are busy.
With ``--workers N`` each hint goes the bot's way instead (``Thinker.offload``: the scheduler's
grant, a worker process, the pickled analysis back), one at a time, so the time includes the
hand-over to the worker and back.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from benchmarks.waits import percentile
from bot.tables.thinking import Thinker
from games.ai import HARD_BUDGET, get_player, observe
from games.ai.analysis import Analysis, analyse_pickled


async def hint_times(gid: str, hints: int, budget: float, seed: int,
                     thinker: Thinker | None) -> tuple[list[float], int, int]:
    """The seconds of each hint over one basic match, the playouts and the deals sampled."""
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=seed)
    basic = get_player("normal", gid)
    rng = random.Random(seed)
    times: list[float] = []
    playouts = samples = decisions = 0
    while not state.over and len(times) < hints:
        to_act = state.to_act
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        obs = observe(state, seat)
        if len(obs.legal) > 1:
            decisions += 1
            if decisions % 3 == 1:
                blob = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
                began = time.perf_counter()
                if thinker is None:
                    found: Analysis | None = analyse_pickled(blob, seat, len(times), budget)
                else:
                    found = await thinker.offload(analyse_pickled, blob, seat, len(times),
                                                  label="hint")
                times.append(time.perf_counter() - began)
                assert found is not None, "the scheduler could not fit a hint in"
                playouts += found.playouts
                samples += found.samples
        state.apply(seat, basic.choose(obs, rng))
    return times, playouts, samples


async def run(args: argparse.Namespace) -> None:
    thinker = None
    if args.workers:
        thinker = Thinker("hard", workers=args.workers, budget=args.budget, scheduler=True)
        await thinker.pool.ready()
    print(f"hints at a budget of {args.budget:.2f} s, {args.hints} per game"
          + (f", through {args.workers} worker(s)" if thinker else ", in this process"))
    print(f"{'game':<12} {'hints':>5} {'p50 s':>6} {'p99 s':>6} {'max s':>6} "
          f"{'playouts':>9} {'deals':>6}")
    try:
        for gid in args.game or games.ids():
            times, playouts, samples = await hint_times(gid, args.hints, args.budget,
                                                        args.seed, thinker)
            if not times:
                print(f"{gid:<12} no decision with a choice")
                continue
            ordered = sorted(times)
            count = len(times)
            print(f"{gid:<12} {count:>5} {percentile(ordered, 0.5):>6.2f} "
                  f"{percentile(ordered, 0.99):>6.2f} {ordered[-1]:>6.2f} "
                  f"{playouts // count:>9} {samples // count:>6}")
    finally:
        if thinker is not None:
            await thinker.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="a game id (default: every game)")
    parser.add_argument("--hints", type=int, default=12, help="hints per game")
    parser.add_argument("--budget", type=float, default=HARD_BUDGET, help="seconds a hint")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=0,
                        help="hints through the bot's AI worker pool (0: in this process)")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
