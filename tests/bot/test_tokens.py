"""Requests through interactions' tokens, outside Discord's global limit (#52; cogs/tokens.py,
bot/budget.py), through the simulated Discord: turn alerts as follow-ups (they still notify),
deleted through the same token; the channel's message edited through /play's token; a token
past its time or refused is not used (the bot's own goes); and a table played under the
simulator's global limit with the bot's budget below it meets no global 429."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from cogs.tokens import FRESH
from tests.bot.sim_helpers import World, alerts_in, world
from tests.bot.test_e2e_games import open_table
from tests.bot.test_faults_discord import (
    CARDS,
    Played,
    bot_token_only,
    check_after,
    mentioned,
    play,
    retries_waited,
)
from tests.discord_sim import CapturedRequest, SimUser

FOLLOW_UP = "POST /webhooks/{webhook_id}/{webhook_token}"


def counted(requests: list[CapturedRequest]) -> list[CapturedRequest]:
    """The requests Discord counts against the bot's global limit (not an interaction's)."""
    return [q for q in requests if q.interaction_id is None]


def alert_requests(w: World, since: int) -> list[CapturedRequest]:
    """The requests that posted a turn alert (a Hand button) from ``since`` on."""
    return [q for q in w.sim.requests[since:] if q.method == "POST"
            and isinstance(q.json, dict) and '"dh:hand:' in json.dumps(q.json)]


async def two_moves_in(w: World) -> tuple[list[SimUser], Played]:
    """A table of High Card for the first two people, a move each made from their panels."""
    people = w.users[:2]
    await open_table(w, "high-card", people, 2, {"hand": CARDS})
    played = Played()
    await play(w, people, played, 2)
    await w.sim.settle(idle=0.3)
    return people, played


def tokens_of(w: World) -> Any:
    return w.bot.get_cog("PlayCog").tokens  # type: ignore[union-attr]


async def test_alerts_go_as_follow_ups_that_notify_and_leave_through_the_same_token(
        tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        start = len(w.sim.requests)
        played = Played()
        await play(w, people, played, 6)
        await w.sim.settle(idle=0.3)
        posts = alert_requests(w, start)
        assert len(posts) >= 3
        assert all(q.route == "/webhooks/{webhook_id}/{webhook_token}" for q in posts), [
            q.route for q in posts]
        thread = w.thread()
        for q in posts:  # in the thread, naming and notifying the person due alone
            assert str(q.response["channel_id"]) == str(thread.id)
            assert [int(u) for u in q.json["allowed_mentions"]["users"]] == [
                int(u) for u in mentioned(w.sim.message(str(q.response["id"])))]
        posted = {str(q.response["id"]) for q in posts}
        deletes = [q for q in w.sim.requests[start:]
                   if q.method == "DELETE" and q.path.rsplit("/", 1)[-1] in posted]
        assert deletes and all(q.route.startswith("/webhooks/") for q in deletes)
        # what still counts: the whole table's edits in the thread (nobody clicked there to
        # answer by editing it), nothing else
        kinds = {(q.method, q.route) for q in counted(w.sim.requests[start:])}
        assert kinds <= {("PATCH", "/channels/{channel_id}/messages/{message_id}")}, kinds
        due = w.bot.manager.tables[1].state.to_act  # type: ignore[union-attr]
        assert [set(mentioned(a)) for a in alerts_in(w.sim, thread)] == [
            {people[s].id for s in due}]
        assert w.sim.faults.invalid() == 0 and w.sim.spec_errors == []


async def test_the_channels_message_is_edited_through_the_token_of_play(tmp_path: Path) -> None:
    async with world(tmp_path, people=2) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        await w.sim.settle(idle=0.3)
        compact = w.channel_message()
        edits = [q for q in w.sim.requests if q.method == "PATCH"
                 and isinstance(q.response, dict) and q.response.get("id") == compact.id]
        assert edits, "the channel's message was never edited"
        assert all(q.route.startswith("/webhooks/") for q in edits), [q.route for q in edits]
        assert "Bob" in compact.content and w.sim.spec_errors == []


async def test_a_token_near_its_end_is_not_used(tmp_path: Path) -> None:
    """Discord takes a token for 15 minutes; past 14 the bot's own goes, so no request ever
    meets an expired token (an invalid request, for Discord)."""
    async with world(tmp_path, people=2) as w:
        people, played = await two_moves_in(w)
        [old] = alerts_in(w.sim, w.thread())
        tokens = tokens_of(w)
        now = tokens.clock()
        tokens.clock = lambda: now + FRESH  # every token kept is 14 minutes old
        assert tokens.in_channel(1, int(w.thread().id)) is None
        start = len(w.sim.requests)
        # the next move: the old alert, posted through a token now too old, is deleted by
        # the bot's; the new one goes through the token of the move's own click
        await play(w, people, played, 1)
        await w.sim.settle(idle=0.3)
        deletes = [q for q in w.sim.requests[start:] if q.method == "DELETE"]
        assert [(q.route, q.path.rsplit("/", 1)[-1]) for q in deletes] == [
            ("/channels/{channel_id}/messages/{message_id}", old.id)]
        assert w.sim.message(old.id).deleted
        assert [q.route for q in alert_requests(w, start)] == [FOLLOW_UP.split(" ", 1)[1]]
        assert w.sim.faults.invalid() == 0


async def test_a_token_discord_refuses_gives_way_to_the_bots_own(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with world(tmp_path, people=2) as w:
        people, played = await two_moves_in(w)
        refused = w.sim.faults.fail(401, routes=[FOLLOW_UP], count=1)
        start = len(w.sim.requests)
        await play(w, people, played, 1)
        await w.sim.settle(idle=0.3)
        assert len(refused.refused) == 1
        posts = [q for q in alert_requests(w, start) if q.status == 200]
        assert [q.route for q in posts] == ["/channels/{channel_id}/messages"]
        assert tokens_of(w).refused == 1
        assert "token was refused for its alert" in caplog.text
        due = w.bot.manager.tables[1].state.to_act  # type: ignore[union-attr]
        assert [set(mentioned(a)) for a in alerts_in(w.sim, w.thread())] == [
            {people[s].id for s in due}]
        await check_after(w, people, played)


async def test_a_token_refused_for_now_is_tried_again(tmp_path: Path) -> None:
    """A 503 on an alert's follow-up: sent again through the same token, not given up."""
    async with world(tmp_path, people=2) as w:
        people, played = await two_moves_in(w)
        refused = w.sim.faults.fail(503, routes=[FOLLOW_UP], count=1)
        await play(w, people, played, 1)
        await w.sim.settle(idle=1.5)
        assert len(refused.refused) == 1
        retries_waited(w.sim.requests, refused.refused, 1.0)
        assert tokens_of(w).refused == 0
        due = w.bot.manager.tables[1].state.to_act  # type: ignore[union-attr]
        assert [set(mentioned(a)) for a in alerts_in(w.sim, w.thread())] == [
            {people[s].id for s in due}]


async def test_a_table_under_discords_global_limit_with_the_bots_budget_below_it(
        tmp_path: Path) -> None:
    """The simulator refuses past 4 requests a second; the bot keeps to 3 (every request by
    its own token, the dearest case): no global 429, some requests held back, nothing lost."""
    async with world(tmp_path, people=2, global_rate=3) as w:
        people = w.users[:2]
        await open_table(w, "high-card", people, 2, {"hand": CARDS})
        bot_token_only(w)
        w.sim.faults.global_limit = 4
        played = Played()
        await play(w, people, played, 7)
        await w.sim.settle(idle=1.2)
        assert w.sim.faults.refused == []  # no 429 at all
        assert w.bot.budget is not None and w.bot.budget.held > 0  # the budget was reached
        w.sim.faults.global_limit = None
        await check_after(w, people, played)
        assert w.sim.spec_errors == []
