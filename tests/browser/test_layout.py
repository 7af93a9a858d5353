"""The Activity as players find it (#53): the page's controls where a finger expects them.

A whole game of 22 in two Activity pages, a phone's (390x844, touch) and a desktop's
(1280x800): at every turn of each person, and again once a move's cards are ticked, no button
of the page overlaps another button, a hand's card or a seat's box, nor leaves the viewport
(measured from the page's own boxes, as the browser lays them out). 22's exchange is where
the ticked cards' button once sat on "Keep hand" (the felt's ``.play`` rule matched it)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from playwright.async_api import Browser

from bot.tables import FINISHED
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button
from tests.bot.test_e2e_games import quick_options
from tests.browser.harness import DESKTOP, GALLERY, PHONE, Site, Viewer, fill_lobby, shown
from tests.browser.test_games import perform

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: resolves once the frame's transitions have ended (a card rising, a play landing)
SETTLED = "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))"
#: every button and seat box of the frame, as the page lays it out (getBoundingClientRect:
#: the box Playwright's bounding_box measures, less the frame's offset, which is none here:
#: the frame fills the page), in one call rather than two calls an element
BOXES = """() => [...document.querySelectorAll('button, .felt .seat')].flatMap((e) => {
  const r = e.getBoundingClientRect();
  const shown = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  if (!shown) return [];
  const kind = e.matches('.seat') ? 'seat' : e.matches('.hcard') ? 'card' : 'control';
  const name = (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 40);
  return [[kind, `${JSON.stringify(e.className)} ${JSON.stringify(name)}`,
    {x: r.x, y: r.y, width: r.width, height: r.height}]];
})"""


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (a pixel's rounding is not an overlap)."""
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return w * h if w > 1 and h > 1 else 0.0


async def collisions(viewer: Viewer) -> list[str]:
    """Every button of the page that overlaps another button, a hand's card or a seat's
    box, or leaves the viewport (a hand's cards may overlap each other: it is a fan)."""
    body = viewer.page.frame_locator("#activity").locator("body")
    await body.evaluate(SETTLED)
    size = viewer.page.viewport_size or DESKTOP
    found: list[tuple[str, str, dict[str, float]]] = await body.evaluate(BOXES)
    problems = []
    for i, (kind, name, box) in enumerate(found):
        if kind == "seat":
            continue
        if box["x"] < -1 or box["y"] < -1 or box["x"] + box["width"] > size["width"] + 1 \
                or box["y"] + box["height"] > size["height"] + 1:
            problems.append(f"{name} leaves the viewport: {box}")
        for j, (other_kind, other, other_box) in enumerate(found):
            if j == i or (kind == "card" and other_kind in ("card", "seat")):
                continue
            if other_kind == "control" and j < i:
                continue  # each pair of controls once
            if overlap(box, other_box):
                problems.append(f"{name} overlaps {other_kind} {other}")
    return problems


@pytest.fixture
def one_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same deal every run (a table's seed comes from secrets.randbits)."""
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: 5302)


@contextlib.asynccontextmanager
async def pages(site: Site, browser: Browser, game_id: str
                ) -> AsyncIterator[tuple[Viewer, Viewer, int]]:
    """Alice on a phone and Bob on a desktop at a started table of ``game_id`` (computers
    in the other seats), each in their own Activity page; the table's id."""
    site.fresh_visit()
    alice, bob = site.world.users[:2]
    channel = site.channel(f"layout-{game_id}")
    instance = site.sim.add_activity_instance(channel, [alice, bob])
    phone = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    desktop = await browser.new_context(viewport=DESKTOP)
    try:
        a = await site.discord_page(phone, alice, channel, instance, "mobile")
        b = await site.discord_page(desktop, bob, channel, instance)
        r = await site.sim.slash(alice, channel, "play", {"game": game_id})
        assert r.status == "ok", r
        table = site.world.table_message()
        r = await site.sim.click(bob, table, button(table, "join")["custom_id"])
        assert r.status == "ok", r
        await fill_lobby(site.world, [alice, bob], lookup(game_id).usual_players,
                         quick_options(game_id), join=False)
        table_id = max(site.world.bot.manager.tables)
        for viewer in (a, b):
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "playing")
        yield a, b, table_id
    finally:
        await phone.close()
        await desktop.close()


async def test_no_control_overlaps_another_a_card_or_a_seat_in_a_game_of_22(
        table_site: Site, browser: Browser, one_deal: None) -> None:
    site = table_site
    manager = site.world.bot.manager
    rng = random.Random(53)
    checked = {"phone": 0, "desktop": 0}
    pictured: set[str] = set()
    ticked = 0
    async with pages(site, browser, "twenty-two") as (a, b, table_id):
        viewers = {"phone": a, "desktop": b}
        while True:
            table = manager.tables.get(table_id)
            if table is None or table.status == FINISHED:
                break
            turn: tuple[str, Viewer, dict[str, Any]] | None = None
            for name, viewer in viewers.items():
                model = viewer.latest
                if model and model["version"] == table.version and model["you"]["may_act"]:
                    turn = (name, viewer, model)
            if turn is None:  # the computers' turns, or a page a message behind
                await asyncio.sleep(0.02)
                continue
            name, viewer, model = turn
            await shown(viewer, model)
            problems = await collisions(viewer)
            assert problems == [], (name, problems)
            checked[name] += 1
            moves = model["you"]["moves"]
            several = [m for m in moves if len(m["cards"]) > 1]
            move = rng.choice(several if several and rng.random() < 0.7 else moves)

            async def between(viewer: Viewer = viewer, name: str = name,
                              move: dict[str, Any] = move) -> None:
                nonlocal ticked
                ticked += 1
                problems = await collisions(viewer)
                assert problems == [], (name, "ticked", problems)
                # the ticked cards' button says their move, as the chat's panel does
                chosen = viewer.ui.locator(f'button.move[data-move="{move["index"]}"]')
                assert await chosen.inner_text() == move["label"]
                if name not in pictured:
                    pictured.add(name)
                    GALLERY.mkdir(parents=True, exist_ok=True)
                    picture = GALLERY / f"twenty-two-ticked-{name}.png"
                    await viewer.page.screenshot(path=str(picture))

            await perform(viewer, move, between=between)
            await viewer.wait_for(lambda m, v=model["version"]: (
                m.get("type") == "table" and m["version"] > v) or m.get("type") == "error")
        for name, viewer in viewers.items():
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == FINISHED)
            await viewer.ui.locator(".result .box").wait_for()
            problems = await collisions(viewer)
            assert problems == [], (name, "the end", problems)
            assert viewer.errors == []
    assert min(checked.values()) >= 5 and ticked >= 3, (checked, ticked)


#: a deal whose first lead is Alice's (seat 0) in Finesse: her A♥ may be played or led with no
#: trumps, and her J♦ played from hand or led from her partner's table (two packs)
FINESSE_DEAL = 20261202


@pytest.mark.parametrize("label", ["Play A♥", "Lead A♥, no trumps", "Play J♦",
                                   "Lead J♦ from partner's table"])
async def test_a_card_with_several_moves_offers_each_on_the_card(
        table_site: Site, browser: Browser, monkeypatch: pytest.MonkeyPatch, label: str) -> None:
    """Each of a card's moves, from the card's menu, is the move made (the same deal at a
    fresh table for each)."""
    monkeypatch.setattr("bot.tables.lobby.secrets.randbits", lambda bits: FINESSE_DEAL)
    site = table_site
    site.fresh_visit()
    alice = site.world.users[0]
    channel = site.channel("finesse-menu")
    instance = site.sim.add_activity_instance(channel, [alice])
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        viewer = await site.discord_page(context, alice, channel, instance, "mobile")
        r = await site.sim.slash(alice, channel, "play", {"game": "finesse"})
        assert r.status == "ok", r
        await fill_lobby(site.world, [alice], 4, quick_options("finesse"))
        model = await viewer.wait_for(lambda m: m.get("type") == "table" and m["you"]["may_act"])
        moves = {m["label"]: m for m in model["you"]["moves"]}
        move = moves[label]
        code = move["cards"][0]
        both = sorted(m["label"] for m in moves.values() if m["cards"] == [code])
        assert len(both) == 2, both
        ui = viewer.ui
        await shown(viewer, model)
        card = ui.locator(f'.hand button.hcard[data-code="{code}"]')
        assert await card.get_attribute("aria-haspopup") == "menu"
        await card.click(position={"x": 8, "y": 24})
        menu = ui.locator(".card-menu")
        await menu.wait_for()
        assert sorted(await menu.locator("button").all_inner_texts()) == both
        assert await collisions(viewer) == []
        if label == "Play J♦":
            GALLERY.mkdir(parents=True, exist_ok=True)
            await viewer.page.screenshot(path=str(GALLERY / "finesse-card-menu-phone.png"))
        # a tap elsewhere closes it, changing nothing; the card opens it again
        await ui.locator(".titles").click()
        await menu.wait_for(state="detached")
        await card.click(position={"x": 8, "y": 24})
        await menu.locator(f'button[data-move="{move["index"]}"]').click()
        after = await viewer.wait_version(model["version"])
        # the move made is the one chosen: its event's words are the table's news
        rules = lookup("finesse")
        state = rules.new_game(4, seed=FINESSE_DEAL,
                               options={k: int(v) for k, v in quick_options("finesse").items()})
        action = next(a for a in state.legal_actions(0) if rules.action_text(a, "en") == label)
        names = [s["name"] for s in after["seats"]]
        told = [rules.event_text(e.for_seat(None), "en", names) for e in state.apply(0, action)]
        told = [t for t in told if t]
        assert told and all(t in after["log"] for t in told), (told, after["log"])
        assert viewer.errors == []
    finally:
        await context.close()
