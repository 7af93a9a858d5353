"""The Activity in a browser, against the real bot on the simulated Discord.

:func:`site` runs the bot in this process with its web server on a free port; :func:`launch`
starts Debian's chromium under Playwright (its own browser download cannot work here). A page
is opened either inside a stand-in for Discord's client (:meth:`Site.discord_page`: a parent
page on the web server's own origin that frames the Activity and answers the SDK's messages as
Discord's client does), or plainly (the development sign-in).

Every WebSocket frame a page receives is kept (:class:`Viewer`), for the leak check and to
know the page's latest table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from playwright.async_api import Browser, BrowserContext, Page, Playwright, Route, WebSocket

from bot.client.deckhand import Deckhand
from bot.config import ActivitySettings, Settings
from bot.storage.store import Storage
from bot.web.discord_calls import Buckets
from bot.web.model import codes_in
from tests.bot.fakegame import lookup
from tests.bot.sim_helpers import World, button, choose_options, game_ids
from tests.discord_sim import SimChannel, SimulatedDiscord, SimUser

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bot" / "web" / "static"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
#: every screenshot goes here (gitignored); a few are copied into docs/images/activity/
GALLERY = ROOT / "gallery" / "activity"


async def launch(playwright: Playwright) -> Browser:
    return await playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=CHROMIUM_ARGS)


@dataclass
class Site:
    """A simulated server with the bot and its web table; ``base`` is the web server."""

    world: World
    base: str
    channels: int = 0
    frames: int = 0

    @property
    def sim(self) -> SimulatedDiscord:
        return self.world.sim

    async def discord_page(self, context: BrowserContext, user: SimUser, channel: SimChannel,
                           instance: str, platform: str = "desktop") -> Viewer:
        """The Activity as ``user`` sees it inside Discord: a parent page on the web server's
        own origin (the SDK accepts messages from its own origin) framing the page with
        Discord's query, answering the SDK; AUTHORIZE's code comes from the simulated
        Discord."""
        self.frames += 1
        page = await context.new_page()
        viewer = Viewer(page, user, page.frame_locator("#activity"))
        await page.expose_function("harnessCode", lambda: self.sim.oauth_code(user))
        query = urlencode({"frame_id": f"frame-{self.frames}", "instance_id": instance,
                           "platform": platform, "guild_id": str(channel.guild_id),
                           "channel_id": str(channel.id)})
        html = parent_page(f"/?{query}", user, str(self.sim.application_id))
        harness = f"{self.base}/__discord-{self.frames}"

        async def fulfil(route: Route) -> None:
            await route.fulfill(status=200, content_type="text/html", body=html)

        await page.route(harness, fulfil)
        await page.goto(harness)
        return viewer

    async def plain_page(self, context: BrowserContext, path: str = "/") -> Viewer:
        """The page in a plain browser tab (development mode's sign-in)."""
        page = await context.new_page()
        viewer = Viewer(page, None, page)
        await page.goto(self.base + path)
        return viewer

    def fresh_visit(self) -> None:
        """Give this machine's address a full budget of sign-ins again. The web server lets an
        address make a few calls to Discord at once, then one every few seconds
        (bot.web.discord_calls.Buckets); the tests sign in from one address, game after game,
        faster than people do, so each game's test starts as a fresh visit."""
        web = self.world.bot.web
        assert web is not None
        for route in web.app.router.routes():
            owner = getattr(route.handler, "__self__", None)
            if owner is not None and hasattr(owner, "auth"):
                owner.auth.buckets = Buckets()

    def channel(self, name: str) -> SimChannel:
        """A fresh channel of the guild (one table each: the launcher opens it directly)."""
        self.channels += 1
        found = self.sim.add_channel(self.world.guild, f"{name}-{self.channels}")
        self.world.channel = found
        return found


@contextlib.asynccontextmanager
async def site(tmp_path: Path, dev: bool = False, people: int = 4,
               ai_delay: float = 0.0) -> AsyncIterator[Site]:
    """The bot on a simulated Discord, its web table listening on 127.0.0.1 (a free port)."""
    assert (STATIC / "index.html").is_file(), \
        "the Activity's client is not built: run scripts/setup (it needs Node)"
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Test Server", locale="en-US")
        channel = sim.add_channel(guild, "cards")
        users = []
        for i, (name, locale) in enumerate([("Alice", "en-US"), ("Bob", "en-US"),
                                            ("Carol", "en-US"), ("Hanako", "ja")][:people]):
            user = sim.add_user(name, locale=locale)
            sim.add_member(guild, user, manage_guild=(i == 0))
            users.append(user)
        db = str(tmp_path / "deckhand.sqlite3")
        activity = ActivitySettings(int(sim.application_id), sim.client_secret, port=0,
                                    host="127.0.0.1", dev=dev)
        settings = Settings(token="sim-token", db_path=db, ai_delay=ai_delay,
                            ai_level="normal", activity=activity)
        store = await Storage.open(db)
        bot = Deckhand(settings, store, rules_for=lookup, game_ids=game_ids)
        await sim.start(bot)
        world = World(sim, guild, channel, users, bot, db, [bot])
        try:
            assert bot.web is not None
            yield Site(world, f"http://127.0.0.1:{bot.web.port}")
        finally:
            await sim.stop_bot()
            await bot.manager.close()
            await bot.store.close()


@dataclass
class Viewer:
    """One person's Activity page and every table message it received."""

    page: Page
    user: SimUser | None
    #: where the Activity's elements are: the frame inside the parent page, or the page
    ui: Any
    frames: list[dict[str, Any]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    #: the page's uncaught script errors (none is expected)
    errors: list[str] = field(default_factory=list)
    #: how the person's moves were made: 'tap' (one card), 'tick' (cards, then the button of
    #: their move), 'menu' (a card's menu of its moves), 'button' (a move's own button)
    ways: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.page.on("websocket", self._socket)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _socket(self, ws: WebSocket) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        with contextlib.suppress(ValueError):
            message = json.loads(payload)
            if isinstance(message, dict):
                self.frames.append(message)
                self.changed.set()

    @property
    def tables(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == "table"]

    @property
    def latest(self) -> dict[str, Any] | None:
        found = self.tables
        return found[-1] if found else None

    async def wait_for(self, test: Any, timeout: float = 20.0) -> dict[str, Any]:
        """The first message (of those received so far and to come) that passes ``test``."""
        limit = time.monotonic() + timeout
        seen = 0
        while True:
            for message in self.frames[seen:]:
                if test(message):
                    return message
            seen = len(self.frames)
            left = limit - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such message; last: {self.frames[-1:]}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    async def wait_version(self, after: int, timeout: float = 20.0) -> dict[str, Any]:
        return await self.wait_for(
            lambda m: m.get("type") == "table" and m["version"] > after, timeout)


async def shown(viewer: Viewer, model: dict[str, Any]) -> None:
    """Wait until the page draws the table of a person's turn it was sent (the test hears a
    frame before the page's script has drawn it: a click then would be on the table before)."""
    await viewer.ui.locator(
        f'.table-view.my-turn:not(.frozen)[data-version="{model["version"]}"]').wait_for()


def parent_page(activity_url: str, user: SimUser, client_id: str) -> str:
    """Discord's client, as far as the SDK sees it: it frames the Activity and answers the
    SDK's handshake and commands (each reply carries its command's nonce). The code for
    AUTHORIZE comes from the simulated Discord through ``window.harnessCode`` (a function the
    test exposes)."""
    person = json.dumps({"id": str(user.id), "username": user.name, "discriminator": "0",
                         "avatar": None, "public_flags": 0, "global_name": user.name})
    return f"""<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><style>
html, body {{ margin: 0; height: 100%; background: #000; }}
iframe {{ border: 0; width: 100%; height: 100%; display: block; }}
</style></head><body>
<iframe id="activity" src="{activity_url}" allow="autoplay"></iframe>
<script>
const user = {person};
const answers = {{
  AUTHORIZE: async () => ({{code: await window.harnessCode()}}),
  AUTHENTICATE: async (args) => ({{access_token: args.access_token, user,
    scopes: ['identify'], expires: new Date(Date.now() + 604800000).toISOString(),
    application: {{id: '{client_id}', name: 'Deckhand', description: '', icon: null,
      rpc_origins: []}}}}),
  SUBSCRIBE: async (args, payload) => ({{evt: payload.evt}}),
  UNSUBSCRIBE: async (args, payload) => ({{evt: payload.evt}}),
  CAPTURE_LOG: async () => null,
  GET_INSTANCE_CONNECTED_PARTICIPANTS: async () => ({{participants: [user]}}),
  GET_PLATFORM_BEHAVIORS: async () => ({{}}),
  SET_CONFIG: async () => ({{use_interactive_pip: false}}),
  SET_ACTIVITY: async (args) => ({{...args.activity, name: 'Deckhand', type: 0,
    application_id: '{client_id}'}}),
  OPEN_INVITE_DIALOG: async () => ({{}}),
  OPEN_SHARE_MOMENT_DIALOG: async () => ({{}}),
}};
window.commandsSeen = [];
// every command with its arguments (SET_ACTIVITY's presence, a share's mediaUrl), and an
// event sent as Discord's client sends one (ACTIVITY_JOIN: a join from someone's presence)
window.commandArgs = [];
window.sdkEvent = (evt, data) => document.getElementById('activity').contentWindow
  .postMessage([1, {{cmd: 'DISPATCH', evt, nonce: null, data}}], '*');
window.addEventListener('message', async (event) => {{
  const frame = document.getElementById('activity').contentWindow;
  if (event.source !== frame || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === 0) {{
    frame.postMessage([1, {{cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {{v: 1,
      config: {{cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api',
        environment: 'production'}}}}}}], '*');
    return;
  }}
  if (opcode !== 1) return;
  window.commandsSeen.push(payload.cmd);
  window.commandArgs.push({{cmd: payload.cmd, evt: payload.evt || null,
    args: payload.args || {{}}}});
  const answer = answers[payload.cmd];
  const data = answer ? await answer(payload.args || {{}}, payload) : {{}};
  frame.postMessage([1, {{cmd: payload.cmd, evt: null, nonce: payload.nonce, data}}], '*');
}});
</script></body></html>"""


class Truth:
    """What each viewer may see at every version of every table, kept by a listener of the
    table service (the bot runs in this process): the card codes of the public view and of
    each seat's own view."""

    def __init__(self, site: Site) -> None:
        self.manager = site.world.bot.manager
        self.public: dict[tuple[int, int], set[str]] = {}
        self.own: dict[tuple[int, int, int], set[str]] = {}
        self.manager.listeners.insert(0, self.record)
        for table in self.manager.tables.values():
            self.keep(table)

    async def record(self, update: Any) -> None:
        table = self.manager.live(update.table_id)
        if table is not None:
            self.keep(table)

    def keep(self, table: Any) -> None:
        state = table.state
        if state is None:
            return
        key = (table.id, table.version)
        if key in self.public:
            return
        self.public[key] = codes_in(state.view(None).to_dict())
        for seat in range(state.players):
            self.own[(table.id, table.version, seat)] = codes_in(state.view(seat).to_dict())

    def leaks(self, viewer: Viewer, seat: int | None) -> list[str]:
        """Every card code in a table message this viewer received that neither the public
        view nor the viewer's own view (``seat``) showed at that message's version."""
        for table in self.manager.tables.values():
            self.keep(table)
        found = []
        for message in viewer.tables:
            key = (message["table"], message["version"])
            assert key in self.public or message["status"] == "lobby", key
            allowed = self.public.get(key, set())
            if seat is not None:
                allowed = allowed | self.own.get((*key, seat), set())
            extra = codes_in(message) - allowed
            if extra:
                found.append(f"version {key[1]}: {sorted(extra)}")
        return found


async def fill_lobby(world: World, humans: list[SimUser], seats: int,
                     options: dict[str, str], join: bool = True) -> None:
    """An open lobby (the first of ``humans`` its host) made ready and started through the
    chat as people do: joins, computers for the rest, options through the menus, Start
    (tests/bot/test_e2e_games.py's open_table after its /play); ``join``: the people other
    than the host join first (else they have)."""
    sim, host = world.sim, humans[0]
    for user in humans[1:] if join else []:
        table = world.table_message()
        r = await sim.click(user, table, button(table, "join")["custom_id"])
        assert r.status == "ok", r
    for _ in range(seats - len(humans)):
        table = world.table_message()
        r = await sim.click(host, table, button(table, "addc")["custom_id"])
        assert r.status == "ok", r
    if options:
        await choose_options(sim, host, world.table_message(), options)
    await sim.settle()
    table = world.table_message()
    r = await sim.click(host, table, button(table, "start")["custom_id"])
    assert r.status == "ok", r
    await sim.settle()
