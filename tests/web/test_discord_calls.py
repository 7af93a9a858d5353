"""Calls to Discord that nobody can multiply (#48): the web table's calls made for a page are
limited per client address, a spent code and an unknown instance are not asked again, Discord's
429 and Retry-After are honoured, its refusals counted and logged, a sign-in only from the
Activity's own pages, and the instance id kept to Discord's shape in its URL.

Discord here is a small fake that counts what reaches it; time is a clock the test moves."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.config import ActivitySettings
from bot.storage.store import Storage
from bot.tables import TableManager
from bot.web.app import WebServer, create_app, session_protocols
from bot.web.auth import UNKNOWN_KEPT, Auth
from bot.web.discord_calls import BURST, REFILL_SECONDS, Buckets, Gate, TryLater
from bot.web.viewers import Person
from games import wording

APP = 4242


class Clock:
    """Monotonic seconds a test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class FakeDiscord:
    """OAuth2's exchange, /users/@me and the instance check, counted. ``codes``: the good ones
    (each good once); ``instances``: id → (channel, user ids); ``answers``: route → the status
    (and headers, body) to answer instead, for every call while set."""

    codes: set[str] = field(default_factory=set)
    instances: dict[str, tuple[int, list[int]]] = field(default_factory=dict)
    answers: dict[str, tuple[int, dict[str, str], Any]] = field(default_factory=dict)
    calls: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)

    def count(self, route: str) -> int:
        return self.calls.count(route)

    def _instead(self, route: str) -> web.Response | None:
        found = self.answers.get(route)
        if found is None:
            return None
        status, headers, body = found
        return web.json_response(body, status=status, headers=headers)

    async def token(self, request: web.Request) -> web.Response:
        self.calls.append("oauth2/token")
        instead = self._instead("oauth2/token")
        if instead is not None:
            return instead
        code = (await request.post()).get("code")
        if code in self.codes:
            self.codes.discard(str(code))
            return web.json_response({"access_token": f"token-{code}"})
        return web.json_response({"error": "invalid_grant"}, status=400)

    async def me(self, request: web.Request) -> web.Response:
        self.calls.append("users/@me")
        instead = self._instead("users/@me")
        return instead or web.json_response({"id": "77", "username": "Ann", "locale": "en-US"})

    async def instance(self, request: web.Request) -> web.Response:
        self.calls.append("activity-instances")
        self.paths.append(request.raw_path)
        instead = self._instead("activity-instances")
        if instead is not None:
            return instead
        found = self.instances.get(request.match_info["id"])
        if found is None:
            return web.json_response({"message": "Unknown Activity Instance", "code": 10082},
                                     status=404)
        channel, users = found
        return web.json_response({"location": {"channel_id": str(channel)},
                                  "users": [str(u) for u in users]})


@dataclass
class Web:
    """The web table (its Auth on the fake Discord and the test's clock) and a client."""

    discord: FakeDiscord
    clock: Clock
    auth: Auth
    base: str
    http: aiohttp.ClientSession

    async def token(self, code: str, **headers: str) -> aiohttp.ClientResponse:
        answer = await self.http.post(self.base + "/.proxy/api/token", json={"code": code},
                                      headers=headers)
        await answer.read()
        return answer

    async def socket(self, person: Person, instance: str, channel: int = 55,
                     **headers: str) -> tuple[int, dict[str, Any] | None]:
        """Open a viewer's socket: (101 and its first message) or (the HTTP status, None)."""
        try:
            ws = await self.http.ws_connect(
                f"{self.base}/.proxy/ws?instance_id={instance}&channel_id={channel}",
                protocols=session_protocols(self.auth.sign(person)), headers=headers)
        except aiohttp.WSServerHandshakeError as refused:
            return refused.status, None
        first = await ws.receive_json(timeout=10)
        await ws.close()
        return 101, first


@asynccontextmanager
async def running(tmp_path: Path, dev: bool = False) -> AsyncIterator[Web]:
    discord = FakeDiscord()
    fake = web.Application()
    fake.router.add_post("/api/v10/oauth2/token", discord.token)
    fake.router.add_get("/api/v10/users/@me", discord.me)
    fake.router.add_get("/api/v10/applications/{app}/activity-instances/{id:.*}",
                        discord.instance)
    fake_runner = web.AppRunner(fake)
    await fake_runner.setup()
    site = web.TCPSite(fake_runner, "127.0.0.1", 0)
    await site.start()
    fake_port = fake_runner.addresses[0][1]
    tmp_path.mkdir(parents=True, exist_ok=True)
    clock = Clock()
    auth = Auth(APP, "secret", "bot-token", api_base=f"http://127.0.0.1:{fake_port}/api/v10",
                clock=clock)
    store = await Storage.open(str(tmp_path / "calls.sqlite3"))
    manager = TableManager(store, ai_delay=0.0)
    settings = ActivitySettings(APP, "secret", 0, "127.0.0.1", dev)
    server = WebServer(create_app(manager, settings, auth, avatars=_NoAvatars()),
                       "127.0.0.1", 0)
    await server.start()
    http = aiohttp.ClientSession()
    try:
        yield Web(discord, clock, auth, f"http://127.0.0.1:{server.port}", http)
    finally:
        await http.close()
        await server.stop()
        await manager.close()
        await store.close()
        await fake_runner.cleanup()


class _NoAvatars:
    def get(self, user_id: int | None) -> bytes | None:
        return None


ANN = Person(77, "Ann", "en")


async def test_fifty_sign_ins_from_one_address_make_a_bucket_of_calls(tmp_path: Path) -> None:
    async with running(tmp_path) as site:
        answers = [await site.token(f"bad-code-{n}", **{"Accept-Language": "ja"})
                   for n in range(50)]
        statuses = [a.status for a in answers]
        assert statuses[:int(BURST)] == [401] * int(BURST)
        assert set(statuses[int(BURST):]) == {429}
        assert site.discord.count("oauth2/token") == int(BURST)
        busy = answers[-1]
        assert int(busy.headers["Retry-After"]) >= 1
        body = await busy.json()
        assert body["error"] == "busy" and body["message"] == wording.text("web-busy", "ja")
        # another address behind the same reverse proxy has a bucket of its own
        other = await site.token("bad-code-x", **{"X-Forwarded-For": "198.51.100.7"})
        assert other.status == 401
        # and the first address gets a call again once its bucket refills
        site.clock.now += REFILL_SECONDS
        assert (await site.token("bad-code-y")).status == 401
        assert site.discord.count("oauth2/token") == int(BURST) + 2


async def test_a_code_discord_answered_is_never_sent_again(tmp_path: Path) -> None:
    async with running(tmp_path) as site:
        site.discord.codes.add("good")
        assert (await site.token("good")).status == 200
        for code in ("good", "good", "bad", "bad", "bad"):
            assert (await site.token(code)).status == 401
        assert site.discord.count("oauth2/token") == 2  # "good" once, "bad" once
        # a code Discord did not read (it answered 429) may be sent again after the wait
        site.discord.codes.add("later")
        site.discord.answers["oauth2/token"] = (429, {"Retry-After": "2"}, {"retry_after": 2})
        assert (await site.token("later")).status == 429
        del site.discord.answers["oauth2/token"]
        site.clock.now += 2.5
        assert (await site.token("later")).status == 200


async def test_an_unknown_instance_is_asked_once_a_while(tmp_path: Path) -> None:
    async with running(tmp_path) as site:
        results = [await site.socket(ANN, "i-1-gc-2-55") for _ in range(50)]
        assert all(status == 101 and first is not None and first["code"] == "forbidden"
                   for status, first in results)
        assert site.discord.count("activity-instances") == 1
        site.clock.now += UNKNOWN_KEPT + 1
        await site.socket(ANN, "i-1-gc-2-55")
        assert site.discord.count("activity-instances") == 2


async def test_fifty_sockets_with_unknown_instances_make_a_bucket_of_calls(
        tmp_path: Path) -> None:
    async with running(tmp_path) as site:
        results = [await site.socket(ANN, f"i-{n}-gc-2-55") for n in range(50)]
        assert site.discord.count("activity-instances") == int(BURST)
        assert [s for s, _ in results[int(BURST):]] == [429] * (50 - int(BURST))
        # the person in an instance there is still let in once the bucket refills
        site.discord.instances["i-9000-gc-2-55"] = (55, [77])
        site.clock.now += REFILL_SECONDS
        status, first = await site.socket(ANN, "i-9000-gc-2-55")
        assert status == 101 and first is not None and first["type"] == "hello"


async def test_discords_429_closes_the_route_until_retry_after(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    async with running(tmp_path) as site:
        site.discord.instances["i-5-gc-2-55"] = (55, [77])
        site.discord.answers["activity-instances"] = (
            429, {"Retry-After": "4", "X-RateLimit-Scope": "user"},
            {"message": "You are being rate limited.", "retry_after": 4.0, "global": False})
        status, _ = await site.socket(ANN, "i-5-gc-2-55")
        assert status == 429
        del site.discord.answers["activity-instances"]
        for _ in range(5):  # nothing reaches Discord on that route until the wait is over
            assert (await site.socket(ANN, "i-5-gc-2-55"))[0] == 429
        assert site.discord.count("activity-instances") == 1
        site.clock.now += 4.1
        status, first = await site.socket(ANN, "i-5-gc-2-55")
        assert status == 101 and first is not None and first["type"] == "hello"
        assert site.discord.count("activity-instances") == 2
        # a global 429 closes every route, sign-ins included
        site.discord.answers["users/@me"] = (
            429, {"Retry-After": "3", "X-RateLimit-Global": "true"}, {"global": True})
        site.discord.codes.update({"one", "two"})
        assert (await site.token("one")).status == 429
        assert (await site.token("two")).status == 429
        site.discord.instances["i-6-gc-2-55"] = (55, [77])
        assert (await site.socket(ANN, "i-6-gc-2-55"))[0] == 429
        assert site.discord.count("oauth2/token") == 1
        assert site.auth.gate.invalid == 2  # the two 429s, counted
    refusals = [r.getMessage() for r in caplog.records
                if "refused the web table's" in r.getMessage()]
    assert len(refusals) == 2 and "10000" in refusals[-1]


async def test_past_the_ceiling_of_refused_calls_none_is_made() -> None:
    clock = Clock()
    gate = Gate(clock, ceiling=3)
    for _ in range(3):
        gate.check("oauth2/token")
        gate.answered("oauth2/token", 401, {}, None)
    with pytest.raises(TryLater) as held:
        gate.check("activity-instances")
    assert 599 < held.value.seconds <= 600
    clock.now += 600.5
    gate.check("activity-instances")  # ten minutes on, the count has fallen


def test_a_bucket_refills_on_its_clock() -> None:
    clock = Clock()
    buckets = Buckets(2, 0.5, clock)
    buckets.take("a")
    buckets.take("a")
    with pytest.raises(TryLater) as held:
        buckets.take("a")
    assert held.value.seconds == pytest.approx(2.0)
    buckets.take("b")
    clock.now += 2.0
    buckets.take("a")


async def test_the_instance_id_is_discords_shape_and_escaped(tmp_path: Path) -> None:
    async with running(tmp_path) as site:
        for odd in ("a?with_bot=1", "..%2F..%2Fusers%2F%40me", "a#b", "a%20b", "i-1/x"):
            assert not await site.auth.in_instance(odd, 55, 77)
        assert site.discord.paths == []  # none of them was sent anywhere
        site.discord.instances["i-7-gc-2-55"] = (55, [77])
        assert await site.auth.in_instance("i-7-gc-2-55", 55, 77)
        assert site.discord.paths == [f"/api/v10/applications/{APP}/activity-instances/i-7-gc-2-55"]


async def test_a_sign_in_is_taken_only_from_the_activitys_own_pages(tmp_path: Path) -> None:
    async with running(tmp_path) as site:
        site.discord.codes.update({"c1", "c2", "c3"})
        evil = await site.token("c1", Origin="https://evil.example")
        assert evil.status == 403
        assert (await evil.json())["message"] == wording.text("web-bad-origin", "en")
        assert (await site.token("c1", Origin="null")).status == 403  # a sandboxed frame's
        assert site.discord.calls == []
        assert (await site.token("c1", Origin=f"https://{APP}.discordsays.com")).status == 200
        assert (await site.token("c2", Origin=site.base)).status == 200  # the server's own page
        assert (await site.token("c3")).status == 200  # no Origin: no browser's cross-site post
    async with running(tmp_path / "dev", dev=True) as site:
        site.discord.codes.add("c4")
        assert (await site.token("c4", Origin="https://evil.example")).status == 403
        assert (await site.token("c4", Origin=site.base)).status == 200
        login = await site.http.post(site.base + "/api/dev-login", json={"name": "Dana"},
                                     headers={"Origin": "https://evil.example"})
        assert login.status == 403
