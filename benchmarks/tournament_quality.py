"""Tournament quality: do the final standings of a Swiss event order players by strength?

    .venv/bin/python benchmarks/tournament_quality.py [--game ID ...] [--tournaments T]
        [--hard-tournaments H] [--rounds R] [--per-level N] [--levels L,L,...]
        [--hard-iterations K] [--seed S] [--jobs J] [--quick]

Many simulated tournaments of the pure engine (``bot.tournaments``: Swiss seating, standings,
duplicate matchpoints) between computer players of known strength, ``N`` of each level
(random < easy < normal < hard, so 4 of each is 16 entrants), at the game's usual table size,
whole matches at every table, in-process (no Discord, no database). The entrants' seeding
order (the last tie-break, and the first round's order) is shuffled per tournament, so it says
nothing about strength.

For each game and format it prints Kendall's tau-b between the final standing and the true
strength order (1: every stronger level above every weaker one; 0: no better than a draw of
lots; ties within a level count for nothing), the mean over the tournaments with its 95%
bootstrap interval, the share of tournaments whose top N are all of the strongest level, and
each level's mean final rank (so an inverted pair of levels shows). Formats: ``swiss`` (each
table its own deals, points by place) and ``duplicate`` (every table of a round the same
deals, matchpoints seat by seat), the latter only for games whose every deal is shared
(:func:`bot.tournaments.shared_deals`); for the others a line says why it was not run. Where
both ran, ``dup-swiss`` is the paired difference over the same event seeds and seedings.

The hard level is a search: at its product budget (1 s a move) one event of Finesse would
take about half an hour, so here it plays an exact iteration budget (``--hard-iterations``,
100 by default: about 0.02 s a move, under the product's 0.05 s floor) and the events with a
hard player are fewer (``--hard-tournaments``); both are printed with the figures.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from bot.tournaments import (
    DuplicateTable,
    TableResult,
    deal_seed,
    matchpoints,
    seat_keys,
    shared_deals,
    standings,
    swiss_round,
)
from games.ai import LEVELS, Player, get_player, observe
from games.ai.search import SearchPlayer

#: the level that fills a seat no entrant holds (a bye), as the product's runner does
FILLER = "normal"


@dataclass(frozen=True)
class Setting:
    """One tournament to play: the game, the format and everything that decides it."""

    game: str
    duplicate: bool
    levels: tuple[str, ...]
    per_level: int
    rounds: int
    seed: int
    hard_iterations: int


@dataclass(frozen=True)
class Result:
    """One tournament's verdict: tau-b, whether the top ``per_level`` were all of the
    strongest level, each entrant's level by final rank, and its time."""

    tau: float
    top_right: bool
    levels_by_rank: tuple[int, ...]
    seconds: float


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Kendall's tau-b of two equally long sequences (ties in either count for nothing and
    shrink the denominator); 0 when either is constant."""
    if len(x) != len(y):
        raise ValueError(f"{len(x)} values against {len(y)}")
    concordant = discordant = tied_x = tied_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            tied_x += 1
        elif dy == 0:
            tied_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    scale = ((concordant + discordant + tied_x) * (concordant + discordant + tied_y)) ** 0.5
    return 0.0 if scale == 0 else (concordant - discordant) / scale


def bootstrap95(values: Sequence[float], seed: int = 0,
                resamples: int = 2000) -> tuple[float, float]:
    """The mean's 95% percentile bootstrap interval (a fixed seed: the same figures each
    run); both ends the value itself for a single value."""
    if not values:
        raise ValueError("no values")
    rng = random.Random(seed)
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def make_player(level: str, game: str, hard_iterations: int) -> Player:
    """A computer player of that level; the hard one on an exact iteration budget."""
    player = get_player(level, game)
    if isinstance(player, SearchPlayer):
        player.iterations = hard_iterations
    return player


def play_match(game: str, seats: Sequence[str], seed: int, rng: random.Random,
               hard_iterations: int) -> tuple[tuple[int, ...], tuple[float, ...], int]:
    """One whole match at default options: places, scores and the score's direction."""
    rules = games.get(game)
    state = rules.new_game(len(seats), seed=seed)
    players = [make_player(level, game, hard_iterations) for level in seats]
    while not state.over:
        seat = state.to_act[0] if len(state.to_act) == 1 else rng.choice(state.to_act)
        state.apply(seat, players[seat].choose(observe(state, seat), rng))
    outcome = state.outcome
    assert outcome is not None
    return outcome.places, outcome.scores, state.score_direction()


def _whole_seed(*parts: object) -> int:
    return random.Random("/".join(map(str, parts))).getrandbits(63)


def play_tournament(setting: Setting) -> Result:
    """A Swiss event of ``setting.rounds`` rounds, every seat's match played out."""
    started = time.perf_counter()
    game = setting.game
    size = games.get(game).usual_players
    level_of = {i: i // setting.per_level for i in range(setting.per_level * len(setting.levels))}
    entrants = list(level_of)
    # the seeding says nothing about strength: shuffled per event
    random.Random(f"seeding/{setting.seed}").shuffle(entrants)
    past: list[tuple[TableResult, ...]] = []
    gains: list[Mapping[int, float]] = []
    for number in range(1, setting.rounds + 1):
        tables = swiss_round(entrants, entrants, past, size=size, seed=setting.seed,
                             rounds_total=setting.rounds,
                             gains=gains if setting.duplicate else None)
        results: list[TableResult] = []
        duplicates: list[DuplicateTable] = []
        for table in tables:
            deals = (deal_seed(setting.seed, number, size) if setting.duplicate
                     else _whole_seed("deals", setting.seed, number, table.number))
            places, scores, direction = play_match(
                game, [FILLER if p is None else setting.levels[level_of[p]]
                       for p in table.seats],
                deals, random.Random(f"play/{setting.seed}/{number}/{table.number}"),
                setting.hard_iterations)
            results.append(TableResult(table, places))
            duplicates.append(DuplicateTable(table, deals, seat_keys(places, scores,
                                                                     direction)))
        past.append(tuple(results))
        if setting.duplicate:
            gains.append(matchpoints(duplicates))
    rows = standings(entrants, past, gains=gains if setting.duplicate else None)
    ranked = [level_of[row.player] for row in rows]
    strongest = len(setting.levels) - 1
    # tau-b between the strength (higher better) and the standing (earlier better)
    tau = kendall_tau_b([float(level) for level in ranked],
                        [float(-rank) for rank in range(len(ranked))])
    top = all(level == strongest for level in ranked[:setting.per_level])
    return Result(tau, top, tuple(ranked), time.perf_counter() - started)


def check_levels(text: str) -> tuple[str, ...]:
    """The levels named, weakest first; a clear exit for an unknown one, a repeat or fewer
    than two (a single level has no order to find)."""
    levels = tuple(x.strip() for x in text.split(",") if x.strip())
    for level in levels:
        if level not in LEVELS:
            raise SystemExit(f"unknown level '{level}'; the levels are: {', '.join(LEVELS)}")
    if len(set(levels)) != len(levels) or len(levels) < 2:
        raise SystemExit("--levels takes two or more different levels, weakest first")
    if list(levels) != sorted(levels, key=LEVELS.index):
        raise SystemExit(f"--levels goes weakest first: {', '.join(LEVELS)}")
    return levels


def settings_for(game: str, duplicate: bool, args: argparse.Namespace,
                 levels: tuple[str, ...]) -> list[Setting]:
    """The tournaments of one game and format: seeds ``args.seed``, ``args.seed + 1`` …,
    the same in both formats (so their difference can be paired)."""
    count = args.hard_tournaments if "hard" in levels else args.tournaments
    return [Setting(game, duplicate, levels, args.per_level, args.rounds, args.seed + i,
                    args.hard_iterations) for i in range(count)]


def line(game: str, form: str, levels: Sequence[str], results: Sequence[Result]) -> str:
    """One line of figures: tournaments, tau-b with its interval, top-right share, mean rank
    per level (weakest first) and seconds per tournament."""
    taus = [r.tau for r in results]
    low, high = bootstrap95(taus)
    share = statistics.fmean(1.0 if r.top_right else 0.0 for r in results)
    ranks = []
    for level in range(len(levels)):
        at = [rank for r in results for rank, lv in enumerate(r.levels_by_rank, start=1)
              if lv == level]
        ranks.append(f"{statistics.fmean(at):5.1f}")
    seconds = statistics.fmean(r.seconds for r in results)
    return (f"{game:12} {form:9} {len(results):4d} {statistics.fmean(taus):6.3f} "
            f"{f'[{low:.3f},{high:.3f}]':16} {share:5.2f}  {' '.join(ranks)} {seconds:7.1f}")


def paired(game: str, plain: Sequence[Result], dup: Sequence[Result]) -> str:
    """Duplicate minus Swiss, event by event over the same seeds and seedings."""
    diffs = [d.tau - p.tau for p, d in zip(plain, dup, strict=True)]
    low, high = bootstrap95(diffs)
    return (f"{game:12} {'dup-swiss':9} {len(diffs):4d} {statistics.fmean(diffs):+6.3f} "
            f"[{low:+.3f},{high:+.3f}]")


def main(argv: Sequence[str] | None = None) -> int:
    """Play the tournaments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (default: every game)")
    parser.add_argument("--tournaments", type=int, default=100,
                        help="tournaments per game and format without a hard player")
    parser.add_argument("--hard-tournaments", type=int, default=20,
                        help="tournaments per game and format when a hard player is in")
    parser.add_argument("--rounds", type=int, default=4, help="Swiss rounds per tournament")
    parser.add_argument("--per-level", type=int, default=4, help="entrants of each level")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help="the levels entered, weakest first (default: all four)")
    parser.add_argument("--hard-iterations", type=int, default=100,
                        help="the hard level's exact search iterations a move")
    parser.add_argument("--seed", type=int, default=1, help="the first tournament's seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (1: in-process)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 4 tournaments (2 with hard), 3 rounds, 2 per level")
    args = parser.parse_args(argv)
    if args.quick:
        args.tournaments, args.hard_tournaments, args.rounds, args.per_level = 4, 2, 3, 2
    for name in ("tournaments", "hard_tournaments", "rounds", "per_level", "hard_iterations",
                 "jobs"):
        if getattr(args, name) < 1:
            raise SystemExit(f"--{name.replace('_', '-')} takes a positive number")
    levels = check_levels(args.levels)
    chosen = args.game or games.ids()
    for gid in chosen:
        if gid not in games.ids():
            raise SystemExit(f"unknown game '{gid}'; the games are: {', '.join(games.ids())}")
    entrants = args.per_level * len(levels)
    count = args.hard_tournaments if "hard" in levels else args.tournaments
    print(f"levels {', '.join(levels)} (weakest first), {args.per_level} of each = {entrants} "
          f"entrants, {args.rounds} Swiss rounds at each game's usual table size, seats over "
          f"filled by '{FILLER}'; {count} tournaments per game and format from seed "
          f"{args.seed}"
          + (f"; hard at {args.hard_iterations} iterations a move"
             f" (--hard-tournaments {args.hard_tournaments})" if "hard" in levels else ""))
    print("tau-b: Kendall's tau-b of final standing against strength, mean [95% bootstrap]; "
          f"top: share of events whose top {args.per_level} are all '{levels[-1]}'; "
          "rank: mean final rank per level, weakest first; s: seconds per tournament")
    print(f"{'game':12} {'format':9} {'n':>4} {'tau-b':>6} {'[95% interval]':16} {'top':>5}  "
          + " ".join(f"{level[:5]:>5}" for level in levels) + f" {'s':>7}")
    plan: list[tuple[str, str, list[Setting]]] = []
    for gid in chosen:
        plan.append((gid, "swiss", settings_for(gid, False, args, levels)))
        if shared_deals(gid) is None:
            plan.append((gid, "duplicate", settings_for(gid, True, args, levels)))
        else:
            plan.append((gid, "duplicate", []))
    flat = [s for _, _, group in plan for s in group]
    if args.jobs == 1:
        found = [play_tournament(s) for s in flat]
    else:
        with ProcessPoolExecutor(args.jobs) as pool:
            found = list(pool.map(play_tournament, flat, chunksize=1))
    by_setting = dict(zip(flat, found, strict=True))
    for gid, form, group in plan:
        if not group:
            print(f"{gid:12} {form:9} not run: only the first deal of a seed is the same at "
                  "every table (bot.tournaments.shared_deals)")
            continue
        results = [by_setting[s] for s in group]
        print(line(gid, form, levels, results), flush=True)
        if form == "duplicate":
            plain = [by_setting[s] for g, f, grp in plan if g == gid and f == "swiss"
                     for s in grp]
            print(paired(gid, plain, results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
