"""Engine speed: per game and player count, the median µs of one legal_actions + apply step
and the median ms of a random playout of one whole deal from its start.

    .venv/bin/python benchmarks/engine.py [--game ID] [--deals N] [--players P]

A playout clones the state at the start of a deal, then applies uniformly random legal actions
(``State.random_action``) until the deal number changes or the game ends; the clone is counted,
as a search player pays for it too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from games.core import State

TARGET_MS = {"sugekari-21": 2.0}


def step_times(state: State, rng: random.Random, limit: int = 400) -> list[float]:
    """µs of legal_actions + choice + apply for each step of a random game."""
    found: list[float] = []
    clock = time.perf_counter
    while not state.over and len(found) < limit:
        seat = state.to_act[0] if len(state.to_act) == 1 else rng.choice(state.to_act)
        t0 = clock()
        legal = state.legal_actions(seat)
        state.apply(seat, rng.choice(legal))
        found.append((clock() - t0) * 1e6)
    return found


def playout(start: State, rng: random.Random) -> tuple[float, int]:
    """ms of one random deal from ``start`` (clone included), and its action count."""
    clock = time.perf_counter
    t0 = clock()
    state = start.clone()
    deal = state.deal_number
    count = 0
    while not state.over and state.deal_number == deal:
        to_act = state.to_act
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        state.apply(seat, state.random_action(seat, rng))
        count += 1
    return (clock() - t0) * 1e3, count


def measure(gid: str, players: int, deals: int) -> dict[str, float]:
    """The figures for one game at one player count."""
    rules = games.get(gid)
    rng = random.Random(12345)
    steps: list[float] = []
    for seed in range(max(3, deals // 20)):
        steps += step_times(rules.new_game(players, seed=seed), rng)
    starts = [rules.new_game(players, seed=1000 + seed) for seed in range(deals)]
    for start in starts[:10]:
        playout(start, rng)  # warm up
    results = [playout(start, rng) for start in starts]
    times = [ms for ms, _ in results]
    return {
        "step_us": statistics.median(steps),
        "deal_ms": statistics.median(times),
        "deal_p90_ms": statistics.quantiles(times, n=10)[-1],
        "actions": statistics.fmean(n for _, n in results),
    }


def main() -> int:
    """Print the table of figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (default: every game)")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--players", type=int, action="append")
    args = parser.parse_args()
    print(f"{'game':12} {'players':>7} {'step µs':>8} {'deal ms':>8} {'p90 ms':>7} "
          f"{'actions':>7}  target")
    for gid in args.game or games.ids():
        rules = games.get(gid)
        counts = args.players or list(rules.player_counts())
        for players in counts:
            if players not in rules.player_counts():
                continue
            fig = measure(gid, players, args.deals)
            target = ""
            if players == rules.usual_players:
                limit = TARGET_MS.get(gid, 1.0)
                verdict = "met" if fig["deal_ms"] <= limit else "MISSED"
                target = f"≤ {limit} ms: {verdict}"
            print(f"{gid:12} {players:7d} {fig['step_us']:8.1f} {fig['deal_ms']:8.3f} "
                  f"{fig['deal_p90_ms']:7.3f} {fig['actions']:7.1f}  {target}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
