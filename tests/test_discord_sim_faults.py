"""The simulated Discord's faults: 500s and 429s (per route and global) a test injects, the
requests it refused, the invalid requests it counts, its global limit and its per-route buckets
(both off by default)."""

from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator

import pytest

from tests.discord_sim import SimulatedDiscord
from tests.discord_sim.faults import GLOBAL_PER_SECOND, RouteLimit
from tests.test_discord_sim import SampleBot, World, raw

CHANNEL = "/channels/{channel_id}"
MESSAGES = "/channels/{channel_id}/messages"
POSTS = f"POST {MESSAGES}"


@pytest.fixture
async def world() -> AsyncIterator[World]:
    """A running simulation with one guild, one channel and Alice (discord.py's warnings
    about the 429s are expected here)."""
    async with SimulatedDiscord(interaction_deadline=3.0) as sim:
        guild = sim.add_guild("Test Server", locale="en-US")
        channel = sim.add_channel(guild, "cards")
        alice = sim.add_user("Alice", locale="en-US")
        sim.add_member(guild, alice)
        yield sim, guild, channel, alice
        await sim.settle()
        assert sim.client_errors == []


async def test_a_route_answers_429_with_its_bucket_for_the_next_requests(world: World) -> None:
    sim, _, channel, _ = world
    fault = sim.faults.rate_limit(routes=[f"GET {CHANNEL}"], count=2, retry_after=0.25)
    for _ in range(2):
        status, body, headers = await raw(sim, "GET", f"/channels/{channel.id}")
        assert status == 429
        assert body == {"message": "You are being rate limited.", "retry_after": 0.25,
                        "global": False}
        assert headers["X-RateLimit-Scope"] == "user"
        assert headers["X-RateLimit-Remaining"] == "0"
        assert headers["X-RateLimit-Reset-After"] == "0.250"
        assert headers["X-RateLimit-Bucket"] and headers["Retry-After"] == "1"
        assert headers["Via"] and "X-RateLimit-Global" not in headers
    # another route, another method: not limited; the third request: answered
    assert (await raw(sim, "GET", f"/channels/{channel.id}/messages"))[0] == 200
    assert (await raw(sim, "GET", f"/channels/{channel.id}"))[0] == 200
    assert len(fault.refused) == len(sim.faults.refused) == 2
    assert [q.status for q in sim.requests] == [429, 429, 200, 200]
    assert sim.faults.invalid() == 2


async def test_a_global_429_names_itself_and_no_bucket(world: World) -> None:
    sim, _, channel, _ = world
    sim.faults.rate_limit(scope="global", count=1, retry_after=1.5)
    status, body, headers = await raw(sim, "GET", f"/channels/{channel.id}")
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 1.5,
                    "global": True}
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "2"
    assert "X-RateLimit-Bucket" not in headers


async def test_a_500_lasts_its_window_of_the_simulations_clock(world: World) -> None:
    sim, _, channel, _ = world
    sim.faults.fail(500, routes=[MESSAGES], seconds=30.0)
    for method in ("GET", "POST"):
        status, body, _ = await raw(sim, method, f"/channels/{channel.id}/messages",
                                    json={"content": "hi"} if method == "POST" else None)
        assert status == 500 and body == {"message": "500: Internal Server Error", "code": 0}
    assert sim.messages(channel) == []  # a refused request did nothing
    sim.advance_time(31.0)
    assert (await raw(sim, "POST", f"/channels/{channel.id}/messages",
                      json={"content": "hi"}))[0] == 200
    assert sim.faults.invalid() == 0  # a 500 is Discord's fault, not an invalid request
    sim.faults.fail(503)
    assert (await raw(sim, "GET", f"/channels/{channel.id}"))[0] == 503
    sim.faults.clear()
    assert (await raw(sim, "GET", f"/channels/{channel.id}"))[0] == 200


async def test_invalid_requests_are_counted_for_ten_minutes(world: World) -> None:
    sim, _, channel, _ = world
    await raw(sim, "GET", f"/channels/{channel.id}", headers={"Authorization": "Bot wrong"})
    sim.faults.rate_limit(count=1)
    await raw(sim, "GET", f"/channels/{channel.id}")
    sim.faults.rate_limit(count=1, scope="shared")  # Discord does not count these
    await raw(sim, "GET", f"/channels/{channel.id}")
    assert [q.status for q in sim.requests] == [401, 429, 429]
    assert sim.faults.invalid() == 2
    sim.advance_time(599.0)
    assert sim.faults.invalid() == 2
    sim.advance_time(2.0)
    assert sim.faults.invalid() == 0


async def test_bad_faults_are_refused(world: World) -> None:
    sim = world[0]
    with pytest.raises(ValueError, match="scope"):
        sim.faults.rate_limit(scope="everyone")
    with pytest.raises(ValueError, match="count"):
        sim.faults.fail(count=0)
    with pytest.raises(ValueError, match="retry_after"):
        sim.faults.rate_limit(retry_after=float("nan"))


async def test_discord_py_waits_retry_after_then_succeeds(world: World) -> None:
    sim, _, channel, _ = world
    bot = SampleBot()
    await sim.start(bot)
    sim.faults.rate_limit(routes=[f"POST {MESSAGES}"], count=1, retry_after=0.3)
    sim.faults.fail(500, routes=[f"PATCH {MESSAGES}/{{message_id}}"], count=1)
    where = bot.get_partial_messageable(int(channel.id))
    sent = await where.send("hello")
    await sent.edit(content="hello again")
    posts = [q for q in sim.requests if q.method == "POST" and q.route == MESSAGES]
    assert [q.status for q in posts] == [429, 200]
    assert posts[1].time - posts[0].time >= 0.3
    edits = [q for q in sim.requests if q.method == "PATCH"]
    assert [q.status for q in edits] == [500, 200]
    assert edits[1].time - edits[0].time >= 1.0  # discord.py's own pause after a 500
    assert sim.last_message(channel).content == "hello again"  # type: ignore[union-attr]
    assert any("rate limited" in w for w in sim.client_warnings)


async def test_a_global_429_holds_every_route_of_discord_py(world: World) -> None:
    sim, _, channel, _ = world
    bot = SampleBot()
    await sim.start(bot)
    sim.faults.rate_limit(scope="global", routes=[f"POST {MESSAGES}"], count=1,
                          retry_after=0.4)
    where = bot.get_partial_messageable(int(channel.id))
    first = await where.send("one")
    await first.edit(content="two")
    posts = [q for q in sim.requests if q.method == "POST" and q.route == MESSAGES]
    edit = next(q for q in sim.requests if q.method == "PATCH")
    assert [q.status for q in posts] == [429, 200]
    assert posts[1].time - posts[0].time >= 0.4 and edit.status == 200
    assert any("Global rate limit" in w for w in sim.client_warnings)


async def test_the_global_limit_is_off_unless_asked(world: World) -> None:
    sim, _, channel, _ = world
    assert sim.faults.global_limit is None
    for _ in range(GLOBAL_PER_SECOND + 10):
        await raw(sim, "GET", f"/channels/{channel.id}")
    assert {q.status for q in sim.requests} == {200}


async def test_the_global_limit_refuses_the_bots_requests_but_not_interactions(
        world: World) -> None:
    sim, _, channel, alice = world
    bot = SampleBot()
    await sim.start(bot)
    sim.faults.global_limit = 3
    start = len(sim.requests)
    for _ in range(4):
        await raw(sim, "GET", f"/channels/{channel.id}")
    status, body, headers = await raw(sim, "GET", f"/channels/{channel.id}")
    assert status == 429
    assert [q.status for q in sim.requests[start:]] == [200, 200, 200, 429, 429]
    assert isinstance(body, dict) and body["global"] is True and 0 < body["retry_after"] <= 1
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1" and headers["Via"]
    assert "X-RateLimit-Bucket" not in headers
    # the interaction's callback and its follow-up (through its token) are exempt
    r = await sim.slash(alice, channel, "hand", {})
    assert r.status == "ok" and [q.status for q in r.responses] == [200, 200]
    assert len(sim.faults.refused) == 2 and sim.faults.invalid() == 2
    # a second later the window has room again
    sim.advance_time(1.0)
    assert (await raw(sim, "GET", f"/channels/{channel.id}"))[0] == 200


async def test_interaction_routes_take_nothing_from_the_global_limit(world: World) -> None:
    sim, _, channel, alice = world
    bot = SampleBot()
    await sim.start(bot)
    sim.faults.global_limit = 2
    start = len(sim.requests)
    # callbacks and follow-ups first: had they counted, the window would be full
    for _ in range(2):
        r = await sim.slash(alice, channel, "hand", {})
        assert [q.status for q in r.responses] == [200, 200]
    status, _, _ = await raw(sim, "POST", f"/webhooks/{sim.application_id}/{r.token}",
                             json={"content": "and a third thought"})
    assert status == 204  # (no ?wait=true: Discord answers nothing)
    counted = [q for q in sim.requests[start:] if q.route.startswith("/channels/")]
    assert counted == []  # (discord.py sent nothing else that counts meanwhile)
    for _ in range(2):
        assert (await raw(sim, "GET", f"/channels/{channel.id}"))[0] == 200
    assert (await raw(sim, "GET", f"/channels/{channel.id}"))[0] == 429
    assert sim.faults.invalid() == 1


async def test_route_buckets_are_off_unless_asked(world: World) -> None:
    sim, _, channel, _ = world
    assert sim.faults.route_limits is False
    for _ in range(7):
        status, _, headers = await raw(sim, "POST", f"/channels/{channel.id}/messages",
                                       json={"content": "hi"})
        assert status == 200 and headers["X-RateLimit-Remaining"] == "49"
    assert len(sim.messages(channel)) == 7


async def test_a_buckets_remaining_counts_down_and_resets_after_its_window(
        world: World) -> None:
    sim, guild, channel, _ = world
    sim.faults.route_limits = True
    path = f"/channels/{channel.id}/messages"
    seen = []
    for _ in range(3):
        status, _, headers = await raw(sim, "POST", path, json={"content": "hi"})
        assert status == 200
        seen.append(headers)
    assert [h["X-RateLimit-Remaining"] for h in seen] == ["4", "3", "2"]
    assert {h["X-RateLimit-Limit"] for h in seen} == {"5"}
    assert {h["X-RateLimit-Scope"] for h in seen} == {"user"}
    assert len({h["X-RateLimit-Bucket"] for h in seen}) == 1
    waits = [float(h["X-RateLimit-Reset-After"]) for h in seen]
    assert 0 < waits[2] <= waits[1] <= waits[0] <= 5.0  # one window, opened by the first
    sim.advance_time(2.0)  # the reset comes nearer on the simulation's clock
    _, _, headers = await raw(sim, "POST", path, json={"content": "hi"})
    assert headers["X-RateLimit-Remaining"] == "1"
    assert 0 < float(headers["X-RateLimit-Reset-After"]) <= waits[2] - 2.0
    # another route is another bucket, with its own size and hash
    _, _, other = await raw(sim, "GET", f"/guilds/{guild.id}")
    assert other["X-RateLimit-Limit"] == "50" and other["X-RateLimit-Remaining"] == "49"
    assert other["X-RateLimit-Bucket"] != headers["X-RateLimit-Bucket"]
    sim.advance_time(3.0)  # the window is over: the bucket is whole again
    _, _, headers = await raw(sim, "POST", path, json={"content": "hi"})
    assert headers["X-RateLimit-Remaining"] == "4"
    assert float(headers["X-RateLimit-Reset-After"]) > 4.0
    assert sim.faults.refused == [] and sim.faults.invalid() == 0


async def test_a_sixth_message_in_five_seconds_is_refused_in_its_channel_only(
        world: World) -> None:
    sim, guild, channel, _ = world
    sim.faults.route_limits = True
    other = sim.add_channel(guild, "more-cards")
    path = f"/channels/{channel.id}/messages"
    for _ in range(5):
        assert (await raw(sim, "POST", path, json={"content": "hi"}))[0] == 200
    sim.advance_time(1.5)
    status, body, headers = await raw(sim, "POST", path, json={"content": "one too many"})
    assert status == 429
    assert isinstance(body, dict) and body["global"] is False
    assert 0 < body["retry_after"] <= 3.5  # the window's end, 5 s after the first
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "0"
    assert float(headers["X-RateLimit-Reset-After"]) == body["retry_after"]
    assert headers["Retry-After"] == str(math.ceil(body["retry_after"])) and headers["Via"]
    assert len(sim.messages(channel)) == 5  # the refused message was not posted
    assert sim.faults.refused == [sim.requests[-1]] and sim.faults.invalid() == 1
    # another channel's bucket is its own (the hash is the route's, as Discord's)
    status, _, elsewhere = await raw(sim, "POST", f"/channels/{other.id}/messages",
                                     json={"content": "hi"})
    assert status == 200 and elsewhere["X-RateLimit-Remaining"] == "4"
    assert elsewhere["X-RateLimit-Bucket"] == headers["X-RateLimit-Bucket"]
    # and so is an edit's in the same channel
    first = sim.messages(channel)[0]
    status, _, edit = await raw(sim, "PATCH", f"/channels/{channel.id}/messages/{first.id}",
                                json={"content": "edited"})
    assert status == 200 and edit["X-RateLimit-Remaining"] == "4"
    sim.advance_time(3.5)
    assert (await raw(sim, "POST", path, json={"content": "now"}))[0] == 200


async def test_an_interactions_token_keeps_its_own_bucket(world: World) -> None:
    sim, _, channel, alice = world
    bot = SampleBot()
    await sim.start(bot)
    sim.faults.route_limits = True
    first = await sim.slash(alice, channel, "hand", {})  # its follow-up takes one of 5
    second = await sim.slash(alice, channel, "hand", {})
    hook = f"/webhooks/{sim.application_id}"
    remaining = []
    for _ in range(4):
        status, _, headers = await raw(sim, "POST", f"{hook}/{first.token}",
                                       json={"content": "more"})
        assert status == 204  # (no ?wait=true: Discord answers nothing, but the headers)
        remaining.append(headers["X-RateLimit-Remaining"])
    assert remaining == ["3", "2", "1", "0"] and headers["X-RateLimit-Limit"] == "5"
    assert float(headers["X-RateLimit-Reset-After"]) <= 2.0
    status, body, refused = await raw(sim, "POST", f"{hook}/{first.token}",
                                      json={"content": "too many"})
    assert status == 429 and isinstance(body, dict) and body["global"] is False
    assert refused["X-RateLimit-Scope"] == "user"
    status, _, headers = await raw(sim, "POST", f"{hook}/{second.token}",
                                   json={"content": "more"})
    assert status == 204 and headers["X-RateLimit-Remaining"] == "3"
    # a callback has no bucket, whatever size a test gives its route: all are answered
    sim.faults.limits["POST /interactions/{interaction_id}/{interaction_token}/callback"] = (
        RouteLimit(1, 1.0))
    results = await asyncio.gather(*(sim.slash(alice, channel, "hand", {})
                                     for _ in range(6)))
    assert all(r.status == "ok" for r in results)
    assert len(sim.faults.refused) == 1 and sim.faults.invalid() == 1


async def test_discord_py_waits_out_a_bucket_and_is_never_refused(world: World) -> None:
    sim, _, channel, _ = world
    bot = SampleBot()
    await sim.start(bot)
    sim.faults.route_limits = True
    # Discord's size, a shorter window (discord.py sleeps on the real clock)
    sim.faults.limits[POSTS] = RouteLimit(5, 1.0)
    start = len(sim.requests)
    # another process with the same token took 3 of the channel's 5 first: discord.py knows
    # only what the headers tell it
    for _ in range(3):
        assert (await raw(sim, "POST", f"/channels/{channel.id}/messages",
                          json={"content": "elsewhere"}))[0] == 200
    where = bot.get_partial_messageable(int(channel.id))
    sent = await asyncio.gather(*(where.send(f"message {n}") for n in range(5)))
    await sent[0].edit(content="message 0, edited")
    posts = [q for q in sim.requests[start:] if q.method == "POST"]
    assert [q.status for q in posts] == [200] * 8
    assert posts[5].time - posts[0].time >= 1.0  # it waited for the window, told by Remaining
    assert [q for q in sim.requests[start:] if q.status == 429] == []
    assert sim.faults.refused == [] and sim.faults.invalid() == 0
    assert not any("rate limited" in w for w in sim.client_warnings)
    assert len(sim.messages(channel)) == 8
