"""The Activity's page beyond a whole game: a spectator, the turn timer, a click on a table that
has moved on, a person whose Discord speaks Japanese, a connection lost and found again, and
someone the Activity is not theirs. One table of Spar with a turn timer in one channel: Alice
(English) and Hanako (Japanese) seated with two computers."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, WebSocketRoute

from games import wording
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import button
from tests.browser.harness import DESKTOP, GALLERY, PHONE, Site, Truth, Viewer
from tests.discord_sim import SimChannel, SimUser

pytestmark = pytest.mark.asyncio(loop_scope="module")


@dataclass
class Game:
    channel: SimChannel
    instance: str
    table_id: int
    truth: Truth


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def game(table_site: Site) -> AsyncIterator[Game]:
    site = table_site
    truth = Truth(site)
    alice, _bob, carol, hanako = site.world.users
    channel = site.channel("spar")
    instance = site.sim.add_activity_instance(channel, [alice, carol, hanako])
    # a turn timer (five minutes: longer than this module), chosen in the lobby
    manager = site.world.bot.manager
    await site.sim.slash(alice, channel, "play", {"game": "spar"})
    await site.sim.settle()
    table_id = max(manager.tables)
    await manager.set_timer(table_id, int(alice.id), "relaxed")
    await start_lobby(site, [alice, hanako], 4)
    yield Game(channel, instance, table_id, truth)


async def start_lobby(site: Site, humans: list[SimUser], seats: int) -> None:
    """Joins, computers for the rest, Start (the lobby is open)."""
    sim, world = site.sim, site.world
    for user in humans[1:]:
        table = world.table_message()
        await sim.click(user, table, button(table, "join")["custom_id"])
    for _ in range(seats - len(humans)):
        table = world.table_message()
        await sim.click(humans[0], table, button(table, "addc")["custom_id"])
    await sim.settle()
    table = world.table_message()
    r = await sim.click(humans[0], table, button(table, "start")["custom_id"])
    assert r.status == "ok", r
    await sim.settle()


def ui_word(key: str, lang: str) -> str:
    return wording.text("web-ui-" + key, lang)


async def test_a_spectator_sees_the_public_table_only(table_site: Site, browser: Browser,
                                                      game: Game) -> None:
    carol = table_site.world.users[2]
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        viewer = await table_site.discord_page(context, carol, game.channel, game.instance,
                                               "mobile")
        model = await viewer.wait_for(lambda m: m.get("type") == "table")
        assert model["you"] == {"seat": None, "hand": [], "playable": [], "may_act": False,
                                "moves": []}
        note = viewer.ui.locator(".note.spectating")
        await note.wait_for()
        assert await note.inner_text() == "Spectating"
        assert await viewer.ui.locator(".hand, button.move").count() == 0
        # the seats and their cards on the table are there, as everyone sees them
        assert await viewer.ui.locator(".felt .seat").count() == 4
        await asyncio.sleep(0.5)
        assert game.truth.leaks(viewer, None) == []
        await viewer.page.screenshot(path=str(GALLERY / "spectator-phone.png"))
    finally:
        await context.close()


class Relay:
    """The page's socket passed through, with the server's messages held back on demand (a
    slow network) and the connection cut on demand."""

    def __init__(self) -> None:
        self.held: list[str | bytes] | None = None
        self.routes: list[WebSocketRoute] = []
        self.connections = 0

    def __call__(self, ws: WebSocketRoute) -> None:
        self.connections += 1
        self.routes.append(ws)
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(message))
        server.on_message(lambda message: self._down(ws, message))

    def _down(self, ws: WebSocketRoute, message: str | bytes) -> None:
        if self.held is not None:
            self.held.append(message)
        else:
            ws.send(message)

    def hold(self) -> None:
        self.held = []

    def release(self) -> None:
        held, self.held = self.held or [], None
        for message in held:
            self.routes[-1].send(message)


async def my_turn(viewer: Viewer, site: Site, table_id: int, timeout: float = 30.0
                  ) -> dict[str, Any]:
    """Wait until the table is at the person's turn, their page showing it."""
    table = site.world.bot.manager.tables[table_id]
    return await viewer.wait_for(lambda m: m.get("type") == "table" and m["you"]["may_act"]
                                 and m["version"] == table.version, timeout)


async def test_the_turn_timer_counts_down_on_the_acting_seat(table_site: Site, browser: Browser,
                                                             game: Game) -> None:
    carol = table_site.world.users[2]
    context = await browser.new_context(viewport=DESKTOP)
    try:
        viewer = await table_site.discord_page(context, carol, game.channel, game.instance)
        model = await viewer.wait_for(lambda m: m.get("type") == "table")
        assert model["deadline"] is not None
        clock = viewer.ui.locator(".seat.acting .clock")
        await clock.wait_for()
        first = await clock.inner_text()
        assert re.fullmatch(r"[0-5]:[0-5][0-9]", first), first
        left = model["deadline"] - time.time()
        minutes, seconds = map(int, first.split(":"))
        assert abs(minutes * 60 + seconds - left) <= 2
        await asyncio.sleep(2.1)
        later = await clock.inner_text()
        assert later < first  # m:ss text: earlier times sort first
    finally:
        await context.close()


async def test_a_click_on_a_table_that_moved_on_shows_the_servers_sentence(
        table_site: Site, browser: Browser, game: Game) -> None:
    person = await whose_turn(table_site, game.table_id)
    relay = Relay()
    slow = await browser.new_context(viewport=DESKTOP)
    other = await browser.new_context(viewport=DESKTOP)
    try:
        await slow.route_web_socket(re.compile(r".*/ws\?.*"), relay)
        page = await table_site.discord_page(slow, person, game.channel, game.instance)
        second = await table_site.discord_page(other, person, game.channel, game.instance)
        await page.ui.locator(".table-view.my-turn").wait_for(timeout=30000)
        model = await my_turn(second, table_site, game.table_id)
        relay.hold()  # the first page hears nothing more for now
        await second.ui.locator(".table-view.my-turn").wait_for()
        choice = model["you"]["moves"][0]
        await click_move(second, choice)
        await second.wait_version(model["version"])
        # the first page still shows the old position: a click there is stale
        await click_move(page, choice)
        await asyncio.sleep(0.3)
        relay.release()
        toast = page.ui.locator(".toast")
        await toast.wait_for()
        lang = "ja" if person.locale == "ja" else "en"
        assert await toast.inner_text() == wording.text("web-stale", lang)
        # and it shows the table as it is now
        table = table_site.world.bot.manager.tables[game.table_id]
        await page.ui.locator(".table-view:not(.frozen)").wait_for()
        assert table.version > model["version"]
    finally:
        await slow.close()
        await other.close()


async def whose_turn(site: Site, table_id: int) -> SimUser:
    """The seated person the table waits for (the computers play at once)."""
    manager = site.world.bot.manager
    for _ in range(200):
        for seat, user in ((0, site.world.users[0]), (1, site.world.users[3])):
            if (await manager.position(table_id, seat)).may_act:
                return user
        await asyncio.sleep(0.05)
    raise AssertionError("the table waits for nobody seated")


async def click_move(viewer: Viewer, move: dict[str, Any]) -> None:
    button = viewer.ui.locator(f'button.move[data-move="{move["index"]}"]')
    if await button.count():
        await button.click()
        return
    for code in move["cards"]:
        await viewer.ui.locator(f'.hand button.hcard[data-code="{code}"]').first.click(
            position={"x": 8, "y": 24})
    # the ticked cards' button, or the card's menu's item, says the move (a tap that played it
    # froze the page)
    chosen = viewer.ui.locator(f'.table-view:not(.frozen) button.move[data-move="{move["index"]}"]')
    if await chosen.count():
        await chosen.click()


async def test_japanese_from_the_persons_discord_locale_inside_the_safe_area(
        table_site: Site, browser: Browser, game: Game) -> None:
    hanako = table_site.world.users[3]
    assert hanako.locale == "ja"
    context = await browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        viewer = await table_site.discord_page(context, hanako, game.channel, game.instance,
                                               "mobile")
        hello = await viewer.wait_for(lambda m: m.get("type") == "hello")
        assert hello["lang"] == "ja"
        model = await viewer.wait_for(lambda m: m.get("type") == "table")
        assert model["title"] == lookup("spar").title("ja") == "スパー"
        frame = viewer.page.frame_locator("#activity")
        assert await frame.locator("html").get_attribute("lang") == "ja"
        await frame.locator(".titles h1").wait_for()
        assert await frame.locator(".titles h1").inner_text() == model["scene"]["title"]
        # the page's own words are Japanese: the turn, or whom the table waits for
        latest = viewer.latest
        assert latest is not None
        if latest["you"]["may_act"]:
            note = await frame.locator(".note.your-turn").inner_text()
            assert note == ui_word("your-turn", "ja")
            labels = [m["label"] for m in latest["you"]["moves"]]
            buttons = await frame.locator("button.move").all_inner_texts()
            assert all(b in (*labels, ui_word("play", "ja"), ui_word("clear", "ja"))
                       for b in buttons)
        else:
            acting = [s["name"] for s in latest["scene"]["seats"] if s["acting"]]
            waiting = await frame.locator(".waiting").inner_text()
            assert waiting == wording.text("web-ui-waiting-for", "ja", who=", ".join(acting))
        # Discord's mobile client gives its safe areas as --discord-safe-area-inset-*: the
        # page keeps its content inside them
        padding = await frame.locator("#app").evaluate("""(app) => {
            const root = document.documentElement.style;
            root.setProperty('--discord-safe-area-inset-top', '47px');
            root.setProperty('--discord-safe-area-inset-bottom', '34px');
            const style = getComputedStyle(app);
            return [style.paddingTop, style.paddingBottom];
        }""")
        assert padding == ["47px", "34px"]
        await asyncio.sleep(0.4)
        await viewer.page.screenshot(path=str(GALLERY / "japanese-phone.png"))
        assert game.truth.leaks(viewer, 1) == []
    finally:
        await context.close()


async def test_a_lost_connection_says_so_and_comes_back_to_the_table(
        table_site: Site, browser: Browser, game: Game) -> None:
    carol = table_site.world.users[2]
    relay = Relay()
    context = await browser.new_context(viewport=DESKTOP)
    try:
        await context.route_web_socket(re.compile(r".*/ws\?.*"), relay)
        viewer = await table_site.discord_page(context, carol, game.channel, game.instance)
        await viewer.ui.locator(".table-view").wait_for()
        await relay.routes[-1].close(code=1006, reason="gone")
        banner = viewer.ui.locator(".banner")
        await banner.wait_for()
        assert await banner.inner_text() == "Reconnecting…"
        # back within the backoff's first steps, watching the same table again
        await banner.wait_for(state="hidden", timeout=10000)
        assert relay.connections == 2
        await viewer.ui.locator(".table-view:not(.frozen)").wait_for()
        assert await viewer.ui.locator(".felt .seat").count() == 4
    finally:
        await context.close()


async def test_someone_not_in_the_activity_is_told_so_and_not_let_in(
        table_site: Site, browser: Browser, game: Game) -> None:
    bob = table_site.world.users[1]  # not among the instance's people
    context = await browser.new_context(viewport=DESKTOP)
    try:
        viewer = await table_site.discord_page(context, bob, game.channel, game.instance)
        refused = await viewer.wait_for(lambda m: m.get("type") == "error")
        assert refused["code"] == "forbidden"
        status = viewer.ui.locator(".status")
        await status.wait_for()
        assert await status.inner_text() == refused["message"]
        await asyncio.sleep(1.5)  # past the first reconnect's delay: no second try
        assert [m["type"] for m in viewer.frames] == ["error"]
        assert viewer.tables == []
    finally:
        await context.close()
