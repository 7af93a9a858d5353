"""Computer player strength and speed: one ``hard`` player against ``basic`` ones (and, in
partnership games, a ``hard`` pair against a ``basic`` pair), per game at its usual count.

    .venv/bin/python benchmarks/ai.py [--game ID] [-n GAMES] [--budget S] [--iterations K]
                                     [--unit deal|match] [--jobs J] [--first I]
                                     [--set NAME=VALUE] [--option NAME=VALUE]
                                     [--solo-only | --pair-only] [--level LEVEL]
                                     [--budgets S[:N],... [--per-second R]]

For each game it prints the hard side's win share with a 95% interval (normal approximation),
its fair share, the hard moves' time p50/p99 (moves with one legal action are not searched and
not counted), the search's playouts per second and, when every game played ended its match
(``--unit match``, or ``--option games=1`` in 1234), the hard side's mean place (1 is first; a
side's place is its best seat's).

``--unit deal`` (the default) scores single deals from a new game: the deal is won by the seats
with the best result of that deal (the places if the match ended, else the best score change),
ties sharing the win. ``--unit match`` plays whole matches (places 1 win). The hard seat (or
pair) rotates over the seats so no seat's advantage counts. ``--option`` sets a game option for
every game played (``--option games=1``: 1234 as a single game), the rest keep their defaults.
``--level easy`` (or ``normal``) seats that level where the hard player (or pair) would sit, to
check that the levels players choose between are ordered; such a line has no verdict (the
targets are the hard level's).

``--budgets 0.05,0.1,0.25,1`` measures the price of a shorter search: the same games (from
``--first``) at each budget in turn, one line per budget, with the share's difference from the
line before (the next shorter budget) paired game by game over the games both played, so the
deal's luck cancels. ``S:N`` plays N games at that budget instead of ``-n`` (cheap budgets can
have more). ``--per-second R`` (one game) plays ``round(R × S)`` iterations instead of the
clock, so that a busy machine measures the player rather than the load; R is read from the
``play/cpu-s`` column of a timed run (playouts per second of the process's own CPU time,
which the machine's other work does not lower).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import games
from games.ai import Player, get_player, observe
from games.ai.search import SearchPlayer, deal_rewards
from games.core import State

Options = tuple[tuple[str, str], ...]


def teams_of(gid: str, players: int, options: Options) -> list[list[int]] | None:
    """The game's partnerships under the options played (Sugekari's depend on its mode)."""
    rules = games.get(gid)
    return rules.teams(players, rules.validate_options(players, dict(options)))


def hard_seats(gid: str, players: int, index: int, pair: bool, options: Options) -> list[int]:
    """The seats the hard side holds in game ``index``."""
    if pair:
        teams = teams_of(gid, players, options) or [[0]]
        return list(teams[index % len(teams)])
    return [index % players]


Job = tuple[str, int, int, bool, float, int | None, str, tuple[tuple[str, float], ...], Options,
            str]


def play_one(job: Job) -> dict[str, Any]:
    """Play one deal or match; the hard side's win credit, move times and iterations."""
    gid, players, index, pair, budget, iterations, unit, settings, options, level = job
    rules = games.get(gid)
    state = rules.new_game(players, seed=10_000 + index, options=dict(options))
    hard = set(hard_seats(gid, players, index, pair, options))
    basic = get_player("normal", gid)
    seats: dict[int, Player] = {}
    for s in range(players):
        if s not in hard:
            seats[s] = basic
        elif level == "hard":
            seats[s] = hard_player(gid, budget, iterations, settings)
        else:  # another level in the measured seat, e.g. to see that easy is weaker
            seats[s] = get_player(level, gid)
    rng = random.Random(index)
    start = state.scores()
    times: list[float] = []
    cpu = 0.0
    playouts = 0
    while not state.over and (unit == "match" or state.deal_number == 1):
        to_act = state.to_act
        seat = to_act[0] if len(to_act) == 1 else rng.choice(to_act)
        obs = observe(state, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        action = seats[seat].choose(obs, rng)
        spent = time.perf_counter() - t0
        player = seats[seat]
        if seat in hard and isinstance(player, SearchPlayer) and len(obs.legal) > 1:
            times.append(spent)
            cpu += time.process_time() - c0
            playouts += player.last_iterations
        state.apply(seat, action)
    if unit == "match" and state.outcome is not None:
        winners = set(state.outcome.winners)
    else:
        winners = deal_winners(state, start)
    # the hard side's share of the win: a partnership counts once, ties share
    teams = teams_of(gid, players, options)
    sides = [frozenset(t) for t in teams] if teams else [frozenset([s]) for s in range(players)]
    winning = [side for side in sides if side & winners]
    mine = next(side for side in sides if side & hard)
    credit = (1.0 / len(winning)) if mine in winning else 0.0
    # the hard side's place, when the game played ended the match (a side's best seat's place)
    place = None if state.outcome is None else min(state.outcome.places[s] for s in hard)
    return {"credit": credit, "times": times, "cpu": cpu, "playouts": playouts, "place": place}


def deal_winners(state: State, start: list[float]) -> set[int]:
    """The seats with the deal's best result (ties all win): the places if the match ended,
    else the best score change since ``start``."""
    rewards = deal_rewards(state, start)
    top = max(rewards)
    return {s for s in range(state.players) if rewards[s] == top}


def hard_player(gid: str, budget: float, iterations: int | None,
                settings: tuple[tuple[str, float], ...] = ()) -> Player:
    """The hard level with this budget (and search settings changed, for comparisons)."""
    player = get_player("hard", gid)
    assert isinstance(player, SearchPlayer)
    player.budget = budget
    player.iterations = iterations
    for name, value in settings:
        if not hasattr(player, name):
            raise SystemExit(f"the search player has no setting '{name}'")
        setattr(player, name, value)
    return player


def spread95(values: list[float]) -> float:
    """Half the width of the mean's 95% interval (normal approximation)."""
    n = len(values)
    return 1.96 * math.sqrt(statistics.pvariance(values) / n) if n > 1 else 1.0


def parse_budgets(text: str, n: int) -> list[tuple[float, int]]:
    """``S[:N],...`` as (seconds, games) pairs, shortest budget first; a clear exit for a bad
    one."""
    budgets = []
    for item in text.split(","):
        seconds, sep, count = item.strip().partition(":")
        try:
            budget = (float(seconds), int(count) if sep else n)
        except ValueError:
            raise SystemExit(f"--budgets takes seconds[:games],..., not '{item}'") from None
        if budget[0] <= 0 or budget[1] <= 0:
            raise SystemExit(f"--budgets takes positive seconds and games, not '{item}'")
        budgets.append(budget)
    return sorted(budgets)


def budget_line(gid: str, pair: bool, budget: float, iterations: int | None,
                results: list[dict[str, Any]],
                before: list[dict[str, Any]] | None) -> str:
    """One line of ``--budgets``: the share at this budget and its paired difference from the
    shorter budget's ``before`` over the games both played (the same games from the start)."""
    credits = [r["credit"] for r in results]
    share = statistics.fmean(credits)
    if before is None:
        change = f"{'-':>7} {'':7} {'':5}"
    else:
        common = min(len(before), len(results))
        diffs = [results[i]["credit"] - before[i]["credit"] for i in range(common)]
        change = f"{statistics.fmean(diffs):+7.3f} ±{spread95(diffs):5.3f} {common:5d}"
    times = sorted(t for r in results for t in r["times"])
    p50 = statistics.median(times) if times else 0.0
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0
    cpu_rate = sum(r["playouts"] for r in results) / max(sum(r["cpu"] for r in results), 1e-9)
    side = "hard pair" if pair else "one hard"
    count = "-" if iterations is None else str(iterations)
    return (f"{gid:12} {side:9} {budget:6.3g} {count:>6} {len(credits):5d} {share:6.3f} "
            f"±{spread95(credits):5.3f} {change} {p50 * 1000:7.0f} {p99 * 1000:7.0f} "
            f"{cpu_rate:8.0f}")


def report(gid: str, players: int, pair: bool, options: Options,
           results: list[dict[str, Any]], level: str = "hard") -> str:
    """One line of figures."""
    credits = [r["credit"] for r in results]
    n = len(credits)
    share = statistics.fmean(credits)
    spread = spread95(credits)
    times = sorted(t for r in results for t in r["times"])
    p50 = statistics.median(times) if times else 0.0
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0
    rate = sum(r["playouts"] for r in results) / max(sum(times), 1e-9)
    teams = teams_of(gid, players, options)
    if pair:
        fair = 0.5
        target = 0.60
    elif teams:
        fair = 1.0 / len(teams)
        target = 1.5 * fair
    else:
        fair = 1.0 / players
        target = 0.65 if players == 2 else 1.5 * fair
    # the targets are the hard level's; another level's line has no verdict
    verdict = ("met" if share >= target else "not met") if level == "hard" else "-"
    side = f"{level} pair" if pair else f"one {level}"
    places = [r["place"] for r in results if r["place"] is not None]
    place = f"{statistics.fmean(places):5.3f}" if len(places) == n else "    -"
    return (f"{gid:12} {side:11} {players:2d}p {n:5d} {share:6.3f} ±{spread:5.3f} "
            f"{fair:5.3f} {target:5.3f} {verdict:7} {p50 * 1000:7.0f} {p99 * 1000:7.0f} "
            f"{rate:8.0f} {place}")


def named(items: list[str], flag: str) -> Options:
    """``NAME=VALUE`` items as pairs; a clear exit for one without a name or an ``=``."""
    pairs = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise SystemExit(f"{flag} takes NAME=VALUE, not '{item}'")
        pairs.append((name, value))
    return tuple(pairs)


def known(ids: list[str]) -> list[str]:
    """The game ids asked for, each checked: a clear exit naming one the registry lacks."""
    for gid in ids:
        try:
            games.get(gid)
        except KeyError:
            raise SystemExit(f"unknown game '{gid}'; the games are: "
                             + ", ".join(games.ids())) from None
    return ids


def sides(args: argparse.Namespace, gid: str, players: int, options: Options) -> list[bool]:
    """The lines to play for a game: one hard seat (False) and, in partnership games, a hard
    pair (True), as ``--solo-only``/``--pair-only`` allow; a clear exit for refused options."""
    try:
        teams = teams_of(gid, players, options)
    except ValueError as error:
        raise SystemExit(f"{gid}: {error}") from None
    modes = [] if args.pair_only else [False]
    if teams and not args.solo_only:
        modes.append(True)
    return modes


def main() -> int:
    """Print the table of figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game id (default: every game)")
    parser.add_argument("-n", type=int, default=100, help="games (deals or matches) per line")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per hard move")
    parser.add_argument("--iterations", type=int, default=None,
                        help="fixed iterations per hard move instead of the time budget")
    parser.add_argument("--unit", choices=("deal", "match"), default="deal")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--solo-only", action="store_true", help="skip the hard-pair lines")
    parser.add_argument("--pair-only", action="store_true", help="skip the one-hard lines")
    parser.add_argument("--first", type=int, default=0, help="index of the first game played")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="change a search setting, e.g. exploration=0.5 or confidence=0")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set a game option for every game played, e.g. games=1")
    parser.add_argument("--level", choices=("easy", "normal", "hard"), default="hard",
                        help="the level of the measured seat (or pair) against basic ones")
    parser.add_argument("--budgets", metavar="S[:N],...",
                        help="the same games at each budget (N games at S seconds; -n if "
                             "no N), with the paired difference from the next shorter one")
    parser.add_argument("--per-second", type=float, default=None, metavar="R",
                        help="with one --game: play round(R x budget) iterations, not the clock")
    args = parser.parse_args()
    if args.set and args.level != "hard":
        raise SystemExit("--set changes the search, which only the hard level uses")
    try:
        settings = tuple((k, float(v)) for k, v in named(args.set, "--set"))
    except ValueError:
        raise SystemExit("--set takes a number: NAME=VALUE, e.g. --set confidence=0") from None
    options = named(args.option, "--option")
    chosen = known(args.game or games.ids())
    if args.per_second is not None:
        if args.iterations is not None:
            raise SystemExit("--per-second sets the iterations; give it or --iterations")
        if len(chosen) != 1 or args.per_second <= 0:
            raise SystemExit("--per-second takes a positive rate and a single --game "
                             "(each game searches at its own rate)")
    if args.budgets is not None:
        if args.level != "hard":
            raise SystemExit("--budgets measures the search, which only the hard level uses")
        return by_budget(args, chosen, parse_budgets(args.budgets, args.n), settings, options)
    if args.per_second is not None:
        args.iterations = round(args.per_second * args.budget)
    print(f"unit={args.unit} budget={args.budget}s iterations={args.iterations} n={args.n} "
          f"first={args.first} settings={dict(settings)} options={dict(options)} "
          f"level={args.level}")
    print(f"{'game':12} {'side':11} {'pl':>3} {'games':>5} {'share':>6} {'95%':>6} "
          f"{'fair':>5} {'target':>5} {'verdict':7} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'play/s':>8} {'place':>5}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for gid in chosen:
            players = games.get(gid).usual_players
            for pair in sides(args, gid, players, options):
                jobs: list[Job] = [(gid, players, i, pair, args.budget, args.iterations,
                                    args.unit, settings, options, args.level)
                                   for i in range(args.first, args.first + args.n)]
                results = list(pool.map(play_one, jobs))
                print(report(gid, players, pair, options, results, args.level), flush=True)
    return 0


def by_budget(args: argparse.Namespace, chosen: list[str], budgets: list[tuple[float, int]],
              settings: tuple[tuple[str, float], ...], options: Options) -> int:
    """Print the ``--budgets`` table: each game (and side) at each budget on the same games."""
    print(f"unit={args.unit} budgets={args.budgets} per_second={args.per_second} "
          f"first={args.first} settings={dict(settings)} options={dict(options)}")
    print(f"{'game':12} {'side':9} {'budget':>6} {'iters':>6} {'games':>5} {'share':>6} "
          f"{'95%':>6} {'change':>7} {'95%':>6} {'over':>5} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'play/cpu-s':>8}")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for gid in chosen:
            players = games.get(gid).usual_players
            for pair in sides(args, gid, players, options):
                before = None
                for budget, n in budgets:
                    iterations = (None if args.per_second is None
                                  else max(1, round(args.per_second * budget)))
                    jobs: list[Job] = [(gid, players, i, pair, budget, iterations, args.unit,
                                        settings, options, "hard")
                                       for i in range(args.first, args.first + n)]
                    results = list(pool.map(play_one, jobs))
                    print(budget_line(gid, pair, budget, iterations, results, before),
                          flush=True)
                    before = results
    return 0


if __name__ == "__main__":
    sys.exit(main())
