"""The search's playouts per second and choices, old code against new, side by side.

    git archive main games benchmarks | tar -x -C /tmp/old    # the code to compare against
    .venv/bin/python benchmarks/search_speed.py --old /tmp/old [--rounds 4] [--budget 0.1]
        [--moves 12] [--game ID] [--choices 30] [--iterations 48]

Speed: each round runs, game by game, ``benchmarks/search_profile.py --no-profile`` of the old
tree and of this one, one right after the other (the order swapped every time, so that a
machine busier at one moment weighs on both alike), and adds up per game the playouts and the
seconds searched.
Printed per game: old and new playouts per second and the change.

Choices (``--choices N``): in each tree, the hard player with a fixed number of iterations
(its choice then depends on the position and the rng alone) chooses at up to N positions per
game of deals played by the basic players from fixed seeds; printed: at how many positions the
choice and the rng's next draw after it agree (the same draw: the search drew the very same
random numbers, so it played the same playouts). A change meant to keep the search the same
(only faster) must agree on every position.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
LINE = re.compile(r"^(\S+): (\d+) decisions searched, ([\d.]+) s, (\d+) playouts")

# Run inside one tree (its root first on the path): the hard player's choices as text.
CHOOSE = r"""
import json, random, sys
sys.path.insert(0, sys.argv[1])
import games
from games.ai import get_player, observe
from games.ai.search import SearchPlayer
count, iterations, wanted = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
found = {}
for gid in wanted or games.ids():
    rules = games.get(gid)
    basic = get_player("normal", gid)
    hard = get_player("hard", gid)
    assert isinstance(hard, SearchPlayer)
    hard.iterations = iterations
    chosen = found[gid] = []
    seed = 0
    while len(chosen) < count and seed < 50:
        state = rules.new_game(rules.usual_players, seed=seed)
        rng = random.Random(seed)
        while not state.over and len(chosen) < count and state.deal_number <= 2:
            seat = state.to_act[0]
            obs = observe(state, seat)
            if len(obs.legal) > 1:
                dice = random.Random(len(chosen))
                action = hard.choose(obs, dice)
                # the rng's next draw: the same only if the search drew the same numbers
                chosen.append(f"{action} {dice.random():.12f}")
            state.apply(seat, basic.choose(obs, rng))
        seed += 1
print(json.dumps(found))
"""


def speed(root: Path, budget: float, moves: int, wanted: list[str]) -> dict[str, tuple[int, float]]:
    """Per game: (playouts, seconds searched) of one run of ``root``'s search profile."""
    command = [sys.executable, str(root / "benchmarks" / "search_profile.py"), "--no-profile",
               "--budget", str(budget), "--moves", str(moves)]
    for gid in wanted:
        command += ["--game", gid]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    found: dict[str, tuple[int, float]] = {}
    for line in out.splitlines():
        match = LINE.match(line)
        if match:
            found[match[1]] = (int(match[4]), float(match[3]))
    return found


def choices(root: Path, count: int, iterations: int, wanted: list[str]) -> dict[str, list[str]]:
    """Per game: the hard player's choices in ``root``'s tree (see ``CHOOSE``)."""
    done = subprocess.run([sys.executable, "-c", CHOOSE, str(root), str(count), str(iterations),
                           *wanted], capture_output=True, text=True, check=True)
    found: dict[str, list[str]] = json.loads(done.stdout)
    return found


def _game_ids() -> list[str]:
    sys.path.insert(0, str(HERE))
    import games

    return list(games.ids())


def main() -> int:
    """Compare the old tree with this one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, type=Path,
                        help="a copy of the old code (its games/ and benchmarks/)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--budget", type=float, default=0.1)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--game", action="append", default=[])
    parser.add_argument("--choices", type=int, default=0,
                        help="positions per game whose choices are compared (0: none)")
    parser.add_argument("--iterations", type=int, default=48)
    args = parser.parse_args()
    sides = {"old": args.old.resolve(), "new": HERE}
    totals: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    wanted = args.game or _game_ids()
    for r in range(args.rounds):
        for k, gid in enumerate(wanted):
            order = ["old", "new"] if (r + k) % 2 == 0 else ["new", "old"]
            for side in order:
                for found, (playouts, seconds) in speed(sides[side], args.budget, args.moves,
                                                        [gid]).items():
                    row = totals[side].setdefault(found, [0.0, 0.0])
                    row[0] += playouts
                    row[1] += seconds
    if args.rounds:
        print(f"playouts per second, {args.rounds} rounds alternating, budget {args.budget} s, "
              f"{args.moves} decisions per game per round:")
        print("| game | old | new | change |")
        print("| --- | --- | --- | --- |")
        for gid, (playouts, seconds) in totals["new"].items():
            old_playouts, old_seconds = totals["old"].get(gid, [0.0, 0.0])
            old = old_playouts / old_seconds if old_seconds else 0.0
            new = playouts / seconds if seconds else 0.0
            change = f"{100 * (new / old - 1):+.0f} %" if old else "—"
            print(f"| {gid} | {old:.0f} | {new:.0f} | {change} |")
    if args.choices:
        old_choices = choices(sides["old"], args.choices, args.iterations, args.game)
        new_choices = choices(sides["new"], args.choices, args.iterations, args.game)
        print(f"choices at {args.iterations} iterations (old vs new):")
        for gid, mine in new_choices.items():
            theirs = old_choices.get(gid, [])
            same = sum(1 for a, b in zip(mine, theirs, strict=False) if a == b)
            print(f"  {gid}: {same} of {len(mine)} positions the same (choice and draws)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
