"""The table cog as composed parts: every table verb routed to the part that answers it, no
part reaching back into the cog, and the panels' look at who may act the same from the public
position (the news) as from the seat's own."""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import pytest

import cogs
import games
from bot.tables.model import PLAYING, Seat, Table
from bot.tables.position import position_of
from cogs import ids
from cogs.hands import shows
from cogs.play import PlayCog
from tests.bot.sim_helpers import world

#: the modules of the cog's parts (each a class given what it uses in its constructor)
PARTS = ("board", "prefs", "hands", "panels", "alerts", "dm", "lobby", "turn", "hints",
         "activity", "yours", "threads", "reminders", "time_prefs", "leaderboards",
         "tournaments")


async def test_every_table_verb_is_answered_by_one_of_the_cogs_parts(tmp_path: Path) -> None:
    async with world(tmp_path, people=1) as w:
        cog = w.bot.get_cog("PlayCog")
        assert isinstance(cog, PlayCog)
        # a tournament's buttons are the tournament cog's (checked below), not a table's
        verbs = set(ids.BUTTON_VERBS + ids.SELECT_VERBS) - ids.TOURNAMENT_VERBS
        assert set(cog.handlers) == verbs
        parts = {id(getattr(cog, name)) for name in
                 ("lobby", "turn", "hints", "messages", "panels", "alerts", "dms", "hands",
                  "activity", "yours")}
        for verb, handler in cog.handlers.items():
            owner = getattr(handler, "__self__", None)
            assert owner is not cog and id(owner) in parts, verb  # a part's, not the cog's
        assert cog.handlers["act"].__self__ is cog.turn  # type: ignore[attr-defined]
        assert cog.handlers["join"].__self__ is cog.lobby  # type: ignore[attr-defined]
        assert cog.handlers["hint"].__self__ is cog.hints  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", PARTS)
def test_a_part_inherits_nothing_and_never_imports_the_cog(name: str) -> None:
    path = Path(cogs.__file__).parent / f"{name}.py"
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and not any(
                isinstance(b, ast.Attribute) or getattr(b, "id", "") in ("Exception",)
                for b in node.bases):
            assert node.bases == [], (name, node.name)  # composed, not a link of a chain
        if isinstance(node, ast.ImportFrom):
            assert node.module != "cogs.play", name


def test_the_cog_is_a_plain_cog() -> None:
    bases = [b for b in inspect.getmro(PlayCog)[1:] if b.__module__.startswith("cogs.")]
    assert bases == []


@pytest.mark.parametrize("gid", ["bhabhi", "twenty-two", "bear", "spar"])
def test_who_may_act_is_the_same_from_the_public_position_and_the_seats(gid: str) -> None:
    """A live panel is edited on the news (a public position) and answered from the seat's
    own position: both must say the same of whether the seat may act (Getaway's take, out of
    turn, included)."""
    rules = games.get(gid)
    rng = random.Random(3)
    checked = out_of_turn = 0
    for seed in (1, 2):
        options = {"take_hand": "any"} if gid == "bhabhi" else {}  # the take on offer
        state = rules.new_game(rules.usual_players, seed=seed, options=options)
        seats = [Seat(10 + s, f"P{s + 1}") for s in range(state.players)]
        table = Table(1, 1, 1, rules, 10, PLAYING, seats, {}, 1, "off", state=state)
        for _ in range(200):
            if state.over:
                break
            public = position_of(table)
            for seat in range(state.players):
                own = position_of(table, seat)
                assert shows(public, seat) == shows(own, seat), (gid, seat, table.version)
                expected = seat in state.to_act or bool(state.legal_actions(seat))
                assert shows(own, seat)[1] == expected
                checked += 1
                out_of_turn += expected and seat not in state.to_act
            mover = state.to_act[0]
            state.apply(mover, rng.choice(state.legal_actions(mover)))
            table.version += 1
    assert checked > 0
    if gid == "bhabhi":
        assert out_of_turn > 0  # the take was offered out of turn, and both positions saw it
