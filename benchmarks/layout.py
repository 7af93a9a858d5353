"""Table pictures against the layout's rules (:mod:`bot.pictures.collisions`) over many random
positions: per game and seat count, how many positions break a rule and which rules, in both
languages, and how long laying out and checking one picture takes (no painting).

    .venv/bin/python benchmarks/layout.py [--per-game 20000] [--seed 1] [--game ID]

The positions of a game are shared evenly between its seat counts and the two languages
(English with the gallery's names, Japanese with the /rules pictures' 席1 … 席8). The suite runs
a few hundred per game (tests/render/test_collisions.py).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

# The repository first: this folder's bot.py must not shadow the bot package.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from bot.pictures import collisions
from bot.pictures.__main__ import SAMPLE_NAMES

NAMES = {"en": SAMPLE_NAMES, "ja": [f"席{n}" for n in range(1, 9)]}


def main() -> int:
    """Print the figures; exit 1 when any position breaks a rule."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-game", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    print(f"{'game':12} {'seats':>5} {'positions':>9} {'broken':>7} {'%':>6} "
          f"{'check ms':>9}  most broken rule")
    total_bad = 0
    for gid in args.game or games.ids():
        counts = list(games.get(gid).player_counts())
        each = -(-args.per_game // (2 * len(counts)))  # at least --per-game in all
        for players in counts:
            bad = seen = 0
            kinds: collections.Counter[str] = collections.Counter()
            spent = 0.0
            for lang, names in NAMES.items():
                for view in collisions.random_views(gid, players, each, args.seed):
                    t0 = time.perf_counter()
                    found = collisions.check(view, names[:players], lang)
                    spent += time.perf_counter() - t0
                    seen += 1
                    if found:
                        bad += 1
                        kinds.update({re.sub(r"[\d(), ]+", " ", p).strip() for p in found})
            total_bad += bad
            worst = kinds.most_common(1)[0][0] if kinds else "-"
            print(f"{gid:12} {players:5} {seen:9} {bad:7} {100 * bad / seen:6.2f} "
                  f"{1000 * spent / seen:9.2f}  {worst}", flush=True)
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
