"""Whole games of every registered game through the simulated Discord, humans and computers.

The test users act only on what the bot sent them: the table message's mentions, the Hand
button, and the controls of their private hand. Along the way no public request may show a
card that is hidden in someone's hand.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import games
from bot.pictures import table_png
from bot.storage.db import POSTGRESQL, SQLITE
from bot.tables import FINISHED
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import (
    World,
    button,
    card_forms,
    choose_options,
    game_ids,
    is_public,
    verb_of,
    world,
)
from tests.discord_sim import SimMessage, SimUser


def quick_options(game_id: str) -> dict[str, str]:
    """The smallest sample of each number option the game allows, so matches stay short."""
    rules = lookup(game_id)
    chosen: dict[str, Any] = {}
    for option in rules.options:
        numbers = [v for v in option.samples if isinstance(v, int) and not isinstance(v, bool)]
        if option.kind != "int" or not numbers:
            continue
        try:
            rules.validate_options(rules.usual_players, {**chosen, option.name: min(numbers)})
        except ValueError:
            continue
        chosen[option.name] = min(numbers)
    return {k: str(v) for k, v in chosen.items()}


CODE = re.compile(r'"([2-9TJQKA][SHDC]|RJ|BJ)"')
#: the version a public message shows, from the custom id of its table buttons
TABLE_ID = re.compile(r"dh:(?:hand|back|manage):(\d+):(\d+):")


def hidden_in(state: Any) -> frozenset[str]:
    """Cards in someone's hand that the public view of this state does not show."""
    held = {code for seat in range(state.players) for code in state.view(seat)["hand"]}
    return frozenset(held - set(CODE.findall(json.dumps(state.view(None).to_dict()))))


@dataclass
class Snapshot:
    """What the public may see at one state version of a table."""

    hidden: frozenset[str]
    view: dict[str, Any]
    names: list[str]
    lang: str
    finished: bool = False
    computers: tuple[int, ...] = ()  # seats drawn with the computer's mark


class PublicWatch:
    """No public request shows a card hidden at the position it shows; pictures are drawn
    from the public view alone.

    A listener keeps, for every state version, the cards then hidden (in a hand and not in
    ``view(None)`` — a card public earlier that went back into a hand counts as hidden again)
    and the public view. Each public request is checked against the version its table buttons
    carry; one without them (the final message) against every version since the last look.
    With ``pictures``, every table picture must be byte for byte the picture of
    ``view(None)`` at that version.
    """

    def __init__(self, w: World, pictures: bool = False) -> None:
        self.w = w
        self.pictures = pictures
        self.seen = 0
        self.checked = 0
        self.pictures_checked = 0
        self.snaps: dict[tuple[int, int], Snapshot] = {}
        self.since: dict[int, int] = {}  # table id -> its version at the previous look
        self.drawn: dict[tuple[int, int], bytes] = {}
        w.bot.manager.listeners.insert(0, self.record)
        for table in w.bot.manager.tables.values():
            self.keep(table)

    async def record(self, update: Any) -> None:
        """The manager's listener: keep the position after every change."""
        table = self.w.bot.manager.live(update.table_id)
        if table is not None:
            self.keep(table)

    def keep(self, table: Any) -> None:
        state = table.state
        if state is None:
            return
        if (table.id, table.version) in self.snaps:  # the table may finish at the same version
            self.snaps[(table.id, table.version)].finished |= table.status == FINISHED
            return
        cog = self.w.bot.get_cog("PlayCog")
        lang = cog.messages.public_lang(table) if cog is not None else "en"  # type: ignore[attr-defined]
        self.snaps[(table.id, table.version)] = Snapshot(
            hidden_in(state), json.loads(json.dumps(state.view(None).to_dict())),
            [s.name for s in table.seats], lang, table.status == FINISHED,
            tuple(i for i, s in enumerate(table.seats) if s.computer))

    def _window(self, table_id: int) -> list[Snapshot]:
        table = self.w.bot.manager.tables.get(table_id)
        now = table.version if table is not None else max(
            (v for t, v in self.snaps if t == table_id), default=0)
        first = self.since.get(table_id, 0)
        return [self.snaps[(table_id, v)] for v in range(first, now + 1)
                if (table_id, v) in self.snaps]

    def look(self) -> None:
        for table in self.w.bot.manager.tables.values():
            self.keep(table)
        for request in self.w.sim.requests[self.seen:]:
            if not is_public(self.w.sim, request, self.w.channel):
                continue
            self.checked += 1
            names = " ".join(str(f.get("filename")) for f in request.files)
            assert all(f.get("filename") in ("table.png", "hand.png") for f in request.files)
            text = json.dumps(request.json, ensure_ascii=False) + " " + names
            shown = {(int(a), int(b)) for a, b in TABLE_ID.findall(text)}
            if shown:
                snaps = [self.snaps[key] for key in shown if key in self.snaps]
                secret: frozenset[str] = frozenset().union(*(s.hidden for s in snaps))
            else:
                window = [s for tid in {t for t, _ in self.snaps} for s in self._window(tid)]
                secret = frozenset.intersection(*(s.hidden for s in window)) if window \
                    else frozenset()
            for code in secret:
                for form in card_forms(code):
                    pattern = rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])"
                    assert not re.search(pattern, text), (
                        f"hidden card {form} in {request.method} {request.path}: {text}")
            if self.pictures:
                self._pictures(request, shown)
        self.seen = len(self.w.sim.requests)
        for table in self.w.bot.manager.tables.values():
            self.since[table.id] = table.version

    def _pictures(self, request: Any, shown: set[tuple[int, int]]) -> None:
        """A public table picture is exactly the drawing of the public view at its version."""
        uploads = [f for f in request.files if f.get("filename") == "table.png"]
        if not uploads:
            return
        if not shown:  # the final message: the last position of a finished table
            shown = {(t, v) for t, v in self.snaps if self.snaps[(t, v)].finished
                     and (t, v + 1) not in self.snaps}
        assert len(shown) == 1, (shown, request.path)
        [key] = shown
        if key not in self.drawn:
            snap = self.snaps[key]
            self.drawn[key] = table_png(snap.view, snap.names, snap.lang,
                                        computers=snap.computers)
        for upload in uploads:
            assert upload["bytes"] == self.drawn[key], f"table {key[0]} version {key[1]}"
            self.pictures_checked += 1


class LogWatch(logging.Handler):
    """Every log line of the bot (its own loggers at DEBUG, discord.py's from INFO) is checked
    against the cards hidden at the moment it is written."""

    OWN = ("bot", "cogs", "games")
    STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}

    def __init__(self, w: World) -> None:
        super().__init__(logging.DEBUG)
        self.w = w
        self.lines = 0
        self.leaks: list[str] = []
        self.levels: dict[str, int] = {}

    def __enter__(self) -> LogWatch:
        for name in (*self.OWN, "discord"):
            logger = logging.getLogger(name)
            self.levels[name] = logger.level
            logger.setLevel(logging.INFO if name == "discord" else logging.DEBUG)
        logging.getLogger().addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger().removeHandler(self)
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.split(".")[0] not in (*self.OWN, "discord"):
            return
        self.lines += 1
        parts = [record.getMessage(), record.stack_info or ""]
        if record.exc_info:
            parts.append(logging.Formatter().formatException(record.exc_info))
        parts += [f"{k}={v}" for k, v in record.__dict__.items() if k not in self.STANDARD]
        text = "\n".join(parts)
        secret: set[str] = set()
        for table in list(self.w.bot.manager.tables.values()):
            if table.state is not None:
                secret |= hidden_in(table.state)
        for code in secret:
            for form in card_forms(code):
                if re.search(rf"(?<![0-9A-Za-z]){re.escape(form)}(?![0-9A-Za-z])", text):
                    self.leaks.append(f"{form} in {record.name}: {text}")


async def open_table(w: World, game_id: str, humans: list[SimUser], seats: int,
                     options: dict[str, str]) -> SimMessage:
    """/play, joins, computers for the rest, options through the menus, Start."""
    sim, host = w.sim, humans[0]
    r = await sim.slash(host, w.channel, "play", {"game": game_id})
    assert r.status == "ok", r
    await sim.settle()
    for user in humans[1:]:
        r = await sim.click(user, w.table_message(), button(w.table_message(), "join")["custom_id"])
        assert r.status == "ok", r
    for _ in range(seats - len(humans)):
        r = await sim.click(host, w.table_message(), button(w.table_message(), "addc")["custom_id"])
        assert r.status == "ok", r
    if options:
        await choose_options(sim, host, w.table_message(), options)
    await sim.settle()
    r = await sim.click(host, w.table_message(), button(w.table_message(), "start")["custom_id"])
    assert r.status == "ok", r
    await sim.settle()
    return w.table_message()


async def make_a_move(w: World, user: SimUser, hand: SimMessage, rng: random.Random) -> bool:
    """Choose one of the controls of a private hand; True when a move was accepted."""
    sim = w.sim
    for _ in range(60):
        choices: list[tuple[str, Any]] = []
        for b in hand.buttons():
            if verb_of(b["custom_id"]) == "act":
                choices.append(("button", b))
        for s in hand.selects():
            if verb_of(s["custom_id"]) in ("pick", "set"):
                choices.append(("select", s))
        if not choices:
            return False
        kind, control = rng.choice(choices)
        if kind == "button":
            r = await sim.click(user, hand, control["custom_id"])
        else:
            options = [o["value"] for o in control["options"]]
            low, high = control["min_values"], control["max_values"]
            values = rng.sample(options, rng.randint(low, high))
            r = await sim.select(user, hand, control["custom_id"], values)
        assert r.status == "ok", r
        answer = r.message
        assert answer is not None
        if "moved on" in answer.text:  # stale: the panel shows the position now
            return False
        if answer.id == hand.id and "nothing happened" in answer.text:
            hand = answer  # ticked cards that are no move: said on the panel; choose again
            continue
        if answer.id != hand.id:  # refused: a new ephemeral sentence; the hand stays
            assert answer.ephemeral and answer.text, answer
            if "moved on" in answer.text or "not your turn" in answer.text:
                return False
            continue
        return True
    return False


async def play_to_the_end(w: World, humans: list[SimUser], rng: random.Random,
                          watch: PublicWatch, limit: int = 3000) -> SimMessage:
    """Take turns as the mentioned players until the table says the game is over."""
    sim = w.sim
    for _ in range(limit):
        await sim.settle(idle=0.01)
        watch.look()
        table = w.table_message()
        if "game is over" in table.content:
            return table
        turn = [u for u in humans if f"<@{u.id}>" in table.content]
        if not turn:
            await asyncio.sleep(0.01)
            continue
        user = rng.choice(turn)
        r = await sim.click(user, table, button(table, "hand")["custom_id"])
        assert r.status == "ok", r
        hand = r.message
        assert hand is not None and hand.ephemeral
        await make_a_move(w, user, hand, rng)
    raise AssertionError("the game did not end")


#: the games whose whole game is played on PostgreSQL as well as on SQLite. The storage keeps
#: every game alike (its moves and options as text, the result and the record), and its own
#: tests, the restarts and the leaderboard run on both back ends: a game of trick taking and
#: one of shedding on PostgreSQL cover the whole path at a tenth of every game's time.
ON_POSTGRESQL = ("1234", "spar")


@pytest.mark.parametrize(("backend", "game_id"), [
    *((SQLITE, g) for g in game_ids()), *((POSTGRESQL, g) for g in ON_POSTGRESQL)],
    indirect=["backend"])
async def test_a_whole_game_through_discord(tmp_path: Path, game_id: str) -> None:
    rules = lookup(game_id)
    async with world(tmp_path, people=2) as w:
        watch = PublicWatch(w, pictures=True)
        humans = w.users[:2]
        with LogWatch(w) as logs:
            await open_table(w, game_id, humans, rules.usual_players, quick_options(game_id))
            final = await play_to_the_end(w, humans, random.Random(7), watch)
            await w.sim.settle()
        assert logs.lines > 0 and logs.leaks == [], logs.leaks[:3]
        # every interaction answered, none twice
        assert all(r.callback_type is not None for r in w.sim._interactions.values())
        assert not [q for q in w.sim.requests if q.status == 400 and "40060" in str(q.response)]
        assert "1." in final.content
        # no controls left, only "My review" (cogs/review.py)
        assert all(str(b["custom_id"]).startswith("dhr:") for b in final.buttons())
        result = await w.bot.store.result(1)  # the first table of a fresh database
        assert result is not None and result["game"] == game_id
        assert w.sim.spec_errors == [], w.sim.spec_errors[:3]
        assert watch.checked > 0
        if game_id in games.ids():  # the test game has no pictures (text instead)
            assert watch.pictures_checked > 0
