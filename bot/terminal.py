"""``python -m bot.terminal GAME``: play a game in the terminal on the bot's own table service.

The same :class:`bot.tables.TableManager` the Discord cogs call: the terminal opens a table for
one person (user id :data:`PERSON`) and computer players, starts it, and from then on reads
only :class:`bot.tables.position.Position` snapshots and the service's typed events (the computers'
moves arrive as :class:`bot.tables.events.MoveApplied`, printed as they come). It never holds a game
state. Every move goes through :meth:`TableManager.act` and is stored before it is shown, as in
Discord; a game broken off (end of input, Ctrl-C) stays stored as it was.

The games' words (the table, moves, events) come from each game's ``view_text``,
``action_text`` and ``event_text`` through ``position.rules``; the terminal's own sentences are
those of ``python -m games play`` (:mod:`games.cli_text`), the refusals and results the bot's
(:mod:`bot.i18n`, :mod:`bot.tables.results`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import sqlite3
import sys
import threading
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

import games
from bot.i18n import t
from bot.storage.store import Storage
from bot.tables import (
    COMPUTER_LEVELS,
    PLAYING,
    DealEnded,
    GameEnded,
    MoveApplied,
    Position,
    Refusal,
    TableEvent,
    TableManager,
)
from bot.tables.results import deal_title, tally_lines
from games.cards import Card, pretty, show
from games.cli import MenuLine, line_number, menu, shown, whole_argument
from games.cli_text import LANGS, say
from games.core import Action

#: the person's user id at the terminal's tables (one person: the one at the keyboard)
PERSON = 1
#: the "server" of the terminal's tables: none of Discord's (its ids are far larger), so a
#: database shared with the bot keeps the two apart
TERMINAL_GUILD = 0
#: a computer player's search budget per move (seconds): the ``hard`` level stays quick to
#: play against at the keyboard
BUDGET = 0.3
#: answers that end the game at the prompt (the table stays stored)
QUIT = frozenset({"q", "quit", "exit"})


def default_db() -> Path:
    """Where the terminal keeps its tables: a SQLite file in the user's data folder.

    A file rather than an in-memory database, because the service stores every move before it
    is shown: a game broken off is then really kept (and inspectable), as the bot keeps one.
    """
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "deckhand" / "terminal.sqlite3"


class Typed:
    """The lines the person types, read by a daemon thread: the event loop never blocks on the
    keyboard (the computers keep moving, Ctrl-C stops at once), and a thread left waiting for
    a line never holds up the end of the program."""

    def __init__(self, stream: TextIO) -> None:
        self.lines: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def read() -> None:
            # the end of the input (or of the loop: the game is over) ends the thread
            with contextlib.suppress(OSError, ValueError, RuntimeError):
                for line in iter(stream.readline, ""):
                    loop.call_soon_threadsafe(self.lines.put_nowait, line)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.lines.put_nowait, None)

        threading.Thread(target=read, name="terminal-input", daemon=True).start()

    async def line(self) -> str | None:
        """The next line typed (without its newline); None at the end of the input."""
        found = await self.lines.get()
        return None if found is None else found.rstrip("\r\n")


class Quit(Exception):
    """The person ended the game (q, or the end of the input)."""


@dataclass
class Picked:
    """What the person typed at a list: a line of it (``index``), or a move's text form."""

    index: int | None = None
    text: str | None = None


class Terminal:
    """One person's game at the terminal: events printed as they come, moves asked for."""

    def __init__(self, manager: TableManager, typed: Typed, out: TextIO, lang: str,
                 echo: bool) -> None:
        self.manager = manager
        self.typed = typed
        self.out = out
        self.lang = lang
        self.echo = echo  # input from a pipe or a file: show each line after its prompt
        self.table_id: int | None = None
        self.seat: int | None = None
        self.names: list[str] = []
        #: set on every event of the table (the loop reads the position again)
        self.changed = asyncio.Event()
        #: the public position of the finished game, once its result is stored
        self.ended: Position | None = None
        #: the table text last printed (printed again only when it changed)
        self.shown = ""

    def write(self, text: str = "") -> None:
        """A line (or lines) to the terminal."""
        self.out.write(text + "\n")
        self.out.flush()

    # -- events ----------------------------------------------------------------------------------
    async def on_event(self, event: TableEvent) -> None:
        """The service's subscriber: the table's events, printed in order as they come."""
        if event.table_id != self.table_id:
            return
        position = event.position
        if isinstance(event, MoveApplied):
            for move in event.moves:
                for happened in move.events:
                    # the person's own seat sees its own cards (what it drew), nobody else's
                    line = position.rules.event_text(happened.for_seat(self.seat), self.lang,
                                                     self.names)
                    if line:
                        self.write(f"  · {line}")
        elif isinstance(event, DealEnded):
            tally = position.tallies[-1]
            self.write(f"\n{deal_title(position.rules, tally, self.lang)}")
            for line in tally_lines(position.rules, tally, self.names, self.lang,
                                    position.hidden):
                self.write(f"  {line}")
        elif isinstance(event, GameEnded):
            self.ended = position
        self.changed.set()

    # -- reading ---------------------------------------------------------------------------------
    async def read(self, prompt: str) -> str:
        """A line typed after ``prompt``; :class:`Quit` at q or the end of the input."""
        self.out.write(prompt)
        self.out.flush()
        line = await self.typed.line()
        if line is None:
            self.write()
            raise Quit
        if self.echo:
            self.write(line)
        if line.strip().lower() in QUIT:
            raise Quit
        return line.strip()

    async def ask(self, labels: Sequence[str], kinds: frozenset[str]) -> Picked:
        """A numbered list and the person's answer: a number of it, or a move written in its
        text form ('play:TS', or a kind of move on offer such as 'pass'); anything else is
        answered with a line saying what to type, and asked again."""
        def list_them() -> None:
            for number, label in enumerate(labels, 1):
                self.write(f"  {number:3}. {label}")

        list_them()
        while True:
            answer = await self.read(say("prompt", self.lang))
            if answer == "?":
                list_them()
            elif (chosen := line_number(answer, len(labels))) is not None:
                return Picked(index=chosen)
            elif ":" in answer or "=" in answer or answer in kinds:
                return Picked(text=answer)
            else:
                self.write(say("bad-number", self.lang, count=len(labels)))

    async def choose(self, position: Position) -> int | str:
        """The person's move from a position: its index in ``position.moves`` (chosen through
        the lists the bot's panel groups them in: cards one at a time, a bid's number then its
        game), or a move's text form for the service to resolve."""
        rules = position.rules
        view = position.own_view
        assert view is not None
        kinds = frozenset(m.action.kind for m in position.moves)
        index = {m.action: m.index for m in position.moves}
        entries = menu(rules, [m.action for m in position.moves], view, self.lang)
        alone = len(entries) == 1 and entries[0].action is None
        while True:
            if alone:
                entry = entries[0]
            else:
                self.write(say("your-moves", self.lang))
                answer = await self.ask([e.label for e in entries], kinds)
                if answer.text is not None:
                    return answer.text
                assert answer.index is not None
                entry = entries[answer.index]
            if entry.action is not None:
                return index[entry.action]
            found = await (self.pick(position, entry, kinds, not alone) if entry.pick
                           else self.step(position, entry, kinds, not alone))
            if found is not None:
                return found if isinstance(found, str) else index[found]

    async def pick(self, position: Position, entry: MenuLine, kinds: frozenset[str],
                   can_go_back: bool) -> Action | str | None:
        """Cards chosen one at a time until they make one of the entry's moves; None to go
        back."""
        rules, lang = position.rules, self.lang
        view = position.own_view
        assert view is not None
        key = rules.hand_key(view)
        chosen: Counter[Card] = Counter()
        while True:
            fits = [m for m in entry.pick if not chosen - Counter(m.cards)]
            done = [m for m in fits if Counter(m.cards) == chosen]
            more = sorted({c for m in fits for c in m.cards if Counter(m.cards)[c] > chosen[c]},
                          key=key)
            if done and not more:
                return done[0]
            self.write(say("pick-title", lang, what=entry.what))
            picked = sorted(chosen.elements(), key=key)
            self.write(say("picked", lang, cards=show(picked, lang)) if picked
                       else say("picked-none", lang))
            labels = [pretty(c, lang) for c in more]
            labels += [say("done", lang, move=rules.action_text(
                m._replace(cards=tuple(sorted(m.cards, key=key))), lang)) for m in done]
            labels += [say("start-over", lang)] if picked else []
            labels += [say("back", lang)] if can_go_back else []
            answer = await self.ask(labels, kinds)
            if answer.text is not None:
                return answer.text
            number = answer.index
            assert number is not None
            if number < len(more):
                chosen[more[number]] += 1
            elif number < len(more) + len(done):
                return done[number - len(more)]
            elif picked and number == len(more) + len(done):
                chosen.clear()
            else:
                return None

    async def step(self, position: Position, entry: MenuLine, kinds: frozenset[str],
                   can_go_back: bool) -> Action | str | None:
        """One of the entry's moves from a second list (a bid's game); None to go back."""
        title = "step-title-bid" if entry.step[0].kind == "bid" else "step-title"
        self.write(say(title, self.lang, first=entry.first))
        labels = [position.rules.action_text(a, self.lang) for a in entry.step]
        labels += [say("back", self.lang)] if can_go_back else []
        answer = await self.ask(labels, kinds)
        if answer.text is not None:
            return answer.text
        assert answer.index is not None
        return entry.step[answer.index] if answer.index < len(entry.step) else None

    # -- showing ---------------------------------------------------------------------------------
    def show_position(self, position: Position) -> None:
        """The person's table (their hand, the public table) and the scores, when changed."""
        view = position.own_view
        assert view is not None
        text = position.rules.view_text(view, self.lang)
        public = position.public or {}
        scores = ", ".join(t("seat-score", self.lang, name=name, score=_number(score))
                           for name, score in zip(self.names, public.get("scores", ()),
                                                  strict=False))
        text += f"\n{t('scores-title', self.lang)}: {scores}"
        if text != self.shown:
            self.write(f"\n{text}")
            self.shown = text

    def show_result(self, position: Position) -> None:
        """The finished game: the table, the places and scores, the person's place."""
        outcome = position.outcome
        if position.public_view is not None:
            self.write("\n" + position.rules.view_text(position.public_view, self.lang))
        if outcome is None:
            return
        order = sorted(range(position.players), key=lambda s: (outcome.places[s], s))
        result = " · ".join(t("place", self.lang, place=outcome.places[s], name=self.names[s],
                              score=_number(outcome.scores[s])) for s in order)
        self.write(t("finished", self.lang, result=result))
        seat = self.seat
        assert seat is not None
        self.write(say("you-win", self.lang) if seat in outcome.winners else
                   say("your-place", self.lang, place=outcome.places[seat],
                       players=position.players))

    # -- the game --------------------------------------------------------------------------------
    async def setup(self, game: str, players: int, options: Sequence[tuple[str, str]],
                    level: str, seed: int | None, name: str) -> None:
        """Open the table, seat the computers, set the options and the level, and start;
        :class:`Refusal` (or :class:`BadCommand`) saying why not."""
        manager = self.manager
        # a channel of its own for each game: a game broken off keeps its (still open) table
        table = await manager.open(TERMINAL_GUILD, time.time_ns(), game, PERSON, name, seed)
        self.table_id = table_id = table.table_id
        for _ in range(players - 1):
            await manager.add_computer(table_id, PERSON)
        rules = games.get(game)
        for option, value in options:
            value = _engine_value(rules, option, value, players, self.lang)
            await manager.set_option(table_id, PERSON, option, value)
        await manager.set_level(table_id, PERSON, level)
        self.introduce(await manager.position_for(table_id, PERSON))
        await manager.start(table_id, PERSON)

    async def resume(self, wanted: int) -> None:
        """Take up a game broken off: the table ``wanted`` (0: the latest), rebuilt from its
        stored moves by the service's restart; Refusal 'no-table' when there is none."""
        resumed = await self.manager.resume(lambda guild: guild == TERMINAL_GUILD)
        found = [table.table_id for table in resumed
                 if table.status == PLAYING and table.host_id == PERSON
                 and wanted in (0, table.table_id)]
        if not found:
            raise Refusal("no-table")
        self.table_id = max(found)
        self.introduce(await self.manager.position_for(self.table_id, PERSON))

    def introduce(self, position: Position) -> None:
        """The table's title and who plays which seat."""
        self.seat = position.seat_of(PERSON)
        assert self.seat is not None
        self.names = [s.name for s in position.seats]
        rules = position.rules
        game_name = rules.title(self.lang)
        self.write(t("table-title", self.lang, game=game_name, id=position.table_id))
        self.write(say("you-are", self.lang, seat=self.seat + 1, players=position.players,
                       level=say(f"level-{position.level}", self.lang)))

    async def play(self) -> None:
        """Until the game ends: wait for the person's turn, show the position, ask for a move
        and make it; :class:`Quit` when the person ends the game."""
        manager, table_id = self.manager, self.table_id
        assert table_id is not None and self.seat is not None
        while self.ended is None:
            self.changed.clear()
            try:
                position = await manager.position(table_id, self.seat)
            except Refusal:  # closed: its result is stored, the GameEnded event is on its way
                await self.changed.wait()
                continue
            # the person moves once no computer is due as well (with no pause, the computers'
            # moves follow at once: the list asked from stays current)
            due = [s for s in position.to_act if s != self.seat]
            if not position.may_act or (due and self.seat in position.to_act):
                await self.changed.wait()
                continue
            self.show_position(position)
            choice = await self.choose(position)
            try:
                await manager.act(table_id, PERSON, position.version, choice)
            except Refusal as refused:
                self.write(refused.text(self.lang))


def _number(value: float) -> str:
    """A score as the table shows it: '12', '2.5'."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


class BadCommand(Exception):
    """A command line the terminal cannot play; the message is a sentence for the reader."""


def _engine_value(rules: games.Rules, name: str, value: str, players: int, lang: str) -> str:
    """An option's value as the service takes it: a seat is typed from 1 (as ``python -m games``
    takes it) and stored from 0; other values as typed (the lobby checks them). An unknown
    option, or a seat out of range, is refused here, in the reader's language."""
    try:
        option = rules.option(name)
    except KeyError:
        known = ", ".join(o.name for o in rules.options) or "-"
        game = rules.title(lang)
        raise BadCommand(say("unknown-option", lang, name=name, game=game, known=known)) from None
    if option.kind == "seat" and value.lower() != "random":
        seat = line_number(value, players)
        if seat is None:
            raise BadCommand(say("seat-option", lang, name=name, players=players,
                                 value=shown(value)))
        return str(seat)
    return value


def _options(pairs: Sequence[str]) -> tuple[list[tuple[str, str]], str | None]:
    """``name=value`` pairs, and the first one not written so (None when all are)."""
    found: list[tuple[str, str]] = []
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            return found, pair
        found.append((name.strip(), value.strip()))
    return found, None


def parser() -> argparse.ArgumentParser:
    """The command line."""
    found = argparse.ArgumentParser(
        prog="python -m bot.terminal",
        description="Play a game in the terminal against computer players, on the bot's table "
                    "service (every move stored, as in Discord).")
    found.add_argument("game", nargs="?", choices=games.ids(), metavar="GAME",
                       help=f"the game: {', '.join(games.ids())}")
    found.add_argument("--resume", type=whole_argument, nargs="?", const=0, default=None,
                       metavar="TABLE", help="take up a game broken off (default: the latest)")
    found.add_argument("--players", type=whole_argument, default=0,
                       help="seats, yours included (default: the game's usual count)")
    found.add_argument("--seed", type=whole_argument, default=None, help="the deal's seed")
    found.add_argument("--lang", choices=LANGS, default="en")
    found.add_argument("--level", choices=COMPUTER_LEVELS, default="normal",
                       help="the computer players' level")
    found.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                       help="a game option (seats counted from 1); repeat for more")
    found.add_argument("--name", default=None, help="your name at the table")
    found.add_argument("--db", default=None,
                       help=f"the SQLite file the table is stored in (default: {default_db()})")
    return found


def _unusable(target: Path, error: OSError | sqlite3.Error, lang: str) -> str:
    """Why the games cannot be kept at ``target``, and what to give ``--db`` instead: a file
    that holds something else (``--db /etc/passwd``), or a place that cannot be written."""
    if isinstance(error, sqlite3.DatabaseError) and not isinstance(
            error, sqlite3.OperationalError):
        return say("db-not-database", lang, path=target)
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return say("db-cannot-open", lang, path=target, reason=reason)


def _login_name() -> str:
    try:
        return getpass.getuser() or "Player"
    except (KeyError, OSError):  # no login name in this environment
        return "Player"


async def run(argv: Sequence[str], stdin: TextIO, out: TextIO) -> int:
    """Play one game from a command line: the exit status (0 at the end of the game or when
    the person quits, 2 for a command line or a table the service refuses)."""
    command = parser()
    args = command.parse_args(list(argv))
    if (args.game is None) == (args.resume is None):
        command.error("give a game to play, or --resume")
    lang: str = args.lang
    options, malformed = _options(args.option)
    if malformed is not None:
        out.write(say("option-form", lang, pair=malformed) + "\n")
        return 2
    if args.game is not None and args.players < 0:  # (too many: the service's refusal)
        rules = games.get(args.game)
        if args.players not in rules.player_counts():
            out.write(say("players-range", lang, game=rules.title(lang),
                          counts=rules.players_text(lang), players=args.players) + "\n")
            return 2
    target = Path(args.db) if args.db else default_db()
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        store = await Storage.open(str(target))
    except (OSError, sqlite3.Error) as error:
        out.write(_unusable(target, error, lang) + "\n")
        return 2
    # no pause between computer moves, and a short search: a game at the keyboard moves on
    manager = TableManager(store, ai_delay=0.0, ai_budget=BUDGET)
    typed = Typed(stdin)
    terminal = Terminal(manager, typed, out, lang, echo=not stdin.isatty())
    manager.subscribe(terminal.on_event)
    try:
        try:
            if args.resume is not None:
                await terminal.resume(args.resume)
            else:
                players = args.players or games.get(args.game).usual_players
                await terminal.setup(args.game, players, options, args.level, args.seed,
                                     args.name or _login_name())
        except Refusal as refused:
            terminal.write(refused.text(lang))
            return 2
        except BadCommand as bad:
            terminal.write(str(bad))
            return 2
        try:
            await terminal.play()
        except Quit:
            terminal.write(say("bye", lang))
            return 0
        assert terminal.ended is not None
        terminal.show_result(terminal.ended)
        return 0
    except asyncio.CancelledError:  # Ctrl-C: asyncio.run cancels this, then raises it
        terminal.write("\n" + say("interrupted", lang))
        raise
    finally:
        await manager.close()  # the computers stop; every move made is already stored
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bot.terminal``: the exit status (130 after Ctrl-C)."""
    try:
        return asyncio.run(run(sys.argv[1:] if argv is None else argv, sys.stdin, sys.stdout))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
