"""The terminal front end of the rules package (``python -m games``).

The CLI does its own I/O; the rules it drives stay pure. A person playing sees only their own
view, exactly as the bot shows it, in English or Japanese: the games' own words come from their
``action_text``/``event_text``/``view_text``, the terminal's from :mod:`games.cli_text`. Seats
are counted from 1 wherever a person reads or types them (``--seat``, seat options); the engine
keeps counting from 0.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO

from games import ai
from games.cards import Card, pretty, show
from games.cli_text import LANGS, has, say
from games.core import Action, Event, IllegalAction, OptionError, Rules, State, View
from games.registry import get, ids


def _options(pairs: Sequence[str], lang: str = "en") -> dict[str, str]:
    found: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise _Refusal(say("option-form", lang, pair=pair))
        found[name.strip()] = value.strip()
    return found


#: the most digits a number typed at the terminal may have (Python's ``int`` refuses more
#: than 4,300, and no count, seat or seed needs more than this)
MOST_DIGITS = 18


def whole_number(text: str) -> int | None:
    """``text`` as a whole number (a minus allowed), or None: ASCII digits only (``str.isdigit``
    passes '²', which ``int`` refuses) and at most :data:`MOST_DIGITS` of them."""
    digits = text.strip().removeprefix("-")
    if digits.isascii() and digits.isdigit() and len(digits) <= MOST_DIGITS:
        return int(text.strip())
    return None


def line_number(text: str, count: int) -> int | None:
    """The line a person chose by typing its number (1 to ``count``), counted from 0; None
    when ``text`` is not such a number."""
    number = whole_number(text)
    return number - 1 if number is not None and 1 <= number <= count else None


def shown(text: str, most: int = 40) -> str:
    """What a person typed, as a refusal quotes it: a very long line is cut."""
    return text if len(text) <= most else text[:most - 1] + "…"


def whole_argument(text: str) -> int:
    """argparse's type for a whole-number argument: refused in argparse's own words (which the
    parser words in the reader's language), with a very long value cut, never a traceback."""
    number = whole_number(text)
    if number is None:
        raise argparse.ArgumentTypeError(f"invalid int value: '{shown(text)}'")
    return number


class _Refusal(Exception):
    """A command line the CLI cannot run; the message is a sentence in the reader's language."""


class _Quit(Exception):
    """The person asked to stop playing."""


def _name(rules: Rules, lang: str) -> str:
    return rules.title(lang)


def _players(rules: Rules, asked: int, lang: str) -> int:
    players = asked or rules.usual_players
    if players not in rules.player_counts():
        raise _Refusal(say("players-range", lang, game=_name(rules, lang),
                           counts=rules.players_text(lang), players=players))
    return players


def _engine_options(rules: Rules, players: int, given: dict[str, str],
                    lang: str) -> dict[str, str]:
    """The options as the engine takes them, each value checked and refused in the reader's
    language; a seat typed from 1 becomes the engine's seat, counted from 0."""
    known = {opt.name: opt for opt in rules.options}
    found: dict[str, str] = {}
    for name, value in given.items():
        opt = known.get(name)
        if opt is None:
            raise _Refusal(say("unknown-option", lang, name=name, game=_name(rules, lang),
                               known=", ".join(known) or "-"))
        if opt.kind == "seat" and value.lower() != "random":
            seat = line_number(value, players)
            if seat is None:
                raise _Refusal(say("seat-option", lang, name=name, players=players,
                                   value=shown(value)))
            value = str(seat)
        try:
            opt.coerce(value, players)
        except ValueError:
            key = {"bool": "bool-option", "int": "int-option"}.get(opt.kind, "choice-option")
            raise _Refusal(say(key, lang, name=name, value=shown(value), least=opt.minimum,
                               most=opt.maximum, choices=" | ".join(opt.choices))) from None
        found[name] = value
    try:
        rules.validate_options(players, found)
    except ValueError as bad:
        reason = bad.text(lang) if isinstance(bad, OptionError) else str(bad)
        raise _Refusal(say("bad-options", lang, reason=reason)) from None
    return found


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (a wide character takes two)."""
    return text + " " * max(width - _width(text), 1)


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def cmd_list(out: TextIO, lang: str = "en") -> int:
    """Print every game with its id and player counts."""
    names = {gid: _name(get(gid), lang) for gid in ids()}
    wide = max((_width(name) for name in names.values()), default=0) + 2
    for gid, name in names.items():
        out.write(say("list-line", lang, id=_pad(gid, 12), name=_pad(name, wide),
                      counts=get(gid).players_text(lang)) + "\n")
    return 0


def cmd_rules(game: str, lang: str, out: TextIO) -> int:
    """Print a game's rules summary and its options, each with its real default."""
    rules = get(game)
    out.write(rules.summary(lang).rstrip() + "\n\n")
    if rules.options:
        out.write(say("options", lang) + "\n")
    for opt in rules.options:
        allowed = ""
        if opt.choices:
            allowed = " | ".join(opt.choices)
        elif opt.kind == "bool":
            allowed = "true | false"
        elif opt.kind == "int" and opt.minimum is not None:
            allowed = f"{opt.minimum}-{opt.maximum if opt.maximum is not None else '…'}"
        elif opt.kind == "seat":
            allowed = say("option-seat", lang, most=rules.max_players)
        out.write(say("option-line", lang, name=opt.name, default=rules.default_text(opt, lang),
                      allowed=f" ({allowed})" if allowed else "",
                      help=rules.option_help(opt, lang)) + "\n")
    return 0


def simulate(
    game: str, games_count: int, players: int, options: dict[str, str], levels: Sequence[str],
    seed: int,
) -> dict[str, object]:
    """Play ``games_count`` matches between computer players and gather figures.

    A seat's win share counts every match it was among the winners of: partners share a win,
    and so do tied players.
    """
    if games_count < 1:
        raise ValueError(f"games_count must be at least 1, not {games_count}")
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


def cmd_simulate(args: argparse.Namespace, players: int, options: dict[str, str],
                 out: TextIO, lang: str = "en") -> int:
    """Print win shares, mean actions and time per action between computer players."""
    rules = get(args.game)
    if args.n < 1:
        raise _Refusal(say("sim-count", lang, n=args.n))
    levels = args.levels.split(",")
    if not set(levels) <= set(ai.LEVELS):
        raise _Refusal(say("bad-levels", lang, levels=", ".join(ai.LEVELS),
                           given=shown(args.levels)))
    result = simulate(args.game, args.n, players, options, levels, args.seed)
    shares = result["win_share"]
    assert isinstance(shares, list)
    named = [say(f"level-{level}", lang) for level in levels]
    out.write(say("sim-title", lang, game=_name(rules, lang), games=args.n, players=players,
                  levels=say("level-sep", lang).join(named)) + "\n")
    for seat, share in enumerate(shares):
        out.write(say("sim-seat", lang, seat=seat + 1, level=named[seat % len(levels)],
                      share=f"{share:.1%}") + "\n")
    out.write(say("sim-actions", lang, mean=f"{result['mean_actions']:.1f}") + "\n")
    out.write(say("sim-time", lang, us=f"{result['us_per_action']:.1f}") + "\n")
    return 0


# -- playing -----------------------------------------------------------------------------------
# A kind of move with more choices than this, each naming a number and a game ('45-S'), is chosen
# in two steps: the number first, then the game.
STEP_AT = 12


@dataclass(frozen=True)
class MenuLine:
    """One line of a menu: a move, or the way to a further choice among some moves."""

    label: str
    action: Action | None = None
    what: str = ""  # what the picked cards are for ('Exchange cards')
    pick: tuple[Action, ...] = ()  # choose the cards one at a time among these moves
    step: tuple[Action, ...] = ()  # choose among these moves in a second list
    first: str = ""  # what the moves of ``step`` share ('40', for bids of 40)


def menu(rules: Rules, legal: Sequence[Action], view: View, lang: str) -> list[MenuLine]:
    """The moves a person chooses from, grouped as the bot groups them: a kind whose moves
    take several cards becomes one entry where the cards are picked one at a time; a long list
    of number-and-game moves becomes one entry per number."""
    key = rules.hand_key(view)
    groups: dict[str, list[Action]] = {}
    for action in legal:
        groups.setdefault(action.kind, []).append(action)
    entries: list[MenuLine] = []
    for kind, actions in groups.items():
        if any(len(a.cards) > 1 for a in actions):
            entries += [MenuLine(rules.action_text(a, lang), a) for a in actions if not a.cards]
            label = say(f"kind-{kind}" if has(f"kind-{kind}") else "kind-other",
                        lang, kind=kind)
            entries.append(MenuLine(say("pick-cards", lang, what=label),
                                 what=label, pick=tuple(a for a in actions if a.cards)))
            continue
        firsts: dict[str, list[Action]] = {}
        for i, a in enumerate(actions):
            first, dash, _ = (a.arg or "").partition("-")
            firsts.setdefault(first if dash and first else f"\0{i}", []).append(a)
        if len(actions) > STEP_AT and len(firsts) < len(actions):
            step = "step-bid" if kind == "bid" else "step"
            for first, same in firsts.items():
                entries.append(MenuLine(rules.action_text(same[0], lang), same[0]) if len(same) == 1
                               else MenuLine(say(step, lang, first=first), step=tuple(same),
                                          first=first))
            continue
        ordered = sorted(actions, key=lambda a: [key(c) for c in a.cards])
        entries += [MenuLine(rules.action_text(a, lang), a) for a in ordered]
    return entries


def _ask(labels: Sequence[str], read: Callable[[str], str], out: TextIO, lang: str) -> int:
    """The index of the line the person chooses; :class:`_Quit` when they quit."""
    def list_them() -> None:
        for i, label in enumerate(labels, 1):
            out.write(f"  {i:3}. {label}\n")

    list_them()
    while True:
        answer = read(say("prompt", lang)).strip()
        if answer.lower() in ("q", "quit", "exit"):
            raise _Quit
        if answer == "?":
            list_them()
        elif (chosen := line_number(answer, len(labels))) is not None:
            return chosen
        else:
            out.write(say("bad-number", lang, count=len(labels)) + "\n")


def _pick(rules: Rules, what: str, moves: Sequence[Action], view: View,
          read: Callable[[str], str], out: TextIO, lang: str, can_go_back: bool) -> Action | None:
    """Cards chosen one at a time until they make one of ``moves``; None to go back."""
    key = rules.hand_key(view)
    chosen: Counter[Card] = Counter()
    while True:
        fits = [m for m in moves if not chosen - Counter(m.cards)]
        done = [m for m in fits if Counter(m.cards) == chosen]
        more = sorted({c for m in fits for c in m.cards if Counter(m.cards)[c] > chosen[c]},
                      key=key)
        if done and not more:
            return done[0]
        out.write(say("pick-title", lang, what=what) + "\n")
        picked = sorted(chosen.elements(), key=key)
        out.write((say("picked", lang, cards=show(picked, lang)) if picked
                   else say("picked-none", lang)) + "\n")
        labels = [pretty(c, lang) for c in more]
        labels += [say("done", lang, move=rules.action_text(
            m._replace(cards=tuple(sorted(m.cards, key=key))), lang)) for m in done]
        labels += [say("start-over", lang)] if picked else []
        labels += [say("back", lang)] if can_go_back else []
        index = _ask(labels, read, out, lang)
        if index < len(more):
            chosen[more[index]] += 1
        elif index < len(more) + len(done):
            return done[index - len(more)]
        elif picked and index == len(more) + len(done):
            chosen.clear()
        else:
            return None


def _choose(rules: Rules, legal: Sequence[Action], view: View, read: Callable[[str], str],
            out: TextIO, lang: str) -> Action:
    """The move a person makes, through the menu; :class:`_Quit` when they quit."""
    entries = menu(rules, legal, view, lang)
    # a single list to choose from opens at once, with nothing to go back to; a single move
    # is still shown and chosen, as the bot shows a single button
    alone = len(entries) == 1 and entries[0].action is None
    while True:
        if alone:
            entry = entries[0]
        else:
            out.write(say("your-moves", lang) + "\n")
            entry = entries[_ask([e.label for e in entries], read, out, lang)]
        if entry.action is not None:
            return entry.action
        if entry.pick:
            found = _pick(rules, entry.what, entry.pick, view, read, out, lang, not alone)
        else:
            title = "step-title-bid" if entry.step[0].kind == "bid" else "step-title"
            out.write(say(title, lang, first=entry.first) + "\n")
            labels = [rules.action_text(a, lang) for a in entry.step]
            labels += [] if alone else [say("back", lang)]
            index = _ask(labels, read, out, lang)
            found = entry.step[index] if index < len(entry.step) else None
        if found is not None:
            return found


def play(
    game: str, players: int, options: dict[str, str], seat: int, level: str, seed: int,
    read: Callable[[str], str], out: TextIO, lang: str = "en",
) -> int:
    """A person plays ``seat`` (counted from 0, as the engine counts) in the terminal; computer
    players take the other seats. Every sentence is in ``lang``."""
    rules = get(game)
    state: State = rules.new_game(players, seed=seed, options=options)
    rng = random.Random(seed)
    bots = {s: ai.get_player(level, game) for s in range(players) if s != seat}
    out.write(say("you-are", lang, seat=seat + 1, players=players,
                  level=say(f"level-{level}", lang)) + "\n")
    shown = ""
    try:
        while not state.over:
            mine = state.legal_actions(seat)
            if seat not in state.to_act or not mine:
                mover = rng.choice([s for s in state.to_act if s != seat] or list(state.to_act))
                action = bots[mover].choose(ai.observe(state, mover), rng)
                _report(state, state.apply(mover, action), seat, out, lang)
                continue
            view = state.view(seat)
            text = rules.view_text(view, lang)
            if text != shown:
                out.write("\n" + text + "\n")
                shown = text
            chosen = _choose(rules, mine, view, read, out, lang)
            try:
                _report(state, state.apply(seat, chosen), seat, out, lang)
            except IllegalAction as refused:
                out.write(say("illegal", lang, reason=refused.message) + "\n")
    except (_Quit, EOFError):
        out.write("\n" + say("bye", lang) + "\n")
        return 0
    out.write("\n" + rules.view_text(state.view(seat), lang) + "\n")
    outcome = state.outcome
    assert outcome is not None
    out.write((say("you-win", lang) if seat in outcome.winners else
               say("your-place", lang, place=outcome.places[seat], players=players)) + "\n")
    return 0


def _report(state: State, events: list[Event], seat: int, out: TextIO, lang: str) -> None:
    for event in events:
        line = state.rules.event_text(event.for_seat(seat), lang)
        if line:
            out.write(f"  · {line}\n")


def _reader(out: TextIO) -> Callable[[str], str]:
    """Lines typed by the person; when they come from a pipe, each is echoed so that the
    transcript reads as it would on a terminal."""
    echo = not sys.stdin.isatty()

    def read(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        if echo:
            out.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\n")

    return read


# argparse's refusals, read back into a sentence key of games.cli_text and its fields
_ARG_ERRORS = [(re.compile(pattern), key) for pattern, key in (
    (r"argument (?P<arg>\S+): invalid choice: '(?P<value>.*)' \(choose from (?P<choices>.*)\)$",
     "arg-choice"),
    (r"argument (?P<arg>\S+): invalid \w+ value: '(?P<value>.*)'$", "arg-value"),
    (r"argument (?P<arg>\S+): expected one argument$", "arg-one-value"),
    (r"the following arguments are required: (?P<args>.*)$", "arg-required"),
    (r"unrecognized arguments: (?P<args>.*)$", "arg-unknown"),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.*)$", "arg-ambiguous"),
)]


def _lang_asked(argv: Sequence[str]) -> str:
    """The ``--lang`` a command line asks for, read before argparse (its own refusals come
    before the parsed arguments exist)."""
    for i, word in enumerate(argv):
        value = word[len("--lang="):] if word.startswith("--lang=") else (
            argv[i + 1] if word == "--lang" and i + 1 < len(argv) else None)
        if value in LANGS:
            return value
    return "en"


def _parser_class(lang: str) -> type[argparse.ArgumentParser]:
    """argparse's parser, its refusals (usage and error) in ``lang``; its help stays English."""

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:
            if lang == "en":
                super().error(message)
            for pattern, key in _ARG_ERRORS:
                found = pattern.match(message)
                if found:
                    fields = found.groupdict()
                    if fields.get("arg") == "command":  # the subcommand's own name
                        fields["arg"] = say("arg-command", lang)
                    said = say(key, lang, **fields)
                    break
            else:
                said = say("arg-other", lang, message=message)
            usage = self.format_usage().removeprefix("usage: ")
            self.exit(2, say("usage", lang) + usage
                      + say("arg-error", lang, prog=self.prog, message=said) + "\n")

    return Parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         read: Callable[[str], str] | None = None) -> int:
    """Run the command line; returns the exit status (130 after Ctrl-C)."""
    stream = out or sys.stdout
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser_class(_lang_asked(argv))(prog="python -m games",
                                              description="Deckhand's card games")
    sub = parser.add_subparsers(dest="command", required=True)
    p_list = sub.add_parser("list", help="list the games")
    p_list.add_argument("--lang", choices=LANGS, default="en")
    p_rules = sub.add_parser("rules", help="print a game's rules summary")
    p_rules.add_argument("game")
    p_rules.add_argument("--lang", choices=LANGS, default="en")
    p_sim = sub.add_parser("simulate", help="play games between computer players")
    p_sim.add_argument("game")
    p_sim.add_argument("-n", type=whole_argument, default=100, help="number of games")
    p_sim.add_argument("--players", type=whole_argument, default=0,
                       help="seats (default: the usual count)")
    p_sim.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a game option; seats are counted from 1")
    p_sim.add_argument("--levels", default="normal",
                       help="comma-separated levels per seat, repeated (random, easy, normal)")
    p_sim.add_argument("--seed", type=whole_argument, default=1)
    p_sim.add_argument("--lang", choices=LANGS, default="en")
    p_play = sub.add_parser("play", help="play a game in the terminal against the computer")
    p_play.add_argument("game")
    p_play.add_argument("--players", type=whole_argument, default=0)
    p_play.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option; seats are counted from 1")
    p_play.add_argument("--seat", type=whole_argument, default=1, help="your seat, from 1")
    p_play.add_argument("--level", choices=ai.LEVELS, default="normal")
    p_play.add_argument("--seed", type=whole_argument, default=None)
    p_play.add_argument("--lang", choices=LANGS, default="en")
    args = parser.parse_args(argv)
    lang = getattr(args, "lang", "en")
    try:
        if args.command == "list":
            return cmd_list(stream, lang)
        if args.command == "rules":
            return cmd_rules(args.game, lang, stream)
        rules = get(args.game)
        players = _players(rules, args.players, lang)
        options = _engine_options(rules, players, _options(args.option, lang), lang)
        if args.command == "simulate":
            return cmd_simulate(args, players, options, stream, lang)
        if not 1 <= args.seat <= players:
            raise _Refusal(say("seat-range", lang, players=players, seat=args.seat))
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        return play(args.game, players, options, args.seat - 1, args.level, seed,
                    read or _reader(stream), stream, lang)
    except KeyError as unknown:
        stream.write(say("unknown-game", lang, game=unknown.args[0], games=", ".join(ids()))
                     + "\n")
        return 2
    except (_Refusal, ValueError) as bad:
        stream.write(f"{bad}\n")
        return 2
    except KeyboardInterrupt:
        stream.write("\n" + say("interrupted", lang) + "\n")
        return 130
