"""Where the hard player's search spends its time, per game: a short profile.

    .venv/bin/python benchmarks/search_profile.py [--game ID] [--budget 0.1] [--moves 12]
                                                  [--top 8] [--no-profile]

For each game, one deal is played by the basic players from a fixed seed; at the first
``--moves`` decisions with more than one legal move the hard player searches ``--budget``
seconds (its moves are not played: the game goes on by the basic player's choice, so every
run searches the same positions). Printed per game: the searched decisions, the playouts
(tree iterations or paired playouts) and playouts per second; with the profile (the default,
which slows everything down alike), the share of the search's time spent in each source file
(own time of its functions) and the functions with the most own time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from games.ai import get_player, observe
from games.ai.search import SearchPlayer


def profile_game(gid: str, budget: float, moves: int, top: int, profiled: bool) -> None:
    rules = games.get(gid)
    state = rules.new_game(rules.usual_players, seed=2026)
    basic = get_player("normal", gid)
    hard = get_player("hard", gid)
    assert isinstance(hard, SearchPlayer)
    hard.budget = budget
    rng = random.Random(7)
    profile = cProfile.Profile() if profiled else None
    searched = playouts = 0
    spent = 0.0
    while not state.over and state.deal_number == 1 and searched < moves:
        seat = state.to_act[0]
        obs = observe(state, seat)
        if len(obs.legal) > 1:
            began = time.perf_counter()
            if profile is not None:
                profile.enable()
            hard.choose(obs, random.Random(searched))
            if profile is not None:
                profile.disable()
            spent += time.perf_counter() - began
            searched += 1
            playouts += hard.last_iterations
        state.apply(seat, basic.choose(obs, rng))
    rate = playouts / spent if spent else 0.0
    print(f"{gid}: {searched} decisions searched, {spent:.2f} s, {playouts} playouts, "
          f"{rate:.0f} playouts/s")
    if profile is None or not searched:
        return
    stats = pstats.Stats(profile)
    raw = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for _, _, tt, _, _ in raw.values()) or 1.0
    by_file: dict[str, float] = {}
    for (path, _, _), (_, _, tt, _, _) in raw.items():
        name = path.split("/games/")[-1] if "/games/" in path else Path(path).name or path
        by_file[name] = by_file.get(name, 0.0) + tt
    shares = sorted(by_file.items(), key=lambda item: -item[1])[:top]
    print("  own time by file: " + ", ".join(f"{name} {100 * tt / total:.0f}%"
                                             for name, tt in shares))
    functions = sorted(raw.items(), key=lambda item: -item[1][2])[:top]
    for (path, line, func), (_, calls, tt, _, _) in functions:
        short = path.split("/games/")[-1] if "/games/" in path else Path(path).name
        print(f"    {100 * tt / total:4.1f}%  {calls:8d} calls  {func} ({short}:{line})")


def main() -> int:
    """Parse arguments and profile each game's search."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a game id (repeat; default: all)")
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--no-profile", action="store_true",
                        help="playouts per second only, without the profiler's slowdown")
    args = parser.parse_args()
    for gid in args.game or games.ids():
        profile_game(gid, args.budget, args.moves, args.top, not args.no_profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
