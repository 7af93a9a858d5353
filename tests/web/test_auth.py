"""Signing in to the web table through the simulated Discord, and the socket's door."""

from __future__ import annotations

import logging
from pathlib import Path

import aiohttp
import pytest

from bot.config import ActivitySettings
from bot.storage.store import Storage
from bot.tables import TableManager
from bot.web.app import WebServer, create_app
from bot.web.auth import Auth, dev_user_id
from bot.web.viewers import Person
from games import wording
from tests.web.helpers import Socket, site


async def test_a_good_code_signs_the_person_in_and_their_socket_greets_them(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-GB") as (web, people):
        signed = await web.sign_in(people["Aiko"])
        assert signed["user"] == {"id": people["Aiko"].id, "name": "Aiko", "locale": "ja"}
        assert signed["access_token"] and signed["session"]
        instance = web.sim.add_activity_instance(web.channel, [people["Aiko"]])
        socket = await web.connect(signed["session"], instance)
        hello = socket.received[0]
        assert hello["type"] == "hello"
        assert hello["user"] == {"id": people["Aiko"].id, "name": "Aiko"}
        assert hello["lang"] == "ja"
        assert hello["words"]["play"] == wording.text("web-ui-play", "ja") == "出す"
        assert hello["words"]["your-turn"] == "あなたの番です"
        bob = await web.sign_in(people["Bob"])
        assert bob["user"]["locale"] == "en"
        assert web.sim.spec_errors == []


async def test_a_bad_code_or_a_used_one_signs_nobody_in(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja") as (web, people):
        answer = await web.http.post(web.base + "/api/token", json={"code": "not-a-code"},
                                     headers={"Accept-Language": "ja"})
        assert answer.status == 401
        body = await answer.json()
        assert body["error"] == "sign-in-failed"
        assert body["message"] == wording.text("web-signin-failed", "ja")
        code = web.sim.oauth_code(people["Aiko"])
        first = await web.http.post(web.base + "/api/token", json={"code": code})
        again = await web.http.post(web.base + "/api/token", json={"code": code})
        assert (first.status, again.status) == (200, 401)
        for bad in ({"code": 7}, {}, "[]"):
            answer = await web.http.post(web.base + "/api/token", json=bad)
            assert answer.status == 400


async def test_the_wrong_client_secret_is_refused_by_discord(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja") as (web, people):
        auth = Auth(int(web.sim.application_id), "not-the-secret", web.sim.token)
        try:
            with pytest.raises(Exception, match="code"):
                await auth.sign_in(web.sim.oauth_code(people["Aiko"]))
        finally:
            await auth.close()


async def test_an_instance_that_is_unknown_elsewhere_or_without_the_person_is_forbidden(
        tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="ja", Bob="en-US") as (web, people):
        aiko, bob = people["Aiko"], people["Bob"]
        session = (await web.sign_in(aiko))["session"]
        other = web.sim.add_channel(web.guild, "elsewhere")
        cases = {
            "unknown": ("i-0-gc-1-2", web.channel),
            "another channel": (web.sim.add_activity_instance(other, [aiko]), web.channel),
            "not in it": (web.sim.add_activity_instance(web.channel, [bob]), web.channel),
        }
        for what, (instance, channel) in cases.items():
            socket = await web.connect(session, instance, channel)
            assert socket.received[0]["type"] == "error", what
            assert socket.received[0]["code"] == "forbidden", what
            key = {"unknown": "web-instance-unknown", "another channel": "web-instance-elsewhere",
                   "not in it": "web-not-in-instance"}[what]  # one sentence per cause
            assert socket.received[0]["message"] == wording.text(key, "ja"), what
        good = await web.connect(session, web.sim.add_activity_instance(web.channel, [aiko, bob]))
        assert good.received[0]["type"] == "hello"
        assert web.sim.spec_errors == []


async def test_a_forged_altered_or_expired_session_is_signed_out(tmp_path: Path) -> None:
    async with site(tmp_path, Aiko="en-US") as (web, people):
        signed = await web.sign_in(people["Aiko"])
        instance = web.sim.add_activity_instance(web.channel, [people["Aiko"]])
        payload, mac = signed["session"].split(".")
        forged = Auth(1, "another-secret", "x").sign(Person(int(people["Aiko"].id), "A", "en"))
        for session in (forged, payload[:-2] + "AA." + mac, "nonsense", ""):
            socket = await web.connect(session, instance)
            assert socket.received[0]["code"] == "signed-out"
        auth = Auth(1, "secret", "x", session_seconds=60)
        person = Person(5, "Eve", "en")
        old = auth.sign(person, now=1000.0)
        assert auth.read(old, now=1059.0) == person
        assert auth.read(old, now=1061.0) is None


async def test_no_token_code_secret_or_session_reaches_a_log_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with site(tmp_path, Aiko="en-US") as (web, people):
        code = web.sim.oauth_code(people["Aiko"])
        answer = await web.http.post(web.base + "/api/token", json={"code": code})
        signed = await answer.json()
        instance = web.sim.add_activity_instance(web.channel, [people["Aiko"]])
        socket = await web.connect(signed["session"], instance)
        await socket.request({"type": "ping"}, "pong")
        await web.http.post(web.base + "/api/token", json={"code": "wrong-code-123456"})
        secrets = [code, signed["access_token"], signed["session"], web.sim.client_secret,
                   web.sim.token, "wrong-code-123456"]
    logged = "\n".join(record.getMessage() + repr(record.args) for record in caplog.records)
    assert "signed in user" in logged  # the sign-in was logged, without its secrets
    for secret in secrets:
        assert secret not in logged


async def test_development_mode_signs_in_by_name_and_skips_only_the_instance_check(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async with site(tmp_path, dev=True) as (web, _people):
        assert "DEVELOPMENT mode" in caplog.text
        answer = await web.http.post(web.base + "/api/dev-login",
                                     json={"name": "Dana", "locale": "ja"})
        body = await answer.json()
        assert body["user"] == {"id": str(dev_user_id("Dana")), "name": "Dana", "locale": "ja"}
        assert dev_user_id("Dana") == dev_user_id(" dana ")  # stable for the name
        socket = await web.connect(body["session"], "no-instance")
        assert socket.received[0]["type"] == "hello"
        signed_out = await web.connect("forged.session", "no-instance")
        assert signed_out.received[0]["code"] == "signed-out"  # sessions are still checked
    async with site(tmp_path / "off") as (web, _people):
        answer = await web.http.post(web.base + "/api/dev-login", json={"name": "Dana"})
        assert answer.status in (404, 405)


async def test_the_page_the_proxy_prefix_and_the_headers_for_discords_frame(
        tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    store = await Storage.open(str(tmp_path / "db.sqlite3"))
    manager = TableManager(store, ai_delay=0.0)
    settings = ActivitySettings(1, "secret", 0, "127.0.0.1")
    faces = _Avatars()
    server = WebServer(create_app(manager, settings, Auth(1, "secret", "token"),
                                  avatars=faces, static=static), "127.0.0.1", 0)
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    await manager.open(1, 2, "spar", 42, "Ann")  # avatars are looked up for seated people
    try:
        async with aiohttp.ClientSession() as http:
            missing = await http.get(base + "/.proxy/?frame_id=1&instance_id=2")
            assert missing.status == 503
            assert "npm run build" in await missing.text()
            (static / "index.html").write_text("<!doctype html><p>table</p>")
            (static / "app.js").write_text("console.log(1)")
            for path in ("/", "/.proxy/", "/?instance_id=2", "/.proxy/app.js"):
                page = await http.get(base + path)
                assert page.status == 200, path
            page = await http.get(base + "/.proxy/")
            policy = page.headers["Content-Security-Policy"]
            assert "frame-ancestors" in policy and "https://discord.com" in policy
            assert "https://*.discordsays.com" in policy
            assert "X-Frame-Options" not in page.headers
            assert page.headers["X-Content-Type-Options"] == "nosniff"
            for path in ("/../config.py", "/.proxy/%2e%2e/app.py", "/nothing.js"):
                assert (await http.get(base + path)).status == 404, path
            face = await http.get(base + "/.proxy/api/avatar/42")
            assert face.status == 200 and face.headers["Content-Type"] == "image/png"
            assert (await http.get(base + "/api/avatar/43")).status == 404
            assert faces.asked == [42]  # nobody unseated was looked up
            # what the page needs before signing in, its words in the browser's language
            config = await (await http.get(base + "/.proxy/api/config")).json()
            assert config["client_id"] == "1" and config["dev"] is False
            assert config["words"]["signin-button"] == "Sign in"
            japanese = await (await http.get(base + "/api/config", headers={
                "Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"})).json()
            assert japanese["words"]["signin-button"] == "サインイン"
            assert japanese["words"]["failed"].startswith("接続できませんでした")
    finally:
        await server.stop()
        await manager.close()
        await store.close()


class _Avatars:
    """Avatars kept for users 42 and 43."""

    def __init__(self) -> None:
        self.asked: list[int | None] = []

    def get(self, user_id: int | None) -> bytes | None:
        self.asked.append(user_id)
        if user_id == 43:
            return b"\x89PNG 43"
        return b"\x89PNG fake" if user_id == 42 else None


__all__ = ["Socket"]
