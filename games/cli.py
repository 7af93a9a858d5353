"""The terminal front end of the rules package (``python -m games``).

The CLI does its own I/O; the rules it drives stay pure. A person playing sees only their own
view, exactly as the bot shows it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from games import ai
from games.core import Action, Event, IllegalAction, State
from games.registry import get, ids


def _options(pairs: Sequence[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"write options as name=value, not '{pair}'")
        found[name.strip()] = value.strip()
    return found


def cmd_list(out: TextIO) -> int:
    """Print every game with its id and player counts."""
    for gid in ids():
        rules = get(gid)
        out.write(f"{gid:12} {rules.name:20} {rules.min_players}-{rules.max_players} players\n")
    return 0


def cmd_rules(game: str, lang: str, out: TextIO) -> int:
    """Print a game's rules summary and its options."""
    rules = get(game)
    out.write((rules.summary_ja if lang == "ja" else rules.summary_en).rstrip() + "\n\n")
    if rules.options:
        out.write("オプション:\n" if lang == "ja" else "Options:\n")
    for opt in rules.options:
        allowed = ""
        if opt.choices:
            allowed = " (" + " | ".join(opt.choices) + ")"
        elif opt.kind == "int" and opt.minimum is not None:
            allowed = f" ({opt.minimum}-{opt.maximum if opt.maximum is not None else '…'})"
        elif opt.kind == "seat":
            allowed = " (seat number from 0, or random)"
        default = "random" if opt.default is None else opt.default
        text = opt.help_ja if lang == "ja" else opt.help_en
        out.write(f"  {opt.name}={default}{allowed}: {text}\n")
    return 0


def simulate(
    game: str, games_count: int, players: int, options: dict[str, str], levels: Sequence[str],
    seed: int,
) -> dict[str, object]:
    """Play ``games_count`` matches between computer players and gather figures.

    A seat's win share counts every match it was among the winners of: partners share a win,
    and so do tied players.
    """
    rules = get(game)
    rules.validate_options(players, options)
    seats = [ai.get_player(levels[i % len(levels)], game) for i in range(players)]
    wins = [0.0] * players
    actions: list[int] = []
    per_action: list[float] = []
    for g in range(games_count):
        state = rules.new_game(players, seed=seed + g, options=options)
        rng = random.Random(seed * 7919 + g)
        count = 0
        started = time.perf_counter()
        while not state.over:
            seat = state.to_act[0] if len(state.to_act) == 1 else rng.choice(state.to_act)
            action = seats[seat].choose(ai.observe(state, seat), rng)
            state.apply(seat, action)
            count += 1
        elapsed = time.perf_counter() - started
        outcome = state.outcome
        assert outcome is not None
        for w in outcome.winners:
            wins[w] += 1
        actions.append(count)
        per_action.append(elapsed / max(count, 1))
    return {
        "win_share": [w / games_count for w in wins],
        "mean_actions": statistics.fmean(actions),
        "us_per_action": statistics.median(per_action) * 1e6,
    }


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Print win shares, mean actions and time per action between computer players."""
    rules = get(args.game)
    players = args.players or rules.usual_players
    levels = args.levels.split(",")
    result = simulate(args.game, args.n, players, _options(args.option), levels, args.seed)
    shares = result["win_share"]
    assert isinstance(shares, list)
    out.write(f"{rules.name}: {args.n} games, {players} players, levels {levels}\n")
    for seat, share in enumerate(shares):
        out.write(f"  seat {seat} ({levels[seat % len(levels)]}): win share {share:.1%}\n")
    out.write(f"  mean actions per game: {result['mean_actions']:.1f}\n")
    out.write(f"  median time per action (computer players included): "
              f"{result['us_per_action']:.1f} µs\n")
    return 0


def play(
    game: str, players: int, options: dict[str, str], seat: int, level: str, seed: int,
    read: Callable[[str], str], out: TextIO, lang: str = "en",
) -> int:
    """A person plays ``seat`` in the terminal; computer players take the other seats."""
    rules = get(game)
    state: State = rules.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    bots = {s: ai.get_player(level, game) for s in range(players) if s != seat}
    shown = ""
    while not state.over:
        mine = state.legal_actions(seat)
        waiting_on_me = seat in state.to_act
        if not waiting_on_me or not mine:
            mover = rng.choice([s for s in state.to_act if s != seat] or list(state.to_act))
            action = bots[mover].choose(ai.observe(state, mover), rng)
            _report(state, mover, state.apply(mover, action), seat, out, lang)
            continue
        text = rules.view_text(state.view(seat), lang)
        if text != shown:
            out.write("\n" + text + "\n")
            shown = text
        out.write("Your moves:\n")
        for i, action in enumerate(mine, 1):
            out.write(f"  {i:3}. {rules.action_text(action, lang)}   [{action}]\n")
        answer = read("Choose a number or type a move (q to quit): ").strip()
        if answer.lower() in ("q", "quit", "exit"):
            out.write("Bye.\n")
            return 0
        try:
            if answer.isdigit():
                index = int(answer) - 1
                if not 0 <= index < len(mine):
                    raise IllegalAction(f"Choose a number from 1 to {len(mine)}.")
                chosen = mine[index]
            else:
                chosen = Action.parse(answer)
            _report(state, seat, state.apply(seat, chosen), seat, out, lang)
        except IllegalAction as refused:
            out.write(f"Not allowed: {refused}\n")
    out.write("\n" + rules.view_text(state.view(seat), lang) + "\n")
    outcome = state.outcome
    assert outcome is not None
    out.write("You win!\n" if seat in outcome.winners else
              f"Game over. Your place: {outcome.places[seat]}.\n")
    return 0


def _report(state: State, mover: int, events: list[Event], seat: int, out: TextIO,
            lang: str) -> None:
    for event in events:
        line = state.rules.event_text(event.for_seat(seat), lang)
        if line:
            out.write(f"  · {line}\n")


def _input(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "q"


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         read: Callable[[str], str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    stream = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m games", description="Deckhand's card games")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="list the games")
    p_rules = sub.add_parser("rules", help="print a game's rules summary")
    p_rules.add_argument("game")
    p_rules.add_argument("--lang", choices=("en", "ja"), default="en")
    p_sim = sub.add_parser("simulate", help="play games between computer players")
    p_sim.add_argument("game")
    p_sim.add_argument("-n", type=int, default=100, help="number of games")
    p_sim.add_argument("--players", type=int, default=0, help="seats (default: the usual count)")
    p_sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p_sim.add_argument("--levels", default="normal",
                       help="comma-separated levels per seat, repeated (random, easy, normal)")
    p_sim.add_argument("--seed", type=int, default=1)
    p_play = sub.add_parser("play", help="play a game in the terminal against the computer")
    p_play.add_argument("game")
    p_play.add_argument("--players", type=int, default=0)
    p_play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p_play.add_argument("--seat", type=int, default=0)
    p_play.add_argument("--level", default="normal")
    p_play.add_argument("--seed", type=int, default=None)
    p_play.add_argument("--lang", choices=("en", "ja"), default="en")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            return cmd_list(stream)
        if args.command == "rules":
            return cmd_rules(args.game, args.lang, stream)
        if args.command == "simulate":
            return cmd_simulate(args, stream)
        rules = get(args.game)
        players = args.players or rules.usual_players
        if not 0 <= args.seat < players:
            raise ValueError(f"--seat must be from 0 to {players - 1}")
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        return play(args.game, players, _options(args.option), args.seat, args.level, seed,
                    read or _input, stream, args.lang)
    except KeyError as unknown:
        stream.write(f"Unknown game {unknown}. Games: {', '.join(ids())}\n")
        return 2
    except ValueError as bad:
        stream.write(f"{bad}\n")
        return 2
