"""The web table's sockets under control (issue #48): a token bucket per socket, caps of
sockets per person and in all, the frame size, a yield between messages, a free second
watch, a run-out session closed, deep JSON answered, half-open requests closed, and the
session kept out of the socket's URL."""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import math
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web as web_module

from bot.web import viewers as viewers_module
from bot.web.app import PROTOCOL, WebServer, create_app, session_protocols
from bot.web.auth import SESSION_SECONDS
from bot.web.viewers import (
    FULL_CLOSE,
    MESSAGE_BURST,
    MESSAGE_RATE,
    OPENS_BURST,
    OPENS_RATE,
    POLICY_CLOSE,
    SIGNED_OUT_CLOSE,
    SOCKETS_PER_PERSON,
    Bucket,
    Person,
    Viewer,
)
from games import wording
from tests.web.helpers import Socket, site


class Clock:
    """A clock a test moves."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _closed(socket: Socket) -> int | None:
    """The close code of a socket the server closes (waiting for it)."""
    await asyncio.wait_for(asyncio.gather(socket._reader, return_exceptions=True), 10)
    return socket.ws.close_code


def test_the_bucket_holds_a_burst_then_the_rate() -> None:
    clock = Clock()
    bucket = Bucket(2.0, 3.0, clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.5  # one token back
    assert [bucket.take() for _ in range(2)] == [True, False]
    clock.now += 100.0  # never more than the burst
    assert sum(bucket.take() for _ in range(10)) == 3


async def test_a_socket_past_its_bucket_is_told_and_closed_with_1008(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        clock = Clock()
        web.server.viewers.clock = clock
        bob = await web.viewer(people["Bob"])
        burst = int(MESSAGE_BURST) - 1  # (the hello costs nothing; every message one token)
        for _ in range(burst):
            await bob.send({"type": "ping"})
        await bob.wait_for(lambda m: len(bob.types()) > burst)
        assert bob.types().count("pong") == burst
        clock.now += 2 / MESSAGE_RATE  # two more tokens
        for _ in range(3):
            await bob.send({"type": "ping"})
        told = await bob.next("error") if "error" not in bob.types() else \
            next(m for m in bob.received if m.get("type") == "error")
        assert (told["code"], told["message"]) == ("too-fast", wording.text("web-too-fast", "en"))
        assert await _closed(bob) == POLICY_CLOSE
        assert bob.types().count("pong") == burst + 2
        # others go on: Aiko's socket answers as ever
        aiko = await web.viewer(people["Aiko"])
        assert (await aiko.request({"type": "ping"}, "pong")) == {"type": "pong"}


async def test_sockets_are_capped_per_person_and_in_all(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        signed = await web.sign_in(people["Bob"])
        instance = web.sim.add_activity_instance(web.channel, [people["Bob"], people["Aiko"]])
        bobs = [await web.connect(signed["session"], instance) for _ in range(SOCKETS_PER_PERSON)]
        assert all(s.received[0]["type"] == "hello" for s in bobs)
        extra = await web.connect(signed["session"], instance)
        assert extra.received[0] == {"type": "error", "code": "too-many-sockets",
                                     "message": wording.text("web-too-many-sockets", "en")}
        assert await _closed(extra) == POLICY_CLOSE
        assert web.server.viewers.by_person[int(people["Bob"].id)] == SOCKETS_PER_PERSON
        await bobs[0].close()
        for _ in range(100):  # the closed one is counted out, so one more may open
            if web.server.viewers.by_person[int(people["Bob"].id)] < SOCKETS_PER_PERSON:
                break
            await asyncio.sleep(0.01)
        again = await web.connect(signed["session"], instance)
        assert again.received[0]["type"] == "hello"
        # in all: past the process's cap anybody is turned away with 1013, in their language
        monkeypatch.setattr(viewers_module, "SOCKETS_IN_ALL", web.server.viewers.count)
        aiko = await web.viewer(people["Aiko"], instance)
        assert aiko.received[0] == {"type": "error", "code": "full",
                                    "message": wording.text("web-full", "ja")}
        assert await _closed(aiko) == FULL_CLOSE


async def test_a_person_opening_socket_after_socket_is_held_to_a_rate(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        clock = Clock()
        web.server.viewers.clock = clock
        signed = await web.sign_in(people["Bob"])
        instance = web.sim.add_activity_instance(web.channel, [people["Bob"], people["Aiko"]])
        for _ in range(int(OPENS_BURST)):  # each closed again: the cap of open ones is not met
            opened = await web.connect(signed["session"], instance)
            assert opened.received[0]["type"] == "hello"
            await opened.close()
        # refused before the upgrade: 429, when to try again, and why in the person's language
        refused = await web.http.get(
            f"{web.base}/.proxy/ws?instance_id={instance}&channel_id={web.channel.id}",
            headers={"Sec-WebSocket-Protocol": ", ".join(session_protocols(signed["session"]))})
        assert refused.status == 429
        assert refused.headers["Retry-After"] == str(math.ceil(1 / OPENS_RATE))
        assert (await refused.json())["message"] == wording.text("web-too-many-opens", "en")
        with pytest.raises(aiohttp.WSServerHandshakeError) as raised:
            await web.connect(signed["session"], instance)
        assert raised.value.status == 429
        aiko = await web.viewer(people["Aiko"], instance)  # someone else is not held up
        assert aiko.received[0]["type"] == "hello"
        # a socket turned away leaves nothing behind (aiohttp's heartbeat, armed again by the
        # peer's closing frame, would hold each for 30 s or more)
        def sockets() -> set[int]:
            gc.collect()
            return {id(o) for o in gc.get_objects() if isinstance(o, web_module.WebSocketResponse)}

        before = sockets()
        for _ in range(20):
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await web.connect(signed["session"], instance)
        await asyncio.sleep(0.1)
        assert sockets() - before == set()
        clock.now += 1 / OPENS_RATE  # one more a while later
        again = await web.connect(signed["session"], instance)
        assert again.received[0]["type"] == "hello"
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await web.connect(signed["session"], instance)


async def test_a_big_frame_closes_the_socket_and_deep_json_is_a_bad_message(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        bob = await web.viewer(people["Bob"])
        deep = await bob.request("[" * 4000, "error")  # within the size, past json's depth
        assert (deep["code"], deep["message"]) == (
            "bad-message", wording.text("web-bad-message", "en"))
        assert (await bob.request({"type": "ping"}, "pong")) == {"type": "pong"}
        await bob.send("[" * 100_000)
        assert await _closed(bob) == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        for path in ("/.proxy/api/token", "/api/token"):
            answer = await web.http.post(web.base + path, data="[" * 4000,
                                         headers={"Content-Type": "application/json"})
            assert answer.status == 400, await answer.text()
            assert await answer.json() == {"error": "bad-request"}


async def test_the_reader_yields_to_the_loop_between_messages(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        viewers = web.server.viewers
        viewers.clock = Clock()
        bob = await web.viewer(people["Bob"])
        turns = 0
        seen: list[int] = []

        async def spin() -> None:
            nonlocal turns
            while True:
                turns += 1
                await asyncio.sleep(0)

        received = viewers.receive

        async def counted(viewer: Viewer, data: str) -> None:
            seen.append(turns)
            await received(viewer, data)

        viewers.receive = counted  # type: ignore[method-assign]
        spinner = asyncio.create_task(spin())
        try:
            for _ in range(20):  # written at once: the server finds them all queued
                await bob.send({"type": "ping"})
            await bob.wait_for(lambda m: bob.types().count("pong") >= 20)
        finally:
            spinner.cancel()
        assert len(seen) == 20
        # between two messages the loop went round (the spinner ran): no run of messages
        # answered in one go
        assert all(b > a for a, b in itertools.pairwise(seen)), seen


async def test_a_second_watch_while_the_first_is_answered_costs_nothing(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        aiko, bob = int(people["Aiko"].id), int(people["Bob"].id)
        # two people and no computer: nothing moves while the test watches
        table = await web.manager.open(int(web.guild.id), int(web.channel.id), "spar", aiko,
                                       "Aiko", seed=3)
        await web.manager.join(table.table_id, bob, "Bob")
        await web.manager.start(table.table_id, aiko)
        # the position a watch message names, as the socket takes it for Bob
        table = await web.manager.position_for(table.table_id, bob)
        viewers = web.server.viewers
        calls = 0
        taken = viewers.sent

        def counted(call: Any) -> Any:
            async def wrapped(*args: Any, **kwargs: Any) -> Any:
                nonlocal calls
                calls += 1
                return await call(*args, **kwargs)
            return wrapped

        # a watch takes no position of its own: it shows the one it is given
        for name in ("position", "position_for", "latest", "at", "tables_in"):
            setattr(web.manager, name, counted(getattr(web.manager, name)))
        held = asyncio.Event()
        written: list[str] = []

        async def slow(text: str) -> None:  # a page that reads nothing yet
            await held.wait()
            written.append(text)

        async def close(**_: Any) -> None:
            return None

        person = Person(bob, "Bob", "en")
        viewer = Viewer(person, table.channel_id, slow, close)
        viewer.writer = asyncio.create_task(viewer.write())
        for _ in range(10):
            await viewers.watch(viewer, table)
            await asyncio.sleep(0)
        assert (calls, viewers.sent - taken) == (0, 1)
        held.set()
        for _ in range(100):
            if written:
                break
            await asyncio.sleep(0.01)
        assert [json.loads(t)["version"] for t in written] == [table.version]
        await viewers.watch(viewer, table)  # once sent, a watch shows the table again
        assert (calls, viewers.sent - taken) == (0, 2)
        viewer.closed = True
        viewer.ready.set()
        await asyncio.wait_for(viewer.writer, 5)


async def test_a_socket_whose_session_ran_out_is_closed(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        viewers = web.server.viewers
        wall = Clock(time.time())
        viewers.wall = wall
        aiko, bob = await web.viewer(people["Aiko"]), await web.viewer(people["Bob"])
        assert await viewers.sweep() == 0
        wall.now += SESSION_SECONDS + 1
        # a message after the session ran out is not answered: the socket is closed
        await aiko.send({"type": "ping"})
        told = await aiko.next("error")
        assert (told["code"], told["message"]) == (
            "signed-out", wording.text("web-signed-out", "ja"))
        assert await _closed(aiko) == SIGNED_OUT_CLOSE
        assert "pong" not in aiko.types()
        # a socket that sends nothing is closed by the sweep
        assert await viewers.sweep() == 1
        assert (await bob.next("error"))["code"] == "signed-out"
        assert await _closed(bob) == SIGNED_OUT_CLOSE



async def test_the_session_travels_in_the_subprotocol_never_in_the_url(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        signed = await web.sign_in(people["Bob"])
        instance = web.sim.add_activity_instance(web.channel, [people["Bob"]])
        good = await web.connect(signed["session"], instance)
        assert good.received[0]["type"] == "hello"
        assert good.ws.protocol == PROTOCOL
        ws = await web.http.ws_connect(
            f"{web.base}/.proxy/ws?session={signed['session']}&instance_id={instance}"
            f"&channel_id={web.channel.id}")
        in_url = Socket(ws)
        web.sockets.append(in_url)
        told = await in_url.wait_for(lambda m: m.get("type") in ("hello", "error"))
        assert told["code"] == "signed-out"


async def test_half_open_requests_are_closed_after_the_request_time(tmp_path: Path) -> None:
    async with site(tmp_path, Bob="en-US") as (web, _people):
        server = WebServer(create_app(web.manager, _Settings(), _NoAuth(), _NoAvatars()),
                           "127.0.0.1", 0, request_seconds=0.3)
        await server.start()
        try:
            opened = []
            for n in range(20):
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                # half a request's head (or nothing at all), never finished
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n" if n % 2 else b"")
                await writer.drain()
                opened.append((reader, writer))
            began = asyncio.get_running_loop().time()
            for reader, writer in opened:
                assert await asyncio.wait_for(reader.read(), 10) == b""
                writer.close()
            assert asyncio.get_running_loop().time() - began < 5
        finally:
            await server.stop()


class _Settings:
    client_id = 1
    dev = True


class _NoAuth:
    async def close(self) -> None:
        return None


class _NoAvatars:
    def get(self, user_id: int | None) -> bytes | None:
        return None
