"""The simulated Discord's faults: 500s and 429s (per route and global) a test injects, the
requests it refused, the invalid requests it counts, and its global limit (off by default)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord_sim import SimulatedDiscord
from tests.discord_sim.faults import GLOBAL_PER_SECOND
from tests.test_discord_sim import SampleBot, World, raw

CHANNEL = "/channels/{channel_id}"
MESSAGES = "/channels/{channel_id}/messages"


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
    assert headers["X-RateLimit-Global"] == "true"
    # the interaction's callback and its follow-up (through its token) are exempt
    r = await sim.slash(alice, channel, "hand", {})
    assert r.status == "ok" and [q.status for q in r.responses] == [200, 200]
    assert len(sim.faults.refused) == 2 and sim.faults.invalid() == 2
    # a second later the window has room again
    sim.advance_time(1.0)
    assert (await raw(sim, "GET", f"/channels/{channel.id}"))[0] == 200
