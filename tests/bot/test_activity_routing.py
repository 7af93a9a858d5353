"""Several processes on PostgreSQL: two real ``python -m bot`` processes, one shard each, against
the simulated Discord. A viewer whose socket reaches the process that does not own the table is
forwarded to the one that does: they see a move made in chat there, and their own move sent
through the first process is applied there. A process nobody has recorded is a clear error."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.client.deckhand import Deckhand
from bot.config import ConfigError, load
from bot.storage.db import POSTGRESQL
from bot.web.app import ServeFailed, session_protocols
from bot.web.auth import Auth
from bot.web.routing import FORWARD_PATH, HEADER, VOUCH_SECONDS, Router, router_of
from bot.web.viewers import Person
from tests.bot.conftest import Backend
from tests.bot.realbot import RealBot
from tests.bot.sim_helpers import button, is_alert, table_of, verb_of
from tests.bot.test_e2e_shards import guild_on_shard, people
from tests.discord_sim import SimChannel, SimulatedDiscord, SimUser
from tests.web.helpers import Socket, site


def free_port() -> int:
    """A port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def process(tmp_path: Path, sim: SimulatedDiscord, database: str, shard: int,
            port: int) -> RealBot:
    """A bot process running one shard of two, with its web table on ``port``."""
    folder = tmp_path / f"shard{shard}"
    folder.mkdir()
    return RealBot(folder, sim, DECKHAND_DB=database, DECKHAND_SHARDS=f"{shard}/2",
                   DISCORD_CLIENT_ID=sim.application_id,
                   DISCORD_CLIENT_SECRET=sim.client_secret,
                   DECKHAND_WEB_PORT=str(port), DECKHAND_WEB_HOST="127.0.0.1")


async def viewer(http: aiohttp.ClientSession, sim: SimulatedDiscord, port: int, user: SimUser,
                 channel: SimChannel, instance: str) -> Socket:
    """A person signed in at one process, their socket to it opened."""
    base = f"http://127.0.0.1:{port}/.proxy"
    answer = await http.post(base + "/api/token", json={"code": sim.oauth_code(user)})
    assert answer.status == 200, await answer.text()
    session = (await answer.json())["session"]
    ws = await http.ws_connect(f"{base}/ws?instance_id={instance}&channel_id={channel.id}",
                               protocols=session_protocols(session))
    opened = Socket(ws)
    await opened.wait_for(lambda m: m.get("type") in ("hello", "error"), timeout=20)
    return opened


async def chat_move(sim: SimulatedDiscord, user: SimUser, channel: SimChannel) -> None:
    """The person plays the first move of their hand's panel in the chat."""
    table = table_of(sim, channel)
    assert table is not None
    r = await sim.click(user, table, button(table, "hand")["custom_id"])
    panel = r.message
    assert panel is not None, r
    picks = [s for s in panel.selects() if verb_of(s["custom_id"]) == "pick"]
    acts = [b for b in panel.buttons() if verb_of(b["custom_id"]) == "act"]
    if picks:
        await sim.select(user, panel, picks[0]["custom_id"], [picks[0]["options"][0]["value"]])
    else:
        await sim.click(user, panel, acts[0]["custom_id"])


@pytest.mark.parametrize("backend", [POSTGRESQL], indirect=True)
async def test_a_viewer_of_another_process_watches_and_plays_through_it(
        tmp_path: Path, backend: Backend) -> None:
    assert backend.url is not None
    async with SimulatedDiscord(shards=2, activities=True) as sim:
        guild = await guild_on_shard(sim, 1, 2)  # its tables live in the process of shard 1
        channel = sim.add_channel(guild, "cards")
        alice, bob = people(sim, guild, ["Alice", "Bob"])
        port_a, port_b = free_port(), free_port()
        a = process(tmp_path, sim, backend.url, 0, port_a)
        b = process(tmp_path, sim, backend.url, 1, port_b)
        http = aiohttp.ClientSession()
        sockets: list[Socket] = []
        try:
            await a.start()
            # nobody has recorded shard 1's process yet: a clear error, and the socket closes
            early = await viewer(http, sim, port_a, alice, channel,
                                 sim.add_activity_instance(channel, [alice]))
            sockets.append(early)
            refused = early.received[0]
            assert refused["type"] == "error" and refused["code"] == "unavailable"
            assert "can't be reached" in refused["message"]

            await b.start()
            r = await sim.slash(alice, channel, "play", {"game": "spar"})
            assert r.status == "ok", r
            await sim.settle()
            lobby = table_of(sim, channel)
            assert lobby is not None
            await sim.click(bob, lobby, button(lobby, "join")["custom_id"])
            await sim.settle()
            await sim.click(alice, table_of(sim, channel), button(lobby, "start")["custom_id"])
            await sim.settle()
            # Alice opens the Activity from the table message (B answers the click), and her
            # page's socket reaches A
            # (its compact message in the channel: the whole table's is in the thread, where
            # Open table launches the Activity in the thread)
            playing = [m for m in sim.messages(channel) if not is_alert(m)][-1]
            r = await sim.click(alice, playing, button(playing, "open")["custom_id"])
            assert r.callback_type == 12 and r.activity_instance_id is not None, r
            watcher = await viewer(http, sim, port_a, alice, channel, r.activity_instance_id)
            sockets.append(watcher)
            assert watcher.received[0]["type"] == "hello", watcher.received[0]
            listing = await watcher.request({"type": "tables"}, "tables")
            [row] = listing["tables"]
            model: dict[str, Any] = await watcher.request(
                {"type": "watch", "table": row["id"]}, "table")
            assert model["you"]["seat"] is not None

            moved_in_chat = moved_on_web = False
            for _ in range(4):  # a move by each of them, whoever is due first
                version = model["version"]
                if model["you"]["may_act"]:
                    chat_before = json.dumps(table_of(sim, channel).raw)  # type: ignore[union-attr]
                    await watcher.send({"type": "act", "table": row["id"], "version": version,
                                        "move": model["you"]["moves"][0]["index"]})
                    model = await watcher.wait_for(
                        lambda m, v=version: m.get("type") == "table" and m["version"] > v,
                        timeout=20)
                    # applied by B, the only process holding the table: its chat message
                    # moves on too (within its edit gap)
                    for _ in range(50):  # (its edit gap: a second)
                        await asyncio.sleep(0.2)
                        if json.dumps(table_of(sim, channel).raw) != chat_before:  # type: ignore[union-attr]
                            break
                    else:
                        raise AssertionError("the chat's table did not show the web move")
                    moved_on_web = True
                else:
                    await chat_move(sim, bob, channel)  # made in the chat, on B
                    model = await watcher.wait_for(  # and seen on the socket through A
                        lambda m, v=version: m.get("type") == "table" and m["version"] > v,
                        timeout=20)
                    moved_in_chat = True
                if moved_in_chat and moved_on_web:
                    break
            assert moved_in_chat and moved_on_web
            assert not [m for m in watcher.received if m.get("type") == "error"]

            # B stops: a new viewer at A is told the table cannot be reached now
            await b.stop()
            gone = await viewer(http, sim, port_a, bob, channel,
                                sim.add_activity_instance(channel, [bob]))
            sockets.append(gone)
            assert gone.received[0]["code"] == "unavailable"
            assert a.errors() == [] and b.errors() == []
            assert sim.spec_errors == []
        finally:
            for opened in sockets:
                await opened.close()
            await http.close()
            for bot in (a, b):
                if bot.proc is not None and bot.proc.returncode is None:
                    await bot.stop()


# -- the parts, without processes --------------------------------------------------------------


class FakeRequest:
    """What :meth:`Router.vouched` reads of a request: its headers and query."""

    def __init__(self, headers: dict[str, str], query: dict[str, str]) -> None:
        self.headers = headers
        self.query = query


def router(secret: str = "secret") -> Router:
    """A router of shard 1 of 2 (its store is never asked here)."""

    async def nowhere(channel_id: int) -> int | None:
        return None

    return Router(None, secret, (1,), 2, nowhere)  # type: ignore[arg-type]


OWNER = "http://127.0.0.1:9001"


def owner(secret: str = "secret") -> Router:
    """A router whose listener is recorded at :data:`OWNER` (not started: only its vouches)."""
    made = router(secret)
    made.url = OWNER
    return made


def test_a_vouch_is_good_once_for_its_channel_and_process_and_briefly() -> None:
    alice = Person(123, "Alice", "ja")
    asked = {"channel_id": "77"}

    def signed() -> str:
        return router().vouch(alice, 77, OWNER, now=1000.0)

    assert owner().vouched(FakeRequest({HEADER: signed()}, asked), now=1005.0) == alice  # type: ignore[arg-type]
    for request, now in (
            (FakeRequest({HEADER: signed()}, {"channel_id": "78"}), 1005.0),  # another channel
            (FakeRequest({HEADER: signed()}, asked), 1000.0 + VOUCH_SECONDS + 1),  # too late
            (FakeRequest({HEADER: signed()[:-2] + "AA"}, asked), 1005.0),  # altered
            (FakeRequest({}, asked), 1005.0)):  # none
        assert owner().vouched(request, now=now) is None  # type: ignore[arg-type]
    other_secret = router("another").vouch(alice, 77, OWNER, now=1000.0)
    assert owner().vouched(FakeRequest({HEADER: other_secret}, asked), now=1005.0) is None  # type: ignore[arg-type]
    # for another process: a vouch taken off the wire is no good at a third one
    elsewhere = router().vouch(alice, 77, "http://127.0.0.1:9002", now=1000.0)
    assert owner().vouched(FakeRequest({HEADER: elsewhere}, asked), now=1005.0) is None  # type: ignore[arg-type]
    # once: the same vouch again is refused, a new one is taken
    the_owner, once = owner(), signed()
    assert the_owner.vouched(FakeRequest({HEADER: once}, asked), now=1005.0) == alice  # type: ignore[arg-type]
    assert the_owner.vouched(FakeRequest({HEADER: once}, asked), now=1006.0) is None  # type: ignore[arg-type]
    assert the_owner.vouched(FakeRequest({HEADER: signed()}, asked), now=1006.0) == alice  # type: ignore[arg-type]
    # a router that does not listen takes none
    assert router().vouched(FakeRequest({HEADER: signed()}, asked), now=1005.0) is None  # type: ignore[arg-type]


def test_a_session_is_no_vouch_and_a_vouch_no_session() -> None:
    alice = Person(123, "Alice", "en")
    auth = Auth(1, "secret", "token")
    session = auth.sign(alice)
    assert owner().vouched(FakeRequest({HEADER: session}, {"channel_id": "77"})) is None  # type: ignore[arg-type]
    assert auth.read(router().vouch(alice, 77, OWNER)) is None


class Routes:
    """The database's web routes, in memory."""

    def __init__(self) -> None:
        self.recorded: list[tuple[int, tuple[int, ...], str]] = []

    async def set_web_route(self, shard_count: int, shard_ids: tuple[int, ...],
                            url: str) -> None:
        self.recorded.append((shard_count, shard_ids, url))


async def test_the_processes_listener_takes_a_vouch_once_and_the_public_socket_none(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja") as (web, people):
        aiko = people["Aiko"]
        routes = Routes()

        async def nowhere(channel_id: int) -> int | None:
            return None

        listener = Router(routes, "secret", (1,), 2, nowhere)  # type: ignore[arg-type]
        await listener.start(web.server.viewers, None)
        try:
            assert listener.url is not None and listener.url != web.base
            assert routes.recorded == [(2, (1,), listener.url)]
            person = Person(int(aiko.id), "Aiko", "ja")
            vouch = router().vouch(person, int(web.channel.id), listener.url)
            address = f"{listener.url}{FORWARD_PATH}?channel_id={web.channel.id}"
            ws = await web.http.ws_connect(address, headers={HEADER: vouch})
            served = Socket(ws)
            web.sockets.append(served)
            hello = await served.wait_for(lambda m: m.get("type") in ("hello", "error"))
            assert hello["type"] == "hello" and hello["user"]["name"] == "Aiko"
            for headers in ({HEADER: vouch}, {}):  # spent, or none at all
                ws = await web.http.ws_connect(address, headers=headers)
                again = Socket(ws)
                web.sockets.append(again)
                refused = await again.wait_for(lambda m: m.get("type") in ("hello", "error"))
                assert refused["code"] == "forbidden"
            # the public socket takes no vouch, even a fresh one, nor a session beside one
            session = (await web.sign_in(aiko))["session"]
            instance = web.sim.add_activity_instance(web.channel, [aiko])
            fresh = router().vouch(person, int(web.channel.id), listener.url)
            ws = await web.http.ws_connect(
                f"{web.base}/.proxy/ws?instance_id={instance}&channel_id={web.channel.id}",
                headers={HEADER: fresh}, protocols=session_protocols(session))
            public = Socket(ws)
            web.sockets.append(public)
            first = await public.wait_for(lambda m: m.get("type") in ("hello", "error"))
            assert first["type"] == "error" and first["code"] == "forbidden"
        finally:
            await listener.close()


def test_the_owner_of_a_guild_is_its_shards_process() -> None:
    on_shard_1 = next(g for g in range(1 << 22, 1 << 30, 1 << 22) if (g >> 22) % 2 == 1)
    assert router().owns(on_shard_1) and not router().owns(on_shard_1 + (1 << 22))


@pytest.mark.parametrize(("db", "shards", "routed"), [
    ("deckhand.sqlite3", "1/2", False),  # SQLite: each process its own file, nothing shared
    ("postgresql://deckhand@127.0.0.1/deckhand", None, False),  # one process: every shard
    ("postgresql://deckhand@127.0.0.1/deckhand", "1/2", True),
])
def test_only_a_slice_of_shards_on_postgresql_routes(db: str, shards: str | None,
                                                      routed: bool) -> None:
    env = {"DISCORD_TOKEN": "t", "DECKHAND_DB": db, "DISCORD_CLIENT_ID": "1",
           "DISCORD_CLIENT_SECRET": "s", "DECKHAND_WEB_PORT": "0"}
    if shards:
        env["DECKHAND_SHARDS"] = shards
    settings = load(env)

    async def build() -> bool:
        bot = Deckhand(settings, None)  # type: ignore[arg-type]
        assert bot.activity_configured  # Open table and the entry point follow the settings
        return bot.router is not None and router_of(bot.web.app) is bot.router  # type: ignore[union-attr]

    assert asyncio.run(build()) is routed


def test_the_internal_address_setting() -> None:
    base = {"DISCORD_TOKEN": "t"}
    assert load(base).web_internal_url is None
    assert load({**base, "DECKHAND_WEB_INTERNAL_URL": "http://10.0.0.5:8080/"}
                ).web_internal_url == "http://10.0.0.5:8080"
    for bad in ("10.0.0.5:8080", "http://10.0.0.5:8080/ws", "ftp://x", "http://:80",
                "https://10.0.0.5:8081"):  # (the listener speaks plain http, privately)
        with pytest.raises(ConfigError, match="DECKHAND_WEB_INTERNAL_URL"):
            load({**base, "DECKHAND_WEB_INTERNAL_URL": bad})


async def test_a_forwarded_socket_ends_with_its_persons_session(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja") as (web, people):
        listener = Router(Routes(), "secret", (1,), 2, _nowhere)  # type: ignore[arg-type]
        await listener.start(web.server.viewers, None)
        try:
            assert listener.url is not None
            person = Person(int(people["Aiko"].id), "Aiko", "ja")
            address = f"{listener.url}{FORWARD_PATH}?channel_id={web.channel.id}"
            ended = int(time.time()) - 1  # the session it came with has just ended
            for until, answer in ((None, "pong"), (ended, "error")):
                vouch = router().vouch(person, int(web.channel.id), listener.url, until=until)
                served = Socket(await web.http.ws_connect(address, headers={HEADER: vouch}))
                web.sockets.append(served)
                await served.wait_for(lambda m: m.get("type") == "hello")
                reply = await served.request({"type": "ping"}, answer)
                assert answer == "pong" or reply["code"] == "signed-out"
        finally:
            await listener.close()


async def test_a_listener_address_in_use_is_one_sentence(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    listener = Router(Routes(), "secret", (1,), 2, _nowhere)  # type: ignore[arg-type]
    try:
        with pytest.raises(ServeFailed, match="DECKHAND_WEB_INTERNAL_URL") as failed:
            await listener.start(None, f"http://127.0.0.1:{taken.getsockname()[1]}")  # type: ignore[arg-type]
        assert "in use" in failed.value.sentence and listener.url is None
    finally:
        taken.close()
        await listener.close()


async def _nowhere(channel_id: int) -> int | None:
    return None
