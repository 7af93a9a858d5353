"""How much each level's choices give away per decision, measured against a long reference.

    .venv/bin/python benchmarks/regret.py [--game ID] [-n POSITIONS] [--rounds R]
                                         [--budget S ...] [--iterations K] [--jobs J]

Win shares over whole deals are noisy (±3 points over 800 deals), too noisy to show what more
playouts would still give. This measures the decisions instead. Positions come from deals
between basic players at the game's usual count (a random turn of deal ``40000 + i``, at a
seat with more than one legal move). For each position every legal move is played from the
same ``R`` samples with the same playout dice (the hard level's own rollout and judge), which
gives each move's value to within about ``±0.5 / sqrt(R)``: a reference of what the search
converges to with unlimited playouts, under its own model of the rest of the deal. Then the
basic level and the hard level (at each ``--budget``; three choices each, with different
dice) choose, and the script prints what their choices give away on average against the
reference's best move:

- ``judge``: in the search's own reward (the game's judge, in [0, 1]);
- ``win``: in the chance of winning the deal (the deal's winners as ``benchmarks/ai.py`` counts
  them, ties sharing), against the move with the best chance.

Noise in the reference makes every figure a little too high (its best move is partly luck), the
same for every level. Moves that start a new deal are judged where the deal ends.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ai import deal_winners, hard_player, known  # benchmarks/ai.py: the same hard level

import games
from games.ai import Observation, get_player, observe
from games.ai.search import SearchPlayer
from games.core import State

Job = tuple[str, int, int, tuple[float, ...], int | None]


def position(gid: str, index: int) -> tuple[State, int] | None:
    """Deal ``index`` played by basic players up to a random turn with a real choice: the
    state and the seat to move, or None when the deal ended first."""
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=40_000 + index)
    basic = get_player("normal", gid)
    rng = random.Random(index)
    stop = rng.randrange(0, 14)
    turn = 0
    while not state.over and state.deal_number == 1:
        seat = state.to_act[0] if len(state.to_act) == 1 else rng.choice(state.to_act)
        obs = observe(state, seat)
        if turn >= stop and len(obs.legal) > 1:
            return state, seat
        state.apply(seat, basic.choose(obs, rng))
        turn += 1
    return None


def reference(obs: Observation, player: SearchPlayer, rounds: int,
              rng: random.Random) -> tuple[list[float], list[float]]:
    """Each legal move's mean judge reward and win credit over ``rounds`` paired samples."""
    count = len(obs.legal)
    judged = [0.0] * count
    won = [0.0] * count
    for _ in range(rounds):
        sample = obs.sample(rng)
        sample.stop_at_deal_end = True
        deal = sample.deal_number
        start = sample.scores()
        dice = rng.getrandbits(64)
        for j, action in enumerate(obs.legal):
            trial = sample.clone()
            trial.apply(obs.seat, action)
            player._play_out(trial, deal, random.Random(dice))  # the search's own playout
            judged[j] += player.judge(trial, start)[obs.seat]
            winners = deal_winners(trial, start)
            if obs.seat in winners:
                won[j] += 1.0 / len(winners)
    return [x / rounds for x in judged], [x / rounds for x in won]


def measure(job: Job) -> dict[str, tuple[float, float]] | None:
    """One position: each level's mean loss against the reference (judge, win)."""
    gid, index, rounds, budgets, iterations = job
    found = position(gid, index)
    if found is None:
        return None
    state, seat = found
    obs = observe(state, seat)
    legal = list(obs.legal)
    player = hard_player(gid, 1.0, iterations)
    assert isinstance(player, SearchPlayer)
    judged, won = reference(obs, player, rounds, random.Random(7 + index))
    picks = {"basic": [get_player("normal", gid).choose(obs, random.Random(s))
                       for s in range(3)]}
    for budget in budgets:
        label = f"hard {budget:g} s" if iterations is None else f"hard {iterations} it"
        picks[label] = [hard_player(gid, budget, iterations).choose(
            obs, random.Random(100 + s)) for s in range(3)]
    best_judged, best_won = max(judged), max(won)
    return {level: (statistics.fmean(best_judged - judged[legal.index(a)] for a in chosen),
                    statistics.fmean(best_won - won[legal.index(a)] for a in chosen))
            for level, chosen in picks.items()}


def main() -> int:
    """Print each level's loss per decision."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="1234", help="game id")
    parser.add_argument("-n", type=int, default=100, help="positions")
    parser.add_argument("--rounds", type=int, default=20_000, help="reference samples")
    parser.add_argument("--budget", type=float, action="append",
                        help="hard level budgets in seconds (default 0.25 and 1)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="fixed iterations per hard move instead of the time budget")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    known([args.game])
    budgets = tuple(args.budget or (0.25, 1.0))
    if args.iterations is not None:
        budgets = budgets[:1]  # the budget does not matter then
    started = time.perf_counter()
    jobs: list[Job] = [(args.game, i, args.rounds, budgets, args.iterations)
                       for i in range(args.n)]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = [r for r in pool.map(measure, jobs) if r is not None]
    print(f"game={args.game} positions={len(results)} rounds={args.rounds} "
          f"iterations={args.iterations} seconds={time.perf_counter() - started:.0f}")
    print(f"{'level':12} {'judge':>8} {'win':>8}")
    for level in results[0]:
        judge = statistics.fmean(r[level][0] for r in results)
        win = statistics.fmean(r[level][1] for r in results)
        print(f"{level:12} {judge:8.4f} {win:8.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
