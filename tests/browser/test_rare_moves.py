"""The kinds of move a whole game's walk (test_games.py) never reaches, each made from an
Activity page: 22's `rebuy` and `out` (option rebuy, answered by a person about to go out),
Sugekari's `discard` (option jokers: the extra card of the side that trailed the first game),
Getaway's `decline` (option interject) and `draw` (option taker_stays: a taker with no cards),
Spar's `keep` (option under_ten: a hand with nothing above a nine kept).

Each table has the same deal every run, found beforehand with the rules alone: the lobby's seed
(secrets.randbits) fixed, every seat a person, and every move before the rare one chosen by a
seeded random pick among the seat's legal moves, made through the table service. So the same
moves lead to the same position every run, with no computer's thinking in between; the one
person whose seat is offered the kind then makes it from their page, where its layout is
checked first."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from playwright.async_api import Browser, BrowserContext

from bot.tables import PLAYING
from tests.bot.sim_helpers import World
from tests.browser.harness import DESKTOP, PHONE, Site, fill_lobby, shown
from tests.browser.test_games import SIZES, Applied, Walk, kind_of, perform

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass(frozen=True)
class Rare:
    """A table that brings one kind of move to a person: its seed, its people (seated in the
    order of the site's users: Alice, Bob, Carol, Hanako), the options chosen in its lobby (in
    this order: Sugekari's mode before what a mode allows), the seat the kind is first offered
    to (0: Alice on a phone, by touch; 1: Bob on a desktop, by keyboard) and the moves made
    before it."""

    seed: int
    people: int
    options: dict[str, str]
    seat: int
    before: int


#: the seed of the moves before the rare one (random.Random)
PICKS = 7
#: every rare kind, as KINDS of test_games.py names it, with its table. 22's rebuy stops once
#: three players are left, so it needs four; Sugekari's extra card comes at the second game of
#: a match (the two-player refill game is the shorter way there); a 22 seed whose offer goes to
#: Alice for `rebuy`, one whose offer goes to Bob for `out`.
RARE: dict[tuple[str, str], Rare] = {
    ("twenty-two", "rebuy"): Rare(143, 4, {"rebuy": "true"}, 0, 71),
    ("twenty-two", "out"): Rare(132, 4, {"rebuy": "true"}, 1, 89),
    ("sugekari-21", "discard:1"): Rare(
        130, 2, {"mode": "refill", "best_of_three": "true", "jokers": "true"}, 0, 50),
    ("bhabhi", "decline"): Rare(732, 3, {"interject": "true"}, 1, 2),
    ("bhabhi", "draw="): Rare(110, 3, {"taker_stays": "true"}, 0, 42),
    ("spar", "keep"): Rare(154, 2, {"under_ten": "true"}, 1, 0),
}


async def context_for(browser: Browser, seat: int) -> BrowserContext:
    """Alice's phone (touch, less motion, as in test_games.py) or Bob's desktop."""
    if seat == 0:
        return await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                         reduced_motion="reduce")
    return await browser.new_context(viewport=DESKTOP)


async def play_up_to(world: World, table_id: int, kind: str) -> tuple[int, int]:
    """Play the people's moves through the table service, each a seeded random pick among the
    legal moves of the first seat the game waits for, until a seat of the pages' people
    (Alice's or Bob's) is offered ``kind``: that seat and the moves made before."""
    manager = world.bot.manager
    rng = random.Random(PICKS)
    made = 0
    while True:
        table = await manager.position(table_id)
        assert table.status == PLAYING and not table.over, (kind, made)
        for seat in table.to_act:
            if seat > 1:
                continue
            mine = await manager.position(table_id, seat)
            if any(kind_of(m.action) == kind for m in mine.moves):
                return seat, made
        seat = table.to_act[0]
        mine = await manager.position(table_id, seat)
        move = rng.choice(mine.moves)
        await manager.act(table_id, int(world.users[seat].id), mine.version, move.index)
        made += 1


@pytest.mark.parametrize(("game_id", "kind"), list(RARE), ids=[f"{g}-{k}" for g, k in RARE])
async def test_a_rare_move_from_the_page(table_site: Site, browser: Browser, game_id: str,
                                         kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rare = RARE[(game_id, kind)]
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: rare.seed)
    site = table_site
    site.fresh_visit()
    world = site.world
    manager = world.bot.manager
    people = world.users[:rare.people]
    person = people[rare.seat]
    name = list(SIZES)[rare.seat]
    channel = site.channel(f"{game_id}-rare")
    instance = site.sim.add_activity_instance(channel, people[:2])
    context = await context_for(browser, rare.seat)
    applied = Applied(site)
    table_id = None
    try:
        viewer = await site.discord_page(context, person, channel, instance,
                                         "mobile" if name == "phone" else "desktop")
        await viewer.ui.locator(".launcher .none").wait_for()
        r = await site.sim.slash(people[0], channel, "play", {"game": game_id})
        assert r.status == "ok", r
        await fill_lobby(world, people, rare.people, rare.options)
        table_id = max(manager.tables)
        # every seat a person's, in the order they sat down: no computer moves in between
        seated = (await manager.position(table_id)).seats
        assert [s.user_id for s in seated] == [int(p.id) for p in people]
        await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "playing")

        seat, before = await play_up_to(world, table_id, kind)
        # the deal is the one found beforehand: the kind comes to that person at that move
        assert (seat, before) == (rare.seat, rare.before), (seat, before)
        position = await manager.position(table_id, seat)
        model = await viewer.wait_for(lambda m: m.get("type") == "table"
                                      and m["status"] == "playing"
                                      and m["version"] == position.version)
        assert model["you"]["seat"] == seat and model["you"]["may_act"], model["you"]
        actions = {m.index: m.action for m in position.moves}
        # the page offers exactly the seat's legal moves, the rare kind among them
        assert {m["index"] for m in model["you"]["moves"]} == set(actions), model["you"]
        move = next(m for m in model["you"]["moves"] if kind_of(actions[m["index"]]) == kind)
        await shown(viewer, model)
        # the screen that offers it: no control on another, a card or a seat, none off the
        # screen, every target large enough, at each of the page's sizes
        await Walk(game_id).check(viewer, name, model, every=True)
        await viewer.page.set_viewport_size(PHONE if name == "phone" else DESKTOP)

        done = len(applied.moves)
        await perform(viewer, move, keys=name == "desktop")
        after = await viewer.wait_for(lambda m: m.get("type") == "error" or (
            m.get("type") == "table" and m["version"] > position.version))
        assert after.get("type") == "table", after
        # the service applied exactly the move chosen on the page, as that person's
        made = [a for t, s, a in applied.moves[done:] if t == table_id and s == seat]
        assert len(made) == 1 and made[0].same_as(actions[move["index"]]), (move, made)
        # made as a person makes it: a move of one card by touching that card (its only move),
        # any other by its own button
        assert viewer.ways == ({"tap"} if move["cards"] else {"button"}), viewer.ways
        # and the page draws the table it was sent next, which tells of that move
        await viewer.ui.locator(f'.table-view[data-version="{after["version"]}"]').wait_for()
        assert after["last"] is not None and after["last"]["seat"] == seat \
            and after["last"]["kind"] == actions[move["index"]].kind, after["last"]
        assert viewer.errors == []
        assert site.sim.spec_errors == [], site.sim.spec_errors[:3]
    finally:
        applied.close()
        if table_id is not None and manager.is_open(table_id):
            await manager.cancel(table_id, int(people[0].id))
        await context.close()
