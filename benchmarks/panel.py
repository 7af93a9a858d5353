"""The event loop's own work for one position of a table: its snapshots and a person's panel.

    .venv/bin/python benchmarks/panel.py [--games 20] [--game ID]

Every click and every live panel's edit starts with this work on the bot's event loop, and
under a burst of clicks (a hundred tables starting at once) the clicks queue behind one
another's share of it. For each game, random games are played between two seated people and
computers, at the game's usual number of seats (as ``benchmarks/bot.py`` opens its tables); at
each position (a version of the table) it takes what the bot takes after a move: the public
snapshot (the table message), each person's snapshot and panel (words, controls and the
Discord payload they answer with). Printed: µs per position, median and p90, in all and for
the snapshots alone. ``--first`` takes each game's first position only: the start of a table,
when every person presses Hand at once and hands are full.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from benchmarks.waits import percentile
from bot.tables.model import PLAYING, Seat, Table
from bot.tables.position import position_of
from cogs.panel_views import hand_payload

PEOPLE = 2  # seats held by people, as in benchmarks/bot.py; the others are computers


def measure(gid: str, count: int, seed: int, first: bool = False
            ) -> tuple[list[float], list[float]]:
    """µs per position: the whole work, and the snapshots alone (``first``: each game's
    first position only, where hands are full and every panel has the most controls)."""
    rules = games.get(gid)
    rng = random.Random(seed)
    whole: list[float] = []
    snaps: list[float] = []
    for game in range(count):
        players = rules.usual_players
        state = rules.new_game(players, seed=rng.randrange(1 << 30))
        seats = [Seat(10 + s, f"P{s + 1}", computer=s >= PEOPLE) for s in range(players)]
        table = Table(game, 1, 1, rules, 10, PLAYING, seats, {}, 1, "off", state=state)
        while not state.over:
            table.version += 1
            began = time.perf_counter()
            position_of(table)
            mine = [position_of(table, seat) for seat in range(PEOPLE)]
            taken = time.perf_counter()
            for position in mine:
                hand_payload(position, "en").send()
            ended = time.perf_counter()
            if first and table.version > 1:
                break
            whole.append((ended - began) * 1e6)
            snaps.append((taken - began) * 1e6)
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return whole, snaps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per game id")
    parser.add_argument("--game", help="one game id only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", action="store_true",
                        help="only each game's first position (a table's start: Hand pressed)")
    args = parser.parse_args()
    for gid in [args.game] if args.game else games.ids():
        whole, snaps = measure(gid, args.games, args.seed, args.first)
        ordered = sorted(whole)
        print(f"{gid:12s} {len(whole):5d} positions: whole p50 {percentile(ordered, 0.5):6.0f} "
              f"µs, p90 {percentile(ordered, 0.9):6.0f} µs; snapshots p50 "
              f"{percentile(sorted(snaps), 0.5):6.0f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
