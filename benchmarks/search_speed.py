"""The search's playouts per CPU second and its choices, old code against new, side by side.

    git archive main games | tar -x -C /tmp/old    # the code to compare against
    .venv/bin/python benchmarks/search_speed.py --old /tmp/old [--rounds 3] [--positions 16]
        [--iterations 150] [--game ID]

In each tree (its root first on the import path, in a process of its own) the hard player
searches a fixed number of iterations (its choice then depends on the position and the rng
alone) at the first ``--positions`` decisions with more than one legal move of deals played by
the basic players from fixed seeds, after one untimed search (the tables a first search
builds). Each round runs, game by game, the old tree and this one right after each other (the
order swapped every time, so that a machine busier at one moment weighs on both alike).

Printed per game: playouts per CPU second of the searching process (``time.process_time``, so
that other processes on a shared machine weigh little) in the old tree and in this one, and the
change; then at how many positions the choice and the rng's next draw after it agree (the same
draw: the search drew the very same random numbers, so it played the same playouts). A change
meant to keep the search the same, only faster, agrees on every position.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

# Run inside one tree: per game, the choices, the playouts and the CPU seconds searched.
SEARCH = r"""
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import games
from games.ai import get_player, observe
from games.ai.search import SearchPlayer
count, iterations, gid = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rules = games.get(gid)
basic = get_player("normal", gid)
hard = get_player("hard", gid)
assert isinstance(hard, SearchPlayer)
first = rules.new_game(rules.usual_players, seed=0)
hard.iterations = 4
hard.choose(observe(first, first.to_act[0]), random.Random(0))
hard.iterations = iterations
chosen, playouts, spent, seed = [], 0, 0.0, 0
while len(chosen) < count and seed < 50:
    state = rules.new_game(rules.usual_players, seed=seed)
    rng = random.Random(seed)
    while not state.over and len(chosen) < count and state.deal_number <= 2:
        seat = state.to_act[0]
        obs = observe(state, seat)
        if len(obs.legal) > 1:
            dice = random.Random(len(chosen))
            began = time.process_time()
            action = hard.choose(obs, dice)
            spent += time.process_time() - began
            playouts += hard.last_iterations
            chosen.append(f"{action} {dice.random():.12f}")
        state.apply(seat, basic.choose(obs, rng))
    seed += 1
print(json.dumps({"choices": chosen, "playouts": playouts, "cpu": spent}))
"""


def search(root: Path, gid: str, count: int, iterations: int) -> dict[str, object]:
    """One game's searches in ``root``'s tree (see ``SEARCH``)."""
    done = subprocess.run([sys.executable, "-c", SEARCH, str(root), str(count), str(iterations),
                           gid], capture_output=True, text=True, check=True)
    found: dict[str, object] = json.loads(done.stdout)
    return found


def _game_ids() -> list[str]:
    sys.path.insert(0, str(HERE))
    import games

    return list(games.ids())


def main() -> int:
    """Compare the old tree with this one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, type=Path,
                        help="a copy of the old code (its games/ package)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--iterations", type=int, default=150)
    parser.add_argument("--game", action="append", default=[])
    args = parser.parse_args()
    sides = {"old": args.old.resolve(), "new": HERE}
    wanted = args.game or _game_ids()
    totals = {side: {gid: [0.0, 0.0] for gid in wanted} for side in sides}
    choices: dict[str, dict[str, set[tuple[str, ...]]]] = {side: {} for side in sides}
    for r in range(args.rounds):
        for k, gid in enumerate(wanted):
            for side in (["old", "new"] if (r + k) % 2 == 0 else ["new", "old"]):
                found = search(sides[side], gid, args.positions, args.iterations)
                totals[side][gid][0] += float(found["playouts"])  # type: ignore[arg-type]
                totals[side][gid][1] += float(found["cpu"])  # type: ignore[arg-type]
                choices[side].setdefault(gid, set()).add(
                    tuple(found["choices"]))  # type: ignore[arg-type]
    print(f"playouts per CPU second, {args.rounds} rounds alternating, {args.positions} "
          f"positions per game at {args.iterations} iterations:")
    print("| game | old | new | change | same choice and draws |")
    print("| --- | --- | --- | --- | --- |")
    for gid in wanted:
        old_playouts, old_cpu = totals["old"][gid]
        new_playouts, new_cpu = totals["new"][gid]
        old = old_playouts / old_cpu if old_cpu else 0.0
        new = new_playouts / new_cpu if new_cpu else 0.0
        change = f"{100 * (new / old - 1):+.0f} %" if old else "—"
        runs = choices["old"][gid] | choices["new"][gid]
        mine = next(iter(choices["new"][gid]))
        theirs = next(iter(choices["old"][gid]))
        same = sum(1 for a, b in zip(mine, theirs, strict=False) if a == b)
        note = "" if len(runs) == 1 else " (runs differ among themselves)"
        print(f"| {gid} | {old:.0f} | {new:.0f} | {change} | {same} of {len(mine)}{note} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
