"""A whole game of every game in the Activity: two people, each in their own Activity page
inside (a stand-in for) Discord's client — one on a phone, one on a desktop — with computers
in the other seats. Each plays through the page alone: a tap on a card, ticked cards and Play,
or a move's button. The chat's table message is edited along the way; no page receives a card
that neither the public view nor its own hand shows; screenshots mid-game and at the end."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from playwright.async_api import Browser

import games
from bot.tables import FINISHED
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button, in_channel
from tests.bot.test_e2e_games import quick_options
from tests.browser.harness import DESKTOP, GALLERY, PHONE, Site, Truth, Viewer, fill_lobby, shown

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: human moves before the mid-game screenshots
MID = 3
#: counts, in the Activity's frame, the plays (or cards of the middle) whose flight from their
#: seat begins
FLIGHTS = """
window.flights = 0;
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver((changes) => {
    for (const change of changes) {
      const el = change.target;
      // the start is set and cleared in one go: the later change's old value shows it
      if (el.classList && (el.classList.contains('play') || el.classList.contains('card'))
          && (change.oldValue || '').includes('translate(calc')) window.flights += 1;
    }
  }).observe(document.body, {attributes: true, attributeFilter: ['style'],
    attributeOldValue: true, subtree: true});
});
"""


async def perform(viewer: Viewer, move: dict[str, Any], keys: bool = False,
                  between: Callable[[], Awaitable[None]] | None = None) -> None:
    """Make a move through the page as a person would: tapping, or (``keys``) with the
    keyboard alone — Tab's focus on a card or a button, Enter or Space. A move is a button
    with its words, or its cards: one tapped (played at once, or offering its moves in a
    menu on the card when it has several), or several ticked, then the button that says
    the move. ``between``: called once the cards are tapped or ticked, before that button."""
    ui = viewer.ui

    async def press(target: Any, corner: bool = False) -> None:
        if keys:
            await target.focus()
            await viewer.page.keyboard.press("Enter")
        elif corner:  # a hand's cards overlap: a person taps the corner that shows
            await target.click(position={"x": 8, "y": 24})
        else:
            await target.click()

    # the move's button on the table drawn now (a tap that played the move freezes it, and
    # the next table may have a button of the same index)
    version = await ui.locator(".table-view").get_attribute("data-version")
    button = ui.locator(f'.table-view[data-version="{version}"]:not(.frozen) '
                        f'button.move[data-move="{move["index"]}"]')
    if await button.count():
        await press(button)
        viewer.ways.add("button")
        return
    for code in move["cards"]:
        await press(ui.locator(f'.hand button.hcard[data-code="{code}"]:not(.ticked)').first,
                    corner=True)
    # the cards' own move (the page draws it in the click's handler, so it is there now):
    # an item of the card's menu, or the button of the ticked cards; else the tap played
    if await button.count():
        if between is not None:
            await between()
        menu = await ui.locator(".card-menu").count() > 0
        await press(button)
        viewer.ways.add("menu" if menu else "tick")
    else:
        viewer.ways.add("tap")
    if keys:
        viewer.ways.add("keyboard")


async def shoot(viewers: list[Viewer], name: str) -> None:
    GALLERY.mkdir(parents=True, exist_ok=True)
    await asyncio.sleep(0.5)  # the move's card lands
    for viewer, size in zip(viewers, ("phone", "desktop"), strict=True):
        await viewer.page.screenshot(path=str(GALLERY / f"{name}-{size}.png"))


async def play_through(site: Site, table_id: int, viewers: list[Viewer], game_id: str,
                       rng: random.Random, limit: float = 240.0) -> int:
    """Play until the table is finished, each person through their page; their moves."""
    manager = site.world.bot.manager
    moves = 0
    shot = False
    began = time.monotonic()
    while True:
        table = manager.tables.get(table_id)
        if table is None or table.status == FINISHED:
            return moves
        assert time.monotonic() - began < limit, f"{game_id}: not finished in {limit} s"
        acted = False
        for viewer in viewers:
            model = viewer.latest
            if model is None or model["version"] != table.version or not model["you"]["may_act"]:
                continue
            choices = model["you"]["moves"]
            assert choices, model["you"]
            if not shot and moves >= MID and viewer is viewers[0]:
                await shoot(viewers, f"{game_id}-mid")
                shot = True
            await shown(viewer, model)
            # moves of several cards half the time they are offered (ticked, then their button)
            several = [m for m in choices if len(m["cards"]) > 1]
            # the desktop's person plays by keyboard alone
            await perform(viewer, rng.choice(several if several and rng.random() < 0.5
                                              else choices), keys=viewer is viewers[1])
            await viewer.wait_for(lambda m, v=model["version"]: (
                m.get("type") == "table" and m["version"] > v) or m.get("type") == "error")
            moves += 1
            acted = True
            break
        if not acted:
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("game_id", games.ids())
async def test_a_whole_game_in_two_activity_pages(table_site: Site, browser: Browser,
                                                  game_id: str) -> None:
    site = table_site
    site.fresh_visit()
    truth = Truth(site)
    alice, bob = site.world.users[:2]
    channel = site.channel(game_id)
    instance = site.sim.add_activity_instance(channel, [alice, bob])
    phone = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    desktop = await browser.new_context(viewport=DESKTOP)
    for context in (phone, desktop):
        await context.add_init_script(FLIGHTS)
    try:
        a = await site.discord_page(phone, alice, channel, instance, "mobile")
        b = await site.discord_page(desktop, bob, channel, instance)
        for viewer in (a, b):  # no table yet: the launcher says how to start one
            await viewer.ui.locator(".launcher .none").wait_for()
        assert await a.ui.locator(".launcher .none").inner_text() == \
            "No table here — start one with /play"
        rules = lookup(game_id)
        r = await site.sim.slash(alice, channel, "play", {"game": game_id})
        assert r.status == "ok", r
        table = site.world.table_message()
        r = await site.sim.click(bob, table, button(table, "join")["custom_id"])
        assert r.status == "ok", r
        # the lobby opens by itself in both pages; both have their seats (no hand yet)
        for viewer in (a, b):
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "lobby")
            await viewer.ui.locator(".table-view.status-lobby").wait_for()
            assert await viewer.ui.locator(".note.spectating").count() == 0
        await fill_lobby(site.world, [alice, bob], rules.usual_players, quick_options(game_id),
                         join=False)
        table_id = max(site.world.bot.manager.tables)
        for viewer in (a, b):  # the channel's only table opens by itself
            await viewer.wait_for(lambda m: m.get("type") == "table" and m["status"] == "playing")
        edits_before = len(edits_of(site, channel))
        moves = await play_through(site, table_id, [a, b], game_id, random.Random(7))
        for viewer in (a, b):
            final = await viewer.wait_for(
                lambda m: m.get("type") == "table" and m["status"] == "finished")
            result = viewer.ui.locator(".result .box")
            await result.wait_for()
            assert final["scene"]["result"][0] in await result.inner_text()
            await deciding_cards_shown(viewer, final)
        await shoot([a, b], f"{game_id}-end")
        await site.sim.settle()
        # the chat's table message moved along with the pages
        assert len(edits_of(site, channel)) - edits_before >= min(moves, 3)
        assert "1." in site.world.table_message().content
        assert moves > 0
        assert truth.leaks(a, 0) == [] and truth.leaks(b, 1) == []
        assert a.errors == [] and b.errors == []
        # played cards flew in from their seats (a play's start set back to its seat)
        for viewer in (a, b):
            flights = await viewer.page.frame_locator("#activity").locator("body").evaluate(
                "() => window.flights")
            assert flights > 0
        print(f"{game_id}: {moves} moves through the pages, {sorted(a.ways | b.ways)}")
        assert a.ways | b.ways >= {"tap"} or a.ways | b.ways >= {"tick"}, a.ways | b.ways
        assert site.sim.spec_errors == [], site.sim.spec_errors[:3]
    finally:
        await phone.close()
        await desktop.close()


async def deciding_cards_shown(viewer: Viewer, final: dict[str, Any]) -> None:
    """The end shows how the game ended: the last trick (or the deal's last cards: the rows
    of the middle, else the last move's) stays on the felt, clear of the result."""
    scene = final["scene"]
    plays = scene["trick"] or scene["last_trick"]
    if not plays and not scene["rows"] and final["last"] and final["last"]["cards"]:
        plays = [[final["last"]["seat"], final["last"]["cards"]]]
    wanted = [c for _, codes in plays + scene["rows"] for c in codes if c is not None]
    assert wanted, f"{final['game']}: the end's model holds no cards to show"
    frame = viewer.page.frame_locator("#activity")
    await frame.locator("body").evaluate(
        "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))")
    cards = frame.locator(".felt .play .card, .felt .middle .card")
    shown = await cards.evaluate_all("(els) => els.map((e) => e.dataset.code)")
    assert sorted(wanted) == sorted(c for c in shown if c), (final["game"], wanted, shown)
    result = await frame.locator(".result .box").bounding_box()
    assert result is not None
    for card in await cards.all():
        box = await card.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= result["y"] + 1 or box["y"] >= \
            result["y"] + result["height"] - 1 or box["x"] + box["width"] <= result["x"] + 1 \
            or box["x"] >= result["x"] + result["width"] - 1, (final["game"], box, result)


def edits_of(site: Site, channel: Any) -> list[Any]:
    """The bot's edits of messages in a channel and its threads (the table messages'
    updates: the whole table's is in the table's thread)."""
    found = []
    for q in site.sim.requests:
        where = re.search(r"/channels/(\d+)/messages/", q.path)
        if q.method == "PATCH" and where and in_channel(site.sim, where.group(1), channel):
            found.append(q)
    return found
